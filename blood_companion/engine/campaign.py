"""Campaign-level actions: start a campaign, change the table, fix the Wagon and the trophies,
start the next Single game, say who holds each deck (engine/table.py).

Rulebook sections: "Setup", "Components" (the Trophy tokens), "Game Mode Presentation", "Game
Modes", "Roguelite Mode"; docs/rules-decisions.md ("Campaign and table").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from blood_companion.engine.actions import Action, Cli, Context
from blood_companion.engine.box import (
    box_start,
    check_known,
    new_trouper,
    trophy_cap,
    trophy_token,
    village_start,
)
from blood_companion.engine.day_state import DAY_STEPS, DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import (
    PLAYER_COLOURS,
    RESOURCE_NAMES,
    CampaignState,
    TrouperState,
    Wagon,
)
from blood_companion.engine.table import DECKS, deck_key, holders, normal_decks
from blood_companion.engine.words.sentences import who
from blood_companion.engine.words.text import counted, counted_all, listing

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class Seat(BaseModel):
    """One player at a new table: the Trouper (None: drawn at random among those nobody named,
    "Player Setup") and the colour (None: the first free one, or drawn with ``random_colours``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    trouper: str | None = None
    colour: str | None = None


def _check_seats(catalog: Catalog, seats: list[Seat], existing: list[TrouperState]) -> None:
    limit = catalog.config.max_troupers
    total = len(seats) + len(existing)
    if not 1 <= total <= limit:
        raise RuleError(f"a table has 1 to {limit} Troupers, not {total}")
    taken = {t.trouper for t in existing}
    colours = {t.colour for t in existing}
    for s in seats:
        if s.trouper is None:
            continue
        if s.trouper in taken:
            raise RuleError(f"Trouper {s.trouper!r} is already at the table")
        taken.add(s.trouper)
    for s in seats:
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
    """The first action of every log: the table, the mode and the seed. "Player Setup": what
    nobody named (a seat's Trouper, a colour with ``random_colours``, the Leader with
    ``random_leader``) is drawn at random."""

    type: Literal["start_campaign"] = "start_campaign"
    name: str
    mode: Literal["roguelite", "single"] = "roguelite"
    seed: int
    seats: list[Seat] = Field(min_length=1)
    leader: int = 0
    random_colours: bool = False
    random_leader: bool = False
    # Who holds which deck (engine/table.py): deck -> "app" or "table"; None: the app holds
    # every deck (as campaigns did before the setting existed).
    decks: dict[str, Literal["app", "table"]] | None = None

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        if state.started:
            raise RuleError("this campaign has already started")
        held = normal_decks(self.decks or {})
        cat = ctx.catalog
        _check_seats(cat, self.seats, [])
        if not 0 <= self.leader < len(self.seats):
            raise RuleError(f"leader must be a seat number from 1 to {len(self.seats)}")
        named = [s.trouper for s in self.seats if s.trouper is not None]
        for trouper in named:
            check_known(cat, trouper)
        village = village_start(ctx)
        # "Player Setup": the random choices come after the shuffles, so a table that names
        # everything gets the same decks for the same seed as one that draws.
        troupers = self._draw_troupers(cat, ctx, named)
        colours = self._colours(cat, ctx)
        leader = self.leader
        if self.random_leader:
            leader = ctx.chance.randrange(len(self.seats), "setup:leader")
        seated = [new_trouper(cat, i, t, c)
                  for i, (t, c) in enumerate(zip(troupers, colours, strict=True))]
        return state.model_copy(update={
            "name": self.name, "mode": self.mode, "seed": self.seed, "started": True,
            "troupers": seated, "leader": leader, "wagon": Wagon(), **village, "game": 1,
            "part": "day", "phase": DAY_STEPS[0], "day": DayState(), "decks": held})

    def _draw_troupers(self, cat: Catalog, ctx: Context, named: list[str]) -> list[str]:
        missing = sum(1 for s in self.seats if s.trouper is None)
        if not missing:
            return named
        free = [t.id for t in cat.all("troupers") if t.id not in named]
        if len(free) < missing:
            raise RuleError(f"{missing} Trouper(s) to draw but only {len(free)} left in the box",
                            hint="Troupers: " + ", ".join(t.id for t in cat.all("troupers")))
        drawn = iter(ctx.chance.sample(free, missing, "setup:troupers"))
        return [s.trouper if s.trouper is not None else next(drawn) for s in self.seats]

    def _colours(self, cat: Catalog, ctx: Context) -> list[str]:
        named = {s.colour for s in self.seats if s.colour is not None}
        for colour in sorted(named):
            check_known(cat, colour=colour)
        missing = sum(1 for s in self.seats if s.colour is None)
        free = [c for c in PLAYER_COLOURS if c not in named]
        if self.random_colours and missing:
            drawn = iter(ctx.chance.sample(free, missing, "setup:colours"))
        else:
            drawn = iter(free)
        return [s.colour if s.colour is not None else next(drawn) for s in self.seats]

    def said(self, c: Any, s: Any) -> str:
        join = listing if c is not None else ", ".join
        named = [who(c, x.trouper) for x in self.seats if x.trouper is not None]
        if missing := len(self.seats) - len(named):
            named.append(f"{missing} Trouper{'s' if missing > 1 else ''} drawn at random")
        drawn = ["colours"] * self.random_colours + ["Leader"] * self.random_leader
        at_random = f"; {' and '.join(drawn)} drawn at random" if drawn else ""
        table = [d for d, w in (self.decks or {}).items() if w == "table"]
        held = "; the players hold " + (
            "every deck" if len(table) >= 8 else listing(table)) if table else ""
        return (f"Started {self.mode} campaign '{self.name}' with {join(named)} "
                f"(seed {self.seed}{at_random}{held})")


# How the campaign commands take a seated Trouper and the reason of a table fix.
Seated = Annotated[str, Cli(help="Trouper id, colour or seat number.", complete="trouper")]
Reason = Annotated[str, Cli("--reason", "Why (shown in the log).")]


class AddTrouper(Action):
    """A player joins between games ("Roguelite Mode"); a Trouper set aside comes back whole."""

    type: Literal["add_trouper"] = "add_trouper"
    command = "campaign add-trouper"
    summary = "A new player joins the table (between games, in the Day Part)."
    trouper: Annotated[str, Cli(help="Trouper id.", names="id", complete="trouper")]
    colour: Annotated[str | None, Cli("--colour", "Player colour [the first free one].")] = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        seat = Seat(trouper=self.trouper, colour=self.colour)
        _check_seats(ctx.catalog, [seat], state.troupers)
        check_known(ctx.catalog, colour=self.colour)
        used = {t.colour for t in state.troupers}
        back = next((t for t in state.set_aside if t.trouper == self.trouper), None)
        if back is None:
            colour = self.colour or _free_colour(used)
            new = new_trouper(ctx.catalog, len(state.troupers), self.trouper, colour)
            set_aside = state.set_aside
        else:
            # The player takes their own colour's material back when it is free.
            colour = self.colour or (back.colour if back.colour not in used else _free_colour(used))
            new = back.model_copy(update={"seat": len(state.troupers), "colour": colour})
            set_aside = [t for t in state.set_aside if t.trouper != self.trouper]
        return state.model_copy(update={"troupers": [*state.troupers, new], "set_aside": set_aside})

    words = "{trouper:who} joins the table"


class RetireTrouper(Action):
    """A player leaves between games, their Trouper set aside with everything it owns
    ("Roguelite Mode" keeps the status of the materials whatever the number of players)."""

    type: Literal["retire_trouper"] = "retire_trouper"
    command = "campaign retire-trouper"
    summary = "A player leaves the table (between games, in the Day Part)."
    trouper: Seated
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        idx = state.trouper_index(self.trouper)
        if len(state.troupers) == 1:
            raise RuleError("the last Trouper cannot leave the table")
        leaving = state.troupers[idx].recovered()
        rest = [t.model_copy(update={"seat": i})
                for i, t in enumerate(x for j, x in enumerate(state.troupers) if j != idx)]
        leader = idx % len(rest) if state.leader == idx else state.leader - (state.leader > idx)
        update: dict[str, Any] = {"troupers": rest, "leader": leader,
                                  "set_aside": [*state.set_aside, leaving]}
        if state.day is not None and state.day.equipped:
            # The Day's Equipping is kept by seat: the seats after the leaver move up one.
            equipped = {i - (i > idx): gear for i, gear in state.day.equipped.items() if i != idx}
            update["day"] = state.day.model_copy(update={"equipped": equipped})
        return state.model_copy(update=update)

    words = "{trouper:who} leaves the table (set aside with everything the Trouper owns)"


class SetLeader(Action):
    """Hand the Leader token to a Trouper (by mutual agreement)."""

    type: Literal["set_leader"] = "set_leader"
    command = "campaign leader"
    summary = "Hand the Leader token to a Trouper."
    trouper: Seated

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        return state.model_copy(update={"leader": state.trouper_index(self.trouper)})

    words = "The Leader token goes to {trouper:who}"


class AdjustWagon(Action):
    """Correct the Wagon by hand (a table fix): add or remove Resources; never below zero."""

    type: Literal["adjust_wagon"] = "adjust_wagon"
    command = "campaign wagon"
    summary = "Correct the Wagon's Resources by hand (never below zero)."
    jewels: Annotated[int, Cli("--jewels", "Add (or with a minus, remove) Jewels.")] = 0
    coins: Annotated[int, Cli("--coins")] = 0
    trinkets: Annotated[int, Cli("--trinkets")] = 0
    scrolls: Annotated[int, Cli("--scrolls")] = 0
    reason: Reason = ""

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        new = {r: n + getattr(self, r) for r, n in state.wagon.as_dict().items()}
        for r, n in new.items():
            if n < 0:
                raise RuleError(f"the Wagon has {counted(n - getattr(self, r), r)}; it cannot "
                                f"lose {-getattr(self, r)}")
        return state.model_copy(update={"wagon": Wagon(**new)})

    def describe(self) -> str:
        parts = counted_all({r: getattr(self, r) for r in RESOURCE_NAMES}, sign=True)
        why = f" ({self.reason})" if self.reason else ""
        return "Wagon adjusted: " + (parts or "no change") + why


class AdjustTrophies(Action):
    """Correct the Trophy tokens by hand (a table fix): ``changes``: token -> signed count."""

    type: Literal["adjust_trophies"] = "adjust_trophies"
    command = "campaign trophies"
    summary = "Correct the Trophy tokens by hand (never below zero, never past what the box holds)."
    changes: Annotated[dict[str, int], Cli(
        help="TOKEN=N with a sign: halls=+1, nemesis:lucilla=-1 (location:/nemesis: optional).",
        many=True, names="trophies")] = Field(min_length=1)
    reason: Reason = ""

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        holdings = {"location": dict(state.location_trophies),
                    "nemesis": dict(state.nemesis_trophies)}
        named: set[tuple[str, str]] = set()
        for key, delta in self.changes.items():
            kind, of = trophy_token(ctx.catalog, key)
            if (kind, of) in named:
                raise RuleError(f"the {kind} Trophy tokens of {of} are named twice")
            named.add((kind, of))
            have = holdings[kind].get(of, 0)
            value = have + delta
            if value < 0:
                raise RuleError(f"the players hold {have} {kind} Trophy token(s) of {of}; they "
                                f"cannot lose {-delta}")
            cap = trophy_cap(ctx.catalog, kind, of)
            if value > cap:
                raise RuleError(f"the box holds {cap} {kind} Trophy token(s) of {of}; the players "
                                f"hold {have} and cannot gain {delta}")
            holdings[kind][of] = value
        if not any(self.changes.values()):
            raise RuleError("nothing to change: every count is 0")
        return state.model_copy(update={f"{kind}_trophies": {of: n for of, n in held.items() if n}
                                        for kind, held in holdings.items()})

    words = "Trophies adjusted: [{changes:trophies}|no change][ ({reason})]"


class NextSingleGame(Action):
    """Start another game of a Single Game mode campaign once the last one is over: the box's
    starting state, the same table ("Single Game Mode": nothing of the game before carries
    over)."""

    type: Literal["next_single_game"] = "next_single_game"
    command = "campaign next-game"
    summary = ("Single Game mode: start another game, from the box's starting state, once one "
               "is over.")
    parts = ("over",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        if state.mode != "single":  # pragma: no cover - only Single games end "over"
            raise RuleError("only a Single Game mode campaign starts its games afresh")
        return box_start(state, ctx.catalog, night=None)

    words = "A new Single game begins from the box's starting state"


class SetDecks(Action):
    """Who holds which deck, from now on. The Trouper and Reaction decks keep their holder
    during a night: the app could not know cards it never saw, nor an order the players made."""

    type: Literal["set_decks"] = "set_decks"
    command = "campaign decks"
    summary = ("Who holds each deck: the app, or the players with the real cards.\n\nThe app "
               "shuffles, draws and names each card; players with real cards tell the app what "
               "came up. A change is a step of the log.")
    decks: Annotated[dict[str, Literal["app", "table"]], Cli(
        help="Who holds which deck: app, table, all=table or DECK=app|table (decks: troupers, "
        "reactions, minions, events, locations, nemeses, advanced, loot). Without it: the "
        "setting now.", metavar="setting", many=True, names="holders")]

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        if not self.decks:
            raise RuleError("name at least one deck", hint="e.g. all=table or troupers=table")
        now = holders(state)
        new = dict(now)
        for deck, holder in self.decks.items():
            new[deck if deck in DECKS else deck_key(deck)] = holder
        in_night = state.part == "night" and state.night is not None and state.night.result is None
        for deck in ("troupers", "reactions"):
            if in_night and new[deck] != now[deck]:
                raise RuleError(f"{DECKS[deck]} are in play tonight: they change hands after "
                                "the End of the Night", hint="the other decks may change now")
        return state.model_copy(update={"decks": normal_decks(new)})

    def describe(self) -> str:
        parts = [f"{DECKS.get(d, d)}: {'the players' if w == 'table' else 'the app'}"
                 for d, w in self.decks.items()]
        return "Who holds the decks: " + "; ".join(parts)
