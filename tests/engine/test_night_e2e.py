"""Whole nights on the shipped data, played by a small deterministic bot (night_bot.py), for
1 to 4 Troupers: won, lost by a Check card, a Trouper Knocked Out, a Summon with no free
Minion space, a Nemesis deck that runs out and reshuffles. The board is checked after every
action and after each phase; a replay of the log rebuilds the identical final state.

The seeds lead to each scenario on the shipped data; `python tests/engine/find_night_seeds.py`
finds new ones when an engine change makes nights play differently."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from night_bot import Table, new_table, step
from night_invariants import NightInvariants

from blood_companion.engine import words
from blood_companion.engine.state import state_hash


def check_board(table: Table) -> None:
    """What must hold after every action."""
    state, night, cat = table.state, table.night, table.catalog
    for t in state.troupers:
        on_chain = [
            s.card
            for s in night.chain
            if s.owner is not None and state.troupers[s.owner].trouper == t.trouper
        ]
        cards = t.hand + t.draw_pile + t.discard + t.wounds + on_chain
        assert Counter(cards) == Counter(t.deck), t.trouper
        assert 0 <= t.bites <= cat.config.vigor_tokens
    nemesis_cards = (
        night.reaction_deck
        + night.reaction_discard
        + [r.card for r in night.reaction_line]
        + [c for side in night.nemesis_wounds.values() for c in side if c != "-"]
    )
    assert len(nemesis_cards) == 12 and len(set(nemesis_cards)) == 12
    assert len(night.chain) <= night.chain_spaces
    assert len(night.reaction_line) <= cat.board.reaction_spaces
    assert 0 <= night.threat <= cat.board.threat_track.length
    spaces = [m.space for m in night.minions]
    assert spaces[:2] == ["A", "B"] and len(set(spaces)) == len(spaces)
    assert all(m.alive >= 1 for m in night.minions if m.summoned)


def check_phase(table: Table) -> None:
    """What must hold once an automatic phase is over."""
    night, state = table.night, table.state
    if night.phase == "over" or night.pending:
        return
    if night.phase == "nemesis" and night.phase_done:
        assert all(r.resolved for r in night.reaction_line)
    if night.phase == "cleanup":
        assert night.threat == 0 and night.reaction_line == []
        assert all(s.kind == "event" and not s.face_down for s in night.chain)
        limit = table.catalog.config.knock_out_wounds
        for t in state.troupers:
            assert not t.exhausted and not t.depleted_items and not t.rested_this_turn
            assert t.knocked_out == (t.knocked_out or len(t.wounds) >= limit)
            if len(t.wounds) >= limit:
                assert t.knocked_out
    if night.phase == "planning":
        assert night.to_play is not None


def play_checked(table: Table, max_actions: int = 3000) -> Table:
    phases: list[str] = []
    invariants = NightInvariants(table.catalog)
    invariants.check(table.state)
    for _ in range(max_actions):
        if table.night.phase == "over":
            break
        before = table.night.phase
        step(table)
        check_board(table)
        invariants.check(table.state)
        if table.night.phase != before:
            phases.append(table.night.phase)
            check_phase(table)
    assert table.night.phase == "over"
    table.phases_seen = [(0, p) for p in phases]
    return table


def night_text(table: Table) -> str:
    return "\n".join(words.render(e, table.catalog) for e in table.night.log)


def assert_replays(table: Table) -> None:
    assert state_hash(table.replayed()) == state_hash(table.state)


WON = [(1, "lucilla", 0), (2, "lucilla", 0), (3, "lucilla", 0), (4, "lucilla", 1)]


@pytest.mark.parametrize("players,nemesis,seed", WON)
def test_won_nights(catalog: Any, players: int, nemesis: str, seed: int) -> None:
    table = play_checked(new_table(catalog, players, seed=seed, bot_seed=seed, nemesis=nemesis))
    night = table.night
    assert night.result == "won"
    need = catalog.nemesis(nemesis).levels[0].wounds
    assert all(len(night.nemesis_wounds[s]) >= k for s, k in need.items())
    seen = {p for _, p in table.phases_seen}
    assert {"tactic", "nemesis", "minions", "cleanup", "planning", "over"} <= seen
    assert_replays(table)


@pytest.mark.parametrize(
    "players,nemesis,seed,difficulty",
    [(1, "saskia", 2, 3), (2, "saskia", 0, 3), (3, "saskia", 1, 3), (4, "vlad", 1, 3)],
)
def test_lost_by_check(
    catalog: Any, players: int, nemesis: str, seed: int, difficulty: int
) -> None:
    table = play_checked(
        new_table(
            catalog, players, seed=seed, bot_seed=seed, nemesis=nemesis, difficulty=difficulty
        )
    )
    assert table.night.result == "lost"
    assert "condition holds" in night_text(table)
    assert_replays(table)


def test_trouper_knocked_out(catalog: Any) -> None:
    table = play_checked(new_table(
        catalog, 4, seed=251, bot_seed=251, nemesis="corvin", difficulty=3
    ))
    knocked = [t for t in table.state.troupers if t.knocked_out]
    assert knocked and all(len(t.wounds) >= 8 for t in knocked)
    assert "Knocked Out for the rest of the night" in night_text(table)
    assert_replays(table)


def _with_config(catalog: Any, **update: Any) -> Any:
    """The same catalog with some rules_config settings changed."""
    import dataclasses

    config = catalog.config.model_copy(update=update)
    return dataclasses.replace(catalog, records={**catalog.records, "rules_config": [config]})


def test_everyone_knocked_out_loses(catalog: Any) -> None:
    # With the "nobody can play" ending off, the bot's empty-handed night goes on until the
    # Minions have knocked the only Trouper out.
    patient = _with_config(catalog, lose_when_nobody_can_play=False)
    table = play_checked(new_table(patient, 1, seed=6, bot_seed=6, nemesis="lucilla"))
    assert table.night.result == "lost"
    assert table.night.reason == "all_knocked_out"
    assert_replays(table)


def test_nobody_can_play_loses(catalog: Any) -> None:
    table = play_checked(new_table(catalog, 1, seed=3, bot_seed=3, nemesis="lucilla"))
    assert table.night.result == "lost"
    assert table.night.reason == "nobody_can_play"
    assert all(not t.hand or t.knocked_out for t in table.state.troupers)
    assert_replays(table)


def test_summon_with_no_free_space(catalog: Any) -> None:
    table = play_checked(new_table(catalog, 2, seed=0, bot_seed=0, nemesis="mirela"))
    text = night_text(table)
    assert "Summon ignored: no Minion space is free" in text
    assert_replays(table)


def test_nemesis_deck_reshuffles(catalog: Any) -> None:
    table = play_checked(new_table(catalog, 2, seed=0, bot_seed=0, nemesis="mirela"))
    assert "The Nemesis deck is empty: its discard pile is shuffled into it" in night_text(table)
    assert_replays(table)


# Nights where a Threat Element of an Enemy card reveals an Interruption mid-card (issue 23,
# item 1): the invariant (night_invariants.py) failed on each before the queue had ids.
@pytest.mark.parametrize(
    "players,nemesis,seed",
    [(2, "corvin", 6), (2, "ilie", 3), (3, "mirela", 8), (2, "vlad", 0)],
)
def test_rule_1_interruptions_mid_card_in_whole_nights(
    catalog: Any, players: int, nemesis: str, seed: int
) -> None:
    table = play_checked(
        new_table(catalog, players, seed=seed, bot_seed=seed, nemesis=nemesis, difficulty=2)
    )
    assert "(Interruption: it resolves now)" in night_text(table)
    assert_replays(table)
