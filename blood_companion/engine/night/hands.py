"""Whose hand a night's option is about, and its cards as follow-up answers (engine/legal.py
``Pick``): below the night's actions, which ask them (``question``), and engine/night/asks.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.night.core import card_label
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import hand_choices, hidden_hand

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def hand_picks(state: CampaignState, catalog: Catalog, t: int) -> tuple[Pick, ...]:
    """The cards of Trouper ``t``'s hand to choose from, one per card held (two copies of a
    card: two picks); a hand the app does not see (the Trouper decks at the table,
    engine/table.py) offers every card that can be in it."""
    cards = hand_choices(state, t) if hidden_hand(state, t) else state.troupers[t].hand
    return tuple(Pick(str(i + 1), card_label(catalog, c), c) for i, c in enumerate(cards))


def holds(state: CampaignState, catalog: Catalog, t: int) -> str:
    """"Aurel holds 3 cards": why no more cards of the hand can be named."""
    return f"{fx.name_of(state, catalog, t)} holds {len(state.troupers[t].hand)} card(s)"


def from_hand(state: CampaignState, catalog: Catalog, t: int, need: str, prompt: str,
               n: int | None = None) -> Ask:
    """Which card (``n`` None) or which ``n`` cards of Trouper ``t``'s hand (never more than
    it holds: a Cost it cannot pay is not offered); Enter takes the last ones when the app
    sees the hand."""
    picks = hand_picks(state, catalog, t)
    k = 1 if n is None else n
    seen = bool(picks) and len(picks) >= k and not hidden_hand(state, t)
    return Ask(need, prompt, picks, many=None if n is None else (k, k),
               default=" ".join(p.key for p in picks[-k:]) if seen else None,
               most_why=holds(state, catalog, t))


def actor(state: CampaignState, option: Option) -> int:
    """The Trouper who acts for an option: the Item's owner, the Quick card's owner, the Active
    one, the Trouper a question waits on, or the Planning Phase player."""
    night = night_of(state)
    if option.kind == "night_item" and option.fields.get("trouper"):
        return state.trouper_index(str(option.fields["trouper"]))
    if option.kind == "night_quick":
        slot = night.chain[ch.card_at(night.chain, int(str(option.fields["slot"])))]
        return slot.owner or 0
    if night.activation is not None:
        return night.activation.trouper
    if night.pending and night.pending[0].trouper is not None:
        return night.pending[0].trouper
    return night.to_play or 0
