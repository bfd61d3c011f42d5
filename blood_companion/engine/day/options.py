"""The Day Part's options and follow-up answers as its actions build them (engine/legal.py):
what the Purchases offer, the swaps, cards drawn at random or named, who takes a card. Below
the actions (engine/day/dusk.py, selection.py, show.py: each offers its options and asks its
questions beside ``apply``); the step's view (engine/day/views.py) gathers them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content.face import trouper_name
from blood_companion.content.models import ARTS, ITEM_CATEGORIES, ResourceCost, TrophyCost
from blood_companion.engine import leader
from blood_companion.engine.day.core import day_of
from blood_companion.engine.day.payments import (
    can_afford,
    cost_text,
    pay_text,
    suggest_payment,
    trophy_text,
)
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.picks import art_picks
from blood_companion.engine.state import CampaignState, TrouperState
from blood_companion.engine.table import at_table
from blood_companion.engine.words.names import record_name
from blood_companion.engine.words.sentences import item_name

if TYPE_CHECKING:
    from blood_companion.content import models as m
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.day_state import DayState

# What a player may type instead of a number at a "which card did you draw?" question.
CARD_NAME = "the card's name"
CARD_NAMES = "the cards' names"


def at_step(state: CampaignState, step: str) -> DayState | None:
    """The Day when it is at ``step`` (None otherwise): whether an action offers its options."""
    day = state.day
    return day if state.part == "day" and day is not None and day.step == step else None


def _offer(state: CampaignState, key: str, label: str, kind: str, fields: dict[str, Any],
           cost: ResourceCost, group: str, before: str = "", after: str = "",
           needs: tuple[str, ...] = ("trouper",)) -> Option:
    """An option paying `cost` as the Wagon suggests; disabled for the first reason of
    `before`, the Wagon cannot pay, `after`."""
    w = state.wagon
    pay = suggest_payment(w, cost)
    why = before or ("" if can_afford(w, cost) else
                     f"the Wagon cannot pay {cost_text(cost)}") or after
    return Option(key, label + (f" (pay {pay_text(pay)})" if pay else ""), kind,
                  {**fields, "pay": pay}, needs=needs, enabled=not why, why=why, group=group)


Offers = tuple[list[dict[str, Any]], list[Option]]


def building_offers(state: CampaignState, cat: Catalog) -> Offers:
    """The Village's buildings on offer: as data (what the Purchases show) and as options, with
    a stable key; those the Wagon cannot pay are disabled, with the reason."""
    w, day = state.wagon, day_of(state)
    out: list[dict[str, Any]] = []
    opts: list[Option] = []
    needs = {"sanatorium": ("trouper",), "alchemist": ("trade_from", "amount", "trade_to")}
    for i, b in enumerate(cat.village.buildings):
        used = getattr(day, b.effect, False) is True
        out.append({"kind": "building", "id": b.id, "name": b.name, "cost": cost_text(b.cost),
                    "affordable": can_afford(w, b.cost) and not used, "used": used})
        bitten = b.effect != "sanatorium" or any(t.bites for t in state.troupers)
        opts.append(_offer(
            state, f"b{i + 1}", b.name, "day_buy_building", {"building": b.id}, b.cost,
            "building", f"the {b.name} was already used this Day" if used else "",
            "" if bitten else "no Trouper has a Bite to discard", needs.get(b.effect, ())))
    return out, opts


def advanced_offers(state: CampaignState, cat: Catalog) -> Offers:
    """The top card of each Art's Advanced Tactic deck (the app asks which one when the players
    see it themselves)."""
    w = state.wagon
    out: list[dict[str, Any]] = []
    opts: list[Option] = []
    for art, deck in state.advanced_decks.items():
        top = cat.tactic(deck[0]) if deck else None
        if top is not None and top.cost is not None:
            out.append({"kind": "advanced_tactic", "id": top.id, "art": art, "name": top.name,
                        "cost": cost_text(top.cost), "affordable": can_afford(w, top.cost),
                        "left": len(deck)})
    table = at_table(state, "advanced")
    for k, art in enumerate(ARTS):
        deck = state.advanced_decks.get(art, [])
        if table and deck:  # the players see the top card; the app asks which it is
            costs = [c.cost for c in (cat.tactic(x) for x in deck)
                     if c is not None and c.cost is not None]
            why = "" if any(can_afford(w, c) for c in costs) else \
                "the Wagon cannot pay any card of this deck"
            opts.append(Option(f"a{k + 1}", f"Top {art} Advanced Tactic card (you see it; the app "
                               "asks which)", "day_buy_advanced", {"art": art}, needs=("trouper",),
                               enabled=not why, why=why, group="advanced"))
            continue
        top = cat.tactic(deck[0]) if deck else None
        if top is not None and top.cost is not None:
            opts.append(_offer(state, f"a{k + 1}", f"Top {art} Advanced Tactic card: {top.name}",
                               "day_buy_advanced", {"art": art}, top.cost, "advanced"))
    return out, opts


def card_offers(state: CampaignState, cat: Catalog) -> Offers:
    """The Location and Nemesis cards of the Training Ground and the Crafting Workshop."""
    w = state.wagon
    out: list[dict[str, Any]] = []
    opts: list[Option] = []
    for k, cid in enumerate([*state.training, *state.crafting]):
        card: m.TacticCard | m.ItemCard | None = cat.tactic(cid) or cat.item(cid)
        if card is None or card.cost is None:
            continue
        kind = "tactic" if cid in state.training else "item"
        held = holds_trophies(state, card.trophies)
        out.append({"kind": f"special_{kind}", "id": cid, "name": card.name,
                    "cost": cost_text(card.cost), "trophies": trophy_text(card.trophies),
                    "affordable": can_afford(w, card.cost) and held})
        label = "Location/Nemesis Tactic card" if kind == "tactic" else "Location/Nemesis Item"
        opts.append(_offer(state, f"c{k + 1}", f"{card.name} ({label})", "day_buy_card",
                           {"card": cid}, card.cost, "card",
                           after="" if held else f"it needs {trophy_text(card.trophies)}"))
    return out, opts


def upgrade_offers(state: CampaignState, cat: Catalog) -> Offers:
    """The sleeved Items that may turn to their Advanced side."""
    w = state.wagon
    out: list[dict[str, Any]] = []
    opts: list[Option] = []
    ups = [(t, s, item) for t in state.troupers for s in t.sleeves if not s.advanced
           and (item := cat.item(s.item)) is not None and item.upgrade_cost is not None]
    for k, (t, s, item) in enumerate(ups, 1):
        assert item.upgrade_cost is not None
        out.append({"kind": "upgrade", "trouper": t.trouper, "id": s.item, "name": item.name,
                    "cost": cost_text(item.upgrade_cost),
                    "affordable": can_afford(w, item.upgrade_cost)})
        opts.append(_offer(state, f"u{k}", f"Upgrade {trouper_name(cat, t.trouper)}'s {item.name}",
                           "day_upgrade_item", {"trouper": t.trouper, "item": s.item},
                           item.upgrade_cost, "upgrade", needs=()))
    return out, opts


def purchase_choices(state: CampaignState, cat: Catalog) -> list[dict[str, Any]]:
    """Everything on offer in the Show's Purchases, each with ``affordable`` (the Wagon and the
    trophies can pay it now)."""
    return [c for offers in (building_offers, advanced_offers, card_offers, upgrade_offers)
            for c in offers(state, cat)[0]]


def swap_step(state: CampaignState) -> bool:
    """Whether the Personal Reserve may be swapped now (the Purchases, the Equipping)."""
    return at_step(state, "purchases") is not None or at_step(state, "equipping") is not None


def drawn(state: CampaignState, kind: str, need: str, deck: str,
          texts: tuple[str, str, str]) -> tuple[Option, ...]:
    """The options of cards drawn at random: `texts` the random option, the named one, what it
    adds when the app holds the deck (the players holding it name what they drew)."""
    rand, named, own = texts
    if at_table(state, deck):
        return (Option("t", named, kind, needs=(need,)),)
    return Option("1", rand, kind), Option("t", named + own, kind, needs=(need,))


def trouper_ask(state: CampaignState, catalog: Catalog, art: str | None,
                holding: str | None = None, what: str = "it") -> Ask:
    """Who takes a card into their Personal Reserve (``art``: a warning for those who cannot
    use it); with ``holding`` ("bites", "reserve_cards"), only those who hold some."""
    picks, default = art_picks(state, catalog, art)
    if holding is not None:  # only those with a Bite to discard, or a Reserve to swap from
        picks = tuple(p for p, tr in zip(picks, state.troupers, strict=True)
                      if getattr(tr, holding))
        return Ask("trouper", "Whose Bite does the Sanatorium discard?" if holding == "bites"
                   else "Whose card is swapped?", picks,
                   default=picks[0].key if picks else None)
    return Ask("trouper", f"Who takes {what} into their Personal Reserve? "
               f"({leader.settles(state, catalog)})", picks, default=default)


def chosen_trouper(state: CampaignState, option: Option,
                   answers: Any) -> TrouperState | None:
    """The Trouper an option's fields or answers name so far."""
    who = {**option.fields, **answers}.get("trouper")
    return state.troupers[state.trouper_index(who)] if who else None


def sleeves_by_category(catalog: Catalog, t: TrouperState) -> dict[str, list[str]]:
    """A Trouper's sleeved Items by category ("+": on its Advanced side)."""
    by_cat: dict[str, list[str]] = {c: [] for c in ITEM_CATEGORIES}
    for s in t.sleeves:
        item = catalog.item(s.item)
        if item is not None:
            by_cat[item.category].append(s.item + ("+" if s.advanced else ""))
    return by_cat


def numbered(pairs: Iterable[tuple[str, Any]]) -> tuple[Pick, ...]:
    """Numbered answers from ``(label, value)`` pairs."""
    return tuple(Pick(str(i), label, value) for i, (label, value) in enumerate(pairs, 1))


def names_of(catalog: Catalog, ids: list[str], items: bool = False) -> tuple[Pick, ...]:
    return numbered((getattr(catalog.item(c) if items else catalog.tactic(c), "name", c), c)
                  for c in ids)


def category_of(catalog: Catalog, item: str) -> str | None:
    return getattr(catalog.item(item), "category", None)


def art_of(catalog: Catalog, card: str) -> str | None:
    art = getattr(catalog.tactic(card), "art", None)
    return None if art is None else str(art)


def _item_label(catalog: Catalog, raw: str) -> str:
    """An Item as players read it: its name on the side it shows ("+": the Advanced side)."""
    if catalog.item(raw.rstrip("+")) is None:
        return raw
    return _name(catalog, raw) + (" (Advanced)" if raw.endswith("+") else "")


def holds_trophies(state: CampaignState, needs: Sequence[TrophyCost]) -> bool:
    hold = {"location": state.location_trophies, "nemesis": state.nemesis_trophies}
    for kind in ("location", "nemesis"):
        reqs = [t for t in needs if t.kind == kind]
        total = sum(t.n for t in reqs)
        if sum(hold[kind].values()) < total:
            return False
        for t in reqs:
            if t.of and hold[kind].get(t.of, 0) < sum(x.n for x in reqs if x.of == t.of):
                return False
    return True


def _name(catalog: Catalog, cid: str | None) -> str:
    """A card's (or Zone's) name as printed; an Item on the side it shows ("+": advanced)."""
    if not cid:
        return ""
    return item_name(catalog, cid) if catalog.item(cid.rstrip("+")) else record_name(catalog, cid)
