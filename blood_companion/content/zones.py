"""The data pack's models of the Zones ("Zones" > "Tiles"): the Tiles of each Zone's Map. Part of
the data pack's schema (content/models.py names them: ``models.Zone``), in a module of its own
so that a command that reads no Zone does not create their classes.
"""

from typing import Annotated, Literal

from pydantic import Field

from blood_companion.content.models import Model, Record


class TileGroup(Model):
    symbol: Literal[
        "nemesis", "large_scenic", "small_scenic", "minion_a", "minion_b", "trouper", "none"
    ]
    count: Annotated[int, Field(ge=0, le=19)]


class Zone(Record):
    tiles: list[TileGroup]
    location_trophies: Annotated[int, Field(ge=0)] = 3

    def tile_count(self) -> int:
        return sum(g.count for g in self.tiles)
