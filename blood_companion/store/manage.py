"""Whole-campaign operations: list, delete (keeping a copy) and recover from backups."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blood_companion.store import saves
from blood_companion.store.campaign_store import CampaignStore
from blood_companion.store.docs import ROW_COLUMNS
from blood_companion.store.errors import CampaignNotFound, StoreError

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


@dataclass(frozen=True)
class CampaignInfo:
    name: str
    path: Path
    modified: str
    mode: str = ""
    game: int = 0
    part: str = ""
    log_length: int = 0
    redo: int = 0
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "file": str(self.path), "modified": self.modified,
            "mode": self.mode, "game": self.game, "part": self.part,
            "log_length": self.log_length, "redo": self.redo,
        }
        if self.error:
            out["error"] = self.error
        return out


def list_campaigns(saves_dir: Path) -> list[CampaignInfo]:
    """Every campaign in the folder, with a few facts; unreadable files carry an error."""
    out = []
    for name in saves.campaign_names(saves_dir):
        path = saves_dir / f"{name}{saves.SAVE_SUFFIX}"
        try:
            modified = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(
                timespec="seconds")
        except OSError:
            modified = ""
        try:
            with CampaignStore.open(saves_dir, name, timeout=1.0) as store:
                st = store.state
                out.append(CampaignInfo(
                    name, path, modified, store.mode, st.game, st.part, store.log_length,
                    store.redo_available,
                ))
        except StoreError as exc:
            out.append(CampaignInfo(name, path, modified, error=exc.message))
    return out


def _move_aside(saves_dir: Path, name: str, path: Path, reason: str) -> Path:
    """Move a save file (and any hot journal) into the backups folder; return the new path."""
    dest = saves.new_backup_path(saves_dir, name, reason)
    journal = path.with_name(path.name + "-journal")
    if journal.exists():
        os.replace(journal, dest.with_name(dest.name + "-journal"))
    os.replace(path, dest)
    return dest


def delete_campaign(saves_dir: Path, name: str) -> Path:
    """Delete a campaign; a copy is kept in its backups folder (returned), so `recover` can
    bring it back."""
    path = saves.save_path(saves_dir, name)
    if not path.is_file():
        raise CampaignNotFound(f"no campaign {name!r} in {saves_dir}",
                               hint="`blood campaign list` shows the campaigns")
    try:
        store = CampaignStore.open(saves_dir, name, timeout=1.0)
    except StoreError:
        dest = _move_aside(saves_dir, name, path, "deleted damaged")
    else:
        try:
            dest = store.remove("deleted")
        finally:
            store.close()
    saves.forget_last_used(saves_dir, name)
    return dest


@dataclass(frozen=True)
class Recovery:
    name: str
    restored_from: Path
    log_length: int
    damaged_copy: Path | None
    salvaged: int = 0


def _readable_rows(path: Path) -> tuple[list[tuple[Any, ...]], int | None]:
    """The log rows (and head) still readable in a damaged file, read row by row: a row with
    damaged text keeps what decodes (the damage then shows as a hash that does not match)."""
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error:
        return [], None
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    rows: list[tuple[Any, ...]] = []
    head: int | None = None
    try:
        try:
            value = conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
            head = int(value[0]) if value else None
        except (sqlite3.Error, TypeError, ValueError):
            head = None
        try:
            steps = [r[0] for r in conn.execute("SELECT step FROM actions ORDER BY step")]
        except sqlite3.Error:
            return [], head
        for step in steps:
            try:
                row = conn.execute(
                    f"SELECT {ROW_COLUMNS} FROM actions WHERE step = ?", (step,)
                ).fetchone()
            except sqlite3.Error:
                continue
            if row is not None:
                rows.append(tuple(row))
        return rows, head
    finally:
        conn.close()


def _salvage(store: CampaignStore, damaged: Path) -> int:
    """Bring back the damaged file's steps after the backup's: each row whose stored change
    applies to the state before it, with the state hash it recorded (or a later step's hash
    proving the chain). Steps that cannot be brought back exactly are kept as abandoned steps
    (`blood campaign log --all` lists them), never silently dropped. Returns how many steps
    came back into the log."""
    rows, head = _readable_rows(damaged)
    by_step = {r[0]: r for r in rows if isinstance(r[0], int)}
    if store.redo_available:
        store.redo(store.redo_available)
    last = store.head
    mine = store.log()
    if last not in by_step or by_step[last][6] != mine[-1].state_hash:
        return 0  # not the same history (or unreadable): leave the backup as it is
    later = [by_step[s] for s in sorted(by_step) if s > last]
    count = store.append_recorded(later)
    if head is not None and 1 <= head < store.head:
        store.undo_to(head)
    return count


def _clean_checks(saves_dir: Path, name: str) -> None:
    """Remove the scratch folders of a `recover` that was killed (.check-PID, the PID gone)."""
    folder = saves.backup_dir(saves_dir, name)
    if not folder.is_dir():
        return
    for scratch in folder.glob(".check-*"):
        pid = scratch.name.removeprefix(".check-")
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(scratch, ignore_errors=True)
    for tmp in folder.glob("*.tmp"):  # a backup killed half-way (a live one is seconds old)
        with contextlib.suppress(OSError):
            if time.time() - tmp.stat().st_mtime > 600:
                tmp.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _good(path: Path, catalog: Catalog | None) -> int | None:
    """The log length of a backup that opens and verifies, else None."""
    tmpdir = path.parent / f".check-{os.getpid()}"
    try:
        tmpdir.mkdir(exist_ok=True)
        copy = tmpdir / f"x{saves.SAVE_SUFFIX}"
        # Check a copy: opening may migrate, and the backup itself must stay as it is.
        saves.restore_copy(path, copy)
        with CampaignStore.open(tmpdir, "x", catalog, timeout=1.0) as store:
            if catalog is not None and not store.verify().ok:
                return None
            return store.log_length
    except (StoreError, sqlite3.Error, OSError):
        return None
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def recover_campaign(
    saves_dir: Path, name: str, catalog: Catalog | None, *, force: bool = False
) -> Recovery:
    """Restore the newest backup that opens and verifies. A damaged current file is moved into
    the backups folder first (never deleted). A healthy file is left alone unless `force`."""
    path = saves.save_path(saves_dir, name)
    if path.exists() and not path.is_file():
        raise StoreError(
            f"{path} is not a save file (a folder or a device stands in its place)",
            hint="move it away, then run `blood campaign recover` again",
        )
    _clean_checks(saves_dir, name)
    if path.is_file() and not force:
        try:
            with CampaignStore.open(saves_dir, name, catalog, timeout=1.0) as store:
                report = store.verify() if catalog is not None else None
        except StoreError:
            pass
        else:
            if report is None or report.ok:
                raise StoreError(
                    f"the campaign {name!r} loads and verifies; there is nothing to recover",
                    hint="add --force to restore the newest backup anyway (the current file is "
                    "kept as a backup)",
                )
    for backup in saves.list_backups(saves_dir, name):
        if "damaged" in backup.name:
            continue
        length = _good(backup, catalog)
        if length is None:
            continue
        damaged = None
        if path.is_file():
            damaged = _move_aside(saves_dir, name, path, "damaged" if not force else "replaced")
        tmp = saves_dir / f".{name}.{os.getpid()}.restore"
        try:
            saves.restore_copy(backup, tmp)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        salvaged = 0
        if damaged is not None and catalog is not None and not force:
            with contextlib.suppress(StoreError, OSError), CampaignStore.open(
                saves_dir, name, catalog
            ) as store:
                salvaged = _salvage(store, damaged)
                length = store.log_length
        return Recovery(name, backup, length, damaged, salvaged)
    folder = saves.backup_dir(saves_dir, name)
    raise StoreError(
        f"no good backup of {name!r} in {folder}",
        hint="an exported JSON file can be brought back with `blood campaign import FILE "
        "--replace`",
    )
