"""Damaged, hand-edited and old saves; export and import."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from save_files import legacy_states, write_legacy, write_today

from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import (
    CampaignExists,
    CampaignStore,
    DamagedSave,
    ImportRefused,
    StoreError,
    schema,
)
from blood_companion.store.manage import recover_campaign
from blood_companion.store.transfer import export_campaign, import_campaign


@pytest.fixture()
def played(new_store: Any, saves_dir: Path, catalog: Any) -> Path:
    """A closed campaign of 61 steps (snapshots at 1, 50 and the head), with a backup taken
    at step 1. Written in one transaction, like an import: 60 fsynced commits are slow."""
    store = new_store()  # takes the "new campaign" backup
    start_action = store.actions()[0]
    store.close()
    actions = [start_action, *(AdjustWagon(coins=1, reason=f"#{i}") for i in range(60))]
    return write_today(saves_dir, "tuesday", actions, catalog, replace=True)


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    for s in statements:
        conn.execute(s)
    conn.commit()
    conn.close()


def _damage(kind: str, path: Path) -> None:
    data = path.read_bytes()
    if kind == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "garbage":
        path.write_bytes(b"not a save at all\n" * 300)
    elif kind == "zeroed-pages":
        path.write_bytes(data[:4096] + b"\0" * (len(data) - 4096))
    elif kind == "edited-snapshot":
        _sql(path, "UPDATE snapshots SET state = replace(state, '\"coins\":60', '\"coins\":99')")
    elif kind == "edited-head":
        _sql(path, "UPDATE meta SET value = '500' WHERE key = 'head'")
    elif kind == "newer-version":
        _sql(path, "PRAGMA user_version = 99")
    elif kind == "foreign-sqlite":
        path.unlink()
        _sql(path, "CREATE TABLE notes (x)")
    elif kind == "dropped-table":
        _sql(path, "DROP TABLE marks")
    else:  # pragma: no cover
        raise AssertionError(kind)


EXPECT = {
    "truncated": "truncated",
    "empty": "not a Blood Companion save",
    "garbage": "not a SQLite database",
    "zeroed-pages": "damaged",
    "edited-snapshot": "does not match its checksum",
    "edited-head": "head (500) is outside the log",
    "newer-version": "newer Blood Companion",
    "foreign-sqlite": "not a Blood Companion save",
    "dropped-table": "table 'marks' is missing",
}


@pytest.mark.parametrize("kind", sorted(EXPECT))
def test_damaged_save_clear_message_file_untouched(
    kind: str, played: Path, saves_dir: Path, catalog: Any
) -> None:
    _damage(kind, played)
    before = played.read_bytes()
    with pytest.raises(DamagedSave) as info:
        CampaignStore.open(saves_dir, "tuesday", catalog)
    err = info.value
    assert str(played) in err.message and EXPECT[kind] in err.message
    assert "untouched" in err.message and err.hint and "recover" in err.hint
    assert err.exit_code == 1
    assert played.read_bytes() == before
    # recover puts back the newest good backup and keeps the damaged file
    result = recover_campaign(saves_dir, "tuesday", catalog)
    assert result.damaged_copy is not None and result.damaged_copy.read_bytes() == before
    with CampaignStore.open(saves_dir, "tuesday", catalog) as store:
        assert store.verify().ok and store.state.wagon.coins == result.log_length - 1


def test_recover_salvages_the_steps_after_the_backup(played: Path, saves_dir: Path,
                                                     catalog: Any) -> None:
    _damage("edited-snapshot", played)
    result = recover_campaign(saves_dir, "tuesday", catalog)
    assert result.salvaged == 60 and result.log_length == 61
    with CampaignStore.open(saves_dir, "tuesday", catalog) as store:
        assert store.state.wagon.coins == 60


def test_recover_refuses_when_healthy(played: Path, saves_dir: Path, catalog: Any) -> None:
    with pytest.raises(StoreError, match="nothing to recover"):
        recover_campaign(saves_dir, "tuesday", catalog)


def test_recover_without_backups(played: Path, saves_dir: Path, catalog: Any) -> None:
    for b in (saves_dir / ".backups" / "tuesday").iterdir():
        b.unlink()
    _damage("garbage", played)
    before = played.read_bytes()
    with pytest.raises(StoreError, match="no good backup"):
        recover_campaign(saves_dir, "tuesday", catalog)
    assert played.read_bytes() == before


def test_hand_edited_action_fails_verify(played: Path, saves_dir: Path, catalog: Any) -> None:
    _sql(played, "UPDATE actions SET data = replace(data, '\"coins\":1', '\"coins\":2') "
                 "WHERE step = 10")
    with CampaignStore.open(saves_dir, "tuesday", catalog) as store:  # head snapshot is fine
        report = store.verify()
    assert not report.ok and "step 10" in report.problems[0]


def test_opens_and_migrates_an_old_schema(saves_dir: Path, catalog: Any, start_of: Any) -> None:
    saves_dir.mkdir()
    path = saves_dir / "old.blood.db"
    actions = [start_of("old"), AdjustWagon(coins=2), AdjustWagon(jewels=1)]
    states = write_legacy(path, actions, catalog, version=1)
    with CampaignStore.open(saves_dir, "old", catalog) as store:
        assert store.state == states[-1] and store.head == 3
        assert store.verify().ok
        store.mark("migrated")
        store.undo(1)
        assert store.state == states[1]
        store.record(AdjustWagon(coins=1))
        assert store.log(include_abandoned=True)[-1].status == "abandoned"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    conn.close()
    (backup,) = (saves_dir / ".backups" / "old").iterdir()
    assert "before-migration-from-v1" in backup.name
    b = sqlite3.connect(backup)
    assert b.execute("PRAGMA user_version").fetchone()[0] == 1  # the backup is the old file
    b.close()


def test_every_schema_version_has_a_migration() -> None:
    # SQL migrations up to the rebuild; version 2 files are rebuilt (store/migrations.py)
    assert set(schema.MIGRATIONS) == set(range(1, schema.REBUILD_FROM))
    assert schema.REBUILD_FROM == schema.SCHEMA_VERSION - 1


def test_a_save_of_app_0_1_0_rebuilds_every_step_exactly(saves_dir: Path, catalog: Any,
                                                         start_of: Any) -> None:
    saves_dir.mkdir()
    path = saves_dir / "old.blood.db"
    actions = [start_of("old"), *(AdjustWagon(coins=1, reason=f"#{i}") for i in range(60))]
    states = write_legacy(path, actions, catalog, version=2)
    with CampaignStore.open(saves_dir, "old", catalog) as store:
        assert store.state == states[-1]
        for step in (1, 2, 49, 50, 51, 60):
            assert store.state_at(step) == states[step - 1]
        report = store.verify()
        assert report.ok and report.replayed == 0
        assert report.kept == ["steps 1–61 recorded with app 0.1.0 / data not recorded: "
                               "kept as recorded"]
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM actions WHERE exact = 0").fetchone()[0] == 0
    conn.close()


def test_a_0_1_0_step_the_rules_no_longer_play_is_kept_from_the_nearest_stored_state(
    saves_dir: Path, catalog: Any, start_of: Any
) -> None:
    """App 0.1.0 kept whole states every 50 steps and at the head: where today's rules do not
    rebuild the steps between, those states are used and the steps are marked not exact."""
    saves_dir.mkdir()
    path = saves_dir / "old.blood.db"
    actions = [start_of("old"), *(AdjustWagon(coins=1, reason=f"#{i}") for i in range(60))]
    write_legacy(path, actions, catalog, version=2)
    _sql(path, "UPDATE actions SET data = replace(data, '\"coins\":1', '\"coins\":2') "
               "WHERE step = 55")
    states = legacy_states(actions, catalog)
    with CampaignStore.open(saves_dir, "old", catalog) as store:
        assert store.state == states[-1]  # the head as 0.1.0 kept it
        assert store.state_at(50) == states[49]
        assert store.state_at(54) == states[53]
        assert store.verify().ok
    conn = sqlite3.connect(path)
    inexact = [r[0] for r in conn.execute("SELECT step FROM actions WHERE exact = 0")]
    conn.close()
    assert inexact == list(range(55, 61))


# ---------------------------------------------------------------------- export / import


def test_export_import_round_trip(new_store: Any, saves_dir: Path, catalog: Any,
                                  tmp_path: Path) -> None:
    store = new_store()
    for i in range(5):
        store.record(AdjustWagon(coins=i + 1))
    store.mark("before Lucilla")
    store.undo(2)
    store.record(AdjustWagon(jewels=1))
    store.undo(1)
    out = export_campaign(store, tmp_path / "tuesday.json")
    doc = json.loads(out.read_text())
    assert doc["format"] == "blood-companion-campaign" and doc["head"] == 4
    with pytest.raises(StoreError, match="already exists"):
        export_campaign(store, out)
    with pytest.raises(CampaignExists):
        import_campaign(saves_dir, out, catalog)
    name = import_campaign(saves_dir, out, catalog, name="copy")
    with CampaignStore.open(saves_dir, name, catalog) as copy:
        assert (copy.head, copy.state_hash) == (store.head, store.state_hash)
        assert copy.marks() == store.marks() == {}
        assert [e.to_json() for e in copy.log(include_abandoned=True)] == [
            e.to_json() for e in store.log(include_abandoned=True)]
        assert copy.redo().wagon.jewels == 1


def test_import_replace_takes_a_backup(new_store: Any, saves_dir: Path, catalog: Any,
                                       tmp_path: Path) -> None:
    store = new_store()
    out = export_campaign(store, tmp_path / "t.json")
    store.record(AdjustWagon(coins=1))
    store.close()
    import_campaign(saves_dir, out, catalog, replace=True)
    with CampaignStore.open(saves_dir, "tuesday", catalog) as again:
        assert again.head == 1
    names = [p.name for p in (saves_dir / ".backups" / "tuesday").iterdir()]
    assert any("before-import" in n for n in names)


def _edit(doc: dict[str, Any], kind: str) -> str:
    if kind == "json":
        return json.dumps(doc)[:-40]
    if kind == "format":
        doc["format"] = "something-else"
    elif kind == "version":
        doc["format_version"] = 99
    elif kind == "action":
        doc["actions"][2]["action"]["coins"] = 5
    elif kind == "unknown-action":
        doc["actions"][2]["action"]["type"] = "summon_dragon"
    elif kind == "steps":
        doc["actions"][2]["step"] = 7
    elif kind == "head":
        doc["head"] = 40
    elif kind == "name":
        doc["name"] = "../../etc/evil"
    elif kind == "mark":
        doc["marks"] = {"x": 99}
    elif kind == "refused":
        doc["actions"][2]["action"]["coins"] = -50
        doc["actions"][2]["state_hash"] = None
    elif kind == "missing":
        del doc["actions"]
    return json.dumps(doc)


@pytest.mark.parametrize(
    "kind", ["json", "format", "version", "action", "unknown-action", "steps", "head", "name",
             "mark", "refused", "missing"],
)
def test_import_validates_everything_first(kind: str, new_store: Any, saves_dir: Path,
                                           catalog: Any, tmp_path: Path) -> None:
    store = new_store("src")
    for _ in range(3):
        store.record(AdjustWagon(coins=1))
    doc = store.export_doc()
    bad = tmp_path / "bad.json"
    bad.write_text(_edit(doc, kind))
    before = sorted(p.name for p in saves_dir.rglob("*"))
    with pytest.raises(ImportRefused) as info:
        import_campaign(saves_dir, bad, catalog, name=None if kind == "name" else "dst")
    assert str(bad) in info.value.message and "nothing was stored" in (info.value.hint or "")
    assert sorted(p.name for p in saves_dir.rglob("*")) == before


def test_verify_names_each_damage_of_a_long_log(
    played: Path, saves_dir: Path, catalog: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verify reads the log a row at a time and replays each step from the one before it
    (issue 29): two hand-edited actions, far apart, and a snapshot whose hash was changed are
    each still named; the steps between them still replay (the state is read from the save
    only where a replay stops matching, not once a step)."""
    from blood_companion.store import repository

    with CampaignStore.open(saves_dir, "tuesday", catalog) as store:
        validated = []
        real = repository.to_state

        def counted(doc: Any) -> Any:
            validated.append(1)
            return real(doc)

        monkeypatch.setattr(repository, "to_state", counted)
        report = store.verify()
        assert report.ok and report.replayed == 60 and len(validated) == 1
        monkeypatch.undo()
    _sql(played,
         "UPDATE actions SET data = replace(data, '\"coins\":1', '\"coins\":2') "
         "WHERE step IN (10, 40)",
         "UPDATE snapshots SET state_hash = 'x' || substr(state_hash, 2) WHERE step = 50")
    with CampaignStore.open(saves_dir, "tuesday", catalog) as store:
        report = store.verify()
    assert not report.ok and report.replayed == 60 and report.steps == 61
    assert report.problems == [
        "step 10 does not replay to its recorded state",
        "step 40 does not replay to its recorded state",
        "the snapshot at step 50 differs from the recorded state",
    ]


def test_verify_after_another_writer_recorded_is_not_damage(
    played: Path, saves_dir: Path, catalog: Any
) -> None:
    """A step recorded by another process between this store's load and its verify (recover
    --force verifies its rebuilt file while the writers it waited for go on) is no damage:
    the loaded state is compared with the recorded one only while the head is where it was
    loaded."""
    with CampaignStore.open(saves_dir, "tuesday", catalog) as store:
        with CampaignStore.open(saves_dir, "tuesday", catalog) as other:
            other.record(AdjustWagon(coins=1, reason="the other phone"))
        report = store.verify()
        assert report.ok, report.problems
        assert report.steps == 62
