"""Issue 23 ("Every rule right"), the Enemy queue's items: one test per item, named after it,
each building its situation with the real actions and asserting the state and the log. Each one
fails on the code before the item was fixed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from night_bot import Table, new_table
from night_invariants import NightInvariants

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import flow, why, words
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Option
from blood_companion.engine.night import AnswerQuestion, NextPhase, RollTest
from blood_companion.engine.night.options import night_view
from blood_companion.engine.night_state import ReactionSlot
from blood_companion.engine.state import state_hash

LOSE = "x x x"  # three dice showing a Defeat each: the Test fails

CALL = "corvin-r02"  # Call the Hungry: a Summon, then Threat +1 (no Trouper target)
COLD = "corvin-r09"  # Cold Hands from Below: an Interruption, a Wound (closest, dodge Test)
RATTLE = "corvin-r03"  # Rattle of the Bier: an Interruption, a Summon


def texts(table: Table, since: int = 0) -> list[str]:
    return [words.render(e, table.catalog) for e in why.told(table.night.log[since:])]


def refused(table: Table, action: Any, match: str) -> None:
    before = state_hash(table.state)
    with pytest.raises(RuleError, match=match):
        table.do(action)
    assert state_hash(table.state) == before


def nemesis_phase_next(table: Table, line: list[str], deck_top: list[str], threat: int) -> int:
    """The Tactic Phase is over with ``line`` on the Reaction Line (unresolved), ``deck_top``
    on top of the Nemesis deck and the Threat token on ``threat``; returns the log length."""
    night = table.night
    deck = [c for c in night.reaction_deck if c not in (*line, *deck_top)]
    table.state = fx.with_night(
        table.state, phase="tactic", activation=None, chain=[], pending=[], queue=[],
        reaction_line=[ReactionSlot(card=c) for c in line], reaction_deck=[*deck_top, *deck],
        threat=threat,
    )
    return len(table.night.log)


# --------------------------------------------------------------------------- 1 the queue's ids


def test_rule_1_an_interruption_revealed_by_an_enemy_cards_threat_resolves_and_counts_once(
    catalog: Any,
) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    alert = catalog.board.threat_track.alert_spaces[0]
    start = nemesis_phase_next(table, [CALL], [COLD], alert - 1)
    invariants = NightInvariants(catalog, seen=start, threat=alert - 1)
    wounds = len(table.state.troupers[0].wounds)
    table.do(NextPhase())  # the Nemesis Phase: Call the Hungry's Threat reaches the Alert
    invariants.check(table.state)
    night = table.night
    assert night.threat == alert
    # Cold Hands resolves now, from its first Effect: its target question waits, asked by it
    q = night.pending[0]
    assert q.kind == "closest" and q.prompt.startswith("Cold Hands from Below")
    asker = next(j for j in night.queue if j.id == q.job)
    assert asker.card == COLD and asker.effect == 0
    assert [j.card for j in night.queue] == [COLD, CALL]
    assert len({j.id for j in night.queue}) == 2
    table.do(AnswerQuestion(troupers=["aurel"]))
    invariants.check(table.state)
    assert table.night.pending[0].kind == "test"
    table.do(RollTest(trait="dexterity", dice=[LOSE]))
    invariants.check(table.state)
    night = table.night
    assert len(table.state.troupers[0].wounds) == wounds + 1
    assert night.threat == alert  # Call the Hungry's one Threat Element counted once
    assert all(r.resolved for r in night.reaction_line) and night.phase_done
    said = texts(table, start)
    assert said.count(f"Threat {alert - 1} -> {alert}") == 1
    assert not any(t.startswith(f"Threat {alert} ->") for t in said)
    cold_done = said.index("Cold Hands from Below: resolved (Resolved token)")
    call_done = said.index("Call the Hungry: resolved (Resolved token)")
    revealed = next(k for k, t in enumerate(said) if "reveals Cold Hands from Below" in t)
    wounded = next(k for k, t in enumerate(said) if t.startswith("Aurel") and "Wound" in t)
    assert revealed < wounded < cold_done < call_done


def test_rule_1_an_answer_goes_to_the_card_that_asked_even_behind_an_interruption(
    catalog: Any,
) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    alert = catalog.board.threat_track.alert_spaces[0]
    start = nemesis_phase_next(table, [COLD], [RATTLE], alert - 1)
    table.do(NextPhase())  # Cold Hands (on the Line) asks who is closest
    q = table.night.pending[0]
    cold = table.night.queue[0]
    assert q.kind == "closest" and q.job == cold.id and cold.card == COLD
    # meanwhile the Threat reaches the Alert (as a Quick Item's Threat would): Rattle of the
    # Bier, an Interruption, goes in front of Cold Hands while the question waits
    table.state = fx.add_threat(table.state, catalog, 1, Chance.fresh(0, 0))
    assert [j.card for j in table.night.queue] == [RATTLE, COLD]
    table.do(AnswerQuestion(troupers=["aurel"]))
    night = table.night
    # the answer went to Cold Hands; Rattle of the Bier resolved first, then Cold Hands went on
    q = night.pending[0]
    assert q.kind == "test" and q.trouper == 0 and q.job == cold.id
    assert [j.card for j in night.queue] == [COLD]
    said = texts(table, start)
    assert "Rattle of the Bier: resolved (Resolved token)" in said
    assert "Cold Hands from Below: resolved (Resolved token)" not in said


def test_rule_1_a_question_from_a_save_before_job_ids_belongs_to_the_front_job(
    catalog: Any,
) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    alert = catalog.board.threat_track.alert_spaces[0]
    nemesis_phase_next(table, [CALL], [COLD], alert - 1)
    table.do(NextPhase())
    night = table.night
    # the same moment as an older app saved it: no ids on the jobs nor on the question
    old = fx.with_night(
        table.state,
        queue=[j.model_copy(update={"id": 0}) for j in night.queue],
        pending=[q.model_copy(update={"job": 0}) for q in night.pending],
    )
    table.state = old
    table.do(AnswerQuestion(troupers=["aurel"]))
    night = table.night
    assert [j.id for j in night.queue] == [1, 2]  # numbered in queue order
    assert night.pending[0].kind == "test" and night.pending[0].job == 1
    assert night.queue[0].card == COLD and night.queue[0].targets == [0]


# --------------------------------------------------------------------------- 10 ties, the Leader


def test_rule_10_fewest_wounds_counts_the_wounds_no_card_marks(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    # Aurel took 2 Wounds with no card left to mark them; Ioana has 1 Wound card
    ioana = table.state.troupers[1]
    table.state = fx.with_trouper(table.state, 0, unmarked_wounds=2)
    table.state = fx.with_trouper(table.state, 1, wounds=[ioana.hand[0]], hand=ioana.hand[1:])
    start = nemesis_phase_next(table, [COLD], [], 0)
    table.do(NextPhase())
    q = table.night.pending[0]
    assert q.kind == "closest"
    table.do(AnswerQuestion(troupers=["aurel", "ioana"]))  # both as close: fewest Wounds
    q = table.night.pending[0]
    assert q.kind == "test" and q.trouper == 1  # Ioana (1 Wound), not Aurel (2)
    assert texts(table, start)[-1] == "Answer: Aurel, the Thread-Walker, Ioana of the Seven Veils"


def test_rule_10_every_leaders_rule_question_names_the_leader(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = table.state.model_copy(update={"leader": 1})
    nemesis_phase_next(table, [COLD], [], 0)
    table.do(NextPhase())
    ioana = "Ioana of the Seven Veils holds the Leader token and decides"
    q = table.night.pending[0]
    assert q.kind == "closest" and f"in doubt, {ioana}" in q.prompt
    table.do(AnswerQuestion(troupers=["aurel", "ioana"]))  # no Wounds either: still tied
    q = table.night.pending[0]
    assert q.kind == "leader" and q.candidates == [0, 1]
    assert q.prompt.endswith(f"which one is the target? ({ioana} (Leader's Rule))")
    view = night_view(table.state, table.catalog)
    assert view.prompt == q.prompt  # said once, by name
    refused(table, AnswerQuestion(troupers=["aurel", "ioana"]), "exactly one")
    table.do(AnswerQuestion(troupers=["ioana"]))
    assert table.night.pending[0].kind == "test" and table.night.pending[0].trouper == 1


def test_rule_10_the_minions_order_says_who_settles_a_disagreement(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = table.state.model_copy(update={"leader": 1})
    table.state = fx.with_night(table.state, chain=[], reaction_line=[], phase="nemesis",
                                phase_done=True, queue=[], pending=[])
    start = len(table.night.log)
    table.do(NextPhase())  # the Minions Phase: space A's Miniatures act in the players' order
    assert table.night.minions[0].alive > 1
    line = next(t for t in texts(table, start) if "act one at a time" in t)
    assert "in the order the players agree on (Ioana of the Seven Veils holds the Leader " \
        "token and settles a disagreement)" in line


def test_rule_10_who_takes_a_tactic_card_says_who_settles_a_disagreement(
    catalog: Any,
) -> None:
    state = new_table(catalog, 2, seed=3).state.model_copy(update={"leader": 1})
    settles = ("(the players agree; Ioana of the Seven Veils holds the Leader token and "
               "settles a disagreement)")
    for kind, fields in (("day_buy_advanced", {"art": "juggling"}),
                         ("day_buy_card", {"card": "aurel-t01"}),
                         ("take_advanced_tactic", {"art": "juggling"})):
        option = Option("1", "a card", kind, fields, needs=("trouper",))
        question = flow.ask(state, catalog, option, {})
        assert question is not None and question.need == "trouper"
        assert question.prompt.endswith(settles), (kind, question.prompt)


# --------------------------------------------------------------------------- 11 players' order


def timed_catalog(catalog: Any) -> Any:
    """Aurel's and Ioana's first Items draw a card at the Beginning of the Turn (the shipped
    placeholder cards have no such timing)."""
    items = []
    for it in catalog.all("trouper_items"):
        if it.id in ("aurel-i01", "ioana-i01"):
            eff = m.Effect(type="quick", timing="beginning_of_turn", target=m.Target(kind="self"),
                           outcome=[m.Outcome(kind="draw", n=1)])
            it = it.model_copy(update={"starting": it.starting.model_copy(
                update={"effects": [eff]})})
        items.append(it)
    return dataclasses.replace(catalog, records={**catalog.records, "trouper_items": items})


def test_rule_11_the_players_order_the_nemesis_skills_with_their_own_effects(
    catalog: Any,
) -> None:
    # Lucilla's Skill The Colony Feeds resolves at the Beginning of the Turn too
    table = new_table(timed_catalog(catalog), 2, seed=3, nemesis="lucilla")
    night = table.night
    assert night.phase == "start_of_turn"
    q = night.pending[0]
    assert q.kind == "order"
    assert q.cards == ["lucilla", "aurel-i01", "ioana-i01"]  # the Nemesis's first by default
    assert "Lucilla: The Colony Feeds" in q.prompt
    assert "Aurel, the Thread-Walker holds the Leader token and settles a disagreement" in q.prompt
    assert [j.card for j in night.queue] == q.cards  # nothing resolved before the answer
    first = night_view(table.state, table.catalog).option("1")
    assert first is not None and first.fields == {"cards": q.cards}  # Enter: the Nemesis first
    assert first.label.startswith("In this order: Lucilla: The Colony Feeds, ")
    refused(table, AnswerQuestion(cards=["aurel-i01", "ioana-i01"]), "every card")
    hands = [len(t.hand) for t in table.state.troupers]
    start = len(night.log)
    table.do(AnswerQuestion(cards=["aurel-i01", "lucilla", "ioana-i01"]))
    # Aurel's Item first; then Lucilla's Skill asks who is in range, before Ioana's Item
    night = table.night
    assert [len(t.hand) for t in table.state.troupers] == [hands[0] + 1, hands[1]]
    q = night.pending[0]
    assert q.kind == "in_range" and q.prompt.startswith("Lucilla: The Colony Feeds")
    assert [j.card for j in night.queue] == ["lucilla", "ioana-i01"]
    table.do(AnswerQuestion(troupers=[]))
    assert [len(t.hand) for t in table.state.troupers] == [hands[0] + 1, hands[1] + 1]
    draws = [k for k, e in enumerate(table.night.log[start:]) if e.kind == "draws"]
    skill = [k for k, e in enumerate(table.night.log[start:]) if e.kind == "no_target"]
    assert [table.night.log[start + k].args["who"] for k in draws] == ["aurel", "ioana"]
    assert draws[0] < skill[0] < draws[1]
    assert table.log[-2] == AnswerQuestion(cards=["aurel-i01", "lucilla", "ioana-i01"])
    assert state_hash(table.replayed()) == state_hash(table.state)


def test_rule_11_with_one_card_waiting_nothing_is_asked(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="lucilla")  # only the Skill waits
    assert not any(q.kind == "order" for q in table.night.pending)
