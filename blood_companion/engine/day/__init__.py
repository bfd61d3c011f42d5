"""The Day Part: the Show Phase and the Dusk Phase, one action per step or purchase.

Rulebook sections: "Day Part", "Show Phase" (Recovery, Purchases, Zone Selection, Minion
Selection, Last Assault, Nemesis Selection), "Village Card" (the five Bran buildings),
"Purchasing Tactic Cards and Item Cards", "Replacing a Tactic Card", "Replacing an Item Card",
"Trouper Item Card" (upgrades), "Dusk Phase" (Map, Reaction deck, Difficulty Level, Event cards,
Equipping) and "Single Game Mode" (readings: docs/rules-decisions.md). The steps in
:mod:`.steps`, the actions in :mod:`.show`, :mod:`.selection`, :mod:`.dusk`, paying in
:mod:`.payments`, views in :mod:`.views`, options in :mod:`.options`. Pure: no I/O.
"""

from blood_companion.engine.day.core import (
    available_nemeses,
    building_for,
    building_problem,
    difficulty_levels,
    influence,
    match_id,
)
from blood_companion.engine.day.dusk import ChooseDifficulty, EndDay, Equip, PlaceEvents
from blood_companion.engine.day.payments import pay_text, suggest_payment
from blood_companion.engine.day.selection import (
    ChooseLocation,
    ChooseMinions,
    ChooseNemesis,
    ChooseZone,
    DrawMinions,
    DrawNemesis,
    LastAssault,
    RollLocation,
)
from blood_companion.engine.day.show import (
    BuyAdvancedTactic,
    BuyBuilding,
    BuySpecialCard,
    Recover,
    SwapItem,
    SwapTactic,
    UpgradeItem,
)
from blood_companion.engine.day.steps import STEP_TITLES, STEPS, purchases_open
from blood_companion.engine.day.views import day_next

__all__ = [
    "BuyAdvancedTactic", "BuyBuilding", "BuySpecialCard", "ChooseDifficulty", "ChooseLocation",
    "ChooseMinions", "ChooseNemesis", "ChooseZone", "DrawMinions", "DrawNemesis", "EndDay",
    "Equip", "LastAssault", "PlaceEvents", "Recover", "RollLocation", "STEPS", "STEP_TITLES",
    "SwapItem", "SwapTactic", "UpgradeItem", "available_nemeses", "building_for",
    "building_problem", "day_next", "difficulty_levels", "influence", "match_id", "pay_text",
    "purchases_open", "suggest_payment",
]
