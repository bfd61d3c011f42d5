"""Save files written directly, for tests: today's layout in one transaction (60 fsynced
commits are slow), and the layouts of app 0.1.0 (schema versions 1 and 2) as that app wrote
them: chance from ``random.Random``, night logs as sentences, states with schema_version 1."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from blood_companion import __version__
from blood_companion.engine import words
from blood_companion.engine.actions import Action, seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.flow import apply
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import ACTION_SCHEMA
from blood_companion.store import schema
from blood_companion.store.docs import StepSource, canon, chain_rows, hash_text, state_doc
from blood_companion.store.files import build_file

# Version 2 (app 0.1.0): the log with a state hash per step, snapshots every 50 steps and at
# the head, marks and abandoned steps. Kept to build such files.
SCHEMA_V2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE actions (
    step INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    state_hash TEXT,
    recorded TEXT NOT NULL
);
CREATE TABLE snapshots (
    step INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    state_hash TEXT NOT NULL
);
CREATE TABLE marks (name TEXT PRIMARY KEY, step INTEGER NOT NULL, created TEXT NOT NULL);
CREATE TABLE abandoned (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    step INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    state_hash TEXT,
    recorded TEXT NOT NULL,
    abandoned TEXT NOT NULL,
    replaced_at INTEGER NOT NULL
);
"""

# Version 1, the first layout: the log, snapshots and metadata only (no marks, no abandoned
# branch, no per-step state hashes). Kept to build such files.
SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE actions (
    step INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    recorded TEXT NOT NULL
);
CREATE TABLE snapshots (
    step INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    state_hash TEXT NOT NULL
);
"""


def write_today(
    saves_dir: Path, name: str, actions: Sequence[Action], catalog: Any, *,
    head: int | None = None, replace: bool = False,
) -> Path:
    """A save of `actions` as this app records them (fresh chance, every state kept)."""
    state = CampaignState()
    sources, docs = [], []
    for k, a in enumerate(actions):
        chance = Chance.fresh(seed_for(state, a), k)
        state = apply(state, a, catalog, k, chance)
        sources.append(StepSource(a.type, a.model_dump_json(), ACTION_SCHEMA,
                                  canon(chance.outcomes) if chance.outcomes else None,
                                  __version__, catalog.fingerprint(), ""))
        docs.append(state_doc(state))
    head = head or len(actions)
    rows, snaps = chain_rows(sources, docs, head=head)
    first = docs[0]
    return build_file(
        saves_dir, name, rows, head=head, snapshots=snaps,
        meta={"mode": first["mode"], "seed": str(first["seed"]),
              "data_fp": catalog.fingerprint()},
        datapacks={catalog.fingerprint(): (catalog.record_prints(), 1)}, replace=replace,
    )


def v1_doc(state: CampaignState, catalog: Any) -> dict[str, Any]:
    """A state as app 0.1.0 stored it."""
    doc = state_doc(state)
    doc["schema_version"] = 1
    if state.night is not None:
        doc["night"]["log"] = [
            {"turn": e.turn, "phase": e.phase, "text": words.render(e, catalog)}
            for e in state.night.log
        ]
        doc["night"]["reason"] = words.night_reason(state.night, catalog) if (
            state.night.reason) else ""
    from blood_companion.store.migrations import _v1_shape

    return _v1_shape(doc)  # without the fields later versions added


def legacy_states(actions: Sequence[Action], catalog: Any) -> list[CampaignState]:
    """The states app 0.1.0 reached (its generator: random.Random per step)."""
    state, out = CampaignState(), []
    for k, a in enumerate(actions):
        state = apply(state, a, catalog, k, Chance.legacy(seed_for(state, a), k))
        out.append(state)
    return out


def write_legacy(path: Path, actions: Sequence[Action], catalog: Any, *, version: int,
                 head: int | None = None) -> list[CampaignState]:
    """A save of `actions` as app 0.1.0 wrote it (schema version 1 or 2). Returns the states."""
    states = legacy_states(actions, catalog)
    head = head or len(actions)
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V1 if version == 1 else SCHEMA_V2)
    conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {version}")
    first = states[0]
    meta = [("name", first.name), ("mode", first.mode), ("seed", str(first.seed)),
            ("head", str(head)), ("created", "2025-01-01T00:00:00+00:00")]
    if version == 2:
        meta.append(("revision", "0"))
    conn.executemany("INSERT INTO meta VALUES (?, ?)", meta)
    for k, (a, st) in enumerate(zip(actions, states, strict=True), start=1):
        text = canon(v1_doc(st, catalog))
        if version == 1:
            conn.execute("INSERT INTO actions VALUES (?, ?, ?, ?)",
                         (k, a.type, a.model_dump_json(), "2025-01-01T00:00:00+00:00"))
        else:
            conn.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                         (k, a.type, a.model_dump_json(), hash_text(text),
                          "2025-01-01T00:00:00+00:00"))
        if k % 50 == 0 or k == head:
            conn.execute("INSERT INTO snapshots VALUES (?, ?, ?)", (k, text, hash_text(text)))
    conn.commit()
    conn.close()
    return states
