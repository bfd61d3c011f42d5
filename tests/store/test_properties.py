"""Property tests: for random action sequences (some refused), replay equals the snapshot,
undo(N) then redo(N) is the identity, and undo gives back exactly the state before."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from blood_companion.engine.campaign import (
    AddTrouper,
    AdjustWagon,
    RetireTrouper,
    Seat,
    SetLeader,
    StartCampaign,
)
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import replay
from blood_companion.engine.state import state_hash
from blood_companion.store import CampaignStore, NothingToRedo, NothingToUndo

TROUPERS = ("aurel", "ioana", "petru", "zora")
amount = st.integers(-3, 4)
actions = st.one_of(
    st.builds(AdjustWagon, jewels=amount, coins=amount, trinkets=amount, scrolls=amount),
    st.builds(AddTrouper, trouper=st.sampled_from(TROUPERS)),
    st.builds(RetireTrouper, trouper=st.sampled_from(TROUPERS)),
    st.builds(SetLeader, trouper=st.sampled_from((*TROUPERS, "1", "2"))),
)
# Operations: an action, or undo/redo of a few steps.
ops = st.lists(
    st.one_of(
        actions.map(lambda a: ("act", a)),
        st.tuples(st.just("undo"), st.integers(1, 3)),
        st.tuples(st.just("redo"), st.integers(1, 3)),
    ),
    max_size=25,
)
SETTINGS = settings(max_examples=40, deadline=None)


@cache
def _catalog() -> Any:
    # Not a fixture: hypothesis would print the whole catalog with every failing example.
    from blood_companion.content.loader import load_catalog

    return load_catalog()


def _start(seed: int) -> StartCampaign:
    return StartCampaign(name="p", seed=seed, seats=[Seat(trouper="aurel"), Seat(trouper="zora")])


@SETTINGS
@given(seed=st.integers(0, 2**31), steps=ops)
def test_random_sequences_replay_to_the_snapshot(seed: int, steps: list[tuple[str, Any]]) -> None:
    catalog = _catalog()
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        store = CampaignStore.create(saves, "p", _start(seed), catalog)
        history = [store.state]  # model of the states at steps 1..head
        redo: list[Any] = []
        for kind, arg in steps:
            before_bytes = store.path.read_bytes()
            try:
                if kind == "act":
                    history.append(store.record(arg))
                    redo = []
                elif kind == "undo":
                    store.undo(arg)
                    redo = history[-arg:] + redo
                    del history[-arg:]
                else:
                    store.redo(arg)
                    history.extend(redo[:arg])
                    redo = redo[arg:]
            except (RuleError, NothingToUndo, NothingToRedo):
                assert store.path.read_bytes() == before_bytes  # refused: file unchanged
            assert store.state == history[-1] and store.head == len(history)
            assert store.redo_available == len(redo)
        report = store.verify()
        assert report.ok, report.problems
        # Replaying the done steps from nothing gives the snapshot at the head, bit for bit.
        done = store.actions()[: store.head]
        assert state_hash(replay(done, catalog)) == store.state_hash
        store.close()
        with CampaignStore.open(saves, "p", catalog) as again:
            assert again.state == history[-1] and again.state_hash == state_hash(history[-1])


@SETTINGS
@given(seed=st.integers(0, 2**31), acts=st.lists(actions, min_size=1, max_size=20),
       data=st.data())
def test_undo_redo_identity_and_exact_undo(seed: int, acts: list[Any], data: st.DataObject
                                           ) -> None:
    catalog = _catalog()
    with tempfile.TemporaryDirectory() as tmp:
        store = CampaignStore.create(Path(tmp), "p", _start(seed), catalog)
        for a in acts:
            before = store.state
            try:
                after = store.record(a)
            except RuleError:
                continue
            # undo returns exactly the state before the action; redo the one after
            assert store.undo(1) == before and store.state_hash == state_hash(before)
            assert store.redo(1) == after
        if store.head > 1:
            n = data.draw(st.integers(1, store.head - 1))
            h = store.state_hash
            store.undo(n)
            store.redo(n)
            assert store.state_hash == h
        store.close()
