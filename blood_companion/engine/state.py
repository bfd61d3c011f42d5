"""The campaign state: everything the box keeps between games, plus the current Part. Frozen:
engine functions return new states, so a refused action leaves the state as it was."""

import hashlib
import json
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from blood_companion.engine.day_state import DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_state import NightState
from blood_companion.engine.reward_state import RewardState

RESOURCE_NAMES = ("jewels", "coins", "trinkets", "scrolls")
PLAYER_COLOURS = ("crimson", "azure", "emerald", "amber")  # placeholder colour names


class StateModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Wagon(StateModel):
    """The Wagon's four disks ("Resources"). Never negative."""

    jewels: int = Field(default=0, ge=0)
    coins: int = Field(default=0, ge=0)
    trinkets: int = Field(default=0, ge=0)
    scrolls: int = Field(default=0, ge=0)

    def total(self) -> int:
        return self.jewels + self.coins + self.trinkets + self.scrolls

    def as_dict(self) -> dict[str, int]:
        return {r: getattr(self, r) for r in RESOURCE_NAMES}


class ItemSlot(StateModel):
    """One of a Trouper's six Item sleeves; ``advanced`` is the red (upgraded) side."""

    item: str
    advanced: bool = False


TOKENS_PER_PLAYER = 8  # "Player Setup": 8 Trap and 8 Whisper tokens of the player's colour


class Tokens(StateModel):
    """A player's Trap or Whisper tokens ("Trouper Tokens"): in their Personal Reserve, and on
    the Map with the Intact or the Consumed side up. Where on the Map is the table's to see."""

    supply: int = Field(default=TOKENS_PER_PLAYER, ge=0)
    intact: int = Field(default=0, ge=0)
    consumed: int = Field(default=0, ge=0)


class TrouperState(StateModel):
    """One player's Trouper: what persists between games, and the night's counters."""

    seat: int  # 0-based, clockwise order around the table
    colour: str
    trouper: str
    deck: list[str]  # the 12 Tactic cards sleeved in the Trouper deck
    reserve_cards: list[str] = []
    reserve_items: list[str] = []
    sleeves: list[ItemSlot] = []  # the six Item sleeves
    bites: int = Field(default=0, ge=0)
    insanity: int = Field(default=0, ge=0)
    # --- night counters (reset by the Day Part's Recovery and the night setup)
    draw_pile: list[str] = []
    hand: list[str] = []
    discard: list[str] = []
    wounds: list[str] = []
    unmarked_wounds: int = Field(default=0, ge=0)  # Wounds no card could mark (no deck left)
    traps: Tokens = Tokens.model_construct()  # no schema built at import
    whispers: Tokens = Tokens.model_construct()
    vigor_depleted: int = Field(default=0, ge=0)  # Vigor tokens Depleted side up
    bites_on_depleted: int = Field(default=0, ge=0)  # Bites lying on Depleted tokens (vigor.py)
    exhausted: bool = False
    knocked_out: bool = False
    equipped: dict[str, str] = Field(default_factory=dict)  # category -> item id
    depleted_items: list[str] = []
    rested_this_turn: bool = False

    @model_validator(mode="before")
    @classmethod
    def _bites_on_depleted(cls, data: Any) -> Any:
        """Older saves' Bites lie on the Depleted tokens first (the reading the app used then;
        docs/rules-decisions.md, "Bites on Vigor tokens")."""
        if isinstance(data, dict) and "bites_on_depleted" not in data:
            bites, down = data.get("bites", 0), data.get("vigor_depleted", 0)
            if isinstance(bites, int) and isinstance(down, int):
                data = {**data, "bites_on_depleted": max(0, min(bites, down))}
        return data

    def recovered(self) -> "TrouperState":
        """The board put away as the Day's Recovery puts it ("Show", Recovery): the night's
        counters reset; deck, Reserve, sleeves and Bites (back on Available tokens) stay."""
        return self.model_copy(update={
            "vigor_depleted": 0, "bites_on_depleted": 0, "insanity": 0, "draw_pile": [],
            "hand": [], "discard": [], "wounds": [], "unmarked_wounds": 0, "exhausted": False,
            "knocked_out": False, "equipped": {}, "depleted_items": [], "rested_this_turn": False})


class GameRecord(StateModel):
    """One game in the campaign history."""

    number: int
    mode: str
    troupers: list[str]
    nemesis: str | None = None
    zone: str | None = None
    location: str | None = None
    difficulty: int | None = None
    result: Literal["won", "lost", "abandoned"] | None = None
    rewards: dict[str, Any] = Field(default_factory=dict)


class CampaignState(StateModel):
    """The whole campaign. ``part`` says where the table is; later Parts add their own state."""

    schema_version: int = 2  # engine/upcast.py STATE_SCHEMA
    name: str = ""
    mode: Literal["roguelite", "single"] = "roguelite"
    seed: int = 0
    started: bool = False
    troupers: list[TrouperState] = []
    # Troupers whose players left the table, set aside with everything they own ("Roguelite
    # Mode": a different number of players each game); `add_trouper` brings one back.
    set_aside: list[TrouperState] = []
    leader: int = 0  # index into troupers
    wagon: Wagon = Wagon.model_construct()  # no schema built at import
    location_trophies: dict[str, int] = Field(default_factory=dict)
    nemesis_trophies: dict[str, int] = Field(default_factory=dict)
    vlad_weakened: list[str] = []
    advanced_decks: dict[str, list[str]] = Field(default_factory=dict)  # art -> top first
    training: list[str] = []  # Location/Nemesis Tactic cards
    crafting: list[str] = []  # Location/Nemesis Item cards
    history: list[GameRecord] = []
    game: int = 0  # number of the game being played (1-based once started)
    part: Literal["setup", "day", "night", "end", "over"] = "setup"
    phase: str = ""  # the current step inside the Part (set by day/night engines)
    day: DayState | None = None  # the Day Part's choices so far (engine/day/)
    night: NightState | None = None  # the Night Board (engine/night/)
    rewards: RewardState | None = None  # End of the Night rewards still owed (engine/endgame.py)
    resources_earned: int = 0
    resources_spent: int = 0
    vlad_defeats: int = 0
    # Who holds each deck (engine/table.py): the decks the players shuffle and draw at the table
    # ("table"); a deck not listed is the app's. Empty: the app holds every deck.
    decks: dict[str, Literal["table"]] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A campaign nobody left has the shape it had before `set_aside` existed, so its hashes
        # (and those app 0.1.0 recorded, which rebuilding an old save checks) do not change; the
        # same for `decks` while the app holds every deck.
        data: dict[str, Any] = handler(self)
        if not self.set_aside:
            data.pop("set_aside", None)
        if not self.decks:
            data.pop("decks", None)
        return data

    def trouper_index(self, who: str) -> int:
        """Index of a Trouper by Trouper id, colour or 1-based seat number."""
        key = who.strip().lower()
        for i, t in enumerate(self.troupers):
            if key in (t.trouper, t.colour, str(t.seat + 1)):
                return i
        names = ", ".join(f"{t.trouper} ({t.colour}, seat {t.seat + 1})" for t in self.troupers)
        raise RuleError(f"no Trouper {who!r} at the table",
                        hint=f"at the table: {names or 'nobody'}")


def canonical_json(state: BaseModel) -> str:
    """Canonical JSON of a state: equal states give byte-equal text."""
    return json.dumps(state.model_dump(mode="json"), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


def state_hash(state: BaseModel) -> str:
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()
