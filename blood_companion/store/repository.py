"""The rows of a campaign save, read side: the log, the recorded states, verify and export.

Functions over a connection inside the caller's read transaction; ``where`` (the store itself)
names the file and campaign in errors. A recorded state is rebuilt from the nearest snapshot and
the stored changes after it (no rules engine) and checked against its step's hash; ``verify``
also replays the steps recorded with this app and data pack (:func:`replay_one`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from pydantic import BaseModel

from blood_companion import __version__
from blood_companion.engine.actions import Action
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, parse_action
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import STATE_SCHEMA, TooNew, upcast_action
from blood_companion.engine.words.sentences import sentence as action_sentence
from blood_companion.store import delta as dl
from blood_companion.store import docs, schema
from blood_companion.store.docs import MARKERS, UNREADABLE, Doc, hash_text, load_json, to_state
from blood_companion.store.errors import DamagedSave, NothingToUndo
from blood_companion.store.peek import META_KEYS

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

APP = __version__


class Where(Protocol):
    path: Path
    name: str


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

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step, "type": self.type, "action": self.data, "sentence": self.sentence,
            "status": self.status, "marks": list(self.marks), "recorded": self.recorded,
            "state_hash": self.state_hash, "app": self.app, "data": self.data_fp,
        }


class VerifyReport(NamedTuple):
    """What `campaign verify` found."""

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
    """What one step's stored change added that players read about (ids): night log events,
    the Day's draws, loot rolls and Advanced Tactic cards taken."""
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
    """Whether ``new``'s document is exactly ``doc`` (1, 1.0 and true differ), given that
    ``ops`` turned ``old``'s into ``doc``: only the paths ``ops`` changed and the parts of
    ``new`` not shared with ``old`` (frozen states share what they keep) are dumped and
    compared; a list grown at its end by its new items and its length."""
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
    """The paths of the items a splice put in a list when no item after them moved, else None."""
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
    """Add the paths where ``new``'s dump may differ from ``old``'s (``sizes``: the lists)."""
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
    """The length of the list at ``path`` in ``state`` (-1: not a list; then they differ)."""
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
    value = _doc_value(doc, path)
    return _ABSENT if value is _ABSENT else dl.ENCODE(value)


def _state_at(state: Any, path: tuple[Any, ...]) -> str | object:
    """The canonical text at ``path`` in ``state``'s document, dumping only the field on the
    path (its model's serializer decides the key's shape)."""
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
    """(None, the replayed state) when the step (``row``: action, schema, chance) replays to
    its recorded state (``after``: document and change; hash ``digest``), else (the problem,
    None). Replayed from ``state`` (the previous replay) when the changes agree
    (:func:`_same_change`), else from the stored state before it (``before``), which decides."""

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
    if hash_text(docs.canon(docs.state_doc(new))) != digest:
        return f"step {step} does not replay to its recorded state", None
    return None, new


def parse_stored(data: str, av: int) -> Action:
    """An action from its stored JSON and schema version, upcast (RuleError: unreadable)."""
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


# The marks as read (a row of other types is damage: `verify` names it, reads pass it by).
MARKS = ("SELECT name, step FROM marks WHERE typeof(name) = 'text' AND typeof(step) = 'integer' "
         "AND step >= 1")


def fields_ok(row: Sequence[Any], *, abandoned: bool = False) -> bool:
    """Whether a stored step's columns (docs.ROW_COLUMNS[, abandoned, replaced_at]) hold the
    types the save keeps: other types (a BLOB) are damage, never a TypeError."""
    s, d, av, ch, de, h, app, fp, rec, ex = row[:10]
    optional = (de, h) if abandoned else ()
    ok = (type(s) is int and type(d) is str and type(av) is int and type(ex) is int
          and (ch is None or type(ch) is str)
          and all(x is None or type(x) is str for x in optional)
          and all(type(x) is str for x in ((app, fp, rec) if abandoned else (de, h, app, fp, rec))))
    if abandoned and ok and len(row) > 10:
        ok = (row[10] is None or type(row[10]) is str) and type(row[11]) is int
    return ok


def damaged_hint(name: str) -> str:
    return (
        f"`blood campaign verify --campaign {name}` names the damaged step; "
        f"`blood campaign recover --campaign {name}` keeps every step it can prove (the "
        "damaged file is kept in the backups folder)"
    )


def damaged(where: Where, what: str) -> DamagedSave:
    return DamagedSave(where.path, what, hint=damaged_hint(where.name))


def meta(conn: sqlite3.Connection, where: Where) -> dict[str, str]:
    out = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    for key in META_KEYS:
        if key not in out:
            raise DamagedSave(where.path, f"the metadata lacks {key!r}")
    return out


def meta_int(conn: sqlite3.Connection, where: Where, key: str) -> int:
    try:
        return docs.read_int(meta(conn, where)[key])
    except ValueError:
        raise damaged(where, f"the metadata's {key!r} is not a number") from None


def max_step(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0)


def head_problem(conn: sqlite3.Connection, head: int, top: int) -> str | None:
    """What is wrong with the metadata's head: outside 1..``top``, or not where the only
    snapshot off the checkpoints is (a head edited by hand would abandon the steps after it)."""
    if not 1 <= head <= top:
        return f"the head ({head}) is outside the log (1..{top})"
    odd = [r[0] for r in conn.execute(
        "SELECT step FROM snapshots WHERE step != 1 AND step % ? != 0 ORDER BY step",
        (schema.SNAPSHOT_EVERY,))]
    if odd == [head] or (not odd and docs.is_checkpoint(head)):
        return None
    where = (f"its rows keep the head's state at step {odd[-1]}" if odd
             else f"its rows keep no state at step {head}")
    return f"the head in its metadata (step {head}) disagrees with its rows ({where})"


def rebuild_state(
    conn: sqlite3.Connection, where: Where, step: int, start: tuple[int, str] | None = None,
) -> tuple[CampaignState, Doc, str, str]:
    """(state, document, canonical text, hash) after `step`: the nearest snapshot (or
    ``start``: a step and its state's text the caller holds) plus the stored deltas, checked
    against the step's recorded hash."""
    start_step = 0
    doc: Any = None
    if start is not None:
        start_step, doc = start[0], load_json(start[1])
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
                    where.path, f"the snapshot at step {s} does not match its checksum "
                    "(hand-edited or corrupted)",
                )
            try:
                doc = load_json(text)
            except ValueError:
                raise DamagedSave(where.path, f"the snapshot at step {s} is not JSON") from None
            start_step = s
    rows = conn.execute(
        "SELECT step, delta, state_hash FROM actions WHERE step > ? AND step <= ? "
        "ORDER BY step",
        (start_step, step),
    ).fetchall()
    if len(rows) != step - start_step:
        raise DamagedSave(where.path, f"steps {start_step + 1}..{step} of the log are missing")
    expected: str | None = None
    for s, delta, digest in rows:
        try:
            ops = load_json(delta)
            doc = dl.patch_in_place(doc, ops) if doc is not None else dl.patch({}, ops)
        except (ValueError, TypeError, dl.DeltaError):
            raise damaged(where, f"the stored change of step {s} is damaged") from None
        expected = digest
    if doc is None:
        raise DamagedSave(where.path, f"no state is stored for step {step}")
    text = docs.canon(doc)
    digest = hash_text(text)
    if expected is not None and digest != expected:
        raise damaged(where, f"the recorded state of step {step} does not rebuild from the save")
    try:
        state = to_state(doc)
    except docs.BadState as exc:
        raise DamagedSave(where.path, f"the state at step {step}: {exc}") from None
    return state, doc, text, digest


def resolve_target(conn: sqlite3.Connection, where: Where, target: int | str, top: int) -> int:
    if isinstance(target, str) and target.strip().isascii() and target.strip().isdigit():
        text = target.strip()
        if len(text) > 12:
            raise no_step(f"{text[:12]}...", top)
        target = int(text)
    if isinstance(target, int):
        if not 1 <= target <= top:
            raise no_step(target, top, hint="`blood campaign log` lists the steps")
        return target
    row = conn.execute("SELECT step FROM marks WHERE name = ?", (target.strip(),)).fetchone()
    if row is None:
        names = [r[0] for r in conn.execute(MARKS + " ORDER BY step")]
        raise NothingToUndo(
            f"there is no mark {target[:60]!r}",
            hint=("marks: " + ", ".join(names)) if names else
            "`blood campaign mark NAME` names the current step",
        )
    if not 1 <= row[0] <= top:
        raise damaged(where, f"the mark {target.strip()[:60]!r} names step {row[0]}, "
                      "which is not in the log")
    return int(row[0])


def no_step(step: object, top: int, hint: str | None = None) -> NothingToUndo:
    return NothingToUndo(f"there is no step {step}; the log has steps 1 to {top}", hint=hint)


def sentence(action: Action, catalog: Callable[[], Catalog]) -> str:
    try:
        cat: Catalog | None = catalog()
    except Exception:  # noqa: BLE001 - a log is shown even without the data pack
        cat = None
    try:
        return action_sentence(action, cat)
    except Exception:  # a sentence bug must not hide the log
        return Action.describe(action)


def log_entries(
    conn: sqlite3.Connection, where: Where, catalog: Callable[[], Catalog], *,
    include_abandoned: bool = False, last: int | None = None,
) -> list[LogEntry]:
    """The log: done steps, then undone ones, then abandoned ones if asked; ``last``: N."""
    cols = "step, type, data, av, state_hash, recorded, app, data_fp"
    since = max(0, max_step(conn) - last) if last is not None else 0
    rows = conn.execute(
        f"SELECT {cols} FROM actions WHERE step > ? ORDER BY step", (since,)
    ).fetchall()
    marked: dict[int, list[str]] = {}
    for n, s in conn.execute(MARKS + " ORDER BY name"):
        marked.setdefault(s, []).append(n)
    gone = (
        conn.execute(f"SELECT {cols} FROM abandoned ORDER BY id").fetchall()
        if include_abandoned
        else []
    )
    head = meta_int(conn, where, "head")
    out = []
    for status_rows, status in ((rows, None), (gone, "abandoned")):
        for step, typ, data, av, digest, recorded, app, fp in status_rows:
            what = "abandoned step" if status else "step"
            if not (type(data) is str and type(av) is int and type(step) is int):
                raise damaged(where, f"{what} {step} of the log holds a field of the wrong type")
            try:
                raw = load_json(data)
            except ValueError:
                raise damaged(where, f"{what} {step} of the log is not valid JSON") from None
            text = None
            if isinstance(raw, dict) and raw.get("type") in MARKERS:
                text = ("Kept without its action: " if raw["type"] == UNREADABLE
                        else "Not proven: ") + marker_sentence(raw) + "."
            if text is None:
                try:
                    text = sentence(parse_stored(data, av), catalog)
                except RuleError as exc:
                    text = f"({typ}: not understood by this version: {exc.message})"
            out.append(LogEntry(
                step, typ, raw, text, recorded, digest,
                status or ("done" if step <= head else "undone"),
                tuple(marked.get(step, ())) if not status else (), app, fp,
            ))
    return out


def actions(conn: sqlite3.Connection, where: Where) -> list[Action]:
    out = []
    for step, data, av in conn.execute("SELECT step, data, av FROM actions ORDER BY step"):
        try:
            out.append(parse_stored(data, av))
        except RuleError as exc:
            raise DamagedSave(where.path, f"step {step} of the log: {exc.message}") from None
    return out


def step_types(conn: sqlite3.Connection) -> list[str]:
    return [str(r[0]) for r in conn.execute("SELECT type FROM actions ORDER BY step")]


def results(conn: sqlite3.Connection, first: int = 1) -> dict[int, dict[str, Any]]:
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


def marks(conn: sqlite3.Connection) -> dict[str, int]:
    return {n: s for n, s in conn.execute(MARKS + " ORDER BY step, name").fetchall()}


def verify(conn: sqlite3.Connection, where: Where, catalog: Catalog,
           held: tuple[int, str]) -> VerifyReport:
    """Check the whole save: every recorded state rebuilds from the deltas to its hash and
    snapshots, every action reads, and the steps of this app and data pack replay to their
    state (older ones are kept as recorded). ``held``: the head's step and hash the caller
    loaded, compared only while the head is still there (another process may record since).
    Read a row at a time, patched in place and re-dumped where changed: memory flat."""
    problems: list[str] = []
    current = (APP, catalog.fingerprint())
    doc: Any = None
    state: CampaignState | None = None  # the previous step's replay, when it matched
    text = head_hash = ""
    texts = dl.CanonText()  # the canonical text of `doc`, re-dumped where a step changed it
    replayed = 0
    kept: list[list[Any]] = []  # [first, last, app, data_fp]
    unkept: list[int] = []  # steps recover kept without their action (docs.MARKERS)
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        problems.append(f"SQLite integrity check: {check}")
    steps = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    head = meta_int(conn, where, "head")
    problem = head_problem(conn, head, max_step(conn))
    if problem:
        problems.append(problem)
    problems += bookkeeping_problems(conn, where)
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
                catalog, step, (data, av, chance), before, (doc, ops), h, state
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
    if head_hash and head == held[0] and head_hash != held[1] and not problems:
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
        not problems, steps, head, head_hash or held[1], problems, replayed, kept_text
    )


def bookkeeping_problems(conn: sqlite3.Connection, where: Where) -> list[str]:
    """What is damaged in the marks, abandoned steps and metadata besides the log."""
    problems = []
    top = max_step(conn)
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
    kept = meta(conn, where)
    for key in ("seed", "revision"):
        try:
            docs.read_int(kept[key])
        except ValueError:
            problems.append(f"the metadata's {key!r} is not a number")
    return problems


def export_doc(conn: sqlite3.Connection, where: Where, state_hash: str,
               state: Doc) -> dict[str, Any]:
    """The JSON document `export` writes and `import` reads (store/transfer.py)."""
    cols = "step, data, av, chance, delta, state_hash, app, data_fp, recorded, exact"
    rows = conn.execute(f"SELECT {cols} FROM actions ORDER BY step").fetchall()
    gone = conn.execute(
        f"SELECT {cols}, abandoned, replaced_at FROM abandoned ORDER BY id"
    ).fetchall()
    named = dict(conn.execute(MARKS + " ORDER BY step").fetchall())
    kept = meta(conn, where)
    seed, head = meta_int(conn, where, "seed"), meta_int(conn, where, "head")

    def step_doc(r: Sequence[Any], what: str = "step") -> dict[str, Any]:
        s, d, av, ch, de, h, app, fp, rec, ex = r[:10]
        if not fields_ok(r, abandoned=what != "step"):
            raise damaged(where, f"{what} {s} of the log holds a field of the wrong type")
        try:
            return {
                "step": s, "action": load_json(d), "action_schema": av,
                "chance": load_json(ch) if ch else [], "delta": load_json(de) if de else None,
                "state_hash": h, "app": app, "data": fp, "recorded": rec, "exact": bool(ex),
            }
        except ValueError:
            raise damaged(
                where, f"{what} {s} of the log is damaged (its stored JSON does not read)",
            ) from None

    return {
        "format": docs.FORMAT,
        "format_version": docs.FORMAT_VERSION,
        "app_version": APP,
        "state_schema": STATE_SCHEMA,
        "exported": docs.now(),
        "name": where.name,
        "mode": kept.get("mode", ""),
        "seed": seed,
        "head": head,
        "state_hash": state_hash,
        "marks": named,
        "actions": [step_doc(r) for r in rows],
        "abandoned": [
            {**step_doc(r, "abandoned step"), "abandoned": r[10], "replaced_at": r[11]}
            for r in gone
        ],
        "state": state,
    }
