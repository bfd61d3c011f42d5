"""`blood status`: the table at a glance, in 80 columns.

By night the Night Board (Chain, Reaction Line, Threat track, Minions), the Nemesis and every
Trouper; by day the Wagon, the reserves and what is affordable; at the End of the Night the
rewards; always the phase and what comes next. The document is built in
``cli/status_view.py`` (``--json`` prints it) and cached for the fast path
(``cli/status_fast.py``), which `blood status` uses when the save has not changed since.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from blood_companion.cli import session, views
from blood_companion.cli.common import JsonOpt, print_json
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.textview import print_lines, width
from blood_companion.cli.view_docs import status_doc

if TYPE_CHECKING:
    from blood_companion.store import CampaignStore


def register(app: typer.Typer) -> None:
    app.command("status", short_help=SUMMARIES["status"])(status)


def status(
    as_json: JsonOpt = False,
    cards: Annotated[
        bool, typer.Option("--cards", help="Also the Reaction Line with each card's text.")
    ] = False,
) -> None:
    """The whole table at a glance: the phase and what comes next.

    By night the Night Board, the Nemesis and each Trouper; by day the Wagon, the reserves and
    what is affordable. With --cards, the text of each card on the Reaction Line."""
    with session.open_session() as store:
        doc = status_doc(store)
        extra = _reaction_cards(store) if cards else None
    if extra is None:
        views.show("status", doc, as_json)
        return
    if as_json:
        print_json({**doc, "reaction_cards": extra})
        return
    views.show("status", doc, False)
    from blood_companion.cli.common import stdout

    for line in extra["lines"]:
        stdout.print(line, highlight=False, markup=False)


def _reaction_cards(store: CampaignStore) -> dict[str, Any]:
    """The Reaction Line, each card with its text (`--cards`)."""
    from blood_companion.cli.table_words import reaction_line_lines
    from blood_companion.content.face import card_face

    state, cat = store.state, store.catalog
    line = state.night.reaction_line if state.night is not None else []
    return {
        "lines": reaction_line_lines(state, cat),
        "cards": [
            {"id": s.card, "resolved": s.resolved,
             "text": card_face(cat, s.card,
                               face="weakened" if s.card in state.vlad_weakened else None)}
            for s in line
        ],
    }


def print_night(view: dict[str, Any]) -> None:
    """The Night Board alone (`blood night board`)."""
    from blood_companion.cli.status_view import _render_night

    print_lines(_render_night(view, width()))
