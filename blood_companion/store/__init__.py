"""Saves: one SQLite file per campaign; the only code that touches save files.

* :class:`CampaignStore` — open/create a campaign, ``record(action)``, undo/redo/marks, log,
  verify, ``backup(reason)``, ``export_doc()``.
* :mod:`transfer` — export/import as readable JSON; :mod:`manage` — list, delete, recover.
* :mod:`schema` — tables, schema version and migrations; :mod:`saves` — folder layout;
  :mod:`legacy` — saves of older versions; :mod:`peek` — a cheap read-only look at a save's head.

Names are loaded on first use, so ``blood_companion.store.peek`` stays light to import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.lazy import lazy_names

if TYPE_CHECKING:
    from blood_companion.store.campaign_store import CampaignStore, LogEntry, VerifyReport
    from blood_companion.store.errors import (
        BadNameError,
        CampaignExists,
        CampaignNotFound,
        DamagedSave,
        ImportRefused,
        NothingToRedo,
        NothingToUndo,
        SaveInUse,
        StoreError,
    )

__all__ = [
    "BadNameError", "CampaignExists", "CampaignNotFound", "CampaignStore", "DamagedSave",
    "ImportRefused", "LogEntry", "NothingToRedo", "NothingToUndo", "SaveInUse", "StoreError",
    "VerifyReport",
]
_IN_STORE = ("CampaignStore", "LogEntry", "VerifyReport")
_WHERE = {name: "campaign_store" if name in _IN_STORE else "errors" for name in __all__}


__getattr__ = lazy_names(__name__, _WHERE)
