"""The follow-up questions of the Day Part's options (engine/legal.py; the options are built
with the step's view, ``engine/day/views.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content.face import trouper_name
from blood_companion.content.models import ITEM_CATEGORIES
from blood_companion.engine import day as d
from blood_companion.engine import leader
from blood_companion.engine.day.views import _item_label
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.picks import art_picks, faces_reader
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState
from blood_companion.engine.words.checklists import checklist_ask
from blood_companion.engine.words.templates import SETUP

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

# What a player may type instead of a number at a "which card did you draw?" question.
CARD_NAME = "the card's name"
CARD_NAMES = "the cards' names"

def _picks(pairs: Iterable[tuple[str, Any]]) -> tuple[Pick, ...]:
    """Numbered answers from ``(label, value)`` pairs."""
    return tuple(Pick(str(i), label, value) for i, (label, value) in enumerate(pairs, 1))


def _names(catalog: Catalog, ids: list[str], items: bool = False) -> tuple[Pick, ...]:
    return _picks((getattr(catalog.item(c) if items else catalog.tactic(c), "name", c), c)
                  for c in ids)


def day_asker(
    state: CampaignState, catalog: Catalog, option: Option, answers: Mapping[str, Any],
    need: str,
) -> Ask | None:
    if need == SETUP:
        return checklist_ask(state, catalog, "dusk", "Dusk set-up", answers)
    fields = {**option.fields, **answers}
    who = fields.get("trouper")
    t = state.troupers[state.trouper_index(who)] if who else None
    if need == "trouper":
        art = (str(option.fields.get("art")) if option.kind == "day_buy_advanced" else
               _art(catalog, str(option.fields.get("card"))) if option.kind == "day_buy_card"
               else None)
        picks, default = art_picks(state, catalog, art)
        attr = {"day_buy_building": "bites", "day_swap_tactic": "reserve_cards",
                "day_swap_item": "reserve_items"}.get(option.kind)
        if attr is not None:  # only those with a Bite to discard, or a Reserve to swap from
            picks = tuple(p for p, tr in zip(picks, state.troupers, strict=True)
                          if getattr(tr, attr))
            return Ask("trouper", "Whose Bite does the Sanatorium discard?" if attr == "bites"
                       else "Whose card is swapped?", picks,
                       default=picks[0].key if picks else None)
        what = f"the {art} card" if option.kind == "day_buy_advanced" else "it"
        return Ask("trouper", f"Who takes {what} into their Personal Reserve? "
                   f"({leader.settles(state, catalog)})", picks, default=default)
    if need == "out" and t is not None:
        # only cards that a Reserve card can replace (same Art; Location and Nemesis cards
        # count as every Art), and Items of a category the Reserve holds
        if option.kind == "day_swap_tactic":
            arts = {_art(catalog, c) for c in t.reserve_cards}
            ids = [c for c in t.deck if None in arts or _art(catalog, c) in arts
                   or _art(catalog, c) is None]
            return Ask("out", "Which deck card goes to the Reserve?", _names(catalog, ids))
        cats = {_category(catalog, c) for c in t.reserve_items}
        ids = [s.item for s in t.sleeves if _category(catalog, s.item) in cats]
        return Ask("out", "Which sleeved Item goes to the Reserve?",
                   _names(catalog, ids, items=True))
    if need == "into" and t is not None:
        if option.kind == "day_swap_tactic":
            out_card = catalog.tactic(str(fields.get("out")))
            art = out_card.art if out_card is not None else None
            ids = [c for c in t.reserve_cards if art is None or _art(catalog, c) in (None, art)]
            return Ask("into", "Which Reserve card takes its place (same Art)?",
                       _names(catalog, ids))
        out_item = catalog.item(str(fields.get("out")))
        cat = out_item.category if out_item is not None else None
        ids = [c for c in t.reserve_items if cat is None or _category(catalog, c) == cat]
        return Ask("into", "Which Reserve Item takes its place (same category)?",
                   _names(catalog, ids, items=True))
    if need == "trade_from":
        return Ask("trade_from", "Which Resource do you give up?",
                   _picks((r, r) for r in RESOURCE_NAMES))
    if need == "amount":
        have = getattr(state.wagon, str(fields.get("trade_from")), 0)
        top = max(1, min(6, have))
        return Ask("amount", f"How many {fields.get('trade_from')} (the Wagon has {have})?",
                   tuple(Pick(str(n), str(n), n) for n in range(1, top + 1)), default="1")
    if need == "trade_to":
        return Ask("trade_to", "For which Resource?",
                   _picks((r, r) for r in RESOURCE_NAMES if r != fields.get("trade_from")))
    if need == "zone":
        return Ask("zone", "Zone Selection: where do you face the Nemesis tonight?",
                   _picks((z.name, z.id) for z in catalog.all("zones")), default="1")
    if need == "faces":
        die = catalog.config.location_die
        return Ask("faces", f"Which face does your {die} die show?", (), free=f"the face of "
                   f"your {die} die, e.g. 2", parse=faces_reader(catalog, die))
    if need == "minions":
        picks = _picks((f"{mn.name} ({mn.type})", mn.id) for mn in catalog.all("minions"))
        if option.kind == "day_draw_minions":
            return Ask("minions", "Which two Minion cards did you draw (A first, then B)?",
                       picks, many=(2, 2), free=CARD_NAMES)
        return Ask("minions", "Hunting House: which four Minion cards?", picks, many=(4, 4))
    if need == "nemesis":
        pool = d.available_nemeses(state, catalog)
        picks = _picks((n.name, n.id) for n in catalog.all("nemeses") if n.id in pool)
        return Ask("nemesis", "Which Nemesis card did you draw?", picks, free=CARD_NAME)
    if need == "events":
        day = state.day
        loc = catalog.get("locations", day.location or "") if day else None
        evs = catalog.events_in(loc.zone) if loc else []
        n = d.influence(state, catalog)
        return Ask("events", f"Which {n} Event card(s) did you draw?",
                   _picks((e.name, e.id) for e in evs), many=(n, n), free=CARD_NAMES)
    if need == "items" and t is not None:
        sleeves = _picks((f"{_item_label(catalog, s.item + ('+' if s.advanced else ''))} "
                          f"({item.category})", s.item)
                         for s in t.sleeves if (item := catalog.item(s.item)) is not None)
        return Ask("items", f"Which three Items does {trouper_name(catalog, t.trouper)} equip (one "
                   f"per category: {', '.join(ITEM_CATEGORIES)})?", sleeves, many=(3, 3))
    return None


def _category(catalog: Catalog, item: str) -> str | None:
    return getattr(catalog.item(item), "category", None)


def _art(catalog: Catalog, card: str) -> str | None:
    art = getattr(catalog.tactic(card), "art", None)
    return None if art is None else str(art)

