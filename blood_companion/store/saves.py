"""The saves folder: where each campaign's file, its backups and the "last used" pointer live.

::

    saves/
      tuesday.blood.db                 one SQLite file per campaign
      .last-campaign                   the name of the campaign used last (plain text)
      .backups/tuesday/20250101T201500123456-end-of-night.blood.db

Every path is built from a checked name (:func:`names.check_campaign_name`), so nothing is ever
written outside the saves folder.
"""

from __future__ import annotations

import contextlib
import os
import re
from datetime import UTC, datetime
from pathlib import Path

from blood_companion.store.errors import SAVE_SUFFIX, StoreError
from blood_companion.store.names import check_campaign_name

LAST_USED = ".last-campaign"
BACKUPS = ".backups"
KEEP_BACKUPS = 30  # automatic backups kept per campaign (deleted/damaged copies are kept too)


def ensure_dir(saves_dir: Path) -> Path:
    """Create the saves folder if needed; raise StoreError when that is impossible."""
    try:
        saves_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create the saves folder {saves_dir}: {exc.strerror}",
            hint="pass --saves-dir DIR (or set BLOOD_SAVES_DIR) to a folder you can write to",
        ) from None
    return saves_dir


def save_path(saves_dir: Path, name: str) -> Path:
    """The file of campaign `name` (checked) inside `saves_dir`."""
    name = check_campaign_name(name)
    path = saves_dir / f"{name}{SAVE_SUFFIX}"
    # Defence in depth: the checked name cannot escape, but make sure of it.
    if path.resolve().parent != saves_dir.resolve():  # pragma: no cover
        raise StoreError(f"campaign name {name!r} points outside the saves folder")
    return path


def campaign_names(saves_dir: Path) -> list[str]:
    """Names of the campaign files in the folder, sorted."""
    if not saves_dir.is_dir():
        return []
    return sorted(
        p.name.removesuffix(SAVE_SUFFIX)
        for p in saves_dir.iterdir()
        if p.name.endswith(SAVE_SUFFIX) and not p.name.startswith(".")
    )


def same_name_different_case(saves_dir: Path, name: str) -> str | None:
    """An existing campaign whose name differs from `name` only by case (one file on macOS)."""
    low = name.casefold()
    for other in campaign_names(saves_dir):
        if other.casefold() == low and other != name:
            return other
    return None


def backup_dir(saves_dir: Path, name: str) -> Path:
    return saves_dir / BACKUPS / check_campaign_name(name)


def new_backup_path(saves_dir: Path, name: str, reason: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")[:40] or "backup"
    folder = backup_dir(saves_dir, name)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stamp}-{slug}{SAVE_SUFFIX}"
    n = 1
    while path.exists():
        path = folder / f"{stamp}-{slug}-{n}{SAVE_SUFFIX}"
        n += 1
    return path


def list_backups(saves_dir: Path, name: str) -> list[Path]:
    """The campaign's backup files, newest first."""
    folder = backup_dir(saves_dir, name)
    if not folder.is_dir():
        return []
    files = [p for p in folder.iterdir() if p.name.endswith(SAVE_SUFFIX)]
    return sorted(files, key=lambda p: p.name, reverse=True)


def prune_backups(saves_dir: Path, name: str) -> None:
    """Keep the newest automatic backups; copies of deleted or damaged files are never pruned."""
    auto = [
        p for p in list_backups(saves_dir, name) if not re.search(r"-(deleted|damaged)", p.name)
    ]
    for old in auto[KEEP_BACKUPS:]:
        with contextlib.suppress(OSError):
            old.unlink()


def read_last_used(saves_dir: Path) -> str | None:
    try:
        text = (saves_dir / LAST_USED).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def write_last_used(saves_dir: Path, name: str) -> None:
    """Remember `name` as the campaign used last (atomic replace; failures only cost comfort)."""
    if read_last_used(saves_dir) == name:
        return
    target = saves_dir / LAST_USED
    tmp = saves_dir / f"{LAST_USED}.{os.getpid()}.tmp"
    try:
        tmp.write_text(name + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def forget_last_used(saves_dir: Path, name: str) -> None:
    if read_last_used(saves_dir) == name:
        with contextlib.suppress(OSError):
            (saves_dir / LAST_USED).unlink()
