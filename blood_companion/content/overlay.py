"""Write transcribed cards into the owner's overlay as YAML they can read and edit.

Each kind gets files the app owns, ``<overlay>/<kind>/<deck or file>.transcribed.yaml`` (a file
an owner wrote by hand is never rewritten), one record per card in the shipped pack's order,
each Effect preceded by a comment that reads it in words. Writes are atomic (a temporary file
renamed over the old one), so an interrupted command leaves the previous file whole; the JSON
Schemas are copied beside the files (``<overlay>/schemas/``) for the editor modeline.
"""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from blood_companion.content import models as m
from blood_companion.content.cards import deck_of, flow_yaml
from blood_companion.content.errors import ContentError, Problem
from blood_companion.content.loader import (
    MAX_DATA_FILE,
    kind_files,
    line_of,
    read_yaml_file,
    validate_layers,
)
from blood_companion.content.render import render_effect
from blood_companion.content.schema import kind_schema, schema_line, schema_text
from blood_companion.fileio import (
    FileProblem,
    private_tmp_dir,
    read_regular,
    read_text,
    size_text,
    write_atomic,
)
from blood_companion.yamlio import SafeLoader

SUFFIX = ".transcribed.yaml"
HEADER = (
    "# Your own cards, typed from the box with `blood data transcribe` or `blood data "
    "import-text`.\n"
    "# The app rewrites this file when you transcribe again; a record with the id of a shipped\n"
    "# card replaces it. `blood data validate` checks it; `# ...` lines read each Effect.\n"
)


@dataclass(frozen=True)
class Placed:
    """Where a record lives in the overlay."""

    file: Path
    line: int


def overlay_file(overlay: Path, kind: str, stem: str) -> Path:
    return overlay / kind / f"{stem}{SUFFIX}"


def file_stem_for(kind: str, record: Any, origin: Path | None) -> str:
    """Which overlay file a card goes to: the name of the file it comes from when the kind is
    split per deck (``starting_tactics/aurel``), else the kind (``troupers/troupers``); a new
    card of a split kind goes to its deck's file."""
    if origin is not None and origin.parent.name == kind:
        return origin.name.removesuffix(SUFFIX).removesuffix(".yaml").removesuffix(".yml")
    if origin is None:
        deck = deck_of(kind, record)
        if deck:
            return deck
    return kind


def find_in_overlay(overlay: Path, kind: str, record_id: str) -> Placed | None:
    """The overlay file and line holding a record of this kind, if any (any file of the kind,
    hand-written ones included)."""
    for path in kind_files(overlay, kind):
        problems: list[Problem] = []
        parsed = read_yaml_file(path, problems)
        if parsed is None:
            continue
        for i, raw in enumerate(parsed.data):
            if isinstance(raw, dict) and raw.get("id") == record_id:
                return Placed(path, line_of(parsed.node, [i]))
    return None


def _read_owned(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        text = read_text(path, limit=MAX_DATA_FILE, what="the transcribed cards")
        data = yaml.load(text, Loader=SafeLoader)  # noqa: S506
    except (OSError, UnicodeDecodeError, yaml.YAMLError, FileProblem) as exc:
        raise ContentError([Problem(str(path), None, None,
                                    f"cannot read the transcribed cards: {exc}")]) from exc
    if data is None:
        return []
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ContentError([Problem(str(path), None, None,
                                    "expected a list of records; fix or move the file")])
    return data


def write_records(
    overlay: Path, kind: str, stem: str, records: list[m.Record],
    order: dict[str, int] | None = None, *, check_only: bool = False,
) -> Path:
    """Add or replace these records in the kind's owned overlay file; return the file.

    Raises ContentError, writing nothing, when the file would be larger than the loader reads
    (``check_only``: only that check)."""
    path = overlay_file(overlay, kind, stem)
    existing = _read_owned(path)
    by_id: dict[str, dict[str, Any]] = {str(r.get("id")): r for r in existing}
    for record in records:
        by_id[record.id] = as_dict(record)
    rank = order or {}
    ordered = sorted(by_id.values(), key=lambda r: (rank.get(str(r["id"]), 1 << 30), r["id"]))
    _write(path, kind, ordered, check_only=check_only)
    return path


def remove_record(overlay: Path, kind: str, stem: str, record_id: str) -> bool:
    """Take a card back out of the owned overlay file (undo); True when it was there."""
    path = overlay_file(overlay, kind, stem)
    existing = _read_owned(path)
    kept = [r for r in existing if r.get("id") != record_id]
    if len(kept) == len(existing):
        return False
    if kept:
        _write(path, kind, kept)
    else:
        path.unlink(missing_ok=True)
    return True


def _write(path: Path, kind: str, records: list[dict[str, Any]], *, check_only: bool = False
           ) -> None:
    head = schema_line(kind, in_kind_folder=True) + "\n" + HEADER
    text = head + "\n".join("".join(_emit_record(r)) for r in records)
    # The file must read back to exactly what was meant; anything the emitter got wrong
    # falls back to PyYAML's own (less pretty) output.
    if yaml.load(text, Loader=SafeLoader) != records:  # noqa: S506
        text = head + yaml.safe_dump(records, sort_keys=False, allow_unicode=True, width=96)
    data = text.encode("utf-8")
    if len(data) > MAX_DATA_FILE:  # never a file every later command would refuse
        raise ContentError([Problem(
            str(path), None, None,
            f"the cards would make this file {size_text(len(data))}; a data file is at most "
            f"{size_text(MAX_DATA_FILE)} (nothing was written)",
        )])
    if check_only:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_schema(path.parent.parent, kind)
    write_atomic(path, data)


def _write_schema(overlay: Path, kind: str) -> None:
    folder = overlay / "schemas"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{kind}.schema.json"
    data = schema_text(kind_schema(kind)).encode("utf-8")
    try:  # never a FIFO or a huge file read: at most one byte more than the schema
        same = read_regular(target, limit=len(data) + 1) == data
    except FileProblem:
        same = False
    if not same:
        write_atomic(target, data)


# --------------------------------------------------------------------------- the emitter


def _scalar(value: Any, indent: int, used: int) -> str:
    """A scalar after ``key: `` (``used`` columns already taken); long words fold onto lines
    indented under the key."""
    if isinstance(value, str) and len(value) + used > 96 and "\n" not in value:
        wrapped = textwrap.wrap(value, width=max(40, 96 - indent - 2))
        if all(line == line.strip() for line in wrapped) and " ".join(wrapped) == value:
            pad = " " * (indent + 2)
            return ">-\n" + "".join(f"{pad}{line}\n" for line in wrapped).rstrip("\n")
    return flow_yaml(value)


def _is_effects(key: str, value: Any) -> bool:
    return (key in ("effects", "skills") and isinstance(value, list) and bool(value)
            and all(isinstance(v, dict) for v in value))


def _emit_record(data: dict[str, Any]) -> list[str]:
    lines = _emit_mapping(data, 2)
    lines[0] = "- " + lines[0][2:]
    return lines


def _emit_mapping(data: dict[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    for key, value in data.items():
        if _is_effects(key, value):
            out.append(f"{pad}{key}:\n")
            for effect in value:
                out.extend(_emit_effect(effect, indent + 2))
        elif isinstance(value, dict) and any(_is_effects(k, v) for k, v in value.items()):
            out.append(f"{pad}{key}:\n")
            out.extend(_emit_mapping(value, indent + 2))
        elif isinstance(value, (dict, list)):
            flow = flow_yaml(value)
            if len(pad) + len(key) + 2 + len(flow) <= 100 or not value:
                out.append(f"{pad}{key}: {flow}\n")
            elif isinstance(value, list):
                out.append(f"{pad}{key}:\n")
                out.extend(f"{pad}  - {flow_yaml(v)}\n" for v in value)
            else:
                out.append(f"{pad}{key}:\n")
                out.extend(_emit_mapping(value, indent + 2))
        else:
            out.append(f"{pad}{key}: {_scalar(value, indent, indent + len(key) + 2)}\n")
    return out


def _emit_effect(effect: dict[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    words = render_effect(m.Effect.model_validate(effect))
    out = [f"{pad}# {line}\n" for line in textwrap.wrap(words, width=max(40, 98 - indent))]
    body = _emit_mapping(effect, indent + 2) if effect else [f"{pad}  {{}}\n"]
    body[0] = f"{pad}- " + body[0][indent + 2 :]
    return out + body


def shipped_order(catalog: Any, kind: str) -> dict[str, int]:
    """Position of each record of a kind in the catalog (the shipped pack's order)."""
    return {r.id: i for i, r in enumerate(catalog.all(kind))}


def as_dict(record: BaseModel) -> dict[str, Any]:
    return record.model_dump(mode="json", exclude_defaults=True)


def check_records(layers: list[Path], records: list[tuple[str, m.Record]]) -> list[Problem]:
    """The problems the catalog would have with these records laid over ``layers`` (each
    record checked on its own and with the cross-checks: references, decks, ids unique across
    kinds). An empty list means they can be written."""
    # Named with the PID: a run killed meanwhile leaves a folder the next run removes.
    root = Path(private_tmp_dir("blood-check-"))
    try:
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for kind, record in records:
            by_kind.setdefault(kind, []).append(as_dict(record))
        for kind, items in by_kind.items():
            (root / kind).mkdir(parents=True, exist_ok=True)
            write_atomic(root / kind / "new.yaml",
                         yaml.safe_dump(items, sort_keys=False, allow_unicode=True).encode())
        try:
            validate_layers([*layers, root])
        except ContentError as exc:
            return [Problem("(the new cards)", None, p.field, p.message) if root.name in p.file
                    else p for p in exc.problems]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return []
