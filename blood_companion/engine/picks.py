"""The follow-up answers the actions' questions share (engine/legal.py ``Pick``): who takes
a Tactic card of an Art, the dice faces typed. Below the actions (no view imported)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.content.face import trouper_name
from blood_companion.engine.dice import DiceBox, parse_faces, parse_pool
from blood_companion.engine.legal import Pick
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def faces_reader(catalog: Catalog, pool: str) -> Any:
    """Free text -> the faces typed, checked against the dice of ``pool`` (else asked again)."""
    box = DiceBox.from_models(catalog.dice)
    dice = parse_pool(pool, box)

    def parse(text: str) -> str:
        parse_faces(text, dice, box)
        return text

    return parse


def arts_of(catalog: Catalog, trouper: str) -> set[str]:
    """The Arts a Trouper's deck is built from (the Building rule on the Trouper card)."""
    card = catalog.trouper(trouper)
    return {str(b.art) for b in card.building} if card is not None else set()


def art_picks(state: CampaignState, catalog: Catalog, art: str | None, first: int = 0
              ) -> tuple[tuple[Pick, ...], str | None]:
    """Who takes a Tactic card of ``art``: every Trouper, warned when their Building rule never
    uses it ("Replacing a Tactic Card"), the first who can from seat ``first`` by default."""
    picks = []
    for i, t in enumerate(state.troupers):
        name = trouper_name(catalog, t.trouper)
        usable = art is None or art in arts_of(catalog, t.trouper)
        warn = "" if usable else (
            f"{name}'s deck is built from " + ", ".join(sorted(arts_of(catalog, t.trouper)))
            + f" cards (the Building rule): this {art} card could never be swapped into it")
        label = f"{name} ({t.colour})" + ("" if usable else f" - cannot use {art}")
        picks.append(Pick(str(i + 1), label, t.trouper, warn=warn))
    n = len(picks)
    order = [(first + k) % n for k in range(n)] if n else []
    default = next((str(i + 1) for i in order if not picks[i].warn), str(order[0] + 1)
                   if order else None)
    return tuple(picks), default
