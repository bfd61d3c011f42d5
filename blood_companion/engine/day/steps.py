"""The Day Part's step machine as a table ("Day Part": the Show Phase, then the Dusk Phase).

:data:`STEPS`: each step's title, the actions allowed in it (:func:`check_step` refuses others),
those that end it, the next step and when that one is skipped (the Purchases in
"Single Game Mode", the Nemesis Selection in the "Last Assault"). :func:`advance` is the one
writer of ``step``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from blood_companion.engine.day.core import day_of, unequipped, with_day
from blood_companion.engine.day_state import DAY_STEPS, DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState


class DayStepSpec(NamedTuple):
    key: str
    title: str
    actions: frozenset[str]
    ends: frozenset[str]  # the actions that finish it: the Day goes on to `next`
    next: str | None
    skip: Callable[[CampaignState, DayState], bool] = lambda state, day: False  # on entering
    ready: Callable[[CampaignState, DayState], None] = lambda state, day: None  # to end it


PURCHASES = frozenset({"day_buy_building", "day_buy_advanced", "day_buy_card", "day_upgrade_item"})
SWAPS = frozenset({"day_swap_tactic", "day_swap_item"})


def _step(key: str, title: str, actions: set[str] | frozenset[str], nxt: str | None,
          ends: set[str] | None = None, **kw: Any) -> DayStepSpec:
    """A step; its actions finish it unless `ends` names those that do."""
    return DayStepSpec(key, title, frozenset(actions),
                       frozenset(actions if ends is None else ends), nxt, **kw)


def _everyone_equipped(state: CampaignState, day: DayState) -> None:
    waiting = unequipped(state, day)
    if waiting:
        raise RuleError("still to equip: " + ", ".join(waiting),
                        hint=f"{waiting[0]} equips one protection, one tool and one artifact",
                        see=("day_equip",))


STEPS: dict[str, DayStepSpec] = {
    s.key: s
    for s in (
        # The Show Phase
        _step("recovery", "Show 1: Recovery", {"day_recover"}, "purchases"),
        # "Single Game Mode": Starting cards and items only, so no purchases.
        _step("purchases", "Show 2-3: Purchases and replacing cards",
              PURCHASES | SWAPS | {"day_zone"}, "zone", set(),
              skip=lambda state, day: state.mode == "single"),
        _step("zone", "Show 4: Zone Selection", {"day_zone"}, "location"),
        _step("location", "Show 4: the Location card",
              {"day_roll_location", "day_choose_location"}, "minions"),
        _step("minions", "Show 4: Minion Selection", {"day_draw_minions", "day_choose_minions"},
              "last_assault"),
        _step("last_assault", "Show 4: Last Assault", {"day_last_assault"}, "nemesis"),
        # facing Vlad skips the Nemesis Selection ("Last Assault")
        _step("nemesis", "Show 4: Nemesis Selection", {"day_draw_nemesis", "day_choose_nemesis"},
              "dusk_difficulty", skip=lambda state, day: day.last_assault),
        # The Dusk Phase
        _step("dusk_difficulty", "Dusk: Map, Reaction deck and Difficulty Level",
              {"day_difficulty"}, "dusk_events"),
        _step("dusk_events", "Dusk: Event cards on the Chain", {"day_place_events"},
              "equipping"),
        _step("equipping", "Dusk: Equipping", SWAPS | {"day_equip", "day_end"}, "done",
              {"day_end"}, ready=_everyone_equipped),
        _step("done", "The Day Part is over", set(), None),
    )
}
assert tuple(STEPS) == DAY_STEPS
STEP_TITLES = {k: s.title for k, s in STEPS.items()}
DAY_ACTIONS = frozenset().union(*(s.actions for s in STEPS.values()))


def advance(state: CampaignState, day: DayState, action: str, **choices: Any) -> CampaignState:
    """The Day's step machine, the one writer of ``step``: `action` finishes its step, whose
    ``next`` follows (past the steps ``skip`` leaves out), the Day keeping `choices`. Once the
    night is set up (:class:`EndDay`) the campaign's ``phase`` is the night's."""
    day = day.model_copy(update=choices)
    to = next(s for s in STEPS.values() if action in s.ends).next
    while to is not None and STEPS[to].skip(state, day):
        to = STEPS[to].next
    day = day.model_copy(update={"step": to})
    return with_day(state, day) if state.part == "day" else state.model_copy(update={"day": day})


def purchases_open(state: CampaignState) -> bool:
    """Whether the Day is at or before its Purchases, and plays them."""
    day = day_of(state)
    at = DAY_STEPS.index
    return not STEPS["purchases"].skip(state, day) and at(day.step) <= at("purchases")


# Single Game mode: what its Starting cards and items rule out, in words.
SINGLE_REFUSED = {"day_buy_building": "no buildings", "day_buy_advanced": "no purchases",
                  "day_buy_card": "no purchases", "day_upgrade_item": "no upgrades",
                  "day_swap_tactic": "no card swaps", "day_swap_item": "no Item swaps"}


def check_step(state: CampaignState, action: Any, catalog: Any,
               view: Callable[[CampaignState, Any], Any] | None = None) -> None:
    """The one legality check of the Day (called by ``engine.flow.apply``): an action of
    its step, and one that ends the step only when the step is ready to end. ``view``: the
    Day's view (``day/views.py`` ``day_next``), whose sentence a refusal gives as its hint."""
    if action.type not in DAY_ACTIONS:
        return
    if state.mode == "single" and action.type in SINGLE_REFUSED:
        raise RuleError(f"{SINGLE_REFUSED[action.type]}: Single Game mode plays with the "
                        "Starting cards and items only", hint="choose the Zone", see=("day_zone",))
    day = day_of(state)
    spec = STEPS[day.step]
    if action.type not in spec.actions:
        doing = getattr(action, "doing", "") or action.type.replace("_", " ")
        sentence = (view(state, catalog).sentence
                    if view is not None and state.day is not None else None)
        raise RuleError(
            f"{doing[0].upper() + doing[1:]} is not possible now: the Day is at '{spec.title}'",
            hint=sentence, see=("day_next",))
    if action.type in spec.ends:
        spec.ready(state, day)
