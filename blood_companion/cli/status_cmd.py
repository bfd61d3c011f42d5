"""`blood status`: the table at a glance, in 80 columns.

By night the Night Board (Chain, Reaction Line, Threat track, Minions), the Nemesis and every
Trouper; by day the Wagon, the reserves and what is affordable; at the End of the Night the
rewards; always the phase and what comes next. The document is built in
``cli/status_view.py`` (``--json`` prints it) and cached for the fast path
(``cli/status_fast.py``), which `blood status` uses when the save has not changed since.
"""

from __future__ import annotations

from typing import Any

import typer

from blood_companion.cli import session, views
from blood_companion.cli.common import JsonOpt
from blood_companion.cli.textview import print_lines, width
from blood_companion.cli.view_docs import status_doc


def register(app: typer.Typer) -> None:
    app.command("status")(status)


def status(as_json: JsonOpt = False) -> None:
    """The whole table at a glance: the phase and what comes next.

    By night the Night Board, the Nemesis and each Trouper; by day the Wagon, the reserves and
    what is affordable."""
    with session.open_session() as store:
        doc = status_doc(store)
    views.show("status", doc, as_json)


def print_night(view: dict[str, Any]) -> None:
    """The Night Board alone (`blood night board`)."""
    from blood_companion.cli.status_view import _render_night

    print_lines(_render_night(view, width()))
