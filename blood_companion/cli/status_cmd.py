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

from blood_companion.cli import session
from blood_companion.cli.common import JSON_HELP, print_json
from blood_companion.cli.status_fast import print_lines, width, write_cache
from blood_companion.cli.status_view import build_doc, render
from blood_companion.store import CampaignStore


def register(app: typer.Typer) -> None:
    app.command("status")(status)


def status_doc(store: CampaignStore) -> dict[str, Any]:
    """The status document of an open campaign; refreshes the fast path's cache."""
    doc = build_doc(
        store.state,
        store.catalog,
        name=store.name,
        head=store.head,
        state_hash=store.state_hash,
    )
    write_cache(store.saves_dir, store.name, doc)
    return doc


def status(
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    cards: bool = typer.Option(
        False, "--cards", help="Also the Reaction Line with each card's text."
    ),
) -> None:
    """The whole table: phase and what comes next, the Night Board, the Nemesis, each Trouper;
    by day the Wagon, reserves and what is affordable."""
    with session.open_session() as store:
        doc = status_doc(store)
        extra = _reaction_cards(store) if cards else None
    if as_json:
        print_json({**doc, "reaction_cards": extra} if cards else doc)
        return
    print_lines(render(doc, width()))
    if extra is not None:
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
