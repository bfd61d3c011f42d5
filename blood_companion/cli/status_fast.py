"""The fast path of `blood status`: print a cached status document without the engine.

Building the status document needs the state models, the catalog and the engine (a few hundred
milliseconds of imports). The document is a pure function of the campaign's state and the data
pack, so it is cached beside the saves (``saves/.cache/NAME.status.json``) keyed by the state
hash of the save's head step, the data folder and the app version. This module reads the head's
hash straight from the SQLite file (read-only, no lock), and when the cache matches it renders
the document with the standard library only (rich is imported only for a colour terminal).

Anything unusual (no cache, a different hash, a damaged file, ``--json``, extra options) makes
:func:`fast_status` return None and the caller runs the full command, which writes the cache
(or refuses the save with the store's message). Before the cache is trusted, :func:`head_hash`
checks the file the way opening it would, cheaply: a regular file, SQLite's header, our
application id and schema version, the size the header promises, the tables, the metadata, the
head inside the log and the head snapshot's checksum. A cached board is never shown for a save
that ``blood campaign show`` would refuse.
Standard library only at import time.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import sys
from pathlib import Path
from typing import Any

from blood_companion.errors import BloodError
from blood_companion.fileio import check_path, read_text, remove_stale_tmp, write_atomic

SAVE_SUFFIX = ".blood.db"
CACHE_DIR = ".cache"
MAX_CACHE_BYTES = 4 << 20  # a status document is a few KB
# What the store writes in a save's header (store/schema.py; a test keeps them equal). Not
# imported from there: importing the store package costs what this fast path saves.
APPLICATION_ID = 0x426C6F64
SCHEMA_VERSION = 2
TABLES = ("meta", "actions", "snapshots", "marks", "abandoned")
META_KEYS = ("name", "mode", "seed", "head", "revision")


def _version() -> str:
    from blood_companion import __version__

    return __version__


def saves_dir() -> Path:
    return Path(os.environ.get("BLOOD_SAVES_DIR") or "saves")


def cache_path(folder: Path, name: str) -> Path:
    return folder / CACHE_DIR / f"{name}.status.json"


def cache_key(state_hash: str) -> dict[str, str]:
    return {
        "state_hash": state_hash,
        "data_dir": os.environ.get("BLOOD_DATA_DIR") or "",
        "version": _version(),
    }


def write_cache(folder: Path, name: str, doc: dict[str, Any]) -> None:
    """Store the status document for the fast path (failures only cost speed)."""
    path = cache_path(folder, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_tmp(path.parent)  # partial files of a process killed while writing
        text = json.dumps({"key": cache_key(doc["state_hash"]), "doc": doc}, ensure_ascii=False)
        write_atomic(path, text.encode("utf-8", "surrogatepass"))
    except (OSError, ValueError):
        pass


def _campaign(folder: Path) -> str | None:
    """The campaign the command acts on, as session.campaign_name chooses it (or None)."""
    name = os.environ.get("BLOOD_CAMPAIGN")
    if name:
        return name
    try:
        last = read_text(folder / ".last-campaign", limit=4096).strip()
    except BloodError:
        last = ""
    try:
        names = sorted(
            p.name[: -len(SAVE_SUFFIX)]
            for p in folder.iterdir()
            if p.name.endswith(SAVE_SUFFIX) and not p.name.startswith(".")
        )
    except OSError:
        return None
    if last and last in names:
        return last
    return names[0] if len(names) == 1 else None


def _header_ok(path: Path) -> bool:
    """SQLite's 100-byte header: ours, the current schema, and no shorter than it says."""
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


def head_hash(path: Path) -> str | None:
    """The state hash at the save's head step, read without locking or writing, or None when
    the file is not one the store would open as it is (see the module doc)."""
    if not _header_ok(path):
        return None
    try:
        # as_uri() percent-escapes '?', '#' and '%', which would otherwise end the file name.
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=0.5)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            if not set(TABLES) <= tables:
                return None
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if any(key not in meta for key in META_KEYS):
                return None
            head, _, _ = (int(meta[key]) for key in ("head", "revision", "seed"))
            last = conn.execute("SELECT max(step) FROM actions").fetchone()[0] or 0
            if not 1 <= head <= last:
                return None
            row = conn.execute(
                "SELECT state, state_hash FROM snapshots WHERE step = ?", (head,)
            ).fetchone()
            action = conn.execute(
                "SELECT state_hash FROM actions WHERE step = ?", (head,)
            ).fetchone()
        finally:
            conn.close()
    except (sqlite3.Error, ValueError, TypeError, OverflowError, OSError):
        return None
    if row is None or action is None or not isinstance(row[1], str):
        return None
    text, digest = row
    if action[0] is not None and action[0] != digest:
        return None
    import hashlib

    try:
        if hashlib.sha256(str(text).encode()).hexdigest() != digest:
            return None
    except UnicodeEncodeError:
        return None
    return digest


def cached_doc() -> dict[str, Any] | None:
    folder = saves_dir()
    name = _campaign(folder)
    if not name:
        return None
    from blood_companion.names import campaign_name_problem

    if campaign_name_problem(name) is not None:
        return None  # the full command says what is wrong with it
    try:
        check_path(folder / f"{name}{SAVE_SUFFIX}", "the save file")
        digest = head_hash(folder / f"{name}{SAVE_SUFFIX}")
        if digest is None:
            return None
        data = json.loads(read_text(cache_path(folder, name), limit=MAX_CACHE_BYTES))
    except (BloodError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != cache_key(digest):
        return None
    doc = data.get("doc")
    return doc if isinstance(doc, dict) else None


def use_colour(stream: Any = None) -> bool:
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def width() -> int:
    try:
        cols = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        cols = 0
    if cols <= 0:
        try:
            cols = os.get_terminal_size(sys.stdout.fileno()).columns
        except (OSError, ValueError, AttributeError):
            cols = 80
    return max(40, min(cols, 100))


def print_lines(lines: list[tuple[str, str]]) -> None:
    """Plain text when piped or NO_COLOR; rich styles on a colour terminal."""
    from blood_companion.display import clean, console

    if not use_colour():
        from blood_companion.cli.status_view import plain

        sys.stdout.write(clean(plain(lines)))
        sys.stdout.flush()
        return
    from rich.text import Text

    out = console(highlight=False, soft_wrap=True)
    for text, style in lines:
        out.print(Text(text, style=style or ""))


def fast_status(args: list[str]) -> int | None:
    """`blood status` from the cache; None when the full command must run."""
    if args:
        return None
    try:
        doc = cached_doc()
        if doc is None:
            return None
        from blood_companion.cli.status_view import render

        lines = render(doc, width())
    except Exception:  # noqa: BLE001 - a cache we cannot render is no cache: build it anew
        return None
    try:
        print_lines(lines)
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence (cli.entry.unexpected)
        from blood_companion.cli.entry import unexpected

        return unexpected("status", exc)
    return 0
