"""`blood table`: the full-screen table view on the laptop (issue 28; cli/table_app.py).

Only this command imports Textual, and only when it runs."""

from __future__ import annotations

import sys

import typer

from blood_companion.cli import session
from blood_companion.cli.common import declare_command, stdout
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.errors import UsageError


def register(app: typer.Typer) -> None:
    declare_command(app, "table", short_help=SUMMARIES["table"])(table)


def table() -> None:
    """The whole table on one screen: the board, the log and the question now, answered as in
    `blood play` (same keys, defaults, dice entry, undo/redo, prompt commands). Every answer
    is saved; `blood table` or `blood play` resumes. Ctrl+Q or `quit` leaves."""
    with session.open_session() as store:  # a campaign that does not exist: refused
        name = store.name
    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # a pipe or a script: no screen
        raise UsageError("blood table needs a terminal to draw on",
                         hint="from a script or a pipe, use `blood play` (or `blood status`)")
    from blood_companion.cli.table_app import TableApp  # Textual: only when the table runs

    app = TableApp(name)
    app.run()
    said = app.feed.take()  # the loop's last words ("Saved...", the game's end)
    if said:
        stdout.print(said.replace("blood play", "blood table"), markup=False, highlight=False)
