"""`blood card ...`: any card's text by name or id, and the hands (as `show CARD` and `hand` at
a `blood play` prompt, engine/words/lines.py). Reading only: nothing is recorded."""

from __future__ import annotations

from blood_companion.cli import session
from blood_companion.cli.common import command_group, declare_command, print_json, stdout
from blood_companion.cli.flags import JSON, Opt
from blood_companion.content.face import find_card, kind_of
from blood_companion.engine.table import hand_choices, hidden_hand
from blood_companion.engine.words import hand_lines, show_lines

card_app, register = command_group("card")


@declare_command(card_app, "show",
          Opt("card", kind="words", help="The card's name or id (typos forgiven).",
              complete="card", required=True),
          Opt("ids", "--ids", kind="flag", default=False, help="Show the card's id too."),
          JSON)
def show(card: list[str], ids: bool = False, as_json: bool = False) -> None:
    """A card as printed: its kind, symbols and Effects (any card of the data pack)."""
    text = " ".join(card)
    cat = session.catalog()
    try:
        with session.open_session() as store:
            state = store.state
    except Exception:  # noqa: BLE001 - a card shows without any campaign
        state = None
    lines = show_lines(cat, text, ids=ids, state=state)
    if as_json:
        cid = find_card(cat, text)
        rec = cat.find(cid)
        print_json({"ok": True, "id": cid, "kind": kind_of(cat, cid),
                    "name": getattr(rec, "name", cid), "lines": lines})
        return
    for line in lines:
        stdout.print(line, highlight=False, markup=False)


@declare_command(card_app, "hand",
          Opt("trouper", help="Trouper id, colour or seat [everyone].", complete="trouper"),
          JSON)
def hand(trouper: str | None = None, as_json: bool = False) -> None:
    """The cards in hand; for a hand the app does not see (the Trouper decks at the table),
    how many cards and which ones they can be; the discard pile and the Wounds as known."""
    with session.open_session() as store:
        state, cat = store.state, store.catalog
    lines = hand_lines(state, cat, trouper)
    if as_json:
        idx = [state.trouper_index(trouper)] if trouper else range(len(state.troupers))
        print_json({"ok": True, "hands": [
            {
                "trouper": state.troupers[i].trouper,
                "cards": len(state.troupers[i].hand),
                "hidden": state.night is not None and hidden_hand(state, i),
                "hand": list(state.troupers[i].hand),
                "can_be": hand_choices(state, i) if state.night is not None else [],
            }
            for i in idx
        ]})
        return
    for line in lines:
        stdout.print(line, highlight=False, markup=False)
