"""The data pack's models of the box itself: the Difficulty Levels and the component counts
("Components"). Part of the data pack's schema (content/models.py names them:
``models.Components``), in a module of its own: a recorded step reads neither.
"""

from typing import Annotated

from pydantic import Field

from blood_companion.content.models import Model, Record


class DifficultyLevel(Record):
    level: Annotated[int, Field(ge=1, le=5)]
    summary: str


class ComponentCount(Model):
    name: str
    count: Annotated[int, Field(ge=0)]
    per: str | None = None


class Components(Record):
    items: list[ComponentCount]
