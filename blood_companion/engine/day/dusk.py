"""The Dusk Phase: Difficulty Level, Event cards on the Chain, Equipping, and the end of the
Day that lays the night out ("Dusk Phase").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.content.face import trouper_name
from blood_companion.content.models import ITEM_CATEGORIES
from blood_companion.engine.actions import Cli, Context, Who
from blood_companion.engine.day.core import (
    DayAction,
    day_of,
    difficulty_levels,
    influence,
    item_names,
    match_id,
    unequipped,
    with_day,
)
from blood_companion.engine.day.options import (
    CARD_NAMES,
    _item_label,
    at_step,
    chosen_trouper,
    drawn,
    numbered,
    sleeves_by_category,
)
from blood_companion.engine.day.steps import advance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Option
from blood_companion.engine.night_setup import setup_night, table_events
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table
from blood_companion.engine.words.checklists import checklist_ask
from blood_companion.engine.words.sentences import names
from blood_companion.engine.words.templates import SETUP

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class ChooseDifficulty(DayAction):
    """Dusk: the players pick the Difficulty Level from the Nemesis and Location cards."""

    type: Literal["day_difficulty"] = "day_difficulty"
    command = "day difficulty"
    summary = "Dusk: see what each Difficulty Level means, then choose one."
    doing = "choosing the difficulty level"
    offers_at = "dusk_difficulty"
    level: Annotated[int, Cli(help="The Difficulty Level (omit to see the table).")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        opts = []
        for lv in difficulty_levels(state, catalog):
            w = lv["wounds"]
            opts.append(Option(str(lv["level"]), f"{lv['name']} / {lv['nemesis_level']}: Wounds "
                               f"to win {w['front']} Front, {w['left']} Left Side, {w['right']} "
                               f"Right Side; {lv['influence']} Event(s)", "day_difficulty",
                               {"level": lv["level"]}))
        return tuple(opts)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        levels = [lv["level"] for lv in difficulty_levels(state, ctx.catalog)]
        if self.level not in levels:
            raise RuleError(
                f"Difficulty Level {self.level} is not on both the Nemesis and Location cards",
                hint="levels: " + ", ".join(str(x) for x in levels),
            )
        return advance(state, day_of(state), self.type, difficulty=self.level)

    words = "Difficulty Level {level}"


class PlaceEvents(DayAction):
    """Dusk: place the influence's number of Event cards of the Zone on the Chain from the
    left, drawn at random (or ``events``: the cards drawn from the physical deck)."""

    type: Literal["day_place_events"] = "day_place_events"
    command = "day events"
    summary = "Dusk: place the influence's number of Event cards on the Chain."
    doing = "placing the event cards"
    offers_at = "dusk_events"
    events: Annotated[list[str] | None, Cli(help="Event cards drawn from your deck [random].",
                                            metavar="cards")] = None

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        return drawn(state, "day_place_events", "events", "events",
                     ("Draw them at random here", "Name the Event cards you drew", ""))

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "events":
            return None
        day = state.day
        loc = catalog.get("locations", day.location or "") if day else None
        evs = catalog.events_in(loc.zone) if loc else []
        n = influence(state, catalog)
        return Ask("events", f"Which {n} Event card(s) did you draw?",
                   numbered((e.name, e.id) for e in evs), many=(n, n), free=CARD_NAMES)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = day_of(state)
        loc = cat.get("locations", day.location or "")
        assert loc is not None
        n = influence(state, cat)
        zone_events = [(e.id, e.name) for e in cat.events_in(loc.zone)]
        if n >= cat.board.chain_spaces:
            raise RuleError("the Events would fill the whole Chain")
        if self.events is None:
            chosen = ctx.chance.sample([e for e, _ in zone_events], min(n, len(zone_events)),
                                       "events")
            if at_table(state, "events"):  # the players drew them: the cards they name
                chosen = table_events(cat, ctx.chance, [e for e, _ in zone_events], len(chosen),
                                      loc.zone)
        else:
            chosen = [match_id(x, zone_events, f"Event card of {loc.zone}") for x in self.events]
            if len(set(chosen)) != len(chosen):
                raise RuleError("the same Event card is named twice")
            if len(chosen) != min(n, len(zone_events)):
                raise RuleError(f"this Difficulty Level puts {n} Event card(s) on the Chain")
        return advance(state, day, self.type, events=chosen)

    def said(self, c: Any, s: Any) -> str:
        return ("Event cards on the Chain (drawn at random)" if self.events is None
            else "Event cards on the Chain: " + names(c, self.events))


class Equip(DayAction):
    """Equipping: three Items from the Trouper's sleeves, one per category."""

    type: Literal["day_equip"] = "day_equip"
    command = "day equip"
    summary = "Dusk, Equipping: three Items, one Protection, one Tool, one Artifact."
    doing = "equipping"
    trouper: Who
    items: Annotated[list[str], Cli(help="Three sleeved Items, one per category: A,B,C.",
                                    names="sleeved")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The next Trouper to equip: the first Item of each category, or three chosen."""
        day = at_step(state, "equipping")
        waiting = unequipped(state, day) if day is not None else []
        if not waiting:
            return ()
        who = waiting[0]
        by_cat = sleeves_by_category(catalog, state.troupers[state.trouper_index(who)])
        first = [ids[0].rstrip("+") for ids in by_cat.values() if ids]
        return (Option("1", "Equip " + ", ".join(_item_label(catalog, i) for i in first),
                       "day_equip", {"trouper": who, "items": first}),
                Option("c", "Choose the three Items", "day_equip", {"trouper": who},
                       needs=("items",)))

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        t = chosen_trouper(state, option, answers)
        if need != "items" or t is None:
            return None
        sleeves = numbered((f"{_item_label(catalog, s.item + ('+' if s.advanced else ''))} "
                            f"({item.category})", s.item)
                           for s in t.sleeves if (item := catalog.item(s.item)) is not None)
        return Ask("items", f"Which three Items does {trouper_name(catalog, t.trouper)} equip (one "
                   f"per category: {', '.join(ITEM_CATEGORIES)})?", sleeves, many=(3, 3))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = day_of(state)
        idx = state.trouper_index(self.trouper)
        t = state.troupers[idx]
        sleeved = item_names(cat, [s.item for s in t.sleeves])
        gear: dict[str, str] = {}
        for text in self.items:
            iid = match_id(text, sleeved, f"Item in {t.trouper}'s sleeves")
            card = cat.item(iid)
            assert card is not None
            if card.category in gear:
                raise RuleError(f"{dict(sleeved)[gear[card.category]]} and {card.name} are "
                                f"both {card.category}s: one Item per category")
            gear[card.category] = iid
        missing = [c for c in ITEM_CATEGORIES if c not in gear]
        if missing:
            raise RuleError(
                f"{t.trouper} equips three Items, one per category; missing: " + ", ".join(missing)
            )
        gear = {c: gear[c] for c in ITEM_CATEGORIES}
        equipped = {**day.equipped, idx: gear}
        return with_day(state, day.model_copy(update={"equipped": equipped}))

    words = "{trouper:who} equips {items:items}"


class EndDay(DayAction):
    """The Day Part ends: the night is set up from the Day's choices (engine/night_setup.py)."""

    type: Literal["day_end"] = "day_end"
    command = "day end"
    summary = "The Day Part ends: the night is set up."
    doing = "ending the day"
    asks = {SETUP: lambda state, catalog, option, answers: checklist_ask(
        state, catalog, "dusk", "Dusk set-up", answers)}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """Once everyone is equipped, the end of the Day with the table's set-up (a checklist)."""
        day = at_step(state, "equipping")
        if day is not None and not unequipped(state, day):
            # "Dusk Phase": the physical set-up, a line to tick each (engine/words/checklists.py)
            return (Option("1", "End the Day: set up the table (a checklist, Enter ticks "
                           "each line)", "day_end", needs=(SETUP,), repeat=(SETUP,)),)
        if at_step(state, "done") is not None:
            return (Option("1", "End the Day", "day_end"),)
        return ()

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        day = day_of(state)  # everyone is equipped (the step's ``ready``: steps.py)
        assert day.nemesis and day.location and day.difficulty is not None
        new = setup_night(state, ctx.catalog, ctx.chance, nemesis=day.nemesis,
                          location=day.location, minions=list(day.minions),
                          difficulty=day.difficulty, events=list(day.events), equipped=day.equipped)
        return advance(new, day, self.type)

    words = "The Day Part ends; the night is set up"
