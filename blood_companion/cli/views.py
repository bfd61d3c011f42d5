"""Views of a campaign answered from a cached document while the save is unchanged.

A view (`blood status`, `night next`, `day next`, `campaign show`, `campaign log`) is a pure
function of the save and the data pack: the command builds its document (``cli/view_docs.py``;
the board is ``engine/board_view.py``'s), stores it here and renders it (``RENDERERS``). While
the save's head and revision, the data folder and the app version are the same,
:func:`fast_view` renders the stored document without typer, pydantic, the engine or the pack,
and builds it anew without typer when none is stored (:data:`BUILDERS`).
The cache is ``SAVES/.cache/NAME.VIEW.json``, keyed by ``store.peek.head_key`` (a save the
store would refuse or rebuild is never answered from here); anything unusual returns None and
the command runs in full. Standard library only.
"""

from __future__ import annotations

import json
import sys

from blood_companion.cli.settings import Settings, current
from blood_companion.errors import BloodError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from blood_companion.cli.textview import Line
    from blood_companion.store import CampaignStore

SAVE_SUFFIX = ".blood.db"
CACHE_DIR = ".cache"
MAX_CACHE_BYTES = 4 << 20  # a view's document is a few KB

# command words -> (view name, options the fast path answers: as JSON or as text)
VIEWS: dict[tuple[str, ...], tuple[str, frozenset[str]]] = {
    ("status",): ("status", frozenset({"--json"})),
    ("night", "next"): ("night-next", frozenset({"--json"})),
    ("day", "next"): ("day-next", frozenset({"--json"})),
    ("campaign", "show"): ("campaign-show", frozenset({"--json"})),
    ("campaign", "log"): ("campaign-log", frozenset()),  # --json prints every step: no cache
}
# view -> how its document is built from the open campaign when none is stored (or the one
# stored is stale): "module:function", called as function(store) -> document, by the typer
# command and by the fast path alike (a rebuild needs no typer: :func:`fast_view`). The
# campaign's summary and log are built by their typer commands only.
BUILDERS = {
    "status": "blood_companion.cli.view_docs:status_doc",
    "night-next": "blood_companion.cli.night_cmd:next_doc",
    "day-next": "blood_companion.cli.day_cmd:next_doc",
}
# The cache file of the sentences of a campaign's last steps (NAME.said.json), kept beside the
# views by the status (its board shows them): keep, kept_said.
SAID = "said"
# view -> its renderer: "module:function", called as function(doc, width) -> lines
RENDERERS = {
    "status": "blood_companion.cli.status_view:render",
    "night-next": "blood_companion.cli.view_text:night_next",
    "day-next": "blood_companion.cli.view_text:day_next",
    "campaign-show": "blood_companion.cli.view_text:campaign_show",
    "campaign-log": "blood_companion.cli.view_text:campaign_log",
}


def _version() -> str:
    from blood_companion import __version__

    return __version__


def save_path(folder: Path, name: str) -> Path:
    return folder / f"{name}{SAVE_SUFFIX}"


def cache_path(folder: Path, name: str, view: str = "status") -> Path:
    return folder / CACHE_DIR / f"{name}.{view}.json"


def cache_key(head: tuple[str, int, int], settings: Settings) -> dict[str, Any]:
    """What a stored view was drawn from: the head's state hash, the save's revision and the
    head step, with the data folder and the app version."""
    from blood_companion.content.paths import overlay_stamp

    return {
        "state_hash": head[0],
        "revision": head[1],
        "head": head[2],
        "data_dir": settings.data_path or "",
        # the owner's cards (transcribed or hand-written) change what a view shows
        "data_stamp": overlay_stamp(settings.data_path),
        "version": _version(),
    }


def print_doc(doc: Any) -> None:
    """Print one JSON document on stdout (no rich markup, no wrapping; every command's
    ``--json``). Every document says whether the command did what was asked: ``"ok"`` comes
    first (true unless the document already says otherwise)."""
    from blood_companion.display import json_text

    if isinstance(doc, dict) and "ok" not in doc:
        doc = {"ok": True, **doc}
    sys.stdout.write(json_text(doc) + "\n")
    sys.stdout.flush()


# --------------------------------------------------------------------------- storing


def keep(store: Any, view: str, doc: dict[str, Any], said: dict[str, str] | None = None
         ) -> None:
    """Keep a view's document drawn from the open campaign ``store`` (a CampaignStore), keyed
    by the head step, state hash and revision the store holds: the key says what the document
    was drawn from, never what the file holds by the time it is written (another process may
    have recorded a step since). ``said``: the sentences of the steps the document shows, kept
    for the next one in a file of their own (:data:`SAID`, :func:`kept_said`): they hold while
    the data pack and the app do, whatever becomes of the document. Failures only cost speed."""
    drawn = store.drawn_from()
    if drawn is None:
        return
    path = cache_path(store.saves_dir, store.name, view)
    key = cache_key(drawn, current())
    if said:
        _write(cache_path(store.saves_dir, store.name, SAID), {"key": _said_key(key), "by": said})
    last = _kept.get(path)
    if last is not None and last[0] == key and last[1] is doc:  # kept already (status_doc
        return  # keeps the board it builds, and `blood status` keeps what it shows)
    if _write(path, {"key": key, "doc": doc}):
        _kept[path] = (key, doc)


def _write(path: Path, kept: dict[str, Any]) -> bool:
    """Write one file of the cache folder, whole or not at all (False when it was not: a
    failure only costs speed); one that holds ``kept`` already is left as it is."""
    from blood_companion.fileio import remove_stale_tmp, write_atomic

    if _on_disk.get(path) == kept:
        return True
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_tmp(path.parent)  # partial files of a process killed while writing
        text = json.dumps(kept, ensure_ascii=False)
        write_atomic(path, text.encode("utf-8", "surrogatepass"))
    except (OSError, ValueError, BloodError):
        return False
    return True


def _said_key(key: dict[str, Any]) -> dict[str, Any]:
    """What a step's sentence depends on besides its action, out of a view's :func:`cache_key`:
    the data pack and the app."""
    return {k: key[k] for k in ("data_dir", "data_stamp", "version")}


def kept_said(store: Any) -> dict[str, str]:
    """The sentences of the campaign's last steps as a stored status worded them (:func:`keep`,
    the file :data:`SAID`), by the store's ``said_key``: empty when the data pack or the app
    changed since."""
    from blood_companion.fileio import read_text

    path = cache_path(store.saves_dir, store.name, SAID)
    try:
        data = json.loads(read_text(path, limit=MAX_CACHE_BYTES))
    except (BloodError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("key") != _said_key(cache_key(("", 0, 0),
                                                                            current())):
        return {}
    by = data.get("by")
    if not isinstance(by, dict):
        return {}
    said = {k: v for k, v in by.items() if isinstance(k, str) and isinstance(v, str)}
    if said == by:
        _on_disk[path] = data  # what the file holds: the same sentences are not written again
    return said


# The document last kept per cache file, with its key (the same document is written once).
_kept: dict[Path, tuple[Any, dict[str, Any]]] = {}
# A cache file as this process read it (the sentences: kept_said), written again only changed.
_on_disk: dict[Path, dict[str, Any]] = {}


# --------------------------------------------------------------------------- reading


def campaign_of(folder: Path, settings: Settings) -> str | None:
    """The campaign a command acts on, as session.campaign_name chooses it (or None)."""
    from blood_companion.cli.completion import campaign_names
    from blood_companion.fileio import read_text

    if settings.campaign:
        return settings.campaign
    try:
        last = read_text(folder / ".last-campaign", limit=4096).strip()
    except BloodError:
        last = ""
    names = campaign_names(str(folder))
    if last and last in names:
        return last
    return names[0] if len(names) == 1 else None


def cached(view: str, settings: Settings | None = None) -> dict[str, Any] | None:
    """The stored document of a view of the selected campaign, if it is still true."""
    from pathlib import Path

    settings = settings if settings is not None else current()
    folder = Path(settings.saves_path)
    name = campaign_of(folder, settings)
    if not name:
        return None
    from blood_companion.names import campaign_name_problem

    if campaign_name_problem(name) is not None:
        return None  # the full command says what is wrong with it
    from blood_companion.fileio import check_path
    from blood_companion.store.peek import head_key

    try:
        check_path(save_path(folder, name), "the save file")
        head = head_key(save_path(folder, name))
    except (BloodError, ValueError, RecursionError):
        return None
    return None if head is None else _read(folder, name, view, head, settings)


def stored(store: Any, view: str) -> dict[str, Any] | None:
    """The stored document of a view of the open campaign ``store`` while it is true of the
    head the store holds (as :func:`keep` keyed it), else None."""
    drawn = store.drawn_from()
    return None if drawn is None else _read(store.saves_dir, store.name, view, drawn, current())


def _read(folder: Path, name: str, view: str, head: tuple[str, int, int],
          settings: Settings) -> dict[str, Any] | None:
    from blood_companion.fileio import read_text

    try:
        data = json.loads(read_text(cache_path(folder, name, view), limit=MAX_CACHE_BYTES))
    except (BloodError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != cache_key(head, settings):
        return None
    doc = data.get("doc")
    return doc if isinstance(doc, dict) else None


def render(view: str, doc: dict[str, Any], width: int) -> list[Line]:
    """A view's document as lines of ``width`` columns (the one renderer of that view)."""
    import importlib

    module, _, function = RENDERERS[view].partition(":")
    lines: list[Line] = getattr(importlib.import_module(module), function)(doc, width)
    return lines


def show(view: str, doc: dict[str, Any], as_json: bool) -> None:
    """Print a view: its JSON document, or its lines (what the command and the fast path do)."""
    from blood_companion.cli.textview import print_lines, width

    if as_json:
        print_doc(doc)
    else:
        print_lines(render(view, doc, width()))


def match(args: list[str]) -> tuple[str, bool] | None:
    """(view, as JSON) when the command line asks for a view the fast path answers."""
    for words, (view, options) in VIEWS.items():
        n = len(words)
        if tuple(args[:n]) == words:
            rest = args[n:]
            if all(a in options for a in rest) and len(set(rest)) == len(rest):
                return view, "--json" in rest
            return None
    return None


def fast_view(args: list[str], settings: Settings) -> int | None:
    """The exit code of a view answered from its stored document, or None when the command
    must run in full."""
    if args[:2] == ["data", "validate"]:  # the report of an unchanged pack: cli/data_fast.py
        from blood_companion.cli.data_fast import fast_main

        return fast_main(args[2:], settings)
    found = match(args)
    if found is None:
        return None
    view, as_json = found
    try:
        doc = cached(view, settings)
        if doc is None:
            return rebuild(view, args, settings, as_json)
        if not as_json:
            from blood_companion.cli.textview import width

            lines = render(view, doc, width())
    except Exception:  # noqa: BLE001 - a cache we cannot render is no cache: build it anew
        return None
    try:
        if as_json:
            show(view, doc, True)
        else:
            from blood_companion.cli.textview import print_lines

            print_lines(lines)
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence (cli.entry.unexpected)
        from blood_companion.cli.failures import unexpected

        return unexpected(" ".join(args[:2]).replace(" --json", ""), exc, as_json)
    return 0


def builder(view: str) -> Callable[[CampaignStore], dict[str, Any]]:
    """The function building ``view``'s document from the open campaign (:data:`BUILDERS`)."""
    from importlib import import_module

    module, _, name = BUILDERS[view].partition(":")
    found: Callable[[CampaignStore], dict[str, Any]] = getattr(import_module(module), name)
    return found


def rebuild(view: str, args: list[str], settings: Settings, as_json: bool) -> int | None:
    """The exit code of ``view`` built anew, printed and stored as its typer command does it
    (``session.view``), without typer; None for a view built by its typer command only, or
    with ``BLOOD_FAST=0``. A failure is reported as the typer app reports it."""
    import os

    if view not in BUILDERS or os.environ.get("BLOOD_FAST") == "0":
        return None
    from blood_companion.cli import session
    from blood_companion.cli.common import failed
    from blood_companion.cli.settings import using

    words = next(" ".join(w) for w, (v, _) in VIEWS.items() if v == view)
    try:
        with using(settings):
            session.view(view, builder(view), as_json)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - as cli/app.py run says it
        return failed(exc, args, lambda: words)
    return 0
