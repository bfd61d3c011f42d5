"""Issue 26, "No default asserts a fact only the table knows": a question only the Map answers
(which Troupers are in range, closest, farthest) has no Enter default, names every Trouper,
spells out `all` and `none`, and takes a Trouper by name; Enter after "Several of them" records
nothing either. A Leader question (a free choice among tied Troupers) has no Enter default
either; with one candidate left nothing is asked. Issue 39, "No Map fact assumed": where an
Event's Target must stand (next to its Scenic Element) and a Condition only the Map shows are
asked with no default, and the engine refuses them unconfirmed; an attack limited by a Distance
has no default target."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

import pytest  # noqa: E402
from night_bot import Table, new_table  # noqa: E402
from play_driver import (  # noqa: E402
    Driver,
    first_tactic,
    night_table,
    plain_attack,
    set_trouper,
    tactic_with,
)

from blood_companion.cli.play_menu import Again, Done  # noqa: E402
from blood_companion.engine import bookkeeping as fx  # noqa: E402
from blood_companion.engine import flow, legal, why, words  # noqa: E402
from blood_companion.engine.campaign import Seat, StartCampaign  # noqa: E402
from blood_companion.engine.errors import RuleError  # noqa: E402
from blood_companion.engine.night import (  # noqa: E402
    AnswerQuestion,
    FinishActivation,
    SetupNight,
    UseEvent,
)
from blood_companion.engine.night_state import Question  # noqa: E402
from blood_companion.engine.state import CampaignState, state_hash  # noqa: E402

MAP = ("in_range", "closest", "farthest")


def _begun(catalog: Any, troupers: list[str], seed: int) -> Table:
    table = Table(catalog, CampaignState())
    table.do(StartCampaign(name="t", mode="single", seed=seed,
                           seats=[Seat(trouper=t) for t in troupers]))
    table.do(SetupNight(nemesis="lucilla", location=catalog.locations_in("catacombs")[0].id,
                        minions=[m.id for m in catalog.all("minions")[:2]], difficulty=1))
    return table


def _to_map_question(table: Table, limit: int = 400) -> Driver:
    """Enter until a question only the Map answers is asked."""
    drv = Driver(table)
    for _ in range(limit):
        night = table.state.night
        if night is not None and night.pending and night.pending[0].kind in MAP:
            return drv
        drv.type("", literal=True)
    raise AssertionError("no Map question came")


def test_a_map_question_has_no_default_and_spells_all_and_none(catalog: Any) -> None:
    seen = 0
    for seed in range(1, 9):
        table = _begun(catalog, ["aurel", "ioana", "zora"], seed)
        try:
            drv = _to_map_question(table, 150)
        except AssertionError:
            continue
        seen += 1
        q = table.state.night.pending[0]
        nxt = flow.next_view(table.state, catalog)
        assert nxt.default is None
        screen = drv.screen()
        assert screen.default is None and "Look at the Map" in screen.question
        assert "`all`" in screen.question
        assert ("`none`" in screen.question) == (q.kind == "in_range")
        names = {c.label for c in screen.choices}
        assert {"Aurel, the Thread-Walker", "Ioana of the Seven Veils"} <= names
        before = table.state
        assert isinstance(drv.walk.answer(""), Again)  # Enter says nothing here
        assert table.state == before
    assert seen >= 3


def test_a_trouper_is_named_at_a_map_question(catalog: Any) -> None:
    for seed in range(1, 9):
        table = _begun(catalog, ["aurel", "ioana", "zora"], seed)
        try:
            drv = _to_map_question(table, 150)
        except AssertionError:
            continue
        cands = [table.state.troupers[i].trouper for i in table.state.night.pending[0].candidates]
        if "ioana" not in cands:
            continue
        result = drv.walk.answer("ioana")
        assert isinstance(result, Done)
        assert result.action.troupers == ["ioana"]
        if len(cands) > 2:
            several = drv.walk.answer("s")
            assert not isinstance(several, (Done, Again))
            assert isinstance(several.answer(""), Again)  # not "nobody"
            done = several.answer("ioana zora" if "zora" in cands else "ioana")
            assert isinstance(done, Done) and "ioana" in done.action.troupers
        return
    raise AssertionError("no Map question with Ioana among the candidates")


def test_all_and_none_are_answers_at_a_map_question(catalog: Any) -> None:
    for seed in range(1, 9):
        table = _begun(catalog, ["aurel", "ioana"], seed)
        try:
            drv = _to_map_question(table, 150)
        except AssertionError:
            continue
        q = table.state.night.pending[0]
        cands = [table.state.troupers[i].trouper for i in q.candidates]
        result = drv.walk.answer("all")
        assert isinstance(result, Done) and result.action.troupers == cands
        if q.kind == "in_range":
            result = drv.walk.answer("none")
            assert isinstance(result, Done) and result.action.troupers == []
        return
    raise AssertionError("no Map question came")


# --------------------------------------------------------------------------- the Leader's choice


def _tied(catalog: Any, **wounds: int) -> Table:
    """Corvin's Cold Hands from Below (closest, a dodge Test) waits at its target question,
    Ioana holding the Leader token; ``wounds`` gives Troupers Wounds (a Target Priority)."""
    from test_rule_enemy_queue import COLD, nemesis_phase_next

    from blood_companion.engine.night import NextPhase

    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = table.state.model_copy(update={"leader": 1})
    for who, n in wounds.items():
        table.state = fx.with_trouper(table.state, table.state.trouper_index(who),
                                      unmarked_wounds=n)
    nemesis_phase_next(table, [COLD], [], 0)
    table.do(NextPhase())
    assert table.state.night.pending[0].kind == "closest"
    return table


def test_a_leader_question_has_no_enter_default_and_enter_asks_again(catalog: Any) -> None:
    table = _tied(catalog)
    table.do(AnswerQuestion(troupers=["aurel", "ioana"]))  # as close, no Wounds: still tied
    assert table.state.night.pending[0].kind == "leader"
    assert flow.next_view(table.state, catalog).default is None
    drv = Driver(table)
    screen = drv.screen()
    assert screen.default is None and "Leader's Rule" in screen.question
    assert any("A free choice" in line for line in screen.info)
    before = state_hash(table.state)
    again = drv.walk.answer("")
    assert isinstance(again, Again) and "no default" in again.message  # a choice is needed
    assert state_hash(table.state) == before
    for typed, chosen in (("1", "aurel"), ("2", "ioana"), ("ioana", "ioana")):
        done = drv.walk.answer(typed)
        assert isinstance(done, Done) and done.action.troupers == [chosen], typed


def test_one_candidate_left_is_the_target_without_a_leader_question(catalog: Any) -> None:
    # the table names one Trouper closest: the Answer says so, no Leader question follows
    table = _tied(catalog)
    table.do(AnswerQuestion(troupers=["aurel"]))
    q = table.state.night.pending[0]
    assert q.kind == "test" and q.trouper == 0
    said = [words.render(e, catalog) for e in why.told(table.state.night.log)]
    assert said[-1] == "Answer: Aurel, the Thread-Walker"
    # a tie the app's state settles (fewest Wounds): decided, the dodge Test names Ioana
    table = _tied(catalog, aurel=2)
    table.do(AnswerQuestion(troupers=["aurel", "ioana"]))
    q = table.state.night.pending[0]
    assert q.kind == "test" and q.trouper == 1
    assert "Ioana of the Seven Veils may dodge" in flow.next_view(table.state, catalog).prompt


# --------------------------------------------------------------------------- issue 39: the Map


FOUNTAIN = "garden-e01"  # Drink from the Weeping Fountain: stand next to it; Discard 1


def _fountain(catalog: Any) -> Table:
    """Aurel Active in the Garden with the Weeping Fountain's Event on the Chain."""
    loc = catalog.locations_in("garden")[0].id
    table = night_table(catalog, ["aurel", "ioana"], seed=5, location=loc, events=[FOUNTAIN])
    tactic_with(table, [("aurel", first_tactic(catalog, "aurel", plain_attack))])
    while table.state.night.chain[table.state.night.activation.slot].owner != 0:
        table.do(FinishActivation())
    hand = table.state.troupers[0].hand
    set_trouper(table, "aurel", hand=[*hand, *table.state.troupers[0].draw_pile[:2]])
    return table


def _fountain_option(table: Table) -> legal.Option:
    nxt = flow.next_view(table.state, table.catalog)
    return next(o for o in nxt.options if o.kind == "night_event")


def test_an_events_scenic_position_is_asked_with_no_default(catalog: Any) -> None:
    table = _fountain(catalog)
    option = _fountain_option(table)
    assert option.needs[0] == "confirm"  # asked first, before its Cost and its Test
    q = flow.ask(table.state, catalog, option, {})
    assert q is not None and q.need == "confirm" and q.default is None
    assert "stands next to the Weeping Fountain" in q.prompt


def test_the_engine_refuses_an_event_whose_position_the_table_did_not_confirm(
    catalog: Any,
) -> None:
    table = _fountain(catalog)
    card = table.state.troupers[0].hand[0]
    before = state_hash(table.state)
    with pytest.raises(RuleError, match="only the table can tell whether Aurel, the "
                       "Thread-Walker stands next to the Weeping Fountain"):
        table.do(UseEvent(event=FOUNTAIN, discard=[card]))
    assert state_hash(table.state) == before
    table.do(UseEvent(event=FOUNTAIN, discard=[card], confirm=True))
    assert table.state.night.activation.event_used


def test_the_scenic_position_is_asked_in_blood_play(catalog: Any) -> None:
    table = _fountain(catalog)
    drv = Driver(table)
    key = next(c.key for c in drv.screen().choices if "Weeping Fountain" in c.label)
    drv.type(key)
    screen = drv.screen()
    assert screen.need == "confirm" and screen.default is None
    assert "next to the Weeping Fountain" in screen.question
    before = state_hash(table.state)
    enter = drv.type("", literal=True)
    assert isinstance(enter, Again) and "no default" in enter.message
    no = drv.type("n")
    assert isinstance(no, Again) and "another Effect" in no.message
    assert state_hash(table.state) == before and drv.screen().need == "confirm"
    drv.type("y")
    assert drv.screen().need == "discard"  # then its Cost
    card = table.state.troupers[0].hand[0]
    drv.type("1")
    trail = drv.screen().info[0]  # what was chosen so far, by name, never by id
    assert f"discard: {catalog.tactic(card).name}" in trail and card not in trail, trail
    drv.enter_until_recorded()
    assert isinstance(drv.recorded[0], UseEvent) and drv.recorded[0].confirm


def _attack(catalog: Any) -> tuple[Table, legal.Option]:
    table = night_table(catalog, ["aurel", "ioana"], seed=6)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    while table.state.night.chain[table.state.night.activation.slot].card != card:
        table.do(FinishActivation())
    nxt = flow.next_view(table.state, catalog)
    option = next(o for o in nxt.options if o.kind == "night_attack")
    eff = catalog.tactic(card).effects[int(option.fields["effect"]) - 1]
    assert eff.target is not None and eff.target.distance not in ("any", "area")
    return table, option


def test_an_attack_limited_by_a_distance_has_no_default_target(catalog: Any) -> None:
    table, option = _attack(catalog)
    q = flow.ask(table.state, catalog, option, {})
    assert q is not None and q.need == "target" and q.default is None
    assert "at Distance" in q.prompt and "look at the Map" in q.prompt
    assert {p.value for p in q.picks} >= {"nemesis"}


def test_the_attack_target_is_named_in_blood_play(catalog: Any) -> None:
    table, option = _attack(catalog)
    drv = Driver(table)
    drv.type(option.key)
    screen = drv.screen()
    assert screen.need == "target" and screen.default is None
    enter = drv.type("", literal=True)
    assert isinstance(enter, Again) and "no default" in enter.message
    minion = next(c for c in screen.choices if c.key != "n")
    drv.type(minion.label.split(": ")[1].split(" (")[0])  # by the Minion's name
    assert drv.screen().need != "target"
    assert f"target: Minion {minion.key.upper()}" in drv.screen().info[0]  # named, not "a"


@pytest.mark.parametrize(("about", "default"), [("", None), ("free_text", "y")])
def test_an_enemy_condition_only_the_map_shows_has_no_default(
    catalog: Any, about: str, default: str | None,
) -> None:
    table = night_table(catalog, ["aurel", "ioana"], seed=6)
    q = Question(kind="confirm", prompt="Effect 1: does its Condition hold? adjacent to a Rock",
                 about=about)
    table.state = fx.with_night(table.state, pending=[q])
    nxt = flow.next_view(table.state, catalog)
    assert nxt.default == default
    assert {o.key for o in nxt.options} == {"y", "n"}


def test_an_event_recorded_before_the_question_existed_still_replays(catalog: Any) -> None:
    # action schema 1 never asked where the Active Trouper stands: such a step was played at
    # the table as recorded, and opens confirmed (engine/upcast.py)
    from blood_companion.store.campaign_store import parse_stored

    old = '{"type": "night_event", "event": "garden-e01", "discard": ["aurel-t01"]}'
    assert parse_stored(old, 1) == UseEvent(event=FOUNTAIN, discard=["aurel-t01"], confirm=True)
    assert parse_stored(old, 2) == UseEvent(event=FOUNTAIN, discard=["aurel-t01"])
    table = _fountain(catalog)
    card = table.state.troupers[0].hand[0]
    table.do(parse_stored(old.replace("aurel-t01", card), 1))
    assert table.state.night.activation.event_used
