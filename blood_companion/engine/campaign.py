"""Campaign-level actions: start a campaign, change the table, fix the Wagon.

Rulebook sections: "Setup" (Player Setup, Playing Area Setup), "Game Modes" (Roguelite, Single
Game), "Roguelite Mode" (the number of players may change from game to game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from blood_companion.content.models import ARTS
from blood_companion.engine.actions import Action, Context
from blood_companion.engine.day_state import DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import (
    PLAYER_COLOURS,
    RESOURCE_NAMES,
    CampaignState,
    ItemSlot,
    TrouperState,
    Wagon,
)

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class Seat(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    trouper: str
    colour: str | None = None


def _new_trouper(catalog: Catalog, seat: int, trouper: str, colour: str) -> TrouperState:
    """A Trouper as "Player Setup" builds it: Starting deck, six Starting items, no Bites."""
    if catalog.trouper(trouper) is None:
        known = ", ".join(t.id for t in catalog.all("troupers"))
        raise RuleError(f"unknown Trouper {trouper!r}", hint=f"Troupers: {known}")
    deck = [c.id for c in catalog.starting_tactics_for(trouper)]
    sleeves = [ItemSlot(item=i.id) for i in catalog.items_for(trouper)]
    return TrouperState(seat=seat, colour=colour, trouper=trouper, deck=deck, sleeves=sleeves)


def _check_seats(catalog: Catalog, seats: list[Seat], existing: list[TrouperState]) -> None:
    limit = catalog.config.max_troupers
    total = len(seats) + len(existing)
    if not 1 <= total <= limit:
        raise RuleError(f"a table has 1 to {limit} Troupers, not {total}")
    taken = {t.trouper for t in existing}
    colours = {t.colour for t in existing}
    for s in seats:
        if s.trouper in taken:
            raise RuleError(f"Trouper {s.trouper!r} is already at the table")
        taken.add(s.trouper)
        if s.colour is not None:
            if s.colour in colours:
                raise RuleError(f"colour {s.colour!r} is already taken")
            colours.add(s.colour)


def _free_colour(used: set[str]) -> str:
    for c in PLAYER_COLOURS:
        if c not in used:
            return c
    raise RuleError("no player colour left")  # pragma: no cover - max_troupers guards this


class StartCampaign(Action):
    """The first action of every log: the table, the mode and the seed."""

    type: Literal["start_campaign"] = "start_campaign"
    name: str
    mode: Literal["roguelite", "single"] = "roguelite"
    seed: int
    seats: list[Seat] = Field(min_length=1)
    leader: int = 0

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        if state.started:
            raise RuleError("this campaign has already started")
        cat = ctx.catalog
        _check_seats(cat, self.seats, [])
        if not 0 <= self.leader < len(self.seats):
            raise RuleError(f"leader must be a seat number from 1 to {len(self.seats)}")
        used: set[str] = set()
        troupers = []
        for i, s in enumerate(self.seats):
            colour = s.colour or _free_colour(used | {x.colour for x in self.seats if x.colour})
            used.add(colour)
            troupers.append(_new_trouper(cat, i, s.trouper, colour))
        # "Playing Area Setup": each Advanced Tactic deck shuffled on its own; the Training and
        # Crafting spaces hold the Location/Nemesis Tactic and Item cards.
        decks: dict[str, list[str]] = {}
        for art in ARTS:
            cards = [c.id for c in cat.advanced_deck(art)]
            ctx.chance.shuffle(cards, f"advanced-deck:{art}")
            decks[art] = cards
        return state.model_copy(
            update={
                "name": self.name,
                "mode": self.mode,
                "seed": self.seed,
                "started": True,
                "troupers": troupers,
                "leader": self.leader,
                "wagon": Wagon(),
                "advanced_decks": decks,
                "training": [c.id for c in cat.all("special_tactics")],
                "crafting": [c.id for c in cat.all("special_items")],
                "game": 1,
                "part": "day",
                "phase": "recovery",
                "day": DayState(),
            }
        )

    def describe(self) -> str:
        who = ", ".join(s.trouper for s in self.seats)
        return f"Started {self.mode} campaign '{self.name}' with {who} (seed {self.seed})"


class AddTrouper(Action):
    """A new player joins between games (Roguelite Mode allows a different table each game)."""

    type: Literal["add_trouper"] = "add_trouper"
    trouper: str
    colour: str | None = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        seat = Seat(trouper=self.trouper, colour=self.colour)
        _check_seats(ctx.catalog, [seat], state.troupers)
        colour = self.colour or _free_colour({t.colour for t in state.troupers})
        new = _new_trouper(ctx.catalog, len(state.troupers), self.trouper, colour)
        return state.model_copy(update={"troupers": [*state.troupers, new]})

    def describe(self) -> str:
        return f"{self.trouper} joined the table"


class RetireTrouper(Action):
    """A player leaves between games; their Trouper's progress leaves with them."""

    type: Literal["retire_trouper"] = "retire_trouper"
    trouper: str
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        idx = state.trouper_index(self.trouper)
        if len(state.troupers) == 1:
            raise RuleError("the last Trouper cannot leave the table")
        rest = [t for i, t in enumerate(state.troupers) if i != idx]
        rest = [t.model_copy(update={"seat": i}) for i, t in enumerate(rest)]
        leader = state.leader
        if leader == idx:
            leader = idx % len(rest)
        elif leader > idx:
            leader -= 1
        return state.model_copy(update={"troupers": rest, "leader": leader})

    def describe(self) -> str:
        return f"{self.trouper} left the table"


class SetLeader(Action):
    """Hand the Leader token to a Trouper (by mutual agreement)."""

    type: Literal["set_leader"] = "set_leader"
    trouper: str

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        idx = state.trouper_index(self.trouper)
        return state.model_copy(update={"leader": idx})

    def describe(self) -> str:
        return f"Leader token to {self.trouper}"


class AdjustWagon(Action):
    """Correct the Wagon by hand (a table fix): add or remove Resources; never below zero."""

    type: Literal["adjust_wagon"] = "adjust_wagon"
    jewels: int = 0
    coins: int = 0
    trinkets: int = 0
    scrolls: int = 0
    reason: str = ""

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        current = state.wagon.as_dict()
        new: dict[str, int] = {}
        for r in RESOURCE_NAMES:
            value = current[r] + getattr(self, r)
            if value < 0:
                raise RuleError(
                    f"the Wagon has {current[r]} {r}; it cannot lose {-getattr(self, r)}"
                )
            new[r] = value
        return state.model_copy(update={"wagon": Wagon(**new)})

    def describe(self) -> str:
        parts = [f"{getattr(self, r):+d} {r}" for r in RESOURCE_NAMES if getattr(self, r)]
        why = f" ({self.reason})" if self.reason else ""
        return "Wagon adjusted: " + (", ".join(parts) or "no change") + why


__all__ = [
    "AddTrouper",
    "AdjustWagon",
    "RetireTrouper",
    "Seat",
    "SetLeader",
    "StartCampaign",
]
