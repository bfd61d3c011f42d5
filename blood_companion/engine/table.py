"""Who holds each deck (``CampaignState.decks``, changed by ``SetDecks``): the app, which
shuffles, draws and names every card, or the players at the table with the real cards, who tell
the app what came up. The action records the cards they named (``Action.drawn``), so any replay
gives the same cards; a card nobody named yet raises :class:`DrawNeeded` and the CLI asks.

Trouper decks at the table keep their hands hidden: the app keeps counts and what is known,
writes :data:`UNKNOWN` for a card it cannot see and asks which card was played among those that
can be in the hand (:func:`hand_choices`); which card a Wound took stays unknown ("Wounding a
Trouper": face down).

Rulebook sections: "Setup", "Dusk Phase", "Show Phase", "Beginning of the Night", "Wounding a
Trouper", "Wounding a Nemesis", "Summon", "End of the Night"; docs/rules-decisions.md ("Physical
cards and the app").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.engine import naming
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

HOLDERS: tuple[str, ...] = ("app", "table")
UNKNOWN = "?"  # a card the app cannot see (in a hand, a deck or a Wound of a table deck)

# deck -> what players call it
DECKS: dict[str, str] = {
    "troupers": "the Trouper decks", "reactions": "the Nemesis Reaction deck",
    "minions": "the Minion cards", "events": "the Event cards", "locations": "the Location cards",
    "nemeses": "the Nemesis cards", "advanced": "the Advanced Tactic decks",
    "loot": "the loot dice"}
# what one card of the deck is called (for "which ... did you draw?")
CARD_OF: dict[str, str] = {
    "troupers": "Tactic card", "reactions": "Reaction card", "minions": "Minion card",
    "events": "Event card", "locations": "Location card", "nemeses": "Nemesis card",
    "advanced": "Advanced Tactic card", "loot": "loot die"}
# other words players may type for a deck
ALIASES: dict[str, str] = {
    "trouper": "troupers", "tactics": "troupers", "hands": "troupers", "hand": "troupers",
    "reaction": "reactions", "nemesis-deck": "reactions", "reaction-deck": "reactions",
    "minion": "minions", "event": "events", "location": "locations", "nemesis": "nemeses",
    "advanced-tactics": "advanced", "advanced-tactic": "advanced", "art": "advanced",
    "arts": "advanced", "dice": "loot",
}


def holder(state: CampaignState, deck: str) -> str:
    """Who holds `deck` in this campaign ("app" unless the players said otherwise)."""
    return state.decks.get(deck, "app")


def at_table(state: CampaignState, deck: str) -> bool:
    return holder(state, deck) == "table"


def holders(state: CampaignState) -> dict[str, str]:
    """Every deck and who holds it."""
    return {deck: holder(state, deck) for deck in DECKS}


def deck_key(word: str) -> str:
    """The deck a typed word names (id, alias, or a close typo). RuleError otherwise."""
    low = word.strip().lower().replace("_", "-")
    if low in DECKS:
        return low
    if low in ALIASES:
        return ALIASES[low]
    cands = [(d, d) for d in DECKS] + [(a, d) for a, d in ALIASES.items()]
    hit = naming.find(low, [(d, d) for d in DECKS])
    if len(hit) == 1:
        return hit[0]
    close = naming.suggestions(low, cands)
    raise RuleError(f"no deck is called {word.strip()!r}",
                    hint=("did you mean " + " or ".join(close) + "? " if close else "")
                    + "decks: " + ", ".join(DECKS) + " (or all)")


def parse_holders(text: str) -> dict[str, str]:
    """``table``, ``app``, ``all=table`` or ``troupers=table,reactions=table`` as a mapping."""
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        deck, sep, who = part.partition("=")
        if not sep:
            deck, who = "all", deck
        who = who.strip().lower()
        if who not in HOLDERS:
            raise RuleError(f"who holds a deck is app or table, not {who!r}",
                            hint="e.g. all=table or troupers=table,reactions=app")
        keys = list(DECKS) if deck.strip().lower() in ("all", "*", "every") else [deck_key(deck)]
        for k in keys:
            out[k] = who
    if not out:
        raise RuleError("say who holds which deck", hint="e.g. all=table or troupers=table")
    return out


def normal_decks(decks: Mapping[str, str]) -> dict[str, str]:
    """The setting as stored: only the decks the table holds, in the order of :data:`DECKS`."""
    for deck, who in decks.items():
        if deck not in DECKS:
            raise RuleError(f"no deck is called {deck!r}", hint="decks: " + ", ".join(DECKS))
        if who not in HOLDERS:
            raise RuleError(f"who holds {DECKS[deck]} is app or table, not {who!r}")
    return {d: "table" for d in DECKS if decks.get(d) == "table"}


def holders_text(state: CampaignState) -> str:
    """The setting in one sentence."""
    table = [DECKS[d] for d in DECKS if at_table(state, d)]
    if not table:
        return "The app shuffles and draws every deck and names each card it draws."
    if len(table) == len(DECKS):
        return "The players shuffle and draw every deck and tell the app what came up."
    return ("The players hold " + ", ".join(table) + "; the app holds the rest and names each "
            "card it draws.")


# --------------------------------------------------------------------------- named draws


class DrawNeeded(RuleError):
    """The action draws a card from a deck the table holds and nobody named it yet: the CLI
    asks ``prompt``, adds the answer to the action's ``drawn`` and records again."""

    def __init__(self, deck: str, candidates: Sequence[str], prompt: str,
                 names: Sequence[str] = (), state: CampaignState | None = None) -> None:
        self.deck = deck
        self.candidates = list(candidates)
        self.names = list(names) or list(candidates)
        self.prompt = prompt
        # The state as the step left it when it needed the card: what it already did (a roll,
        # a reshuffle, a card revealed) is told before the question ("told in table order").
        self.state = state
        super().__init__(prompt, hint=f"name the {CARD_OF.get(deck, 'card')} ("
                         + ", ".join(self.names[:12])
                         + (" ..." if len(self.names) > 12 else "") + ")")


def done_so_far(need: DrawNeeded, before: CampaignState) -> list[Any]:
    """The night's log entries the step wrote before it needed the card."""
    after = need.state
    if after is None or after.night is None:
        return []
    start = len(before.night.log) if before.night is not None else 0
    return list(after.night.log[start:])


def card_label(catalog: Catalog | None, cid: str) -> str:
    """A card's name in the data pack in use (its id when the pack no longer has it)."""
    if catalog is None:
        return cid
    # a Vlad card: its Enhanced side
    from blood_companion.engine.words.names import record_name

    return record_name(catalog, cid)


def named_draw(rng: Chance, catalog: Catalog, deck: str, candidates: Sequence[str],
               prompt: str, state: CampaignState | None = None) -> str:
    """The card the table drew from `deck`: the next one the action named, one of `candidates`
    (:class:`DrawNeeded` with `state`, the step's state so far, when none is)."""
    cands = list(dict.fromkeys(candidates))
    pairs = sorted(((c, card_label(catalog, c)) for c in cands), key=lambda p: p[1].lower())
    got = rng.take_named(deck)
    if got is None:
        raise DrawNeeded(deck, [c for c, _ in pairs], prompt, [n for _, n in pairs], state)
    hits = naming.find(got, pairs)
    if len(hits) == 1:
        return hits[0]
    rec = catalog.find(got)
    shown = ", ".join(n for _, n in pairs[:12]) or "none"
    if rec is not None:
        raise RuleError(f"{card_label(catalog, rec.id)} cannot be drawn from {DECKS[deck]} now",
                        hint=f"it can be: {shown}")
    naming.match(got, pairs, CARD_OF[deck])  # raises with the closest names
    raise RuleError(f"{got!r} names several cards", hint=f"it can be: {shown}")  # pragma: no cover


# --------------------------------------------------------------------------- Trouper hands


def known(cards: Sequence[str]) -> list[str]:
    return [c for c in cards if c != UNKNOWN]


def in_zones(state: CampaignState, i: int) -> list[str]:
    """Trouper `i`'s cards in a zone of the board (:data:`UNKNOWN` for those the app cannot see)."""
    t = state.troupers[i]
    chain = state.night.chain if state.night is not None else []
    return [*t.draw_pile, *t.hand, *t.discard, *t.wounds,
            *(s.card for s in chain if s.owner == i and s.kind in ("tactic", "rest"))]


def unseen(state: CampaignState, i: int) -> list[str]:
    """The cards of Trouper `i`'s deck the app cannot place in a zone, in deck order."""
    t = state.troupers[i]
    left = Counter(t.deck) - Counter(known(in_zones(state, i)))
    out = []
    for c in t.deck:
        if left[c] > 0:
            out.append(c)
            left[c] -= 1
    return out


def hidden_hand(state: CampaignState, i: int) -> bool:
    return UNKNOWN in state.troupers[i].hand


def hand_choices(state: CampaignState, i: int) -> list[str]:
    """The cards Trouper `i` may name from the hand (a hidden one: every card it can hold)."""
    hand = state.troupers[i].hand
    if UNKNOWN not in hand:
        return list(dict.fromkeys(hand))
    return list(dict.fromkeys([*known(hand), *unseen(state, i)]))


def where_is(state: CampaignState, catalog: Catalog | None, i: int, card: str) -> str:
    """Where a card of Trouper `i` lies when it cannot be in the hand (for refusals)."""
    t = state.troupers[i]
    name = card_label(catalog, card)
    who = card_label(catalog, t.trouper)
    if card not in t.deck:
        return f"{name} is not in {who}'s deck"
    if card in t.discard:
        return f"{name} is in {who}'s discard pile"
    if card in t.wounds:
        return f"{name} is among {who}'s Wounds"
    if state.night is not None and any(s.card == card and s.owner == i for s in state.night.chain):
        return f"{name} is on the Chain"
    if card in t.draw_pile:
        return f"{name} is still in {who}'s deck"
    return f"{name} is not in {who}'s hand"


def take_from_hand(state: CampaignState, catalog: Catalog | None, i: int, cards: Sequence[str]
                   ) -> list[str]:
    """Trouper `i`'s hand without `cards` (:func:`take_cards`)."""
    return take_cards(state, i, state.troupers[i].hand, cards, lambda c: where_is(
        state, catalog, i, c) if c != UNKNOWN else "name the card from the hand")


def take_cards(state: CampaignState, i: int, pile: Sequence[str], cards: Sequence[str],
               missing: Callable[[str], str]) -> list[str]:
    """Trouper `i`'s `pile` (hand, Wounds) without `cards`, each a known card of it or one that
    can be among its unseen cards (else RuleError with ``missing(card)``)."""
    left = list(pile)
    could = Counter(unseen(state, i)) if UNKNOWN in left else Counter()
    for c in cards:
        if c in left:  # a card the app sees, or an unseen one moved as it is (a whole hand)
            left.remove(c)
        elif UNKNOWN in left and could[c] > 0:
            left.remove(UNKNOWN)
            could[c] -= 1
        else:
            raise RuleError(missing(c))
    return left


def hide(cards: Sequence[str]) -> list[str]:
    return [UNKNOWN] * len(cards)
