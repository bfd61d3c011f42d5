"""What the night's modules share: looking up cards and Troupers (the phases are in
:mod:`.phases`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from blood_companion.content import models as m
from blood_companion.engine.actions import Action
from blood_companion.engine.dice import DiceBox
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

T = TypeVar("T")


class NightAction(Action):
    """Base of the night's actions: legal in the night part only."""

    parts = ("night",)


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


def _known(card: T | None, what: str, key: str) -> T:
    if card is None:
        raise RuleError(f"unknown {what} card {key!r}")
    return card


def tactic_card(catalog: Catalog, card: str) -> m.TacticCard:
    return _known(catalog.tactic(card), "Tactic", card)


def item_card(catalog: Catalog, item: str) -> m.ItemCard:
    return _known(catalog.item(item), "Item", item)


def event_card(catalog: Catalog, event: str) -> m.Event:
    found: m.Event | None = catalog.get("events", event)
    return _known(found, "Event", event)


def minion_card(catalog: Catalog, minion: str) -> m.Minion:
    found: m.Minion | None = catalog.get("minions", minion)
    return _known(found, "Minion", minion)


def box_of(catalog: Catalog) -> DiceBox:
    """The dice of the data pack."""
    return DiceBox.from_models(catalog.dice)
