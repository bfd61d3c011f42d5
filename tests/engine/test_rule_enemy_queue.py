"""Issue 23 ("Every rule right"), the Enemy queue's items: one test per item, named after it,
each building its situation with the real actions and asserting the state and the log. Each one
fails on the code before the item was fixed."""

from __future__ import annotations

from typing import Any

import pytest
from night_bot import Table, new_table
from night_invariants import NightInvariants

from blood_companion.engine import effects as fx
from blood_companion.engine import narrate
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import AnswerQuestion, NextPhase, RollTest
from blood_companion.engine.night_state import ReactionSlot
from blood_companion.engine.state import state_hash

LOSE = "x x x"  # three dice showing a Defeat each: the Test fails

CALL = "corvin-r02"  # Call the Hungry: a Summon, then Threat +1 (no Trouper target)
COLD = "corvin-r09"  # Cold Hands from Below: an Interruption, a Wound (closest, dodge Test)


def texts(table: Table, since: int = 0) -> list[str]:
    return [narrate.render(e, table.catalog) for e in table.night.log[since:]]


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
