"""The Night Part: Beginning of the Night, Game Turns (Start of Turn, Planning, Tactic,
Nemesis, Minions, Cleanup) and the end of the night, with the app playing the Nemesis.

Each change is one small :class:`~blood_companion.engine.actions.Action`. The players report
what they do at the table (a card played, a Rest, an attack and its side, a Test's dice); the
action that advances the automatic phases (:class:`NextPhase`) runs the Nemesis, the Minions and
the Cleanup bookkeeping, stopping at a question when only the table knows the answer (who is in
range or closest on the Map, the Leader's Rule, a dodge Test, a card to discard).

The package, one concern per module:

* :mod:`.phases` — the phase table (``PHASES``: each phase's actions, what happens on entering
  it, when it ends and what follows) and the one legality check every night action goes through;
* :mod:`.enemy` — the Enemy side: Reaction and Minion cards, Nemesis Skills and Weaknesses
  resolved top to bottom with the Nemesis Target Priority;
* :mod:`.resolve` — a Trouper's own Effects: the Active card, Costs, Distance, attacks;
* engine/rolls — a Trouper's Tests during the night (engine/rolls/night.py);
* :mod:`.planning`, :mod:`.tactic`, :mod:`.answers` — the actions, by phase;
* :mod:`.views` — the board as data, the Active Trouper's options and what comes next;
* :mod:`.core` — card and Trouper lookups shared by all.

What every Effect element means is decided in one place, ``engine/interpreter.py``.
Rulebook sections are cited by name; docs/rules-decisions.md ("Night Part") lists the readings.

Importing the package registers the night's legality check (:mod:`.phases`) and nothing more;
each name below is imported from its module when first asked for (issue 29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.engine.actions import PHASE_CHECKS
from blood_companion.engine.night.phases import PHASES, check_phase, cleanup, settle
from blood_companion.lazy import lazy_names

if TYPE_CHECKING:
    from blood_companion.engine.night.answers import AnswerQuestion as AnswerQuestion
    from blood_companion.engine.night.answers import NextPhase as NextPhase
    from blood_companion.engine.night.answers import RollTest as RollTest
    from blood_companion.engine.night.options import night_view as night_view
    from blood_companion.engine.night.options import whose_turn as whose_turn
    from blood_companion.engine.night.planning import BeginNight as BeginNight
    from blood_companion.engine.night.planning import PassCascade as PassCascade
    from blood_companion.engine.night.planning import PlayCard as PlayCard
    from blood_companion.engine.night.planning import Rest as Rest
    from blood_companion.engine.night.planning import SetupNight as SetupNight
    from blood_companion.engine.night.quick import UseQuick as UseQuick
    from blood_companion.engine.night.resolve import attack_need as attack_need
    from blood_companion.engine.night.tactic import Attack as Attack
    from blood_companion.engine.night.tactic import FinishActivation as FinishActivation
    from blood_companion.engine.night.tactic import ResolveEffect as ResolveEffect
    from blood_companion.engine.night.tactic import RestRedraw as RestRedraw
    from blood_companion.engine.night.tactic import UseEvent as UseEvent
    from blood_companion.engine.night.tactic import UseItem as UseItem
    from blood_companion.engine.night.tactic import UseSupport as UseSupport
    from blood_companion.engine.night.views import activation_options as activation_options
    from blood_companion.engine.night.views import board_view as board_view

PHASE_CHECKS["night"] = check_phase

# name -> the module of this package defining it, imported on first use (__getattr__)
_HOMES = {
    **dict.fromkeys(("AnswerQuestion", "NextPhase", "RollTest"), "answers"),
    **dict.fromkeys(("night_view", "whose_turn"), "options"),
    **dict.fromkeys(("BeginNight", "PassCascade", "PlayCard", "Rest", "SetupNight"), "planning"),
    "UseQuick": "quick",
    "attack_need": "resolve",
    **dict.fromkeys(("Attack", "FinishActivation", "ResolveEffect", "RestRedraw", "UseEvent",
                     "UseItem", "UseSupport"), "tactic"),
    **dict.fromkeys(("activation_options", "board_view"), "views"),
}


__getattr__ = lazy_names(__name__, _HOMES)


__all__ = ["PHASES", "cleanup", "settle", *_HOMES]
