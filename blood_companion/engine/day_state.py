"""The Day Part's choices so far (Show Phase and Dusk Phase), as data only (the rules:
``engine/day/``)."""

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

# The Day Part's steps in order (their table: engine/day/steps.py). "purchases" covers the
# replacing of cards and items too; the Dusk's Map and Reaction deck need no choice.
DayStep = Literal["recovery", "purchases", "zone", "location", "minions", "last_assault", "nemesis",
                  "dusk_difficulty", "dusk_events", "equipping", "done"]
DAY_STEPS: tuple[str, ...] = get_args(DayStep)


class DayState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    step: DayStep = "recovery"
    # Buildings bought this Day that change the selection steps ("Village Card").
    hunting_house: bool = False
    cartographer: bool = False
    asylum: bool = False
    purchases: list[str] = []  # what was bought, in order (readable)
    zone: str | None = None
    location: str | None = None
    location_roll: str | None = None  # the die face that picked it (physical or digital)
    minion_pool: list[str] = []  # Hunting House: the four chosen
    minions: list[str] = []  # [A, B]
    last_assault: bool = False
    nemesis: str | None = None
    difficulty: int | None = None
    events: list[str] = []  # Event cards placed on the Chain
    equipped: dict[int, dict[str, str]] = Field(default_factory=dict)  # trouper -> cat -> item
