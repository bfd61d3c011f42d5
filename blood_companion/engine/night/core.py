"""What the night's modules share: looking up cards and Troupers (the phases are in
:mod:`.phases`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.content import models as m
from blood_companion.engine.dice import DiceBox
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def trouper_index(state: CampaignState, who: str | int) -> int:
    """A Trouper by index (int), or by id, colour or 1-based seat (str)."""
    if isinstance(who, int):
        if 0 <= who < len(state.troupers):
            return who
        raise RuleError(f"no Trouper number {who + 1}")
    return state.trouper_index(who)


def can_play(state: CampaignState, i: int) -> bool:
    t = state.troupers[i]
    return not t.knocked_out and bool(t.hand)


def card_name(catalog: Catalog, card: str) -> str:
    c = catalog.tactic(card) or catalog.get("events", card)
    return c.name if c is not None else card


def card_label(catalog: Catalog, c: str) -> str:
    """A card of a hand as the menus name it: "Name (Threat 2, Cascade)"."""
    card = catalog.tactic(c)
    if card is None:
        return card_name(catalog, c)
    tags = (", Cascade" if card.cascade else "") + (", Block" if card.block else "")
    return f"{card.name} (Threat {card.threat}{tags})"


def tactic_card(catalog: Catalog, card: str) -> m.TacticCard:
    c = catalog.tactic(card)
    if c is None:
        raise RuleError(f"unknown Tactic card {card!r}")
    return c


def item_card(catalog: Catalog, item: str) -> m.ItemCard:
    c = catalog.item(item)
    if c is None:
        raise RuleError(f"unknown Item card {item!r}")
    return c


def event_card(catalog: Catalog, event: str) -> m.Event:
    c: m.Event | None = catalog.get("events", event)
    if c is None:
        raise RuleError(f"unknown Event card {event!r}")
    return c


def minion_card(catalog: Catalog, minion: str) -> m.Minion:
    c: m.Minion | None = catalog.get("minions", minion)
    if c is None:
        raise RuleError(f"unknown Minion card {minion!r}")
    return c


def box_of(catalog: Catalog) -> DiceBox:
    return DiceBox.from_models(catalog.dice)
