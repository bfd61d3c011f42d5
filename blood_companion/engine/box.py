"""What the box holds and how a game starts from it: the Trophy tokens, a Trouper as the box
starts them, the Village Card's decks, the next game, the box's starting state and the physical
set-up of a table.

Rulebook sections: "Setup", "Components" (the Trophy tokens), "Game Modes" (Single Game);
docs/rules-decisions.md ("Campaign and table").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.content.face import trouper_name
from blood_companion.content.models import ARTS
from blood_companion.engine.day_state import DAY_STEPS, DayState
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import (
    PLAYER_COLOURS,
    CampaignState,
    ItemSlot,
    TrouperState,
    Wagon,
)
from blood_companion.engine.table import holders

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.actions import Context


# "Components": 15 Nemesis Trophy tokens, 3 per Nemesis. Six Nemesis cards share 15 tokens, so
# the three belong to each of the five lieutenants; Vlad has none.
NEMESIS_TROPHIES_PER_NEMESIS = 3


def check_known(catalog: Catalog, trouper: str | None = None, colour: str | None = None) -> None:
    """RuleError for a Trouper the data pack lacks or a colour that is no player colour."""
    if trouper is not None and catalog.trouper(trouper) is None:
        known = ", ".join(t.id for t in catalog.all("troupers"))
        raise RuleError(f"unknown Trouper {trouper!r}", hint=f"Troupers: {known}")
    if colour is not None and colour not in PLAYER_COLOURS:
        raise RuleError(f"unknown colour {colour!r}", hint="colours: " + ", ".join(PLAYER_COLOURS))


def new_trouper(catalog: Catalog, seat: int, trouper: str, colour: str) -> TrouperState:
    """A Trouper as "Player Setup" builds it: Starting deck, six Starting items, no Bites."""
    check_known(catalog, trouper)
    deck = [c.id for c in catalog.starting_tactics_for(trouper)]
    sleeves = [ItemSlot(item=i.id) for i in catalog.items_for(trouper)]
    return TrouperState(seat=seat, colour=colour, trouper=trouper, deck=deck, sleeves=sleeves)


def village_start(ctx: Context) -> dict[str, Any]:
    """The Village Card as "Playing Area Setup" lays it out, each Advanced Tactic deck shuffled."""
    cat = ctx.catalog
    decks: dict[str, list[str]] = {}
    for art in ARTS:
        cards = [c.id for c in cat.advanced_deck(art)]
        ctx.chance.shuffle(cards, f"advanced-deck:{art}")
        decks[art] = cards
    return {"advanced_decks": decks, "training": [c.id for c in cat.all("special_tactics")],
            "crafting": [c.id for c in cat.all("special_items")]}


# --------------------------------------------------------------------------- Trophy tokens


def trophy_cap(catalog: Catalog, kind: str, of: str) -> int:
    """How many Trophy tokens of one Location (Zone) or Nemesis the box holds ("Components")."""
    if kind == "location":
        zone = catalog.get("zones", of)
        return zone.location_trophies if zone is not None else 0
    nemesis = catalog.nemesis(of)
    return 0 if nemesis is None or nemesis.vlad else NEMESIS_TROPHIES_PER_NEMESIS


def trophy_token(catalog: Catalog, key: str) -> tuple[str, str]:
    """``(kind, of)`` for ``location:halls``, ``nemesis:lucilla`` or just ``halls``."""
    kind, _, of = key.strip().lower().rpartition(":")
    zones = {z.id for z in catalog.all("zones")}
    nemeses = {n.id for n in catalog.all("nemeses")}
    if not kind:
        kind = "location" if of in zones else "nemesis" if of in nemeses else ""
    if (kind == "location" and of in zones) or (kind == "nemesis" and of in nemeses):
        return kind, of
    raise RuleError(f"unknown Trophy token {key!r}", hint=f"Location trophies: "
                    f"{', '.join(sorted(zones))}; Nemesis trophies: {', '.join(sorted(nemeses))}")


def gain_trophies(state: CampaignState, catalog: Catalog, kind: str, of: str, n: int
                  ) -> tuple[CampaignState, int]:
    """Every gain of up to `n` Trophy tokens, and how many were got: never past the box's cap."""
    field = "location_trophies" if kind == "location" else "nemesis_trophies"
    holdings = dict(getattr(state, field))
    have = holdings.get(of, 0)
    got = max(0, min(n, trophy_cap(catalog, kind, of) - have))
    if not got:
        return state, 0
    holdings[of] = have + got
    return state.model_copy(update={field: holdings}), got


def trophies_within_box(state: CampaignState, catalog: Catalog) -> CampaignState:
    """The holdings with any count past the box's cap brought back to it."""
    update: dict[str, dict[str, int]] = {}
    for kind, field in (("location", "location_trophies"), ("nemesis", "nemesis_trophies")):
        held: dict[str, int] = getattr(state, field)
        capped = {of: min(n, trophy_cap(catalog, kind, of)) for of, n in held.items()}
        if capped != held:
            update[field] = {of: n for of, n in capped.items() if n}
    return state.model_copy(update=update) if update else state


# --------------------------------------------------------------------------- Single Game mode


def next_game(state: CampaignState, **more: Any) -> CampaignState:
    """The next game begins with its Day Part (``more``: other changes)."""
    return state.model_copy(update={"rewards": None, "game": state.game + 1, "part": "day",
                                    "phase": DAY_STEPS[0], "day": DayState(), **more})


def box_start(state: CampaignState, catalog: Catalog, **more: Any) -> CampaignState:
    """The next game with the box as it starts ("Player Setup"), the same players in the same
    seats and colours (those set aside start afresh too)."""
    troupers = [new_trouper(catalog, t.seat, t.trouper, t.colour) for t in state.troupers]
    return next_game(state, troupers=troupers, set_aside=[], wagon=Wagon(), location_trophies={},
                     nemesis_trophies={}, vlad_weakened=[], **more)


class NeedsDayPart(RuleError):
    """A Roguelite night laid out directly: the Day Part prepares it."""


def require_single_game_setup(state: CampaignState, catalog: Catalog) -> CampaignState:
    """The state a night laid out directly starts from ("Single Game Mode")."""
    if state.mode != "single":
        raise NeedsDayPart("a Roguelite night is prepared by the Day Part (Recovery, Purchases, "
                           "Zone, Minion and Nemesis Selection or the Last Assault, then the "
                           "Dusk); laying a night out directly is for Single Game mode")
    if state.part == "over":
        return box_start(state, catalog, night=None)
    return state


# --------------------------------------------------------------------------- the physical Setup


def _per_player(catalog: Catalog, component: str, default: int) -> int:
    """A colour's share of a component the box splits between the players ("Components")."""
    items = {c.name: c.count for rec in catalog.all("components") for c in rec.items}
    boards = items.get("Trouper Boards", 0)
    count = items.get(component)
    return count // boards if count and boards else default


def table_setup(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """What the table lays out for a new campaign ("Setup": Player Setup, Playing Area Setup),
    as data the CLI turns into a checklist (the Village Card's decks: Roguelite only)."""
    seats = [{"seat": t.seat + 1, "trouper": t.trouper, "name": trouper_name(catalog, t.trouper),
              "colour": t.colour, "leader": i == state.leader, "starting_tactics": len(t.deck),
              "trouper_items": len(t.sleeves), "vigor_tokens": catalog.config.vigor_tokens}
             for i, t in enumerate(state.troupers)]
    first = state.troupers[0] if state.troupers else None
    per_colour = {"tactic_sleeves": len(first.deck) if first else 0,
                  "item_sleeves": len(first.sleeves) if first else 0,
                  **{f"{kind}_tokens": _per_player(catalog, f"{kind.capitalize()} Tokens", n)
                     for kind, n in (("whisper", 8), ("trap", 8), ("event", 8), ("exhausted", 1))}}
    return {"mode": state.mode, "seats": seats,
            "leader": state.troupers[state.leader].trouper if state.troupers else None,
            "per_colour": per_colour, "village": state.mode == "roguelite",
            "advanced_decks": {art: len(deck) for art, deck in state.advanced_decks.items()},
            "training": len(state.training), "crafting": len(state.crafting),
            "decks": holders(state)}

