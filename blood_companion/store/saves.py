"""The saves folder: where each campaign's file, its backups and the "last used" pointer live.

::

    saves/
      tuesday.blood.db                 one SQLite file per campaign
      .last-campaign                   the name of the campaign used last (plain text)
      .backups/tuesday/20250101T201500123456-end-of-night.blood.db

Every path is built from a checked name (:func:`names.check_campaign_name`) inside a checked
folder (:func:`check_saves_dir`), so nothing is ever written outside the saves folder and no
path is one the operating system refuses (a name too long is a clear error, not ``OSError``).
"""

from __future__ import annotations

import contextlib
import os
import re
from datetime import UTC, datetime
from pathlib import Path

from blood_companion.errors import BloodError
from blood_companion.fileio import (
    MAX_PATH_BYTES,
    FileProblem,
    check_path,
    read_text,
    shown_path,
    write_atomic,
)
from blood_companion.store.errors import SAVE_SUFFIX, StoreError
from blood_companion.store.names import check_campaign_name

LAST_USED = ".last-campaign"
BACKUPS = ".backups"
KEEP_BACKUPS = 30  # automatic backups kept per campaign (deleted/damaged copies are kept too)
# Room left in a path for what goes below the saves folder: .backups/NAME/STAMP-slug.blood.db
_ROOM_BELOW = 2 * 255 + 20


def check_saves_dir(saves_dir: Path) -> Path:
    """Return `saves_dir`; raise StoreError when its path is one the system refuses (a name
    longer than 255 bytes, or so deep that the files inside it would be too long)."""
    hint = "pass --saves-dir DIR (or set BLOOD_SAVES_DIR) to a shorter path"
    try:
        check_path(saves_dir, "the saves folder")
    except FileProblem as exc:
        raise StoreError(exc.message, hint=hint) from None
    try:
        full = len(os.fsencode(os.path.abspath(saves_dir)))
    except OSError:  # the current folder was deleted; opening will say so
        full = 0
    if full + _ROOM_BELOW > MAX_PATH_BYTES:
        raise StoreError(
            f"the saves folder {shown_path(saves_dir)} is too deep: the files inside it would "
            "have paths longer than the system takes",
            hint=hint,
        )
    return saves_dir


def ensure_dir(saves_dir: Path) -> Path:
    """Create the saves folder if needed; raise StoreError when that is impossible."""
    check_saves_dir(saves_dir)
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
    check_saves_dir(saves_dir)
    path = saves_dir / f"{name}{SAVE_SUFFIX}"
    # Defence in depth: the checked name cannot escape, but make sure of it.
    if path.resolve().parent != saves_dir.resolve():  # pragma: no cover
        raise StoreError(f"campaign name {name!r} points outside the saves folder")
    return path


def campaign_names(saves_dir: Path) -> list[str]:
    """Names of the campaign files in the folder, sorted (none when it cannot be listed)."""
    check_saves_dir(saves_dir)
    try:
        entries = list(saves_dir.iterdir())
    except OSError:  # missing, not a folder, not readable
        return []
    return sorted(
        p.name.removesuffix(SAVE_SUFFIX)
        for p in entries
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
    return check_saves_dir(saves_dir) / BACKUPS / check_campaign_name(name)


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
    try:
        files = [p for p in folder.iterdir() if p.name.endswith(SAVE_SUFFIX)]
    except OSError:
        return []
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
    """The name in ``.last-campaign`` (None when missing, unreadable, not a regular file)."""
    try:
        text = read_text(saves_dir / LAST_USED, limit=4096).strip()
    except BloodError:
        return None
    return text or None


def write_last_used(saves_dir: Path, name: str) -> None:
    """Remember `name` as the campaign used last (atomic replace; failures only cost comfort)."""
    if read_last_used(saves_dir) == name:
        return
    with contextlib.suppress(OSError):
        write_atomic(saves_dir / LAST_USED, (name + "\n").encode("utf-8"))


def forget_last_used(saves_dir: Path, name: str) -> None:
    if read_last_used(saves_dir) == name:
        with contextlib.suppress(OSError):
            (saves_dir / LAST_USED).unlink()
