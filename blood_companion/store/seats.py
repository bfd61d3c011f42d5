"""The seats of a served board (`blood board --serve`, issue 42): a secret token per Trouper and
one to watch (``saves/.seats/NAME.json``, 0600), and who recorded which step (``NAME.by``, a
JSON line each), so a refused answer can say who was first. Tokens come from :mod:`secrets`,
compared in constant time; paths are built from checked campaign names only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from blood_companion.errors import BloodError
from blood_companion.fileio import FileProblem, read_text
from blood_companion.store.saves import SEATS, seats_path, write_private

TOKEN = re.compile(r"[A-Za-z0-9_-]{32,128}")
MAX_FILE = 64 * 1024  # a seats file larger than this is not ours: new tokens are made
KEEP_NOTES = 256  # the notes file keeps about this many steps (the newest)
LAPTOP = "the laptop"
Written = tuple[str, int, int]  # a store's drawn_from(): state hash, revision, head step
COMMAND = "a blood command"


class Seats(NamedTuple):  # ``troupers``: a Trouper id -> its seat's token

    watch: str
    troupers: dict[str, str]

    def find(self, token: str) -> str | None:
        """The seat a token opens (a Trouper id, ``""`` to watch, None), every kept token
        compared in constant time (no early exit)."""
        given = token.encode("utf-8", "surrogatepass")
        found: str | None = None
        for seat, kept in [("", self.watch), *self.troupers.items()]:
            if secrets.compare_digest(given, kept.encode("ascii")) and found is None:
                found = seat
        return found


def _token() -> str:
    return secrets.token_urlsafe(24)  # 32 characters, 192 bits


def _read(path: Path) -> Seats | None:
    try:
        doc = json.loads(read_text(path, limit=MAX_FILE, what="the seat tokens"))
    except (FileProblem, ValueError):
        return None
    if not isinstance(doc, dict):
        return None
    watch, seats = doc.get("watch"), doc.get("seats")
    if not isinstance(watch, str) or not TOKEN.fullmatch(watch) or not isinstance(seats, dict):
        return None
    kept = {k: v for k, v in seats.items()
            if isinstance(k, str) and isinstance(v, str) and TOKEN.fullmatch(v)}
    return Seats(watch, kept)


def seat_tokens(saves_dir: Path, name: str, troupers: Iterable[str], *,
                new: bool = False) -> Seats:
    """One token per Trouper and one to watch: those kept (made private again if opened to
    others), new ones for the rest, all new with ``new``. Raises OSError when they cannot be
    kept (the caller may still serve with them: a restart then needs new URLs)."""
    path = seats_path(saves_dir, name)
    ids = list(dict.fromkeys(troupers))
    kept = None if new else _read(path)
    if kept is not None and all(t in kept.troupers for t in ids):
        with contextlib.suppress(OSError):
            if stat.S_IMODE(os.lstat(path).st_mode) & 0o077:
                os.chmod(path, 0o600)
        return Seats(kept.watch, {t: kept.troupers[t] for t in ids})
    old = kept.troupers if kept is not None else {}
    made = Seats(kept.watch if kept is not None else _token(),
                 {t: old.get(t) or _token() for t in ids})
    folder = saves_dir / SEATS
    folder.mkdir(mode=0o700, exist_ok=True)
    doc = {"watch": made.watch, "seats": {**old, **made.troupers}}
    write_private(path, (json.dumps(doc, indent=1) + "\n").encode("ascii"))
    return made


# --------------------------------------------------------------------------- who recorded


def note_by(saves_dir: Path, name: str, written: Written | None, by: str) -> None:
    """Note that ``by`` (a Trouper's name, :data:`LAPTOP`) made the write that left the save
    at ``written`` (the store's ``drawn_from()``), while the campaign has seats; never fails."""
    if written is None:
        return
    with contextlib.suppress(OSError, ValueError, BloodError):
        path = seats_path(saves_dir, name, ".by")
        if not seats_path(saves_dir, name).exists():
            return
        digest, revision, step = written
        line = json.dumps({"step": step, "hash": digest, "revision": revision, "by": by}) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND
                     | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.write(fd, line.encode("utf-8"))
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > KEEP_NOTES * 200:  # keep the newest half
            lines = read_text(path, limit=4 * KEEP_NOTES * 200, what="notes").splitlines()
            text = "\n".join(lines[-KEEP_NOTES // 2:]) + "\n"
            write_private(path, text.encode("utf-8"))


def recorded_by(saves_dir: Path, name: str, written: Written | None) -> str:
    """Who made the write that left the save at ``written`` as noted, else :data:`COMMAND`."""
    if written is None:
        return COMMAND
    try:
        text = read_text(seats_path(saves_dir, name, ".by"), limit=4 * KEEP_NOTES * 200,
                         what="notes")
    except (BloodError, ValueError):
        return COMMAND
    digest, revision, step = written
    for line in reversed(text.splitlines()):
        try:
            note = json.loads(line)
        except ValueError:
            continue
        if (isinstance(note, dict) and note.get("step") == step and note.get("hash") == digest
                and note.get("revision") == revision and isinstance(note.get("by"), str)):
            return str(note["by"])
    return COMMAND
