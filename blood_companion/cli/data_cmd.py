"""`blood data ...`: validate the data pack, show records, export JSON Schema."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from blood_companion import matching
from blood_companion.cli import transcribe_cmd
from blood_companion.cli.common import (
    command_group,
    declare_command,
    print_json,
    settings,
    stdout,
    warn_data,
    write_output,
)
from blood_companion.cli.flags import JSON, Opt
from blood_companion.content import models as m
from blood_companion.content.errors import ContentError, Problem
from blood_companion.content.loader import (
    KINDS,
    effective_overlay,
    load_catalog,
    load_layers,
    resolve_kind,
    shipped_data_dir,
)
from blood_companion.content.render import render_effect
from blood_companion.content.schema import all_schemas, schema_text
from blood_companion.errors import BloodError
from blood_companion.fileio import FileProblem, check_path, folder_problem
from blood_companion.rules.loader import RulesDataError, load_index

data_app, register = command_group("data")


@declare_command(
    data_app, "validate",
    Opt("directory", kind="path", help="A folder to check, layered over the shipped pack "
        "[default: the shipped pack plus --data-dir]."),
    Opt("alone", "--alone", kind="flag", default=False,
        help="Check DIR as a complete pack on its own, not as an overlay."),
    Opt("strict", "--strict", kind="flag", default=False,
        help="A file of the overlay that belongs to no kind is an error."),
    JSON,
)
def validate(directory: Path | None = None, alone: bool = False, strict: bool = False,
             as_json: bool = False) -> None:
    """Check every file (YAML, fields, references, counts); print the counts per kind.

    A YAML file of the overlay that belongs to no kind (`my-minions.yaml`) is named as not
    loaded: a warning, an error with --strict."""
    overlay = directory if directory is not None else effective_overlay(settings().data_dir)
    if alone and directory is None:
        raise BloodError("--alone needs a DIR to check")
    layers = [directory] if alone and directory else [shipped_data_dir()]
    if not alone and overlay is not None:
        layers.append(overlay)
    cat = load_layers(layers)  # raises ContentError with every problem
    if strict and cat.warnings:
        raise ContentError(cat.warnings)
    counts = cat.counts()
    counts["rules_entries"] = _validate_rules(layers)
    if as_json:
        print_json({"ok": True, "layers": [str(p) for p in layers], "counts": counts,
                    "warnings": [w.to_json() for w in cat.warnings]})
        return
    table = Table(title="Data pack: valid", title_justify="left")
    table.add_column("kind")
    table.add_column("count", justify="right")
    for k, v in counts.items():
        table.add_row(k, str(v))
    stdout.print(table)
    stdout.print("Layers: " + ", ".join(str(p) for p in layers))
    for w in cat.warnings:
        stdout.print(Text.assemble(("Not loaded: ", "yellow"), str(w)), soft_wrap=True)


def _validate_rules(layers: list[Path]) -> int:
    """Check the rules reference of the same layers; return its entry count."""
    dirs = [str(p / "rules") for p in layers if (p / "rules").is_dir()]
    if not dirs:
        return 0
    try:  # the checked index of these folders (cached while their files are unchanged)
        return len(load_index(dirs=dirs).entries)
    except RulesDataError as exc:
        shape = r"^(?P<file>[^:]+):(?P<line>\d+)?\s*(?:\((?P<id>[^)]*)\))?:?\s*(?P<msg>.*)$"
        found = [(re.match(shape, text), text) for text in getattr(exc, "problems", [str(exc)])]
        raise ContentError([
            Problem(m["file"], int(m["line"]) if m["line"] else None, m["id"], m["msg"]) if m
            else Problem("rules", None, None, text) for m, text in found]) from exc


def _record_json(rec: BaseModel) -> dict[str, Any]:
    return rec.model_dump(mode="json", exclude_none=True)


def _summary(rec: Any) -> str:
    bits: list[str] = []
    for attr in ("type", "kind", "art", "letter", "zone", "nemesis", "trouper", "side", "category"):
        v = getattr(rec, attr, None)
        if isinstance(v, str):
            bits.append(v)
    if isinstance(rec, m.Die):
        bits.append(" ".join(str(f.triumphs) + ("x" if f.defeats else "") for f in rec.faces))
    if isinstance(rec, m.Nemesis):
        bits.append(f"defense P{rec.defenses.physical}/M{rec.defenses.mind}")
    if isinstance(rec, m.TacticCard):
        bits.append(f"threat {rec.threat}")
    return ", ".join(bits)


def _render_value(value: Any, indent: int = 0) -> list[str]:
    pad = "  " * indent
    if isinstance(value, m.Effect):
        return [pad + "- " + render_effect(value)]
    if isinstance(value, BaseModel):
        lines: list[str] = []
        for name in type(value).model_fields:
            v = getattr(value, name)
            if v is None or v == [] or v == {}:
                continue
            if isinstance(v, (BaseModel, list, dict)):
                lines.append(f"{pad}{name}:")
                lines.extend(_render_value(v, indent + 1))
            else:
                lines.append(f"{pad}{name}: {v}")
        return lines
    if isinstance(value, list):
        out: list[str] = []
        for item in value:
            if isinstance(item, m.Effect):
                out.extend(_render_value(item, indent))
            elif isinstance(item, BaseModel):
                sub = _render_value(item, indent + 1)
                if sub:
                    sub[0] = pad + "- " + sub[0].lstrip()
                out.extend(sub)
            else:
                out.append(f"{pad}- {item}")
        return out
    if isinstance(value, dict):
        return [f"{pad}{k}: {v}" for k, v in value.items()]
    return [pad + str(value)]


@declare_command(
    data_app, "show",
    Opt("kind", help="What to show: " + ", ".join(KINDS), complete="kind", required=True),
    Opt("record_id", metavar="[ID]", help="One record's id.", complete="record_id"),
    JSON,
)
def show(kind: str, record_id: str | None = None, as_json: bool = False) -> None:
    """Show the records of a kind, or one record with its Effects in words."""
    key = resolve_kind(kind)
    cat = warn_data(load_catalog(settings().data_dir))  # the shipped pack + --data-dir
    records = cat.all(key)
    if record_id is not None:
        rec = cat.get(key, record_id)
        if rec is None:
            found = matching.find(record_id, [(r.id, r.name) for r in records])
            close = [found.id] if found.id else list(found.ambiguous or found.close)
            hint = matching.did_you_mean(close[:8], {r.id: r.name for r in records})
            raise BloodError(f"no {key} record with id {record_id!r}",
                             hint=hint or f"`blood data show {key}` lists them")
        if as_json:
            print_json(_record_json(rec))
            return
        body = "\n".join(_render_value(rec))
        title = f"{rec.name} [{rec.id}]"
        if rec.source == "placeholder":
            title += "  (placeholder content)"
        stdout.print(Panel(Text(body), title=Text(title), title_align="left"))
        return
    if as_json:
        print_json({key: [_record_json(r) for r in records]})
        return
    table = Table(title=f"{key} ({len(records)})", title_justify="left")
    table.add_column("id", no_wrap=True)
    table.add_column("name")
    table.add_column("details")
    table.add_column("source")
    for r in records:
        table.add_row(r.id, r.name, _summary(r), r.source)
    stdout.print(table)
    if any(r.source == "placeholder" for r in records):
        stdout.print("placeholder = our own stand-in content; transcribe your box over it "
                     "(README, 'Transcribing your box').")


@declare_command(
    data_app, "schema",
    Opt("out", "--out", kind="path", help="Write one <kind>.schema.json per kind here."),
    Opt("force", "--force", kind="flag", default=False,
        help="Overwrite schema files that differ."),
    JSON,
)
def schema(out: Path | None = None, force: bool = False, as_json: bool = False) -> None:
    """Export a JSON Schema per kind (and one for the rules reference's files), for an editor
    to check YAML while you transcribe cards.

    A file already holding the same schema is left as it is; one that differs is replaced only
    with --force."""
    schemas = all_schemas()
    if out is None:
        print_json(schemas)
        return
    check_path(out, "the schema folder")
    problem = folder_problem(out)
    if problem:
        raise FileProblem(out, "the schema folder", problem)
    files = {out / f"{name}.schema.json": schema_text(sch) for name, sch in schemas.items()}
    for file, text in files.items():  # every refusal before the first write
        write_output(file, text, what="the schema file", force=force, check_only=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BloodError(f"cannot write schemas to {out}: {exc.strerror}") from exc
    for file, text in files.items():
        write_output(file, text, what="the schema file", force=force)
    if as_json:
        print_json({"ok": True, "out": str(out), "kinds": sorted(schemas)})
    else:
        stdout.print(f"Wrote {len(schemas)} schemas to {out}/ (e.g. {out}/reactions.schema.json).")


# The transcription commands (cli/transcribe_cmd.py: their help is their functions' docstring).
declare_command(data_app, "progress", JSON)(transcribe_cmd.show_progress)
declare_command(
    data_app, "transcribe",
    Opt("kind", metavar="[KIND]", help="Only this kind of card.", complete="card_kind"),
    Opt("record_id", metavar="[ID]", help="Start at this card."),
    Opt("deck", "--deck", help="Only this deck (a Trouper, Nemesis, Art or Zone id)."),
)(transcribe_cmd.transcribe)
declare_command(
    data_app, "import-text",
    Opt("file", kind="path", help="A text file of cards (see `blood data export-text`).",
        required=True),
    Opt("replace", "--replace", kind="flag", default=False,
        help="Overwrite cards transcribed before."),
    Opt("dry_run", "--dry-run", kind="flag", default=False,
        help="Check the file; write nothing."),
    JSON,
)(transcribe_cmd.import_text)
declare_command(
    data_app, "export-text",
    Opt("kind", help="The kind of card, e.g. starting_tactics.", complete="card_kind",
        required=True),
    Opt("deck", "--deck", help="Only this deck (e.g. aurel)."),
    Opt("out", "--out", kind="path", help="Write to this file instead of the screen."),
    Opt("force", "--force", kind="flag", default=False,
        help="Overwrite the --out file if it exists."),
)(transcribe_cmd.export_text)
