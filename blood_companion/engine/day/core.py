"""Lookups the Day's steps share: cards and buildings by id or name, the Troupers, the
nemeses still available, the Building rule, and writing the Day's state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from blood_companion import matching
from blood_companion.content import models as m
from blood_companion.content.models import ITEM_CATEGORIES
from blood_companion.engine.actions import Action, Context
from blood_companion.engine.day_state import DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState, TrouperState
from blood_companion.engine.table import at_table, named_draw

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class DayAction(Action):
    """An action of the Day Part (refused in the other parts)."""

    parts = ("day",)
    # The Day step at which it offers its options (empty: its ``options`` say when).
    offers_at: ClassVar[str] = ""


def match_id(text: str, candidates: Iterable[tuple[str, str]], what: str) -> str:
    """The id among ``(id, name)`` candidates that `text` names (:func:`matching.match`)."""
    return matching.match(text, candidates, what, error=RuleError)


def tactic_names(catalog: Catalog, ids: Iterable[str]) -> list[tuple[str, str]]:
    return [(cid, getattr(catalog.tactic(cid), "name", cid)) for cid in ids]


def item_names(catalog: Catalog, ids: Iterable[str]) -> list[tuple[str, str]]:
    return [(iid, getattr(catalog.item(iid), "name", iid)) for iid in ids]


def top_card(state: CampaignState, ctx: Context, art: str, empty: str) -> tuple[str, list[str]]:
    """The top card of the `art` Advanced Tactic deck (the one the players name when they hold
    the decks) and the deck without it; RuleError `empty` when the deck is empty."""
    deck = state.advanced_decks.get(art, [])
    if not deck:
        raise RuleError(empty)
    top = deck[0]
    if at_table(state, "advanced"):
        top = named_draw(ctx.chance, ctx.catalog, "advanced", sorted(deck),
                         f"Take the top card of the {art.capitalize()} deck: which card is it?")
    rest = list(deck)
    rest.remove(top)
    return top, rest


def named_draws(ctx: Context, deck: str, pool: Sequence[str], prompts: Iterable[str]) -> list[str]:
    """The cards the table drew from `pool` one by one, each asked by one of `prompts`."""
    drawn: list[str] = []
    for prompt in prompts:
        drawn.append(named_draw(ctx.chance, ctx.catalog, deck,
                                [x for x in pool if x not in drawn], prompt))
    return drawn


def building_for(catalog: Catalog, text: str) -> m.Building:
    """The Bran building named by id, effect name, name or a unique prefix."""
    buildings = catalog.village.buildings
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    for b in buildings:
        if key == b.effect:  # the effect names work too: cartographer, alchemist, ...
            return b
    bid = match_id(text, [(b.id, b.name) for b in buildings], "building")
    return next(b for b in buildings if b.id == bid)


def difficulty_levels(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """Each Difficulty Level both the Nemesis card and the Location card list, with what it
    means: wounds per side and influence (Nemesis card), rewards (Location card)."""
    day = day_of(state)
    if day.nemesis is None or day.location is None:
        return []
    nem = catalog.nemesis(day.nemesis)
    loc = catalog.get("locations", day.location)
    if nem is None or loc is None:
        return []
    rewards = {r.level: r for r in loc.rewards}
    names = {d.level: d.name for d in catalog.all("difficulty")}
    return [{"level": lv.level, "name": names.get(lv.level, ""), "nemesis_level": lv.name,
             "wounds": dict(lv.wounds), "influence": lv.influence,
             "rewards": {"vlad_cards": r.vlad_cards, "location_trophies": r.location_trophies,
                         "nemesis_trophies": r.nemesis_trophies,
                         "advanced_tactics": r.advanced_tactics,
                         "loot": [f"{x.dice} -> {x.resource}" for x in r.loot],
                         "defeat_roll": f"{r.defeat_roll.dice} -> {r.defeat_roll.resource}"}}
            for lv in nem.levels if (r := rewards.get(lv.level)) is not None]


def influence(state: CampaignState, catalog: Catalog) -> int:
    """How many Event cards go on the Chain: the chosen level's influence on the Nemesis card."""
    day = day_of(state)
    nem = catalog.nemesis(day.nemesis or "")
    if nem is None:
        return 0
    return next((lv.influence for lv in nem.levels if lv.level == day.difficulty), 0)


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


def unequipped(state: CampaignState, day: DayState) -> list[str]:
    """The Troupers still to equip three Items, one per category (the Equipping)."""
    return [t.trouper for i, t in enumerate(state.troupers)
            if len(day.equipped.get(i, {})) != len(ITEM_CATEGORIES)]


def day_of(state: CampaignState) -> DayState:
    return state.day or DayState()


def with_day(state: CampaignState, day: DayState, **update: Any) -> CampaignState:
    return state.model_copy(update={"day": day, "phase": day.step, **update})


def replace_trouper(state: CampaignState, idx: int, t: TrouperState) -> list[TrouperState]:
    return [t if i == idx else x for i, x in enumerate(state.troupers)]
