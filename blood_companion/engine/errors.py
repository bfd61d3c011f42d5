"""Typed errors of the rules engine.

Everything the engine refuses (a bad dice pool, a face a die does not have, an out-of-phase
action) raises a :class:`RuleError`; the CLI reports it as a clear message with exit code 1 and
the game state is left as it was.
"""

from __future__ import annotations

from blood_companion.errors import BloodError


class RuleError(BloodError):
    """A rule or an input the engine refuses (exit code 1)."""


class DiceError(RuleError):
    """A dice pool, a face entry or a dice count the box cannot honour."""
