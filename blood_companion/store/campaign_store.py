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
* **Saves outlive change.** Each step stores what it changed (a delta of the state document,
  store/delta.py), the chance outcomes it drew, the app version and the data pack fingerprint.
  Undo, redo, ``undo --to`` and resume *restore recorded states*: they never run the rules
  engine, so a new app version, a new Python or the owner's transcribed cards cannot break them.
  ``verify`` replays only the steps recorded with this app and data pack (docs/campaigns.md).
* Undo/redo move the ``head``; undone steps stay in ``actions`` (the redo stack) until a new
  action replaces them, and then they move to ``abandoned`` instead of disappearing.
* Snapshots at step 1, every ``SNAPSHOT_EVERY`` steps and at the head keep every read flat in
  the log's length.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from blood_companion import __version__
from blood_companion.engine.actions import Action, apply, parse_action, seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import ACTION_SCHEMA, STATE_SCHEMA, TooNew, upcast_action
from blood_companion.store import delta as dl
from blood_companion.store import docs, saves, schema
from blood_companion.store.docs import (
    MARKERS,
    UNREADABLE,
    Doc,
    Row,
    canon,
    hash_text,
    load_json,
    now,
    read_int,
    to_state,
)
from blood_companion.store.errors import (
    BadNameError,
    CampaignNotFound,
    DamagedSave,
    NothingToRedo,
    NothingToUndo,
    SaveInUse,
    StoreError,
    disk_full,
)
from blood_companion.store.files import build_file, refuse_existing
from blood_companion.store.names import check_campaign_name, check_mark_name
from blood_companion.store.peek import META_KEYS

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

BACKUP_EVERY = 200  # a backup every so many recorded steps, besides the end of each Part
LOCK_TIMEOUT = 5.0  # seconds a process waits for another one's write before "in use"
UPGRADE_TIMEOUT = 300.0  # seconds a process waits for another one's upgrade of an older save
MAX_REOPEN = 8  # times a process reopens a save another process replaced, before "in use"
APP = __version__


class LogEntry(NamedTuple):
    """One step of the log as `blood campaign log` shows it."""

    step: int
    type: str
    data: dict[str, Any]
    sentence: str
    recorded: str
    state_hash: str | None
    status: str  # "done" (in effect), "undone" (can be redone) or "abandoned"
    marks: tuple[str, ...] = ()
    app: str = ""
    data_fp: str = ""
    said: str = ""  # the key of its sentence (said_key), for a caller keeping sentences

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step, "type": self.type, "action": self.data, "sentence": self.sentence,
            "status": self.status, "marks": list(self.marks), "recorded": self.recorded,
            "state_hash": self.state_hash, "app": self.app, "data": self.data_fp,
        }


class VerifyReport(NamedTuple):
    """What `campaign verify` found (a NamedTuple: a dataclass costs ~0.4 ms to create, on
    every command that opens a campaign)."""

    ok: bool
    steps: int
    head: int
    state_hash: str
    problems: list[str]
    replayed: int
    kept: list[str]  # runs of steps kept as recorded, in words


# What `campaign log` shows under a step: the parts of the state a step's stored change
# adds to (store/delta.py): the night log, the Day's draws, the End of the Night's rewards.
_RESULT_PATHS = {
    ("night", "log"): "events",
    ("rewards", "rolls"): "rolls",
    ("rewards", "tactics_taken"): "tactics",
}
_DAY_FIELDS = ("location", "location_roll", "minions", "nemesis", "events")


def step_results(ops: list[dict[str, Any]]) -> dict[str, Any]:
    """What one step's stored change added that players read about: night log events, the
    Day's draws (Location card, Minions, Nemesis, Events), loot rolls and Advanced Tactic cards
    taken. Data only (ids); `campaign log` renders it."""
    out: dict[str, Any] = {}
    for op in ops:
        path = tuple(op.get("p") or ())
        if "v" not in op:
            continue
        value = op["v"]
        if path == ("night",) and isinstance(value, dict):
            out.setdefault("events", []).extend(value.get("log") or [])
        elif path[:2] in _RESULT_PATHS and len(path) == 2 and "s" in op:
            out.setdefault(_RESULT_PATHS[path[:2]], []).extend(value or [])
        elif path == ("rewards",) and isinstance(value, dict):
            out.setdefault("rolls", []).extend(value.get("rolls") or [])
            out.setdefault("tactics", []).extend(value.get("tactics_taken") or [])
        elif len(path) == 2 and path[0] == "day" and path[1] in _DAY_FIELDS:
            if "s" in op and isinstance(value, list):
                out.setdefault("day", {}).setdefault(path[1], []).extend(value)
            else:
                out.setdefault("day", {})[path[1]] = value
    return out


_ABSENT = object()  # no value at a path (a key a document does not hold)


def _same_change(old: CampaignState, new: CampaignState, doc: Doc, ops: list[dl.Op]) -> bool:
    """True when ``new``'s document is exactly ``doc`` (JSON types compared: 1, 1.0 and true
    differ), given that ``old``'s document is exactly the one ``ops`` turned into ``doc``.
    Outside the paths ``ops`` changed and the parts of ``new`` that are not ``old``'s own
    objects (the engine returns new frozen states that share every part they keep), the two
    documents are both the one before; only those places are dumped and compared. A list that
    grew at its end (a night log) is compared by its new items and its length."""
    places: list[tuple[Any, ...]] = []
    sizes: list[tuple[Any, ...]] = []
    for op in ops:
        path = tuple(op["p"])
        items = _spliced(doc, op, path)
        if items is None:
            places.append(path)
        else:
            places.extend(items)
            sizes.append(path)
    _changed(old, new, (), places, sizes)
    return (all(_doc_len(doc, p) == _state_len(new, p) for p in sizes)
            and all(_doc_at(doc, p) == _state_at(new, p) for p in places))


def _spliced(doc: Doc, op: dl.Op, path: tuple[Any, ...]) -> list[tuple[Any, ...]] | None:
    """The paths of the items a splice put in a list, when no item after them moved (it
    replaced as many as it removed, or nothing follows them); None otherwise."""
    if "s" not in op or not path:
        return None
    start, removed = op["s"]
    count = len(op["v"])
    items = _doc_value(doc, path)
    if type(items) is not list or not (count == removed or start + count == len(items)):
        return None
    return [(*path, i) for i in range(start, start + count)]


def _changed(old: Any, new: Any, path: tuple[Any, ...], out: list[tuple[Any, ...]],
             sizes: list[tuple[Any, ...]]) -> None:
    """Add to ``out`` the paths where ``new``'s dump may differ from ``old``'s (and to
    ``sizes`` the lists whose length may differ, their items being in ``out``)."""
    if old is new:
        return
    if isinstance(new, BaseModel) and type(old) is type(new):
        was = old.__dict__  # a model's field values, by name
        for name, value in new.__dict__.items():
            if was[name] is not value:
                _changed(was[name], value, (*path, name), out, sizes)
    elif type(new) in (list, tuple) and type(old) is type(new) and len(old) <= len(new):
        for i, (a, b) in enumerate(zip(old, new[: len(old)], strict=True)):
            if a is not b:  # (most items of a grown list are the same objects)
                _changed(a, b, (*path, i), out, sizes)
        if len(old) < len(new):  # grown at its end: its new items, and its length
            out.extend((*path, i) for i in range(len(old), len(new)))
            sizes.append(path)
    else:
        out.append(path)


def _doc_value(doc: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path`` in a document (_ABSENT: none there)."""
    for key in path:
        if (type(doc) is dict and type(key) is str and key in doc) or (
                type(doc) is list and type(key) is int and 0 <= key < len(doc)):
            doc = doc[key]  # type: ignore[index]  # (a dict key or a list index, checked)
        else:
            return _ABSENT
    return doc


def _doc_len(doc: Any, path: tuple[Any, ...]) -> int:
    value = _doc_value(doc, path)
    return len(value) if type(value) is list else -2


def _state_len(state: Any, path: tuple[Any, ...]) -> int:
    """The length of the list at ``path`` in ``state`` (-1 when it is not one: the caller then
    finds the two documents different and judges the step from the stored state)."""
    value = state
    for key in path:
        if isinstance(value, BaseModel) and type(key) is str and key in type(value).model_fields:
            value = getattr(value, key)
        elif ((type(value) in (list, tuple) and type(key) is int and 0 <= key < len(value))
              or (type(value) is dict and type(key) is str and key in value)):
            value = value[key]
        else:
            return -1
    return len(value) if type(value) in (list, tuple) else -1


def _doc_at(doc: Any, path: tuple[Any, ...]) -> str | object:
    """The canonical text of the value at ``path`` in a document (_ABSENT: none there)."""
    value = _doc_value(doc, path)
    return _ABSENT if value is _ABSENT else dl.ENCODE(value)


def _state_at(state: Any, path: tuple[Any, ...]) -> str | object:
    """The canonical text of the value at ``path`` in ``state``'s document: the model holding
    it dumps only the field on the path (its serializer decides the key's shape); a model in
    a list on the path is stepped into."""
    i = 0
    while i < len(path):
        key = path[i]
        if type(key) is not str or key not in type(state).model_fields:
            return _ABSENT
        value = getattr(state, key)
        if isinstance(value, BaseModel) and i + 1 < len(path):
            state, i = value, i + 1
            continue
        if (type(value) is list and i + 1 < len(path) and type(path[i + 1]) is int
                and 0 <= path[i + 1] < len(value) and isinstance(value[path[i + 1]], BaseModel)):
            state, i = value[path[i + 1]], i + 2  # a model in a list dumps as it does in it
            continue
        dumped = state.model_dump(mode="json", include={key})
        return _doc_at(dumped[key], path[i + 1 :]) if key in dumped else _ABSENT
    return dl.ENCODE(state.model_dump(mode="json"))


def replay_one(
    catalog: Catalog, step: int, row: tuple[str, int, str | None], before: str,
    after: tuple[Doc, list[dl.Op]], digest: str, state: CampaignState | None,
) -> tuple[str | None, CampaignState | None]:
    """(None, the replayed state) when the step (its action, action schema and chance:
    ``row``) replays to the recorded state (``after``: its document and the stored change
    that gave it) of hash ``digest``, else (the problem, None). It is replayed from
    ``state``, the previous step's replay, whose document is exactly the one before the step,
    when given and the two changes agree (:func:`_same_change`); else from the state stored
    before the step (its canonical text ``before``), which decides. (`verify` and `import`.)"""

    def run(start: CampaignState | None) -> CampaignState:
        data, av, chance = row
        action = parse_stored(data, av)
        state = start if start is not None else to_state(json.loads(before))
        outcomes = load_json(chance) if chance else []
        return apply(state, action, catalog, step - 1, Chance.replay(outcomes))

    if state is not None:
        try:
            new = run(state)
            if _same_change(state, new, *after):
                return None, new
        except Exception:  # noqa: BLE001, S110 - judged from the stored state below
            pass
    try:
        new = run(None)
    except (RuleError, docs.BadState, ValueError, TypeError, KeyError, IndexError) as exc:
        return f"step {step} no longer applies: {getattr(exc, 'message', str(exc))}", None
    if hash_text(canon(docs.state_doc(new))) != digest:
        return f"step {step} does not replay to its recorded state", None
    return None, new


def parse_stored(data: str, av: int) -> Action:
    """An action from its stored JSON and action schema version (upcast to today's shape).
    Raises RuleError when today's app cannot read it."""
    try:
        raw = load_json(data)
    except ValueError:
        raise RuleError("the action is not valid JSON") from None
    if not isinstance(raw, dict):
        raise RuleError("the action is not a JSON object")
    if raw.get("type") in MARKERS:
        raise RuleError(marker_sentence(raw))
    try:
        raw = upcast_action(raw, av)
    except TooNew as exc:
        raise RuleError(f"written by a newer Blood Companion ({exc})") from None
    return parse_action(raw)


def marker_sentence(raw: Mapping[str, Any]) -> str:
    """What `campaign log` says of a step `campaign recover` kept without its action."""
    if raw.get("type") == UNREADABLE:
        return ("its action could not be read (damaged); `campaign recover` kept the state it "
                "led to, and the damaged copy in the backups folder keeps the step as it was")
    return ("`campaign recover` could not prove this step (damaged); its state here is the one "
            "before it, and the damaged copy in the backups folder keeps the step as it was")


# The marks as read: a name that is text and a step that is an integer (a row of other types
# is damage: `verify` names it, `recover` leaves it in the damaged copy, reads pass it by).
MARKS = ("SELECT name, step FROM marks WHERE typeof(name) = 'text' AND typeof(step) = 'integer' "
         "AND step >= 1")


def fields_ok(row: Sequence[Any], *, abandoned: bool = False) -> bool:
    """Whether a stored step's columns (step, data, av, chance, delta, state_hash, app,
    data_fp, recorded, exact[, abandoned, replaced_at]) hold the types the save keeps: a row
    edited into other types (a number read from text, a BLOB) is damage, never a TypeError."""
    s, d, av, ch, de, h, app, fp, rec, ex = row[:10]
    optional = (de, h) if abandoned else ()
    ok = (type(s) is int and type(d) is str and type(av) is int and type(ex) is int
          and (ch is None or type(ch) is str)
          and all(x is None or type(x) is str for x in optional)
          and all(type(x) is str for x in ((app, fp, rec) if abandoned else (de, h, app, fp, rec))))
    if abandoned and ok and len(row) > 10:
        ok = (row[10] is None or type(row[10]) is str) and type(row[11]) is int
    return ok


def said_key(step: int, data: str, av: int) -> str:
    """What a step's sentence is a function of (with the data pack): its number and its
    stored action, as the key of ``CampaignStore.log``'s ``said``."""
    return f"{step}:{av}:{hashlib.sha256(data.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}"


class CampaignStore:
    """One open campaign save. Use :meth:`open` or :meth:`create`; close it (or use `with`)."""

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

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls, saves_dir: Path, name: str, catalog: Catalog | Callable[[], Catalog] | None = None, *,
        timeout: float = LOCK_TIMEOUT,
    ) -> CampaignStore:
        """Open an existing campaign and load its state at the head.

        Raises BadNameError, CampaignNotFound, DamagedSave (the file is left untouched) or
        SaveInUse. A file of an older schema version is upgraded after a backup (a version 2
        file needs the data pack to be rebuilt: without a catalog, StoreError says so).
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
        conn, ident = _connect_file(path, timeout)
        store = cls(saves_dir, name, path, conn, catalog)
        store._timeout = timeout
        store._ident = ident
        try:
            store._open_current()
            with store._errors(), store._read() as conn:
                store._load_from(conn)
        except BaseException:
            store._conn.close()
            raise
        return store

    def _open_current(self) -> None:
        """Check the file and upgrade it if it is older (one upgrade per save: under its write
        lock, the others waiting and then reopening the upgraded file)."""
        for _ in range(MAX_REOPEN):
            if not self._check_and_migrate():
                return
            self._reconnect()
        raise _kept_replacing(f"the campaign {self.name!r}")

    def _reconnect(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        self._conn, self._ident = _connect_file(self.path, self._timeout)
        self._revision = -1

    @classmethod
    def create(
        cls, saves_dir: Path, name: str, start: Action, catalog: Catalog | Callable[[], Catalog],
    ) -> CampaignStore:
        """Create campaign `name` whose log starts with `start` (a StartCampaign).

        Raises BadNameError, CampaignExists or RuleError (nothing is written then).
        """
        name = check_campaign_name(name)
        saves.ensure_dir(saves_dir)
        path = saves.save_path(saves_dir, name)
        refuse_existing(saves_dir, name, path)
        cat = catalog() if callable(catalog) else catalog
        chance = Chance.fresh(seed_for(CampaignState(), start), 0)
        state = apply(CampaignState(), start, cat, 0, chance)
        first = docs.StepSource(start.type, start.model_dump_json(), ACTION_SCHEMA,
                                _chance_json(chance), APP, cat.fingerprint(), now())
        rows, snapshots = docs.chain_rows([first], [docs.state_doc(state)], head=1)
        build_file(
            saves_dir, name, rows, head=1, snapshots=snapshots,
            meta={"mode": state.mode, "seed": str(state.seed), "data_fp": cat.fingerprint()},
            datapacks={cat.fingerprint(): (cat.record_prints(), 1)}, install=True,
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

    log_length = head

    @property
    def redo_available(self) -> int:
        return self._max_step - self._head

    def drawn_from(self) -> tuple[str, int, int] | None:
        """(state hash, revision, head step) of the state this store holds, as the file had
        them when the store last read or wrote it: the key of a view drawn from
        :attr:`state` (None when the store does not know the file's revision)."""
        if self._revision < 0 or not self._hash:
            return None
        return self._hash, self._revision, self._head

    def refresh(self) -> CampaignState:
        """Reload if another process changed the file since this store last looked."""
        with self._errors(), self._read() as conn:
            self._sync(conn)
        return self._state

    # ------------------------------------------------------------------ changing

    def record(self, action: Action) -> CampaignState:
        """Apply `action` at the head and store it in one transaction; return the new state.

        Undone steps after the head move to the abandoned table. Raises RuleError (nothing is
        written), SaveInUse or DamagedSave. Takes a backup when the action ends a Part.
        """
        cat = self.catalog
        with self._write() as conn:
            self._sync(conn)
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
                _chance_json(chance), canon(ops), digest, APP, fp, now(),
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
        """Bring back `n` undone actions, as recorded. Raises NothingToRedo."""
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

    def marks(self) -> dict[str, int]:
        with self._errors(), self._read() as conn:
            rows = conn.execute(MARKS + " ORDER BY step, name").fetchall()
        return {n: s for n, s in rows}

    def append_recorded(self, rows: Sequence[Sequence[Any]],
                        abandon: Sequence[Sequence[Any]] = ()) -> int:
        """Append steps recorded elsewhere (rows of the ``actions`` table, in order, the first
        one following the head; `recover` brings back a damaged file's later steps this way).

        A row is taken when its stored change applies to the state before it and the result
        has the hash recorded with it; from the first row that is not, the rows are kept as
        abandoned steps, as are the rows of ``abandon`` (with an abandoned step's time and
        ``replaced_at`` when they carry them). The engine is not run. Returns how many
        steps joined the log."""
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
                    to_state(new)
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
            self._after_write(head, head, to_state(doc), doc, text, digest)
        else:
            self._revision += 1
        return taken

    def data_notice(self) -> str | None:
        """Once per change of the data pack under this campaign: what changed, in words (None
        when the pack is the one the campaign last saw). Notes the new pack as seen."""
        cat = self.catalog
        fp = cat.fingerprint()
        with self._errors(), self._read() as conn:
            seen = self._meta(conn).get("data_fp", "")
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

    # ------------------------------------------------------------------ reading

    def log(self, *, include_abandoned: bool = False, last: int | None = None,
            said: Mapping[str, str] | None = None) -> list[LogEntry]:
        """The log, step by step: done steps, then undone (redo-able) ones; abandoned if asked.
        ``last``: only the last N steps of the log (the others are not read). ``said``: the
        sentences of steps already worded, by :func:`said_key` (a step found there is not
        parsed again)."""
        cols = "step, type, data, av, state_hash, recorded, app, data_fp"
        with self._errors(), self._read(lenient=True) as conn:
            since = 0
            if last is not None:
                top = conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0
                since = max(0, top - last)
            rows = conn.execute(
                f"SELECT {cols} FROM actions WHERE step > ? ORDER BY step", (since,)
            ).fetchall()
            marks: dict[int, list[str]] = {}
            for n, s in conn.execute(MARKS + " ORDER BY name"):
                marks.setdefault(s, []).append(n)
            gone = (
                conn.execute(f"SELECT {cols} FROM abandoned ORDER BY id").fetchall()
                if include_abandoned
                else []
            )
            head = self._meta_int(conn, "head")
        out = []
        for status_rows, status in ((rows, None), (gone, "abandoned")):
            for step, typ, data, av, digest, recorded, app, fp in status_rows:
                where = "abandoned step" if status else "step"
                if not (type(data) is str and type(av) is int and type(step) is int):
                    raise DamagedSave(self.path, f"{where} {step} of the log holds a field of "
                                      "the wrong type", hint=_damaged_hint(self.name))
                try:
                    raw = load_json(data)
                except ValueError:
                    raise DamagedSave(self.path, f"{where} {step} of the log is not valid JSON",
                                      hint=_damaged_hint(self.name)) from None
                key = said_key(step, data, av)
                sentence = said.get(key) if said else None
                if sentence is None and isinstance(raw, dict) and raw.get("type") in MARKERS:
                    sentence = ("Kept without its action: " if raw["type"] == UNREADABLE
                                else "Not proven: ") + marker_sentence(raw) + "."
                if sentence is None:
                    try:
                        sentence = self._sentence(parse_stored(data, av))
                    except RuleError as exc:
                        sentence = f"({typ}: not understood by this version: {exc.message})"
                out.append(LogEntry(
                    step, typ, raw, sentence, recorded, digest,
                    status or ("done" if step <= head else "undone"),
                    tuple(marks.get(step, ())) if not status else (), app, fp, key,
                ))
        return out

    def actions(self) -> list[Action]:
        """Every action in the log (done and undone), in order."""
        with self._errors(), self._read() as conn:
            rows = conn.execute("SELECT step, data, av FROM actions ORDER BY step").fetchall()
        return [self._parse(step, data, av) for step, data, av in rows]

    def step_types(self) -> list[str]:
        """The type of every step's action (done and undone), in order; a step `recover` kept
        without its action has its marker's type (docs.MARKERS)."""
        with self._errors(), self._read(lenient=True) as conn:
            return [str(r[0]) for r in conn.execute("SELECT type FROM actions ORDER BY step")]

    def _sentence(self, action: Action) -> str:
        """The action as a sentence, with the data pack's names when it loads (ids else)."""
        try:
            catalog = self.catalog
        except Exception:  # noqa: BLE001 - a log is shown even without the data pack
            catalog = None
        try:
            from blood_companion.engine.words import sentence

            return sentence(action, catalog)
        except Exception:  # a sentence bug must not hide the log
            return Action.describe(action)

    def step_results(self, first: int = 1) -> dict[int, dict[str, Any]]:
        """Per done or undone step from ``first`` on, what its stored change added that players
        read about (:func:`step_results`): for `campaign log`."""
        with self._errors(), self._read(lenient=True) as conn:
            rows = conn.execute(
                "SELECT step, delta FROM actions WHERE step >= ? ORDER BY step", (first,)
            ).fetchall()
        out: dict[int, dict[str, Any]] = {}
        for step, delta in rows:
            try:
                ops = load_json(delta) if delta else []
            except ValueError:
                continue
            if isinstance(ops, list):
                found = step_results(ops)
                if found:
                    out[int(step)] = found
        return out

    def state_at(self, step: int) -> CampaignState:
        """The recorded state after `step` (done or undone), without moving the head."""
        with self._errors(), self._read() as conn:
            if not 1 <= step <= self._max_step:
                raise self._no_step(step)
            return self._state_at(conn, step)[0]

    def verify(self) -> VerifyReport:
        """Check the whole save: every step's recorded state rebuilds from the deltas and
        matches its hash and the snapshots, and its action reads; the steps recorded with this
        app and data pack are replayed by the rules engine from the state before them (with
        their recorded chance) and must give the same state. Older steps are reported as kept
        as recorded.

        The log is read a row at a time and the state patched in place (memory flat in the
        log's length) and its canonical text re-dumped only where a step changed it; a replay
        starts from the previous step's and is compared only where either changed something
        (exactly, as JSON text: _same_change), else from the state stored before the step,
        read from its canonical text, which its hash was checked on."""
        problems: list[str] = []
        current = (APP, self.catalog.fingerprint())
        doc: Any = None
        state: CampaignState | None = None  # the previous step's replay, when it matched
        text = head_hash = ""
        texts = dl.CanonText()  # the canonical text of `doc`, re-dumped where a step changed it
        replayed = 0
        kept: list[list[Any]] = []  # [first, last, app, data_fp]
        unkept: list[int] = []  # steps recover kept without their action (docs.MARKERS)
        with self._errors(), self._read(lenient=True) as conn:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                problems.append(f"SQLite integrity check: {check}")
            steps = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
            head = self._meta_int(conn, "head")
            problem = self._head_problem(
                conn, head, conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0)
            if problem:
                problems.append(problem)
            problems += self._bookkeeping_problems(conn)
            rows = conn.execute(
                "SELECT a.step, a.data, a.av, a.chance, a.delta, a.state_hash, a.app, a.data_fp, "
                "a.exact, s.step, s.state_hash FROM actions a LEFT JOIN snapshots s "
                "ON s.step = a.step ORDER BY a.step"
            )
            for expected, (step, data, av, chance, delta, digest, app, fp, exact, snap,
                           snap_hash) in enumerate(rows, start=1):
                if step != expected:
                    problems.append(f"step {expected} is missing from the log")
                    break
                if not fields_ok((step, data, av, chance, delta, digest, app, fp, "", exact)):
                    problems.append(f"step {step}: a stored field has the wrong type")
                    break
                before = text
                try:
                    ops = load_json(delta)
                    if doc is None:
                        doc = dl.patch({}, ops)
                    else:
                        doc = dl.patch_in_place(doc, ops)
                        for op in ops:
                            texts.touch(op)
                except (ValueError, TypeError, dl.DeltaError):
                    problems.append(f"step {step}: its stored change is damaged")
                    break
                text = texts.text(doc)
                h = hash_text(text)
                if h != digest:
                    problems.append(
                        f"step {step}: its recorded state does not rebuild from the save (damaged)"
                    )
                    break
                if snap is not None and snap_hash != h:
                    problems.append(f"the snapshot at step {step} differs from the recorded state")
                if step == head:
                    head_hash = h
                if (app, fp) == current and exact and before:
                    replayed += 1
                    problem, state = replay_one(
                        self.catalog, step, (data, av, chance), before, (doc, ops), h, state
                    )
                    if problem:
                        problems.append(problem)
                    continue
                state = None
                try:  # not replayed: its action must still read (`log` shows it)
                    action = load_json(data)
                except ValueError:
                    problems.append(f"step {step}: its action is not valid JSON")
                    continue
                if isinstance(action, dict) and action.get("type") in MARKERS:
                    unkept.append(step)
                    continue
                if step > 1 or (app, fp) != current:
                    if kept and kept[-1][1] == step - 1 and kept[-1][2:] == [app, fp]:
                        kept[-1][1] = step
                    else:
                        kept.append([step, step, app, fp])
        if head_hash and head_hash != self._hash and not problems:
            problems.append("the loaded state differs from the recorded one")
        kept_text = [
            (f"steps {a}–{b}" if a != b else f"step {a}")
            + f" recorded with app {app or '?'} / data {fp or 'not recorded'}: kept as recorded"
            for a, b, app, fp in kept
        ]
        if unkept:
            kept_text.append(
                f"step{'s' if len(unkept) > 1 else ''} {', '.join(map(str, unkept))}: kept by "
                "`campaign recover` without an action that reads (`campaign log` says which)")
        return VerifyReport(
            not problems, steps, head, head_hash or self._hash, problems, replayed, kept_text
        )

    def _bookkeeping_problems(self, conn: sqlite3.Connection) -> list[str]:
        """The marks, abandoned steps and metadata a save keeps besides its log, read with
        their types: what `log --all`, `marks` and `export` would refuse or pass by."""
        problems = []
        top = conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0
        for name, step in conn.execute("SELECT name, step FROM marks"):
            if type(name) is not str or type(step) is not int or not 1 <= step <= top:
                problems.append(f"the mark {str(name)[:40]!r} is damaged (not a name and a "
                                "step of the log)")
        for row in conn.execute(
                "SELECT step, data, av, chance, delta, state_hash, app, data_fp, recorded, "
                "exact, abandoned, replaced_at FROM abandoned ORDER BY id"):
            bad = not fields_ok(row, abandoned=True)
            if not bad:
                try:
                    for value in (row[1], row[3], row[4]):
                        if value:
                            load_json(value)
                except ValueError:
                    bad = True
            if bad:
                problems.append(f"abandoned step {str(row[0])[:12]} is damaged (`log --all` "
                                "cannot show it)")
        meta = self._meta(conn)
        for key in ("seed", "revision"):
            try:
                read_int(meta[key])
            except ValueError:
                problems.append(f"the metadata's {key!r} is not a number")
        return problems

    # ------------------------------------------------------------------ backups and export

    def backup(self, reason: str) -> Path:
        """A compressed copy of the whole save in the campaign's backups folder (automatic
        backups are thinned by generation: store/saves.py)."""
        # a copy kept for good (before a delete, an import, a migration) stays a plain save
        # file that any version can open; the automatic ones are compressed and thinned
        target = saves.new_backup_path(self.saves_dir, self.name, reason,
                                       compressed=not saves.is_protected(reason))
        with self._errors():
            if self._conn.in_transaction:
                # under this store's lock (an upgrade, a delete): SQLite copies a file only
                # through a connection that is not writing it
                src = _read_only(self.path, self._timeout)
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
        """Delete the campaign's file, keeping a copy in its backups folder (returned): both
        under the file's write lock, so no step is committed between the copy and the removal
        (a writer waiting for the lock then finds the file gone and records nothing)."""
        with self._write():
            kept = self.backup(reason)
            try:
                os.unlink(self.path)
            except OSError as exc:
                raise StoreError(f"cannot delete {self.path}: {exc.strerror}") from None
        return kept

    def replace_file(self, new_file: Path, reason: str) -> Path:
        """Move `new_file` over the campaign's file (an import with --replace), after a
        backup of the old one (returned), both under the old file's write lock."""
        with self._write():
            kept = self.backup(reason)
            os.replace(new_file, self.path)
        return kept

    def export_doc(self) -> dict[str, Any]:
        """The readable JSON document `export` writes and `import` reads (store/transfer.py)."""
        cols = "step, data, av, chance, delta, state_hash, app, data_fp, recorded, exact"
        with self._errors(), self._read(lenient=True) as conn:
            rows = conn.execute(f"SELECT {cols} FROM actions ORDER BY step").fetchall()
            gone = conn.execute(
                f"SELECT {cols}, abandoned, replaced_at FROM abandoned ORDER BY id"
            ).fetchall()
            marks = dict(conn.execute(MARKS + " ORDER BY step").fetchall())
            meta = self._meta(conn)
            seed, head = self._meta_int(conn, "seed"), self._meta_int(conn, "head")

        def step_doc(r: Sequence[Any], where: str = "step") -> dict[str, Any]:
            s, d, av, ch, de, h, app, fp, rec, ex = r[:10]
            if not fields_ok(r, abandoned=where != "step"):
                raise DamagedSave(
                    self.path, f"{where} {s} of the log holds a field of the wrong type",
                    hint=_damaged_hint(self.name),
                )
            try:
                return {
                    "step": s, "action": load_json(d), "action_schema": av,
                    "chance": load_json(ch) if ch else [], "delta": load_json(de) if de else None,
                    "state_hash": h, "app": app, "data": fp, "recorded": rec, "exact": bool(ex),
                }
            except ValueError:
                raise DamagedSave(
                    self.path, f"{where} {s} of the log is damaged (its stored JSON does not read)",
                    hint=_damaged_hint(self.name),
                ) from None

        return {
            "format": docs.FORMAT,
            "format_version": docs.FORMAT_VERSION,
            "app_version": APP,
            "state_schema": STATE_SCHEMA,
            "exported": now(),
            "name": self.name,
            "mode": meta.get("mode", ""),
            "seed": seed,
            "head": head,
            "state_hash": self._hash,
            "marks": marks,
            "actions": [step_doc(r) for r in rows],
            "abandoned": [
                {**step_doc(r, "abandoned step"), "abandoned": r[10], "replaced_at": r[11]}
                for r in gone
            ],
            "state": self._doc,
        }

    # ------------------------------------------------------------------ internals

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite's errors into clear store errors naming the file (and a value nested
        too deeply to read into a damaged save, never a RecursionError)."""
        try:
            yield
        except RecursionError:
            raise DamagedSave(
                self.path, "a stored value is nested too deeply to read",
                hint=_damaged_hint(self.name),
            ) from None
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            operational = isinstance(exc, sqlite3.OperationalError)
            if operational and ("locked" in text or "busy" in text):
                raise SaveInUse(
                    f"the campaign {self.name!r} is in use by another blood process "
                    f"(waited {self._timeout:g} s)",
                    hint="try again when the other command has finished",
                ) from None
            if operational and ("readonly" in text or "read-only" in text):
                raise StoreError(f"the save file {self.path} is read-only: {text}") from None
            if "disk is full" in text or (operational and "disk I/O" in text):
                raise disk_full(f"{' (or failing)' if operational else ''}: nothing more could "
                                f"be written to {self.path}; your saves are intact") from None
            raise DamagedSave(self.path, explain_sqlite(exc)) from None

    def _in_place(self) -> None:
        """Reopen the campaign's file when the one this store has open was moved away (by
        recover, an import with --replace, an upgrade) before any lock is taken on it: SQLite
        names a save's journal after its path, so a connection to the moved file would take
        the journal of a step being written to the new file for a hot journal of its own, play
        it back and delete it (the writer then failing with "disk I/O error")."""
        now_ident = _file_ident(self.path)
        if self._ident is not None and now_ident is not None and now_ident != self._ident:
            self._reconnect()

    @contextlib.contextmanager
    def _read(self, *, lenient: bool = False) -> Iterator[sqlite3.Connection]:
        """A read transaction on the campaign's file as it is now (:meth:`_in_place`). With
        ``lenient``, damaged text is read as text (undecodable bytes replaced), so one damaged
        row is reported by its step instead of stopping the whole read."""
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
        """BEGIN IMMEDIATE on the campaign's file as it is now: a file replaced while this
        store waited for the lock (upgraded, restored, imported over) is reopened, and a file
        deleted meanwhile is refused (nothing is written into a file no longer in place)."""
        for _ in range(MAX_REOPEN):
            if _file_ident(self.path) not in (None, self._ident):  # moved: no lock taken on it
                self._reconnect()  # (see _in_place)
                self._open_current()
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            now_ident = _file_ident(self.path)
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
        raise _kept_replacing(f"the campaign {self.name!r}")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._errors():
            conn = self._begin_write()
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

    def _meta_int(self, conn: sqlite3.Connection, key: str) -> int:
        """A number the metadata keeps (ASCII digits only: docs.read_int)."""
        try:
            return read_int(self._meta(conn)[key])
        except ValueError:
            raise DamagedSave(self.path, f"the metadata's {key!r} is not a number",
                              hint=_damaged_hint(self.name)) from None

    def _meta(self, conn: sqlite3.Connection) -> dict[str, str]:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        for key in META_KEYS:
            if key not in meta:
                raise DamagedSave(self.path, f"the metadata lacks {key!r}")
        return meta

    def _check_and_migrate(self) -> bool:
        """Check the header and upgrade an older file (after a backup). True when the file
        was replaced (by this process or another one: the connection must be reopened)."""
        version, state_schema = self._check_header()
        if version == schema.SCHEMA_VERSION and state_schema in (None, str(STATE_SCHEMA)):
            return False
        if version < schema.SCHEMA_VERSION and self._catalog_source is None:
            raise StoreError(
                f"the campaign {self.name!r} was saved by an older Blood Companion and must "
                "be upgraded first",
                hint=f"`blood campaign show --campaign {self.name}` upgrades it",
            )
        return self._upgrade()

    def _check_header(self) -> tuple[int, str | None]:
        """The file's schema version and state schema, after checking it is a save this app
        reads (DamagedSave otherwise)."""
        if not self._conn.in_transaction:
            self._in_place()  # a file moved away since it was connected: the new one
            # Not under a lock: Python's open/close of the file would drop SQLite's locks
            # (POSIX locks belong to the process), so the size is checked before any is held.
            with self._errors():
                _check_size(self.path, self._conn, self._ident)
        with self._errors(), self._read() as conn:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if app_id != schema.APPLICATION_ID:
                raise DamagedSave(
                    self.path, "it is not a Blood Companion save (unknown application id)"
                )
            if version > schema.SCHEMA_VERSION:
                raise DamagedSave(
                    self.path,
                    f"it was written by a newer Blood Companion (save schema version "
                    f"{version}; this app, version {APP}, reads up to "
                    f"{schema.SCHEMA_VERSION})",
                    hint="update blood-companion, or `blood campaign recover` to go back "
                    "to the newest backup this version can read",
                )
            if version < 1:
                raise DamagedSave(self.path, f"unknown save schema version {version}")
            tables = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if version < schema.SCHEMA_VERSION and "actions" in tables and "delta" in {
                    r[1] for r in conn.execute("PRAGMA table_info(actions)")}:
                # an older version number on today's tables: migrating it again would restamp
                # every step and rewrite every hash
                raise DamagedSave(
                    self.path, f"its schema version ({version}) is older than its tables, "
                    f"which are version {schema.SCHEMA_VERSION}'s (the header was edited)",
                    hint=_damaged_hint(self.name),
                )
            state_schema = None
            if version == schema.SCHEMA_VERSION and "meta" in tables:
                row = conn.execute("SELECT value FROM meta WHERE key = 'state_schema'").fetchone()
                state_schema = row[0] if row else None
        if version == schema.SCHEMA_VERSION:
            missing = [t for t in schema.TABLES if t not in tables]
            if missing:
                raise DamagedSave(self.path, f"table {missing[0]!r} is missing")
            if state_schema is not None and not (
                isinstance(state_schema, str) and state_schema.isascii()
                and state_schema.isdigit() and len(state_schema) < 10
            ):
                raise DamagedSave(
                    self.path, f"its state schema {str(state_schema)[:20]!r} is not a number"
                )
            if state_schema is not None and int(state_schema) > STATE_SCHEMA:
                raise DamagedSave(
                    self.path,
                    f"its states were written by a newer Blood Companion (state schema "
                    f"{state_schema}; this app, version {APP}, reads up to {STATE_SCHEMA})",
                    hint="update blood-companion",
                )
        return version, state_schema

    def _upgrade(self) -> bool:
        """Upgrade an older file under its write lock: a backup, the rebuilt file written
        beside it, then moved over it while the lock is held. A process that waited for the
        lock finds the file replaced and reopens it (True either way)."""
        from blood_companion.store.legacy import rebuild_v2, upcast_file

        conn = self._conn
        with self._errors():
            conn.execute(f"PRAGMA busy_timeout = {int(max(self._timeout, UPGRADE_TIMEOUT) * 1000)}")
            try:
                conn.execute("BEGIN IMMEDIATE")
            finally:
                conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
            tmp: Path | None = None
            try:
                if _file_ident(self.path) != self._ident:
                    return True  # upgraded (or replaced) by another process meanwhile
                version, state_schema = self._check_header()
                if version == schema.SCHEMA_VERSION:
                    if state_schema in (None, str(STATE_SCHEMA)):  # pragma: no cover
                        return False
                    self.backup(f"before state schema {STATE_SCHEMA}")
                    tmp = upcast_file(self)
                else:
                    self.backup(f"before migration from v{version}")
                    if version < schema.REBUILD_FROM:
                        tmp = self._rebuild_old(version)
                    else:
                        tmp = rebuild_v2(self)
                os.replace(tmp, self.path)
                tmp = None
                return True
            finally:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)

    def _rebuild_old(self, version: int) -> Path:
        """A file older than REBUILD_FROM: migrated in SQL in a scratch copy (the file itself
        is never written: a journal of it could meet the new file), then rebuilt from it."""
        from blood_companion.store.legacy import rebuild_v2

        scratch = self.saves_dir / f".{self.name}.{os.getpid()}.old"
        own = self._conn
        copy = sqlite3.connect(scratch, isolation_level=None)
        try:
            src = _read_only(self.path, self._timeout)
            try:
                src.backup(copy)
            finally:
                src.close()
            copy.execute("BEGIN IMMEDIATE")
            schema.migrate(copy, version)
            copy.execute("COMMIT")
            self._conn = copy
            return rebuild_v2(self)
        finally:
            self._conn = own
            copy.close()
            with contextlib.suppress(OSError):
                scratch.unlink()

    def _load_from(self, conn: sqlite3.Connection) -> None:
        meta = self._meta(conn)
        try:
            head = read_int(meta["head"])
            revision = read_int(meta["revision"])
            self.seed = read_int(meta["seed"])
        except ValueError:
            raise DamagedSave(self.path, "the metadata holds a non-number",
                              hint=_damaged_hint(self.name)) from None
        self.mode = str(meta["mode"])
        self.created = str(meta.get("created", ""))
        max_step = conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0
        problem = self._head_problem(conn, head, max_step)
        if problem:
            raise DamagedSave(self.path, problem, hint=_damaged_hint(self.name))
        self._max_step = max_step
        state, doc, text, digest = self._state_at(conn, head, use_cache=False)
        self._head, self._revision = head, revision
        self._state, self._doc, self._text, self._hash = state, doc, text, digest

    def _head_problem(self, conn: sqlite3.Connection, head: int, max_step: int) -> str | None:
        """Whether the head the metadata names agrees with the rows: inside the log, and the
        state kept whole at it (every write keeps a snapshot at the head, and besides it only
        at step 1 and every SNAPSHOT_EVERY steps). A head edited by hand would otherwise have
        the next step abandon every step after it."""
        if not 1 <= head <= max_step:
            return f"the head ({head}) is outside the log (1..{max_step})"
        odd = [r[0] for r in conn.execute(
            "SELECT step FROM snapshots WHERE step != 1 AND step % ? != 0 ORDER BY step",
            (schema.SNAPSHOT_EVERY,))]
        if odd == [head] or (not odd and docs.is_checkpoint(head)):
            return None
        where = (f"its rows keep the head's state at step {odd[-1]}" if odd
                 else f"its rows keep no state at step {head}")
        return f"the head in its metadata (step {head}) disagrees with its rows ({where})"

    def _sync(self, conn: sqlite3.Connection) -> None:
        """Inside a transaction: reload when another process wrote since we last looked."""
        row = conn.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
        if row is None:
            raise DamagedSave(self.path, "the metadata lacks 'revision'")
        try:
            revision = read_int(row[0])
        except (TypeError, ValueError):
            raise DamagedSave(self.path, "the metadata holds a non-number") from None
        if revision != self._revision:
            self._load_from(conn)

    def _parse(self, step: int, data: str, av: int) -> Action:
        try:
            return parse_stored(data, av)
        except RuleError as exc:
            raise DamagedSave(self.path, f"step {step} of the log: {exc.message}") from None

    def _state_at(
        self, conn: sqlite3.Connection, step: int, *, use_cache: bool = True
    ) -> tuple[CampaignState, Doc, str, str]:
        """The recorded state after `step`: the nearest snapshot at or before it, plus the
        stored deltas up to it (the rules engine is not involved). Checks the result against
        the hash recorded with the step. Returns (state, document, canonical text, hash).

        With `use_cache` (only inside a transaction after :meth:`_sync`) the in-memory head
        serves as a starting point too, so redo applies just the redone steps' deltas.
        """
        start_step = 0
        doc: Any = None
        if use_cache and 1 <= self._head <= step and self._text:
            start_step, doc = self._head, load_json(self._text)
        else:
            row = conn.execute(
                "SELECT step, state, state_hash FROM snapshots WHERE step <= ? "
                "ORDER BY step DESC LIMIT 1",
                (step,),
            ).fetchone()
            if row is not None:
                s, text, digest = row
                if hash_text(text) != digest:
                    raise DamagedSave(
                        self.path, f"the snapshot at step {s} does not match its checksum "
                        "(hand-edited or corrupted)",
                    )
                try:
                    doc = load_json(text)
                except ValueError:
                    raise DamagedSave(self.path, f"the snapshot at step {s} is not JSON") from None
                start_step = s
        rows = conn.execute(
            "SELECT step, delta, state_hash FROM actions WHERE step > ? AND step <= ? "
            "ORDER BY step",
            (start_step, step),
        ).fetchall()
        if len(rows) != step - start_step:
            raise DamagedSave(self.path, f"steps {start_step + 1}..{step} of the log are missing")
        expected: str | None = None
        for s, delta, digest in rows:
            try:
                ops = load_json(delta)
                doc = dl.patch_in_place(doc, ops) if doc is not None else dl.patch({}, ops)
            except (ValueError, TypeError, dl.DeltaError):
                raise DamagedSave(
                    self.path, f"the stored change of step {s} is damaged",
                    hint=_damaged_hint(self.name),
                ) from None
            expected = digest
        if doc is None:
            raise DamagedSave(self.path, f"no state is stored for step {step}")
        text = canon(doc)
        digest = hash_text(text)
        if expected is not None and digest != expected:
            raise DamagedSave(
                self.path, f"the recorded state of step {step} does not rebuild from the save",
                hint=_damaged_hint(self.name),
            )
        try:
            state = to_state(doc)
        except docs.BadState as exc:
            raise DamagedSave(self.path, f"the state at step {step}: {exc}") from None
        return state, doc, text, digest

    def _goto(self, conn: sqlite3.Connection, step: int) -> CampaignState:
        old = self._head
        if step == old:
            return self._state
        state, doc, text, digest = self._state_at(conn, step)
        self._move_head(conn, old, step, text, digest)
        self._after_write(step, self._max_step, state, doc, text, digest)
        return state

    def _resolve_target(self, conn: sqlite3.Connection, target: int | str) -> int:
        if isinstance(target, str) and target.strip().isascii() and target.strip().isdigit():
            text = target.strip()
            if len(text) > 12:
                raise self._no_step(f"{text[:12]}...")
            target = int(text)
        if isinstance(target, int):
            if not 1 <= target <= self._max_step:
                raise self._no_step(target, hint="`blood campaign log` lists the steps")
            return target
        row = conn.execute("SELECT step FROM marks WHERE name = ?", (target.strip(),)).fetchone()
        if row is None:
            names = [r[0] for r in conn.execute(MARKS + " ORDER BY step")]
            raise NothingToUndo(
                f"there is no mark {target[:60]!r}",
                hint=("marks: " + ", ".join(names)) if names else
                "`blood campaign mark NAME` names the current step",
            )
        if not 1 <= row[0] <= self._max_step:
            raise DamagedSave(self.path, f"the mark {target.strip()[:60]!r} names step {row[0]}, "
                              "which is not in the log", hint=_damaged_hint(self.name))
        return int(row[0])

    def _no_step(self, step: object, hint: str | None = None) -> NothingToUndo:
        return NothingToUndo(f"there is no step {step}; the log has steps 1 to {self._max_step}",
                             hint=hint)

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
        """The data pack's fingerprint; its record prints are stored the first time (they are
        not written out again for every step played with the same pack)."""
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


# ---------------------------------------------------------------------- files


def _chance_json(chance: Chance) -> str | None:
    return canon(chance.outcomes) if chance.outcomes else None


def _damaged_hint(name: str) -> str:
    return (
        f"`blood campaign verify --campaign {name}` names the damaged step; "
        f"`blood campaign recover --campaign {name}` keeps every step it can prove (the "
        "damaged file is kept in the backups folder)"
    )


def explain_sqlite(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "malformed" in text:
        return f"it is damaged or truncated (SQLite: {text})"
    if "not a database" in text:
        return f"it is not a SQLite database, or its header is damaged (SQLite: {text})"
    return f"SQLite: {text}"


def _file_ident(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at `path` now (None when there is none)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _connect_file(path: Path, timeout: float) -> tuple[sqlite3.Connection, tuple[int, int]]:
    """:func:`_connect`, and the (device, inode) of the file the connection has open (the
    same before and after connecting, so no replacement went unnoticed)."""
    for _ in range(MAX_REOPEN):
        before = _file_ident(path)
        conn = _connect(path, timeout)
        after = _file_ident(path)
        if before is not None and before == after:
            return conn, after
        conn.close()
        if after is None:
            raise CampaignNotFound(f"the save file {path} disappeared while it was opened")
    raise _kept_replacing(f"the save file {path}")


def _kept_replacing(what: str) -> SaveInUse:
    return SaveInUse(f"{what} keeps being replaced by another blood process",
                     hint="try again when the other command has finished")


def _read_only(path: Path, timeout: float) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=timeout)


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


def _check_size(path: Path, conn: sqlite3.Connection,
                ident: tuple[int, int] | None = None) -> None:
    """A file shorter than its header says was truncated (called outside any transaction:
    it opens the file, and closing it drops the process's SQLite locks on it). When the file
    at `path` is no longer the one `conn` has open (`ident`: another process moved a new one
    into place meanwhile, as recover and import do), nothing is judged: the caller finds the
    replacement and reopens it."""
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
