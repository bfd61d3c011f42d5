"""What the End of the Night still owes the players (data only; rules in engine/endgame.py)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class PendingLoot(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    dice: str
    resource: str  # a resource name or "any"


class RollMade(BaseModel):
    """A loot roll as it was made: the faces (physical or digital) and what it gave."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    dice: str
    faces: str  # "G1 G2x": die letter, Triumphs, one x per Defeat
    physical: bool = False
    resource: str
    gained: int


class RewardState(BaseModel):
    """What the Location card's column still owes the players after a night."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    result: Literal["won", "lost"]
    nemesis: str
    zone: str
    location: str
    difficulty: int
    vlad: bool = False
    vlad_cards: int = 0  # Vlad Reaction cards of the Zone still to turn Weakened
    advanced_tactics: int = 0  # Advanced Tactic cards still to take
    loot: list[PendingLoot] = []  # rolls still to make
    gained: dict[str, int] = Field(default_factory=dict)  # what was won, for the history
    weakened: list[str] = []
    tactics_taken: list[str] = []
    given: dict[str, list[str]] = Field(default_factory=dict)  # Trouper -> cards taken
    rolls: list[RollMade] = []
    trophies: dict[str, int] = Field(default_factory=dict)
