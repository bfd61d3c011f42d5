"""CampaignStore: the engine-facing session over one campaign's SQLite save.

Typical use (the CLI goes through ``blood_companion.cli.session``)::

    store = CampaignStore.open(saves_dir, "tuesday", catalog)
    state = store.record(AdjustWagon(coins=2))   # apply, then one small transaction
    store.undo(); store.redo(); store.mark("before Lucilla"); store.undo_to("before Lucilla")

How it keeps games safe:

* Every write is one SQLite transaction (``BEGIN IMMEDIATE`` … ``COMMIT``, ``synchronous=FULL``,
  rollback journal): a crash leaves the file as it was before or after the action, never between.
* The state is computed *inside* the write lock from the file's current head, so two processes
  recording at once queue up instead of overwriting each other; a process that waits longer than
  ``timeout`` seconds gets :class:`SaveInUse`.
* The engine runs before anything is written: a refused action (RuleError) writes nothing.
* Undo/redo move the ``head``; undone steps stay in ``actions`` (the redo stack) until a new
  action replaces them, and then they move to ``abandoned`` instead of disappearing.
* A snapshot at the head (and every ``SNAPSHOT_EVERY`` steps) keeps resume to one row read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from blood_companion.engine.actions import Action, apply, parse_action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState, canonical_json
from blood_companion.store import saves, schema
from blood_companion.store.errors import (
    BadNameError,
    CampaignExists,
    CampaignNotFound,
    DamagedSave,
    NothingToRedo,
    NothingToUndo,
    SaveInUse,
    StoreError,
)
from blood_companion.store.names import check_campaign_name, check_mark_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

_DATA_CHANGED_HINT = (
    "the data pack may have changed since the step was recorded; `blood campaign verify` lists "
    "the problems, `blood campaign recover` restores the newest good backup"
)
BACKUP_EVERY = 200  # a backup every so many recorded steps, besides the end of each Part
LOCK_TIMEOUT = 5.0  # seconds a process waits for another one's write before "in use"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _hash_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class LogEntry:
    """One step of the log as `blood campaign log` shows it."""

    step: int
    type: str
    data: dict[str, Any]
    sentence: str
    recorded: str
    state_hash: str | None
    status: str  # "done" (in effect), "undone" (can be redone) or "abandoned"
    marks: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "type": self.type,
            "action": self.data,
            "sentence": self.sentence,
            "status": self.status,
            "marks": list(self.marks),
            "recorded": self.recorded,
            "state_hash": self.state_hash,
        }


@dataclass
class VerifyReport:
    ok: bool
    steps: int
    head: int
    state_hash: str
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Entry:
    """A stored log row, for building a file (create, import, migrate)."""

    action: Action
    state_hash: str | None = None
    recorded: str = ""


def describe(action: Action) -> str:
    try:
        return action.describe()
    except Exception:  # a describe() bug must not hide the log
        return Action.describe(action)


class CampaignStore:
    """One open campaign save. Use :meth:`open` or :meth:`create`; close it (or use `with`)."""

    def __init__(
        self,
        saves_dir: Path,
        name: str,
        path: Path,
        conn: sqlite3.Connection,
        catalog: Catalog | Callable[[], Catalog] | None,
    ) -> None:
        self.saves_dir = saves_dir
        self.name = name
        self.path = path
        self._conn = conn
        self._catalog_source = catalog
        self._catalog: Catalog | None = None
        self._revision = -1
        self._head = 0
        self._max_step = 0
        self._state = CampaignState()
        self._hash = ""
        self.mode = ""
        self.seed = 0
        self.created = ""
        self._timeout = LOCK_TIMEOUT

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        saves_dir: Path,
        name: str,
        catalog: Catalog | Callable[[], Catalog] | None = None,
        *,
        timeout: float = LOCK_TIMEOUT,
    ) -> CampaignStore:
        """Open an existing campaign and load its state at the head.

        Raises BadNameError, CampaignNotFound, DamagedSave (the file is left untouched) or
        SaveInUse. Migrates an older schema version after taking a backup.
        """
        path = saves.save_path(saves_dir, name)
        if not path.is_file():
            other = saves.same_name_different_case(saves_dir, name)
            names = saves.campaign_names(saves_dir)
            hint = (
                f"did you mean {other!r}?"
                if other
                else ("campaigns here: " + ", ".join(names) if names else "")
                + ("; " if names else "")
                + "`blood campaign new NAME --troupers A,B` starts one"
            )
            raise CampaignNotFound(f"no campaign {name!r} in {saves_dir}", hint=hint)
        conn = _connect(path, timeout)
        store = cls(saves_dir, name, path, conn, catalog)
        store._timeout = timeout
        try:
            store._check_and_migrate()
            store._load()
        except BaseException:
            conn.close()
            raise
        return store

    @classmethod
    def create(
        cls,
        saves_dir: Path,
        name: str,
        start: Action,
        catalog: Catalog | Callable[[], Catalog],
    ) -> CampaignStore:
        """Create campaign `name` whose log starts with `start` (a StartCampaign).

        Raises BadNameError, CampaignExists or RuleError (nothing is written then).
        """
        name = check_campaign_name(name)
        saves.ensure_dir(saves_dir)
        path = saves.save_path(saves_dir, name)
        _refuse_existing(saves_dir, name, path)
        cat = catalog() if callable(catalog) else catalog
        state = apply(CampaignState(), start, cat, 0)
        text = canonical_json(state)
        build_file(
            saves_dir, name, [Entry(start, _hash_text(text), _now())], head=1,
            final_state=(state, text), install=True,
        )
        store = cls.open(saves_dir, name, cat)
        with contextlib.suppress(StoreError, OSError):
            store.backup("new campaign")
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ properties

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            src = self._catalog_source
            if src is None:
                raise StoreError("this operation needs the data pack (no catalog given)")
            self._catalog = src() if callable(src) else src
        return self._catalog

    @property
    def state(self) -> CampaignState:
        """The state at the head (as of the last operation of this store)."""
        return self._state

    @property
    def state_hash(self) -> str:
        return self._hash

    @property
    def head(self) -> int:
        """Number of steps in effect (the log length); steps after it can be redone."""
        return self._head

    @property
    def log_length(self) -> int:
        return self._head

    @property
    def redo_available(self) -> int:
        return self._max_step - self._head

    def refresh(self) -> CampaignState:
        """Reload if another process changed the file since this store last looked."""
        with self._errors(), self._read() as conn:
            if self._meta_revision(conn) != self._revision:
                self._load_from(conn)
        return self._state

    # ------------------------------------------------------------------ changing

    def record(self, action: Action) -> CampaignState:
        """Apply `action` at the head and store it in one transaction; return the new state.

        Undone steps after the head move to the abandoned table. Raises RuleError (nothing is
        written), SaveInUse or DamagedSave. Takes a backup when the action ends a Part.
        """
        with self._write() as conn:
            self._sync(conn)
            before = self._state
            head = self._head
            new = apply(before, action, self.catalog, head)
            text = canonical_json(new)
            digest = _hash_text(text)
            if self._max_step > head:
                self._abandon_after(conn, head, head + 1)
            conn.execute(
                "INSERT INTO actions (step, type, data, state_hash, recorded) VALUES (?,?,?,?,?)",
                (head + 1, action.type, action.model_dump_json(), digest, _now()),
            )
            self._move_head(conn, head, head + 1, text, digest)
        self._after_write(head + 1, head + 1, new, digest)
        reason = None
        if before.part != new.part or before.game != new.game:
            reason = f"end of {before.part} game {before.game}"
        elif (head + 1) % BACKUP_EVERY == 0:
            reason = f"step {head + 1}"
        if reason:
            with contextlib.suppress(StoreError, OSError):
                self.backup(reason)
        return new

    def undo(self, n: int = 1) -> CampaignState:
        """Step back `n` actions (they stay redo-able). Raises NothingToUndo."""
        if n < 1:
            raise NothingToUndo(f"undo needs a positive number of steps, not {n}")
        with self._write() as conn:
            self._sync(conn)
            can = self._head - 1
            if can <= 0:
                raise NothingToUndo(
                    "nothing to undo: the log holds only the start of the campaign",
                    hint="`blood campaign delete NAME` removes a campaign (a backup is kept)",
                )
            if n > can:
                raise NothingToUndo(
                    f"only {can} step{'s' if can != 1 else ''} can be undone, not {n}",
                    hint="`blood campaign undo --to 1` goes back to the start of the campaign",
                )
            return self._goto(conn, self._head - n)

    def redo(self, n: int = 1) -> CampaignState:
        """Re-apply `n` undone actions. Raises NothingToRedo."""
        if n < 1:
            raise NothingToRedo(f"redo needs a positive number of steps, not {n}")
        with self._write() as conn:
            self._sync(conn)
            can = self._max_step - self._head
            if can == 0:
                replaced = conn.execute(
                    "SELECT max(replaced_at) FROM abandoned WHERE step > ?", (self._head - 1,)
                ).fetchone()[0]
                hint = (
                    f"the undone steps were replaced by the action recorded at step {replaced}; "
                    "`blood campaign log --all` still lists them"
                    if replaced
                    else "redo re-applies steps taken back with `blood campaign undo`"
                )
                raise NothingToRedo("nothing to redo", hint=hint)
            if n > can:
                raise NothingToRedo(f"only {can} step{'s' if can != 1 else ''} can be redone, "
                                    f"not {n}")
            return self._goto(conn, self._head + n)

    def undo_to(self, target: int | str) -> CampaignState:
        """Move the head to a step number or a mark (back, or forward within the redo steps)."""
        with self._write() as conn:
            self._sync(conn)
            step = self._resolve_target(conn, target)
            return self._goto(conn, step)

    def resolve_target(self, target: int | str) -> int:
        with self._errors(), self._read() as conn:
            return self._resolve_target(conn, target)

    def mark(self, name: str, *, move: bool = False) -> int:
        """Name the current head (e.g. "before Lucilla"); return its step."""
        name = check_mark_name(name)
        with self._write() as conn:
            self._sync(conn)
            row = conn.execute("SELECT step FROM marks WHERE name = ?", (name,)).fetchone()
            if row is not None and not move:
                raise StoreError(
                    f"the mark {name!r} already names step {row[0]}",
                    hint="add --move to move it to the current step",
                )
            conn.execute(
                "INSERT OR REPLACE INTO marks (name, step, created) VALUES (?,?,?)",
                (name, self._head, _now()),
            )
            self._bump(conn)
        self._revision += 1
        return self._head

    def marks(self) -> dict[str, int]:
        with self._errors(), self._read() as conn:
            rows = conn.execute("SELECT name, step FROM marks ORDER BY step, name").fetchall()
        return {n: s for n, s in rows}

    # ------------------------------------------------------------------ reading

    def log(self, *, include_abandoned: bool = False) -> list[LogEntry]:
        """The log, step by step: done steps, then undone (redo-able) ones; abandoned if asked."""
        with self._errors(), self._read() as conn:
            rows = conn.execute(
                "SELECT step, type, data, state_hash, recorded FROM actions ORDER BY step"
            ).fetchall()
            marks: dict[int, list[str]] = {}
            for n, s in conn.execute("SELECT name, step FROM marks ORDER BY name"):
                marks.setdefault(s, []).append(n)
            gone = (
                conn.execute(
                    "SELECT step, type, data, state_hash, recorded FROM abandoned ORDER BY id"
                ).fetchall()
                if include_abandoned
                else []
            )
            head = int(self._meta(conn)["head"])
        out = []
        for status_rows, status in ((rows, None), (gone, "abandoned")):
            for step, typ, data, digest, recorded in status_rows:
                st = status or ("done" if step <= head else "undone")
                out.append(self._entry(step, typ, data, digest, recorded, st, marks))
        return out

    def _entry(
        self, step: int, typ: str, data: str, digest: str | None, recorded: str, status: str,
        marks: dict[int, list[str]],
    ) -> LogEntry:
        try:
            raw = json.loads(data)
        except ValueError:
            raise DamagedSave(self.path, f"step {step} of the log is not valid JSON") from None
        try:
            sentence = describe(parse_action(raw))
        except RuleError as exc:
            sentence = f"({typ}: not understood by this version: {exc.message})"
        return LogEntry(
            step, typ, raw, sentence, recorded, digest, status,
            tuple(marks.get(step, ())) if status != "abandoned" else (),
        )

    def actions(self) -> list[Action]:
        """Every action in the log (done and undone), in order."""
        with self._errors(), self._read() as conn:
            rows = conn.execute("SELECT step, data FROM actions ORDER BY step").fetchall()
        return [self._parse(step, data) for step, data in rows]

    def verify(self) -> VerifyReport:
        """Replay the whole log from the start and compare every stored hash and snapshot."""
        problems: list[str] = []
        with self._errors(), self._read() as conn:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                problems.append(f"SQLite integrity check: {check}")
            rows = conn.execute(
                "SELECT step, data, state_hash FROM actions ORDER BY step"
            ).fetchall()
            snaps = {
                s: h for s, h in conn.execute("SELECT step, state_hash FROM snapshots")
            }
            head = int(self._meta(conn)["head"])
        state = CampaignState()
        head_hash = ""
        for expected, (step, data, digest) in enumerate(rows, start=1):
            if step != expected:
                problems.append(f"step {expected} is missing from the log")
                break
            try:
                state = apply(state, self._parse(step, data), self.catalog, step - 1)
            except (RuleError, DamagedSave) as exc:
                problems.append(f"step {step} no longer applies: {exc.message}")
                break
            h = _hash_text(canonical_json(state))
            if digest is not None and h != digest:
                problems.append(f"replaying step {step} gives a different state than recorded")
            if step in snaps and snaps[step] != h:
                problems.append(f"the snapshot at step {step} differs from the replayed state")
            if step == head:
                head_hash = h
        if head_hash and head_hash != self._hash and not problems:
            problems.append("the loaded state differs from the replayed one")
        return VerifyReport(not problems, len(rows), head, head_hash or self._hash, problems)

    # ------------------------------------------------------------------ backups and export

    def backup(self, reason: str) -> Path:
        """Copy the whole save with SQLite's backup API into the campaign's backups folder."""
        target = saves.new_backup_path(self.saves_dir, self.name, reason)
        tmp = target.with_name(target.name + ".tmp")
        try:
            with self._errors():
                dst = sqlite3.connect(tmp)
                try:
                    self._conn.backup(dst)
                finally:
                    dst.close()
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        saves.prune_backups(self.saves_dir, self.name)
        return target

    def export_doc(self) -> dict[str, Any]:
        """The readable JSON document `export` writes and `import` reads."""
        from blood_companion import __version__
        from blood_companion.store.transfer import FORMAT, FORMAT_VERSION

        with self._errors(), self._read() as conn:
            rows = conn.execute(
                "SELECT step, data, state_hash, recorded FROM actions ORDER BY step"
            ).fetchall()
            gone = conn.execute(
                "SELECT step, data, state_hash, recorded, abandoned, replaced_at "
                "FROM abandoned ORDER BY id"
            ).fetchall()
            marks = dict(conn.execute("SELECT name, step FROM marks ORDER BY step").fetchall())
            meta = self._meta(conn)
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "app_version": __version__,
            "exported": _now(),
            "name": self.name,
            "mode": meta.get("mode", ""),
            "seed": int(meta.get("seed", 0)),
            "head": int(meta["head"]),
            "state_hash": self._hash,
            "marks": marks,
            "actions": [
                {"step": s, "action": json.loads(d), "state_hash": h, "recorded": r}
                for s, d, h, r in rows
            ],
            "abandoned": [
                {"step": s, "action": json.loads(d), "state_hash": h, "recorded": r,
                 "abandoned": a, "replaced_at": ra}
                for s, d, h, r, a, ra in gone
            ],
            "state": json.loads(canonical_json(self._state)),
        }

    # ------------------------------------------------------------------ internals

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite's errors into clear store errors naming the file."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise SaveInUse(
                    f"the campaign {self.name!r} is in use by another blood process "
                    f"(waited {self._timeout:g} s)",
                    hint="try again when the other command has finished",
                ) from None
            if "readonly" in text or "read-only" in text:
                raise StoreError(f"the save file {self.path} is read-only: {text}") from None
            raise DamagedSave(self.path, explain_sqlite(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise DamagedSave(self.path, explain_sqlite(exc)) from None

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("COMMIT")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        with self._errors():
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if not isinstance(exc, (RuleError, NothingToUndo, NothingToRedo, BadNameError)):
                    self._revision = -1  # the cache may be ahead of the file: reload next time
                raise
            try:
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                self._revision = -1
                raise

    def _meta(self, conn: sqlite3.Connection) -> dict[str, str]:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        for key in ("name", "mode", "seed", "head", "revision"):
            if key not in meta:
                raise DamagedSave(self.path, f"the metadata lacks {key!r}")
        return meta

    def _meta_revision(self, conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
        if row is None:
            raise DamagedSave(self.path, "the metadata lacks 'revision'")
        return int(row[0])

    def _check_and_migrate(self) -> None:
        conn = self._conn
        with self._errors():
            with self._read():
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                _check_size(self.path, conn)
                if app_id != schema.APPLICATION_ID:
                    raise DamagedSave(
                        self.path, "it is not a Blood Companion save (unknown application id)"
                    )
                if version > schema.SCHEMA_VERSION:
                    raise DamagedSave(
                        self.path,
                        f"it was written by a newer Blood Companion (save schema version "
                        f"{version}; this version reads up to {schema.SCHEMA_VERSION})",
                        hint="update blood-companion, or `blood campaign recover` to go back "
                        "to the newest backup this version can read",
                    )
                if version < 1:
                    raise DamagedSave(self.path, f"unknown save schema version {version}")
                tables = {r[0] for r in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if version == schema.SCHEMA_VERSION:
                missing = [t for t in schema.TABLES if t not in tables]
                if missing:
                    raise DamagedSave(self.path, f"table {missing[0]!r} is missing")
                return
            self.backup(f"before migration from v{version}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                schema.migrate(conn, version)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise

    def _load(self) -> None:
        with self._errors(), self._read() as conn:
            self._load_from(conn)

    def _load_from(self, conn: sqlite3.Connection) -> None:
        meta = self._meta(conn)
        try:
            head = int(meta["head"])
            revision = int(meta["revision"])
            self.seed = int(meta["seed"])
        except ValueError:
            raise DamagedSave(self.path, "the metadata holds a non-number") from None
        self.mode = meta["mode"]
        self.created = meta.get("created", "")
        max_step = conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0
        if not 1 <= head <= max_step:
            raise DamagedSave(self.path, f"the head ({head}) is outside the log (1..{max_step})")
        state, digest = self._state_at(conn, head, use_cache=False)
        self._head, self._max_step, self._revision = head, max_step, revision
        self._state, self._hash = state, digest

    def _sync(self, conn: sqlite3.Connection) -> None:
        """Inside a transaction: reload when another process wrote since we last looked."""
        if self._meta_revision(conn) != self._revision:
            self._load_from(conn)

    def _parse(self, step: int, data: str) -> Action:
        try:
            return parse_action(data)
        except RuleError as exc:
            raise DamagedSave(self.path, f"step {step} of the log: {exc.message}") from None

    def _snapshot(self, step: int, text: str, digest: str) -> CampaignState:
        if _hash_text(text) != digest:
            raise DamagedSave(
                self.path, f"the snapshot at step {step} does not match its checksum "
                "(hand-edited or corrupted)",
            )
        try:
            return CampaignState.model_validate_json(text)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"])
            raise DamagedSave(
                self.path, f"the snapshot at step {step} is not a valid state ({loc}: "
                f"{err['msg']})",
            ) from None

    def _state_at(
        self, conn: sqlite3.Connection, step: int, *, use_cache: bool = True
    ) -> tuple[CampaignState, str]:
        """The state after `step`: nearest snapshot at or before it, plus replay of the rest.

        With `use_cache` (only inside a transaction after :meth:`_sync`) the in-memory head
        state serves as a starting point too, so redo replays just the redone steps.
        """
        start, start_step, start_hash = CampaignState(), 0, ""
        row = conn.execute(
            "SELECT step, state, state_hash FROM snapshots WHERE step <= ? "
            "ORDER BY step DESC LIMIT 1",
            (step,),
        ).fetchone()
        if row is not None:
            start, start_step, start_hash = self._snapshot(row[0], row[1], row[2]), row[0], row[2]
        if use_cache and start_step < self._head <= step:
            start, start_step, start_hash = self._state, self._head, self._hash
        rows = conn.execute(
            "SELECT step, data, state_hash FROM actions WHERE step > ? AND step <= ? "
            "ORDER BY step",
            (start_step, step),
        ).fetchall()
        if len(rows) != step - start_step:
            raise DamagedSave(self.path, f"steps {start_step + 1}..{step} of the log are missing")
        if not rows:
            return start, start_hash or _hash_text(canonical_json(start))
        state = start
        for s, data, _ in rows:
            try:
                state = apply(state, self._parse(s, data), self.catalog, s - 1)
            except RuleError as exc:
                raise DamagedSave(
                    self.path, f"step {s} of the log no longer applies ({exc.message})",
                    hint=_DATA_CHANGED_HINT,
                ) from None
        digest = _hash_text(canonical_json(state))
        recorded = rows[-1][2]
        if recorded is not None and digest != recorded:
            raise DamagedSave(
                self.path, f"replaying the log to step {step} does not give the recorded state",
                hint=_DATA_CHANGED_HINT,
            )
        return state, digest

    def _goto(self, conn: sqlite3.Connection, step: int) -> CampaignState:
        old = self._head
        if step == old:
            return self._state
        state, digest = self._state_at(conn, step)
        self._move_head(conn, old, step, canonical_json(state), digest)
        self._after_write(step, self._max_step, state, digest)
        return state

    def _resolve_target(self, conn: sqlite3.Connection, target: int | str) -> int:
        if isinstance(target, str) and target.strip().isdigit():
            target = int(target.strip())
        if isinstance(target, int):
            if not 1 <= target <= self._max_step:
                raise NothingToUndo(
                    f"there is no step {target}; the log has steps 1 to {self._max_step}",
                    hint="`blood campaign log` lists the steps",
                )
            return target
        row = conn.execute("SELECT step FROM marks WHERE name = ?", (target.strip(),)).fetchone()
        if row is None:
            names = [r[0] for r in conn.execute("SELECT name FROM marks ORDER BY step")]
            raise NothingToUndo(
                f"there is no mark {target!r}",
                hint=("marks: " + ", ".join(names)) if names else
                "`blood campaign mark NAME` names the current step",
            )
        return int(row[0])

    def _abandon_after(self, conn: sqlite3.Connection, head: int, replaced_at: int) -> None:
        conn.execute(
            "INSERT INTO abandoned (step, type, data, state_hash, recorded, abandoned, "
            "replaced_at) SELECT step, type, data, state_hash, recorded, ?, ? FROM actions "
            "WHERE step > ? ORDER BY step",
            (_now(), replaced_at, head),
        )
        conn.execute("DELETE FROM actions WHERE step > ?", (head,))
        conn.execute("DELETE FROM snapshots WHERE step > ?", (head,))
        conn.execute("DELETE FROM marks WHERE step > ?", (head,))
        self._max_step = head

    def _move_head(
        self, conn: sqlite3.Connection, old: int, new: int, text: str, digest: str
    ) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO snapshots (step, state, state_hash) VALUES (?,?,?)",
            (new, text, digest),
        )
        if old != new and old % schema.SNAPSHOT_EVERY != 0:
            conn.execute("DELETE FROM snapshots WHERE step = ?", (old,))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (str(new),))
        self._bump(conn)

    def _bump(self, conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'revision'", (str(self._revision + 1),))

    def _after_write(self, head: int, max_step: int, state: CampaignState, digest: str) -> None:
        self._head, self._max_step = head, max(max_step, head)
        self._state, self._hash = state, digest
        self._revision += 1


# ---------------------------------------------------------------------- files


def explain_sqlite(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "malformed" in text:
        return f"it is damaged or truncated (SQLite: {text})"
    if "not a database" in text:
        return f"it is not a SQLite database, or its header is damaged (SQLite: {text})"
    return f"SQLite: {text}"


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
    """Open an existing file read-write (never create one) with our pragmas."""
    try:
        conn = sqlite3.connect(
            path.resolve().as_uri() + "?mode=rw", uri=True, timeout=timeout,
            isolation_level=None, check_same_thread=False,
        )
    except sqlite3.OperationalError as exc:
        raise StoreError(f"cannot open the save file {path}: {exc}") from None
    try:
        conn.execute("PRAGMA synchronous = FULL")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise DamagedSave(path, explain_sqlite(exc)) from None
    return conn


def _check_size(path: Path, conn: sqlite3.Connection) -> None:
    """Inside a read transaction: a file shorter than its header says was truncated."""
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
        size = path.stat().st_size
    except OSError as exc:
        raise StoreError(f"cannot read the save file {path}: {exc.strerror}") from None
    if len(header) == 100 and header[24:28] == header[92:96]:
        pages = max(pages, int.from_bytes(header[28:32], "big"))
    if size < page_size * pages:
        raise DamagedSave(
            path, f"it is truncated ({size} bytes; its header says {page_size * pages})"
        )


def _refuse_existing(saves_dir: Path, name: str, path: Path) -> None:
    if path.exists():
        raise CampaignExists(
            f"a campaign named {name!r} already exists in {saves_dir}",
            hint="choose another name, or `blood campaign delete NAME` first (a backup is kept)",
        )
    other = saves.same_name_different_case(saves_dir, name)
    if other:
        raise CampaignExists(
            f"a campaign named {other!r} already exists (names differ only by case)",
            hint="choose another name",
        )


def build_file(
    saves_dir: Path,
    name: str,
    entries: Sequence[Entry],
    *,
    head: int,
    final_state: tuple[CampaignState, str],
    states: dict[int, tuple[str, str]] | None = None,
    marks: dict[str, int] | None = None,
    abandoned: Sequence[dict[str, Any]] = (),
    install: bool = True,
    replace: bool = False,
) -> Path:
    """Write a complete save in a temporary file, then move it into place atomically.

    `states` gives (canonical text, hash) at steps that get a snapshot; `final_state` is the
    state at `head`. With ``replace`` an existing file is replaced (the caller backs it up).
    Returns the installed path (or the temporary one when ``install`` is false).
    """
    saves.ensure_dir(saves_dir)
    path = saves.save_path(saves_dir, name)
    tmp = saves_dir / f".{name}.{os.getpid()}.tmp"
    with contextlib.suppress(OSError):
        tmp.unlink()
    state, text = final_state
    first = entries[0].action
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
            schema.create(conn)
            meta = {
                "name": name,
                "mode": state.mode or getattr(first, "mode", ""),
                "seed": str(state.seed or getattr(first, "seed", 0)),
                "head": str(head),
                "revision": "0",
                "created": _now(),
            }
            conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
            conn.executemany(
                "INSERT INTO actions (step, type, data, state_hash, recorded) VALUES (?,?,?,?,?)",
                [
                    (i, e.action.type, e.action.model_dump_json(), e.state_hash,
                     e.recorded or _now())
                    for i, e in enumerate(entries, start=1)
                ],
            )
            snaps = dict(states or {})
            snaps[head] = (text, _hash_text(text))
            conn.executemany(
                "INSERT INTO snapshots (step, state, state_hash) VALUES (?,?,?)",
                [(s, t, h) for s, (t, h) in sorted(snaps.items())],
            )
            conn.executemany(
                "INSERT INTO marks (name, step, created) VALUES (?,?,?)",
                [(n, s, _now()) for n, s in (marks or {}).items()],
            )
            conn.executemany(
                "INSERT INTO abandoned (step, type, data, state_hash, recorded, abandoned, "
                "replaced_at) VALUES (?,?,?,?,?,?,?)",
                [
                    (a["step"], a["action"].type, a["action"].model_dump_json(),
                     a.get("state_hash"), a.get("recorded") or _now(),
                     a.get("abandoned") or _now(), a.get("replaced_at") or a["step"])
                    for a in abandoned
                ],
            )
            conn.execute("COMMIT")
        finally:
            conn.close()
        if not install:
            return tmp
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if another process created the name meanwhile
            except FileExistsError:
                raise CampaignExists(f"a campaign named {name!r} already exists") from None
            except OSError:  # no hard links on this file system
                _refuse_existing(saves_dir, name, path)
                os.replace(tmp, path)
            finally:
                with contextlib.suppress(OSError):
                    tmp.unlink()
        return path
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
