"""The save file's tables, its schema version, and the migrations between versions.

One SQLite file per campaign. ``PRAGMA application_id`` marks it as ours and
``PRAGMA user_version`` holds :data:`SCHEMA_VERSION` (both live in the file header, so they are
readable before any table is). Tables:

* ``meta``      key/value: name, mode, seed, head (number of steps in effect), revision
                (bumped by every write, so a process notices another one's changes), created.
* ``actions``   the log: step (1-based), type, the action as JSON, the state hash after it,
                when it was recorded. Steps after ``head`` are undone and can be redone.
* ``snapshots`` the state (canonical JSON) at some steps: every :data:`SNAPSHOT_EVERY` steps and
                at the head, so resume reads one row and undo replays at most a few actions.
* ``marks``     named steps ("before Lucilla").
* ``abandoned`` undone steps that a new action replaced: never silently lost.

A migration moves a file from version ``v`` to ``v + 1``; :func:`migrate` runs them in order
inside one transaction (the store takes a backup first).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

APPLICATION_ID = 0x426C6F64  # "Blod"
SCHEMA_VERSION = 2
SNAPSHOT_EVERY = 50

SCHEMA = """
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
# branch, no per-step state hashes). Kept so the migration test can build such a file.
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

TABLES = ("meta", "actions", "snapshots", "marks", "abandoned")


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
    """Create the current schema in an empty database (caller holds the transaction)."""
    for stmt in SCHEMA.split(";"):
        if stmt.strip():
            conn.execute(stmt)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def migrate(conn: sqlite3.Connection, version: int) -> int:
    """Upgrade from `version` to :data:`SCHEMA_VERSION` (caller holds the transaction)."""
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:  # pragma: no cover - every old version has a migration
            raise RuntimeError(f"no migration from save schema version {version}")
        step(conn)
        version += 1
        conn.execute(f"PRAGMA user_version = {version}")
    return version
