"""CampaignStore: record, undo/redo, marks, the log, names and refused actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from blood_companion.engine.campaign import AddTrouper, AdjustWagon, SetLeader
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import state_hash
from blood_companion.store import (
    BadNameError,
    CampaignExists,
    CampaignNotFound,
    CampaignStore,
    NothingToRedo,
    NothingToUndo,
)
from blood_companion.store import saves as saves_mod
from blood_companion.store.manage import delete_campaign, list_campaigns, recover_campaign


def coins(n: int = 1) -> AdjustWagon:
    return AdjustWagon(coins=n)


def test_create_record_and_resume(new_store: Any, saves_dir: Path, catalog: Any) -> None:
    store = new_store()
    assert store.head == 1 and store.state.started and store.state.seed == 7
    for _ in range(3):
        store.record(coins())
    assert store.state.wagon.coins == 3 and store.log_length == 4
    h = store.state_hash
    assert h == state_hash(store.state)
    store.close()
    again = CampaignStore.open(saves_dir, "tuesday", catalog)
    assert (again.head, again.state_hash, again.state) == (4, h, store.state)
    again.close()


def test_resume_needs_no_catalog(new_store: Any, saves_dir: Path) -> None:
    store = new_store()
    store.record(coins())
    with CampaignStore.open(saves_dir, "tuesday") as again:  # show/log never load the data
        assert again.state.wagon.coins == 1
        assert [e.sentence for e in again.log()][-1] == "Wagon adjusted: +1 coin"


def test_refused_action_changes_nothing(new_store: Any) -> None:
    store = new_store()
    store.record(coins(2))
    before = store.path.read_bytes()
    state = store.state
    with pytest.raises(RuleError, match="cannot lose 5"):
        store.record(coins(-5))
    with pytest.raises(RuleError, match="already at the table"):
        store.record(AddTrouper(trouper="aurel"))
    assert store.path.read_bytes() == before
    assert store.state == state and store.head == 2
    assert store.record(coins(1)).wagon.coins == 3  # the store is still usable


def test_undo_redo_and_messages(new_store: Any) -> None:
    store = new_store()
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        store.undo()
    with pytest.raises(NothingToRedo, match="nothing to redo"):
        store.redo()
    states = [store.state]
    for i in range(5):
        states.append(store.record(coins(i + 1)))
    assert store.undo(2) == states[3] and store.redo_available == 2
    with pytest.raises(NothingToUndo, match="only 3 steps can be undone"):
        store.undo(4)
    assert store.redo(1) == states[4]
    with pytest.raises(NothingToRedo, match="only 1 step can be redone"):
        store.redo(2)
    store.undo(1)
    store.record(SetLeader(trouper="zora"))  # replaces the undone steps 5 and 6
    with pytest.raises(NothingToRedo) as info:
        store.redo()
    assert "replaced" in (info.value.hint or "")
    log = store.log(include_abandoned=True)
    assert [(e.step, e.status) for e in log] == [
        (1, "done"), (2, "done"), (3, "done"), (4, "done"), (5, "done"),
        (5, "abandoned"), (6, "abandoned"),
    ]
    assert log[4].sentence == "The Leader token goes to Zora Blackcandle"


def test_undo_to_step_and_mark(new_store: Any) -> None:
    store = new_store()
    store.record(coins())
    store.mark("before Lucilla")
    marked = store.state
    for _ in range(3):
        store.record(coins())
    assert store.undo_to("before Lucilla") == marked and store.head == 2
    assert store.undo_to("4").wagon.coins == 3  # forward within the undone steps
    assert store.undo_to(1).wagon.coins == 0
    with pytest.raises(NothingToUndo, match="no step 9"):
        store.undo_to(9)
    with pytest.raises(NothingToUndo, match="no mark 'nope'") as info:
        store.undo_to("nope")
    assert "before Lucilla" in (info.value.hint or "")
    with pytest.raises(BadNameError):
        store.mark("12")
    store.mark("start")
    with pytest.raises(Exception, match="already names step 1"):
        store.mark("start")
    assert store.marks() == {"start": 1, "before Lucilla": 2}
    # A new action after undo drops the marks that pointed into the replaced steps.
    store.undo_to(1)
    store.record(coins(5))
    assert store.marks() == {"start": 1}


def test_long_log_uses_snapshots(new_store: Any, saves_dir: Path, catalog: Any) -> None:
    store = new_store()
    for _ in range(130):
        store.record(coins())
    assert store.undo(75).wagon.coins == 55
    assert store.redo(75).wagon.coins == 130
    assert store.verify().ok
    with CampaignStore.open(saves_dir, "tuesday", catalog) as again:
        assert again.state.wagon.coins == 130
        snaps = [r[0] for r in again._conn.execute("SELECT step FROM snapshots ORDER BY step")]
    assert snaps == [1, 50, 100, 131]


def test_second_store_sees_the_other_ones_actions(new_store: Any, saves_dir: Path,
                                                 catalog: Any) -> None:
    a = new_store()
    with CampaignStore.open(saves_dir, "tuesday", catalog) as b:
        a.record(coins(1))
        b.record(coins(2))  # b reloads under the write lock: no lost update
        a.record(coins(4))
        assert a.state.wagon.coins == 7 and a.head == 4
        assert b.refresh().wagon.coins == 7


@pytest.mark.parametrize(
    "name",
    ["", "   ", "../evil", "a/b", "a\\b", "..", "x..y", ".hidden", "tab\there", "nul\x00",
     "line\nbreak", "x" * 65, "CON", "trailing.", " lead", "-dash", "what?"],
)
def test_bad_names_are_refused_and_nothing_written(
    name: str, tmp_path: Path, catalog: Any, start_of: Any
) -> None:
    start = start_of
    saves_dir = tmp_path / "saves"
    with pytest.raises(BadNameError, match="bad campaign name"):
        CampaignStore.create(saves_dir, name, start(), catalog)
    with pytest.raises(BadNameError):
        CampaignStore.open(saves_dir, name, catalog)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["saves"] if saves_dir.exists() else [])
    assert not saves_dir.exists() or not any(saves_dir.iterdir())


def test_good_names(new_store: Any, saves_dir: Path) -> None:
    for name in ("Tuesday group", "Kaffee & Kuchen", "Élodie's campaign 2", "a.b"):
        new_store(name)
    assert set(saves_mod.campaign_names(saves_dir)) == {
        "Tuesday group", "Kaffee & Kuchen", "Élodie's campaign 2", "a.b"}


def test_exists_unknown_and_case(
    new_store: Any, saves_dir: Path, catalog: Any, start_of: Any
) -> None:
    start = start_of
    new_store("Tuesday")
    with pytest.raises(CampaignExists):
        CampaignStore.create(saves_dir, "Tuesday", start(), catalog)
    with pytest.raises(CampaignExists, match="differ only by case"):
        CampaignStore.create(saves_dir, "tuesday", start(), catalog)
    with pytest.raises(CampaignNotFound, match="no campaign 'friday'") as info:
        CampaignStore.open(saves_dir, "friday", catalog)
    assert "Tuesday" in (info.value.hint or "")


def test_refused_start_writes_nothing(saves_dir: Path, catalog: Any, start_of: Any) -> None:
    start = start_of
    with pytest.raises(RuleError, match="unknown Trouper"):
        CampaignStore.create(saves_dir, "x", start(troupers=("nobody",)), catalog)
    assert saves_mod.campaign_names(saves_dir) == []
    assert not [p for p in saves_dir.iterdir() if not p.name.startswith(".backups")]


def test_list_delete_and_recover_a_deleted_campaign(new_store: Any, saves_dir: Path,
                                                    catalog: Any) -> None:
    store = new_store()
    store.record(coins(3))
    store.close()
    (info,) = list_campaigns(saves_dir)
    assert (info.name, info.log_length, info.error) == ("tuesday", 2, None)
    kept = delete_campaign(saves_dir, "tuesday")
    assert kept.exists() and saves_mod.campaign_names(saves_dir) == []
    with pytest.raises(CampaignNotFound):
        delete_campaign(saves_dir, "tuesday")
    result = recover_campaign(saves_dir, "tuesday", catalog)
    assert result.log_length == 2
    with CampaignStore.open(saves_dir, "tuesday", catalog) as back:
        assert back.state.wagon.coins == 3


def test_backup_api_and_part_change_backup(new_store: Any, saves_dir: Path, catalog: Any) -> None:
    store = new_store()
    path = store.backup("before Lucilla")
    assert path.parent == saves_dir / ".backups" / "tuesday"
    assert path.name.endswith("-before-lucilla.blood.db.gz")  # compressed, numbered
    assert saves_mod.generation(path) is not None
    out = saves_dir.parent / "restored"
    out.mkdir()
    saves_mod.restore_copy(path, out / "copy.blood.db")
    with CampaignStore.open(out, "copy", catalog) as copy:
        assert copy.state == store.state
