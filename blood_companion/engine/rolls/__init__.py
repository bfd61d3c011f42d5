"""Tests ("Tests"): the dice a Trouper rolls against a number of Triumphs, in one package.

* :mod:`.procedure` — the seven steps of a Test, the notation of recorded throws and
  Re-rolls (one parser), the Insanity bonus at a Trouper's cube and the cube's move after a
  Test;
* :mod:`.recorded` — ``take_test``, the Test `blood test` records on the log;
* :mod:`.night` — a Trouper's Tests during the night (Effects, attacks, dodges, Quick Items),
  and the same Test asked throw by throw for `blood play` and `night next`.

The exact odds and the Insanity track's bonuses (``insanity_bonuses``) stay in engine/odds.py,
which `blood odds` imports without pydantic. The Triumphs an Attack needs (:func:`attack_target`)
are here, where the board reads them without importing a Test's machinery.
"""

from collections.abc import Sequence

from blood_companion.engine.errors import RuleError


def attack_target(defense: int, fatigue: Sequence[int] = (), modifier: int = 0) -> int:
    """Triumphs an Attack needs ("Attacks and Defenses"): the target's Physical or Mind
    Defense, lowered by the Fatigue of the Reaction cards on the Reaction Line (a Nemesis)
    and changed by a Weakness ``modifier`` on the side hit; never below 0."""
    if defense < 0 or any(f < 0 for f in fatigue):
        raise RuleError("Defense and Fatigue values are 0 or more")
    return max(0, defense - sum(fatigue) + modifier)
