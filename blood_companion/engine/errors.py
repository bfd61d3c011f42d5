"""Typed errors of the rules engine: what it refuses raises a :class:`RuleError` (the CLI says
it, exit code 1) and leaves the state as it was."""

from __future__ import annotations

from blood_companion.errors import BloodError


class RuleError(BloodError):
    """A rule or an input the engine refuses (exit code 1)."""


class DiceError(RuleError):
    """A dice pool, a face entry or a dice count the box cannot honour."""
