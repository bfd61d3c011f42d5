"""Where the owner's own data lives. Standard library only: it needs neither pydantic nor the
data pack (cli/views.py and cli/session.py read the overlay's stamp from it)."""

from __future__ import annotations

import os
from pathlib import Path

from blood_companion import dirs


def user_data_dir() -> Path:
    """The owner's own data folder, where `blood data transcribe` writes when no --data-dir is
    given: the platform's user data folder (:mod:`blood_companion.dirs`)."""
    return Path(dirs.user_data_dir())


def overlay_stamp(data_dir: str | os.PathLike[str] | None = None) -> str:
    """A cheap fingerprint of the owner's data files (``data_dir``: --data-dir, else the user
    data folder): their paths, sizes and modification times, so a cache of anything computed
    from the catalog goes stale when a card is transcribed or edited."""
    root = Path(data_dir) if data_dir else user_data_dir()
    parts: list[str] = [str(root)]
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return parts[0]
    for entry in entries:
        try:
            if entry.is_dir() and not entry.name.startswith(".") and entry.name != "schemas":
                for sub in sorted(os.scandir(entry.path), key=lambda e: e.name):
                    if sub.name.endswith((".yaml", ".yml")):
                        st = sub.stat()
                        parts.append(f"{entry.name}/{sub.name}:{st.st_size}:{st.st_mtime_ns}")
            elif entry.name.endswith((".yaml", ".yml")):
                st = entry.stat()
                parts.append(f"{entry.name}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            continue
    return "|".join(parts)
