"""The save file's tables, its schema version, and the migrations between versions.

One SQLite file per campaign; ``application_id`` marks it as ours and ``user_version`` holds
:data:`SCHEMA_VERSION` (in the file header, readable before any table). Tables (version 3):

* ``meta``: name, mode, seed, head (steps in effect), revision (bumped by every write, so a
  process notices another's), created, ``state_schema`` (engine/upcast.py), ``data_fp``.
* ``actions``: the log, one row per step (1-based): the action (``av``: its schema), its chance
  outcomes, the **delta** from the state before (store/delta.py; step 1: the whole state), the
  hash after, app, data pack, when, and ``exact`` (0: rebuilt by a migration without a check).
  Steps after ``head`` are undone and can be redone.
* ``snapshots``: whole states at step 1, every :data:`SNAPSHOT_EVERY` steps and the head.
* ``marks`` (named steps), ``abandoned`` (undone steps a new action replaced: never lost),
  ``datapacks`` (each pack's record fingerprints, to say which records changed).

Version 1 -> 2 is SQL (:data:`MIGRATIONS`); 2 -> 3 rebuilds the file (store/migrations.py).
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


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Upgrade in SQL from `version` up to :data:`REBUILD_FROM` (then the rebuild)."""
    while version < REBUILD_FROM:  # every old version has a migration (tested)
        MIGRATIONS[version](conn)
        version += 1
        conn.execute(f"PRAGMA user_version = {version}")
