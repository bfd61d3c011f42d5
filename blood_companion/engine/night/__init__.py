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
"""

from blood_companion.engine.night.answers import AnswerQuestion, NextPhase, RollTest
from blood_companion.engine.night.options import night_view, whose_turn
from blood_companion.engine.night.phases import PHASES, cleanup, settle
from blood_companion.engine.night.planning import (
    BeginNight,
    PassCascade,
    PlayCard,
    Rest,
    SetupNight,
)
from blood_companion.engine.night.quick import UseQuick
from blood_companion.engine.night.resolve import attack_need
from blood_companion.engine.night.tactic import (
    Attack,
    FinishActivation,
    ResolveEffect,
    RestRedraw,
    UseEvent,
    UseItem,
    UseSupport,
)
from blood_companion.engine.night.views import activation_options, board_view

__all__ = [
    "AnswerQuestion", "Attack", "BeginNight", "FinishActivation", "NextPhase", "PHASES",
    "PassCascade", "PlayCard", "ResolveEffect", "Rest", "RestRedraw", "RollTest", "SetupNight",
    "UseEvent", "UseItem", "UseQuick", "UseSupport", "activation_options", "attack_need",
    "board_view", "cleanup", "night_view", "settle", "whose_turn",
]
