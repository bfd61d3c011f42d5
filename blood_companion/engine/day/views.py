"""What the Day looks like: the next step (one :class:`~blood_companion.engine.legal.Next`:
a sentence, the choices on offer and the options players pick from) and the Day board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content.face import map_lines, trouper_name
from blood_companion.engine.board_view import DayBoard, DayTrouper
from blood_companion.engine.day import dusk, selection, show
from blood_companion.engine.day.core import (
    available_nemeses,
    day_of,
    difficulty_levels,
    influence,
    unequipped,
)
from blood_companion.engine.day.options import (
    _item_label,
    _name,
    purchase_choices,
    sleeves_by_category,
)
from blood_companion.engine.day.steps import STEPS, purchases_open
from blood_companion.engine.day_state import DayState
from blood_companion.engine.legal import Next, Option, gathered
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table
from blood_companion.engine.words.sentences import zone_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.board_view import PartBoard

def day_next(state: CampaignState, catalog: Catalog) -> Next:
    """What the players do next in the Day Part: its step's view, with the options its actions
    offer (gathered in :data:`MENU`'s order, of those offering at its step)."""
    if state.part != "day":
        if state.part == "night":
            sentence = "The Day Part is over and the night is set up."
        else:
            sentence = f"The campaign is in the {state.part} part, not the Day."
        return Next(state.part, state.part, "Not the Day Part", sentence)
    day = day_of(state)
    moves = [m for m in MENU if m.offers_at in ("", day.step)]
    return STEP_VIEWS[day.step](state, catalog, day, gathered(moves, state, catalog))


def _next(step: str, sentence: str, *options: Option, default: str | None = None,
          prompt: str = "", choices: Sequence[dict[str, Any]] = (), **kw: Any) -> Next:
    """A step's :class:`Next`, titled from its spec; the prompt is the sentence unless said."""
    return Next("day", step, f"Day Part · {STEPS[step].title}", prompt or sentence,
                options=options, default=default, moment=sentence, choices=list(choices), **kw)


def _drawn(state: CampaignState, step: str, deck: str, sentence: str, prompt: str,
           opts: tuple[Option, ...], **kw: Any) -> Next:
    """A step whose cards are drawn at random (``options.drawn``); `prompt` when the players
    hold the deck (then they name what they drew)."""
    if at_table(state, deck):
        return _next(step, sentence, *opts, default="t", prompt=prompt, **kw)
    return _next(step, sentence, *opts, default="1", **kw)


def _recovery_view(state: CampaignState, cat: Catalog, day: DayState,
                   opts: tuple[Option, ...]) -> Next:
    return _next(day.step, "Recovery: Vigor tokens back to available (Bites stay on them), "
                 "Insanity cubes to the leftmost space.", *opts, default="1")


def _purchases_view(state: CampaignState, cat: Catalog, day: DayState,
                    opts: tuple[Option, ...]) -> Next:
    wagon = ", ".join(f"{v} {k}" for k, v in state.wagon.as_dict().items())
    return _next(
        day.step, "Spend the Wagon at the buildings, buy and upgrade cards, swap cards and Items; "
        "then choose the Zone.", *opts, default="z", prompt="Buy something, or finish buying?",
        choices=purchase_choices(state, cat), info=(f"Wagon: {wagon}",),
        details={"wagon": state.wagon.as_dict(),
                 "location_trophies": dict(state.location_trophies),
                 "nemesis_trophies": dict(state.nemesis_trophies),
                 "bought": list(day.purchases)})


def _zone_view(state: CampaignState, cat: Catalog, day: DayState,
               opts: tuple[Option, ...]) -> Next:
    zones = cat.all("zones")
    return _next(day.step, "Choose the Zone of the next night.", *opts, default="1",
                 prompt="Zone Selection: where do you face the Nemesis tonight?",
                 choices=[{"id": z.id, "name": z.name} for z in zones])


def _location_view(state: CampaignState, cat: Catalog, day: DayState,
                   opts: tuple[Option, ...]) -> Next:
    zone = zone_name(cat, day.zone or "")
    locs = [{"id": loc.id, "name": loc.name, "face": loc.choice}
            for loc in cat.locations_in(day.zone or "")]
    die = cat.config.location_die
    # the players roll and take the card themselves, else the app rolls
    default = ("1" if day.cartographer else "c") if at_table(state, "locations") else "r"
    if day.cartographer:
        return _next(day.step, f"Cartographer's Office: choose the Location card of {zone} (or "
                     "roll for it).", *opts, default=default, choices=locs)
    return _next(day.step, f"Roll the {die} die for the Location card of {zone}.", *opts,
                 default=default, choices=locs, details={"die": die})


def _minions_view(state: CampaignState, cat: Catalog, day: DayState,
                  opts: tuple[Option, ...]) -> Next:
    minions = [{"id": mn.id, "name": mn.name, "type": mn.type} for mn in cat.all("minions")]
    if day.hunting_house:
        return _next(day.step, "Hunting House: choose four Minion cards; two of them, at random, "
                     "take spaces A and B.", *opts, default="1", choices=minions)
    return _drawn(state, day.step, "minions",
                  "Reveal two Minion cards at random for spaces A and B.",
                  "Reveal two Minion cards at random from your own deck (A, then B).", opts,
                  choices=minions)


def _last_assault_view(state: CampaignState, cat: Catalog, day: DayState,
                       opts: tuple[Option, ...]) -> Next:
    avail = available_nemeses(state, cat)
    return _next(day.step, "Last Assault: do the players face Vlad tonight?"
                 + ("" if avail else " Every lieutenant is defeated: only Vlad is left."),
                 *opts, default="n" if avail else "y",
                 choices=[{"id": "yes"}, {"id": "no"}] if avail else [{"id": "yes"}],
                 details={"vlad_weakened": len(state.vlad_weakened)})


def _nemesis_view(state: CampaignState, cat: Catalog, day: DayState,
                  opts: tuple[Option, ...]) -> Next:
    nems = [{"id": n, "name": getattr(cat.nemesis(n), "name", n)}
            for n in available_nemeses(state, cat)]
    if day.asylum:
        return _next(day.step, "Asylum: choose the Nemesis.", *opts, default="1", choices=nems)
    return _drawn(state, day.step, "nemeses",
                  "Reveal the Nemesis at random from the available ones.",
                  "Reveal a Nemesis card at random among the available ones.", opts,
                  choices=nems)


def _dusk_difficulty_view(state: CampaignState, cat: Catalog, day: DayState,
                          opts: tuple[Option, ...]) -> Next:
    loc = cat.get("locations", day.location or "")
    nem = cat.nemesis(str(day.nemesis or ""))
    levels = difficulty_levels(state, cat)
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


def _dusk_events_view(state: CampaignState, cat: Catalog, day: DayState,
                      opts: tuple[Option, ...]) -> Next:
    n = influence(state, cat)
    loc = cat.get("locations", day.location or "")
    events = [{"id": e.id, "name": e.name} for e in cat.events_in(loc.zone if loc else "")]
    sentence = f"Place {n} Event card(s) on the Chain from the left."
    return _drawn(state, day.step, "events", sentence,
                  sentence + " Draw them at random from the Zone's Event cards.", opts,
                  choices=events, details={"influence": n})


def _equipping_view(state: CampaignState, cat: Catalog, day: DayState,
                    opts: tuple[Option, ...]) -> Next:
    waiting = unequipped(state, day)
    choices: list[dict[str, Any]] = []
    for i, t in enumerate(state.troupers):
        choices.append({"trouper": t.trouper, "sleeves": sleeves_by_category(cat, t),
                        "equipped": day.equipped.get(i, {})})
    if not waiting:
        # "Dusk Phase": the physical set-up, a line to tick each (engine/words/checklists.py)
        return _next(day.step, "Everyone is equipped: end the Day and set up the night.",
                     *opts, default="1", choices=choices,
                     details={"waiting": waiting})
    who = waiting[0]
    row = next(c for c in choices if c["trouper"] == who)
    return _next(
        day.step, "Equipping: optional swaps, then each Trouper equips three Items, one per "
        "category. Still to equip: " + ", ".join(trouper_name(cat, w) for w in waiting) + ".",
        *opts, default="1",
        prompt=f"Equipping {trouper_name(cat, who)}: three Items, one per category.",
        who=who, choices=choices, details={"waiting": waiting},
        info=tuple(f"{c}: " + "; ".join(_item_label(cat, i) for i in ids)
                   for c, ids in row["sleeves"].items()))


def _done_view(state: CampaignState, cat: Catalog, day: DayState,
               opts: tuple[Option, ...]) -> Next:
    return _next(day.step, "The Day Part is over.", *opts, default="1")


# The Day's actions in the order its menus show their options (each offers them at its step).
MENU = (show.Recover, show.BuyBuilding, show.BuyAdvancedTactic, show.BuySpecialCard,
        show.UpgradeItem, dusk.Equip, dusk.EndDay, show.SwapTactic, show.SwapItem,
        selection.ChooseZone, selection.ChooseLocation, selection.RollLocation,
        selection.ChooseMinions, selection.DrawMinions, selection.LastAssault,
        selection.ChooseNemesis, selection.DrawNemesis, dusk.ChooseDifficulty, dusk.PlaceEvents)

# Each step's view (the options gathered).
STEP_VIEWS: dict[str, Callable[[CampaignState, Catalog, DayState, tuple[Option, ...]], Next]] = {
    "recovery": _recovery_view, "purchases": _purchases_view, "zone": _zone_view,
    "location": _location_view, "minions": _minions_view, "last_assault": _last_assault_view,
    "nemesis": _nemesis_view, "dusk_difficulty": _dusk_difficulty_view,
    "dusk_events": _dusk_events_view, "equipping": _equipping_view, "done": _done_view}


def day_part_board(state: CampaignState, catalog: Catalog, view: Next | None,
                   commands: Callable[[Next | None], list[str]]) -> PartBoard:
    """The Day's section of the board (``flow.board``, engine/board_view.py): the step, the
    Wagon and the trophies, what was bought and is affordable now, tonight's choices so far and
    each Trouper's deck, Reserve and Items, all named (``view``: the view of now when built)."""
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
    board: DayBoard = {
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
    step = view if view is not None else day_next(state, catalog)
    return "day", board, {"title": board["title"], "prompt": step.sentence,
                          "commands": commands(step), "step": step.step}
