"""The save file's tables, its schema version, and the migrations between versions.

One SQLite file per campaign. ``PRAGMA application_id`` marks it as ours and
``PRAGMA user_version`` holds :data:`SCHEMA_VERSION` (both live in the file header, so they are
readable before any table is). Tables (version 3):

* ``meta``      key/value: name, mode, seed, head (number of steps in effect), revision
                (bumped by every write, so a process notices another one's changes), created,
                ``state_schema`` (the shape of the stored states, engine/upcast.py) and
                ``data_fp`` (the data pack fingerprint last seen, for the "your data changed"
                notice).
* ``actions``   the log, one row per step (1-based): the action as JSON (``av``: its action
                schema version), the chance outcomes it drew (JSON, engine/chance.py), the
                **delta** from the state before it to the state after it (store/delta.py; step 1
                holds its whole state), the hash of the state after it, the app version and the
                data pack fingerprint it was recorded with, when, and ``exact`` (0 for a step a
                migration rebuilt without being able to check it). Steps after ``head`` are
                undone and can be redone.
* ``snapshots`` the whole state (canonical JSON) at step 1, every :data:`SNAPSHOT_EVERY` steps
                and at the head: resume reads one row; any other step is the nearest snapshot
                before it plus at most ``SNAPSHOT_EVERY - 1`` deltas. Undo, redo and resume never
                run the rules engine.
* ``marks``     named steps ("before Lucilla").
* ``abandoned`` undone steps that a new action replaced: never silently lost.
* ``datapacks`` the record fingerprints of each data pack seen (to say which records changed).

Migrations: version 1 -> 2 in SQL (:data:`MIGRATIONS`); version 2 -> 3 rebuilds the file
(store/migrations.py), because version 2 kept only some states and English sentences inside them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

APPLICATION_ID = 0x426C6F64  # "Blod"
SCHEMA_VERSION = 3
REBUILD_FROM = 2  # files of this version are rebuilt (store/migrations.py), not altered
SNAPSHOT_EVERY = 50

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE actions (
    step INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    av INTEGER NOT NULL,
    chance TEXT,
    delta TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    app TEXT NOT NULL,
    data_fp TEXT NOT NULL,
    recorded TEXT NOT NULL,
    exact INTEGER NOT NULL DEFAULT 1
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
    av INTEGER NOT NULL,
    chance TEXT,
    delta TEXT,
    state_hash TEXT,
    app TEXT NOT NULL,
    data_fp TEXT NOT NULL,
    recorded TEXT NOT NULL,
    exact INTEGER NOT NULL DEFAULT 1,
    abandoned TEXT NOT NULL,
    replaced_at INTEGER NOT NULL
);
CREATE TABLE datapacks (fp TEXT PRIMARY KEY, prints TEXT NOT NULL, first_step INTEGER NOT NULL);
"""

TABLES = ("meta", "actions", "snapshots", "marks", "abandoned", "datapacks")


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE actions ADD COLUMN state_hash TEXT")
    conn.execute(
        "CREATE TABLE marks (name TEXT PRIMARY KEY, step INTEGER NOT NULL, created TEXT NOT NULL)"
    )
    conn.execute(
        """CREATE TABLE abandoned (
            id INTEGER PRIMARY KEY AUTOINCREMENT, step INTEGER NOT NULL, type TEXT NOT NULL,
            data TEXT NOT NULL, state_hash TEXT, recorded TEXT NOT NULL,
            abandoned TEXT NOT NULL, replaced_at INTEGER NOT NULL)"""
    )
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('revision', '0')")


# from-version -> function that upgrades a file to from-version + 1 (inside a transaction)
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1_to_v2}


def create(conn: sqlite3.Connection) -> None:
    for stmt in SCHEMA.split(";"):
        if stmt.strip():
            conn.execute(stmt)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def migrate(conn: sqlite3.Connection, version: int) -> int:
    """Upgrade in SQL from `version` up to :data:`REBUILD_FROM` (then the rebuild)."""
    while version < REBUILD_FROM:
        step = MIGRATIONS.get(version)
        if step is None:  # pragma: no cover - every old version has a migration
            raise RuntimeError(f"no migration from save schema version {version}")
        step(conn)
        version += 1
        conn.execute(f"PRAGMA user_version = {version}")
    return version
