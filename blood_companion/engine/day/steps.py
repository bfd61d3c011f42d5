"""The Day Part's step machine as a table ("Day Part": the Show Phase, then the Dusk Phase).

:data:`STEPS` lists the Day's steps in order, each with its title, the rulebook section and
the actions the players may take in it; ``engine/actions.py`` calls :func:`check_step` for every
Day action, which refuses one outside its step with the step's own words (the state is left as
it was). Each action moves the Day to its next step itself (a purchase stays in the Purchases,
the Zone moves to the Location, ...)::

    step             title                                         players may
    recovery         Show 1: Recovery                              recover
    purchases        Show 2-3: Purchases and replacing cards       buy, upgrade, swap, zone
    zone             Show 4: Zone Selection                        zone
    location         Show 4: the Location card                     roll or choose the Location
    minions          Show 4: Minion Selection                      reveal or choose the Minions
    last_assault     Show 4: Last Assault                          face Vlad or not
    nemesis          Show 4: Nemesis Selection                     reveal or choose the Nemesis
    dusk_difficulty  Dusk: Map, Reaction deck, Difficulty Level    choose the level
    dusk_events      Dusk: Event cards on the Chain                place the Events
    equipping        Dusk: Equipping                               equip, swap, end the Day
    done             The Day Part is over                          -

"Single Game Mode" plays with the Starting cards and items only: :data:`SINGLE_REFUSED` are
refused in that mode whatever the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from blood_companion.engine.day_state import DAY_STEPS, STEP_TITLES
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState


@dataclass(frozen=True)
class DayStepSpec:
    key: str
    title: str
    section: str
    actions: frozenset[str]


PURCHASES = frozenset({"day_buy_building", "day_buy_advanced", "day_buy_card", "day_upgrade_item"})
SWAPS = frozenset({"day_swap_tactic", "day_swap_item"})

STEPS: dict[str, DayStepSpec] = {
    s.key: s
    for s in (
        DayStepSpec("recovery", STEP_TITLES["recovery"], "Show Phase", frozenset({"day_recover"})),
        DayStepSpec(
            "purchases",
            STEP_TITLES["purchases"],
            "Show Phase",
            PURCHASES | SWAPS | {"day_zone"},
        ),
        DayStepSpec("zone", STEP_TITLES["zone"], "Show Phase", frozenset({"day_zone"})),
        DayStepSpec(
            "location",
            STEP_TITLES["location"],
            "Show Phase",
            frozenset({"day_roll_location", "day_choose_location"}),
        ),
        DayStepSpec(
            "minions",
            STEP_TITLES["minions"],
            "Show Phase",
            frozenset({"day_draw_minions", "day_choose_minions"}),
        ),
        DayStepSpec(
            "last_assault",
            STEP_TITLES["last_assault"],
            "Show Phase",
            frozenset({"day_last_assault"}),
        ),
        DayStepSpec(
            "nemesis",
            STEP_TITLES["nemesis"],
            "Show Phase",
            frozenset({"day_draw_nemesis", "day_choose_nemesis"}),
        ),
        DayStepSpec(
            "dusk_difficulty",
            STEP_TITLES["dusk_difficulty"],
            "Dusk Phase",
            frozenset({"day_difficulty"}),
        ),
        DayStepSpec(
            "dusk_events",
            STEP_TITLES["dusk_events"],
            "Dusk Phase",
            frozenset({"day_place_events"}),
        ),
        DayStepSpec(
            "equipping",
            STEP_TITLES["equipping"],
            "Dusk Phase",
            SWAPS | {"day_equip", "day_end"},
        ),
        DayStepSpec("done", STEP_TITLES["done"], "Dusk Phase", frozenset()),
    )
}
assert tuple(STEPS) == DAY_STEPS
assert all(STEP_TITLES[k] == s.title for k, s in STEPS.items())
DAY_ACTIONS = frozenset().union(*(s.actions for s in STEPS.values()))
# Single Game mode: what its Starting cards and items rule out, in words.
SINGLE_REFUSED = {
    "day_buy_building": "no buildings",
    "day_buy_advanced": "no purchases",
    "day_buy_card": "no purchases",
    "day_upgrade_item": "no upgrades",
    "day_swap_tactic": "no card swaps",
    "day_swap_item": "no Item swaps",
}


def check_step(state: CampaignState, action: Any, catalog: Any) -> None:
    """The one legality check of the Day (called by ``engine.actions.apply``)."""
    if action.type not in DAY_ACTIONS:
        return
    if state.mode == "single" and action.type in SINGLE_REFUSED:
        raise RuleError(
            f"{SINGLE_REFUSED[action.type]}: Single Game mode plays with the Starting cards and "
            "items only",
            hint="choose the Zone",
            see=("day_zone",),
        )
    step = state.day.step if state.day is not None else "recovery"
    spec = STEPS[step]
    if action.type not in spec.actions:
        from blood_companion.engine.day.views import day_next

        doing = getattr(action, "doing", "") or action.type.replace("_", " ")
        sentence = day_next(state, catalog).sentence if state.day is not None else None
        raise RuleError(
            f"{doing[0].upper() + doing[1:]} is not possible now: the Day is at '{spec.title}'",
            hint=sentence,
            see=("day_next",),
        )
