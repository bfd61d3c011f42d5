"""`blood report [NAME]`: one file to attach to a bug report (blood_companion/report.py): the
campaign's export (`blood campaign import` reopens it), the versions, the data fingerprint, the
changed overlay files and the last log lines; no path of the user's machine."""

from __future__ import annotations

import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from blood_companion import report as bundle
from blood_companion.cli import session
from blood_companion.cli.about import version_doc
from blood_companion.cli.common import declare_command, print_json, stdout
from blood_companion.cli.flags import JSON, Opt
from blood_companion.cli.settings import current
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.content import raw
from blood_companion.display import json_text
from blood_companion.fileio import check_file_path, write_file
from blood_companion.store import CampaignStore

OPTIONS = (
    Opt("name", help="The campaign (default: --campaign, else the last used).",
        complete="campaign"),
    Opt("out", "--out", kind="path",
        help="The file to write (default: blood-report-NAME.json in this folder)."),
    Opt("force", "--force", kind="flag", default=False, help="Overwrite an existing file."),
    JSON,
)


def register(app: typer.Typer) -> None:
    declare_command(app, "report", *OPTIONS, short_help=SUMMARIES["report"])(report)


def report(name: str | None = None, out: Path | None = None, force: bool = False,
           as_json: bool = False) -> None:
    """Write one file to attach to a bug report: the campaign's export and last log lines,
    the app, Python and platform, the data fingerprint and your changed data files.

    No path of your computer is in it (folders are shown as <saves>, <data-dir>, ~).
    `blood campaign import FILE` reopens the campaign from it."""
    settings = current()
    folder = session.saves_dir()
    chosen = session.campaign_name(name)
    target = out if out is not None else Path(f"blood-report-{chosen}.json")
    check_file_path(target, "the report file")
    # Refused before anything is read (a long campaign takes a while to export).
    write_file(target, b"", what="the report file", force=force, saves_dir=folder,
               check_only=True)
    about = version_doc(settings)
    about["platform_detail"] = {"system": platform.system(), "release": platform.release(),
                                "machine": platform.machine(), "sys_platform": about["platform"]}
    layers = raw.layers_for(settings.data_dir)
    overlay = layers[1] if len(layers) > 1 else None
    changed = bundle.overlay_changes(layers[0], overlay) if overlay is not None else []
    with CampaignStore.open(folder, chosen, session.catalog) as store:
        export = store.export_doc()
        campaign = {"name": store.name, "mode": export.get("mode", ""), "head": store.head,
                    "log_length": store.log_length, "state_hash": store.state_hash}
        log = [_log_line(e) for e in store.log(last=bundle.LOG_LINES)]
    where = bundle.places(folder, layers[0], overlay)
    created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    doc, redacted = bundle.assemble(export, about, campaign, changed, log, created, where)
    data = (json_text(doc) + "\n").encode("utf-8")
    write_file(target, data, what="the report file", force=force, saves_dir=folder)
    summary: dict[str, Any] = {
        "ok": True, "report": str(target), "campaign": chosen, "bytes": len(data),
        "app_version": about["version"], "data_fingerprint": about["data_fingerprint"],
        "overlay_files": changed, "log_lines": len(log), "redacted": redacted,
    }
    if as_json:
        print_json(summary)
        return
    files = ", ".join(c["file"] for c in changed) or "none"
    stdout.print(
        f"Wrote the report for {chosen!r} to {target} ({len(data):,} bytes): app "
        f"{about['version']}, data {about['data_fingerprint'] or 'not loaded'}, your changed data "
        f"files: {files}. Attach it to the bug report; `blood campaign import {target}` reopens "
        "the campaign.", markup=False)


def _log_line(entry: Any) -> str:
    status = "" if entry.status == "done" else f" ({entry.status})"
    return f"{entry.step}. {entry.sentence}{status}"
