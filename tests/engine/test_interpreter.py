"""The one Effect interpreter and the night's phase table: every kind the data model allows has
a handler; a keyword means the same on a Trouper's card and an Enemy's; every phase is reached
in whole nights; every night action is refused outside its phases with the state unchanged."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, get_args

import pytest
from night_bot import new_table, play_night, step

from blood_companion.content import models as m
from blood_companion.content.errors import ContentError
from blood_companion.content.loader import shipped_data_dir, validate_layers
from blood_companion.engine import interpreter as interp
from blood_companion.engine.flow import action_class, apply
from blood_companion.engine.night import PHASES
from blood_companion.engine.night.phases import NIGHT_ACTIONS, QUESTION_ACTIONS
from blood_companion.engine.night_state import NightPhase
from blood_companion.engine.state import state_hash


@dataclass(frozen=True)
class Kinds:
    """Every kind the data model allows, per table (for the exhaustiveness test)."""

    conditions: tuple[str, ...] = field(default_factory=lambda: _literal(m.Condition, "kind"))
    costs: tuple[str, ...] = field(default_factory=lambda: _literal(m.Cost, "kind"))
    targets: tuple[str, ...] = field(default_factory=lambda: _literal(m.Target, "kind"))
    outcomes: tuple[str, ...] = field(default_factory=lambda: tuple(get_args(m.OutcomeKind)))


def _literal(model: type[Any], name: str) -> tuple[str, ...]:
    return tuple(get_args(model.model_fields[name].annotation))


def test_every_kind_of_every_element_has_a_handler() -> None:
    kinds = Kinds()
    assert set(kinds.outcomes) == set(interp.OUTCOMES), "an Outcome kind without a handler"
    assert set(kinds.costs) == set(interp.COSTS), "a Cost kind without a handler"
    assert set(kinds.conditions) == set(interp.CONDITIONS), "a Condition kind without a handler"
    assert set(kinds.targets) == set(interp.TARGETS), "a Target kind without a rule"
    assert set(get_args(m.OutcomeKind)) == set(kinds.outcomes)


def test_the_loader_refuses_an_unknown_kind_with_its_line(tmp_path: Any) -> None:
    folder = tmp_path / "mine" / "reactions"
    folder.mkdir(parents=True)
    text = (shipped_data_dir() / "reactions" / "lucilla.yaml").read_text(encoding="utf-8")
    (folder / "lucilla.yaml").write_text(
        text.replace("outcome: [{kind: fly}]", "outcome: [{kind: teleport}]", 1), encoding="utf-8"
    )
    with pytest.raises(ContentError) as info:
        validate_layers([shipped_data_dir(), tmp_path / "mine"])
    text_err = str(info.value)
    assert "lucilla.yaml:" in text_err and ".outcome[0].kind]" in text_err
    assert "found 'teleport'" in text_err


def _play_all_phases(catalog: Any) -> set[str]:
    seen: set[str] = set()
    for players, seed in ((1, 0), (2, 0), (3, 0), (4, 1)):
        table = new_table(catalog, players, seed=seed, bot_seed=seed)
        for _ in range(3000):
            seen.add(table.night.phase)
            if table.night.phase == "over":
                break
            step(table)
        seen |= {e.phase for e in table.night.log}  # phases passed inside one action
    return seen


def test_every_phase_of_the_table_is_reached_in_whole_nights(catalog: Any) -> None:
    assert set(PHASES) == set(get_args(NightPhase))
    assert _play_all_phases(catalog) == set(PHASES)


def _sample_actions() -> list[Any]:
    samples: dict[str, dict[str, Any]] = {
        "night_play": {"trouper": "aurel", "card": "aurel-t01"},
        "night_rest": {"trouper": "aurel", "card": "aurel-t01"},
        "night_pass": {"trouper": "aurel"},
        "night_attack": {"effect": 1, "target": "nemesis", "side": "front"},
        "night_effect": {"effect": 1},
        "night_support": {"slot": 1},
        "night_event": {"event": "1"},
        "night_item": {"trouper": "aurel", "item": "aurel-i01"},
        "night_quick": {"slot": 1, "effect": 1},
        "night_answer": {"troupers": ["aurel"]},
    }
    return [action_class(t)(**samples.get(t, {})) for t in sorted(NIGHT_ACTIONS)]


def test_every_night_action_is_refused_outside_its_phases_with_the_state_unchanged(
    catalog: Any,
) -> None:
    actions = _sample_actions()
    checked: set[tuple[str, str]] = set()
    for players, seed in ((2, 0), (1, 0)):
        table = new_table(catalog, players, seed=seed, bot_seed=seed)
        for _ in range(3000):
            night = table.night
            if night.phase == "over":
                break
            for action in actions:
                allowed = action.type in PHASES[night.phase].actions or (
                    night.pending and action.type in QUESTION_ACTIONS
                )
                if allowed:
                    continue
                before = state_hash(table.state)
                with pytest.raises(Exception) as info:
                    apply(table.state, action, catalog, 0)
                assert getattr(info.value, "message", ""), (night.phase, action.type)
                assert state_hash(table.state) == before
                checked.add((night.phase, action.type))
            step(table)
    phases = {p for p, _ in checked}
    assert phases >= {"planning", "tactic", "nemesis", "minions", "start_of_turn"}
    assert len(checked) > 40


def test_a_keyword_means_the_same_on_a_trouper_card_and_an_enemy_card(catalog: Any) -> None:
    table = play_night(new_table(catalog, 2, seed=0, bot_seed=0))
    assert table.night.phase == "over"
    state = new_table(catalog, 2, seed=0, bot_seed=0).state
    from blood_companion.engine.chance import Chance

    for enemy in (False, True):
        act = interp.Act(catalog, Chance.fresh(1, 1), source="lucilla" if enemy else "aurel",
                         enemy=enemy, target=1)
        after = interp.apply_outcomes(
            state, act, [m.Outcome(kind="wound"), m.Outcome(kind="bite"),
                         m.Outcome(kind="summon"), m.Outcome(kind="threat", n=1)]
        )
        t = after.troupers[1]
        assert len(t.wounds) == 1 and t.bites == 1, enemy
        assert len(after.night.minions) == len(state.night.minions) + 1, enemy
        assert after.night.threat == state.night.threat + 1, enemy


def test_a_discard_asks_which_cards_on_every_card(catalog: Any) -> None:
    state = new_table(catalog, 2, seed=0, bot_seed=0).state
    from blood_companion.engine.chance import Chance

    for enemy in (False, True):
        act = interp.Act(catalog, Chance.fresh(1, 1), source="x", enemy=enemy, target=0)
        after = interp.apply_outcomes(state, act, [m.Outcome(kind="discard", n=2)])
        q = after.night.pending[-1]
        assert q.kind == "discard" and q.n == 2 and q.trouper == 0
        assert after.troupers[0].hand == state.troupers[0].hand
