"""Tests ("Tests"): :mod:`.procedure` the seven steps and the throws' notation, :mod:`.recorded`
the Test `blood test` records, :mod:`.night` the night's Tests, asked throw by throw. The odds
stay in engine/odds.py (`blood odds` imports it without pydantic); :func:`attack_target` is here
for the board, without a Test's machinery.
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
