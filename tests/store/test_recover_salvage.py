"""`recover` of a save whose first step is lost everywhere, with only an older-layout backup:
the backup is restored and the damaged file's later steps are salvaged (store/manage.py
`_salvage`, `CampaignStore.append_recorded`). Each step that comes back exactly is in the log
with the state hash it had before the damage; the others are abandoned steps that
`blood campaign log --all` lists, never silently dropped; the damaged copy is kept.

The situation: a campaign made by app 0.1.0 (schema version 2) is upgraded (a backup of the
old file is taken first), played on, then its step 1 is damaged. The longest-chain recovery
finds no step 1 (the damaged row does not read, and backups of an older layout are not read
as sources), so the upgraded backup is restored and the rest salvaged.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from save_files import write_legacy

from blood_companion.cli.entry import main
from blood_companion.engine.campaign import AdjustWagon, Seat, StartCampaign
from blood_companion.store import CampaignStore, docs, manage
from blood_companion.store.manage import recover_campaign

OLD = 3  # steps in the app 0.1.0 file (the backup's head)
LATER = 12  # steps recorded after the upgrade


@pytest.fixture()
def salvaged(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many steps each call of `_salvage` brought back (so a test proves it ran)."""
    calls: list[int] = []
    real = manage._salvage

    def spy(store: CampaignStore, damaged: Path) -> tuple[int, int, int]:
        out = real(store, damaged)
        calls.append(out[0])
        return out

    monkeypatch.setattr(manage, "_salvage", spy)
    yield calls


def _played(saves_dir: Path, catalog: Any, *, undone: int = 0, branch: bool = False
            ) -> tuple[Path, list[str]]:
    """The save (step 1 still intact) and the state hash of each of its steps."""
    saves_dir.mkdir(parents=True, exist_ok=True)
    path = saves_dir / "demo.blood.db"
    first = StartCampaign(name="demo", seed=7, mode="roguelite",
                          seats=[Seat(trouper="aurel"), Seat(trouper="zora")])
    actions = [first, *(AdjustWagon(coins=1, reason=f"old {i}") for i in range(OLD - 1))]
    write_legacy(path, actions, catalog, version=2)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:  # upgraded after a backup
        if branch:  # the backup's last step undone and replaced
            store.undo(1)
            store.record(AdjustWagon(coins=5, reason="other"))
        for i in range(LATER):
            store.record(AdjustWagon(coins=2, reason=f"late {i}"))
        if undone:
            store.undo(undone)
        hashes = [e.state_hash for e in store.log()]
    return path, hashes


def _sql(path: Path, sql: str, *args: Any) -> None:
    conn = sqlite3.connect(path)
    for one in sql.split("; "):
        conn.execute(one, args)
    conn.commit()
    conn.close()


LOSE_STEP_1 = {
    "gone": "DELETE FROM actions WHERE step = 1",  # as a lost page would
    "gone-everywhere": "DELETE FROM actions WHERE step = 1; DELETE FROM snapshots",
}


def _lose_step_1(path: Path, how: str = "gone") -> None:
    _sql(path, LOSE_STEP_1[how])


def _log_all(saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main(["--saves-dir", str(saves_dir), "--campaign", "demo", "campaign", "log",
                 "--all", "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _after(saves_dir: Path, catalog: Any) -> tuple[list[str], bool]:
    """The state hashes of the log after recovery, and whether verify passes."""
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        return [e.state_hash for e in store.log()], store.verify().ok


def _abandoned(saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    """(step, reason) of the abandoned steps `blood campaign log --all` lists."""
    return [(e["step"], e["action"]["reason"]) for e in _log_all(saves_dir, capsys)
            if e["status"] == "abandoned"]


def _rows(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("how", sorted(LOSE_STEP_1))
def test_every_later_step_comes_back_with_its_hash(
    how: str, saves_dir: Path, catalog: Any, salvaged: list[int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, hashes = _played(saves_dir, catalog)
    _lose_step_1(path, how)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [LATER] and result.salvaged == LATER and result.kept == 0
    assert "before-migration" in result.restored_from.name
    assert result.log_length == OLD + LATER and result.left_out == 0
    assert _after(saves_dir, catalog) == (hashes, True)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        assert store.state.wagon.coins == (OLD - 1) + 2 * LATER
    assert result.damaged_copy is not None and result.damaged_copy.is_file()
    assert _rows(result.damaged_copy) == OLD + LATER - 1
    steps = _log_all(saves_dir, capsys)
    assert [(e["step"], e["status"]) for e in steps] == [
        (k, "done") for k in range(1, OLD + LATER + 1)]


def test_a_damaged_hash_is_proven_by_the_next_step(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """The hash of a later step damaged, its change intact: the next step's hash proves it,
    and it comes back with the hash it had."""
    path, hashes = _played(saves_dir, catalog)
    _lose_step_1(path)
    _sql(path, "UPDATE actions SET state_hash = 'ff' || substr(state_hash, 3) WHERE step = ?",
         OLD + 4)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [LATER] and result.log_length == OLD + LATER
    assert _after(saves_dir, catalog) == (hashes, True)
    assert _abandoned(saves_dir, capsys) == []


DAMAGED_CHANGE = {
    "empty": "UPDATE actions SET delta = '[]' WHERE step = ?",  # applies, to the wrong state
    "garbage": "UPDATE actions SET delta = '[{\"p\": [true], \"v\": 1}]' WHERE step = ?",
}


@pytest.mark.parametrize("kind", sorted(DAMAGED_CHANGE))
def test_a_damaged_change_is_rebuilt_by_the_rules(
    kind: str, saves_dir: Path, catalog: Any, salvaged: list[int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A later step whose stored change is damaged: the rules rebuild it to its recorded
    hash, and it comes back exactly. Before the fix an empty change was taken as it was (the
    next step's hash "proved" it, its state and hash were wrong) and a garbled one abandoned
    it and every step after it."""
    path, hashes = _played(saves_dir, catalog)
    _lose_step_1(path)
    _sql(path, DAMAGED_CHANGE[kind], OLD + 5)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [LATER] and result.log_length == OLD + LATER
    assert _after(saves_dir, catalog) == (hashes, True)
    assert _abandoned(saves_dir, capsys) == []


def test_an_action_that_no_longer_gives_its_state_is_abandoned_with_the_rest(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """A later action edited (it still reads, but the rules no longer give its state) cannot
    be brought back exactly: the steps before it come back, it and every step after it are
    abandoned steps that `log --all` lists, none dropped."""
    path, hashes = _played(saves_dir, catalog)
    _lose_step_1(path)
    bad = OLD + 5
    _sql(path, "UPDATE actions SET data = replace(data, '\"coins\":2', '\"coins\":9') "
               "WHERE step = ?", bad)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [bad - 1 - OLD] and result.log_length == bad - 1
    assert _after(saves_dir, catalog) == (hashes[: bad - 1], True)
    assert _abandoned(saves_dir, capsys) == [
        (k, f"late {k - OLD - 1}") for k in range(bad, OLD + LATER + 1)]
    assert result.damaged_copy is not None and _rows(result.damaged_copy) == OLD + LATER - 1


def test_an_unreadable_row_is_left_out_and_said_so(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """A later row whose action no longer reads is never copied back (`log` could not show
    it): it stays in the damaged copy and the result counts it, the steps after it are
    abandoned steps."""
    path, hashes = _played(saves_dir, catalog)
    _lose_step_1(path)
    bad = OLD + 5
    _sql(path, "UPDATE actions SET data = substr(data, 1, 20) WHERE step = ?", bad)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [bad - 1 - OLD] and result.log_length == bad - 1
    assert _after(saves_dir, catalog) == (hashes[: bad - 1], True)
    assert _abandoned(saves_dir, capsys) == [
        (k, f"late {k - OLD - 1}") for k in range(bad + 1, OLD + LATER + 1)]
    assert result.left_out == 1


def test_undone_steps_stay_undone_and_can_be_redone(
    saves_dir: Path, catalog: Any, salvaged: list[int]
) -> None:
    """Steps undone in the damaged file come back undone (the head where it was), and redo
    brings each back with its hash."""
    path, hashes = _played(saves_dir, catalog, undone=4)
    _lose_step_1(path)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [LATER] and result.log_length == OLD + LATER - 4
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        assert store.head == OLD + LATER - 4 and store.redo_available == 4
        store.redo(4)
        assert [e.state_hash for e in store.log()] == hashes
        assert store.verify().ok


def test_steps_that_branch_off_the_backup_are_abandoned_steps(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """The backup's last step was undone and replaced before the damage: the damaged file's
    steps from there on cannot follow the backup's, so they are kept as abandoned steps
    (`log --all` lists them). Before the fix they were dropped with no word."""
    path, _ = _played(saves_dir, catalog, branch=True)
    _lose_step_1(path)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [0] and result.log_length == OLD
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        assert store.verify().ok and store.state.wagon.coins == OLD - 1
    assert _abandoned(saves_dir, capsys) == [
        (OLD, "other"), *((k, f"late {k - OLD - 1}") for k in range(OLD + 1, OLD + LATER + 1))]


def test_steps_abandoned_before_the_damage_stay_abandoned_steps(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """Steps the player undid and replaced after the backup was taken are in the damaged
    file's abandoned steps only: they stay listed by `log --all`. Before the fix they were
    dropped with no word."""
    path, _ = _played(saves_dir, catalog)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        store.undo(2)
        store.record(AdjustWagon(coins=3, reason="instead"))
        hashes = [e.state_hash for e in store.log()]
    _lose_step_1(path)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [LATER - 1] and result.log_length == OLD + LATER - 1
    assert _after(saves_dir, catalog) == (hashes, True)
    assert _abandoned(saves_dir, capsys) == [
        (OLD + LATER - 1, f"late {LATER - 2}"), (OLD + LATER, f"late {LATER - 1}")]


def test_a_cut_off_first_action_fails_verify_and_is_recovered(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """Step 1's action (recorded by app 0.1.0, so never replayed) cut off mid-JSON: `log`
    cannot read the save, so `verify` refuses it, and `recover` restores the backup and
    brings every later step back. Before the fix verify passed it (only the steps it replays
    had their actions read) and recover said there was nothing to recover."""
    path, hashes = _played(saves_dir, catalog)
    _sql(path, "UPDATE actions SET data = substr(data, 1, 20) WHERE step = 1")
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        report = store.verify()
    assert not report.ok and report.problems == ["step 1: its action is not valid JSON"]
    result = recover_campaign(saves_dir, "demo", catalog)
    assert salvaged == [LATER] and result.log_length == OLD + LATER
    assert "before-migration" in result.restored_from.name
    assert _after(saves_dir, catalog) == (hashes, True)
    assert [e["step"] for e in _log_all(saves_dir, capsys)] == list(range(1, OLD + LATER + 1))


def test_the_text_says_what_was_left_out_and_kept_abandoned(
    saves_dir: Path, catalog: Any, salvaged: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """`blood campaign recover` without --json says, as its --json does, how many rows it
    left out and how many steps it kept as abandoned steps (it said neither)."""
    path, _ = _played(saves_dir, catalog)
    _lose_step_1(path)
    bad = OLD + 5
    _sql(path, "UPDATE actions SET data = substr(data, 1, 20) WHERE step = ?", bad)
    capsys.readouterr()
    assert main(["--saves-dir", str(saves_dir), "campaign", "recover", "demo"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert salvaged == [bad - 1 - OLD]
    assert f"{OLD + LATER - bad} kept as abandoned steps" in out
    assert "`blood campaign log --all` lists them" in out
    assert "1 damaged or unprovable row(s) left out" in out


def test_append_recorded_stops_at_the_first_row_not_giving_its_own_hash(
    new_store: Any, catalog: Any, saves_dir: Path
) -> None:
    """`append_recorded` takes a row only when its stored change gives the hash recorded with
    it (its caller, `_salvage`, derives each step itself); from the first row that does not,
    the rows are kept as abandoned steps. Before, a later row's hash "proved" a row whose own
    hash was wrong, and it was taken."""
    store = new_store("demo")
    for i in range(4):
        store.record(AdjustWagon(coins=1, reason=f"r {i}"))
    conn = sqlite3.connect(store.path)
    rows = [list(r) for r in conn.execute(
        f"SELECT {docs.ROW_COLUMNS} FROM actions WHERE step > 1 ORDER BY step")]
    conn.close()
    store.close()
    _sql(store.path, "DELETE FROM actions WHERE step > 1; DELETE FROM snapshots WHERE step > 1; "
                     "UPDATE meta SET value = '1' WHERE key = 'head'")
    rows[1][6] = "ff" + rows[1][6][2:]  # step 3's hash damaged, its change intact
    with CampaignStore.open(saves_dir, "demo", catalog) as again:
        assert again.append_recorded(rows) == 1 and again.head == 2
        assert [(e.step, e.data["reason"]) for e in again.log(include_abandoned=True)
                if e.status == "abandoned"] == [(3, "r 1"), (4, "r 2"), (5, "r 3")]
        assert again.verify().ok
