"""Scenario tests of the Night Part: seed + actions -> expected state, on the shipped data."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from night_bot import Table, new_table

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import words
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import (
    AnswerQuestion,
    Attack,
    FinishActivation,
    NextPhase,
    PlayCard,
    Rest,
    RollTest,
    UseItem,
    cleanup,
)
from blood_companion.engine.night import enemy as ai
from blood_companion.engine.night_state import ChainSlot, EnemyJob, MinionSlot
from blood_companion.engine.state import state_hash


@pytest.fixture()
def corvin(catalog: Any) -> Table:
    """Two Troupers against Corvin (no Start-of-Turn Skill: planning starts at once)."""
    return new_table(catalog, 2, seed=3, nemesis="corvin")


def refused(table: Table, action: Any, match: str) -> None:
    before = state_hash(table.state)
    with pytest.raises(RuleError, match=match):
        table.do(action)
    assert state_hash(table.state) == before


def test_beginning_of_the_night(corvin: Table) -> None:
    night = corvin.night
    assert night.turn == 1 and night.phase == "planning" and night.to_play == 0
    assert all(len(t.hand) == 5 and len(t.draw_pile) == 7 for t in corvin.state.troupers)
    assert [s.kind for s in night.chain] == ["event"]  # Difficulty 1: influence 1
    # Corvin's Beginning-of-the-Night Skill summons a Ghoul on space C.
    assert [m.space for m in night.minions] == ["A", "B", "C"]
    assert night.minions[2].summoned
    assert night.threat == 0 and night.reaction_line == []


def test_play_advances_threat_and_turn_order(corvin: Table) -> None:
    aurel = corvin.state.troupers[0]
    card = aurel.hand[0]
    threat = corvin.catalog.tactic(card).threat
    corvin.do(PlayCard(trouper="aurel", card=card))
    night = corvin.night
    assert night.chain[-1].card == card and night.chain[-1].owner == 0
    assert night.threat == threat
    assert card not in corvin.state.troupers[0].hand
    cascade = corvin.catalog.tactic(card).cascade
    assert night.to_play == (0 if cascade else 1)


def test_out_of_turn_and_wrong_phase_refused(corvin: Table) -> None:
    zora = corvin.state.troupers[1]
    refused(corvin, PlayCard(trouper="ioana", card=zora.hand[0]), "turn to play")
    refused(corvin, NextPhase(), "Planning Phase goes on")
    refused(corvin, FinishActivation(), "belongs to the Tactic Phase")
    refused(corvin, Attack(effect=1, target="nemesis", side="front"), "Tactic Phase")
    refused(corvin, RollTest(), "no question")


def test_rest_once_per_turn_and_forced_rest(corvin: Table) -> None:
    aurel = corvin.state.troupers[0]
    corvin.do(Rest(trouper="aurel", card=aurel.hand[0]))
    t = corvin.state.troupers[0]
    assert t.exhausted and t.rested_this_turn and corvin.night.threat == 1
    slot = corvin.night.chain[-1]
    assert slot.kind == "rest" and slot.face_down
    # Back to Aurel: a second Rest in the same Game Turn is refused.
    state = corvin.state
    corvin.state = fx.with_night(state, to_play=0, after_play=None)
    refused(corvin, Rest(trouper="aurel", card=t.hand[0]), "already Rested")
    # One card in hand (and no Rest yet): the player must Rest.
    one = state.troupers[1].model_copy(update={"hand": state.troupers[1].hand[:1]})
    corvin.state = fx.with_night(
        state.model_copy(update={"troupers": [state.troupers[0], one]}), to_play=1
    )
    refused(corvin, PlayCard(trouper="ioana", card=one.hand[0]), "must Rest")


def test_full_chain_refused(corvin: Table) -> None:
    night = corvin.night
    filler = [ChainSlot(kind="tactic", card="x", owner=0)] * (night.chain_spaces - 1)
    corvin.state = fx.with_night(corvin.state, chain=[*night.chain, *filler])
    card = corvin.state.troupers[0].hand[0]
    refused(corvin, PlayCard(trouper="aurel", card=card), "Chain is full")


def test_alert_reveals_and_interruption_resolves(catalog: Any, corvin: Table) -> None:
    rng = Chance.fresh(1, 0)
    deck = corvin.night.reaction_deck
    interrupt = next(c for c in deck if fx.reaction_face(corvin.state, catalog, c).interruption)
    order = [interrupt] + [c for c in deck if c != interrupt]
    state = fx.with_night(corvin.state, reaction_deck=order, after_play="next")
    state = fx.add_threat(state, catalog, 3, rng)  # reaches the first Alert space (3)
    assert [r.card for r in fx.night_of(state).reaction_line] == [interrupt]
    assert fx.night_of(state).queue[0].card == interrupt
    from blood_companion.engine.night import settle

    state = settle(state, catalog, rng)
    night = fx.night_of(state)
    while night.pending:  # answer questions the Interruption asks
        q = night.pending[0]
        if q.kind == "test":
            state = ai.answer_test(state, catalog, rng, True)
        else:
            state = ai.answer_targets(state, catalog, rng, q.candidates[:1])
        state = settle(state, catalog, rng)
        night = fx.night_of(state)
    assert night.reaction_line[0].resolved
    assert night.phase == "planning"


def test_wound_trouper_reshuffles_discard(catalog: Any, corvin: Table) -> None:
    t = corvin.state.troupers[0]
    state = fx.with_trouper(corvin.state, 0, draw_pile=[], discard=["a", "b"])
    state = fx.wound_trouper(state, catalog, 0, Chance.fresh(0, 0))
    t = state.troupers[0]
    assert len(t.wounds) == 1 and len(t.draw_pile) == 1 and t.discard == []


def test_wound_nemesis_skips_interruptions_and_reshuffles(catalog: Any, corvin: Table) -> None:
    state = corvin.state
    deck = fx.night_of(state).reaction_deck
    interrupts = [c for c in deck if fx.reaction_face(state, catalog, c).interruption]
    plain = [c for c in deck if c not in interrupts]
    # The deck holds only Interruptions; the plain cards are in the discard pile.
    state = fx.with_night(state, reaction_deck=interrupts, reaction_discard=plain)
    state = fx.wound_nemesis(state, catalog, "left", 1, Chance.fresh(0, 0))
    night = fx.night_of(state)
    assert len(night.nemesis_wounds["left"]) == 1
    assert night.nemesis_wounds["left"][0] in plain
    assert night.reaction_discard == []
    assert len(night.reaction_deck) == 11
    # Corvin's on-wound Skill is queued.
    assert night.queue and night.queue[0].source == "skill"


def test_victory_when_every_side_is_wounded(catalog: Any, corvin: Table) -> None:
    state = corvin.state
    need = catalog.nemesis("corvin").levels[0].wounds
    rng = Chance.fresh(0, 0)
    for side, k in need.items():
        state = fx.wound_nemesis(state, catalog, side, k, rng)
    assert fx.night_of(state).result == "won" and fx.night_of(state).phase == "over"


def test_summon_without_free_space_is_ignored(catalog: Any, corvin: Table) -> None:
    night = corvin.night
    extra = [MinionSlot(space=s, minion="beast-x", summoned=True) for s in ("D", "E")]
    state = fx.with_night(corvin.state, minions=[*night.minions, *extra])
    after = fx.summon(state, catalog, Chance.fresh(0, 0), "beast")
    assert fx.night_of(after).minions == fx.night_of(state).minions
    assert "no Minion space is free" in words.render(fx.night_of(after).log[-1], catalog)


def test_summoned_minion_leaves_when_defeated(catalog: Any, corvin: Table) -> None:
    state = fx.wound_minion(corvin.state, catalog, "C")
    assert [m.space for m in fx.night_of(state).minions] == ["A", "B"]
    state = fx.wound_minion(state, catalog, "A", 3)
    assert fx.night_of(state).minions[0].alive == 0  # A stays on the board
    with pytest.raises(RuleError):
        fx.wound_minion(state, catalog, "A")


def test_check_rule_thresholds_scale_with_the_table(catalog: Any, corvin: Table) -> None:
    from blood_companion.content.models import CheckRule

    state = corvin.state
    bites = CheckRule(kind="bites_total_at_least", n=20)
    assert not fx.check_rule_holds(state, catalog, bites)
    state = fx.with_trouper(state, 0, bites=6)
    state = fx.with_trouper(state, 1, bites=6)
    assert fx.check_rule_holds(state, catalog, bites)  # 12 is all a table of two can carry
    ko = CheckRule(kind="knocked_out_at_least", n=3)
    state = fx.with_trouper(state, 0, knocked_out=True)
    assert not fx.check_rule_holds(state, catalog, ko)
    state = fx.with_trouper(state, 1, knocked_out=True)
    assert fx.check_rule_holds(state, catalog, ko)


def test_check_card_loses_the_night(catalog: Any, corvin: Table) -> None:
    card = next(r for r in catalog.reactions_for("corvin") if r.check is not None)
    state = corvin.state
    night = fx.night_of(state)
    state = fx.with_night(
        state,
        turn=99,
        reaction_line=[],
        queue=[EnemyJob(source="reaction", card=card.id, label=card.name, slot=0)],
    )
    state = fx.with_trouper(state, 0, knocked_out=True)
    state = fx.with_trouper(state, 1, knocked_out=True)
    state = fx.with_night(state, reaction_discard=list(night.reaction_deck))
    state = ai.run_queue(state, catalog, Chance.fresh(0, 0))
    assert fx.night_of(state).result == "lost"


def test_target_priority_tie_breakers(corvin: Table) -> None:
    state = fx.with_trouper(corvin.state, 1, bites=2)
    assert ai.tie_break(state, "fewest_bites", [0, 1]) == [0]
    assert ai.tie_break(state, "most_bites", [0, 1]) == [1]
    assert ai.tie_break(state, "exhausted", [0, 1]) == [0, 1]


def test_cleanup_steps(catalog: Any, corvin: Table) -> None:
    state = corvin.state
    a, z = state.troupers
    chain = [
        *fx.night_of(state).chain,
        ChainSlot(kind="tactic", card=a.hand[0], owner=0, resolved=True, sacrificed=True),
        ChainSlot(kind="tactic", card=z.hand[0], owner=1, resolved=True),
    ]
    state = fx.with_trouper(
        state,
        0,
        hand=a.hand[1:],
        exhausted=True,
        depleted_items=list(a.equipped.values())[:1],
        wounds=a.draw_pile[:7],
        draw_pile=a.draw_pile[7:],
    )
    state = fx.with_trouper(state, 1, hand=z.hand[1:])
    state = fx.with_night(state, chain=chain, threat=7, reaction_line=[])
    state = cleanup(state, catalog)
    night = fx.night_of(state)
    a2, z2 = state.troupers
    assert state.leader == 0  # after Ioana (seat 2), who placed the rightmost card
    assert night.threat == 0 and [s.kind for s in night.chain] == ["event"]
    assert a.hand[0] in a2.wounds and z.hand[0] in z2.discard
    assert a2.knocked_out and len(a2.wounds) == 8
    assert not a2.exhausted and not a2.depleted_items


def test_depleted_item_refused(corvin: Table) -> None:
    aurel = corvin.state.troupers[0]
    quick = next(iid for iid in aurel.equipped.values() if corvin.catalog.item(iid).starting.quick)
    item = corvin.catalog.item(quick)
    # its Quick Effect printed with Depleting the Item as its only Cost
    first = item.starting.effects[0].model_copy(update={"cost": [m.Cost(kind="deplete_item")]})
    side = item.starting.model_copy(update={"effects": [first, *item.starting.effects[1:]]})
    items = [i.model_copy(update={"starting": side}) if i.id == quick else i
             for i in corvin.catalog.all("trouper_items")]
    corvin.catalog = dataclasses.replace(
        corvin.catalog, records={**corvin.catalog.records, "trouper_items": items})
    corvin.do(UseItem(trouper="aurel", item=quick, confirm=True))
    assert quick in corvin.state.troupers[0].depleted_items
    refused(corvin, UseItem(trouper="aurel", item=quick, confirm=True), "depleted")


def test_questions_and_physical_dice(catalog: Any) -> None:
    """Lucilla's Start-of-Turn Skill asks who is in range, then the target's dodge Test,
    rolled with typed-in faces; the answer must come from the candidates."""
    table = new_table(catalog, 2, seed=3, nemesis="lucilla")
    q = table.night.pending[0]
    assert q.kind == "in_range" and q.candidates == [0, 1]
    refused(
        table,
        PlayCard(trouper="aurel", card=table.state.troupers[0].hand[0]),
        "Start of Turn",
    )
    table.do(AnswerQuestion(troupers=["ioana"]))
    q = table.night.pending[0]
    assert q.kind == "test" and q.trouper == 1
    refused(table, RollTest(trait="strength"), "not strength")
    pool_size = 3
    table.do(RollTest(dice=[" ".join(["x"] * pool_size)]))
    t = table.state.troupers[1]
    assert t.bites == 1 and t.insanity == 1  # a Failure: Bite, Insanity +1
    assert table.night.phase == "planning"


def test_attack_side_and_reach_refused(catalog: Any, corvin: Table) -> None:
    table = corvin
    # Put an attack card on the Chain and go to the Tactic Phase.
    card = next(c for c in catalog.starting_tactics_for("aurel") if c.id == "aurel-t01")
    state = fx.with_night(
        table.state,
        chain=[*table.night.chain, ChainSlot(kind="tactic", card=card.id, owner=0)],
    )
    from blood_companion.engine.night.phases import end_planning

    table.state = end_planning(state, catalog, "test")
    assert table.night.activation is not None and table.night.activation.trouper == 0
    refused(table, Attack(effect=2, target="nemesis"), "side")
    refused(table, Attack(effect=2, target="nemesis", side="front", distance=2), "Distance 0")
    refused(table, Attack(effect=2, target="Z"), "no Minion")
    refused(table, Attack(effect=1, target="nemesis", side="front"), "makes no attack")
    table.do(Attack(effect=2, target="A", dice=["2 2 2"], trait="dexterity"))
    assert table.night.minions[0].alive == 2
    refused(table, Attack(effect=2, target="A"), "already resolved")


def test_night_lost_when_no_hand_holds_a_card(catalog: Any, corvin: Table) -> None:
    state = corvin.state
    for i, t in enumerate(state.troupers):
        state = fx.with_trouper(state, i, hand=[], discard=[*t.discard, *t.hand])
    state = fx.with_night(state, chain=[], reaction_line=[])
    night = fx.night_of(cleanup(state, catalog))
    assert night.result == "lost" and night.reason == "nobody_can_play"
    # one card in one hand is enough to go on
    state = fx.with_trouper(state, 1, hand=[corvin.state.troupers[1].hand[0]])
    assert fx.night_of(cleanup(state, catalog)).result is None


def test_after_a_cascade_the_last_card_rests(catalog: Any, corvin: Table) -> None:
    deck = catalog.starting_tactics_for("aurel")
    cascade = next(c.id for c in deck if c.cascade)
    other = next(c.id for c in deck if not c.cascade and c.id != cascade)
    corvin.state = fx.with_trouper(corvin.state, 0, hand=[cascade, other])
    corvin.do(PlayCard(trouper="aurel", card=cascade))
    assert corvin.night.cascade and corvin.night.to_play == 0
    refused(corvin, PlayCard(trouper="aurel", card=other), "must Rest")
    corvin.do(Rest(trouper="aurel", card=other))
    assert corvin.state.troupers[0].hand == [] and corvin.state.troupers[0].rested_this_turn
    assert corvin.night.chain[-1].kind == "rest"
