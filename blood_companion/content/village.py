"""The data pack's models of the village of Bran ("Day Part"): its Buildings. Part of the data
pack's schema (content/models.py names them: ``models.Village``), in a module of its own so
that a night's commands do not create their classes.
"""

from typing import Literal

from blood_companion.content.models import Record, ResourceCost


class Building(Record):
    cost: ResourceCost
    effect: Literal["hunting_house", "cartographer", "sanatorium", "asylum", "alchemist"]
    text: str


class Village(Record):
    buildings: list[Building]
