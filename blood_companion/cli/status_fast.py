"""`blood status` from its stored document (the view cache of ``cli/views.py``).

Kept for the names other modules and tests use; the cache, its key and the fast path are those
of every view of a campaign (``cli/views.py``); the document is the engine's board
(``engine/board_view.py``), drawn with ``cli/status_view.py`` and printed with
``cli/textview.py``. Standard library only at import time.
"""

from __future__ import annotations

from typing import Any

from blood_companion.cli import views
from blood_companion.cli.settings import Settings
from blood_companion.cli.textview import print_lines, use_colour, width
from blood_companion.store.peek import head_hash

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "cache_path",
    "cached_doc",
    "fast_status",
    "head_hash",
    "print_lines",
    "use_colour",
    "width",
    "write_cache",
]


def cache_path(folder: Path, name: str) -> Path:
    return views.cache_path(folder, name, "status")


def write_cache(folder: Path, name: str, doc: dict[str, Any]) -> None:
    """Store the status document for the fast path (failures only cost speed)."""
    views.store_view(folder, name, "status", doc)


def cached_doc(settings: Settings | None = None) -> dict[str, Any] | None:
    return views.cached("status", settings)


def fast_status(args: list[str], settings: Settings) -> int | None:
    """`blood status` from the cache; None when the full command must run."""
    return views.fast_view(["status", *args], settings)
