"""The Day Part: the Show Phase and the Dusk Phase, one action per step or purchase.

Rulebook sections: "Day Part", "Show Phase" (Recovery, Purchases, Zone Selection, Minion
Selection, Last Assault, Nemesis Selection), "Village Card" (the five Bran buildings),
"Purchasing Tactic Cards and Item Cards", "Replacing a Tactic Card", "Replacing an Item Card",
"Trouper Item Card" (upgrades), "Dusk Phase" (Map, Reaction deck, Difficulty Level, Event cards,
Equipping) and "Single Game Mode". Readings of the rules are in docs/rules-decisions.md
("Day Part").

One concern per module:

* :mod:`.steps` — the step table (``STEPS``: each step's actions, what finishes it and what
  follows), its machine (``advance``) and the one legality check every Day action goes through;
* :mod:`.show`, :mod:`.selection`, :mod:`.dusk` — the actions, by phase;
* :mod:`.payments` — Resources and Trophy tokens, and the one purchase pipeline;
* :mod:`.views` — what comes next (``day_next``: the step, its choices and the typed options
  players pick from, engine/legal.py); :mod:`.options` — the options' follow-up questions;
* :mod:`.core` — lookups shared by all.

Pure: no I/O and no printing.
"""

from blood_companion.engine.actions import PHASE_CHECKS
from blood_companion.engine.day.core import (
    available_nemeses,
    building_for,
    building_problem,
    match_id,
    trouper_at,
)
from blood_companion.engine.day.dusk import (
    ChooseDifficulty,
    EndDay,
    Equip,
    PlaceEvents,
    difficulty_levels,
    influence,
)
from blood_companion.engine.day.payments import (
    buy,
    can_afford,
    cost_text,
    pay_resources,
    pay_text,
    pay_trophies,
    suggest_payment,
    trophy_text,
)
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
from blood_companion.engine.day.steps import STEP_TITLES, STEPS, check_step, purchases_open
from blood_companion.engine.day.views import (
    day_next,
    holds_trophies,
    purchase_choices,
)

PHASE_CHECKS["day"] = check_step

__all__ = [
    "STEPS",
    "STEP_TITLES",
    "BuyAdvancedTactic",
    "BuyBuilding",
    "BuySpecialCard",
    "ChooseDifficulty",
    "ChooseLocation",
    "ChooseMinions",
    "ChooseNemesis",
    "ChooseZone",
    "DrawMinions",
    "DrawNemesis",
    "EndDay",
    "Equip",
    "LastAssault",
    "PlaceEvents",
    "Recover",
    "RollLocation",
    "SwapItem",
    "SwapTactic",
    "UpgradeItem",
    "available_nemeses",
    "building_for",
    "building_problem",
    "buy",
    "can_afford",
    "cost_text",
    "day_next",
    "difficulty_levels",
    "holds_trophies",
    "influence",
    "match_id",
    "pay_resources",
    "pay_text",
    "pay_trophies",
    "purchase_choices",
    "purchases_open",
    "suggest_payment",
    "trophy_text",
    "trouper_at",
]
