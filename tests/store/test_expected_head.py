"""An action chosen at one step is recorded only while the save is still there (issue 42): the
writer checks the expected head inside its write transaction (HeadMoved, nothing written), so
of two answers to one question, from two processes or two seats, exactly one is recorded."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore
from blood_companion.store.errors import HeadMoved, StoreError
from blood_companion.store.seats import COMMAND, LAPTOP, note_by, recorded_by, seat_tokens


def test_an_answer_made_at_an_older_step_is_refused_and_writes_nothing(
    new_store: Callable[..., CampaignStore], saves_dir: Path, catalog: Any,
) -> None:
    store = new_store()
    at = (store.head, store.state_hash)
    other = CampaignStore.open(saves_dir, "tuesday", catalog)  # another process, in effect
    try:
        other.record(AdjustWagon(coins=1), expect=at)  # first: recorded
        with pytest.raises(HeadMoved) as refused:
            store.record(AdjustWagon(coins=2), expect=at)  # the same question, second
        assert isinstance(refused.value, StoreError)
        assert refused.value.head == at[0] + 1 and "already answered" in refused.value.message
        assert store.head == at[0] + 1 and store.state.wagon.coins == 1  # synced, nothing new
        now = (store.head, store.state_hash)
        store.record(AdjustWagon(coins=2), expect=now)  # at the step it is now: recorded
        assert store.state.wagon.coins == 3
        with pytest.raises(HeadMoved):
            other.undo(1, expect=now)  # undo and redo check it too
        other.undo(1, expect=(store.head, store.state_hash))
        with pytest.raises(HeadMoved):
            store.redo(1, expect=(store.head, store.state_hash))
        assert other.state.wagon.coins == 1
    finally:
        other.close()


def test_an_undo_back_to_the_same_step_is_the_same_question(
    new_store: Callable[..., CampaignStore],
) -> None:
    store = new_store()
    at = (store.head, store.state_hash)
    store.record(AdjustWagon(coins=1), expect=at)
    store.undo(1)
    store.record(AdjustWagon(coins=1), expect=at)  # the head and state are those of `at`
    assert store.head == at[0] + 1


def test_seat_tokens_are_private_reused_and_replaced(saves_dir: Path) -> None:
    saves_dir.mkdir(parents=True, exist_ok=True)
    first = seat_tokens(saves_dir, "tuesday", ["aurel", "zora"])
    path = saves_dir / ".seats" / "tuesday.json"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert seat_tokens(saves_dir, "tuesday", ["aurel", "zora"]) == first
    assert first.find(first.troupers["zora"]) == "zora" and first.find(first.watch) == ""
    assert first.find("x" * 32) is None and first.find("") is None
    more = seat_tokens(saves_dir, "tuesday", ["aurel", "zora", "ioana"])  # a Trouper joined
    assert more.troupers["aurel"] == first.troupers["aurel"] and "ioana" in more.troupers
    fresh = seat_tokens(saves_dir, "tuesday", ["aurel", "zora"], new=True)
    assert set(fresh.troupers.values()).isdisjoint(first.troupers.values())
    path.write_text("{not json")  # damaged: new tokens, never a crash
    assert seat_tokens(saves_dir, "tuesday", ["aurel"]).troupers["aurel"]
    with pytest.raises(StoreError):
        seat_tokens(saves_dir, "../escape", ["aurel"])  # no other path, ever


def test_who_recorded_a_step_is_told_by_the_write(saves_dir: Path) -> None:
    saves_dir.mkdir(parents=True, exist_ok=True)
    write = ("h" * 64, 7, 3)
    note_by(saves_dir, "tuesday", write, LAPTOP)  # no seats yet: nothing noted
    assert recorded_by(saves_dir, "tuesday", write) == COMMAND
    seat_tokens(saves_dir, "tuesday", ["aurel"])
    note_by(saves_dir, "tuesday", write, "Ioana")
    note_by(saves_dir, "tuesday", ("h" * 64, 9, 3), LAPTOP)  # the same head, a later write
    assert recorded_by(saves_dir, "tuesday", write) == "Ioana"
    assert recorded_by(saves_dir, "tuesday", ("h" * 64, 9, 3)) == LAPTOP
    assert recorded_by(saves_dir, "tuesday", ("h" * 64, 8, 3)) == COMMAND
