"""A bug report in one file (`blood report`): the campaign's export with what a maintainer needs
beside it, and no path of the reporter's machine.

The file is the campaign's export (import ignores unknown keys) with one more key, ``report``:
versions, platform, data fingerprint, overlay files that differ, the campaign at a glance and
its last log lines. Every string goes through :func:`redact` (``<saves>``, ``<data-dir>``,
``<shipped-data>``, ``~``, ``<path>``), so it can be attached to a public issue.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from blood_companion.fileio import FileProblem, read_regular

LOG_LINES = 30
MAX_OVERLAY_FILES = 500
MAX_DATA_FILE = 8 << 20  # a data file larger than this is listed as such, not compared
DATA_SUFFIXES = (".yaml", ".yml")

# An absolute path left after the known folders are replaced: "/x/y" not inside a word, a URL
# or a fraction ("3/12"), or a Windows drive path ("C:\\x").
ABSOLUTE = re.compile(r"(?<![\w.~<>:/\\-])/[\w.@+-]+(?:/[\w.@+-]*)*|\b[A-Za-z]:[\\/][^\s\"']*")


def places(saves: str | os.PathLike[str], shipped: str | os.PathLike[str],
           overlay: str | os.PathLike[str] | None) -> list[tuple[str, str]]:
    named = [(saves, "<saves>"), (shipped, "<shipped-data>")]
    if overlay is not None:
        named.append((overlay, "<data-dir>"))
    home = [h for h in {os.path.expanduser("~"), os.environ.get("HOME", "")} if h and h != "/"]
    named.extend((h, "~") for h in home)
    found: dict[str, str] = {}
    for folder, label in named:
        for form in {os.path.abspath(folder), os.path.realpath(folder)}:
            if form != os.sep:
                found.setdefault(form.rstrip(os.sep), label)
    return sorted(found.items(), key=lambda kv: -len(kv[0]))


def redact_text(text: str, where: list[tuple[str, str]]) -> str:
    for folder, label in where:
        if folder in text:
            text = text.replace(folder, label)
    return ABSOLUTE.sub("<path>", text)


def redact(value: Any, where: list[tuple[str, str]]) -> tuple[Any, int]:
    """A JSON value with every string (keys too) redacted, and how many strings changed."""
    if isinstance(value, str):
        new = redact_text(value, where)
        return new, int(new != value)
    if isinstance(value, list):
        items = [redact(item, where) for item in value]
        return [item for item, _ in items], sum(n for _, n in items)
    if isinstance(value, dict):
        pairs = [(redact(key, where), redact(item, where)) for key, item in value.items()]
        return {k: v for (k, _), (v, _) in pairs}, sum(m + n for (_, m), (_, n) in pairs)
    return value, 0


def overlay_changes(shipped: Path, overlay: Path) -> list[dict[str, str]]:
    """The overlay's data files that are ``added``, ``differs`` or ``unreadable: why`` against
    the shipped pack (hidden ones skipped, links not followed)."""
    changes: list[dict[str, str]] = []
    for root, dirs, files in os.walk(overlay):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(DATA_SUFFIXES):
                continue
            path = Path(root) / name
            rel = path.relative_to(overlay).as_posix()
            status = _compare(path, shipped / rel)
            if status:
                changes.append({"file": rel, "status": status})
            if len(changes) >= MAX_OVERLAY_FILES:
                return changes
    return changes


def _compare(mine: Path, theirs: Path) -> str:
    try:
        data = read_regular(mine, limit=MAX_DATA_FILE, what="the data file")
    except FileProblem as exc:
        return f"unreadable: {exc.reason}"
    try:
        shipped = read_regular(theirs, limit=MAX_DATA_FILE, what="the data file")
    except FileProblem:
        return "added"
    return "" if data == shipped else "differs"


def assemble(export: dict[str, Any], about: dict[str, Any], campaign: dict[str, Any],
             overlay: list[dict[str, str]], log: list[str], created: str,
             where: list[tuple[str, str]]) -> tuple[dict[str, Any], dict[str, int]]:
    """The report document, redacted, and how many strings of the report and of the export
    were (an export changed may no longer import: the report says so)."""
    report: dict[str, Any] = {
        "kind": "blood-companion bug report",
        "created": created,
        "app": {"name": about.get("name"), "version": about.get("version")},
        "python": {"version": about.get("python"),
                   "implementation": about.get("implementation")},
        "platform": about.get("platform_detail") or about.get("platform"),
        "data": {
            "fingerprint": about.get("data_fingerprint"),
            "error": about.get("data_error"),
            "overlay": "<data-dir>" if about.get("overlay") else None,
            "overlay_files": overlay,
        },
        "campaign": campaign,
        "log": log,
        "import": "blood campaign import THIS_FILE (with the same --data-dir) reopens the "
                  "campaign",
    }
    report, in_report = redact(report, where)
    body, in_export = redact(export, where)
    if in_export:
        report["export_redacted"] = (
            f"{in_export} text(s) of the campaign held a path and were redacted; the export "
            "may not import"
        )
    return {"report": report, **body}, {"report": in_report, "export": in_export}
