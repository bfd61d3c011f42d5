"""Whole-campaign operations: list, delete (keeping a copy) and recover from backups."""

from __future__ import annotations

import contextlib
import errno
import gzip
import os
import shutil
import sqlite3
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blood_companion.engine.actions import seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import ACTION_SCHEMA, STATE_SCHEMA
from blood_companion.fileio import DISK_FULL, pid_alive, unlinking
from blood_companion.store import delta as dl
from blood_companion.store import docs, migrations, saves, schema
from blood_companion.store.campaign_store import APP, CampaignStore, parse_stored
from blood_companion.store.docs import Doc, Row, canon, hash_text, load_json, to_state
from blood_companion.store.errors import CampaignNotFound, StoreError, disk_full
from blood_companion.store.files import build_file, fill
from blood_companion.store.names import check_mark_name
from blood_companion.store.writer import in_use

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
        out: dict[str, Any] = {"name": self.name, "file": str(self.path), "modified": self.modified,
                               "mode": self.mode, "game": self.game, "part": self.part,
                               "log_length": self.log_length, "redo": self.redo}
        if self.error:
            out["error"] = self.error
        return out


def list_campaigns(saves_dir: Path) -> list[CampaignInfo]:
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
    """Move a save file (and any hot journal) into the backups folder."""
    dest = saves.new_backup_path(saves_dir, name, reason)
    journal = path.with_name(path.name + "-journal")
    if journal.exists():
        os.replace(journal, dest.with_name(dest.name + "-journal"))
    os.replace(path, dest)
    return dest


def delete_campaign(saves_dir: Path, name: str) -> Path:
    """Delete a campaign, keeping a copy in its backups folder (returned) for `recover`."""
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
    saves.forget_board_token(saves_dir, name)  # the served board's secret goes with it
    return dest


@dataclass(frozen=True)
class Recovery:
    name: str
    restored_from: Path
    log_length: int
    damaged_copy: Path | None
    salvaged: int = 0  # steps kept beyond the newest backup
    kept: int = 0  # steps of the chain kept (a rebuilt chain), else 0
    left_out: int = 0  # rows of the damaged file not kept (they stay in the damaged copy)
    abandoned: int = 0  # steps of the damaged file salvaged as abandoned steps (`log --all`)
    unreadable: tuple[int, ...] = ()  # steps kept without their action (their state proven)
    unproven: tuple[int, ...] = ()  # steps between proven ones that could not be proven
    after: tuple[int, ...] = ()  # steps after the last one proven (abandoned steps if they read)


def _salvage(store: CampaignStore, damaged: Path) -> tuple[int, int, int]:
    """Bring back the damaged file's steps after the backup's, each derived as :func:`_derive`
    does; those that cannot be are kept as abandoned steps, never dropped. Returns how many
    came back, how many rows no longer read (left in the damaged copy), how many abandoned."""
    src = _open_source(damaged, damaged=True)
    by_step = src.rows if src is not None else {}
    head = _head_of(src)
    if store.redo_available:
        store.redo(store.redo_available)
    last = store.head
    hashes = {e.step: e.state_hash for e in store.log()}
    # the newest step both files reached in the same state: after it the damaged file's steps
    # follow the backup's (when it is the backup's head) or branch off it (kept as abandoned)
    common = max((s for s in by_step if hashes.get(s) == by_step[s][6]), default=0)
    if not common:
        return 0, len(by_step), 0  # not the same history: they stay in the damaged copy
    later = [by_step[s] for s in sorted(by_step) if s > common]
    # a row whose JSON no longer reads is never copied back (it stays in the damaged copy)
    clean = [r for r in later if _clean(r)]
    prev = docs.state_doc(store.state)
    exact: list[Row] = []
    for k, row in enumerate(clean, start=last + 1):
        found = (_derive(k, prev, row, [], store.catalog, clean[k - last:k - last + 1])
                 if row[0] == k and common == last else None)
        if found is None:
            break
        doc, s = found
        exact.append(Row(k, s.type, s.data, s.av, s.chance, canon(dl.diff(prev, doc)),
                         hash_text(canon(doc)), s.app, s.data_fp, s.recorded, s.exact))
        prev = doc
    # the damaged file's own abandoned steps that the backup does not hold stay abandoned
    held = {(e.step, e.state_hash, e.recorded) for e in store.log(include_abandoned=True)}
    gone = [r for r in src.abandoned if _clean(r[:11]) and isinstance(r[12], int)
            and (r[0], r[6], r[9]) not in held] if src is not None else []
    abandon = [*gone, *clean[len(exact):]]
    count = store.append_recorded([r.values() for r in exact], abandon=abandon)
    if head is not None and 1 <= head < store.head:
        store.undo_to(head)
    return count, len(later) - len(clean), len(abandon) + len(exact) - count


def _clean_checks(saves_dir: Path, name: str) -> None:
    """Remove the scratch folders (.check-PID) of a killed `recover`."""
    folder = saves.backup_dir(saves_dir, name)
    if not folder.is_dir():
        return
    for scratch in folder.glob(".check-*"):
        pid = scratch.name.removeprefix(".check-")
        if pid.isdigit() and int(pid) != os.getpid() and not pid_alive(int(pid)):
            shutil.rmtree(scratch, ignore_errors=True)
    for tmp in folder.glob("*.tmp"):  # a backup killed half-way (a live one is seconds old)
        with contextlib.suppress(OSError):
            if time.time() - tmp.stat().st_mtime > 600:
                tmp.unlink()


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
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise  # no room to check it is not a bad backup: never fall back to an older one
        return None
    except sqlite3.Error as exc:
        if "full" in str(exc):
            raise OSError(errno.ENOSPC, "disk full") from None
        return None
    except StoreError as exc:
        if "disk is full" in exc.message:
            raise OSError(errno.ENOSPC, "disk full") from None
        return None
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def recover_campaign(
    saves_dir: Path, name: str, catalog: Catalog | None, *, force: bool = False
) -> Recovery:
    """Bring a damaged campaign back, keeping every step the save and its backups prove
    (:func:`provable_chain`; unreadable and unproven steps kept as such, the steps after the
    last proven one abandoned). The newest good backup is used only when no step 1 is left
    (the file's later steps salvaged onto it). All under the save's write lock, so no step
    recorded meanwhile is lost; the damaged file is kept in the backups folder. A healthy
    file is left alone unless `force` (then rebuilt from its own rows)."""
    try:
        return _recover(saves_dir, name, catalog, force=force)
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise disk_full(f": {name!r} could not be recovered; nothing was changed") from None
        raise StoreError(
            f"cannot recover {name!r}: {exc.strerror or exc}"
            + (f" ({exc.filename})" if exc.filename else ""),
        ) from None


LOCK_WAIT = 30.0  # seconds recover waits for a writer's step before "in use"


@contextlib.contextmanager
def _held(path: Path) -> Iterator[sqlite3.Connection | None]:
    """The save's write lock for the whole of a recover (a waiting writer then reopens the
    recovered file); None when the file is missing or not a database. SaveInUse past
    LOCK_WAIT."""
    conn: sqlite3.Connection | None = None
    if path.is_file():
        try:
            conn = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True,
                                   timeout=LOCK_WAIT, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            conn = None
            text = str(exc)
            if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
                raise in_use(f"the campaign {path.name.removesuffix(saves.SAVE_SUFFIX)!r} is in "
                             f"use by another blood process (waited {LOCK_WAIT:g} s)") from None
    try:
        yield conn
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            conn.close()


def _upgrade_older(saves_dir: Path, name: str, catalog: Catalog | None) -> None:
    """Open the save once before recover locks it, so an older one is upgraded first."""
    if catalog is not None:
        with contextlib.suppress(StoreError):
            CampaignStore.open(saves_dir, name, catalog, timeout=LOCK_WAIT).close()


def _problems(saves_dir: Path, name: str, path: Path, conn: sqlite3.Connection,
              catalog: Catalog | None) -> list[str]:
    """What is wrong with the save, read through the connection holding its lock (opening
    it again would drop the lock: POSIX locks belong to the process)."""
    store = CampaignStore(saves_dir, name, path, conn, catalog)
    try:
        with store._errors():
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            size = conn.execute("PRAGMA page_size").fetchone()[0] * pages
            if path.stat().st_size < size:
                return ["it is truncated"]
            version, state_schema = migrations.check_header(store)
            if version != schema.SCHEMA_VERSION or state_schema not in (None, str(STATE_SCHEMA)):
                return [f"it is of an older layout (schema version {version})"]
            store._load_from(conn)
            return store.verify().problems if catalog is not None else []
    except StoreError as exc:
        return [exc.message]


def _recover(
    saves_dir: Path, name: str, catalog: Catalog | None, *, force: bool = False
) -> Recovery:
    path = saves.save_path(saves_dir, name)
    if path.exists() and not path.is_file():
        raise StoreError(f"{path} is not a save file (a folder or a device stands in its place)",
                         hint="move it away, then run `blood campaign recover` again")
    saves.backup_dir(saves_dir, name)  # refused when it is a link out of the saves folder
    _clean_checks(saves_dir, name)
    if path.is_file():
        _upgrade_older(saves_dir, name, catalog)
    backups = [b for b in saves.list_backups(saves_dir, name) if "damaged" not in b.name]
    with _held(path) as lock:
        if lock is not None and not force and not _problems(saves_dir, name, path, lock,
                                                             catalog):
            raise StoreError(
                f"the campaign {name!r} loads and verifies; there is nothing to recover",
                hint="add --force to rebuild it from its own rows anyway (every step is "
                "kept; the current file is kept as a backup)",
            )
        if path.is_file():
            chain = provable_chain(path, backups, catalog, conn=lock)
            if chain.docs:
                return _recover_chain(saves_dir, name, chain, path, backups, catalog, lock)
        return _restore_backup(saves_dir, name, path, backups, catalog)


def _recover_chain(saves_dir: Path, name: str, chain: Chain, path: Path, backups: list[Path],
                   catalog: Catalog | None, lock: sqlite3.Connection | None) -> Recovery:
    newest = _head_of(next((s for s in map(_open_source, backups) if s is not None), None)) or 0
    dest = _install_chain(saves_dir, name, chain, path, lock)
    with CampaignStore.open(saves_dir, name, catalog) as store:
        length = store.log_length
        if catalog is not None and not store.verify().ok:  # pragma: no cover - a bug
            raise StoreError(
                f"the steps kept of {name!r} do not verify; the damaged file is kept as {dest}"
            )
    kept = len(chain.docs)
    return Recovery(name, chain.origin, length, dest, max(0, kept - newest), kept,
                    len(chain.after), 0, tuple(chain.unreadable), tuple(chain.unproven),
                    tuple(chain.after))


def _restore_backup(saves_dir: Path, name: str, path: Path, backups: list[Path],
                    catalog: Catalog | None) -> Recovery:
    """No step 1 is left: the newest good backup, with the file's later steps salvaged onto
    it, moved into place (the caller holds the lock)."""
    for backup in backups:
        length = _good(backup, catalog)
        if length is None:
            continue
        scratch = saves.backup_dir(saves_dir, name) / f".check-{os.getpid()}"
        try:
            scratch.mkdir(exist_ok=True)
            saves.restore_copy(backup, scratch / f"x{saves.SAVE_SUFFIX}")
            salvaged = left_out = abandoned = 0
            if path.is_file() and catalog is not None:
                with contextlib.suppress(StoreError), CampaignStore.open(
                    scratch, "x", catalog
                ) as store:
                    salvaged, left_out, abandoned = _salvage(store, path)
                    length = store.log_length
            damaged = _move_aside(saves_dir, name, path, "damaged") if path.is_file() else None
            os.replace(scratch / f"x{saves.SAVE_SUFFIX}", path)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return Recovery(name, backup, length, damaged, salvaged, 0, left_out, abandoned)
    folder = saves.backup_dir(saves_dir, name)
    raise StoreError(
        f"no good backup of {name!r} in {folder}",
        hint="an exported JSON file can be brought back with `blood campaign import FILE "
        "--replace`",
    )



# ---------------------------------------------------------------------- recovering a chain
#
# `recover` keeps every step from step 1 it can prove, from the damaged file or, where it has
# no row or a backup has the same step (hash), from a backup (read in memory); a backup never
# replaces rows that read. What a damaged hash, delta or snapshot covered is derived from what is
# intact: the delta when the hash proves it; a snapshot when its checksum does; the rules
# replaying the action (recorded chance, or the step's seed) when they land on the hash, or when
# the hash is damaged and the delta agrees. A step of this app and data pack is kept only if it
# replays to its state, so `verify` passes afterwards.


@dataclass
class _Source:
    """The rows one file (the damaged save or a backup) still holds, read leniently."""

    path: Path
    rows: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    snaps: dict[int, tuple[str, str]] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)
    marks: dict[str, int] = field(default_factory=dict)
    abandoned: list[tuple[Any, ...]] = field(default_factory=list)
    packs: list[tuple[Any, ...]] = field(default_factory=list)


def _read_source(conn: sqlite3.Connection, path: Path) -> _Source:
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    src = _Source(path)

    def each(sql: str, keys: str) -> list[tuple[Any, ...]]:
        try:
            ids = [r[0] for r in conn.execute(keys)]
        except sqlite3.Error:
            return []
        out = []
        for key in ids:
            with contextlib.suppress(sqlite3.Error):
                row = conn.execute(sql, (key,)).fetchone()
                if row is not None:
                    out.append(tuple(row))
        return out

    for row in each(f"SELECT {docs.ROW_COLUMNS} FROM actions WHERE step = ?",
                    "SELECT step FROM actions ORDER BY step"):
        if isinstance(row[0], int):
            src.rows[row[0]] = row
    for step, text, digest in each("SELECT step, state, state_hash FROM snapshots WHERE step = ?",
                                   "SELECT step FROM snapshots"):
        if isinstance(step, int) and isinstance(text, str) and hash_text(text) == digest:
            src.snaps[step] = (text, digest)
    with contextlib.suppress(sqlite3.Error):
        src.meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
    with contextlib.suppress(sqlite3.Error):
        src.marks = {n: s for n, s in conn.execute("SELECT name, step FROM marks")
                     if type(n) is str and type(s) is int and _mark_name(n)}
    src.abandoned = each(f"SELECT {docs.ROW_COLUMNS}, abandoned, replaced_at FROM abandoned "
                         "WHERE id = ?", "SELECT id FROM abandoned ORDER BY id")
    src.packs = each("SELECT fp, prints, first_step FROM datapacks WHERE fp = ?",
                     "SELECT fp FROM datapacks")
    return src


def _mark_name(name: str) -> bool:
    try:
        return check_mark_name(name) == name
    except StoreError:
        return False


def _open_source(path: Path, *, damaged: bool = False) -> _Source | None:
    """A save or backup read without writing anything (a compressed one inflated in memory);
    None when it does not open or, unless ``damaged``, is not of today's layout."""
    try:
        if path.name.endswith(saves.GZ):
            with gzip.open(path, "rb") as fh:
                data = fh.read(saves.MAX_BACKUP_BYTES + 1)
            if len(data) > saves.MAX_BACKUP_BYTES:
                return None
            conn = sqlite3.connect(":memory:")
            conn.deserialize(data)
        else:
            mode = "ro" if damaged else "ro&immutable=1"
            conn = sqlite3.connect(path.resolve().as_uri() + f"?mode={mode}", uri=True)
    except (OSError, EOFError, zlib.error, sqlite3.Error, RuntimeError, MemoryError):
        return None
    try:
        if not damaged:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            if version != schema.SCHEMA_VERSION or app_id != schema.APPLICATION_ID:
                return None
        src = _read_source(conn, path)
        if not damaged and src.meta.get("state_schema", str(STATE_SCHEMA)) != str(STATE_SCHEMA):
            return None
        return src
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _head_of(src: _Source | None) -> int | None:
    try:
        return docs.read_int(src.meta["head"]) if src is not None else None
    except (KeyError, ValueError):
        return None


def _clean(row: tuple[Any, ...]) -> bool:
    """A row whose JSON columns all read (one that `log` and `export` can show)."""
    if not (type(row[0]) is int and type(row[3]) is int
            and all(type(row[i]) is str for i in (1, 2, 5, 6, 7, 8, 9))
            and (row[4] is None or type(row[4]) is str)):
        return False  # a number stored as text, a BLOB: another type than the save keeps
    try:
        load_json(row[2])
        if row[4]:
            load_json(row[4])
        load_json(row[5])
    except ValueError:
        return False
    return True


def _derive(k: int, prev: Doc | None, row: tuple[Any, ...], snaps: list[tuple[str, str]],
            catalog: Catalog | None, nxt: list[tuple[Any, ...]]
            ) -> tuple[Doc, docs.StepSource] | None:
    """The state after step `k` from one candidate row (and step k's snapshots), as the comment
    above says, with the step's source; None when the row cannot be trusted."""
    try:
        data, av = row[2], row[3]
        if type(data) is not str or type(av) is not int:
            return None
        action = parse_stored(data, av)
        app, fp = str(row[7]), str(row[8])
        recorded = row[6] if isinstance(row[6], str) else ""
    except (RuleError, ValueError, TypeError, IndexError):
        return None
    try:
        chance: list[Any] | None = load_json(row[4]) if row[4] else []
        if not isinstance(chance, list):
            chance = None
    except ValueError:
        chance = None
    delta_doc = _doc_of(prev if prev is not None else {}, row)
    engine_doc: Doc | None = None
    chance_text: str | None = canon(chance) if chance else None
    current = catalog is not None and (app, fp) == (APP, catalog.fingerprint())
    if catalog is not None:
        try:
            before = to_state(prev) if prev is not None else CampaignState()
            if chance is not None:
                engine_doc = docs.state_doc(
                    apply(before, action, catalog, k - 1, Chance.replay(chance)))
            else:  # the recorded chance is damaged: the step's seed gives it again
                fresh = Chance.fresh(seed_for(before, action), k - 1)
                engine_doc = docs.state_doc(apply(before, action, catalog, k - 1, fresh))
                chance_text = canon(fresh.outcomes) if fresh.outcomes else None
        except (RuleError, docs.BadState, ValueError, TypeError, KeyError, IndexError):
            engine_doc = None

    def proven(doc: Doc | None) -> bool:
        return doc is not None and hash_text(canon(doc)) == recorded

    agree = (engine_doc is not None and delta_doc is not None
             and canon(engine_doc) == canon(delta_doc))  # the rules give the stored change
    if chance is None and not (engine_doc is not None and (
        proven(engine_doc) or agree or any(_proves(engine_doc, later) for later in nxt)
    )):
        # a damaged chance is only trusted once the rules rebuild the step exactly: to its
        # recorded hash, to its intact delta (its hash damaged too), or to what the next step's
        # hash proves
        return None

    snap_docs = []
    for text, _ in snaps:
        with contextlib.suppress(ValueError):
            snap_docs.append(load_json(text))
    snap = next((s for s in snap_docs if proven(s)), None)
    doc: Doc | None = None
    if proven(delta_doc):
        doc = delta_doc
    elif snap is not None:
        doc = snap
    elif proven(engine_doc):
        doc = engine_doc
    elif agree:
        doc = delta_doc  # the hash alone is damaged
    elif engine_doc is not None and any(canon(engine_doc) == canon(s) for s in snap_docs):
        doc = engine_doc
    elif delta_doc is not None and not current and any(_proves(delta_doc, later) for later in nxt):
        doc = delta_doc  # an older app's step: the next step's hash proves it
    elif engine_doc is not None and any(_proves(engine_doc, later) for later in nxt):
        doc = engine_doc  # hash and delta both damaged: the rules and the next step agree
    if doc is None:
        return None
    if current and row[10] and (engine_doc is None or canon(engine_doc) != canon(doc)):
        return None  # the action (or its chance) no longer gives its state: damaged
    exact = int(row[10]) if isinstance(row[10], int) else 0
    when = row[9] if isinstance(row[9], str) else ""
    return doc, docs.StepSource(action.type, data, av, chance_text, app, fp, when, exact)


def _proves(doc: Doc, later: tuple[Any, ...]) -> bool:
    try:
        return hash_text(canon(dl.patch(doc, load_json(later[5])))) == later[6]
    except (ValueError, TypeError, dl.DeltaError, RecursionError):
        return False


@dataclass(frozen=True)
class Chain:

    sources: list[docs.StepSource]
    docs: list[Doc]
    damaged: Path
    file: _Source  # what the damaged file still holds (nothing when it does not open)
    left_out: int  # rows of the damaged file not kept (damaged, or after the chain)
    origin: Path  # where the last kept step came from (the damaged file or a backup)
    unreadable: list[int] = field(default_factory=list)  # kept without their action
    unproven: list[int] = field(default_factory=list)  # kept as unproven (state: the one before)
    after: list[int] = field(default_factory=list)  # the file's steps after the last kept one


# How far past a step that cannot be proven recover tries the next steps' stored changes on the
# last proven state (a change that sets everything the lost step changed proves the state after
# it); snapshots (step 1, every 50 steps, the head) are tried all the way.
DELTA_REACH = 5


def provable_chain(damaged: Path, backups: list[Path], catalog: Catalog | None, *,
                   conn: sqlite3.Connection | None = None) -> Chain:
    """Every step from step 1 the damaged file (through `conn`, holding its lock, if given)
    and the backups prove. A step whose action does not read is kept without it when its
    state is proven; past one nothing proves, the chain goes on from the next step a change
    or a snapshot proves, the steps between kept as unproven."""
    if conn is not None:
        try:
            file = _read_source(conn, damaged)
        finally:
            conn.text_factory = str
    else:
        file = _open_source(damaged, damaged=True) or _Source(damaged)
    others: list[_Source] | None = None
    sources: list[docs.StepSource] = []
    states: list[Doc] = []
    unreadable: list[int] = []
    unproven: list[int] = []
    prev: Doc | None = None
    top = max(file.rows, default=0)
    k = 1
    origin = damaged
    while True:
        found = _take(k, prev, [file], catalog)
        if found is None:
            if others is None:
                others = [s for s in (_open_source(b) for b in backups) if s is not None]
                top = max([top, *(max(s.rows, default=0) for s in others)])
            found = _take(k, prev, _pool(k, file, others), catalog)
        if found is None and prev is not None and others is not None:
            pool = _pool(k, file, others)
            proven = _proven_state(k, prev, pool)
            if proven is not None:
                doc, row = proven
                found = doc, _kept_source(docs.UNREADABLE, k, row), damaged
                unreadable.append(k)
            else:
                anchor = _next_anchor(k, prev, file, others, top)
                if anchor is not None:
                    j, doc, row = anchor
                    for g in range(k, j):
                        sources.append(_kept_source(docs.UNPROVEN, g, _row_of(g, file, others)))
                        states.append(prev)
                        unproven.append(g)
                    k = j
                    found = doc, _anchor_source(j, row), damaged
        if found is None:
            break
        doc, src, origin = found
        sources.append(src)
        states.append(doc)
        prev = doc
        k += 1
    n = len(states)
    after = sorted(s for s in file.rows if s > n)
    kept_from_file = sum(1 for s in range(1, n + 1) if s in file.rows)
    return Chain(sources, states, damaged, file, len(file.rows) - kept_from_file, origin,
                 unreadable, unproven, after)


def _pool(k: int, file: _Source, others: list[_Source]) -> list[_Source]:
    """The file and the backups whose row k may stand for the file's (none, or the same hash)."""
    mine = file.rows.get(k)
    same = [s for s in others if k in s.rows and (
        mine is None or not isinstance(mine[6], str) or s.rows[k][6] == mine[6])]
    return [file, *same]


def _row_of(k: int, file: _Source, others: list[_Source]) -> tuple[Any, ...] | None:
    if k in file.rows:
        return file.rows[k]
    return next((s.rows[k] for s in others if k in s.rows), None)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _kept_source(kind: str, k: int, row: tuple[Any, ...] | None) -> docs.StepSource:
    app, fp, when = (_text(row[7]), _text(row[8]), _text(row[9])) if row else ("", "", "")
    return docs.StepSource(kind, docs.marker_data(kind, k, app), ACTION_SCHEMA, None, app, fp,
                           when, 0)


def _anchor_source(k: int, row: tuple[Any, ...]) -> docs.StepSource:
    """The first step proven after unproven ones, its action kept as recorded if it reads."""
    try:
        action = parse_stored(row[2], row[3]) if type(row[3]) is int else None
    except (RuleError, ValueError, TypeError):
        action = None
    if action is None or not isinstance(row[2], str):
        return _kept_source(docs.UNREADABLE, k, row)
    chance = row[4] if isinstance(row[4], str) and row[4] else None
    try:
        load_json(chance) if chance is not None else None
    except ValueError:
        chance = None
    return docs.StepSource(action.type, row[2], row[3], chance, _text(row[7]), _text(row[8]),
                           _text(row[9]), 0)


def _doc_of(prev: Doc, row: tuple[Any, ...]) -> Doc | None:
    try:
        doc = dl.patch(prev, load_json(row[5]))
        to_state(doc)
    except (ValueError, TypeError, dl.DeltaError, docs.BadState, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def _snap_doc(text: str) -> Doc | None:
    try:
        doc = load_json(text)
        to_state(doc)
    except (ValueError, docs.BadState):
        return None
    return doc if isinstance(doc, dict) else None


def _proven_state(k: int, prev: Doc, pool: list[_Source]) -> tuple[Doc, tuple[Any, ...] | None
                                                                  ] | None:
    """The state after step k when proven without its action: by its change and hash, a
    snapshot, or the next step's change and hash; else None."""
    rows = [s.rows[k] for s in pool if k in s.rows]
    snaps = [s.snaps[k] for s in pool if k in s.snaps]
    nxt = [s.rows[k + 1] for s in pool if k + 1 in s.rows]
    for row in rows:
        digest = row[6] if isinstance(row[6], str) else None
        doc = _doc_of(prev, row)
        if doc is not None and hash_text(canon(doc)) == digest:
            return doc, row
        for text, h in snaps:
            if h == digest and (snap := _snap_doc(text)) is not None:
                return snap, row
        if doc is not None and any(_proves(doc, later) for later in nxt):
            return doc, row
    if not rows:  # the row is lost: a snapshot of the step (its checksum read) still proves it
        for text, _ in snaps:
            if (snap := _snap_doc(text)) is not None:
                return snap, None
    return None


def _next_anchor(k: int, prev: Doc, file: _Source, others: list[_Source], top: int
                 ) -> tuple[int, Doc, tuple[Any, ...]] | None:
    """The first step after k proven again: its change from the last proven state gives its
    hash (it set all the unproven steps changed), or a snapshot of it has that hash."""
    for j in range(k + 1, top + 1):
        row = _row_of(j, file, others)
        if row is None or not isinstance(row[6], str):
            continue
        if j <= k + DELTA_REACH:
            doc = _doc_of(prev, row)
            if doc is not None and hash_text(canon(doc)) == row[6]:
                return j, doc, row
        for src in (file, *others):
            snap = src.snaps.get(j)
            if snap is not None and snap[1] == row[6] and (doc := _snap_doc(snap[0])) is not None:
                return j, doc, row
    return None


def _take(k: int, prev: Doc | None, pool: list[_Source], catalog: Catalog | None
          ) -> tuple[Doc, docs.StepSource, Path] | None:
    snaps = [s.snaps[k] for s in pool if k in s.snaps]
    for src in pool:
        if k not in src.rows:
            continue
        nxt = [s.rows[k + 1] for s in pool if k + 1 in s.rows]
        found = _derive(k, prev, src.rows[k], snaps, catalog, nxt)
        if found is not None:
            return found[0], found[1], src.path
    return None


def _rows_head(file: _Source, n: int) -> int:
    """The recovered head: the metadata's when the rows agree, else the one the rows keep;
    never after the last step kept."""
    head = _head_of(file)
    odd = [s for s in file.snaps if not docs.is_checkpoint(s)]
    if head is not None and odd and odd != [head]:
        head = max(odd)
    head = head if head is not None and 1 <= head <= n else n
    return head


def _rewrite_in_place(saves_dir: Path, name: str, path: Path, conn: sqlite3.Connection,
                      file: _Source, tables: dict[str, Any]) -> Path | None:
    """Copy the save into the backups folder (through SQLite: the lock stays held), then
    replace its rows in `conn`'s transaction: the file is never moved, so no process keeps a
    connection to a moved file (see Writer._in_place). None, nothing changed, when it cannot
    be written so: the caller then moves a new file into place."""
    dest = saves.new_backup_path(saves_dir, name, "damaged")
    try:
        src = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            data = src.serialize()  # the file's pages as they are, read by SQLite
        finally:
            src.close()
    except (sqlite3.Error, MemoryError):
        return None
    if len(data) != path.stat().st_size:
        return None  # more (or less) than its pages: the file itself is kept instead
    tmp = dest.with_name(dest.name + ".tmp")
    with unlinking(tmp):
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    try:
        was = docs.read_int(file.meta.get("revision", ""))
    except ValueError:
        was = int.from_bytes(os.urandom(4), "big")
    meta = {**tables.pop("meta"), "revision": str(was + 1)}  # other processes reload
    try:
        conn.execute("SAVEPOINT rewrite")
        for table in schema.TABLES:
            conn.execute(f"DELETE FROM {table}")  # noqa: S608 - the schema's own names
        fill(conn, name, meta=meta, **tables)
        conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION}")
        conn.execute("RELEASE rewrite")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK TO rewrite")
            conn.execute("RELEASE rewrite")
        with contextlib.suppress(OSError):
            dest.unlink()  # the file itself is moved into the backups folder instead
        if "full" in str(exc) or "disk I/O" in str(exc):
            raise OSError(errno.ENOSPC, "disk full") from None
        return None
    return dest


def _install_chain(saves_dir: Path, name: str, chain: Chain, path: Path,
                   lock: sqlite3.Connection | None) -> Path:
    """Write the kept chain as the save (in place under `lock`, else a new file moved over
    it) and return where the damaged copy went."""
    file = chain.file
    meta = file.meta
    n = len(chain.docs)
    head = _rows_head(file, n)
    rows, snaps = docs.chain_rows(chain.sources, chain.docs, head=head)
    abandoned = [(Row(*r[:11]), str(r[11]), r[12]) for r in file.abandoned
                 if _clean(r[:11]) and isinstance(r[12], int)]
    for s in chain.after:
        r = file.rows[s]
        if _clean(r):
            abandoned.append((Row(*r[:11]), "", n + 1))
    packs: dict[str, tuple[dict[str, str], int]] = {}
    for fp, prints, first in file.packs:
        with contextlib.suppress(ValueError):
            value = load_json(prints)
            if isinstance(fp, str) and isinstance(value, dict) and isinstance(first, int):
                packs[fp] = (value, first)
    start = chain.docs[0]
    keep_meta = {"mode": str(start.get("mode", meta.get("mode", ""))),
                 "seed": str(start.get("seed", meta.get("seed", "0"))),
                 "data_fp": meta.get("data_fp", "")}
    if "created" in meta:
        keep_meta["created"] = meta["created"]
    marks = {m: s for m, s in file.marks.items() if 1 <= s <= n}
    if lock is not None:
        tables = {"rows": rows, "head": head, "snapshots": snaps, "meta": keep_meta,
                  "marks": marks, "abandoned": abandoned, "datapacks": packs}
        dest = _rewrite_in_place(saves_dir, name, path, lock, file, tables)
        if dest is not None:
            return dest
    tmp = build_file(saves_dir, name, rows, head=head, snapshots=snaps, meta=keep_meta,
                     marks=marks, abandoned=abandoned, datapacks=packs, install=False)
    with unlinking(tmp):
        dest = _move_aside(saves_dir, name, path, "damaged")
        os.replace(tmp, path)
    return dest
