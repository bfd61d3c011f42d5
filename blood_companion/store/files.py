"""Writing a whole save file at once (a new campaign, an import, a rebuilt older save): in a
temporary file first, then moved into place atomically, never over an existing campaign unless
asked to."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from blood_companion.engine.upcast import STATE_SCHEMA
from blood_companion.fileio import DISK_FULL, remove_stale_tmp, unlinking
from blood_companion.store import saves, schema
from blood_companion.store.docs import INSERT_ABANDONED, INSERT_ACTION, Row, now
from blood_companion.store.errors import CampaignExists, StoreError, disk_full


def refuse_existing(saves_dir: Path, name: str, path: Path) -> None:
    if path.exists():
        raise CampaignExists(
            f"a campaign named {name!r} already exists in {saves_dir}",
            hint="`blood play` resumes it; choose another name for a new one, or "
            "`blood campaign delete NAME` first (a backup is kept)",
        )
    other = saves.same_name_different_case(saves_dir, name)
    if other:
        raise CampaignExists(
            f"a campaign named {other!r} already exists (names differ only by case)",
            hint="choose another name",
        )


def fill(
    conn: sqlite3.Connection, name: str, rows: Sequence[Row], *, head: int,
    snapshots: dict[int, tuple[str, str]], meta: dict[str, str],
    marks: dict[str, int] | None = None, abandoned: Sequence[tuple[Row, str, int]] = (),
    datapacks: dict[str, tuple[dict[str, str], int]] | None = None,
) -> None:
    """Write a whole save's rows into the empty tables of `conn` (in the caller's transaction)."""
    values = {
        "name": name, "mode": "", "seed": "0", "head": str(head), "revision": "0",
        "created": now(), "state_schema": str(STATE_SCHEMA), "data_fp": "", **meta,
    }
    conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(values.items()))
    conn.executemany(INSERT_ACTION, [r.values() for r in rows])
    conn.executemany(
        "INSERT INTO snapshots (step, state, state_hash) VALUES (?,?,?)",
        [(s, t, h) for s, (t, h) in sorted(snapshots.items())],
    )
    conn.executemany(
        "INSERT INTO marks (name, step, created) VALUES (?,?,?)",
        [(n, s, now()) for n, s in (marks or {}).items()],
    )
    conn.executemany(INSERT_ABANDONED,
                     [(*r.values(), when or now(), at) for r, when, at in abandoned])
    conn.executemany(
        "INSERT INTO datapacks (fp, prints, first_step) VALUES (?,?,?)",
        [
            (fp, json.dumps(prints, separators=(",", ":")), first)
            for fp, (prints, first) in (datapacks or {}).items()
        ],
    )


def build_file(
    saves_dir: Path, name: str, rows: Sequence[Row], *, head: int,
    snapshots: dict[int, tuple[str, str]], meta: dict[str, str],
    marks: dict[str, int] | None = None, abandoned: Sequence[tuple[Row, str, int]] = (),
    datapacks: dict[str, tuple[dict[str, str], int]] | None = None, install: bool = True,
    replace: bool = False,
) -> Path:
    """Write a complete save in a temporary file (returned without ``install``), then move it
    into place atomically (over an existing one with ``replace``). `snapshots`: (text, hash)
    by step; `abandoned`: (row, when abandoned, replaced at step)."""
    saves.ensure_dir(saves_dir)
    path = saves.save_path(saves_dir, name)
    if install and not replace:  # the one name check of `campaign new` and `import`
        refuse_existing(saves_dir, name, path)
    # The temporary saves of killed processes (``.NAME.PID.tmp``, PID gone) are removed.
    remove_stale_tmp(saves_dir, prefix=".")
    tmp = saves_dir / f".{name}.{os.getpid()}.tmp"
    with contextlib.suppress(OSError):
        tmp.unlink()
    try:
        with contextlib.closing(sqlite3.connect(tmp, isolation_level=None)) as conn:
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
            schema.create(conn)
            fill(conn, name, rows, head=head, snapshots=snapshots, meta=meta, marks=marks,
                 abandoned=abandoned, datapacks=datapacks)
            conn.execute("COMMIT")
        if not install:
            return tmp
        if replace:
            os.replace(tmp, path)
        else:
            with unlinking(tmp):
                try:
                    os.link(tmp, path)  # fails if another process created the name meanwhile
                except FileExistsError:
                    raise CampaignExists(f"a campaign named {name!r} already exists") from None
                except OSError:  # no hard links on this file system
                    refuse_existing(saves_dir, name, path)
                    os.replace(tmp, path)
        return path
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if not isinstance(exc, (sqlite3.Error, OSError)):
            raise
        if (exc.errno in DISK_FULL if isinstance(exc, OSError)
                else "disk is full" in str(exc) or "disk I/O" in str(exc)):
            raise disk_full(f": the campaign {name!r} could not be written; your saves are intact"
                            ) from None
        why = exc.strerror if isinstance(exc, OSError) else exc
        raise StoreError(f"cannot write the save file in {saves_dir}: {why}") from None
