"""Lookups the Day's steps share: cards and buildings by id or name, the Troupers, the
nemeses still available, the Building rule, and writing the Day's state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.engine import naming
from blood_companion.engine.day_state import DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState, TrouperState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

def match_id(text: str, candidates: Iterable[tuple[str, str]], what: str) -> str:
    """The id among ``(id, name)`` candidates that `text` names: the exact id, a unique id
    prefix, the name (any case) or a unique name prefix. Raises RuleError otherwise."""
    cands = list(dict.fromkeys(candidates))
    key = text.strip().lower()
    if not key:
        raise RuleError(f"no {what} given")
    for cid, _ in cands:
        if cid == key:
            return cid
    for cid, name in cands:
        if name.lower() == key:
            return cid
    hits = [cid for cid, name in cands if cid.startswith(key) or name.lower().startswith(key)]
    hits = list(dict.fromkeys(hits))
    if len(hits) == 1:
        return hits[0]
    shown = ", ".join(name for _, name in cands[:12]) + (" ..." if len(cands) > 12 else "")
    if hits:
        raise RuleError(
            f"{text!r} could be several {what}s: {', '.join(hits[:8])}",
            hint="type more of the name",
        )
    # a part of the name, a typo (engine/naming.py)
    found = naming.find(text, cands)
    if len(found) == 1:
        return found[0]
    close = naming.suggestions(text, cands)
    hint = ("did you mean " + " or ".join(close) + "? " if close else "") + (
        f"choices: {shown}" if cands else "")
    raise RuleError(f"unknown {what} {text!r}", hint=hint or None)


def trouper_at(state: CampaignState, who: str) -> int:
    """Index of the Trouper named by id, colour or seat; RuleError when nobody matches."""
    return state.trouper_index(who)


def tactic_names(catalog: Catalog, ids: Iterable[str]) -> list[tuple[str, str]]:
    out = []
    for cid in ids:
        card = catalog.tactic(cid)
        out.append((cid, card.name if card is not None else cid))
    return out


def item_names(catalog: Catalog, ids: Iterable[str]) -> list[tuple[str, str]]:
    out = []
    for iid in ids:
        card = catalog.item(iid)
        out.append((iid, card.name if card is not None else iid))
    return out


def building_for(catalog: Catalog, text: str) -> m.Building:
    """The Bran building named by id, effect name, name or a unique prefix."""
    buildings = catalog.village.buildings
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    for b in buildings:
        if key == b.effect:  # the effect names work too: cartographer, alchemist, ...
            return b
    bid = match_id(text, [(b.id, b.name) for b in buildings], "building")
    return next(b for b in buildings if b.id == bid)


def available_nemeses(state: CampaignState, catalog: Catalog) -> list[str]:
    """Lieutenants not defeated since the box was last reset.

    Roguelite Mode: beating Vlad returns the box to its starting point, so a "box cycle" starts
    after the last game won against Vlad; a lieutenant the players beat in this cycle is no
    longer revealed. Single Game mode ignores the history. Vlad is never listed (Last Assault).
    """
    lieutenants = [n.id for n in catalog.lieutenants()]
    if state.mode == "single":
        return lieutenants
    vlad_ids = {n.id for n in catalog.all("nemeses") if n.vlad}
    defeated: set[str] = set()
    for game in state.history:
        if game.result != "won" or game.nemesis is None:
            continue
        if game.nemesis in vlad_ids:
            defeated.clear()
        else:
            defeated.add(game.nemesis)
    return [n for n in lieutenants if n not in defeated]


def building_problem(catalog: Catalog, trouper: str, deck: Sequence[str]) -> str | None:
    """Why `deck` breaks the Trouper card's Building rule, or None when it holds.

    Location and Nemesis Tactic cards count as every Art ("Location Tactic Cards and Nemesis
    Tactic Cards"), so they fill whatever the Art cards leave: the rule holds when no Art has
    more cards than the Building asks and the deck has the right size.
    """
    card = catalog.trouper(trouper)
    if card is None:
        return f"unknown Trouper {trouper!r}"
    wanted: dict[str, int] = {b.art: b.count for b in card.building}
    size = sum(wanted.values())
    if len(deck) != size:
        return f"the deck must hold {size} cards, not {len(deck)}"
    arts: Counter[str] = Counter()
    for cid in deck:
        tactic = catalog.tactic(cid)
        if tactic is not None and tactic.art is not None:
            arts[tactic.art] += 1
    for art, n in arts.items():
        if n > wanted.get(art, 0):
            rule = ", ".join(f"{c} {a}" for a, c in wanted.items())
            return f"the deck would hold {n} {art} cards; {card.name}'s Building is {rule}"
    return None


def day_of(state: CampaignState) -> DayState:
    return state.day if state.day is not None else DayState()


def with_day(state: CampaignState, day: DayState, **update: Any) -> CampaignState:
    return state.model_copy(update={"day": day, "phase": day.step, **update})


def replace_trouper(state: CampaignState, idx: int, t: TrouperState) -> list[TrouperState]:
    return [t if i == idx else x for i, x in enumerate(state.troupers)]


def spent(state: CampaignState, n: int) -> int:
    return state.resources_spent + n
