"""Issue 23 ("Every rule right"), items 4 to 8: what an Effect does. One test (or a few) per
item, named after it, each building the situation with the real actions and failing on the
code before the item was fixed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from night_bot import Table, answer, new_table

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import why, words
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import (
    AnswerQuestion,
    Attack,
    FinishActivation,
    NextPhase,
    UseSupport,
    activation_options,
)
from blood_companion.engine.night_state import Activation, ChainSlot
from blood_companion.engine.state import state_hash

WIN = "2 2 2"  # three dice showing two Triumphs each: every Test here succeeds


def with_records(catalog: Any, kind: str, *records: Any) -> Any:
    """The catalog with ``records`` in place of those of the same id (or added)."""
    ids = {r.id for r in records}
    kept = [r for r in catalog.records.get(kind, []) if r.id not in ids]
    return dataclasses.replace(catalog, records={**catalog.records, kind: [*kept, *records]})


def with_skills(catalog: Any, nemesis: str, *skills: m.Effect) -> Any:
    nem = catalog.nemesis(nemesis).model_copy(update={"skills": list(skills)})
    return with_records(catalog, "nemeses", nem)


def texts(table: Table) -> list[str]:
    return [words.render(e, table.catalog) for e in why.told(table.night.log)]


def refused(table: Table, action: Any, match: str) -> None:
    before = state_hash(table.state)
    with pytest.raises(RuleError, match=match):
        table.do(action)
    assert state_hash(table.state) == before


def active(table: Table, *cards: tuple[str, int]) -> None:
    """The Tactic Phase with ``cards`` (card id, owner) on the Chain after its Events (already
    resolved); the last one is the Active card."""
    night = table.night
    events = [s.model_copy(update={"resolved": True, "face_down": True}) for s in night.chain]
    chain = [*events, *(ChainSlot(kind="tactic", card=c, owner=o) for c, o in cards)]
    table.state = fx.with_night(
        table.state, chain=chain, phase="tactic", phase_done=False, pending=[], queue=[],
        activation=Activation(slot=len(chain) - 1, trouper=cards[-1][1]),
    )


# --------------------------------------------------------------------------- 4 Summon's Tile

SUPPER = m.Effect(name="Supper Bell", type="aura", timing="beginning_of_night",
                  outcome=[m.Outcome(kind="summon", minion_type="ghoul")])


def test_rule_4_a_summon_with_a_target_tile_places_the_minion_there(catalog: Any) -> None:
    far = SUPPER.model_copy(update={"target": m.Target(kind="tile", distance="2")})
    table = new_table(with_skills(catalog, "corvin", far), 2, seed=3, nemesis="corvin")
    night = table.night
    assert [s.space for s in night.minions] == ["A", "B", "C"] and night.minions[2].summoned
    summon = next(e for e in night.log if e.kind == "summon")
    assert summon.args["distance"] == "2" and summon.args["src"] == "corvin"
    line = words.render(summon, table.catalog)
    assert "a Tile at Distance 2 from Corvin" in line, line
    assert "Nemesis's Tile" not in line


def test_rule_4_a_summon_on_a_trouper_places_the_minion_on_their_tile(catalog: Any) -> None:
    on_trouper = SUPPER.model_copy(update={
        "target": m.Target(kind="trouper", distance="any", priority=["most_bites"])})
    table = new_table(with_skills(catalog, "corvin", on_trouper), 2, seed=3, nemesis="corvin")
    q = table.night.pending[0]
    assert q.kind == "leader"  # nobody has a Bite: the Leader picks
    table.do(AnswerQuestion(troupers=["ioana"]))
    summon = next(e for e in table.night.log if e.kind == "summon")
    assert summon.args["who"] == "ioana"
    assert "place its Miniature on the Tile of Ioana" in words.render(summon, table.catalog)
    assert table.night.minions[-1].summoned


def test_rule_4_a_summon_without_a_distance_stays_on_the_nemesis_tile(catalog: Any) -> None:
    table = new_table(with_skills(catalog, "corvin", SUPPER), 2, seed=3, nemesis="corvin")
    summon = next(e for e in table.night.log if e.kind == "summon")
    assert "distance" not in summon.args and "who" not in summon.args
    assert words.render(summon, table.catalog).endswith("on the Nemesis's Tile")


# --------------------------------------------------------------------------- 8 mixed attacks


def _mixed(catalog: Any) -> Any:
    """Aurel's first card with one Effect: a Physical and a Mind Attack on the Nemesis, with a
    Strength Test."""
    card = catalog.tactic("aurel-t01")
    eff = m.Effect(target=m.Target(kind="nemesis", distance="0-1"),
                   outcome=[m.Outcome(kind="physical_attack"), m.Outcome(kind="mind_attack")],
                   test=m.EffectTest(traits=["strength"]))
    return with_records(catalog, "starting_tactics",
                        card.model_copy(update={"effects": [eff], "cascade": False}))


def test_rule_8_each_attack_element_meets_its_own_defense(catalog: Any) -> None:
    table = new_table(_mixed(catalog), 2, seed=3, nemesis="corvin")
    nem = table.catalog.nemesis("corvin")
    assert (nem.defenses.physical, nem.defenses.mind) == (5, 3)  # his Left side: no modifier
    active(table, ("aurel-t01", 0))
    # 3 Triumphs: the Mind Attack (Defense 3) lands, the Physical one (Defense 5) does not
    table.do(Attack(effect=1, target="nemesis", side="left", trait="strength", dice=["1 1 1"]))
    night = table.night
    assert len(night.nemesis_wounds.get("left", [])) == 1
    assert table.state.troupers[0].insanity == 0  # the Test succeeded: one Element landed
    lines = texts(table)
    assert any("Physical Defense 5, Mind Defense 3" in t for t in lines), lines
    assert any("the Physical Attack misses (5 needed), the Mind Attack lands" in t
               for t in lines), lines


def test_rule_8_both_elements_land_with_enough_triumphs(catalog: Any) -> None:
    table = new_table(_mixed(catalog), 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    table.do(Attack(effect=1, target="nemesis", side="left", trait="strength", dice=[WIN]))
    assert len(table.night.nemesis_wounds.get("left", [])) == 2
    assert any("the Physical Attack lands, the Mind Attack lands" in t for t in texts(table))


def test_rule_8_the_test_may_need_the_highest_defense(catalog: Any) -> None:
    cat = _mixed(catalog)
    config = cat.config.model_copy(update={"mixed_attack_test": "highest"})
    cat = with_records(cat, "rules_config", config)
    table = new_table(cat, 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    table.do(Attack(effect=1, target="nemesis", side="left", trait="strength", dice=["1 1 1"]))
    # the Mind Attack still lands; the Test (5 needed) is a Failure: the Insanity cube moves
    assert len(table.night.nemesis_wounds.get("left", [])) == 1
    assert table.state.troupers[0].insanity == 1


# --------------------------------------------------------------------------- 5 Supports


def _with_support(catalog: Any, support: m.Effect) -> Any:
    """Ioana's first card with ``support`` as its only Effect."""
    card = catalog.tactic("ioana-t01")
    return with_records(catalog, "starting_tactics",
                        card.model_copy(update={"effects": [support], "cascade": False,
                                                "block": False}))


def test_rule_5_a_support_that_attacks_takes_its_test_and_wounds(catalog: Any) -> None:
    strike = m.Effect(type="support", target=m.Target(kind="enemy", distance="0-1"),
                      outcome=[m.Outcome(kind="physical_attack")],
                      test=m.EffectTest(traits=["strength"]))
    table = new_table(_with_support(catalog, strike), 2, seed=3, nemesis="corvin")
    active(table, ("ioana-t01", 1), ("aurel-t01", 0))  # Aurel is Active, Ioana's card left
    space = len(table.night.chain) - 1  # 1-based space of Ioana's card
    refused(table, UseSupport(slot=space), "target")
    table.do(UseSupport(slot=space, target="nemesis", side="left", trait="strength",
                        dice=[WIN]))
    night = table.night
    assert len(night.nemesis_wounds.get("left", [])) == 1  # Physical Defense 5, 6 Triumphs
    assert night.chain[space - 1].supports_used == [0]
    kinds = [e.kind for e in night.log]
    assert kinds.index("support") < kinds.index("attacks") < kinds.index("test")
    lines = texts(table)
    assert any("Aurel" in t and "attacks Corvin" in t and "Physical Defense 5" in t
               for t in lines), lines


def test_rule_5_a_support_attack_on_a_minion_that_misses_wounds_nothing(catalog: Any) -> None:
    strike = m.Effect(type="support", target=m.Target(kind="minion", distance="0"),
                      outcome=[m.Outcome(kind="physical_attack")],
                      test=m.EffectTest(traits=["strength"]))
    table = new_table(_with_support(catalog, strike), 2, seed=3, nemesis="corvin")
    active(table, ("ioana-t01", 1), ("aurel-t01", 0))
    space = len(table.night.chain) - 1
    refused(table, UseSupport(slot=space, target="nemesis", side="left", trait="strength",
                              dice=[WIN]), "Minion")
    alive = table.night.minions[0].alive
    table.do(UseSupport(slot=space, target="A", trait="strength", dice=["x x x"]))
    assert table.night.minions[0].alive == alive
    assert table.state.troupers[0].insanity == 1  # a failed Test


def _support_option(table: Table, space: int) -> dict[str, Any]:
    opts = activation_options(table.state, table.catalog)
    return next(s for s in opts["supports"] if s["space"] == space)


def test_rule_5_a_support_whose_cost_the_action_refuses_is_closed_in_the_options(
    catalog: Any,
) -> None:
    # the menus ask UseSupport itself: a Cost the Active Trouper cannot pay this way (a card
    # to discard) closes the option with the action's own reason, not an open one it refuses
    costly = m.Effect(type="support", cost=[m.Cost(kind="discard_card", n=1)],
                      target=m.Target(kind="self"), outcome=[m.Outcome(kind="draw", n=1)])
    table = new_table(_with_support(catalog, costly), 2, seed=3, nemesis="corvin")
    active(table, ("ioana-t01", 1), ("aurel-t01", 0))
    space = len(table.night.chain) - 1
    with pytest.raises(RuleError) as refusal:
        table.do(UseSupport(slot=space))
    option = _support_option(table, space)
    assert (option["open"], option["why"]) == (False, refusal.value.message)


def test_rule_5_a_sacrificed_support_is_closed_with_the_actions_reason(catalog: Any) -> None:
    gift = m.Effect(type="support", cost=[m.Cost(kind="sacrifice")],
                    target=m.Target(kind="self"), outcome=[m.Outcome(kind="draw", n=1)])
    table = new_table(_with_support(catalog, gift), 2, seed=3, nemesis="corvin")
    active(table, ("ioana-t01", 1), ("aurel-t01", 0))
    space = len(table.night.chain) - 1
    chain = list(table.night.chain)
    chain[space - 1] = chain[space - 1].model_copy(update={"sacrificed": True})
    table.state = fx.with_night(table.state, chain=chain)
    with pytest.raises(RuleError) as refusal:
        table.do(UseSupport(slot=space))
    option = _support_option(table, space)
    assert (option["open"], option["why"]) == (False, refusal.value.message)
    assert "already Sacrificed" in option["why"]


def test_rule_5_a_support_with_a_sacrifice_sends_its_card_to_the_wounds(catalog: Any) -> None:
    gift = m.Effect(type="support", cost=[m.Cost(kind="sacrifice")],
                    target=m.Target(kind="self"), outcome=[m.Outcome(kind="draw", n=1)])
    table = new_table(_with_support(catalog, gift), 2, seed=3, nemesis="corvin")
    active(table, ("ioana-t01", 1), ("aurel-t01", 0))
    space = len(table.night.chain) - 1
    hand = len(table.state.troupers[0].hand)
    table.do(UseSupport(slot=space))
    night = table.night
    assert night.chain[space - 1].sacrificed  # the Cube on its Sacrifice symbol
    assert len(table.state.troupers[0].hand) == hand + 1  # the Active Trouper draws
    assert "Sacrifice: the card goes to Wounds at Cleanup" in texts(table)
    table.do(FinishActivation())
    for _ in range(50):  # on to the next Game Turn, through the Cleanup
        if table.night.turn == 2 or table.night.phase == "over":
            break
        if table.night.pending:
            answer(table)
        elif table.night.phase == "tactic" and table.night.activation is not None:
            table.do(FinishActivation())
        else:
            table.do(NextPhase())
    ioana = table.state.troupers[1]
    assert "ioana-t01" in ioana.wounds and "ioana-t01" not in ioana.discard


# --------------------------------------------------------------------------- 6 Weakness Effects


def _strike_and_weakness(catalog: Any, *effects: m.Effect) -> Any:
    """Aurel's first card: one Physical Attack on the Nemesis (a Strength Test); Corvin's Left
    Weakness card (no Defense modifier) with ``effects`` and no other."""
    card = catalog.tactic("aurel-t01")
    strike = m.Effect(target=m.Target(kind="nemesis", distance="0-1"),
                      outcome=[m.Outcome(kind="physical_attack")],
                      test=m.EffectTest(traits=["strength"]))
    cat = with_records(catalog, "starting_tactics",
                       card.model_copy(update={"effects": [strike], "cascade": False}))
    left = catalog.get("weaknesses", "corvin-w-left")
    assert left.side == "left" and left.physical_modifier == 0
    return with_records(cat, "weaknesses", left.model_copy(update={"effects": list(effects)}))


BONUS = m.Effect(outcome=[m.Outcome(kind="bonus_triumphs", n=2)])


def test_rule_6_a_weakness_bonus_triumph_helps_every_attack_on_its_side(catalog: Any) -> None:
    table = new_table(_strike_and_weakness(catalog, BONUS), 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    # 3 Triumphs rolled + 2 Bonus Triumphs of the Left Weakness: Physical Defense 5 is reached
    table.do(Attack(effect=1, target="nemesis", side="left", trait="strength", dice=["1 1 1"]))
    assert len(table.night.nemesis_wounds.get("left", [])) == 1
    test = next(e for e in reversed(table.night.log) if e.kind == "test")
    assert (test.args["extra"], test.args["total"], test.args["success"]) == (2, 5, True)
    assert any("Shovel Arm (Left Side Weakness) helps this attack" in t for t in texts(table))
    assert table.night.bonuses == {}  # spent on this Test, not kept for the next one


def test_rule_6_the_weakness_of_another_side_does_not_help(catalog: Any) -> None:
    table = new_table(_strike_and_weakness(catalog, BONUS), 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    front = table.catalog.get("weaknesses", "corvin-w-front")
    table.do(Attack(effect=1, target="nemesis", side="front", trait="strength", dice=[WIN]))
    test = next(e for e in reversed(table.night.log) if e.kind == "test")
    assert test.args["extra"] == 0 and test.args["target"] == 5 + front.physical_modifier
    assert not any("helps this attack" in t for t in texts(table))


def test_rule_6_a_weakness_reroll_joins_the_test(catalog: Any) -> None:
    reroll = m.Effect(outcome=[m.Outcome(kind="reroll", n=1)])
    table = new_table(_strike_and_weakness(catalog, reroll), 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    # a throw of 0 Triumphs, then the Weakness's Re-roll of all three dice: 6 Triumphs
    table.do(Attack(effect=1, target="nemesis", side="left", trait="strength",
                    dice=["x x x", WIN], reroll=["1,2,3"]))
    assert len(table.night.nemesis_wounds.get("left", [])) == 1
    assert any("Re-roll" in t and "next Test" in t for t in texts(table))


def test_rule_6_a_weakness_condition_only_the_table_sees_is_asked(catalog: Any) -> None:
    behind = BONUS.model_copy(update={
        "condition": m.Condition(kind="text", text="you attack from behind a Tomb")})
    table = new_table(_strike_and_weakness(catalog, behind), 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    roll = {"effect": 1, "target": "nemesis", "side": "left", "trait": "strength",
            "dice": ["1 1 1"]}
    refused(table, Attack(**roll), "behind a Tomb")
    before = table.state
    table.do(Attack(**roll, weakness=False))
    assert not table.night.nemesis_wounds.get("left")  # 3 Triumphs, 5 needed
    assert any("its Condition does not hold" in t for t in texts(table))
    table.state = before
    table.do(Attack(**roll, weakness=True))
    assert len(table.night.nemesis_wounds.get("left", [])) == 1


def test_rule_6_a_weakness_effect_of_other_elements_resolves_after_the_attack(
    catalog: Any,
) -> None:
    threat = m.Effect(outcome=[m.Outcome(kind="threat", n=1)])
    table = new_table(_strike_and_weakness(catalog, threat), 2, seed=3, nemesis="corvin")
    active(table, ("aurel-t01", 0))
    before = table.night.threat
    table.do(Attack(effect=1, target="nemesis", side="left", trait="strength", dice=["x x x"]))
    assert table.night.threat == before + 1  # a miss, and the Effect applies all the same
    assert not table.night.queue


def test_rule_6_a_timed_weakness_effect_resolves_at_its_moment(catalog: Any) -> None:
    candles = m.Effect(timing="beginning_of_turn", outcome=[m.Outcome(kind="threat", n=1)])
    left = catalog.get("weaknesses", "corvin-w-left").model_copy(update={"effects": [candles]})
    table = new_table(with_records(catalog, "weaknesses", left), 2, seed=3, nemesis="corvin")
    assert table.night.turn == 1 and table.night.threat == 1  # Game Turn 1 began with it
    assert any(e.kind == "threat" for e in table.night.log)
