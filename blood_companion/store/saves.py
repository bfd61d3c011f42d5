"""The saves folder: where each campaign's file, its backups and the "last used" pointer live.

::

    saves/
      tuesday.blood.db                 one SQLite file per campaign
      .last-campaign                   the name of the campaign used last (plain text)
      .backups/tuesday/20250101T201500123456-g000042-end-of-night.blood.db.gz

Automatic backups are compressed copies numbered by generation and thinned (:func:`prune_backups`);
copies of deleted, damaged or replaced files are kept whole and never pruned. Every path is a
checked name inside a checked folder: nothing is written outside the saves folder, and a path
the system would refuse is a clear error, not ``OSError``.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import shutil
import sqlite3
import zlib
from datetime import UTC, datetime
from pathlib import Path

from blood_companion.errors import BloodError
from blood_companion.fileio import (
    MAX_PATH_BYTES,
    FileProblem,
    check_path,
    read_text,
    shown_path,
    unlinking,
    write_atomic,
)
from blood_companion.store.errors import SAVE_SUFFIX, StoreError
from blood_companion.store.names import check_campaign_name

LAST_USED = ".last-campaign"
BOARD_TOKEN = ".board-token"  # `.NAME.board-token`: a served board's secret (earlier versions)
BACKUPS = ".backups"
GZ = ".gz"  # automatic backups are gzip-compressed copies of the save file
# Generational thinning (:func:`prune_backups`): of the backups whose generation number is a
# multiple of 2**level, the newest PER_LEVEL are kept, for every level; so the newest few are
# kept and older ones at doubling distances, and the first: about log2(backups made) + 2.
PER_LEVEL = 2
KEEP_OLD_STYLE = 2  # uncompressed automatic backups of earlier versions kept (the newest)
# Copies never pruned: the file as it was when deleted, found damaged, replaced or migrated.
_PROTECTED = re.compile(r"-(deleted|damaged|replaced|before-import|before-migration|"
                        r"before-state-schema)")
_GENERATION = re.compile(r"^\d{8}T\d{12}-g(\d{1,9})-")
MAX_BACKUP_BYTES = 4 << 30  # a compressed backup that inflates past this is not a save
# Room left in a path for what goes below the saves folder: .backups/NAME/STAMP-slug.blood.db
_ROOM_BELOW = 2 * 255 + 20


def check_saves_dir(saves_dir: Path) -> Path:
    """`saves_dir`, or StoreError when it (or the files inside it) would be too long a path."""
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
    name = check_campaign_name(name)
    check_saves_dir(saves_dir)
    path = saves_dir / f"{name}{SAVE_SUFFIX}"
    try:
        resolved, folder = path.resolve(), saves_dir.resolve()
    except (RuntimeError, OSError):  # a symbolic link loop (RuntimeError before Python 3.13)
        raise StoreError(
            f"the save file {shown_path(path)} is a loop of symbolic links",
            hint="remove the link or put the save file itself in its place",
        ) from None
    # Defence in depth: the checked name cannot escape, but make sure of it.
    if resolved.parent != folder:  # pragma: no cover
        raise StoreError(f"campaign name {name!r} points outside the saves folder")
    return path


def campaign_names(saves_dir: Path) -> list[str]:
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
    """``.backups/NAME`` in the saves folder; StoreError when a part is a symbolic link or not
    a folder (backups are written only inside the saves folder, never where a link points)."""
    folder = check_saves_dir(saves_dir) / BACKUPS / check_campaign_name(name)
    for part in (folder.parent, folder):
        if part.is_symlink() or (os.path.lexists(part) and not part.is_dir()):
            what = "a symbolic link" if part.is_symlink() else "not a folder"
            raise StoreError(
                f"{shown_path(part)} is {what}; backups are kept only inside the saves folder",
                hint=f"move it away (e.g. `mv {shown_path(part)} {shown_path(part)}.moved`), "
                "then run the command again: a new backups folder is made",
            )
    return folder


def new_backup_path(saves_dir: Path, name: str, reason: str, *, compressed: bool = False) -> Path:
    """A new file name in the backups folder (made); an automatic backup's carries the next
    generation number."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")[:40] or "backup"
    folder = backup_dir(saves_dir, name)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = SAVE_SUFFIX + (GZ if compressed else "")
    if compressed and not is_protected(slug):
        gens = [g for g in (generation(p) for p in list_backups(saves_dir, name)) if g]
        stamp += f"-g{max(gens, default=0) + 1:06d}"
    path = folder / f"{stamp}-{slug}{suffix}"
    n = 1
    while os.path.lexists(path):
        path = folder / f"{stamp}-{slug}-{n}{suffix}"
        n += 1
    return path


def is_protected(reason: str) -> bool:
    slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")
    return bool(_PROTECTED.search("-" + slug))


def generation(path: Path) -> int | None:
    found = _GENERATION.match(path.name)
    return int(found.group(1)) if found and path.name.endswith(GZ) else None


def list_backups(saves_dir: Path, name: str) -> list[Path]:
    folder = backup_dir(saves_dir, name)
    try:
        files = [p for p in folder.iterdir()
                 if p.name.endswith((SAVE_SUFFIX, SAVE_SUFFIX + GZ)) and p.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda p: p.name, reverse=True)


def backups_to_keep(paths: list[Path]) -> set[Path]:
    """Which backups :func:`prune_backups` keeps (see PER_LEVEL)."""
    keep = {p for p in paths if _PROTECTED.search(p.name)}
    numbered = sorted(((g, p) for p in paths if (g := generation(p)) is not None
                       and p not in keep), reverse=True)
    level = 0
    while True:
        step = 1 << level
        at_level = [p for g, p in numbered if g % step == 0]
        if not at_level:
            break
        keep.update(at_level[:PER_LEVEL])
        level += 1
    if numbered:
        keep.add(numbered[-1][1])  # the oldest: the campaign as it began (small)
    old_style = sorted((p for p in paths if p not in keep and generation(p) is None),
                       key=lambda p: p.name, reverse=True)
    keep.update(old_style[:KEEP_OLD_STYLE])
    return keep


def prune_backups(saves_dir: Path, name: str) -> None:
    paths = list_backups(saves_dir, name)
    keep = backups_to_keep(paths)
    for old in paths:
        if old not in keep:
            with contextlib.suppress(OSError):
                old.unlink()


def write_backup(conn: sqlite3.Connection, target: Path) -> None:
    """Copy the open save (SQLite's backup API) to ``target`` (gzip when its name says so),
    under a temporary name renamed: a backup is whole or absent."""
    tmp = target.with_name(target.name + ".tmp")
    raw = target.with_name(target.name + ".raw.tmp")
    with unlinking(tmp), unlinking(raw):
        with contextlib.closing(sqlite3.connect(raw if target.name.endswith(GZ) else tmp)) as dst:
            conn.backup(dst)
        if target.name.endswith(GZ):
            with open(raw, "rb") as src, gzip.open(tmp, "wb", compresslevel=6) as out:
                shutil.copyfileobj(src, out, 1 << 20)
        os.replace(tmp, target)


def restore_copy(backup: Path, dest: Path) -> None:
    """Write the save a backup holds into the new file ``dest`` (inflated up to
    MAX_BACKUP_BYTES). Raises OSError, sqlite3.Error or StoreError."""
    if backup.name.endswith(GZ):
        total = 0
        try:
            with gzip.open(backup, "rb") as src, open(dest, "wb") as out:
                while chunk := src.read(1 << 20):
                    total += len(chunk)
                    if total > MAX_BACKUP_BYTES:
                        raise StoreError(f"the backup {backup.name} inflates past 4 GB")
                    out.write(chunk)
        except (EOFError, zlib.error) as exc:  # cut or damaged (gzip's own errors are OSError)
            raise StoreError(f"the backup {backup.name} is damaged: {exc}") from None
        return
    src_conn = sqlite3.connect(backup.resolve().as_uri() + "?mode=ro", uri=True)
    with contextlib.closing(src_conn), contextlib.closing(sqlite3.connect(dest)) as dst:
        src_conn.backup(dst)


def read_last_used(saves_dir: Path) -> str | None:
    try:
        text = read_text(saves_dir / LAST_USED, limit=4096).strip()
    except BloodError:
        return None
    return text or None


def write_last_used(saves_dir: Path, name: str) -> None:
    """Remember `name` as used last (failures only cost comfort)."""
    if read_last_used(saves_dir) == name:
        return
    with contextlib.suppress(OSError, FileProblem):  # a link or a folder there: not ours
        write_atomic(saves_dir / LAST_USED, (name + "\n").encode("utf-8"))


def forget_last_used(saves_dir: Path, name: str) -> None:
    if read_last_used(saves_dir) == name:
        with contextlib.suppress(OSError):
            (saves_dir / LAST_USED).unlink()


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` whole to ``path``, owner-only (0600) whatever the umask; a symlink there
    is replaced, never followed. Raises OSError (no partial file stays)."""
    tmp = path.with_name(f".{path.name[:100]}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()  # our own leftover (this PID)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)  # whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


SEATS = ".seats"  # `.seats/NAME.json`: the seat tokens of the served board (store/seats.py)


def seats_path(saves_dir: Path, name: str, suffix: str = ".json") -> Path:
    """``SAVES/.seats/NAME.json`` (seat tokens) or ``.by`` (who recorded which step)."""
    return saves_dir / SEATS / f"{check_campaign_name(name)}{suffix}"


def forget_board_token(saves_dir: Path, name: str) -> None:
    """The served board's secrets (the token, the seats, their notes) go with the campaign."""
    with contextlib.suppress(OSError):
        (saves_dir / f".{name}{BOARD_TOKEN}").unlink()
    for suffix in (".json", ".by"):
        with contextlib.suppress(OSError, BloodError):
            seats_path(saves_dir, name, suffix).unlink()
