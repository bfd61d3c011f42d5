"""A cheap look at a save without opening it through the store (standard library only).

`blood status` answers from a cached document when the save's head is unchanged: this reads
the head's state hash read-only after the checks CampaignStore makes (header, application id,
schema, size, tables, metadata, head, state shape, checksum), and None for any save the store
would refuse or rebuild, so a cached board is never shown for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import stat
from pathlib import Path

from blood_companion.engine.upcast import STATE_SCHEMA
from blood_companion.store.schema import APPLICATION_ID, SCHEMA_VERSION, SNAPSHOT_EVERY, TABLES

META_KEYS = ("name", "mode", "seed", "head", "revision")
_INT = re.compile(r"-?[0-9]{1,18}")  # a number as the store reads it (docs.read_int)


def _header_ok(path: Path) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return False
        header = os.read(fd, 100)
    except OSError:
        return False
    finally:
        os.close(fd)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return False
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    user_version = int.from_bytes(header[60:64], "big")
    app_id = int.from_bytes(header[68:72], "big")
    valid_count = header[24:28] == header[92:96]  # else SQLite ignores the page count
    return (
        app_id == APPLICATION_ID
        and user_version == SCHEMA_VERSION
        and page_size >= 512
        and (not valid_count or st.st_size >= page_size * pages)
        and st.st_size % page_size == 0
    )


def head_key(path: Path) -> tuple[str, int, int] | None:
    """The state hash at the save's head, its revision (changed by every write) and its head
    step, read without locking or writing; None for a file the store would not open as it is."""
    if not _header_ok(path):
        return None
    try:
        # as_uri() percent-escapes '?', '#' and '%', which would otherwise end the file name.
        uri = path.resolve().as_uri() + "?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=0.5)) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            if not set(TABLES) <= tables:
                return None
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if any(key not in meta for key in META_KEYS):
                return None
            if meta.get("state_schema", "") != str(STATE_SCHEMA):
                return None  # the store upgrades (or refuses) it first
            if not all(isinstance(meta[k], str) and _INT.fullmatch(meta[k])
                       for k in ("head", "revision", "seed")):
                return None  # the store refuses other digits ('٢٥٠') as damage
            head, revision = int(meta["head"]), int(meta["revision"])
            last = conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0
            if not 1 <= head <= last:
                return None
            odd = [r[0] for r in conn.execute(
                "SELECT step FROM snapshots WHERE step != 1 AND step % ? != 0",
                (SNAPSHOT_EVERY,))]
            if odd != [head] and (odd or (head != 1 and head % SNAPSHOT_EVERY)):
                return None  # a head the rows disagree with (the store refuses it)
            row = conn.execute(
                "SELECT state, state_hash FROM snapshots WHERE step = ?", (head,)
            ).fetchone()
            action = conn.execute(
                "SELECT state_hash FROM actions WHERE step = ?", (head,)
            ).fetchone()
    except (sqlite3.Error, ValueError, TypeError, OverflowError, OSError):
        return None
    if row is None or action is None or not isinstance(row[1], str):
        return None
    text, digest = row
    if action[0] is not None and action[0] != digest:
        return None
    try:
        if hashlib.sha256(str(text).encode()).hexdigest() != digest:
            return None
    except UnicodeEncodeError:
        return None
    return digest, revision, head
