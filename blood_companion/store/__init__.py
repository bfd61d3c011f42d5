"""Saves: one SQLite file per campaign; the only code that touches save files.

:class:`CampaignStore` (the front of :mod:`writer`, :mod:`repository` and :mod:`migrations`),
:mod:`transfer` (export/import), :mod:`manage` (list, delete, recover), :mod:`schema` (tables),
:mod:`saves` (folder layout), :mod:`peek` (a cheap read-only look at a save's head).
"""

from __future__ import annotations

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
