"""What the Day looks like: the next step (one :class:`~blood_companion.engine.legal.Next`:
a sentence, the choices on offer and the options players pick from) and the Day board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.face import map_lines, trouper_name
from blood_companion.content.models import ARTS, ITEM_CATEGORIES, ResourceCost, TrophyCost
from blood_companion.engine.board_view import DayBoard, DayTrouper
from blood_companion.engine.day.core import (
    available_nemeses,
    day_of,
    difficulty_levels,
    influence,
    unequipped,
)
from blood_companion.engine.day.payments import (
    can_afford,
    cost_text,
    pay_text,
    suggest_payment,
    trophy_text,
)
from blood_companion.engine.day.steps import STEPS, purchases_open
from blood_companion.engine.day_state import DayState
from blood_companion.engine.legal import Next, Option
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table
from blood_companion.engine.words.names import record_name
from blood_companion.engine.words.sentences import item_name, zone_name
from blood_companion.engine.words.templates import SETUP

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.board_view import PartBoard

def purchase_choices(state: CampaignState, cat: Catalog) -> list[dict[str, Any]]:
    """Everything on offer in the Show's Purchases, each with ``affordable`` (the Wagon and the
    trophies can pay it now)."""
    return _offers(state, cat)[0]


def _offers(state: CampaignState, cat: Catalog) -> tuple[list[dict[str, Any]], list[Option]]:
    """What the Purchases offer: as data (:func:`purchase_choices`) and as the options players
    pick from, with a stable key; those the Wagon cannot pay are disabled, with the reason."""
    w, day = state.wagon, day_of(state)
    out: list[dict[str, Any]] = []
    opts: list[Option] = []

    def offer(key: str, label: str, kind: str, fields: dict[str, Any], cost: ResourceCost,
              group: str, before: str = "", after: str = "",
              needs: tuple[str, ...] = ("trouper",)) -> None:
        """An option paying `cost` as the Wagon suggests; disabled for the first reason of
        `before`, the Wagon cannot pay, `after`."""
        pay = suggest_payment(w, cost)
        why = before or ("" if can_afford(w, cost) else
                         f"the Wagon cannot pay {cost_text(cost)}") or after
        opts.append(Option(key, label + (f" (pay {pay_text(pay)})" if pay else ""), kind,
                           {**fields, "pay": pay}, needs=needs, enabled=not why, why=why,
                           group=group))

    needs = {"sanatorium": ("trouper",), "alchemist": ("trade_from", "amount", "trade_to")}
    for i, b in enumerate(cat.village.buildings):
        used = getattr(day, b.effect, False) is True
        out.append({"kind": "building", "id": b.id, "name": b.name, "cost": cost_text(b.cost),
                    "affordable": can_afford(w, b.cost) and not used, "used": used})
        bitten = b.effect != "sanatorium" or any(t.bites for t in state.troupers)
        offer(f"b{i + 1}", b.name, "day_buy_building", {"building": b.id}, b.cost, "building",
              f"the {b.name} was already used this Day" if used else "",
              "" if bitten else "no Trouper has a Bite to discard", needs.get(b.effect, ()))
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
            offer(f"a{k + 1}", f"Top {art} Advanced Tactic card: {top.name}", "day_buy_advanced",
                  {"art": art}, top.cost, "advanced")
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
        offer(f"c{k + 1}", f"{card.name} ({label})", "day_buy_card", {"card": cid}, card.cost,
              "card", after="" if held else f"it needs {trophy_text(card.trophies)}")
    ups = [(t, s, item) for t in state.troupers for s in t.sleeves if not s.advanced
           and (item := cat.item(s.item)) is not None and item.upgrade_cost is not None]
    for k, (t, s, item) in enumerate(ups, 1):
        assert item.upgrade_cost is not None
        out.append({"kind": "upgrade", "trouper": t.trouper, "id": s.item, "name": item.name,
                    "cost": cost_text(item.upgrade_cost),
                    "affordable": can_afford(w, item.upgrade_cost)})
        offer(f"u{k}", f"Upgrade {trouper_name(cat, t.trouper)}'s {item.name}", "day_upgrade_item",
              {"trouper": t.trouper, "item": s.item}, item.upgrade_cost, "upgrade", needs=())
    return out, opts


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


def day_next(state: CampaignState, catalog: Catalog) -> Next:
    """What the players do next in the Day Part (pure): the view its step's spec names
    (:data:`~blood_companion.engine.day.steps.STEPS`), the step in a sentence with its choices
    and the options players pick from (engine/legal.py; their follow-ups are in
    ``engine/day/options.py``)."""
    if state.part != "day":
        if state.part == "night":
            sentence = "The Day Part is over and the night is set up."
        else:
            sentence = f"The campaign is in the {state.part} part, not the Day."
        return Next(state.part, state.part, "Not the Day Part", sentence)
    day = day_of(state)
    return STEP_VIEWS[day.step](state, catalog, day)


def _next(step: str, sentence: str, *options: Option, default: str | None = None,
          prompt: str = "", choices: Sequence[dict[str, Any]] = (), **kw: Any) -> Next:
    """A step's :class:`Next`, titled from its spec; the prompt is the sentence unless said."""
    return Next("day", step, f"Day Part · {STEPS[step].title}", prompt or sentence,
                options=options, default=default, moment=sentence, choices=list(choices), **kw)


def _drawn(state: CampaignState, step: str, kind: str, need: str, deck: str, sentence: str,
           texts: tuple[str, str, str, str], **kw: Any) -> Next:
    """A step whose cards are drawn at random. `texts`: the random option, the named one, what
    it adds when the app holds the deck, the prompt when the players hold it (then they name
    what they drew)."""
    rand, named, own, prompt = texts
    if at_table(state, deck):
        return _next(step, sentence, Option("t", named, kind, needs=(need,)), default="t",
                     prompt=prompt, **kw)
    return _next(step, sentence, Option("1", rand, kind),
                 Option("t", named + own, kind, needs=(need,)), default="1", **kw)


def _recovery_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    return _next(day.step, "Recovery: Vigor tokens back to available (Bites stay on them), "
                 "Insanity cubes to the leftmost space.", Option("1", "Recover", "day_recover"),
                 default="1")


def _purchases_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    wagon = ", ".join(f"{v} {k}" for k, v in state.wagon.as_dict().items())
    on_offer, offers = _offers(state, cat)
    return _next(
        day.step, "Spend the Wagon at the buildings, buy and upgrade cards, swap cards and Items; "
        "then choose the Zone.", *offers, *_swaps(state),
        Option("z", "Done buying: choose the Zone", "day_zone", needs=("zone",)),
        default="z", prompt="Buy something, or finish buying?",
        choices=on_offer, info=(f"Wagon: {wagon}",),
        details={"wagon": state.wagon.as_dict(),
                 "location_trophies": dict(state.location_trophies),
                 "nemesis_trophies": dict(state.nemesis_trophies),
                 "bought": list(day.purchases)})


def _zone_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    zones = cat.all("zones")
    return _next(day.step, "Choose the Zone of the next night.",
                 *(Option(str(i + 1), z.name, "day_zone", {"zone": z.id})
                   for i, z in enumerate(zones)), default="1",
                 prompt="Zone Selection: where do you face the Nemesis tonight?",
                 choices=[{"id": z.id, "name": z.name} for z in zones])


def _location_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    zone = zone_name(cat, day.zone or "")
    locs = [{"id": loc.id, "name": loc.name, "face": loc.choice}
            for loc in cat.locations_in(day.zone or "")]
    die = cat.config.location_die
    opts = [Option(str(i + 1), f"{c['name']} (die {c.get('face')})", "day_choose_location",
                   {"location": c["id"]}) for i, c in enumerate(locs)] if day.cartographer \
        else []
    if at_table(state, "locations"):  # the players roll and take the card themselves
        opts.append(Option("c", "Name the Location card your die gave", "day_roll_location"))
        default = "1" if day.cartographer else "c"
    else:
        opts.append(Option("r", "Roll the die here (digital)", "day_roll_location"))
        default = "r"
    opts.append(Option("t", "Type the face of your own die", "day_roll_location",
                       needs=("faces",)))
    if day.cartographer:
        return _next(day.step, f"Cartographer's Office: choose the Location card of {zone} (or "
                     "roll for it).", *opts, default=default, choices=locs)
    return _next(day.step, f"Roll the {die} die for the Location card of {zone}.", *opts,
                 default=default, choices=locs, details={"die": die})


def _minions_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    minions = [{"id": mn.id, "name": mn.name, "type": mn.type} for mn in cat.all("minions")]
    if day.hunting_house:
        return _next(day.step, "Hunting House: choose four Minion cards; two of them, at random, "
                     "take spaces A and B.", Option("1", "Choose four Minion cards",
                                                    "day_choose_minions", needs=("minions",)),
                     default="1", choices=minions)
    return _drawn(state, day.step, "day_draw_minions", "minions", "minions",
                  "Reveal two Minion cards at random for spaces A and B.",
                  ("Reveal two at random", "Name the two Minion cards you drew",
                   " from your own deck",
                   "Reveal two Minion cards at random from your own deck (A, then B)."),
                  choices=minions)


def _last_assault_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    avail = available_nemeses(state, cat)
    no = Option("n", "No: a lieutenant tonight", "day_last_assault", {"face_vlad": False})
    yes = Option("y", "Yes: face Vlad", "day_last_assault", {"face_vlad": True})
    return _next(day.step, "Last Assault: do the players face Vlad tonight?"
                 + ("" if avail else " Every lieutenant is defeated: only Vlad is left."),
                 *((no, yes) if avail else (yes,)), default="n" if avail else "y",
                 choices=[{"id": "yes"}, {"id": "no"}] if avail else [{"id": "yes"}],
                 details={"vlad_weakened": len(state.vlad_weakened)})


def _nemesis_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    nems = [{"id": n, "name": getattr(cat.nemesis(n), "name", n)}
            for n in available_nemeses(state, cat)]
    if day.asylum:
        return _next(day.step, "Asylum: choose the Nemesis.",
                     *(Option(str(i + 1), c["name"], "day_choose_nemesis", {"nemesis": c["id"]})
                       for i, c in enumerate(nems)), default="1", choices=nems)
    return _drawn(state, day.step, "day_draw_nemesis", "nemesis", "nemeses",
                  "Reveal the Nemesis at random from the available ones.",
                  ("Reveal at random", "Name the Nemesis card you drew", " from your own cards",
                   "Reveal a Nemesis card at random among the available ones."), choices=nems)


def _dusk_difficulty_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    loc = cat.get("locations", day.location or "")
    nem = cat.nemesis(str(day.nemesis or ""))
    levels = difficulty_levels(state, cat)
    opts = []
    for lv in levels:
        w = lv["wounds"]
        opts.append(Option(str(lv["level"]), f"{lv['name']} / {lv['nemesis_level']}: Wounds "
                           f"to win {w['front']} Front, {w['left']} Left Side, {w['right']} "
                           f"Right Side; {lv['influence']} Event(s)", "day_difficulty",
                           {"level": lv["level"]}))
    info = [f"Location: {loc.name if loc else None}   Nemesis: "
            f"{nem.name if nem is not None else day.nemesis}",
            *map_lines(list(loc.map) if loc else [])]
    return _next(
        day.step, "Lay out the Map as the Location card shows; the app has the Reaction deck and "
        "shuffles it. Choose the Difficulty Level.", *opts,
        default=opts[0].key if opts else None, prompt="Choose the Difficulty Level.",
        choices=levels, info=tuple(info),
        details={"location": day.location, "location_name": loc.name if loc else None,
                 "map": list(loc.map) if loc else [], "nemesis": day.nemesis,
                 "minions": {"A": day.minions[0], "B": day.minions[1]} if day.minions else {}})


def _dusk_events_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    n = influence(state, cat)
    loc = cat.get("locations", day.location or "")
    events = [{"id": e.id, "name": e.name} for e in cat.events_in(loc.zone if loc else "")]
    sentence = f"Place {n} Event card(s) on the Chain from the left."
    return _drawn(state, day.step, "day_place_events", "events", "events", sentence,
                  ("Draw them at random here", "Name the Event cards you drew", "",
                   sentence + " Draw them at random from the Zone's Event cards."),
                  choices=events, details={"influence": n})


def _equipping_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    waiting = unequipped(state, day)
    choices: list[dict[str, Any]] = []
    for i, t in enumerate(state.troupers):
        by_cat: dict[str, list[str]] = {c: [] for c in ITEM_CATEGORIES}
        for s in t.sleeves:
            item = cat.item(s.item)
            if item is not None:
                by_cat[item.category].append(s.item + ("+" if s.advanced else ""))
        choices.append({"trouper": t.trouper, "sleeves": by_cat,
                        "equipped": day.equipped.get(i, {})})
    if not waiting:
        # "Dusk Phase": the physical set-up, a line to tick each (engine/words.py)
        return _next(day.step, "Everyone is equipped: end the Day and set up the night.",
                     Option("1", "End the Day: set up the table (a checklist, Enter ticks "
                            "each line)", "day_end", needs=(SETUP,), repeat=(SETUP,)),
                     *_swaps(state), default="1", choices=choices,
                     details={"waiting": waiting})
    who = waiting[0]
    row = next(c for c in choices if c["trouper"] == who)
    first = [ids[0].rstrip("+") for ids in row["sleeves"].values() if ids]
    return _next(
        day.step, "Equipping: optional swaps, then each Trouper equips three Items, one per "
        "category. Still to equip: " + ", ".join(trouper_name(cat, w) for w in waiting) + ".",
        Option("1", "Equip " + ", ".join(_item_label(cat, i) for i in first), "day_equip",
               {"trouper": who, "items": first}),
        Option("c", "Choose the three Items", "day_equip", {"trouper": who},
               needs=("items",)), *_swaps(state), default="1",
        prompt=f"Equipping {trouper_name(cat, who)}: three Items, one per category.",
        who=who, choices=choices, details={"waiting": waiting},
        info=tuple(f"{c}: " + "; ".join(_item_label(cat, i) for i in ids)
                   for c, ids in row["sleeves"].items()))


def _done_view(state: CampaignState, cat: Catalog, day: DayState) -> Next:
    return _next(day.step, "The Day Part is over.", Option("1", "End the Day", "day_end"),
                 default="1")


# Each step's view.
STEP_VIEWS: dict[str, Callable[[CampaignState, Catalog, DayState], Next]] = {
    "recovery": _recovery_view, "purchases": _purchases_view, "zone": _zone_view,
    "location": _location_view, "minions": _minions_view, "last_assault": _last_assault_view,
    "nemesis": _nemesis_view, "dusk_difficulty": _dusk_difficulty_view,
    "dusk_events": _dusk_events_view, "equipping": _equipping_view, "done": _done_view}


def day_board(state: CampaignState, catalog: Catalog) -> DayBoard:
    """The Day Part as the board shows it (engine/board_view.py): the step, the Wagon and the
    trophies, what was bought and what is affordable now, tonight's choices so far and each
    Trouper's deck, Reserve and Items, all named."""
    day = day_of(state)
    troupers: list[DayTrouper] = []
    for i, t in enumerate(state.troupers):
        equipped = dict(day.equipped.get(i, {}))
        troupers.append({
            "seat": t.seat + 1, "trouper": t.trouper, "name": trouper_name(catalog, t.trouper),
            "colour": t.colour, "leader": i == state.leader, "bites": t.bites,
            "insanity": t.insanity, "deck": len(t.deck),
            "reserve_cards": list(t.reserve_cards), "reserve_items": list(t.reserve_items),
            "sleeves": [s.item + ("+" if s.advanced else "") for s in t.sleeves],
            "equipped": equipped,
            # what players read (issue 17: names, not ids)
            "reserve_names": [_name(catalog, c) for c in [*t.reserve_cards, *t.reserve_items]],
            "equipped_names": [_name(catalog, c) for c in equipped.values()],
        })
    buying = purchases_open(state)
    choices = purchase_choices(state, catalog) if buying else []
    return {
        "step": day.step,
        "title": STEPS[day.step].title,
        "wagon": state.wagon.as_dict(),
        "location_trophies": dict(state.location_trophies),
        "nemesis_trophies": dict(state.nemesis_trophies),
        "bought": list(day.purchases),
        "bought_names": [_name(catalog, c) for c in day.purchases],
        "affordable": [c for c in choices if c.get("affordable")],
        "purchases_open": buying,
        "selection": {"zone": day.zone, "location": day.location, "minions": list(day.minions),
                      "nemesis": day.nemesis, "difficulty": day.difficulty,
                      "events": list(day.events)},
        "selection_names": {
            "zone": _name(catalog, day.zone), "location": _name(catalog, day.location),
            "minions": [_name(catalog, mn) for mn in day.minions],
            "nemesis": _name(catalog, day.nemesis),
            "events": [_name(catalog, e) for e in day.events],
        },
        "troupers": troupers,
    }


def _name(catalog: Catalog, cid: str | None) -> str:
    """A card's (or Zone's) name as printed; an Item on the side it shows ("+": advanced)."""
    if not cid:
        return ""
    return item_name(catalog, cid) if catalog.item(cid.rstrip("+")) else record_name(catalog, cid)


def day_part_board(state: CampaignState, catalog: Catalog, view: Next | None,
                   commands: Callable[[Next | None], list[str]]) -> PartBoard:
    """The Day's section of the board (``flow.board``): the Wagon, the purchases and the step
    (``view``: the view of now when already built)."""
    day = day_board(state, catalog)
    step = view if view is not None else day_next(state, catalog)
    return "day", day, {"title": day["title"], "prompt": step.sentence,
                        "commands": commands(step), "step": step.step}
