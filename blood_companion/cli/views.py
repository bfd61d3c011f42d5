"""The one stored document of a campaign: its status (the board, ``engine/board_view.py``'s,
with the sentences of the last steps), kept after every step so that the next look at the
table (`blood status`, `blood play`'s first board, the served board and `blood table` on a
refresh) needs no rebuilding while the save is unchanged.

The file is ``SAVES/.cache/NAME.status.json``, keyed by the head the open store drew it from
(state hash, revision, step), the data folder and the app version; anything unusual reads as
"none stored" and the document is built anew.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from blood_companion import __version__
from blood_companion.cli.settings import Settings, current
from blood_companion.content.paths import overlay_stamp
from blood_companion.display import json_text
from blood_companion.errors import BloodError
from blood_companion.fileio import read_text, remove_stale_tmp, write_atomic

CACHE_DIR = ".cache"
MAX_CACHE_BYTES = 4 << 20  # the document is a few KB


def cache_path(folder: Path, name: str) -> Path:
    return folder / CACHE_DIR / f"{name}.status.json"


def cache_key(head: tuple[str, int, int], settings: Settings) -> dict[str, Any]:
    """What the stored document was drawn from: the head's state hash, the save's revision and
    the head step, with the data folder and the app version."""
    return {
        "state_hash": head[0],
        "revision": head[1],
        "head": head[2],
        "data_dir": settings.data_path or "",
        # the owner's cards (transcribed or hand-written) change what the board shows
        "data_stamp": overlay_stamp(settings.data_path),
        "version": __version__,
    }


def print_doc(doc: Any) -> None:
    """Print one JSON document on stdout (no rich markup, no wrapping; every command's
    ``--json``). Every document says whether the command did what was asked: ``"ok"`` comes
    first (true unless the document already says otherwise)."""
    if isinstance(doc, dict) and "ok" not in doc:
        doc = {"ok": True, **doc}
    sys.stdout.write(json_text(doc) + "\n")
    sys.stdout.flush()


def keep(store: Any, doc: dict[str, Any]) -> None:
    """Keep the status document drawn from the open campaign ``store`` (a CampaignStore),
    keyed by the head step, state hash and revision the store holds: the key says what the
    document was drawn from, never what the file holds by the time it is written (another
    process may have recorded a step since). A failure only costs the next look its speed."""
    drawn = store.drawn_from()
    if drawn is None:
        return
    path = cache_path(store.saves_dir, store.name)
    kept = {"key": cache_key(drawn, current()), "doc": doc}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent.is_symlink():  # the cache folder is kept inside the saves folder only
            return
        remove_stale_tmp(path.parent)  # partial files of a process killed while writing
        text = json.dumps(kept, ensure_ascii=False)
        write_atomic(path, text.encode("utf-8", "surrogatepass"))
    except (OSError, ValueError, BloodError):
        pass


def stored(store: Any) -> dict[str, Any] | None:
    """The stored status of the open campaign ``store`` while it is true of the head the
    store holds (as :func:`keep` keyed it), else None."""
    drawn = store.drawn_from()
    path = cache_path(store.saves_dir, store.name)
    if drawn is None or path.parent.is_symlink():  # (never read where a link out points)
        return None
    try:
        data = json.loads(read_text(path, limit=MAX_CACHE_BYTES))
    except (BloodError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != cache_key(drawn, current()):
        return None
    doc = data.get("doc")
    return doc if isinstance(doc, dict) else None
