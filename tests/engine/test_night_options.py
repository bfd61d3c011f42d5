"""The night's menu data: activation_options and test_options (used by `blood play`)."""

from __future__ import annotations

from typing import Any

from night_bot import answer, new_table

from blood_companion.engine.night import PlayCard, activation_options, whose_turn
from blood_companion.engine.rolls.night import test_options as night_test_options


def test_options_as_data(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3)
    for _ in range(200):
        night = table.night
        if night.pending:
            q = night.pending[0]
            if q.kind == "test":
                opts = night_test_options(
                    table.state,
                    catalog,
                    q.trouper,
                    traits=q.traits,
                    fixed_dice=q.dice,
                    target=q.target or 0,
                )
                assert opts and all(0 <= o["probability"] <= 1 for o in opts)
                assert [o["probability"] for o in opts] == sorted(
                    (o["probability"] for o in opts), reverse=True
                )
            answer(table)
            continue
        if night.phase == "planning":
            nxt = whose_turn(table.state, catalog)
            assert {"can_rest", "must_rest", "can_pass"} <= set(nxt)
            t = table.state.troupers[night.to_play]
            table.do(PlayCard(trouper=t.trouper, card=t.hand[0]))
            continue
        if night.phase == "tactic" and night.activation is not None:
            opt = activation_options(table.state, catalog)
            assert opt["trouper"] == table.state.troupers[night.activation.trouper].trouper
            for e in opt["effects"]:
                assert e["open"] or e["why"]
                if e["attack"] and e["open"]:
                    assert e["targets"]
            assert whose_turn(table.state, catalog)["options"] == opt
            return
        from blood_companion.engine.night import NextPhase

        table.do(NextPhase())
    raise AssertionError("never reached the Tactic Phase")


def test_attack_targets_carry_the_triumphs_needed(catalog) -> None:  # type: ignore[no-untyped-def]
    from night_bot import new_table

    from blood_companion.engine import bookkeeping as fx
    from blood_companion.engine.night import attack_need
    from blood_companion.engine.night.views import attack_targets as _targets

    table = new_table(catalog, 1, seed=3, nemesis="corvin")
    deck = catalog.starting_tactics_for("aurel")
    eff = next(
        e for c in deck for e in c.effects if any(o.kind == "physical_attack" for o in e.outcome)
    )
    state = table.state
    nem = fx.nemesis_card(state, catalog)
    for tg in _targets(state, catalog, eff):
        if tg["target"] == "nemesis":
            for side, need in tg["defense"].items():
                w = fx.weakness(state, catalog, side)
                mod = w.physical_modifier if w else 0
                assert need == max(0, nem.defenses.physical + mod)
                assert attack_need(state, catalog, eff, "nemesis", side)[1] == need
        else:
            assert tg["defense"] >= 0
