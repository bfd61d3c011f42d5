"""A bug report in one file (`blood report`): the campaign's export with what a maintainer needs
beside it, and no path of the reporter's machine.

The file is the campaign's export document (the format `blood campaign export` writes and
`blood campaign import` reads, which ignores keys it does not know) with one more key,
``report``: the app and Python versions, the platform, the data pack's fingerprint, the overlay
files that differ from the shipped pack, the campaign at a glance and the last log lines.

Every string of the document goes through :func:`redact`: the saves folder, the data folders,
the home folder (and any other absolute path) are replaced by placeholders (``<saves>``,
``<data-dir>``, ``<shipped-data>``, ``~``, ``<path>``), so the file can be attached to a public
issue. Standard library only.
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
    """The folders a report names by placeholder, longest first (as typed and resolved)."""
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
    """``text`` with each known folder replaced by its placeholder and any other absolute path
    by ``<path>``."""
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
        out, n = [], 0
        for item in value:
            item, k = redact(item, where)
            out.append(item)
            n += k
        return out, n
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        n = 0
        for key, item in value.items():
            new_key, k1 = redact(key, where)
            result[new_key], k2 = redact(item, where)
            n += k1 + k2
        return result, n
    return value, 0


def overlay_changes(shipped: Path, overlay: Path) -> list[dict[str, str]]:
    """The overlay's data files that differ from the shipped pack, by path inside the overlay:
    ``added`` (no shipped file of that name), ``differs``, or ``unreadable`` with the reason.
    Hidden files and folders are skipped, links are not followed."""
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
    """The report document: ``report`` first, then the export's keys; every string redacted.
    Returns it with the number of strings redacted in the report and in the export (an export
    changed by redaction may no longer import: the report says so)."""
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
