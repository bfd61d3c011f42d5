"""The Night Board as state: Chain, Reaction Line, Threat, Minion spaces, the Nemesis deck.

Only data lives here (no rules), so the Day Part can set a night up and the Night Part can play
it without importing each other. Section names refer to the rulebook's "Night Part" and "Rules
Compendium".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

NightPhase = Literal[
    "beginning_of_night",
    "start_of_turn",
    "planning",
    "tactic",
    "nemesis",
    "minions",
    "cleanup",
    "over",
]
NIGHT_PHASES: tuple[str, ...] = (
    "beginning_of_night",
    "start_of_turn",
    "planning",
    "tactic",
    "nemesis",
    "minions",
    "cleanup",
    "over",
)


class NightModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChainSlot(NightModel):
    """One occupied Chain space: an Event card (from the Dusk Phase) or a played Tactic card."""

    kind: Literal["event", "tactic", "rest"]
    card: str  # Event or Tactic card id (a Rest is a face-down Tactic card)
    owner: int | None = None  # index into CampaignState.troupers (None for Events)
    threat: int = 0
    resolved: bool = False  # a Resolved token on it
    sacrificed: bool = False  # a Cube on its Sacrifice symbol: goes to Wounds at Cleanup
    face_down: bool = False  # an Event solved (turned face down) or a Rest card
    supports_used: list[int] = Field(default_factory=list)  # Support effects with a Cube


class ReactionSlot(NightModel):
    """One Reaction card on the Reaction Line."""

    card: str
    resolved: bool = False
    interruption: bool = False


class MinionSlot(NightModel):
    """A Minion card on a Minion space; `alive` counts its Miniatures on the Map."""

    space: str  # "A", "B", then the summon spaces in Flow order
    minion: str
    summoned: bool = False
    alive: int = 1


class NightLogEntry(NightModel):
    """What the Nemesis or a Minion did, for the phase summaries players read."""

    turn: int
    phase: str
    text: str


def _no_wounds() -> dict[str, list[str]]:
    return {"front": [], "left": [], "right": []}


class NightState(NightModel):
    """Everything the Night Board and the Nemesis card hold during a night."""

    nemesis: str
    vlad: bool = False
    zone: str
    location: str
    difficulty: int
    turn: int = 0
    phase: NightPhase = "beginning_of_night"
    threat: int = 0
    chain: list[ChainSlot] = Field(default_factory=list)
    chain_spaces: int = 8  # may grow with Event rewards ("Events")
    reaction_line: list[ReactionSlot] = Field(default_factory=list)
    reaction_deck: list[str] = Field(default_factory=list)  # top first
    reaction_discard: list[str] = Field(default_factory=list)
    # Reaction cards taken as Wounds, under the side they were inflicted on ("Wounding a Nemesis").
    nemesis_wounds: dict[str, list[str]] = Field(default_factory=_no_wounds)
    minions: list[MinionSlot] = Field(default_factory=list)
    event_deck: list[str] = Field(default_factory=list)  # the Zone's Events not on the Chain
    # Planning Phase bookkeeping
    to_play: int | None = None  # the Trouper whose turn it is to play on the Chain
    passed: list[int] = Field(default_factory=list)  # Troupers who can no longer play this turn
    cascade: bool = False  # the current player may play again (Cascade)
    rightmost_player: int | None = None  # who placed the rightmost card (Leader passes after)
    # Tactic Phase bookkeeping
    active: int | None = None  # chain index being resolved
    event_used: bool = False  # one Event Effect per activation
    # End
    result: Literal["won", "lost"] | None = None
    reason: str = ""
    log: list[NightLogEntry] = Field(default_factory=list)
