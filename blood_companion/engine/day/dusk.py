"""The Dusk Phase: Difficulty Level, Event cards on the Chain, Equipping, and the end of the
Day that lays the night out ("Dusk Phase").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.content.models import ITEM_CATEGORIES
from blood_companion.engine.actions import Cli, Context, Who
from blood_companion.engine.day.core import (
    DayAction,
    day_of,
    difficulty_levels,
    influence,
    item_names,
    match_id,
    with_day,
)
from blood_companion.engine.day.steps import advance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_setup import setup_night, table_events
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table

if TYPE_CHECKING:
    pass


class ChooseDifficulty(DayAction):
    """Dusk: the players pick the Difficulty Level from the Nemesis and Location cards."""

    type: Literal["day_difficulty"] = "day_difficulty"
    command = "day difficulty"
    summary = "Dusk: see what each Difficulty Level means, then choose one."
    doing = "choosing the difficulty level"
    level: Annotated[int, Cli(help="The Difficulty Level (omit to see the table).")]

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
    events: Annotated[list[str] | None, Cli(help="Event cards drawn from your deck [random].",
                                            metavar="cards")] = None

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
        from blood_companion.engine.words.sentences import names
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
                raise RuleError(
                    f"{dict(sleeved)[gear[card.category]]} and {card.name} are both "
                    f"{card.category}s: "
                    "one Item per category"
                )
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

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        day = day_of(state)  # everyone is equipped (the step's ``ready``: steps.py)
        assert day.nemesis and day.location and day.difficulty is not None
        new = setup_night(state, ctx.catalog, ctx.chance, nemesis=day.nemesis,
                          location=day.location, minions=list(day.minions),
                          difficulty=day.difficulty, events=list(day.events), equipped=day.equipped)
        return advance(new, day, self.type)

    words = "The Day Part ends; the night is set up"
