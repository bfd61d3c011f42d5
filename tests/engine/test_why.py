"""Issue 39, Build 5 "why": each decision the app takes for the Nemesis side is recorded by the
engine with the step as it decides (engine/why.py): a Target by its Priorities, a tie settled
by a later Priority or by the table, the Leader's Rule, a Summon's card and space, the order
of the Nemesis and Minions Phases. Each test builds its moment with the real actions and reads
the records the step wrote (``step_decisions``) and their words (``lines``)."""

from __future__ import annotations

from typing import Any

from night_bot import Table, new_table
from test_rule_enemy_queue import CALL, COLD, nemesis_phase_next

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import why
from blood_companion.engine.flow import apply
from blood_companion.engine.night import AnswerQuestion, NextPhase, RollTest
from blood_companion.engine.night_state import MinionSlot
from blood_companion.engine.state import CampaignState

TOMB = "corvin-r08"  # Tomb Bell: +2 Threat, then Exhausted on a Trouper (most Wounds, closest)
GRAVE = "corvin-r01"  # Gravedigger's Reach: Effect 2 targets Distance 0 (fewest Wounds)
AUREL, IOANA = "Aurel, the Thread-Walker", "Ioana of the Seven Veils"


def _corvin(catalog: Any, line: list[str], leader: int = 0, **wounds: int) -> Table:
    """Corvin's night at the end of a Tactic Phase with ``line`` on the Reaction Line, Threat
    on 0 (no Alert comes), ``wounds`` Wounds no card marks (a Target Priority counts them)."""
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = table.state.model_copy(update={"leader": leader})
    for who, n in wounds.items():
        table.state = fx.with_trouper(table.state, table.state.trouper_index(who),
                                      unmarked_wounds=n)
    nemesis_phase_next(table, line, [], 0)
    return table


def _step(table: Table, action: Any) -> list[dict[str, Any]]:
    before = table.state
    table.do(action)
    return why.step_decisions(before, table.state)


def _targets(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [d for d in found if d["about"] == "target"]


def test_a_target_by_its_priorities_names_each_priority_in_the_cards_order(
        catalog: Any) -> None:
    table = _corvin(catalog, [TOMB], ioana=2)
    found = _step(table, NextPhase())
    [d] = _targets(found)
    assert d["job"]["card"] == TOMB and d["effect"] == 1
    assert d["priorities"] == ["most_wounds", "closest"]  # the card's order
    assert d["steps"] == [
        {"rule": "everyone", "kept": ["aurel", "ioana"]},
        {"rule": "most_wounds", "kept": ["ioana"],
         "values": {"aurel": 0, "ioana": 2}}]
    assert d["chosen"] == ["ioana"]
    # the app applied it: the target's own Test is what the table is asked next
    assert table.night.pending[0].kind == "test" and table.night.pending[0].trouper == 1
    words = why.lines([d], catalog)
    assert words[0].startswith("Tomb Bell (Effect 2): Target: Trouper")
    assert "1. most Wounds, 2. closest" in words[1]
    assert (f"  Priority 1, most Wounds ({AUREL}: 0 Wounds; {IOANA}: 2 Wounds): kept {IOANA}"
            in words)
    assert f"  Target: {IOANA}" in words
    assert "  Not needed, one Trouper being left: 2. closest" in words
    assert "Nemesis Target Priority" in words[-1] and "Leader Rule" not in words[-1]


def test_a_tie_goes_to_the_next_priority_then_the_leaders_rule(catalog: Any) -> None:
    table = _corvin(catalog, [TOMB], leader=1)  # nobody Wounded: Priority 1 keeps both
    [d] = _targets(_step(table, NextPhase()))
    assert d["asks"] == "closest" and "chosen" not in d
    assert [s["kept"] for s in d["steps"]] == [["aurel", "ioana"], ["aurel", "ioana"]]
    words = why.lines([d], catalog)
    assert any("Waiting: the table says who is closest" in w for w in words)
    # the table says both stand as close: still tied, the Leader's Rule is asked
    [d] = _targets(_step(table, AnswerQuestion(troupers=["aurel", "ioana"])))
    assert table.night.pending[0].kind == "leader"
    assert d["asks"] == "leader"
    assert d["steps"][-1] == {"rule": "closest", "by": "table", "kept": ["aurel", "ioana"]}
    # the Leader picks: the whole trace, from the first candidates to the Leader's pick
    [d] = _targets(_step(table, AnswerQuestion(troupers=["aurel"])))
    assert [(s["rule"], s.get("by", "app"), s["kept"]) for s in d["steps"]] == [
        ("everyone", "app", ["aurel", "ioana"]), ("most_wounds", "app", ["aurel", "ioana"]),
        ("closest", "table", ["aurel", "ioana"]), ("leader", "leader", ["aurel"])]
    assert d["chosen"] == ["aurel"]
    words = why.lines([d], catalog)
    assert f"Priority 2, closest - the table said (the Map shows it): kept {AUREL} and {IOANA}" \
        in " ".join(words)
    assert any(w.startswith("  Leader's Rule - still tied") and w.endswith(AUREL) for w in words)
    assert "Leader Rule" in words[-1] and "Nemesis Target Priority" in words[-1]


def test_one_priority_breaks_a_tie_the_table_left(catalog: Any) -> None:
    # Cold Hands from Below: closest, then fewest Wounds; the table names both as closest
    table = _corvin(catalog, [COLD], aurel=1)
    _step(table, NextPhase())
    [d] = _targets(_step(table, AnswerQuestion(troupers=["aurel", "ioana"])))
    assert [(s["rule"], s["kept"]) for s in d["steps"][1:]] == [
        ("closest", ["aurel", "ioana"]), ("fewest_wounds", ["ioana"])]
    assert d["steps"][2]["values"] == {"aurel": 1, "ioana": 0}
    assert d["chosen"] == ["ioana"]


def test_a_distance_is_the_tables_and_the_priority_after_it_the_apps(catalog: Any) -> None:
    table = _corvin(catalog, [GRAVE], ioana=1)
    _step(table, NextPhase())  # Effect 1: closest, asked
    _step(table, AnswerQuestion(troupers=["aurel"]))
    assert table.night.pending[0].kind == "test"
    _step(table, RollTest(trait="strength", dice=["x x x"]))  # Aurel fails: Attract 3
    assert table.night.pending[0].kind == "in_range"  # Effect 2: Distance 0, the Map's
    found = _step(table, AnswerQuestion(troupers=["aurel", "ioana"]))
    [d] = [x for x in _targets(found) if x["effect"] == 1]
    assert d["distance"] == "0" and d["priorities"] == ["fewest_wounds"]
    assert [(s["rule"], s.get("by", "app"), s["kept"]) for s in d["steps"]] == [
        ("everyone", "app", ["aurel", "ioana"]), ("in_range", "table", ["aurel", "ioana"]),
        ("fewest_wounds", "app", ["aurel"])]
    words = why.lines([d], catalog)
    assert any(w.startswith("  Distance - the table said who is at Distance 0") for w in words)
    assert "Reading the Elements of a Target" in words[-1]


def test_nobody_in_range_is_no_valid_target(catalog: Any) -> None:
    table = _corvin(catalog, [GRAVE])
    _step(table, NextPhase())
    _step(table, AnswerQuestion(troupers=["aurel"]))
    _step(table, RollTest(trait="strength", dice=["x x x"]))
    [d] = [x for x in _targets(_step(table, AnswerQuestion(troupers=[]))) if x["effect"] == 1]
    assert d["chosen"] == [] and d["steps"][-1] == {"rule": "in_range", "by": "table",
                                                    "kept": []}
    words = why.lines([d], catalog)
    assert "  No valid target: the Effect is ignored" in words
    assert '"Resolving the Effects"' in words[-1]


def test_a_summon_records_its_card_pool_and_the_first_free_space(catalog: Any) -> None:
    table = _corvin(catalog, [CALL])
    flow = catalog.board.minion_spaces[2:]
    ghouls = sorted(m.id for m in catalog.all("minions") if m.type == "ghoul"
                    and m.id not in {s.minion for s in table.night.minions})
    # another card already stands on the first summon space: the next free one is taken
    other = next(m.id for m in catalog.all("minions")
                 if m.id not in {s.minion for s in table.night.minions} and m.type != "ghoul")
    table.state = fx.with_night(table.state, minions=[
        *table.night.minions, MinionSlot(space=flow[0], minion=other, summoned=True)])
    found = _step(table, NextPhase())
    [d] = [x for x in found if x["about"] == "summon"]
    assert d["minion_type"] == "ghoul" and d["typed"] is True and d["pool"] == ghouls
    assert d["flow"] == flow and d["taken"] == [flow[0]] and d["space"] == flow[1]
    assert d["card"] in ghouls and d["src"] == "corvin"
    slot = table.night.minions[-1]
    assert (slot.space, slot.minion) == (flow[1], d["card"])
    words = why.lines([d], catalog)
    nemesis = catalog.nemesis("corvin").name
    assert words[0] == f"Summon by {nemesis} (a Ghoul)"
    assert any(w.startswith("  Space: the first free Minion space in the Flow Arrow's order")
               and w.endswith(f"taken: {flow[0]}): {flow[1]}") for w in words)
    assert "Summon" in words[-1]


def test_a_summon_with_no_free_space_says_it_is_ignored(catalog: Any) -> None:
    table = _corvin(catalog, [CALL])
    flow = catalog.board.minion_spaces[2:]
    free = [m.id for m in catalog.all("minions")
            if m.id not in {s.minion for s in table.night.minions}]
    table.state = fx.with_night(table.state, minions=[
        *table.night.minions,
        *(MinionSlot(space=sp, minion=mid, summoned=True)
          for sp, mid in zip(flow, free[:len(flow)], strict=True))])
    [d] = [x for x in _step(table, NextPhase()) if x["about"] == "summon"]
    assert "space" not in d and d["taken"] == flow
    assert "  No Minion space was free: the Summon is ignored" in why.lines([d], catalog)


def test_the_nemesis_phase_order_is_rightmost_first(catalog: Any) -> None:
    table = _corvin(catalog, [TOMB, CALL], ioana=1)
    found = _step(table, NextPhase())
    order = [d for d in found if d["about"] == "order"]
    assert order[0] == {"about": "order", "during": "nemesis", "cards": [[CALL, 1], [TOMB, 0]]}
    words = why.lines(order[:1], catalog)
    assert words[0].endswith("rightmost first: Call the Hungry (space 2), Tomb Bell (space 1)")
    assert "Nemesis Phase" in words[-1]


def test_the_minions_phase_order_is_a_b_then_the_flow(catalog: Any) -> None:
    table = _corvin(catalog, [])
    night = table.night
    mine = [s for s in night.minions if s.space in ("A", "B")]
    spare = [m.id for m in catalog.all("minions") if m.id not in {s.minion for s in mine}]
    # summoned cards on D and C, listed out of the Flow's order
    table.state = fx.with_night(table.state, minions=[
        MinionSlot(space="D", minion=spare[0], summoned=True), *mine,
        MinionSlot(space="C", minion=spare[1], summoned=True)])
    while table.night.phase != "minions":
        table.do(NextPhase())
    found = why.decisions(table.night.log)
    order = [d for d in found if d["about"] == "order" and d["during"] == "minions"]
    assert len(order) == 1  # once, as the phase begins
    assert [s[0] for s in order[0]["spaces"]] == ["A", "B", "C", "D"]
    words = why.lines(order, catalog)
    assert words[0].startswith("Minions Phase order: Minion space A, then B, then the other "
                               "spaces in the Flow Arrow's order: A ")
    assert "Minions Phase" in words[-1]


def test_the_records_are_the_steps_own_and_left_out_of_what_the_table_is_told(
        catalog: Any) -> None:
    table = _corvin(catalog, [TOMB], ioana=2)
    before = table.state
    start = len(table.night.log)
    table.do(NextPhase())
    log = table.night.log[start:]
    # one card on the Line (no order to tell), a Target the app chose: one record
    assert [e.kind for e in log].count(why.DECISION) == 1
    assert [d["about"] for d in why.decisions(log)] == ["target"]
    assert why.told(log) == [e for e in log if e.kind != why.DECISION]
    # pure: the same step from the same state writes the same records (a replay keeps them)
    assert apply(before, NextPhase(), catalog, len(table.log) - 1) == table.state
    # the states before and after a step name its records, none of an earlier step's
    assert why.step_decisions(table.state, table.state) == []
    assert why.decisions(log) == why.step_decisions(before, table.state)


def test_a_step_outside_the_night_has_none(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    started = apply(CampaignState(), table.log[0], catalog, 0)  # the campaign begins
    assert why.step_decisions(CampaignState(), started) == []
    assert why.lines([], catalog) == []
