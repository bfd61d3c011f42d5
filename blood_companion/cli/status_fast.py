"""`blood status` from its stored document: the names the tests of the fast path use.

The cache, its key and the fast path are those of every view of a campaign (``cli/views.py``);
the document is the engine's board (``engine/board_view.py``), drawn with
``cli/status_view.py``. Standard library only at import time.
"""

from __future__ import annotations

from typing import Any

from blood_companion.cli import views
from blood_companion.cli.settings import Settings
from blood_companion.store.peek import head_hash

__all__ = ["cached_doc", "head_hash"]


def cached_doc(settings: Settings | None = None) -> dict[str, Any] | None:
    """The stored status document of the selected campaign, if it is still true."""
    return views.cached("status", settings)
