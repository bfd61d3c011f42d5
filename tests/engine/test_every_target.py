"""Issue 27: "every/each/all" Targets on Minions and Enemies, resolved by the engine: the
Effect applies to each Minion on the board (the Nemesis first, for every Enemy), an attack is
one Test per target (or, rules_config ``many_targets_attack: one_test``, the first one's for
all). Each test fails on the code before: the Target kinds did not exist."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from night_bot import Table, new_table

from blood_companion.content import models as m
from blood_companion.content.effect_text import parse_effect
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import Attack, ResolveEffect
from blood_companion.engine.night import enemy as ai
from blood_companion.engine.night_state import Activation, ChainSlot, EnemyJob
from blood_companion.engine.state import state_hash

WIN = "2 2 2"  # every Test succeeds
LOSE = "x x x"  # every Test fails (a Defeat on each die)
CARD = "aurel-t08"


def with_effects(catalog: Any, *typed: str, **config: Any) -> Any:
    """The catalog with Aurel's CARD printing the Effects ``typed`` (and rules_config)."""
    effects = [parse_effect(t) for t in typed]
    cards = [c.model_copy(update={"effects": effects}) if c.id == CARD else c
             for c in catalog.records["starting_tactics"]]
    rules = catalog.config.model_copy(update=config)
    return dataclasses.replace(catalog, records={**catalog.records, "starting_tactics": cards,
                                                  "rules_config": [rules]})


def table_with(catalog: Any, *typed: str, **config: Any) -> Table:
    table = new_table(with_effects(catalog, *typed, **config), 2, seed=3, nemesis="corvin")
    night = table.night
    events = [s.model_copy(update={"resolved": True, "face_down": True}) for s in night.chain]
    chain = [*events, ChainSlot(kind="tactic", card=CARD, owner=0)]
    table.state = fx.with_night(
        table.state, chain=chain, phase="tactic", phase_done=False, pending=[], queue=[],
        activation=Activation(slot=len(chain) - 1, trouper=0),
    )
    return table


def moved(table: Table, start: int) -> list[Any]:
    return [e.args["mover"] for e in table.night.log[start:] if e.kind == "movement"]


def each_minion(table: Table) -> list[dict[str, str]]:
    return [{"card": s.minion, "space": s.space} for s in table.night.minions
            for _ in range(s.alive)]


def refused(table: Table, action: Any, match: str) -> None:
    before = state_hash(table.state)
    with pytest.raises(RuleError, match=match):
        table.do(action)
    assert state_hash(table.state) == before


def test_every_minion_is_pushed_one_after_another_in_board_order(catalog: Any) -> None:
    table = table_with(catalog, "Target: every Minion. Outcome: Push 1, Draw 1.")
    want, start = each_minion(table), len(table.night.log)
    hand = len(table.state.troupers[0].hand)
    assert len(want) >= 2
    table.do(ResolveEffect(effect=1))
    assert moved(table, start) == want  # space A's Miniatures, then B's, ...
    assert len(table.state.troupers[0].hand) == hand + 1  # the Draw is the Trouper's, once


def test_every_enemy_takes_the_nemesis_first_then_each_minion(catalog: Any) -> None:
    table = table_with(catalog, "Target: each Enemy. Outcome: Attract 1.")
    want = [{"card": table.night.nemesis}, *each_minion(table)]
    start = len(table.night.log)
    table.do(ResolveEffect(effect=1))
    assert moved(table, start) == want
    moves = [e.args for e in table.night.log[start:] if e.kind == "movement"]
    assert [(m["move"], m["n"]) for m in moves] == [("attract", 1)] * len(want)


def test_a_wound_to_every_minion_defeats_each_one(catalog: Any) -> None:
    table = table_with(catalog, "Target: all Minions. Outcome: Wound.")
    assert any(s.alive for s in table.night.minions)
    table.do(ResolveEffect(effect=1))
    assert all(s.alive == 0 for s in table.night.minions)
    assert table.state.troupers[0].wounds == []  # never the acting Trouper


def test_a_printed_minion_type_keeps_the_others(catalog: Any) -> None:
    table = table_with(catalog, "Target: all Minions. Outcome: Wound.")
    first = fx.night_of(table.state).minions[0]
    kind = table.catalog.get("minions", first.minion).type
    table = table_with(catalog, f"Target: every {kind.capitalize()} Minion. Outcome: Wound.")
    before = {s.space: (s.alive, table.catalog.get("minions", s.minion).type)
              for s in table.night.minions}
    table.do(ResolveEffect(effect=1))
    for s in table.night.minions:
        alive, typ = before[s.space]
        assert s.alive == (0 if typ == kind else alive)


def test_a_distance_the_app_cannot_see_is_named_or_left_to_the_table(catalog: Any) -> None:
    effect = "Target: every Minion (Distance 0-1). Outcome: Push 1, Wound."
    table = table_with(catalog, effect)
    alive = [s.alive for s in table.night.minions]
    start = len(table.night.log)
    table.do(ResolveEffect(effect=1))  # nobody named: written for the players, nothing wounded
    assert [s.alive for s in table.night.minions] == alive
    events = table.night.log[start:]
    assert all(e.args["within"] == "0-1" for e in events if e.kind == "movement")
    assert sum(e.kind == "foe_outcome" for e in events) == sum(alive)
    table = table_with(catalog, effect)
    refused(table, ResolveEffect(effect=1, on=["Z"]), "no Enemy 'z'")
    table.do(ResolveEffect(effect=1, on=["A"]))  # the players say: only space A is in range
    assert [s.alive for s in table.night.minions] == [0, *alive[1:]]


def test_on_is_only_for_an_effect_on_every_enemy(catalog: Any) -> None:
    table = table_with(catalog, "Target: Minion (Distance 0-1). Outcome: Push 1.")
    refused(table, ResolveEffect(effect=1, on=["A"]), "not on every Minion")


def test_an_attack_on_every_minion_is_one_test_per_target(catalog: Any) -> None:
    table = table_with(catalog, "Target: every Minion. Outcome: Physical Attack (Dexterity).")
    alive = [s.alive for s in table.night.minions]
    table.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN]))
    table.do(Attack(effect=1, target="B", trait="dexterity", dice=[LOSE]))  # its own Test
    assert [s.alive for s in table.night.minions[:2]] == [alive[0] - 1, alive[1]]
    assert sum(e.kind == "test" for e in table.night.log) == 2
    refused(table, Attack(effect=1, target="nemesis", side="front", trait="dexterity",
                          dice=[WIN]), "Minion")


def test_an_attack_on_every_enemy_hits_the_nemesis_once(catalog: Any) -> None:
    table = table_with(catalog, "Target: every Enemy. Outcome: Physical Attack (Dexterity).")
    # a missed attack has taken its target too (no Wound, so no Weakness question waits)
    table.do(Attack(effect=1, target="nemesis", side="front", trait="dexterity", dice=[LOSE]))
    refused(table, Attack(effect=1, target="nemesis", side="left", trait="dexterity",
                          dice=[WIN]), "already hit the Nemesis")
    table.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN]))


def test_one_test_for_every_target_when_the_table_reads_it_so(catalog: Any) -> None:
    effect = "Target: every Minion. Outcome: Physical Attack (Dexterity)."
    table = table_with(catalog, effect, many_targets_attack="one_test")
    alive = [s.alive for s in table.night.minions]
    table.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN]))
    table.do(Attack(effect=1, target="B", trait="dexterity", dice=[LOSE]))  # not rolled
    assert [s.alive for s in table.night.minions[:2]] == [alive[0] - 1, alive[1] - 1]
    assert sum(e.kind == "test" for e in table.night.log) == 1
    assert any(e.kind == "same_test" for e in table.night.log)


def test_the_target_kinds_are_exact_in_the_model() -> None:
    assert parse_effect("Target: every Minion. Outcome: Wound.").target == m.Target(
        kind="minions_all")
    assert parse_effect("Target: all Enemies. Outcome: Wound.").target == m.Target(
        kind="enemies_all")


def test_an_enemy_effect_on_every_minion_moves_each_one(catalog: Any) -> None:
    table = table_with(catalog)
    eff = parse_effect("Target: every Minion (Distance 0-2). Outcome: Move 1.")
    nem = table.catalog.nemesis("corvin")
    nem2 = nem.model_copy(update={"skills": [eff.model_copy(update={"timing":
                                                                     "beginning_of_turn"})]})
    cat2 = dataclasses.replace(table.catalog, records={**table.catalog.records, "nemeses": [
        nem2 if n.id == "corvin" else n for n in table.catalog.all("nemeses")]})
    want = each_minion(table)
    job = EnemyJob(source="skill", card="corvin", label="Corvin: every Minion", effects=[0])
    state = fx.with_night(table.state, queue=[job], pending=[])
    start = len(fx.night_of(state).log)
    state = ai.run_queue(state, cat2, Chance.fresh(0, 0))
    moves = [e for e in fx.night_of(state).log[start:] if e.kind == "movement"]
    assert [e.args["mover"] for e in moves] == want
    assert all(e.args["by"] == {"card": "corvin"} and e.args["within"] == "0-2" for e in moves)
