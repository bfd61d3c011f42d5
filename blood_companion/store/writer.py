"""The writer of a campaign save: the connection, the lock, the transaction and the head.

How it keeps games safe:

* Every write is one SQLite transaction (``BEGIN IMMEDIATE`` … ``COMMIT``, ``synchronous=FULL``,
  rollback journal): a crash leaves the file as it was before or after the action, never between.
* The state is computed *inside* the write lock from the file's current head, so two processes
  recording at once queue up; one that waits longer than ``timeout`` gets :class:`SaveInUse`.
* The engine runs before anything is written: a refused action (RuleError) writes nothing.
* **Saves outlive change.** Each step stores its delta (store/delta.py), its chance outcomes, the
  app version and the data pack fingerprint. Undo, redo, ``undo --to`` and resume *restore
  recorded states*: they never run the rules engine, so no new version or card can break them.
* Undo/redo move the ``head``; undone steps stay in ``actions`` (the redo stack) until a new
  action replaces them, and then they move to ``abandoned`` instead of disappearing.
* Snapshots at step 1, every ``SNAPSHOT_EVERY`` steps and at the head keep reads flat.

A file replaced while a writer waited for its lock (upgraded, recovered, imported over) is
reopened and checked again (:meth:`Writer._open_current`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blood_companion.engine.actions import Action, seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import ACTION_SCHEMA
from blood_companion.store import delta as dl
from blood_companion.store import docs, saves
from blood_companion.store import repository as repo
from blood_companion.store.docs import Doc, Row, canon, hash_text, load_json, now, read_int
from blood_companion.store.errors import (
    BadNameError,
    CampaignNotFound,
    DamagedSave,
    HeadMoved,
    NothingToRedo,
    NothingToUndo,
    SaveInUse,
    StoreError,
    disk_full,
)
from blood_companion.store.names import check_mark_name
from blood_companion.store.repository import APP

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

BACKUP_EVERY = 200  # a backup every so many recorded steps, besides the end of each Part
LOCK_TIMEOUT = 5.0  # seconds a process waits for another one's write before "in use"
UPGRADE_TIMEOUT = 300.0  # seconds a process waits for another one's upgrade of an older save
MAX_REOPEN = 8  # times a process reopens a save another process replaced, before "in use"


class Writer:
    """One open campaign file, the state at its head, and every change to it."""

    def __init__(
        self, saves_dir: Path, name: str, path: Path, conn: sqlite3.Connection,
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
        self._doc: Doc = {}
        self._text = ""
        self._hash = ""
        self.mode = ""
        self.seed = 0
        self.created = ""
        self._timeout = LOCK_TIMEOUT
        self._ident: tuple[int, int] | None = None  # the file (device, inode) conn has open

    def _open_current(self) -> None:
        """Check and upgrade the file just (re)opened: CampaignStore's (store/migrations.py)."""

    def _reconnect(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        self._conn, self._ident = connect_file(self.path, self._timeout)
        self._revision = -1

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
        return self._state

    @property
    def state_hash(self) -> str:
        return self._hash

    @property
    def head(self) -> int:
        """Number of steps in effect (the log length); steps after it can be redone."""
        return self._head

    log_length = head

    @property
    def redo_available(self) -> int:
        return self._max_step - self._head

    def drawn_from(self) -> tuple[str, int, int] | None:
        """(state hash, revision, head) of :attr:`state` as last read or written: the key of a
        view drawn from it (None when the revision is not known)."""
        if self._revision < 0 or not self._hash:
            return None
        return self._hash, self._revision, self._head

    def refresh(self) -> CampaignState:
        """Reload if another process changed the file since this store last looked."""
        with self._reading() as conn:
            self._sync(conn)
        return self._state

    # ------------------------------------------------------------------ changing

    def record(self, action: Action, expect: tuple[int, str] | None = None) -> CampaignState:
        """Apply `action` at the head in one transaction (undone steps become abandoned);
        return the new state. ``expect``: the (head, state hash) it was chosen at; HeadMoved,
        writing nothing, when the file's head is no longer that. A backup at the end of a Part.
        """
        cat = self.catalog
        with self._write() as conn:
            self._sync(conn)
            self._expected(expect)
            before = self._state
            head = self._head
            chance = Chance.fresh(seed_for(before, action), head)
            new = apply(before, action, cat, head, chance)
            doc = docs.state_doc(new)
            text = canon(doc)
            digest = hash_text(text)
            ops = dl.diff(self._doc, doc)
            fp = self._note_datapack(conn, cat, head + 1)
            if self._max_step > head:
                self._abandon_after(conn, head, head + 1)
            row = Row(
                head + 1, action.type, action.model_dump_json(), ACTION_SCHEMA,
                chance_json(chance), canon(ops), digest, APP, fp, now(),
            )
            conn.execute(docs.INSERT_ACTION, row.values())
            self._move_head(conn, head, head + 1, text, digest)
        self._after_write(head + 1, head + 1, new, doc, text, digest)
        reason = None
        if before.part != new.part or before.game != new.game:
            reason = f"end of {before.part} game {before.game}"
        elif (head + 1) % BACKUP_EVERY == 0:
            reason = f"step {head + 1}"
        if reason:
            with contextlib.suppress(StoreError, OSError):
                self.backup(reason)
        return new

    def _expected(self, expect: tuple[int, str] | None) -> None:
        """Inside a write transaction, after _sync: HeadMoved unless the head is ``expect``."""
        if expect is not None and (self._head, self._hash) != tuple(expect):
            raise HeadMoved(expect[0], self._head, self._hash)

    @contextlib.contextmanager
    def _moving(self, n: int, expect: tuple[int, str] | None,
                error: type[StoreError]) -> Iterator[sqlite3.Connection]:
        """The write transaction of an undo or redo of `n` steps (HeadMoved: see record)."""
        if n < 1:
            what = "undo" if error is NothingToUndo else "redo"
            raise error(f"{what} needs a positive number of steps, not {n}")
        with self._write() as conn:
            self._sync(conn)
            self._expected(expect)
            yield conn

    def undo(self, n: int = 1, expect: tuple[int, str] | None = None) -> CampaignState:
        """Step back `n` actions (they stay redo-able). Raises NothingToUndo."""
        with self._moving(n, expect, NothingToUndo) as conn:
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

    def redo(self, n: int = 1, expect: tuple[int, str] | None = None) -> CampaignState:
        """Bring back `n` undone actions, as recorded. Raises NothingToRedo."""
        with self._moving(n, expect, NothingToRedo) as conn:
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
            step = repo.resolve_target(conn, self, target, self._max_step)
            return self._goto(conn, step)

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
                (name, self._head, now()),
            )
            self._bump(conn)
        self._revision += 1
        return self._head

    def append_recorded(self, rows: Sequence[Sequence[Any]],
                        abandon: Sequence[Sequence[Any]] = ()) -> int:
        """Append rows of the ``actions`` table recorded elsewhere after the head (`recover`'s
        salvage), without the engine: a row joins the log while its change gives its recorded
        hash; the rest, and ``abandon``'s rows, become abandoned steps. Returns how many joined."""
        if self._max_step != self._head:
            raise StoreError("undone steps are waiting to be redone; redo or record first")
        with self._write() as conn:
            self._sync(conn)
            doc: Any = load_json(self._text)
            text, digest, taken = self._text, self._hash, 0
            for raw in rows:
                try:
                    row = Row(*raw)
                    if row.step != self._head + taken + 1:
                        raise ValueError("not the next step")
                    new = dl.patch(doc, load_json(row.delta))
                    docs.to_state(new)
                except (TypeError, ValueError, dl.DeltaError, docs.BadState):
                    break
                if hash_text(step_text := canon(new)) != row.state_hash:
                    break
                doc, text, digest, taken = new, step_text, row.state_hash, taken + 1
                conn.execute(docs.INSERT_ACTION, row.values())
                if docs.is_checkpoint(row.step):
                    conn.execute(
                        "INSERT OR REPLACE INTO snapshots (step, state, state_hash) "
                        "VALUES (?,?,?)", (row.step, text, digest),
                    )
            for raw in [*rows[taken:], *abandon]:  # 13 values (an abandoned step): its when
                vals = tuple(raw) + (0,) * (11 - len(tuple(raw)))
                when = vals[11:] or (now(), vals[0] if isinstance(vals[0], int) else 0)
                conn.execute(
                    docs.INSERT_ABANDONED,
                    (*[str(v) if v is not None and not isinstance(v, int) else v
                       for v in vals[:11]], *when),
                )
            if taken:
                self._move_head(conn, self._head, self._head + taken, text, digest)
            else:
                self._bump(conn)
        if taken:
            head = self._head + taken
            self._after_write(head, head, docs.to_state(doc), doc, text, digest)
        else:
            self._revision += 1
        return taken

    def data_notice(self) -> str | None:
        """What changed in the data pack since the campaign last saw it, in words (once: the
        new pack is noted as seen); None when nothing did."""
        cat = self.catalog
        fp = cat.fingerprint()
        with self._reading() as conn:
            seen = repo.meta(conn, self).get("data_fp", "")
        if seen == fp:
            return None
        with self._write() as conn:
            self._sync(conn)
            old = conn.execute("SELECT prints FROM datapacks WHERE fp = ?", (seen,)).fetchone()
            self._note_datapack(conn, cat, self._head)
            self._bump(conn)
        self._revision += 1
        if not seen:
            return None
        try:
            before: dict[str, str] = load_json(old[0]) if old else {}
        except ValueError:
            before = {}
        now_prints = cat.record_prints()
        changed = sorted(k for k in set(before) | set(now_prints)
                         if before.get(k) != now_prints.get(k))
        what = (
            f"{len(changed)} record{'s' if len(changed) != 1 else ''} differ"
            + (" (" + ", ".join(changed[:5]) + (", ..." if len(changed) > 5 else "") + ")"
               if changed else "")
            if before else "the records it was played with are not known"
        )
        return (
            f"your data changed since step {self._head}: {what}; the board uses the new texts "
            "from now on, and the steps before keep their recorded states"
        )

    def backup(self, reason: str) -> Path:
        """A copy of the save in its backups folder: a protected one (before a delete, an
        import, a migration) a plain file any version opens; automatic ones compressed and
        thinned (store/saves.py)."""
        target = saves.new_backup_path(self.saves_dir, self.name, reason,
                                       compressed=not saves.is_protected(reason))
        with self._errors():
            if self._conn.in_transaction:
                # under this store's lock (an upgrade, a delete): SQLite copies a file only
                # through a connection that is not writing it
                src = read_only(self.path, self._timeout)
                try:
                    saves.write_backup(src, target)
                finally:
                    src.close()
            else:
                self._in_place()
                saves.write_backup(self._conn, target)
        saves.prune_backups(self.saves_dir, self.name)
        return target

    def remove(self, reason: str) -> Path:
        """Delete the file after a backup (returned), both under its write lock: no step is
        committed between them (a waiting writer finds the file gone and records nothing)."""
        with self._write():
            kept = self.backup(reason)
            try:
                os.unlink(self.path)
            except OSError as exc:
                raise StoreError(f"cannot delete {self.path}: {exc.strerror}") from None
        return kept

    def replace_file(self, new_file: Path, reason: str) -> Path:
        """Move `new_file` over the file (import --replace) after a backup (returned), both
        under the old file's write lock."""
        with self._write():
            kept = self.backup(reason)
            os.replace(new_file, self.path)
        return kept

    @contextlib.contextmanager
    def _reading(self, *, lenient: bool = False) -> Iterator[sqlite3.Connection]:
        with self._errors(), self._read(lenient=lenient) as conn:
            yield conn

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's errors (and a RecursionError) as store errors naming the file."""
        try:
            yield
        except RecursionError:
            raise DamagedSave(
                self.path, "a stored value is nested too deeply to read",
                hint=repo.damaged_hint(self.name),
            ) from None
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            operational = isinstance(exc, sqlite3.OperationalError)
            if operational and ("locked" in text or "busy" in text):
                raise in_use(f"the campaign {self.name!r} is in use by another blood process "
                             f"(waited {self._timeout:g} s)") from None
            if operational and ("readonly" in text or "read-only" in text):
                raise StoreError(f"the save file {self.path} is read-only: {text}") from None
            if "disk is full" in text or (operational and "disk I/O" in text):
                raise disk_full(f"{' (or failing)' if operational else ''}: nothing more could "
                                f"be written to {self.path}; your saves are intact") from None
            raise DamagedSave(self.path, explain_sqlite(exc)) from None

    def _in_place(self) -> None:
        """Reopen the file when the one open was moved away (recover, import, upgrade) before
        any lock is taken: SQLite names a journal after its path, so a connection to the moved
        file would take the new file's journal for a hot one of its own and play it back."""
        now_ident = file_ident(self.path)
        if self._ident is not None and now_ident is not None and now_ident != self._ident:
            self._reconnect()

    @contextlib.contextmanager
    def _read(self, *, lenient: bool = False) -> Iterator[sqlite3.Connection]:
        """A read transaction on the file as it is now. ``lenient`` reads undecodable bytes
        as U+FFFD, so a damaged row is reported by its step instead of stopping the read."""
        if not self._conn.in_transaction:
            self._in_place()
        conn = self._conn
        before = conn.text_factory
        if lenient:
            conn.text_factory = lambda b: b.decode("utf-8", "replace")
        try:
            if conn.in_transaction:  # inside the caller's transaction (an upgrade, its lock)
                yield conn
                return
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("COMMIT")
        finally:
            conn.text_factory = before

    def _begin_write(self) -> sqlite3.Connection:
        """BEGIN IMMEDIATE on the file as it is now: one replaced while this store waited is
        reopened, one deleted meanwhile refused (nothing is written into a file moved away)."""
        for _ in range(MAX_REOPEN):
            if file_ident(self.path) not in (None, self._ident):  # moved: no lock taken on it
                self._reconnect()  # (see _in_place)
                self._open_current()
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            now_ident = file_ident(self.path)
            if now_ident is not None and now_ident == self._ident:
                return conn
            conn.execute("ROLLBACK")
            if now_ident is None:
                raise CampaignNotFound(
                    f"the campaign {self.name!r} was deleted or moved while this command "
                    "waited for it; nothing was recorded",
                    hint="`blood campaign recover` brings a deleted campaign back",
                )
            self._reconnect()
            self._open_current()
        raise kept_replacing(f"the campaign {self.name!r}")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._errors():
            conn = self._begin_write()
            try:
                yield conn
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if not isinstance(exc, (RuleError, NothingToUndo, NothingToRedo, BadNameError,
                                        HeadMoved)):
                    self._revision = -1  # the cache may be ahead of the file: reload next time
                raise
            try:
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                self._revision = -1
                raise

    def _load_from(self, conn: sqlite3.Connection) -> None:
        meta = repo.meta(conn, self)
        try:
            head = read_int(meta["head"])
            revision = read_int(meta["revision"])
            self.seed = read_int(meta["seed"])
        except ValueError:
            raise repo.damaged(self, "the metadata holds a non-number") from None
        self.mode = str(meta["mode"])
        self.created = str(meta.get("created", ""))
        top = repo.max_step(conn)
        problem = repo.head_problem(conn, head, top)
        if problem:
            raise repo.damaged(self, problem)
        self._max_step = top
        state, doc, text, digest = repo.rebuild_state(conn, self, head)
        self._head, self._revision = head, revision
        self._state, self._doc, self._text, self._hash = state, doc, text, digest

    def _sync(self, conn: sqlite3.Connection) -> None:
        """Inside a transaction: reload when another process wrote since."""
        row = conn.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
        if row is None:
            raise DamagedSave(self.path, "the metadata lacks 'revision'")
        try:
            revision = read_int(row[0])
        except (TypeError, ValueError):
            raise DamagedSave(self.path, "the metadata holds a non-number") from None
        if revision != self._revision:
            self._load_from(conn)

    def _goto(self, conn: sqlite3.Connection, step: int) -> CampaignState:
        old = self._head
        if step == old:
            return self._state
        # (inside the transaction, after _sync: the head this writer holds is the file's)
        start = (old, self._text) if 1 <= old <= step and self._text else None
        state, doc, text, digest = repo.rebuild_state(conn, self, step, start)
        self._move_head(conn, old, step, text, digest)
        self._after_write(step, self._max_step, state, doc, text, digest)
        return state

    def _abandon_after(self, conn: sqlite3.Connection, head: int, replaced_at: int) -> None:
        conn.execute(
            f"INSERT INTO abandoned ({docs.ROW_COLUMNS}, abandoned, replaced_at) "
            f"SELECT {docs.ROW_COLUMNS}, ?, ? FROM actions WHERE step > ? ORDER BY step",
            (now(), replaced_at, head),
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
        if old != new and not docs.is_checkpoint(old):
            conn.execute("DELETE FROM snapshots WHERE step = ?", (old,))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (str(new),))
        self._bump(conn)

    def _note_datapack(self, conn: sqlite3.Connection, cat: Catalog, step: int) -> str:
        """The data pack's fingerprint (its record prints stored the first time only)."""
        fp = cat.fingerprint()
        if conn.execute("SELECT 1 FROM datapacks WHERE fp = ?", (fp,)).fetchone() is None:
            conn.execute(
                "INSERT INTO datapacks (fp, prints, first_step) VALUES (?,?,?)",
                (fp, json.dumps(cat.record_prints(), separators=(",", ":")), step),
            )
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('data_fp', ?)", (fp,))
        return fp

    def _bump(self, conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'revision'", (str(self._revision + 1),))

    def _after_write(
        self, head: int, max_step: int, state: CampaignState, doc: Doc, text: str, digest: str
    ) -> None:
        self._head, self._max_step = head, max(max_step, head)
        self._state, self._doc, self._text, self._hash = state, doc, text, digest
        self._revision += 1


def chance_json(chance: Chance) -> str | None:
    return canon(chance.outcomes) if chance.outcomes else None


def explain_sqlite(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "malformed" in text:
        return f"it is damaged or truncated (SQLite: {text})"
    if "not a database" in text:
        return f"it is not a SQLite database, or its header is damaged (SQLite: {text})"
    return f"SQLite: {text}"


def file_ident(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def connect_file(path: Path, timeout: float) -> tuple[sqlite3.Connection, tuple[int, int]]:
    """:func:`connect`, and the (device, inode) of the file it has open (the same before and
    after connecting: no replacement goes unnoticed)."""
    for _ in range(MAX_REOPEN):
        before = file_ident(path)
        conn = connect(path, timeout)
        after = file_ident(path)
        if before is not None and before == after:
            return conn, after
        conn.close()
        if after is None:
            raise CampaignNotFound(f"the save file {path} disappeared while it was opened")
    raise kept_replacing(f"the save file {path}")


def kept_replacing(what: str) -> SaveInUse:
    return in_use(f"{what} keeps being replaced by another blood process")


def in_use(message: str) -> SaveInUse:
    return SaveInUse(message, hint="try again when the other command has finished")


def read_only(path: Path, timeout: float) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=timeout)


def connect(path: Path, timeout: float) -> sqlite3.Connection:
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


def check_size(path: Path, conn: sqlite3.Connection,
                ident: tuple[int, int] | None = None) -> None:
    """DamagedSave when the file is shorter than its header says. Outside any transaction
    (closing a file drops the process's SQLite locks on it); nothing is judged when `path` is
    no longer the file `conn` has open (`ident`): the caller reopens the replacement."""
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
            st = os.fstat(fh.fileno())
        size = st.st_size
    except OSError as exc:
        raise StoreError(f"cannot read the save file {path}: {exc.strerror}") from None
    if ident is not None and (st.st_dev, st.st_ino) != ident:
        return
    if len(header) == 100 and header[24:28] == header[92:96]:
        pages = max(pages, int.from_bytes(header[28:32], "big"))
    if size < page_size * pages:
        raise DamagedSave(
            path, f"it is truncated ({size} bytes; its header says {page_size * pages})"
        )
