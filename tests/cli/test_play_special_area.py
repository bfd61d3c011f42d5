"""Issue 23 ("Every rule right"), item 7: in `blood play`, a Special Area Effect hits every
valid target, one Test each, as the engine resolves it ("Reading Special Areas"); and items 5,
6 and 8 through the menus: a Support that attacks asks its target and rolls, a Weakness
Condition only the table sees is asked, a mixed attack shows each Defense."""

from __future__ import annotations

import dataclasses
from typing import Any

from play_driver import Driver, night_table, set_night

from blood_companion.cli.play_menu import Again
from blood_companion.content import models as m
from blood_companion.engine.night import Attack, UseSupport
from blood_companion.engine.night_state import Activation, ChainSlot


def _active(table: Any, *cards: tuple[str, int]) -> None:
    """The Tactic Phase with ``cards`` (id, owner) after the resolved Events; the last one is
    the Active card."""
    night = table.state.night
    events = [s.model_copy(update={"resolved": True, "face_down": True}) for s in night.chain]
    chain = [*events, *(ChainSlot(kind="tactic", card=c, owner=o) for c, o in cards)]
    set_night(table, chain=chain, phase="tactic", phase_done=False, pending=[], queue=[],
              activation=Activation(slot=len(chain) - 1, trouper=cards[-1][1]))


def _until_recorded(drv: Driver, n: int) -> None:
    for _ in range(20):
        if len(drv.recorded) >= n:
            return
        result = drv.type("")
        assert not isinstance(result, Again), result.message
    raise AssertionError("the action was never recorded")


def test_rule_7_a_special_area_attack_is_offered_for_each_target(catalog: Any) -> None:
    table = night_table(catalog, ["aurel", "ioana"], seed=3, nemesis="corvin")
    torches = "aurel-t08"  # Torches in a Row: one Test per Minion in the Special Area
    assert catalog.tactic(torches).effects[0].target.distance == "area"
    _active(table, (torches, 0))
    drv = Driver(table)
    drv.type("1")
    assert drv.screen().need == "target"
    drv.type("a")
    _until_recorded(drv, 1)
    first = drv.recorded[0]
    assert isinstance(first, Attack) and first.target == "A"
    # the Effect stays open for the other Minions in the Area, and is not the default
    screen = drv.screen()
    again = next(c for c in screen.choices if c.key == "1")
    assert again.enabled, again.why
    assert "another target in the Special Area" in again.label
    assert screen.default != "1"
    result = drv.type("1")
    assert not isinstance(result, Again), result.message
    drv.type("b")
    _until_recorded(drv, 2)
    second = drv.recorded[1]
    assert isinstance(second, Attack) and second.target == "B" and second.effect == 1
    log = table.state.night.log
    assert [e.args["where"] for e in log if e.kind == "attacks"] == ["A", "B"]
    assert sum(1 for e in log if e.kind == "test") == 2


def test_rule_7_a_special_area_hits_the_nemesis_only_once(catalog: Any) -> None:
    table = night_table(catalog, ["aurel", "ioana"], seed=3, nemesis="corvin")
    area = next(c for c in catalog.all("advanced_tactics")
                if c.effects and c.effects[0].target is not None
                and c.effects[0].target.distance == "area"
                and c.effects[0].target.kind == "enemy"
                and any(o.kind == "physical_attack" for o in c.effects[0].outcome)
                and not c.effects[0].cost and c.effects[0].condition is None)
    _active(table, (area.id, 0))
    drv = Driver(table)
    drv.type("1")
    drv.type("n")  # the Nemesis
    if drv.screen().need == "side":
        drv.type("l")
    _until_recorded(drv, 1)
    assert drv.recorded[0].target == "nemesis"
    drv.type("1")
    screen = drv.screen()
    assert screen.need == "target"
    assert all(c.key != "n" for c in screen.choices)  # the Minions left, not the Nemesis


def test_rule_5_blood_play_asks_a_support_attack_its_target(catalog: Any) -> None:
    strike = m.Effect(type="support", target=m.Target(kind="enemy", distance="0-1"),
                      outcome=[m.Outcome(kind="physical_attack")],
                      test=m.EffectTest(traits=["strength"]))
    card = catalog.tactic("ioana-t01").model_copy(update={"effects": [strike]})
    kept = [c for c in catalog.records["starting_tactics"] if c.id != card.id]
    cat = dataclasses.replace(catalog, records={**catalog.records,
                                                "starting_tactics": [*kept, card]})
    table = night_table(cat, ["aurel", "ioana"], seed=3, nemesis="corvin")
    _active(table, ("ioana-t01", 1), ("aurel-t01", 0))
    drv = Driver(table)
    space = len(table.state.night.chain) - 1
    support = next(c for c in drv.screen().choices if c.key == f"s{space}")
    assert support.enabled, support.why
    drv.type(support.key)
    assert drv.screen().need == "target"
    drv.type("n")
    assert drv.screen().need == "side"
    drv.type("l")
    _until_recorded(drv, 1)
    use = drv.recorded[0]
    assert isinstance(use, UseSupport) and use.target == "nemesis" and use.side == "left"
    assert use.dice  # rolled by the app, recorded with the step
    kinds = [e.kind for e in table.state.night.log]
    assert "support" in kinds and "attacks" in kinds and "test" in kinds


def test_rule_6_blood_play_asks_a_weakness_condition_only_the_table_sees(
    catalog: Any,
) -> None:
    strike = m.Effect(target=m.Target(kind="nemesis", distance="0-1"),
                      outcome=[m.Outcome(kind="physical_attack")],
                      test=m.EffectTest(traits=["strength"]))
    card = catalog.tactic("aurel-t01").model_copy(update={"effects": [strike],
                                                          "cascade": False})
    behind = m.Effect(outcome=[m.Outcome(kind="bonus_triumphs", n=2)],
                      condition=m.Condition(kind="text", text="you attack from behind a Tomb"))
    left = catalog.get("weaknesses", "corvin-w-left").model_copy(update={"effects": [behind]})
    records = dict(catalog.records)
    records["starting_tactics"] = [*(c for c in records["starting_tactics"]
                                     if c.id != card.id), card]
    records["weaknesses"] = [*(w for w in records["weaknesses"] if w.id != left.id), left]
    table = night_table(dataclasses.replace(catalog, records=records), ["aurel", "ioana"],
                        seed=3, nemesis="corvin")
    _active(table, ("aurel-t01", 0))
    drv = Driver(table)
    drv.type("1")
    drv.type("n")
    drv.type("l")  # the Left side: its Weakness helps if the table says so
    screen = drv.screen()
    assert screen.need == "weakness" and "behind a Tomb" in screen.question
    assert screen.default is None  # only the table knows
    drv.type("y")
    _until_recorded(drv, 1)
    attack = drv.recorded[0]
    assert isinstance(attack, Attack) and attack.weakness is True
    test = next(e for e in table.state.night.log if e.kind == "test")
    assert test.args["extra"] == 2


def test_rule_8_blood_play_shows_each_defense_of_a_mixed_attack(catalog: Any) -> None:
    mixed = m.Effect(target=m.Target(kind="nemesis", distance="0-1"),
                     outcome=[m.Outcome(kind="physical_attack"), m.Outcome(kind="mind_attack")],
                     test=m.EffectTest(traits=["strength"]))
    card = catalog.tactic("aurel-t01").model_copy(update={"effects": [mixed],
                                                          "cascade": False})
    kept = [c for c in catalog.records["starting_tactics"] if c.id != card.id]
    cat = dataclasses.replace(catalog, records={**catalog.records,
                                                "starting_tactics": [*kept, card]})
    table = night_table(cat, ["aurel", "ioana"], seed=3, nemesis="corvin")
    _active(table, ("aurel-t01", 0))
    drv = Driver(table)
    drv.type("1")
    drv.type("n")
    screen = drv.screen()
    assert screen.need == "side"
    left = next(c for c in screen.choices if c.key == "l")
    assert "hit on Physical 5+ / Mind 3+ Triumphs" in left.label, left.label
