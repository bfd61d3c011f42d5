"""Export and import: a campaign as one readable JSON document.

The document holds the whole log (done, undone and abandoned steps), the head, the marks, the
state hash at every step and, for people reading it, the state at the head. Import validates the
whole file first (format, every action, step numbers, marks) and replays the log, comparing every
recorded hash, before a single byte is stored; the new save is written to a temporary file and
moved into place.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from blood_companion.engine.actions import Action, apply, parse_action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState, canonical_json
from blood_companion.store import saves, schema
from blood_companion.store.campaign_store import CampaignStore, Entry, build_file
from blood_companion.store.errors import BadNameError, ImportRefused, StoreError
from blood_companion.store.names import check_campaign_name, check_mark_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

FORMAT = "blood-companion-campaign"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 256 * 1024 * 1024


class _Step(BaseModel):
    model_config = ConfigDict(extra="ignore")
    step: int = Field(ge=1)
    action: dict[str, Any]
    state_hash: str | None = None
    recorded: str | None = None


class _Abandoned(_Step):
    abandoned: str | None = None
    replaced_at: int | None = None


class _Doc(BaseModel):
    model_config = ConfigDict(extra="ignore")
    format: str
    format_version: int
    name: str
    head: int = Field(ge=1)
    state_hash: str | None = None
    marks: dict[str, int] = Field(default_factory=dict)
    actions: list[_Step] = Field(min_length=1)
    abandoned: list[_Abandoned] = Field(default_factory=list)


def export_campaign(store: CampaignStore, file: Path, *, force: bool = False) -> Path:
    """Write the campaign as readable JSON to `file` (atomic). Refuses to overwrite unless
    `force`."""
    if file.exists() and not force:
        raise StoreError(f"{file} already exists", hint="add --force to overwrite it")
    doc = store.export_doc()
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    tmp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, file)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StoreError(f"cannot write {file}: {exc.strerror}") from None
    return file


def _refuse(file: Path, problem: str) -> ImportRefused:
    return ImportRefused(
        f"cannot import {file}: {problem}",
        hint="nothing was stored; import a file written by `blood campaign export`",
    )


def read_import(file: Path) -> _Doc:
    """Parse and structurally check an export file. Raises ImportRefused."""
    try:
        size = file.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise _refuse(file, f"it is {size} bytes, more than any campaign needs")
        raw = file.read_bytes()
    except FileNotFoundError:
        raise _refuse(file, "no such file") from None
    except OSError as exc:
        raise _refuse(file, exc.strerror or str(exc)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _refuse(file, "it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _refuse(file, f"not valid JSON at line {exc.lineno}, column {exc.colno} "
                            f"({exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(file, f"it is not a campaign export (no \"format\": \"{FORMAT}\")")
    version = data.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise _refuse(
            file, f"export format version {version!r}; this version reads up to "
            f"{FORMAT_VERSION} (update blood-companion)"
        )
    try:
        return _Doc.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise _refuse(file, f"{loc}: {err['msg']}") from None


def import_campaign(
    saves_dir: Path,
    file: Path,
    catalog: Catalog,
    *,
    name: str | None = None,
    replace: bool = False,
) -> str:
    """Validate `file` completely, replay it, then store it as campaign `name` (default: the
    name in the file). With `replace`, an existing campaign is backed up and replaced.
    Returns the campaign's name. Raises ImportRefused (nothing stored), BadNameError or
    CampaignExists."""
    doc = read_import(file)
    try:
        target = check_campaign_name(name if name is not None else doc.name)
    except BadNameError as exc:
        if name is None:
            raise _refuse(file, exc.message) from None
        raise
    steps = [s.step for s in doc.actions]
    if steps != list(range(1, len(steps) + 1)):
        raise _refuse(file, "the steps are not numbered 1, 2, 3, ...")
    if doc.head > len(steps):
        raise _refuse(file, f"head {doc.head} is after the last step ({len(steps)})")
    marks: dict[str, int] = {}
    for mark, step in doc.marks.items():
        try:
            mark = check_mark_name(mark)
        except BadNameError as exc:
            raise _refuse(file, exc.message) from None
        if not 1 <= step <= len(steps):
            raise _refuse(file, f"mark {mark!r} names step {step}, which is not in the log")
        marks[mark] = step
    actions: list[Action] = []
    for s in doc.actions:
        try:
            actions.append(parse_action(s.action))
        except RuleError as exc:
            raise _refuse(file, f"step {s.step}: {exc.message}") from None
    if actions[0].type != "start_campaign":
        raise _refuse(file, "the first step does not start a campaign")
    abandoned: list[dict[str, Any]] = []
    for a in doc.abandoned:
        try:
            act = parse_action(a.action)
        except RuleError as exc:
            raise _refuse(file, f"abandoned step {a.step}: {exc.message}") from None
        abandoned.append({**a.model_dump(exclude={"action"}), "action": act})

    # Replay everything: a file that does not rebuild its own recorded states is refused.
    state = CampaignState()
    entries: list[Entry] = []
    snapshots: dict[int, tuple[str, str]] = {}
    head_state: tuple[CampaignState, str] | None = None
    for s, action in zip(doc.actions, actions, strict=True):
        try:
            state = apply(state, action, catalog, s.step - 1)
        except RuleError as exc:
            raise _refuse(file, f"step {s.step} is refused by the rules: {exc.message}") from None
        text = canonical_json(state)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if s.state_hash is not None and s.state_hash != digest:
            raise _refuse(
                file, f"replaying step {s.step} does not give the state recorded in the file "
                "(edited by hand, or written with another data pack)"
            )
        if s.step % schema.SNAPSHOT_EVERY == 0:
            snapshots[s.step] = (text, digest)
        if s.step == doc.head:
            head_state = (state, text)
        entries.append(Entry(action, digest, s.recorded or ""))
    assert head_state is not None
    head_hash = hashlib.sha256(head_state[1].encode()).hexdigest()
    if doc.state_hash is not None and doc.state_hash != head_hash:
        raise _refuse(file, "the state hash does not match the replayed log")

    saves.ensure_dir(saves_dir)
    path = saves.save_path(saves_dir, target)
    existing = path.exists()
    if not replace or not existing:
        build_file(
            saves_dir, target, entries, head=doc.head, final_state=head_state,
            states=snapshots, marks=marks, abandoned=abandoned,
        )
        return target
    # Replace: back the old campaign up first, then swap the new file in atomically.
    tmp = build_file(
        saves_dir, target, entries, head=doc.head, final_state=head_state, states=snapshots,
        marks=marks, abandoned=abandoned, install=False,
    )
    try:
        try:
            with CampaignStore.open(saves_dir, target, catalog) as old:
                old.backup("before import")
        except StoreError:
            backup = saves.new_backup_path(saves_dir, target, "damaged before import")
            os.replace(path, backup)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return target
