"""The Day Part: the Show Phase and the Dusk Phase, one action per step or purchase.

Rulebook sections: "Day Part", "Show Phase" (Recovery, Purchases, Zone Selection, Minion
Selection, Last Assault, Nemesis Selection), "Village Card" (the five Bran buildings),
"Purchasing Tactic Cards and Item Cards", "Replacing a Tactic Card", "Replacing an Item Card",
"Trouper Item Card" (upgrades), "Dusk Phase" (Map, Reaction deck, Difficulty Level, Event cards,
Equipping) and "Single Game Mode". Readings of the rules are in docs/rules-decisions.md
("Day Part"). The step table and its machine are in :mod:`.steps`; the actions in :mod:`.show`,
:mod:`.selection` and :mod:`.dusk`; paying in :mod:`.payments`; each step's view and options in
:mod:`.views`, their follow-up questions in :mod:`.options`. Pure: no I/O and no printing.

Importing the package registers the Day's legality check (:mod:`.steps`) and nothing more; each
name below is imported from its module when first asked for (``from blood_companion.engine.day
import day_next`` imports the views, not the actions of every step: issue 29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.engine.actions import PHASE_CHECKS
from blood_companion.engine.day.steps import STEP_TITLES, STEPS, check_step, purchases_open
from blood_companion.lazy import lazy_names

if TYPE_CHECKING:
    from blood_companion.engine.day.core import available_nemeses as available_nemeses
    from blood_companion.engine.day.core import building_for as building_for
    from blood_companion.engine.day.core import building_problem as building_problem
    from blood_companion.engine.day.core import difficulty_levels as difficulty_levels
    from blood_companion.engine.day.core import influence as influence
    from blood_companion.engine.day.core import match_id as match_id
    from blood_companion.engine.day.dusk import ChooseDifficulty as ChooseDifficulty
    from blood_companion.engine.day.dusk import EndDay as EndDay
    from blood_companion.engine.day.dusk import Equip as Equip
    from blood_companion.engine.day.dusk import PlaceEvents as PlaceEvents
    from blood_companion.engine.day.payments import pay_text as pay_text
    from blood_companion.engine.day.payments import suggest_payment as suggest_payment
    from blood_companion.engine.day.selection import ChooseLocation as ChooseLocation
    from blood_companion.engine.day.selection import ChooseMinions as ChooseMinions
    from blood_companion.engine.day.selection import ChooseNemesis as ChooseNemesis
    from blood_companion.engine.day.selection import ChooseZone as ChooseZone
    from blood_companion.engine.day.selection import DrawMinions as DrawMinions
    from blood_companion.engine.day.selection import DrawNemesis as DrawNemesis
    from blood_companion.engine.day.selection import LastAssault as LastAssault
    from blood_companion.engine.day.selection import RollLocation as RollLocation
    from blood_companion.engine.day.show import BuyAdvancedTactic as BuyAdvancedTactic
    from blood_companion.engine.day.show import BuyBuilding as BuyBuilding
    from blood_companion.engine.day.show import BuySpecialCard as BuySpecialCard
    from blood_companion.engine.day.show import Recover as Recover
    from blood_companion.engine.day.show import SwapItem as SwapItem
    from blood_companion.engine.day.show import SwapTactic as SwapTactic
    from blood_companion.engine.day.show import UpgradeItem as UpgradeItem
    from blood_companion.engine.day.views import day_next as day_next

PHASE_CHECKS["day"] = check_step

# name -> the module of this package defining it, imported on first use (__getattr__)
_HOMES = {
    **dict.fromkeys(("available_nemeses", "building_for", "building_problem",
                     "difficulty_levels", "influence", "match_id"), "core"),
    **dict.fromkeys(("ChooseDifficulty", "EndDay", "Equip", "PlaceEvents"), "dusk"),
    **dict.fromkeys(("pay_text", "suggest_payment"), "payments"),
    **dict.fromkeys(("ChooseLocation", "ChooseMinions", "ChooseNemesis", "ChooseZone",
                     "DrawMinions", "DrawNemesis", "LastAssault", "RollLocation"), "selection"),
    **dict.fromkeys(("BuyAdvancedTactic", "BuyBuilding", "BuySpecialCard", "Recover", "SwapItem",
                     "SwapTactic", "UpgradeItem"), "show"),
    "day_next": "views",
}


__getattr__ = lazy_names(__name__, _HOMES)


__all__ = ["STEPS", "STEP_TITLES", "purchases_open", *_HOMES]
