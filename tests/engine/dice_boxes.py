"""Dice boxes for the engine tests, from their faces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from blood_companion.engine.dice import DIE_NAMES, DiceBox, DieSpec, Face


def box_of(faces: Mapping[str, Sequence[Sequence[Any]]]) -> DiceBox:
    """From ``{"R": [(triumphs, defeats[, label]), ...], ...}``, 3 of each die."""
    return DiceBox.from_models(
        DieSpec(x, f"{DIE_NAMES[x]} Die", tuple(Face(x, *row) for row in rows))
        for x, rows in faces.items())
