"""Issue 23, items 3 and 9: the tokens on a Trouper's board and on the Map.

3. A Bite covers one Vigor token ("Bite"): a covered token never pays ("Using a Vigor
   Token"); where the Bite goes is the player's choice, asked when the board leaves one.
9. With the Reserve empty, the token moved from the Map is an Intact or a Consumed one, the
   player's choice ("Placing a Trap or Whisper Token"), recorded with the answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from night_bot import Table, new_table

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import vigor, why, words
from blood_companion.engine.actions import Action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import replay
from blood_companion.engine.night import (
    AnswerQuestion,
    Attack,
    ResolveEffect,
    RollTest,
    cleanup,
)
from blood_companion.engine.night.options import night_view
from blood_companion.engine.night_state import Activation, ChainSlot
from blood_companion.engine.state import CampaignState, TrouperState, state_hash

WIN = "2 2 2"  # every Test here succeeds
LOSE = "x x x"  # every Test here fails
AUREL, IOANA, ZORA = 0, 1, 3
AUREL_ID = "aurel"
TOKENS = 6  # "Player Setup": six Vigor tokens


def active(table: Table, card: str, trouper: int) -> None:
    """``card`` is the Active card of ``trouper`` in the Tactic Phase."""
    night = table.night
    events = [s.model_copy(update={"resolved": True, "face_down": True}) for s in night.chain]
    chain = [*events, ChainSlot(kind="tactic", card=card, owner=trouper)]
    table.state = fx.with_night(
        table.state, chain=chain, phase="tactic", phase_done=False, pending=[], queue=[],
        activation=Activation(slot=len(chain) - 1, trouper=trouper),
    )


def refused(table: Table, action: Action, match: str) -> None:
    before = state_hash(table.state)
    with pytest.raises(RuleError, match=match):
        table.do(action)
    assert state_hash(table.state) == before


def texts(table: Table) -> list[str]:
    return [words.render(e, table.catalog) for e in why.told(table.night.log)]


def said(table: Table) -> tuple[str, dict[str, Any]]:
    """The last event told (its kind and fields; its sentence: tests/engine/test_words.py)."""
    last = why.told(table.night.log)[-1]
    return last.kind, dict(last.args)


def replays(table: Table, start: CampaignState, steps: int) -> None:
    """The last ``steps`` actions, replayed from ``start``, give the same state: the answers
    are recorded in the actions."""
    first = len(table.log) - steps
    again = replay(table.log[first:], table.catalog, start=start, first=first)
    assert state_hash(again) == state_hash(table.state)


def layout(table: Table, i: int) -> vigor.VigorLayout:
    return vigor.layout(table.state.troupers[i], TOKENS)


# --------------------------------------------------------------------------- 3 Bites


def test_rule_3_three_bites_on_available_tokens_leave_three_vigor_to_pay(catalog: Any) -> None:
    table = new_table(catalog, 4, seed=3, nemesis="corvin")
    # three Bites while every token is Available: the board leaves no choice
    table.state = fx.bite_trouper(table.state, catalog, ZORA, 3)
    assert layout(table, ZORA) == vigor.VigorLayout(3, 3, 0, 0)
    for left in (2, 1, 0):
        active(table, "zora-t02", ZORA)  # Price of Sight: Deplete 1 Vigor, Draw 2
        table.do(ResolveEffect(effect=1))
        assert vigor.usable(table.state.troupers[ZORA], TOKENS) == left
    zora = table.state.troupers[ZORA]
    assert (zora.vigor_depleted, zora.bites, zora.bites_on_depleted) == (3, 3, 0)
    # a fourth Vigor would be a token under a Bite: refused, nothing changes
    active(table, "zora-t02", ZORA)
    refused(table, ResolveEffect(effect=1), "0 usable Vigor")
    # an attack with a Vigor Cost is refused the same way
    table.state = fx.with_trouper(table.state, ZORA, insanity=3)  # Unravelling's Condition
    active(table, "zora-t12", ZORA)
    refused(table, Attack(effect=1, target="A", trait="madness", dice=[WIN]), "usable Vigor")
    assert layout(table, ZORA) == vigor.VigorLayout(0, 3, 3, 0)


def test_rule_3_a_bite_asks_which_token_when_available_and_depleted_ones_are_uncovered(
    catalog: Any,
) -> None:
    # Lucilla's Start-of-Turn Skill: who is in range, then a dodge Test; a Failure bites
    table = new_table(catalog, 2, seed=3, nemesis="lucilla")
    table.state = fx.with_trouper(table.state, IOANA, vigor_depleted=2)  # she paid 2 Vigor
    table.do(AnswerQuestion(troupers=["ioana"]))
    start = table.state
    table.do(RollTest(dice=[LOSE]))
    q = table.night.pending[0]
    assert (q.kind, q.trouper, q.n) == ("bite", IOANA, 1)
    assert table.state.troupers[IOANA].bites == 0  # laid once the player says where
    view = night_view(table.state, catalog)
    assert [o.label for o in view.options] == ["On a Depleted token", "On an Available token"]
    assert [o.fields for o in view.options] == [{"cards": ["depleted"]}, {"cards": ["available"]}]
    refused(table, AnswerQuestion(cards=["underneath"]), "available or depleted")
    refused(table, AnswerQuestion(cards=["depleted", "depleted"]), "name 1 side")
    table.do(AnswerQuestion(cards=["depleted"]))
    ioana = table.state.troupers[IOANA]
    assert (ioana.bites, ioana.bites_on_depleted, ioana.vigor_depleted) == (1, 1, 2)
    assert vigor.usable(ioana, TOKENS) == 4  # the four Available tokens still pay
    assert any("lay a Bite token on one of their depleted Vigor tokens" in t
               for t in texts(table))
    replays(table, start, 2)


def test_rule_3_a_bite_on_an_available_token_stops_it_paying(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="lucilla")
    table.state = fx.with_trouper(table.state, IOANA, vigor_depleted=2)
    table.do(AnswerQuestion(troupers=["ioana"]))
    table.do(RollTest(dice=[LOSE]))
    table.do(AnswerQuestion(cards=["available"]))
    assert layout(table, IOANA) == vigor.VigorLayout(3, 1, 2, 0)


@pytest.mark.parametrize("depleted,on", [(0, "available"), (6, "depleted")])
def test_rule_3_the_board_places_the_bite_when_only_one_kind_is_uncovered(
    catalog: Any, depleted: int, on: str
) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="lucilla")
    table.state = fx.with_trouper(table.state, IOANA, vigor_depleted=depleted)
    table.do(AnswerQuestion(troupers=["ioana"]))
    table.do(RollTest(dice=[LOSE]))
    assert all(q.kind != "bite" for q in table.night.pending)  # nothing to ask
    ioana = table.state.troupers[IOANA]
    assert (ioana.bites, ioana.bites_on_depleted) == (1, 1 if on == "depleted" else 0)
    assert any(f"lay a Bite token on one of their {on} Vigor tokens" in t for t in texts(table))


def test_rule_3_bites_on_depleted_first_when_the_group_says_so(catalog: Any) -> None:
    import dataclasses

    config = catalog.config.model_copy(update={"bite_placement": "depleted_first"})
    cat = dataclasses.replace(catalog, records={**catalog.records, "rules_config": [config]})
    table = new_table(cat, 2, seed=3, nemesis="lucilla")
    table.state = fx.with_trouper(table.state, IOANA, vigor_depleted=2)
    table.do(AnswerQuestion(troupers=["ioana"]))
    table.do(RollTest(dice=[LOSE]))
    assert not table.night.pending
    assert layout(table, IOANA) == vigor.VigorLayout(4, 0, 1, 1)


def test_rule_3_a_discarded_bite_leaves_an_available_token_first(catalog: Any) -> None:
    table = new_table(catalog, 4, seed=3, nemesis="corvin")
    active(table, "zora-t02", ZORA)
    table.do(ResolveEffect(effect=1))  # one Vigor Depleted
    table.state = fx.place_bites(table.state, catalog, ZORA, on_depleted=1, on_available=2)
    assert layout(table, ZORA) == vigor.VigorLayout(3, 2, 0, 1)
    active(table, "zora-t04", ZORA)  # Oath by Candlelight: Discard 1 Bite, Heal 2
    table.do(ResolveEffect(effect=1))
    assert layout(table, ZORA) == vigor.VigorLayout(4, 1, 0, 1)


def test_rule_3_old_saves_read_their_bites_on_depleted_tokens_first() -> None:
    """Saves hold only ``bites`` and ``vigor_depleted``: the Bites lie on the Depleted tokens
    first, which keeps the Vigor those saves allowed (tokens - max(depleted, bites))."""
    base = TrouperState(seat=0, colour="crimson", trouper="aurel", deck=[]).model_dump()
    del base["bites_on_depleted"]
    for bites, depleted in [(2, 3), (3, 1), (0, 4), (6, 6), (4, 0)]:
        old = TrouperState.model_validate({**base, "bites": bites, "vigor_depleted": depleted})
        assert old.bites_on_depleted == min(bites, depleted)
        assert vigor.usable(old, TOKENS) == TOKENS - max(depleted, bites)
        # the Recovery lays every Bite back on an Available token; the Bites stay
        back = old.recovered()
        assert (back.bites, back.bites_on_depleted, back.vigor_depleted) == (bites, 0, 0)
    # a whole state document of an old save loads the same way
    state = CampaignState().model_dump(mode="json")
    state["troupers"] = [{**base, "bites": 2, "vigor_depleted": 3}]
    loaded = CampaignState.model_validate(state)
    assert loaded.troupers[0].bites_on_depleted == 2


# --------------------------------------------------------------------------- 9 tokens


def _place_trap(table: Table) -> CampaignState:
    """Aurel's Caltrop Scatter places a Trap; the state before the action."""
    active(table, "aurel-t09", AUREL)
    before = table.state
    table.do(ResolveEffect(effect=1))
    return before


def test_rule_9_with_the_reserve_empty_the_player_chooses_which_token_moves(
    catalog: Any,
) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    for _ in range(8):  # all eight Traps on the Map
        _place_trap(table)
    traps = table.state.troupers[AUREL].traps
    assert (traps.supply, traps.intact, traps.consumed) == (0, 8, 0)
    table.state = cleanup(table.state, catalog)  # the Intact ones turn Consumed
    _place_trap(table)  # only Consumed ones on the Map: one of them moves, no question
    traps = table.state.troupers[AUREL].traps
    assert (traps.supply, traps.intact, traps.consumed) == (0, 1, 7)
    assert not table.night.pending
    start = _place_trap(table)  # one Intact and seven Consumed on the Map: the player chooses
    q = table.night.pending[0]
    assert (q.kind, q.trouper, q.about) == ("token", AUREL, "traps")
    assert table.state.troupers[AUREL].traps == traps  # nothing moves before the answer
    view = night_view(table.state, catalog)
    assert [o.fields for o in view.options] == [{"cards": ["consumed"]}, {"cards": ["intact"]}]
    refused(table, AnswerQuestion(cards=["both"]), "intact or consumed")
    table.do(AnswerQuestion(cards=["intact"]))
    assert table.state.troupers[AUREL].traps == traps  # an Intact one moved: same counts
    assert not table.night.pending
    assert said(table) == ("token_moved_intact", {"who": AUREL_ID, "token": "traps", "supply": 0})
    replays(table, start, 2)
    # the other choice: a Consumed one moves and turns Intact
    _place_trap(table)
    table.do(AnswerQuestion(cards=["consumed"]))
    traps = table.state.troupers[AUREL].traps
    assert (traps.supply, traps.intact, traps.consumed) == (0, 2, 6)
    assert said(table) == ("token_moved_consumed", {"who": AUREL_ID, "token": "traps", "supply": 0})


def test_rule_3_bites_waiting_for_the_answer_join_it_and_never_overflow(catalog: Any) -> None:
    """Three Bite Elements of one Effect on a Trouper with one Available and one Depleted token
    uncovered: one question for the two that fit, the third is not placed."""
    from blood_companion.content import models as m
    from blood_companion.engine.chance import Chance
    from blood_companion.engine.night import enemy as ai

    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = fx.with_trouper(table.state, IOANA, vigor_depleted=3, bites=4,
                                  bites_on_depleted=2)
    assert layout(table, IOANA) == vigor.VigorLayout(1, 2, 1, 2)
    bites = [m.Outcome(kind="bite") for _ in range(3)]
    table.state = ai.apply_to_trouper(table.state, catalog, Chance.fresh(1, 0), IOANA, bites,
                                      "corvin")
    assert [(q.kind, q.n) for q in table.night.pending] == [("bite", 2)]
    assert said(table) == ("all_bitten", {"who": table.state.troupers[IOANA].trouper})
    view = night_view(table.state, catalog)
    assert [o.label for o in view.options] == ["On a Depleted token and an Available token"]
    table.do(AnswerQuestion(cards=["available", "depleted"]))
    assert layout(table, IOANA) == vigor.VigorLayout(0, 3, 0, 3)
