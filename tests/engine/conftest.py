"""Dice for the engine tests: a fixed box (the shipped placeholder faces, frozen here so exact
values stay put when owners transcribe their own dice) and the box from the data pack."""

from __future__ import annotations

from typing import Any

import pytest
from dice_boxes import box_of

from blood_companion.engine.dice import DiceBox

# (triumphs, defeats, label) per face, as data/dice.yaml ships them.
FIXED_FACES: dict[str, list[tuple[int, int, str]]] = {
    "R": [(0, 0, "R-blank"), (0, 1, "R-defeat"), (1, 0, "R-triumph"), (2, 0, "R-double")],
    "G": [
        (0, 1, "G-defeat"),
        (0, 0, "G-blank"),
        (1, 0, "G-triumph-1"),
        (1, 0, "G-triumph-2"),
        (1, 0, "G-triumph-3"),
        (2, 0, "G-double"),
    ],
    "B": [
        (0, 1, "B-defeat"),
        (1, 0, "B-triumph-1"),
        (1, 0, "B-triumph-2"),
        (1, 0, "B-triumph-3"),
        (2, 0, "B-double-1"),
        (2, 0, "B-double-2"),
        (2, 0, "B-double-3"),
        (3, 0, "B-triple"),
    ],
}


@pytest.fixture(scope="session")
def box() -> DiceBox:
    return box_of(FIXED_FACES)


@pytest.fixture(scope="session")
def data_box(catalog: Any) -> DiceBox:
    return DiceBox.from_models(catalog.dice)
