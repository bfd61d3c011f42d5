"""`blood status`: the table at a glance, in 80 columns. The document is the engine's board
(``engine/board_view.py``; ``--json`` prints it), drawn by ``cli/render.py``; the one stored
after the last step (``cli/views.py``) is shown while the save is unchanged."""

from __future__ import annotations

from typing import Any, cast

import typer
from rich.text import Text

from blood_companion.cli import session, views
from blood_companion.cli.common import declare_command, print_json
from blood_companion.cli.flags import JSON, Opt
from blood_companion.cli.render import print_view, reaction_cards, render, render_night, width
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.view_docs import status_doc
from blood_companion.engine.board_view import Board, NightBoard


def register(app: typer.Typer) -> None:
    cards = Opt("cards", "--cards", kind="flag", default=False,
                help="Also the Reaction Line with each card's text.")
    declare_command(app, "status", JSON, cards, short_help=SUMMARIES["status"])(status)


def status(as_json: bool = False, cards: bool = False) -> None:
    """The whole table at a glance: the phase and what comes next.

    By night the Night Board, the Nemesis and each Trouper; by day the Wagon, the reserves and
    what is affordable. With --cards, the text of each card on the Reaction Line."""
    with session.open_session() as store:
        doc = views.stored(store) or status_doc(store)
    if not cards:
        show(doc, as_json)
        return

    night = doc["night"]
    extra: dict[str, Any] = {
        "lines": reaction_cards(night),
        "cards": [{"id": r["card"], "resolved": r["resolved"], "text": [r["heading"], *r["text"]]}
                  for r in (night["reaction_line"] if night else [])],
    }
    if as_json:
        print_json({**doc, "reaction_cards": extra})
        return
    show(doc, False)
    print_view([Text(line) for line in reaction_cards(night, width())])


def show(doc: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(doc)
    else:
        print_view(render(cast(Board, doc), width()))


def print_night(view: NightBoard) -> None:
    """The Night Board alone (`blood night board`)."""
    print_view(render_night(view, width()))
