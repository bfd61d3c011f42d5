"""Issue 23 ("Every rule right"), items 2, 12 and 13: the Cleanup Phase in its printed order,
the Chain's spaces as places on the board, and the Dusk and Nemesis movement instructions.
Each test drives the night with the real actions and fails on the code before its fix."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from night_bot import Table, new_table, step
from test_day import Table as DayTable
from test_day import walk_to

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine import day as d
from blood_companion.engine import why, words
from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import NextPhase, SetupNight, UseEvent
from blood_companion.engine.night.views import activation_options, board_view
from blood_companion.engine.state import CampaignState, state_hash
from blood_companion.engine.words import checklist_for

SELF = m.Target(kind="self")


def with_records(catalog: Any, kind: str, changed: dict[str, Any]) -> Any:
    """The catalog with some records of ``kind`` replaced (placeholder data has no such card)."""
    records = [changed.get(r.id, r) for r in catalog.all(kind)]
    return dataclasses.replace(catalog, records={**catalog.records, kind: records})


def with_config(catalog: Any, **update: Any) -> Any:
    config = catalog.config.model_copy(update=update)
    return dataclasses.replace(catalog, records={**catalog.records, "rules_config": [config]})


def item_with(catalog: Any, item: str, eff: m.Effect) -> Any:
    it = catalog.item(item)
    side = it.starting.model_copy(update={"effects": [eff]})
    return with_records(catalog, "trouper_items", {item: it.model_copy(update={"starting": side})})


def until(table: Table, phase: str) -> None:
    """Play the night with the bot until ``phase`` is done and nothing waits."""
    for _ in range(2000):
        night = table.night
        if night.phase == phase and night.phase_done and not night.pending:
            return
        assert night.phase != "over", night.reason
        step(table)
    raise AssertionError(f"the night never finished the {phase} phase")


def kinds(table: Table, since: int = 0) -> list[str]:
    return [e.kind for e in table.night.log[since:]]


def texts(table: Table, since: int = 0) -> list[str]:
    return [words.render(e, table.catalog) for e in why.told(table.night.log[since:])]


# --------------------------------------------------------------------------- 2 Cleanup order


def test_rule_2_a_beginning_of_cleanup_exhausted_is_discarded_by_the_same_cleanup(
    catalog: Any,
) -> None:
    eff = m.Effect(timing="beginning_of_cleanup", target=SELF,
                   outcome=[m.Outcome(kind="exhausted")])
    table = new_table(item_with(catalog, "aurel-i01", eff), 2, seed=3, nemesis="corvin",
                      bot_seed=2)
    assert "aurel-i01" in table.state.troupers[0].equipped.values()
    until(table, "minions")
    assert not table.state.troupers[0].exhausted  # Aurel did not Rest this turn
    start = len(table.night.log)
    table.do(NextPhase())  # into the Cleanup Phase
    assert table.night.phase == "cleanup" and table.night.phase_done
    log = kinds(table, start)
    # the Item's Effect first ("at the beginning of the Cleanup Phase"), then the other steps,
    # which discard the Exhausted token: the Trouper starts the next turn fresh
    assert log.index("exhausted") < log.index("leader_passes") < log.index("cleanup_done")
    assert not table.state.troupers[0].exhausted
    table.do(NextPhase())
    assert table.night.phase in ("start_of_turn", "planning")
    assert not table.state.troupers[0].exhausted


def test_rule_2_a_nemesis_skill_and_a_chain_card_resolve_at_the_beginning_of_cleanup(
    catalog: Any,
) -> None:
    skill = m.Effect(name="Last Light", timing="beginning_of_cleanup",
                     target=m.Target(kind="troupers_all"), outcome=[m.Outcome(kind="exhausted")])
    nem = catalog.nemesis("corvin")
    cat = with_records(catalog, "nemeses", {"corvin": nem.model_copy(
        update={"skills": [*nem.skills, skill]})})
    plain = new_table(cat, 2, seed=3, nemesis="corvin", bot_seed=2)
    until(plain, "minions")
    card = next(s.card for s in plain.night.chain if s.kind == "tactic" and s.owner == 0)
    # that card of Aurel's, played this turn, draws a card at the beginning of the Cleanup
    drawn = m.Effect(timing="beginning_of_cleanup", target=SELF,
                     outcome=[m.Outcome(kind="draw", n=1)])
    tactic = cat.tactic(card)
    cat = with_records(cat, "starting_tactics", {card: tactic.model_copy(
        update={"effects": [*tactic.effects, drawn]})})
    table = new_table(cat, 2, seed=3, nemesis="corvin", bot_seed=2)
    until(table, "minions")  # the same turn: the Tactic Phase does not resolve the timed Effect
    assert table.night.chain == plain.night.chain
    assert not table.state.troupers[0].exhausted
    hand = len(table.state.troupers[0].hand)
    start = len(table.night.log)
    table.do(NextPhase())
    night = table.night
    assert not night.pending and night.phase_done
    log = kinds(table, start)
    # the Nemesis's Skill (Aurel Exhausted), then the card's Draw, then the other Cleanup steps
    assert log.index("exhausted") < log.index("draws") < log.index("leader_passes")
    assert table.night.log[start + log.index("exhausted")].args["who"] == "aurel"
    assert log.index("draws") < log.index("cleanup_done")
    assert len(table.state.troupers[0].hand) == hand + 1
    assert card in table.state.troupers[0].discard  # then the card left the Chain
    assert not any(t.exhausted for t in table.state.troupers)  # discarded after the Skill


def test_rule_2_a_beginning_of_cleanup_draw_comes_before_the_night_is_judged(
    catalog: Any,
) -> None:
    eff = m.Effect(timing="beginning_of_cleanup", target=SELF,
                   outcome=[m.Outcome(kind="draw", n=1)])
    table = new_table(item_with(catalog, "aurel-i01", eff), 2, seed=3, nemesis="corvin")
    until(table, "minions")
    for i in range(len(table.state.troupers)):  # every hand played out
        t = table.state.troupers[i]
        table.state = fx.with_trouper(table.state, i, hand=[], discard=[*t.discard, *t.hand])
    assert table.state.troupers[0].draw_pile
    table.do(NextPhase())
    night = table.night
    assert night.result is None, night.reason  # not lost: Aurel draws first
    assert night.phase == "cleanup" and night.phase_done and not night.queue
    assert len(table.state.troupers[0].hand) == 1
    log = kinds(table)
    assert log.index("draws", log.index("cleanup_phase")) < log.index("cleanup_done")


# --------------------------------------------------------------------------- 12 Chain spaces

WIN = "2 2 2"  # three dice showing two Triumphs each: the Test succeeds


def run_until(table: Table, done: Any) -> None:
    for _ in range(2000):
        if done(table.night):
            return
        assert table.night.phase != "over", table.night.reason
        step(table)
    raise AssertionError("never reached")


def test_rule_12_an_event_keeps_its_chain_space_and_new_cards_fill_the_leftmost_free(
    catalog: Any,
) -> None:
    table = Table(catalog, CampaignState())
    table.do(StartCampaign(name="t", mode="single", seed=3,
                           seats=[Seat(trouper="aurel"), Seat(trouper="ioana")]))
    loc = catalog.locations_in("catacombs")[0].id
    table.do(SetupNight(nemesis="corvin", location=loc, difficulty=2,
                        minions=[x.id for x in catalog.all("minions")[:2]],
                        events=["catacombs-e02", "catacombs-e03"]))
    board = board_view(table.state, catalog)["chain"]
    assert [(c["card"], c["space"]) for c in board] == [("catacombs-e02", 1), ("catacombs-e03", 2)]
    # Game Turn 1: the first Active Trouper solves the Event on space 1
    run_until(table, lambda n: n.phase == "tactic" and n.activation is not None and not n.pending)
    table.do(UseEvent(event="1", distance=1, trait="strength", dice=[WIN], confirm=True))
    assert table.night.chain[0].face_down
    run_until(table, lambda n: n.phase == "cleanup" and n.phase_done and not n.pending)
    # the Cleanup takes the solved Event away; the other stays on space 2
    board = board_view(table.state, catalog)["chain"]
    assert [(c["card"], c["space"]) for c in board] == [("catacombs-e03", 2)]
    assert [(s.card, s.space) for s in table.night.chain] == [("catacombs-e03", 1)]  # stored
    assert fx.night_of(table.replayed()) == table.night  # and replayed alike
    assert CampaignState.model_validate(table.state.model_dump(mode="json")) == table.state
    # Game Turn 2: the first card goes on space 1, left of the Event, the next on space 3
    start = len(table.night.log)
    run_until(table, lambda n: sum(s.kind != "event" for s in n.chain) == 2 and not n.pending)
    played = [e for e in table.night.log[start:] if e.kind in ("plays", "rests")]
    assert [e.args["space"] for e in played[:2]] == [1, 3]
    said = [t for t in texts(table, start) if "Chain space" in t]
    assert "Chain space 1" in said[0] and "Chain space 3" in said[1]
    chain = table.night.chain
    assert ch.spaces(chain) == [0, 1, 2] and chain[1].card == "catacombs-e03"
    # the Tactic Phase names the spaces as the board shows them too
    run_until(table, lambda n: n.phase == "tactic" and n.activation is not None and not n.pending)
    active = [e for e in table.night.log if e.kind in ("active", "active_rest")][-1]
    assert active.args["space"] == 1
    events = activation_options(table.state, catalog)["events"]
    assert [(e["event"], e["space"]) for e in events] == [("catacombs-e03", 2)]
    before = state_hash(table.state)
    with pytest.raises(RuleError, match="Chain space 1 holds no Event card"):
        table.do(UseEvent(event="1", distance=1, trait="strength", dice=[WIN], confirm=True))
    assert state_hash(table.state) == before


# --------------------------------------------------------------------------- 13 Dusk, Front


def test_rule_13_the_dusk_names_the_scenic_elements_the_events_use(catalog: Any) -> None:
    table = DayTable(catalog)
    walk_to(table, "dusk_events")
    assert catalog.get("locations", table.state.day.location).zone == "catacombs"
    table.do(d.PlaceEvents(events=["catacombs-e01", "catacombs-e03"]))
    lines = checklist_for(table.state, catalog, "dusk")
    scenic = [x for x in lines if x.startswith("Scenic Elements")]
    assert len(scenic) == 1
    line = scenic[0]
    # the Bone Altar (large) of "Desecrate the Bone Altar" on the L Tile; its Tile Impassable
    assert "the Bone Altar on the L Tile (for Desecrate the Bone Altar)" in line
    assert "Their Tiles are Impassable" in line
    assert "Sarcophagus" not in line  # not an Event on this Chain
    assert "The other L and S Tiles take a Scenic Element of that size of your choice" in line
    # the Threat token after it; the Event cards themselves are the set-up step's own
    # instructions ("At the table", issue 39: told once), not a line of this list
    assert lines[lines.index(line) + 1].startswith("The Threat token")
    assert not any(x.startswith("Event cards on the Chain") for x in lines)
    empty = with_config(catalog, unnamed_scenic_tiles="empty")
    assert "they are ordinary Tiles" in checklist_for(table.state, empty, "dusk")[
        lines.index(line)]


def test_rule_13_the_nemesis_turns_its_front_and_troupers_stand_before_it(
    catalog: Any,
) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")

    def nemesis_moves() -> list[Any]:
        return [e for e in table.night.log if e.kind == "movement"
                and (e.args.get("mover") or {}).get("card") == "corvin"]

    for _ in range(600):
        if nemesis_moves():
            break
        assert table.night.phase != "over"
        step(table)
    move = nemesis_moves()[0]
    assert move.phase == "nemesis" and move.args["move"] == "step"
    line = words.render(move, catalog)
    assert line.startswith("MOVE Corvin the Gravewarden: Step 2")
    assert ("before leaving each Tile, turn its Front toward the side of the Tile it crosses "
            "(the side on the shortest path to its target)") in line
    assert ("on each Tile it enters, set it in the center and place every Trouper on that Tile "
            "in front of its Front") in line
    # an Escape keeps its facing: no turning, the Troupers still in front of its Front
    escape = words.movement_text(catalog, {"move": "escape", "n": 1,
                                             "mover": {"card": "corvin"}})
    assert "facing unchanged" in escape and "turn its Front" not in escape
    assert "in front of its Front" in escape
    # a Minion's movement is not the Nemesis's
    minion = catalog.all("minions")[0].id
    assert "Front" not in words.movement_text(catalog, {"move": "step", "n": 1,
                                                          "mover": {"card": minion}})
