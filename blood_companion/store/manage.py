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

from blood_companion.engine.actions import apply, seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import STATE_SCHEMA
from blood_companion.fileio import DISK_FULL, pid_alive, unlinking
from blood_companion.store import delta as dl
from blood_companion.store import docs, saves, schema
from blood_companion.store.campaign_store import APP, CampaignStore, parse_stored
from blood_companion.store.docs import Doc, Row, canon, hash_text, load_json, to_state
from blood_companion.store.errors import CampaignNotFound, StoreError, disk_full
from blood_companion.store.files import build_file

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


def _salvage(store: CampaignStore, damaged: Path) -> tuple[int, int, int]:
    """Bring back the damaged file's steps after the backup's, each derived as `recover` of a
    chain derives it (:func:`_derive`: its change proven by its hash, or the rules rebuilding
    it exactly). Steps that cannot be brought back exactly are kept as abandoned steps
    (`blood campaign log --all` lists them), never silently dropped. Returns how many steps
    came back into the log, how many rows no longer read (left in the damaged copy) and how
    many steps were kept as abandoned steps."""
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
    """Remove the scratch folders of a `recover` that was killed (.check-PID, the PID gone)."""
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
    """Bring a damaged campaign back: the longest chain of steps whose actions read and
    re-validate, from the damaged file and its backups (see :func:`longest_chain`); when none
    is left (no file, or its first step is lost everywhere) or with `force`, the newest backup
    that opens and verifies. A damaged current file is moved into the backups folder first
    (never deleted). A healthy file is left alone unless `force`."""
    try:
        return _recover(saves_dir, name, catalog, force=force)
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise disk_full(f": {name!r} could not be recovered; nothing was changed") from None
        raise StoreError(
            f"cannot recover {name!r}: {exc.strerror or exc}"
            + (f" ({exc.filename})" if exc.filename else ""),
        ) from None


def _recover_chain(saves_dir: Path, name: str, chain: Chain, path: Path, backups: list[Path],
                   catalog: Catalog | None) -> Recovery:
    newest = _head_of(next((s for s in map(_open_source, backups) if s is not None), None)) or 0
    dest = _install_chain(saves_dir, name, chain, path)
    with CampaignStore.open(saves_dir, name, catalog) as store:
        length = store.log_length
        if catalog is not None and not store.verify().ok:  # pragma: no cover - a bug
            raise StoreError(
                f"the steps kept of {name!r} do not verify; the damaged file is kept as {dest}"
            )
    kept = len(chain.docs)
    return Recovery(name, chain.origin, length, dest, max(0, kept - newest), kept, chain.left_out)


def _recover(
    saves_dir: Path, name: str, catalog: Catalog | None, *, force: bool = False
) -> Recovery:
    path = saves.save_path(saves_dir, name)
    if path.exists() and not path.is_file():
        raise StoreError(f"{path} is not a save file (a folder or a device stands in its place)",
                         hint="move it away, then run `blood campaign recover` again")
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
    backups = [b for b in saves.list_backups(saves_dir, name) if "damaged" not in b.name]
    if path.is_file() and not force:
        chain = longest_chain(path, backups, catalog)
        if chain.docs:
            return _recover_chain(saves_dir, name, chain, path, backups, catalog)
    for backup in backups:
        length = _good(backup, catalog)
        if length is None:
            continue
        damaged = None
        if path.is_file():
            damaged = _move_aside(saves_dir, name, path, "damaged" if not force else "replaced")
        tmp = saves_dir / f".{name}.{os.getpid()}.restore"
        with unlinking(tmp):
            saves.restore_copy(backup, tmp)
            os.replace(tmp, path)
        salvaged = left_out = abandoned = 0
        if damaged is not None and catalog is not None and not force:
            with contextlib.suppress(StoreError, OSError), CampaignStore.open(
                saves_dir, name, catalog
            ) as store:
                salvaged, left_out, abandoned = _salvage(store, damaged)
                length = store.log_length
        return Recovery(name, backup, length, damaged, salvaged, 0, left_out, abandoned)
    folder = saves.backup_dir(saves_dir, name)
    raise StoreError(
        f"no good backup of {name!r} in {folder}",
        hint="an exported JSON file can be brought back with `blood campaign import FILE "
        "--replace`",
    )


# ---------------------------------------------------------------------- recovering a chain
#
# `recover` of a damaged file keeps the longest chain of steps from step 1 whose actions read
# and re-validate, taking each step from the damaged file or, where its row there is damaged or
# gone, from a backup (read in memory: no disk space is needed to check them). What a damaged
# hash, delta or snapshot covered is derived again from what is intact: the delta gives the
# state when the hash proves it; a snapshot when its checksum does; the rules engine replaying
# the action (with its recorded chance, or the chance the step's seed gives) when it lands on the
# recorded hash, or when the hash is damaged and the delta agrees. A step recorded with this app
# and data pack is kept only if replaying it gives its state, so `verify` passes afterwards.


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
        src.marks = {str(n): s for n, s in conn.execute("SELECT name, step FROM marks")
                     if isinstance(s, int)}
    src.abandoned = each(f"SELECT {docs.ROW_COLUMNS}, abandoned, replaced_at FROM abandoned "
                         "WHERE id = ?", "SELECT id FROM abandoned ORDER BY id")
    src.packs = each("SELECT fp, prints, first_step FROM datapacks WHERE fp = ?",
                     "SELECT fp FROM datapacks")
    return src


def _open_source(path: Path, *, damaged: bool = False) -> _Source | None:
    """A save file or backup read without writing anything anywhere (a compressed backup is
    inflated in memory). None when it does not open or, unless it is the ``damaged`` save
    (read leniently, whatever its layout), is not a save of today's layout."""
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
    """The head step a file's metadata names (None when it cannot be read)."""
    try:
        return int(src.meta["head"]) if src is not None else None
    except (KeyError, ValueError):
        return None


def _clean(row: tuple[Any, ...]) -> bool:
    """A row whose JSON columns all read (one that `log` and `export` can show)."""
    try:
        if not isinstance(row[0], int) or not isinstance(row[3], int):
            return False
        load_json(row[2])
        if row[4]:
            load_json(row[4])
        load_json(row[5])
        return all(isinstance(v, str) for v in (row[1], row[6], row[7], row[8], row[9]))
    except ValueError:
        return False


def _derive(k: int, prev: Doc | None, row: tuple[Any, ...], snaps: list[tuple[str, str]],
            catalog: Catalog | None, nxt: list[tuple[Any, ...]]
            ) -> tuple[Doc, docs.StepSource] | None:
    """The state after step `k` from one candidate row (and the snapshots of step k), as the
    module comment says, with the step's source; None when the row cannot be trusted."""
    try:
        data, av = row[2], row[3]
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
    delta_doc: Doc | None = None
    try:
        ops = load_json(row[5])
        delta_doc = dl.patch(prev if prev is not None else {}, ops)
        to_state(delta_doc)
    except (ValueError, TypeError, dl.DeltaError, docs.BadState, RecursionError):
        delta_doc = None
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
    """What :func:`longest_chain` kept: the steps' sources and states, and what it read."""

    sources: list[docs.StepSource]
    docs: list[Doc]
    damaged: Path
    file: _Source  # what the damaged file still holds (nothing when it does not open)
    left_out: int  # rows of the damaged file not kept (damaged, or after the chain)
    origin: Path  # where the last kept step came from (the damaged file or a backup)


def longest_chain(damaged: Path, backups: list[Path], catalog: Catalog | None) -> Chain:
    """The longest chain of steps from step 1 that the damaged file and the backups give
    (see the comment above)."""
    file = _open_source(damaged, damaged=True) or _Source(damaged)
    others: list[_Source] | None = None
    sources: list[docs.StepSource] = []
    states: list[Doc] = []
    prev: Doc | None = None
    k = 1
    origin = damaged
    while True:
        found = _take(k, prev, [file], catalog)
        if found is None:
            if others is None:
                others = [s for s in (_open_source(b) for b in backups) if s is not None]
            found = _take(k, prev, [file, *others], catalog)
        if found is None:
            break
        doc, src, origin = found
        sources.append(src)
        states.append(doc)
        prev = doc
        k += 1
    kept_from_file = sum(1 for s in range(1, k) if s in file.rows)
    return Chain(sources, states, damaged, file, len(file.rows) - kept_from_file, origin)


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


def _install_chain(saves_dir: Path, name: str, chain: Chain, path: Path) -> Path:
    """Write the kept chain as the campaign's file (the damaged one moved into the backups
    first, under its lock when SQLite can still lock it); return where the damaged copy went."""
    file = chain.file
    meta = file.meta
    n = len(chain.docs)
    head = _head_of(file) or n
    head = head if 1 <= head <= n else n
    rows, snaps = docs.chain_rows(chain.sources, chain.docs, head=head)
    abandoned = [(Row(*r[:11]), str(r[11]), r[12]) for r in file.abandoned
                 if _clean(r[:11]) and isinstance(r[12], int)]
    for s in sorted(file.rows):
        r = file.rows[s]
        if s > n and _clean(r):
            exact = int(r[10]) if isinstance(r[10], int) else 0
            abandoned.append((Row(*(tuple(r[:10]) + (exact,))), "", n + 1))
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
    tmp = build_file(saves_dir, name, rows, head=head, snapshots=snaps, meta=keep_meta,
                     marks=marks, abandoned=abandoned, datapacks=packs, install=False)
    with unlinking(tmp), _lock_of(path):
        dest = _move_aside(saves_dir, name, path, "damaged")
        os.replace(tmp, path)
    return dest


@contextlib.contextmanager
def _lock_of(path: Path) -> Iterator[None]:
    """Hold the write lock of a (damaged) save while it is moved away, when SQLite can still
    lock it: a writer waiting for it then finds it replaced and reopens the new file."""
    conn = None
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True, timeout=5.0,
                               isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:
        if conn is not None:
            conn.close()
        conn = None
    try:
        yield
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            conn.close()
