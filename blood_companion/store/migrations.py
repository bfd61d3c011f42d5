"""Saves of older versions, brought to today's file layout (and the checks that tell them).

Opening a save (:func:`open_current`) checks its header (:func:`check_header`) and upgrades
an older one under its write lock (:func:`upgrade`): a backup, the rebuilt file written beside
it and moved over it. One upgrade per save; other processes wait and reopen the upgraded file.

**Version 1 files** are migrated in SQL in a scratch copy, then rebuilt as version 2 files.

**Version 2 files (app 0.1.0)** kept a state hash per step and whole states only every 50 steps
and at the head; their night log held English sentences, and their chance came from
``random.Random`` in the engine's call order. :func:`rebuild_v2` works each state out once:

1. Every step is re-run with the rules engine and app 0.1.0's generator
   (:class:`~blood_companion.engine.chance.LegacyRandom`), which gives the same draws as then;
   the chance outcomes are recorded with the step from now on.
2. Each rebuilt state is checked against the hash app 0.1.0 recorded for it, by writing it the
   way 0.1.0 did (sentences in the log). A step that matches is exactly what the table saw.
3. At each state 0.1.0 kept whole (every 50 steps, the head), the rebuilt state must equal it
   (the log's wording aside); the kept state is used where it does not, so the head and every
   50th step are always exactly as recorded. Steps between two kept states that cannot be
   checked either way (a later version of the rules played them differently) are kept as the
   rules rebuild them and marked ``exact = 0``; ``blood campaign verify`` names them.

**Newer state shapes** (``engine/upcast.py``): :func:`upcast_file` rewrites every stored state
of a file in today's shape (the deltas are worked out again), after a backup.
"""
from __future__ import annotations

import contextlib
import copy
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blood_companion.engine.actions import seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, parse_action
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import STATE_SCHEMA, upcast_action, upcast_state
from blood_companion.engine.words.sentences import night_reason, render
from blood_companion.store import delta as dl
from blood_companion.store import docs, schema
from blood_companion.store import repository as repo
from blood_companion.store import writer as wr
from blood_companion.store.docs import Doc, Row, canon, hash_text, load_json, to_state
from blood_companion.store.errors import DamagedSave, StoreError
from blood_companion.store.files import build_file
from blood_companion.store.repository import APP

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

LEGACY_APP = "0.1.0"
LEGACY_AV = 1  # the action schema of its steps (kept with them: upcast when read)


def open_current(store: wr.Writer) -> None:
    for _ in range(wr.MAX_REOPEN):
        if not check_and_migrate(store):
            return
        store._reconnect()
    raise wr.kept_replacing(f"the campaign {store.name!r}")


def check_and_migrate(store: wr.Writer) -> bool:
    """Check the header and upgrade an older file; True when it was replaced (reopen it)."""
    version, state_schema = check_header(store)
    if version == schema.SCHEMA_VERSION and state_schema in (None, str(STATE_SCHEMA)):
        return False
    if version < schema.SCHEMA_VERSION and store._catalog_source is None:
        raise StoreError(
            f"the campaign {store.name!r} was saved by an older Blood Companion and must "
            "be upgraded first",
            hint=f"`blood campaign show --campaign {store.name}` upgrades it",
        )
    return upgrade(store)


def check_header(store: wr.Writer) -> tuple[int, str | None]:
    """The file's schema version and state schema (DamagedSave: not a save this app reads)."""
    if not store._conn.in_transaction:
        store._in_place()  # a file moved away since it was connected: the new one
        # Not under a lock: Python's open/close of the file would drop SQLite's locks
        # (POSIX locks belong to the process), so the size is checked before any is held.
        with store._errors():
            wr.check_size(store.path, store._conn, store._ident)
    with store._reading() as conn:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id != schema.APPLICATION_ID:
            raise DamagedSave(
                store.path, "it is not a Blood Companion save (unknown application id)"
            )
        if version > schema.SCHEMA_VERSION:
            raise DamagedSave(
                store.path,
                f"it was written by a newer Blood Companion (save schema version "
                f"{version}; this app, version {APP}, reads up to "
                f"{schema.SCHEMA_VERSION})",
                hint="update blood-companion, or `blood campaign recover` to go back "
                "to the newest backup this version can read",
            )
        if version < 1:
            raise DamagedSave(store.path, f"unknown save schema version {version}")
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version < schema.SCHEMA_VERSION and "actions" in tables and "delta" in {
                r[1] for r in conn.execute("PRAGMA table_info(actions)")}:
            # an older version number on today's tables: migrating it again would restamp
            # every step and rewrite every hash
            raise DamagedSave(
                store.path, f"its schema version ({version}) is older than its tables, "
                f"which are version {schema.SCHEMA_VERSION}'s (the header was edited)",
                hint=repo.damaged_hint(store.name),
            )
        state_schema = None
        if version == schema.SCHEMA_VERSION and "meta" in tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'state_schema'").fetchone()
            state_schema = row[0] if row else None
    if version == schema.SCHEMA_VERSION:
        missing = [t for t in schema.TABLES if t not in tables]
        if missing:
            raise DamagedSave(store.path, f"table {missing[0]!r} is missing")
        if state_schema is not None and not (
            isinstance(state_schema, str) and state_schema.isascii()
            and state_schema.isdigit() and len(state_schema) < 10
        ):
            raise DamagedSave(
                store.path, f"its state schema {str(state_schema)[:20]!r} is not a number"
            )
        if state_schema is not None and int(state_schema) > STATE_SCHEMA:
            raise DamagedSave(
                store.path,
                f"its states were written by a newer Blood Companion (state schema "
                f"{state_schema}; this app, version {APP}, reads up to {STATE_SCHEMA})",
                hint="update blood-companion",
            )
    return version, state_schema


def upgrade(store: wr.Writer) -> bool:
    """Upgrade an older file under its write lock (True: replaced, by us or another)."""
    conn = store._conn
    with store._errors():
        conn.execute(f"PRAGMA busy_timeout = {int(max(store._timeout, wr.UPGRADE_TIMEOUT) * 1000)}")
        try:
            conn.execute("BEGIN IMMEDIATE")
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(store._timeout * 1000)}")
        tmp: Path | None = None
        try:
            if wr.file_ident(store.path) != store._ident:
                return True  # upgraded (or replaced) by another process meanwhile
            version, state_schema = check_header(store)
            if version == schema.SCHEMA_VERSION:
                if state_schema in (None, str(STATE_SCHEMA)):  # pragma: no cover
                    return False
                store.backup(f"before state schema {STATE_SCHEMA}")
                tmp = upcast_file(store)
            else:
                store.backup(f"before migration from v{version}")
                if version < schema.REBUILD_FROM:
                    tmp = rebuild_old(store, version)
                else:
                    tmp = rebuild_v2(store)
            os.replace(tmp, store.path)
            tmp = None
            return True
        finally:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def rebuild_old(store: wr.Writer, version: int) -> Path:
    """A file older than REBUILD_FROM, migrated in SQL in a scratch copy (never in place: a
    journal of it could meet the new file), then rebuilt."""
    scratch = store.saves_dir / f".{store.name}.{os.getpid()}.old"
    own = store._conn
    copy = sqlite3.connect(scratch, isolation_level=None)
    try:
        src = wr.read_only(store.path, store._timeout)
        try:
            src.backup(copy)
        finally:
            src.close()
        copy.execute("BEGIN IMMEDIATE")
        schema.migrate(copy, version)
        copy.execute("COMMIT")
        store._conn = copy
        return rebuild_v2(store)
    finally:
        store._conn = own
        copy.close()
        with contextlib.suppress(OSError):
            scratch.unlink()


@dataclass(frozen=True)
class LegacyStep:  # one step of an app 0.1.0 log
    type: str
    data: str
    state_hash: str | None
    recorded: str


@dataclass(frozen=True)
class Rebuilt:
    doc: Doc
    chance: str | None
    exact: bool
    differs: bool = False  # a kept state the rules rebuilt differently (the kept one is used)


class _V1View:
    """A state written the way app 0.1.0 wrote it (for its recorded hashes)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._texts: dict[int, tuple[Any, str]] = {}

    def text(self, entry: Any) -> str:
        hit = self._texts.get(id(entry))
        if hit is None or hit[0] is not entry:
            hit = (entry, render(entry, self.catalog))
            self._texts[id(entry)] = hit
        return hit[1]

    def hash(self, state: CampaignState) -> str:
        doc = docs.state_doc(state)
        doc["schema_version"] = 1
        night = doc.get("night")
        if night is not None and state.night is not None:
            night["log"] = [
                {"turn": e.turn, "phase": e.phase, "text": self.text(e)} for e in state.night.log
            ]
            night["reason"] = (
                night_reason(state.night, self.catalog) if state.night.reason else ""
            )
        _v1_shape(doc)
        return hash_text(canon(doc))


# Fields app 0.1.0's states did not have (added by later rules): taken out before comparing a
# rebuilt state with what 0.1.0 recorded, so a step the rules still play the same way matches.
_V1_NIGHT = ("activated", "rest_exhaust", "weakness_trophies")
_V1_PARTS = {"queue": ("miniature", "miniatures", "confirmed", "owner", "id"),
             "pending": ("about", "cards", "job"), "chain": ("quick_used",)}
_V1_TROUPER = ("traps", "whispers", "unmarked_wounds", "bites_on_depleted")


def _v1_shape(doc: Doc) -> Doc:
    for t in doc.get("troupers") or []:
        if isinstance(t, dict):
            for k in _V1_TROUPER:
                t.pop(k, None)
    night = doc.get("night")
    if isinstance(night, dict):
        for k in _V1_NIGHT:
            night.pop(k, None)
        if isinstance(night.get("activation"), dict):
            night["activation"].pop("area_hits", None)
        for part, fields in _V1_PARTS.items():
            for item in night.get(part) or []:
                if isinstance(item, dict):
                    for k in fields:
                        item.pop(k, None)
    return doc


def _normal(doc: Doc) -> Doc:
    """A state without the log's wording and the fields app 0.1.0 did not have."""
    doc = copy.deepcopy(doc)
    night = doc.get("night")
    if isinstance(night, dict):
        night["log"] = [[e.get("turn"), e.get("phase")] for e in night.get("log", [])]
        night.pop("reason", None)
    return _v1_shape(doc)


def rebuild_steps(
    steps: Sequence[LegacyStep], kept: dict[int, Doc], catalog: Catalog
) -> list[Rebuilt]:
    """Every step's state of an app 0.1.0 log (module doc); `kept`: its whole states by step."""
    view = _V1View(catalog)
    exact_docs = {s: upcast_state(d) for s, d in kept.items()}
    out: list[Rebuilt] = []
    segment: list[int] = []  # indexes in `out` since the last kept state
    state = CampaignState()
    broken = False
    for k, step in enumerate(steps, start=1):
        doc: Doc | None = None
        chance_json: str | None = None
        own_hash_ok = False
        if not broken:
            try:
                raw = load_json(step.data)
                action = parse_action(upcast_action(raw, LEGACY_AV) if isinstance(raw, dict)
                                      else step.data)
                chance = Chance.legacy(seed_for(state, action), k - 1)
                new = apply(state, action, catalog, k - 1, chance)
            except (RuleError, ValueError):
                broken = True
            else:
                state = new
                doc = docs.state_doc(new)
                chance_json = canon(chance.outcomes) if chance.outcomes else None
                own_hash_ok = step.state_hash is not None and view.hash(new) == step.state_hash
        if doc is None:  # the rules no longer play this step: keep the last state
            doc = copy.deepcopy(out[-1].doc) if out else docs.state_doc(CampaignState())
        if k in exact_docs:
            truth = exact_docs[k]
            segment_ok = not broken and _normal(doc) == _normal(truth)
            for i in segment:
                if not out[i].exact and segment_ok:
                    out[i] = Rebuilt(out[i].doc, out[i].chance, True)
            segment = []
            differs = not broken and not segment_ok
            if not segment_ok:
                doc = truth
                try:
                    state = to_state(truth)
                except docs.BadState:
                    state = CampaignState()
                broken = False
            out.append(Rebuilt(doc, chance_json, True, differs))
            continue
        out.append(Rebuilt(doc, chance_json, own_hash_ok))
        segment.append(len(out) - 1)
    return out


def legacy_rows(steps: Sequence[LegacyStep], rebuilt: Sequence[Rebuilt], head: int
                ) -> tuple[list[Row], dict[int, tuple[str, str]]]:
    sources = [
        docs.StepSource(s.type, s.data, LEGACY_AV, r.chance, LEGACY_APP, "", s.recorded,
                   int(r.exact))
        for s, r in zip(steps, rebuilt, strict=True)
    ]
    return docs.chain_rows(sources, [r.doc for r in rebuilt], head=head)


def legacy_row(step: int, type_: str, data: str, recorded: str) -> Row:
    """An abandoned step of an app 0.1.0 log (no delta, hash or chance was recorded)."""
    return Row(step, type_, data, LEGACY_AV, None, "[]", "", LEGACY_APP, "", recorded, 0)


def _tables(store: wr.Writer, *queries: str
            ) -> tuple[dict[Any, Any], dict[Any, Any], list[list[Any]]]:
    with store._reading() as conn:
        return (dict(conn.execute("SELECT key, value FROM meta").fetchall()),
                dict(conn.execute("SELECT name, step FROM marks").fetchall()),
                [conn.execute(query).fetchall() for query in queries])


def rebuild_v2(store: wr.Writer) -> Path:
    """An app 0.1.0 save rebuilt in a new temporary file (the caller holds the lock)."""
    meta, marks, (rows, kept_rows, gone) = _tables(
        store, "SELECT step, type, data, state_hash, recorded FROM actions ORDER BY step",
        "SELECT step, state FROM snapshots",
        "SELECT step, type, data, recorded, abandoned, replaced_at FROM abandoned ORDER BY id",
    )
    try:
        head = int(meta["head"])
        kept = {int(s): load_json(text) for s, text in kept_rows}
    except (KeyError, ValueError, TypeError):
        raise DamagedSave(store.path, "its metadata or snapshots cannot be read") from None
    if [r[0] for r in rows] != list(range(1, len(rows) + 1)) or not 1 <= head <= len(rows):
        raise DamagedSave(store.path, "its log has gaps")
    steps = [LegacyStep(t, d, h, rec) for _, t, d, h, rec in rows]
    new_rows, snaps = legacy_rows(steps, rebuild_steps(steps, kept, store.catalog), head)
    abandoned = [(legacy_row(s, t, d, rec), when, at) for s, t, d, rec, when, at in gone]
    keep_meta = {k: v for k, v in meta.items() if k in ("name", "mode", "seed", "created")}
    return build_file(
        store.saves_dir, store.name, new_rows, head=head, snapshots=snaps,
        meta={**keep_meta, "data_fp": ""}, marks=marks, abandoned=abandoned, install=False,
    )


def upcast_file(store: wr.Writer) -> Path:
    """A file of older state shapes rewritten in a new temporary file (the caller holds the
    lock)."""
    meta, marks, (rows, gone, packs) = _tables(
        store, "SELECT step, type, data, av, chance, delta, app, data_fp, recorded, exact "
        "FROM actions ORDER BY step",
        f"SELECT {docs.ROW_COLUMNS}, abandoned, replaced_at FROM abandoned ORDER BY id",
        "SELECT fp, prints, first_step FROM datapacks",
    )
    states: list[Doc] = []
    raw: Any = None
    for step, _, _, _, _, delta, *_ in rows:
        try:
            raw = dl.patch(raw if raw is not None else {}, load_json(delta))
        except (ValueError, dl.DeltaError):
            raise DamagedSave(store.path, f"the stored change of step {step} is damaged") from None
        states.append(upcast_state(raw))
    sources = [docs.StepSource(t, d, av, ch, app, fp, rec, ex)
               for _, t, d, av, ch, _, app, fp, rec, ex in rows]
    head = int(meta["head"])
    new_rows, snaps = docs.chain_rows(sources, states, head=head)
    abandoned = [(Row(*r[:11]), r[11], r[12]) for r in gone]
    return build_file(
        store.saves_dir, store.name, new_rows, head=head, snapshots=snaps,
        meta={**meta, "state_schema": str(STATE_SCHEMA)}, marks=marks, abandoned=abandoned,
        datapacks={fp: (load_json(p), first) for fp, p, first in packs}, install=False,
    )
