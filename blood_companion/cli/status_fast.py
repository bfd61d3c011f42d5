"""The fast path of `blood status`: print a cached status document without the engine.

Building the status document needs the state models, the catalog and the engine (a few hundred
milliseconds of imports). The document is a pure function of the campaign's state and the data
pack, so it is cached beside the saves (``saves/.cache/NAME.status.json``) keyed by the state
hash of the save's head step, the data folder and the app version. This module reads the head's
hash straight from the SQLite file (read-only, no lock), and when the cache matches it renders
the document with the standard library only (rich is imported only for a colour terminal).

Anything unusual (no cache, a different hash, a damaged file, ``--json``, extra options) makes
:func:`fast_status` return None and the caller runs the full command, which writes the cache
(or refuses the save with the store's message). Before the cache is trusted, the store's
:func:`~blood_companion.store.peek.head_hash` checks the file the way opening it would, cheaply,
so a cached board is never shown for a save that ``blood campaign show`` would refuse.
Standard library only at import time.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from blood_companion.cli.settings import Settings, current
from blood_companion.errors import BloodError
from blood_companion.fileio import check_path, read_text, remove_stale_tmp, write_atomic
from blood_companion.store.peek import head_hash

SAVE_SUFFIX = ".blood.db"
CACHE_DIR = ".cache"
MAX_CACHE_BYTES = 4 << 20  # a status document is a few KB


def _version() -> str:
    from blood_companion import __version__

    return __version__


def cache_path(folder: Path, name: str) -> Path:
    return folder / CACHE_DIR / f"{name}.status.json"


def cache_key(state_hash: str, settings: Settings) -> dict[str, str]:
    from blood_companion.content.paths import overlay_stamp

    return {
        "state_hash": state_hash,
        "data_dir": settings.data_path or "",
        # the owner's cards (transcribed or hand-written) change what the status shows
        "data_stamp": overlay_stamp(settings.data_path),
        "version": _version(),
    }


def write_cache(folder: Path, name: str, doc: dict[str, Any]) -> None:
    """Store the status document for the fast path (failures only cost speed)."""
    path = cache_path(folder, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_tmp(path.parent)  # partial files of a process killed while writing
        key = cache_key(doc["state_hash"], current())
        text = json.dumps({"key": key, "doc": doc}, ensure_ascii=False)
        write_atomic(path, text.encode("utf-8", "surrogatepass"))
    except (OSError, ValueError):
        pass


def _campaign(folder: Path, settings: Settings) -> str | None:
    """The campaign the command acts on, as session.campaign_name chooses it (or None)."""
    name = settings.campaign
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


def cached_doc(settings: Settings | None = None) -> dict[str, Any] | None:
    settings = settings if settings is not None else current()
    folder = Path(settings.saves_path)
    name = _campaign(folder, settings)
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
    if not isinstance(data, dict) or data.get("key") != cache_key(digest, settings):
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


def fast_status(args: list[str], settings: Settings) -> int | None:
    """`blood status` from the cache; None when the full command must run."""
    if args:
        return None
    try:
        doc = cached_doc(settings)
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
