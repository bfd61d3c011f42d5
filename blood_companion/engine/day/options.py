"""The Day Part's legal actions as typed options (engine/legal.py), with their follow-ups.

Built from the engine's own step table and views (``engine/day.py``): the Show's Recovery and
Purchases (every building, card and upgrade on offer, with a stable key; those the Wagon cannot
pay are listed disabled, with the reason), the swaps, and each selection step of the Show and the
Dusk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content.face import trouper_name
from blood_companion.content.models import ARTS, ITEM_CATEGORIES
from blood_companion.engine import day as d
from blood_companion.engine import leader
from blood_companion.engine.legal import VIEWS, Ask, Option, Pick, register_askers
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState
from blood_companion.engine.table import at_table
from blood_companion.engine.words import SETUP, checklist_ask

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog



# What a player may type instead of a number at a "which card did you draw?" question.
CARD_NAME = "the card's name"
CARD_NAMES = "the cards' names"

def _troupers(state: CampaignState, catalog: Catalog) -> tuple[Pick, ...]:
    out = []
    for i, t in enumerate(state.troupers):
        card = catalog.trouper(t.trouper)
        out.append(Pick(str(i + 1), f"{card.name if card else t.trouper} ({t.colour})", t.trouper))
    return tuple(out)


def faces_reader(catalog: Catalog, pool: str) -> Any:
    """Free text -> the faces typed, checked against the dice of ``pool`` (DiceError, a
    ValueError-like refusal, when a die lacks the face: the question is asked again)."""
    from blood_companion.engine.dice import DiceBox, parse_faces, parse_pool

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


def art_picks(
    state: CampaignState, catalog: Catalog, art: str | None, first: int = 0
) -> tuple[tuple[Pick, ...], str | None]:
    """Who takes a Tactic card of ``art`` into their Personal Reserve: every Trouper, with a
    warning for those whose Building rule never uses that Art ("Replacing a Tactic Card"), and
    the default: the first one who can use it, round the table from seat ``first``."""
    picks = []
    for i, t in enumerate(state.troupers):
        card = catalog.trouper(t.trouper)
        name = card.name if card else t.trouper
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


def _pay(state: CampaignState, cost: Any) -> tuple[dict[str, int] | None, str]:
    pay = d.suggest_payment(state.wagon, cost) if cost is not None else None
    return pay, (f" (pay {d.pay_text(pay)})" if pay else "")


def _purchases(state: CampaignState, catalog: Catalog) -> list[Option]:
    day = state.day
    assert day is not None
    out: list[Option] = []
    w = state.wagon
    for i, b in enumerate(catalog.village.buildings):
        used = getattr(day, b.effect, False) is True
        pay, paid = _pay(state, b.cost)
        needs: tuple[str, ...] = ()
        if b.effect == "sanatorium":
            needs = ("trouper",)
        elif b.effect == "alchemist":
            needs = ("trade_from", "amount", "trade_to")
        why = ""
        if used:
            why = f"the {b.name} was already used this Day"
        elif not d.can_afford(w, b.cost):
            why = f"the Wagon cannot pay {d.cost_text(b.cost)}"
        elif b.effect == "sanatorium" and not any(t.bites for t in state.troupers):
            why = "no Trouper has a Bite to discard"
        out.append(Option(f"b{i + 1}", f"{b.name}{paid}", "day_buy_building",
                          {"building": b.id, "pay": pay}, needs=needs, enabled=not why, why=why,
                          group="building"))
    table = at_table(state, "advanced")
    for k, art in enumerate(ARTS):
        deck = state.advanced_decks.get(art, [])
        if table and deck:  # the players see the top card; the app asks which it is
            costs = [c.cost for c in (catalog.tactic(x) for x in deck)
                     if c is not None and c.cost is not None]
            why = "" if any(d.can_afford(w, c) for c in costs) else \
                "the Wagon cannot pay any card of this deck"
            out.append(Option(f"a{k + 1}", f"Top {art} Advanced Tactic card (you see it; the app "
                              "asks which)", "day_buy_advanced", {"art": art}, needs=("trouper",),
                              enabled=not why, why=why, group="advanced"))
            continue
        top = catalog.tactic(deck[0]) if deck else None
        if top is None or top.cost is None:
            continue
        pay, paid = _pay(state, top.cost)
        why = "" if d.can_afford(w, top.cost) else f"the Wagon cannot pay {d.cost_text(top.cost)}"
        out.append(Option(f"a{k + 1}", f"Top {art} Advanced Tactic card: {top.name}{paid}",
                          "day_buy_advanced", {"art": art, "pay": pay}, needs=("trouper",),
                          enabled=not why, why=why, group="advanced"))
    for k, cid in enumerate([*state.training, *state.crafting]):
        card: Any = catalog.tactic(cid) or catalog.item(cid)
        if card is None or card.cost is None:
            continue
        pay, paid = _pay(state, card.cost)
        why = ""
        if not d.can_afford(w, card.cost):
            why = f"the Wagon cannot pay {d.cost_text(card.cost)}"
        elif not d.holds_trophies(state, card.trophies):
            why = f"it needs {d.trophy_text(card.trophies)}"
        kind = "Location/Nemesis Tactic card" if cid in state.training else "Location/Nemesis Item"
        out.append(Option(f"c{k + 1}", f"{card.name} ({kind}){paid}", "day_buy_card",
                          {"card": cid, "pay": pay}, needs=("trouper",), enabled=not why,
                          why=why, group="card"))
    k = 0
    for t in state.troupers:
        for s in t.sleeves:
            item = catalog.item(s.item)
            if item is None or item.upgrade_cost is None or s.advanced:
                continue
            k += 1
            pay, paid = _pay(state, item.upgrade_cost)
            why = "" if d.can_afford(w, item.upgrade_cost) else (
                f"the Wagon cannot pay {d.cost_text(item.upgrade_cost)}")
            owner = catalog.trouper(t.trouper)
            out.append(Option(f"u{k}", f"Upgrade {owner.name if owner else t.trouper}'s "
                              f"{item.name}{paid}", "day_upgrade_item",
                              {"trouper": t.trouper, "item": s.item, "pay": pay},
                              enabled=not why, why=why, group="upgrade"))
    return out


def _swaps(state: CampaignState) -> list[Option]:
    out = []
    if any(t.reserve_cards for t in state.troupers):
        out.append(Option("st", "Swap a Tactic card with one of the Personal Reserve",
                          "day_swap_tactic", needs=("trouper", "out", "into"), group="swap"))
    if any(t.reserve_items for t in state.troupers):
        out.append(Option("si", "Swap an Item with one of the Personal Reserve", "day_swap_item",
                          needs=("trouper", "out", "into"), group="swap"))
    return out


def _item_label(catalog: Catalog, raw: str) -> str:
    """An Item as players read it: its name on the side it shows ("+": the Advanced side)."""
    item = catalog.item(raw.rstrip("+"))
    if item is None:
        return raw
    side = item.advanced if raw.endswith("+") and item.advanced is not None else item.starting
    return side.name + (" (Advanced)" if raw.endswith("+") else "")


def _names(catalog: Catalog, ids: list[str], items: bool = False) -> tuple[Pick, ...]:
    out = []
    for i, c in enumerate(ids):
        rec: Any = catalog.item(c) if items else catalog.tactic(c)
        out.append(Pick(str(i + 1), rec.name if rec is not None else c, c))
    return tuple(out)


def _day_asker(
    state: CampaignState, catalog: Catalog, option: Option, answers: Mapping[str, Any],
    need: str,
) -> Ask | None:
    if need == SETUP:
        return checklist_ask(state, catalog, "dusk", "Dusk set-up", answers)
    fields = {**option.fields, **answers}
    who = fields.get("trouper")
    t = state.troupers[state.trouper_index(who)] if who else None
    if need == "trouper":
        picks = _troupers(state, catalog)
        if option.kind == "day_buy_building":
            picks = tuple(p for p, tr in zip(picks, state.troupers, strict=True) if tr.bites)
            return Ask("trouper", "Whose Bite does the Sanatorium discard?", picks,
                       default=picks[0].key if picks else None)
        if option.kind in ("day_swap_tactic", "day_swap_item"):
            attr = "reserve_cards" if option.kind == "day_swap_tactic" else "reserve_items"
            picks = tuple(p for p, tr in zip(picks, state.troupers, strict=True)
                          if getattr(tr, attr))
            return Ask("trouper", "Whose card is swapped?", picks,
                       default=picks[0].key if picks else None)
        if option.kind == "day_buy_advanced":
            apicks, default = art_picks(state, catalog, str(option.fields.get("art")))
            return Ask("trouper", f"Who takes the {option.fields.get('art')} card into their "
                       f"Personal Reserve? ({leader.settles(state, catalog)})", apicks,
                       default=default)
        if option.kind == "day_buy_card":
            card = catalog.tactic(str(option.fields.get("card")))
            art = str(card.art) if card is not None and card.art is not None else None
            apicks, default = art_picks(state, catalog, art)
            return Ask("trouper", "Who takes it into their Personal Reserve? "
                       f"({leader.settles(state, catalog)})", apicks, default=default)
        return Ask("trouper", "Who takes it into their Personal Reserve? "
                   f"({leader.settles(state, catalog)})", picks, default="1")
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
                   tuple(Pick(str(i + 1), r, r) for i, r in enumerate(RESOURCE_NAMES)))
    if need == "amount":
        have = getattr(state.wagon, str(fields.get("trade_from")), 0)
        top = max(1, min(6, have))
        return Ask("amount", f"How many {fields.get('trade_from')} (the Wagon has {have})?",
                   tuple(Pick(str(n), str(n), n) for n in range(1, top + 1)), default="1")
    if need == "trade_to":
        return Ask("trade_to", "For which Resource?",
                   tuple(Pick(str(i + 1), r, r) for i, r in enumerate(RESOURCE_NAMES)
                         if r != fields.get("trade_from")))
    if need == "zone":
        return Ask("zone", "Zone Selection: where do you face the Nemesis tonight?",
                   tuple(Pick(str(i + 1), z.name, z.id)
                         for i, z in enumerate(catalog.all("zones"))), default="1")
    if need == "faces":
        die = catalog.config.location_die
        return Ask("faces", f"Which face does your {die} die show?", (), free=f"the face of "
                   f"your {die} die, e.g. 2", parse=faces_reader(catalog, die))
    if need == "minions":
        picks = tuple(Pick(str(i + 1), f"{mn.name} ({mn.type})", mn.id)
                      for i, mn in enumerate(catalog.all("minions")))
        if option.kind == "day_draw_minions":
            return Ask("minions", "Which two Minion cards did you draw (A first, then B)?",
                       picks, many=(2, 2), free=CARD_NAMES)
        return Ask("minions", "Hunting House: which four Minion cards?", picks, many=(4, 4))
    if need == "nemesis":
        pool = d.available_nemeses(state, catalog)
        picks = tuple(Pick(str(i + 1), n.name, n.id)
                      for i, n in enumerate(n for n in catalog.all("nemeses") if n.id in pool))
        return Ask("nemesis", "Which Nemesis card did you draw?", picks, free=CARD_NAME)
    if need == "events":
        day = state.day
        loc = catalog.get("locations", day.location or "") if day else None
        evs = catalog.events_in(loc.zone) if loc else []
        n = d.influence(state, catalog)
        return Ask("events", f"Which {n} Event card(s) did you draw?",
                   tuple(Pick(str(i + 1), e.name, e.id) for i, e in enumerate(evs)),
                   many=(n, n), free=CARD_NAMES)
    if need == "items" and t is not None:
        sleeves: list[Pick] = []
        for s in t.sleeves:
            item = catalog.item(s.item)
            if item is not None:
                raw = s.item + ("+" if s.advanced else "")
                sleeves.append(Pick(str(len(sleeves) + 1), f"{_item_label(catalog, raw)} "
                                    f"({item.category})", s.item))
        return Ask("items", f"Which three Items does {trouper_name(catalog, t.trouper)} equip (one "
                   "per category: "
                   + ", ".join(ITEM_CATEGORIES) + ")?", tuple(sleeves), many=(3, 3))
    return None


def _category(catalog: Catalog, item: str) -> str | None:
    rec = catalog.item(item)
    return rec.category if rec is not None else None


def _art(catalog: Catalog, card: str) -> str | None:
    rec = catalog.tactic(card)
    return str(rec.art) if rec is not None and rec.art is not None else None


register_askers(
    ("day_buy_building", "day_buy_advanced", "day_buy_card", "day_swap_tactic", "day_swap_item",
     "day_zone", "day_roll_location", "day_choose_minions", "day_place_events", "day_equip",
     "day_draw_minions", "day_draw_nemesis", "day_end"),
    _day_asker,
)
VIEWS["day"] = d.day_next
