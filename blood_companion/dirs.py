"""Where the platform keeps an application's caches and user data (standard library only).

The folders of ``platformdirs`` without its import cost (``blood rules`` loads this).
``BLOOD_CACHE_DIR`` replaces the cache folder whole (tests and CI point it at a temporary one).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

APP = "blood-companion"


def _home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), *parts)


def user_cache_dir() -> str:
    override = os.environ.get("BLOOD_CACHE_DIR")
    if override:
        return override
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or _home("AppData", "Local")
        return os.path.join(base, APP, "Cache")
    if sys.platform == "darwin":
        return _home("Library", "Caches", APP)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return os.path.join(base if os.path.isabs(base) else _home(".cache"), APP)


def user_data_dir(env: Mapping[str, str] | None = None) -> str:
    """The owner's data folder (`blood data transcribe`, the default ``saves``)."""
    env = os.environ if env is None else env
    if sys.platform == "win32":
        base = env.get("APPDATA") or _home("AppData", "Roaming")
        return os.path.join(base, APP)
    if sys.platform == "darwin":
        return _home("Library", "Application Support", APP)
    base = env.get("XDG_DATA_HOME", "").strip()
    return os.path.join(base if os.path.isabs(base) else _home(".local", "share"), APP)
