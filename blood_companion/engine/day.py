"""The Day Part: Show Phase and Dusk Phase, one action per step or purchase.

Rulebook sections: "Day Part", "Show Phase" (Recovery, Purchases, Zone Selection, Minion
Selection, Last Assault, Nemesis Selection), "Village Card" (the five Bran buildings),
"Purchasing Tactic Cards and Item Cards", "Replacing a Tactic Card", "Replacing an Item Card",
"Trouper Item Card" (upgrades), "Dusk Phase" (Map, Reaction deck, Difficulty Level, Event cards,
Equipping) and "Single Game Mode". Readings of the rules are in docs/rules-decisions.md
("Day Part").

Pure: no I/O and no printing. :func:`day_next` is the one place that says what comes next, for
the CLI, ``blood status`` and the guided mode alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from blood_companion import matching
from blood_companion.content.models import ITEM_CATEGORIES, ResourceCost, TrophyCost
from blood_companion.engine.actions import Action, Context
from blood_companion.engine.campaign import trophy_token
from blood_companion.engine.day_state import DayState
from blood_companion.engine.dice import DiceBox, parse_faces, roll_pool
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_setup import setup_night
from blood_companion.engine.state import (
    RESOURCE_NAMES,
    CampaignState,
    ItemSlot,
    TrouperState,
    Wagon,
)

if TYPE_CHECKING:
    from blood_companion.content import models as m
    from blood_companion.content.loader import Catalog

STEP_TITLES: dict[str, str] = {
    "recovery": "Show 1: Recovery",
    "purchases": "Show 2-3: Purchases and replacing cards",
    "zone": "Show 4: Zone Selection",
    "location": "Show 4: the Location card",
    "minions": "Show 4: Minion Selection",
    "last_assault": "Show 4: Last Assault",
    "nemesis": "Show 4: Nemesis Selection",
    "dusk_difficulty": "Dusk: Map, Reaction deck and Difficulty Level",
    "dusk_events": "Dusk: Event cards on the Chain",
    "equipping": "Dusk: Equipping",
    "done": "The Day Part is over",
}


# --------------------------------------------------------------------------- lookups


def match_id(text: str, candidates: Iterable[tuple[str, str]], what: str) -> str:
    """The id among ``(id, name)`` candidates that `text` names (the one matcher,
    :func:`blood_companion.matching.match`: id, name, unique prefix or part, "did you mean").
    Raises RuleError otherwise."""
    return matching.match(text, candidates, what, error=RuleError)


def trouper_at(state: CampaignState, who: str) -> int:
    """Index of the Trouper named by id, colour or seat; RuleError when nobody matches."""
    return state.trouper_index(who)


def _tactic_names(catalog: Catalog, ids: Iterable[str]) -> list[tuple[str, str]]:
    out = []
    for cid in ids:
        card = catalog.tactic(cid)
        out.append((cid, card.name if card is not None else cid))
    return out


def _item_names(catalog: Catalog, ids: Iterable[str]) -> list[tuple[str, str]]:
    out = []
    for iid in ids:
        card = catalog.item(iid)
        out.append((iid, card.name if card is not None else iid))
    return out


def building_for(catalog: Catalog, text: str) -> m.Building:
    """The Bran building named by id, effect name, name or a unique prefix."""
    buildings = catalog.village.buildings
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    for b in buildings:
        if key == b.effect:  # the effect names work too: cartographer, alchemist, ...
            return b
    bid = match_id(text, [(b.id, b.name) for b in buildings], "building")
    return next(b for b in buildings if b.id == bid)


def available_nemeses(state: CampaignState, catalog: Catalog) -> list[str]:
    """Lieutenants not defeated since the box was last reset.

    Roguelite Mode: beating Vlad returns the box to its starting point, so a "box cycle" starts
    after the last game won against Vlad; a lieutenant the players beat in this cycle is no
    longer revealed. Single Game mode ignores the history. Vlad is never listed (Last Assault).
    """
    lieutenants = [n.id for n in catalog.lieutenants()]
    if state.mode == "single":
        return lieutenants
    vlad_ids = {n.id for n in catalog.all("nemeses") if n.vlad}
    defeated: set[str] = set()
    for game in state.history:
        if game.result != "won" or game.nemesis is None:
            continue
        if game.nemesis in vlad_ids:
            defeated.clear()
        else:
            defeated.add(game.nemesis)
    return [n for n in lieutenants if n not in defeated]


# --------------------------------------------------------------------------- costs


def cost_text(cost: ResourceCost) -> str:
    """``2 coins + 1 any`` (any = any Resource)."""
    parts = [f"{getattr(cost, r)} {r}" for r in RESOURCE_NAMES if getattr(cost, r)]
    if cost.any:
        parts.append(f"{cost.any} any")
    return " + ".join(parts) or "free"


def trophy_text(trophies: Sequence[TrophyCost]) -> str:
    parts = []
    for t in trophies:
        of = t.of or "any"
        parts.append(f"{t.n} {t.kind} trophy ({of})" if t.n == 1 else f"{t.n} {t.kind} ({of})")
    return " + ".join(parts)


def suggest_payment(wagon: Wagon, cost: ResourceCost) -> dict[str, int] | None:
    """A payment the Wagon can make for `cost` (specific Resources first, then the fullest
    disks for the "any" part), or None when the Wagon cannot pay it."""
    have = wagon.as_dict()
    pay = {r: getattr(cost, r) for r in RESOURCE_NAMES}
    if any(have[r] < pay[r] for r in RESOURCE_NAMES):
        return None
    left = cost.any
    for r in sorted(RESOURCE_NAMES, key=lambda r: (-(have[r] - pay[r]), RESOURCE_NAMES.index(r))):
        take = min(left, have[r] - pay[r])
        pay[r] += take
        left -= take
    if left:
        return None
    return {r: n for r, n in pay.items() if n}


def pay_text(pay: Mapping[str, int]) -> str:
    return ",".join(f"{r}={n}" for r, n in pay.items() if n)


def can_afford(wagon: Wagon, cost: ResourceCost) -> bool:
    return suggest_payment(wagon, cost) is not None


def pay_resources(
    wagon: Wagon, cost: ResourceCost, pay: Mapping[str, int] | None, what: str
) -> tuple[Wagon, int]:
    """The Wagon after paying `cost` with `pay`, and the number of Resources spent.

    ``pay`` must give at least the specific Resources of the cost and exactly its total, the
    "any" part in any mix ("Resources": the players choose). Without ``pay`` only a cost with no
    "any" part is paid. Raises RuleError for an unknown Resource, an over- or under-payment or a
    payment the Wagon cannot make (the Wagon never goes negative).
    """
    suggestion = suggest_payment(wagon, cost)
    hint = f"e.g. --pay {pay_text(suggestion)}" if suggestion else None
    if pay is None:
        if cost.any:
            raise RuleError(
                f"{what} costs {cost_text(cost)}: say which Resources pay for it",
                hint=hint or f"the Wagon holds {_wagon_text(wagon)}",
            )
        pay = {r: getattr(cost, r) for r in RESOURCE_NAMES}
    for r, n in pay.items():
        if r not in RESOURCE_NAMES:
            raise RuleError(
                f"unknown Resource {r!r}", hint="Resources: " + ", ".join(RESOURCE_NAMES)
            )
        if n < 0:
            raise RuleError(f"a payment cannot be negative ({r}={n})")
    given = {r: int(pay.get(r, 0)) for r in RESOURCE_NAMES}
    for r in RESOURCE_NAMES:
        need = getattr(cost, r)
        if given[r] < need:
            raise RuleError(
                f"{what} costs {cost_text(cost)}: the payment gives {given[r]} {r}, "
                f"{need} are needed",
                hint=hint,
            )
    total = sum(given.values())
    if total != cost.total():
        word = "too much" if total > cost.total() else "too little"
        raise RuleError(
            f"{what} costs {cost.total()} Resources ({cost_text(cost)}); the payment gives "
            f"{total}: {word}",
            hint=hint,
        )
    have = wagon.as_dict()
    for r in RESOURCE_NAMES:
        if have[r] < given[r]:
            raise RuleError(
                f"the Wagon has {have[r]} {r}; paying {what} needs {given[r]}",
                hint=hint or f"the Wagon holds {_wagon_text(wagon)}",
            )
    return Wagon(**{r: have[r] - given[r] for r in RESOURCE_NAMES}), total


def _wagon_text(wagon: Wagon) -> str:
    return ", ".join(f"{n} {r}" for r, n in wagon.as_dict().items())


def pay_trophies(
    state: CampaignState,
    catalog: Catalog,
    needs: Sequence[TrophyCost],
    given: Mapping[str, int] | None,
    what: str,
) -> tuple[dict[str, int], dict[str, int]]:
    """The Location and Nemesis Trophy holdings after paying `needs`.

    ``given`` maps ``kind:of`` (or just ``of``) to a count; it must give every specific Trophy
    and exactly as many of each kind as the cost asks. Without it the Trophies are taken when
    there is only one way to pay. Raises RuleError otherwise.
    """
    holdings = {"location": dict(state.location_trophies), "nemesis": dict(state.nemesis_trophies)}
    specific: Counter[tuple[str, str]] = Counter()
    per_kind: Counter[str] = Counter()
    for t in needs:
        per_kind[t.kind] += t.n
        if t.of:
            specific[(t.kind, t.of)] += t.n
    if given is None:
        paid: Counter[tuple[str, str]] = Counter(specific)
        for kind, total in per_kind.items():
            left = total - sum(n for (k, _), n in specific.items() if k == kind)
            if not left:
                continue
            spare = {
                of: n - specific.get((kind, of), 0)
                for of, n in holdings[kind].items()
                if n - specific.get((kind, of), 0) > 0
            }
            if sum(spare.values()) < left:
                raise RuleError(
                    f"{what} needs {trophy_text(needs)}; the players hold {_trophies_text(state)}"
                )
            if len(spare) > 1 and sum(spare.values()) != left:
                options = ", ".join(f"{kind}:{of}" for of in sorted(spare))
                raise RuleError(
                    f"{what} needs {left} {kind} Trophy token(s) of any kind: say which",
                    hint=f"--trophies with some of {options}",
                )
            for of in sorted(spare):
                take = min(left, spare[of])
                paid[(kind, of)] += take
                left -= take
    else:
        paid = Counter()
        for key, n in given.items():
            if n < 0:
                raise RuleError(f"a Trophy payment cannot be negative ({key}={n})")
            if n:
                paid[trophy_token(catalog, key)] += n
        for kind in ("location", "nemesis"):
            gave = sum(n for (k, _), n in paid.items() if k == kind)
            if gave != per_kind.get(kind, 0):
                raise RuleError(
                    f"{what} costs {trophy_text(needs) or 'no Trophy tokens'}; the payment "
                    f"gives {gave} {kind} Trophy token(s), {per_kind.get(kind, 0)} are needed"
                )
        for (kind, of), n in specific.items():
            if paid[(kind, of)] < n:
                raise RuleError(
                    f"{what} needs {n} {kind} Trophy token(s) of {of}; the payment gives "
                    f"{paid[(kind, of)]}"
                )
    for (kind, of), n in paid.items():
        have = holdings[kind].get(of, 0)
        if have < n:
            raise RuleError(
                f"the players hold {have} {kind} Trophy token(s) of {of}; {what} needs {n}"
            )
        holdings[kind][of] = have - n
    clean = {k: {of: n for of, n in v.items() if n} for k, v in holdings.items()}
    return clean["location"], clean["nemesis"]


def _trophies_text(state: CampaignState) -> str:
    parts = [f"{n} location:{of}" for of, n in sorted(state.location_trophies.items()) if n]
    parts += [f"{n} nemesis:{of}" for of, n in sorted(state.nemesis_trophies.items()) if n]
    return ", ".join(parts) or "no Trophy tokens"


# --------------------------------------------------------------------------- deck rules


def building_problem(catalog: Catalog, trouper: str, deck: Sequence[str]) -> str | None:
    """Why `deck` breaks the Trouper card's Building rule, or None when it holds.

    Location and Nemesis Tactic cards count as every Art ("Location Tactic Cards and Nemesis
    Tactic Cards"), so they fill whatever the Art cards leave: the rule holds when no Art has
    more cards than the Building asks and the deck has the right size.
    """
    card = catalog.trouper(trouper)
    if card is None:
        return f"unknown Trouper {trouper!r}"
    wanted: dict[str, int] = {b.art: b.count for b in card.building}
    size = sum(wanted.values())
    if len(deck) != size:
        return f"the deck must hold {size} cards, not {len(deck)}"
    arts: Counter[str] = Counter()
    for cid in deck:
        tactic = catalog.tactic(cid)
        if tactic is not None and tactic.art is not None:
            arts[tactic.art] += 1
    for art, n in arts.items():
        if n > wanted.get(art, 0):
            rule = ", ".join(f"{c} {a}" for a, c in wanted.items())
            return f"the deck would hold {n} {art} cards; {card.name}'s Building is {rule}"
    return None


# --------------------------------------------------------------------------- action helpers


def _day(state: CampaignState) -> DayState:
    return state.day if state.day is not None else DayState()


def _require(state: CampaignState, catalog: Catalog, steps: Sequence[str], what: str) -> DayState:
    day = _day(state)
    if day.step not in steps:
        nxt = day_next(state, catalog)
        raise RuleError(
            f"{what} is not possible now: the Day is at '{STEP_TITLES[day.step]}'",
            hint=nxt.sentence,
            see=("day_next",),
        )
    return day


def _no_single(state: CampaignState, what: str) -> None:
    if state.mode == "single":
        raise RuleError(
            f"{what}: Single Game mode plays with the Starting cards and items only",
            hint="choose the Zone",
            see=("day_zone",),
        )


def _with_day(state: CampaignState, day: DayState, **update: Any) -> CampaignState:
    return state.model_copy(update={"day": day, "phase": day.step, **update})


def _replace_trouper(state: CampaignState, idx: int, t: TrouperState) -> list[TrouperState]:
    return [t if i == idx else x for i, x in enumerate(state.troupers)]


def _spent(state: CampaignState, n: int) -> int:
    return state.resources_spent + n


# --------------------------------------------------------------------------- Show: Recovery


class Recover(Action):
    """Show 1, Recovery: Vigor back to the available side (Bites stay, on Vigor tokens),
    Insanity cubes to the leftmost space, the night's cards and items back with their owner."""

    type: Literal["day_recover"] = "day_recover"
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        day = _require(state, ctx.catalog, ["recovery"], "Recovery")
        troupers = [
            t.model_copy(
                update={
                    "vigor_depleted": 0,
                    "insanity": 0,
                    "draw_pile": [],
                    "hand": [],
                    "discard": [],
                    "wounds": [],
                    "exhausted": False,
                    "knocked_out": False,
                    "equipped": {},
                    "depleted_items": [],
                    "rested_this_turn": False,
                }
            )
            for t in state.troupers
        ]
        # "Single Game Mode": Starting cards and items only, so no purchases.
        step = "zone" if state.mode == "single" else "purchases"
        return _with_day(state, day.model_copy(update={"step": step}), troupers=troupers)

    def describe(self) -> str:
        return "Recovery: Vigor restored, Insanity cubes back to the left"


# --------------------------------------------------------------------------- Show: Purchases


class BuyBuilding(Action):
    """Use a Bran building ("Village Card"), paying its cost from the Wagon."""

    type: Literal["day_buy_building"] = "day_buy_building"
    building: str
    pay: dict[str, int] | None = None
    trouper: str | None = None  # Sanatorium: whose Bite is discarded
    trade_from: str | None = None  # Alchemist's Laboratory: the Resource given up
    trade_to: str | None = None  # ... and the one gained
    amount: int = 0  # ... how many
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        _no_single(state, "no buildings")
        day = _require(state, cat, ["purchases"], "Using a building")
        b = building_for(cat, self.building)
        flags = {"hunting_house": "hunting_house", "cartographer": "cartographer"}
        flags["asylum"] = "asylum"
        if b.effect in flags and getattr(day, flags[b.effect]):
            raise RuleError(f"the {b.name} was already used this Day; its Effect holds")
        # Check the building's own choices before paying, so a refusal changes nothing.
        troupers = state.troupers
        if b.effect == "sanatorium":
            if self.trouper is None:
                raise RuleError("the Sanatorium needs a Trouper: whose Bite is discarded?")
            idx = trouper_at(state, self.trouper)
            t = state.troupers[idx]
            if t.bites == 0:
                raise RuleError(f"{t.trouper} has no Bite token to discard")
            troupers = _replace_trouper(state, idx, t.model_copy(update={"bites": t.bites - 1}))
        elif self.trouper is not None:
            raise RuleError(f"the {b.name} does not take a Trouper")
        wagon, spent = pay_resources(state.wagon, b.cost, self.pay, f"the {b.name}")
        if b.effect == "alchemist":
            wagon = self._trade(wagon)
        elif self.trade_from or self.trade_to or self.amount:
            raise RuleError(f"the {b.name} does not trade Resources")
        update: dict[str, Any] = {"purchases": [*day.purchases, b.id]}
        if b.effect in flags:
            update[flags[b.effect]] = True
        return _with_day(
            state,
            day.model_copy(update=update),
            wagon=wagon,
            troupers=troupers,
            resources_spent=_spent(state, spent),
        )

    def _trade(self, wagon: Wagon) -> Wagon:
        src, dst = self.trade_from, self.trade_to
        if src is None or dst is None or self.amount < 1:
            raise RuleError(
                "the Alchemist's Laboratory trades N of one Resource for N of another",
                hint="e.g. buy alchemist --pay coins=1 --trade scrolls=2:jewels",
            )
        for r in (src, dst):
            if r not in RESOURCE_NAMES:
                raise RuleError(
                    f"unknown Resource {r!r}", hint="Resources: " + ", ".join(RESOURCE_NAMES)
                )
        if src == dst:
            raise RuleError("the Alchemist's Laboratory trades one Resource type for another")
        have = wagon.as_dict()
        if have[src] < self.amount:
            raise RuleError(
                f"after paying, the Wagon has {have[src]} {src}; it cannot trade {self.amount}"
            )
        have[src] -= self.amount
        have[dst] += self.amount
        return Wagon(**have)

    def describe(self) -> str:
        extra = ""
        if self.trouper:
            extra = f" for {self.trouper}"
        if self.trade_from:
            extra = f": {self.amount} {self.trade_from} -> {self.trade_to}"
        paid = f" (paid {pay_text(self.pay)})" if self.pay else ""
        return f"Bought the {self.building}{extra}{paid}"


class BuyAdvancedTactic(Action):
    """Buy the top card of an Advanced Tactic deck into a Trouper's Personal Reserve
    ("Purchasing a Tactic Card")."""

    type: Literal["day_buy_advanced"] = "day_buy_advanced"
    trouper: str
    art: str
    pay: dict[str, int] | None = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        _no_single(state, "no purchases")
        day = _require(state, cat, ["purchases"], "Buying a Tactic card")
        idx = trouper_at(state, self.trouper)
        art = match_id(self.art, [(a, a) for a in state.advanced_decks], "Art")
        deck = state.advanced_decks.get(art, [])
        if not deck:
            raise RuleError(f"the {art} Advanced Tactic deck is empty")
        card = cat.tactic(deck[0])
        if card is None or card.cost is None:
            raise RuleError(f"unknown Tactic card {deck[0]!r} on top of the {art} deck")
        wagon, spent = pay_resources(state.wagon, card.cost, self.pay, f"{card.name} ({card.id})")
        t = state.troupers[idx]
        t = t.model_copy(update={"reserve_cards": [*t.reserve_cards, card.id]})
        decks = {**state.advanced_decks, art: deck[1:]}
        return _with_day(
            state,
            day.model_copy(update={"purchases": [*day.purchases, card.id]}),
            wagon=wagon,
            troupers=_replace_trouper(state, idx, t),
            advanced_decks=decks,
            resources_spent=_spent(state, spent),
        )

    def describe(self) -> str:
        paid = f" (paid {pay_text(self.pay)})" if self.pay else ""
        return f"{self.trouper} bought the top {self.art} Advanced Tactic card{paid}"


class BuySpecialCard(Action):
    """Buy a Location or Nemesis Tactic card (Training space) or Item card (Crafting space)
    with Resources and Trophy tokens ("Purchasing a Tactic Card", "Purchasing an Item Card")."""

    type: Literal["day_buy_card"] = "day_buy_card"
    trouper: str
    card: str
    pay: dict[str, int] | None = None
    trophies: dict[str, int] | None = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        _no_single(state, "no purchases")
        day = _require(state, cat, ["purchases"], "Buying a card")
        idx = trouper_at(state, self.trouper)
        offer = _tactic_names(cat, state.training) + _item_names(cat, state.crafting)
        cid = match_id(self.card, offer, "Location/Nemesis card on the Village Card")
        card: m.TacticCard | m.ItemCard | None = cat.tactic(cid) if cid in state.training else None
        if card is None:
            card = cat.item(cid)
        if card is None or card.cost is None:
            raise RuleError(f"unknown card {cid!r}")
        what = f"{card.name} ({card.id})"
        loc, nem = pay_trophies(state, cat, card.trophies, self.trophies, what)
        wagon, spent = pay_resources(state.wagon, card.cost, self.pay, what)
        t = state.troupers[idx]
        update: dict[str, Any] = {}
        if cid in state.training:
            t = t.model_copy(update={"reserve_cards": [*t.reserve_cards, cid]})
            update["training"] = [c for c in state.training if c != cid]
        else:
            t = t.model_copy(update={"reserve_items": [*t.reserve_items, cid]})
            update["crafting"] = [c for c in state.crafting if c != cid]
        return _with_day(
            state,
            day.model_copy(update={"purchases": [*day.purchases, cid]}),
            wagon=wagon,
            troupers=_replace_trouper(state, idx, t),
            location_trophies=loc,
            nemesis_trophies=nem,
            resources_spent=_spent(state, spent),
            **update,
        )

    def describe(self) -> str:
        paid = f" (paid {pay_text(self.pay)})" if self.pay else ""
        return f"{self.trouper} bought {self.card}{paid}"


class UpgradeItem(Action):
    """Turn a sleeved Trouper Item to its Advanced side, paying its upgrade cost
    ("Trouper Item Card")."""

    type: Literal["day_upgrade_item"] = "day_upgrade_item"
    trouper: str
    item: str
    pay: dict[str, int] | None = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        _no_single(state, "no upgrades")
        day = _require(state, cat, ["purchases"], "Upgrading an Item")
        idx = trouper_at(state, self.trouper)
        t = state.troupers[idx]
        iid = match_id(self.item, _item_names(cat, [s.item for s in t.sleeves]), "sleeved Item")
        card = cat.item(iid)
        slot_i = next(i for i, s in enumerate(t.sleeves) if s.item == iid)
        if card is None or card.kind != "trouper" or card.upgrade_cost is None:
            raise RuleError(f"{iid} is not a Trouper Item: it has no Advanced side")
        if t.sleeves[slot_i].advanced:
            raise RuleError(f"{card.name} ({iid}) is already on its Advanced side")
        wagon, spent = pay_resources(
            state.wagon, card.upgrade_cost, self.pay, f"upgrading {card.name}"
        )
        sleeves = list(t.sleeves)
        sleeves[slot_i] = ItemSlot(item=iid, advanced=True)
        t = t.model_copy(update={"sleeves": sleeves})
        return _with_day(
            state,
            day.model_copy(update={"purchases": [*day.purchases, f"upgrade {iid}"]}),
            wagon=wagon,
            troupers=_replace_trouper(state, idx, t),
            resources_spent=_spent(state, spent),
        )

    def describe(self) -> str:
        return f"{self.trouper} upgraded {self.item} to its Advanced side"


# --------------------------------------------------------------------------- replacing

SWAP_STEPS = ("purchases", "equipping")


class SwapTactic(Action):
    """Replace a deck card with a Personal Reserve card of the same Art, keeping the Building
    rule ("Replacing a Tactic Card")."""

    type: Literal["day_swap_tactic"] = "day_swap_tactic"
    trouper: str
    out: str
    into: str
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        _no_single(state, "no card swaps")
        day = _require(state, cat, SWAP_STEPS, "Replacing a Tactic card")
        idx = trouper_at(state, self.trouper)
        t = state.troupers[idx]
        out = match_id(self.out, _tactic_names(cat, t.deck), f"card in {t.trouper}'s deck")
        new = match_id(
            self.into, _tactic_names(cat, t.reserve_cards), f"card in {t.trouper}'s Reserve"
        )
        out_card, new_card = cat.tactic(out), cat.tactic(new)
        if out_card is None or new_card is None:
            raise RuleError(f"unknown Tactic card {out if out_card is None else new!r}")
        # Location and Nemesis cards count as every Art, on either side of the swap.
        if out_card.art is not None and new_card.art is not None and out_card.art != new_card.art:
            raise RuleError(
                f"{new_card.name} is {new_card.art}, {out_card.name} is {out_card.art}: "
                "a card is replaced by one of the same Art"
            )
        deck = [new if c == out else c for c in t.deck]
        problem = building_problem(cat, t.trouper, deck)
        if problem:
            raise RuleError(f"swapping {out} for {new} breaks the Building rule: {problem}")
        reserve = list(t.reserve_cards)
        reserve.remove(new)
        reserve.append(out)
        t = t.model_copy(update={"deck": deck, "reserve_cards": reserve})
        return _with_day(state, day, troupers=_replace_trouper(state, idx, t))

    def describe(self) -> str:
        return f"{self.trouper} swapped {self.out} (to the Reserve) for {self.into}"


class SwapItem(Action):
    """Replace a sleeved Item with a Personal Reserve Item of the same category; a Starting
    Item leaving its sleeve loses its upgrade ("Replacing an Item Card")."""

    type: Literal["day_swap_item"] = "day_swap_item"
    trouper: str
    out: str
    into: str
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        _no_single(state, "no Item swaps")
        day = _require(state, cat, SWAP_STEPS, "Replacing an Item")
        idx = trouper_at(state, self.trouper)
        t = state.troupers[idx]
        out = match_id(
            self.out,
            _item_names(cat, [s.item for s in t.sleeves]),
            f"Item in {t.trouper}'s sleeves",
        )
        new = match_id(
            self.into, _item_names(cat, t.reserve_items), f"Item in {t.trouper}'s Reserve"
        )
        out_card, new_card = cat.item(out), cat.item(new)
        if out_card is None or new_card is None:
            raise RuleError(f"unknown Item {out if out_card is None else new!r}")
        if out_card.category != new_card.category:
            raise RuleError(
                f"{new_card.name} is a {new_card.category}, {out_card.name} a "
                f"{out_card.category}: an Item is replaced by one of the same category"
            )
        sleeves = [ItemSlot(item=new) if s.item == out else s for s in t.sleeves]
        reserve = list(t.reserve_items)
        reserve.remove(new)
        reserve.append(out)  # back on its white side: the reserve keeps no upgrade
        t = t.model_copy(update={"sleeves": sleeves, "reserve_items": reserve})
        equipped = dict(day.equipped)
        gear = dict(equipped.get(idx, {}))
        if out in gear.values():
            gear = {c: i for c, i in gear.items() if i != out}
            equipped[idx] = gear
        return _with_day(
            state,
            day.model_copy(update={"equipped": equipped}),
            troupers=_replace_trouper(state, idx, t),
        )

    def describe(self) -> str:
        return f"{self.trouper} swapped the Item {self.out} (to the Reserve) for {self.into}"


# --------------------------------------------------------------------------- Show: selection


class ChooseZone(Action):
    """Zone Selection: ends the purchases and replacements of the Show."""

    type: Literal["day_zone"] = "day_zone"
    zone: str
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["purchases", "zone"], "Choosing the Zone")
        zone = match_id(self.zone, [(z.id, z.name) for z in cat.all("zones")], "Zone")
        return _with_day(state, day.model_copy(update={"zone": zone, "step": "location"}))

    def describe(self) -> str:
        return f"Zone: {self.zone}"


def _location_for_face(catalog: Catalog, zone: str, label: str | None) -> m.Location:
    for loc in catalog.locations_in(zone):
        if loc.choice == label:
            return loc
    raise RuleError(f"no Location card of {zone} answers the face {label!r}")


class RollLocation(Action):
    """Roll the Location die (``faces`` typed from a physical die, or None to roll digitally)
    and take the Zone's Location card that answers the face ("Zone Selection")."""

    type: Literal["day_roll_location"] = "day_roll_location"
    faces: str | None = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["location"], "Rolling for the Location")
        assert day.zone is not None
        box = DiceBox.from_models(cat.dice)
        pool = [cat.config.location_die]
        if self.faces is None:
            face = roll_pool(pool, box, ctx.chance)[0]
        else:
            face = parse_faces(self.faces, pool, box)[0]
        loc = _location_for_face(cat, day.zone, face.label)
        return _with_day(
            state,
            day.model_copy(
                update={"location": loc.id, "location_roll": face.label, "step": "minions"}
            ),
        )

    def describe(self) -> str:
        how = f"physical die {self.faces}" if self.faces else "digital die"
        return f"Rolled for the Location ({how})"


class ChooseLocation(Action):
    """Pick the Location card of the chosen Zone (Cartographer's Office)."""

    type: Literal["day_choose_location"] = "day_choose_location"
    location: str
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["location"], "Choosing the Location")
        assert day.zone is not None
        if not day.cartographer:
            raise RuleError(
                "choosing the Location card needs the Cartographer's Office; roll for it",
                hint="roll for it (digital, or the face of a physical die)",
                see=("day_roll_location",),
            )
        locs = [(loc.id, loc.name) for loc in cat.locations_in(day.zone)]
        lid = match_id(self.location, locs, f"Location card of {day.zone}")
        return _with_day(state, day.model_copy(update={"location": lid, "step": "minions"}))

    def describe(self) -> str:
        return f"Location: {self.location} (Cartographer's Office)"


class DrawMinions(Action):
    """Minion Selection: reveal two Minion cards at random for spaces A and B."""

    type: Literal["day_draw_minions"] = "day_draw_minions"
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["minions"], "Revealing the Minions")
        ids = [mn.id for mn in cat.all("minions")]
        if len(ids) < 2:
            raise RuleError("the data pack has fewer than two Minion cards")
        drawn = ctx.chance.sample(ids, 2, "minions")
        return _with_day(state, day.model_copy(update={"minions": drawn, "step": "last_assault"}))

    def describe(self) -> str:
        return "Revealed two Minion cards at random"


class ChooseMinions(Action):
    """Hunting House: the players choose four Minion cards; two of them, at random, take
    spaces A and B."""

    type: Literal["day_choose_minions"] = "day_choose_minions"
    minions: list[str]
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["minions"], "Choosing the Minions")
        if not day.hunting_house:
            raise RuleError(
                "choosing Minion cards needs the Hunting House; reveal two at random",
                see=("day_draw_minions",),
            )
        cands = [(mn.id, mn.name) for mn in cat.all("minions")]
        pool = [match_id(x, cands, "Minion card") for x in self.minions]
        if len(pool) != 4 or len(set(pool)) != 4:
            raise RuleError(
                f"the Hunting House takes four different Minion cards, not {len(set(pool))}"
            )
        drawn = ctx.chance.sample(pool, 2, "minions")
        return _with_day(
            state,
            day.model_copy(update={"minion_pool": pool, "minions": drawn, "step": "last_assault"}),
        )

    def describe(self) -> str:
        return "Hunting House: chose " + ", ".join(self.minions)


class LastAssault(Action):
    """Last Assault: the players decide whether to face Vlad (then the Nemesis Selection is
    skipped)."""

    type: Literal["day_last_assault"] = "day_last_assault"
    face_vlad: bool
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["last_assault"], "The Last Assault choice")
        if not self.face_vlad:
            if not available_nemeses(state, cat):
                raise RuleError(
                    "every lieutenant was defeated in this box cycle: only Vlad is left",
                    see=("day_last_assault",),
                )
            return _with_day(
                state, day.model_copy(update={"last_assault": False, "step": "nemesis"})
            )
        vlad = cat.vlad()
        if vlad is None:
            raise RuleError("the data pack has no Vlad Nemesis card")
        return _with_day(
            state,
            day.model_copy(
                update={"last_assault": True, "nemesis": vlad.id, "step": "dusk_difficulty"}
            ),
        )

    def describe(self) -> str:
        return "Last Assault: facing Vlad" if self.face_vlad else "Last Assault: not tonight"


class DrawNemesis(Action):
    """Nemesis Selection: reveal a Nemesis at random from the available lieutenants."""

    type: Literal["day_draw_nemesis"] = "day_draw_nemesis"
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["nemesis"], "Revealing the Nemesis")
        pool = available_nemeses(state, cat)
        if not pool:  # pragma: no cover - LastAssault refuses first
            raise RuleError("no lieutenant is available")
        nem = ctx.chance.choice(pool, "nemesis")
        return _with_day(state, day.model_copy(update={"nemesis": nem, "step": "dusk_difficulty"}))

    def describe(self) -> str:
        return "Revealed the Nemesis at random"


class ChooseNemesis(Action):
    """Asylum: the players choose the Nemesis among the available lieutenants."""

    type: Literal["day_choose_nemesis"] = "day_choose_nemesis"
    nemesis: str
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["nemesis"], "Choosing the Nemesis")
        if not day.asylum:
            raise RuleError(
                "choosing the Nemesis needs the Asylum; reveal one at random",
                see=("day_draw_nemesis",),
            )
        nid = match_id(self.nemesis, [(n.id, n.name) for n in cat.all("nemeses")], "Nemesis")
        card = cat.nemesis(nid)
        if card is not None and card.vlad:
            raise RuleError("Vlad is faced only through the Last Assault")
        if nid not in available_nemeses(state, cat):
            raise RuleError(
                f"{nid} was defeated in this box cycle and is no longer available",
                hint="available: " + ", ".join(available_nemeses(state, cat)),
            )
        return _with_day(state, day.model_copy(update={"nemesis": nid, "step": "dusk_difficulty"}))

    def describe(self) -> str:
        return f"Nemesis: {self.nemesis} (Asylum)"


# --------------------------------------------------------------------------- Dusk


def difficulty_levels(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """Each Difficulty Level both the Nemesis card and the Location card list, with what it
    means: wounds per side and influence (Nemesis card), rewards (Location card)."""
    day = _day(state)
    if day.nemesis is None or day.location is None:
        return []
    nem = catalog.nemesis(day.nemesis)
    loc = catalog.get("locations", day.location)
    if nem is None or loc is None:
        return []
    rewards = {r.level: r for r in loc.rewards}
    names = {d.level: d.name for d in catalog.all("difficulty")}
    out = []
    for lv in nem.levels:
        r = rewards.get(lv.level)
        if r is None:
            continue
        out.append(
            {
                "level": lv.level,
                "name": names.get(lv.level, ""),
                "nemesis_level": lv.name,
                "wounds": dict(lv.wounds),
                "influence": lv.influence,
                "rewards": {
                    "vlad_cards": r.vlad_cards,
                    "location_trophies": r.location_trophies,
                    "nemesis_trophies": r.nemesis_trophies,
                    "advanced_tactics": r.advanced_tactics,
                    "loot": [f"{x.dice} -> {x.resource}" for x in r.loot],
                    "defeat_roll": f"{r.defeat_roll.dice} -> {r.defeat_roll.resource}",
                },
            }
        )
    return out


class ChooseDifficulty(Action):
    """Dusk: the players pick the Difficulty Level from the Nemesis and Location cards."""

    type: Literal["day_difficulty"] = "day_difficulty"
    level: int
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["dusk_difficulty"], "Choosing the Difficulty Level")
        levels = [lv["level"] for lv in difficulty_levels(state, cat)]
        if self.level not in levels:
            raise RuleError(
                f"Difficulty Level {self.level} is not on both the Nemesis and Location cards",
                hint="levels: " + ", ".join(str(x) for x in levels),
            )
        return _with_day(
            state, day.model_copy(update={"difficulty": self.level, "step": "dusk_events"})
        )

    def describe(self) -> str:
        return f"Difficulty Level {self.level}"


def influence(state: CampaignState, catalog: Catalog) -> int:
    """How many Event cards go on the Chain: the chosen level's influence on the Nemesis card."""
    day = _day(state)
    nem = catalog.nemesis(day.nemesis or "")
    if nem is None:
        return 0
    return next((lv.influence for lv in nem.levels if lv.level == day.difficulty), 0)


class PlaceEvents(Action):
    """Dusk: place the influence's number of Event cards of the Zone on the Chain from the
    left, drawn at random (or ``events``: the cards drawn from the physical deck)."""

    type: Literal["day_place_events"] = "day_place_events"
    events: list[str] | None = None
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["dusk_events"], "Placing the Event cards")
        loc = cat.get("locations", day.location or "")
        assert loc is not None
        n = influence(state, cat)
        zone_events = [(e.id, e.name) for e in cat.events_in(loc.zone)]
        if n >= cat.board.chain_spaces:
            raise RuleError("the Events would fill the whole Chain")
        if self.events is None:
            chosen = ctx.chance.sample(
                [e for e, _ in zone_events], min(n, len(zone_events)), "events"
            )
        else:
            chosen = [match_id(x, zone_events, f"Event card of {loc.zone}") for x in self.events]
            if len(set(chosen)) != len(chosen):
                raise RuleError("the same Event card is named twice")
            if len(chosen) != min(n, len(zone_events)):
                raise RuleError(f"this Difficulty Level puts {n} Event card(s) on the Chain")
        return _with_day(state, day.model_copy(update={"events": chosen, "step": "equipping"}))

    def describe(self) -> str:
        if self.events is None:
            return "Placed the Event cards on the Chain (drawn at random)"
        return "Placed the Event cards " + ", ".join(self.events)


class Equip(Action):
    """Equipping: three Items from the Trouper's sleeves, one per category."""

    type: Literal["day_equip"] = "day_equip"
    trouper: str
    items: list[str]
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["equipping"], "Equipping")
        idx = trouper_at(state, self.trouper)
        t = state.troupers[idx]
        sleeved = _item_names(cat, [s.item for s in t.sleeves])
        gear: dict[str, str] = {}
        for text in self.items:
            iid = match_id(text, sleeved, f"Item in {t.trouper}'s sleeves")
            card = cat.item(iid)
            assert card is not None
            if card.category in gear:
                raise RuleError(
                    f"{gear[card.category]} and {iid} are both {card.category}s: "
                    "one Item per category"
                )
            gear[card.category] = iid
        missing = [c for c in ITEM_CATEGORIES if c not in gear]
        if missing:
            raise RuleError(
                f"{t.trouper} equips three Items, one per category; missing: " + ", ".join(missing)
            )
        gear = {c: gear[c] for c in ITEM_CATEGORIES}
        equipped = {**day.equipped, idx: gear}
        return _with_day(state, day.model_copy(update={"equipped": equipped}))

    def describe(self) -> str:
        return f"{self.trouper} equipped " + ", ".join(self.items)


class EndDay(Action):
    """The Day Part ends: the night is set up from the Day's choices (engine/night_setup.py)."""

    type: Literal["day_end"] = "day_end"
    parts = ("day",)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = _require(state, cat, ["equipping"], "Ending the Day")
        unequipped = [
            t.trouper
            for i, t in enumerate(state.troupers)
            if len(day.equipped.get(i, {})) != len(ITEM_CATEGORIES)
        ]
        if unequipped:
            raise RuleError(
                "still to equip: " + ", ".join(unequipped),
                hint=f"{unequipped[0]} equips one protection, one tool and one artifact",
                see=("day_equip",),
            )
        assert day.nemesis and day.location and day.difficulty is not None
        new = setup_night(
            state,
            cat,
            ctx.chance,
            nemesis=day.nemesis,
            location=day.location,
            minions=list(day.minions),
            difficulty=day.difficulty,
            events=list(day.events),
            equipped=day.equipped,
        )
        return new.model_copy(update={"day": day.model_copy(update={"step": "done"})})

    def describe(self) -> str:
        return "The Day Part ends; the night is set up"


# --------------------------------------------------------------------------- what next


class NextStep(BaseModel):
    """What the table does next: the step, a sentence and the legal choices (the options
    players pick from are in ``engine/day_options.py``)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    part: str
    step: str
    title: str
    sentence: str
    choices: list[dict[str, Any]] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)


def _purchase_choices(state: CampaignState, cat: Catalog) -> list[dict[str, Any]]:
    w = state.wagon
    out: list[dict[str, Any]] = []
    for b in cat.village.buildings:
        used = getattr(_day(state), b.effect, False) is True
        out.append(
            {
                "kind": "building",
                "id": b.id,
                "name": b.name,
                "cost": cost_text(b.cost),
                "affordable": can_afford(w, b.cost) and not used,
                "used": used,
            }
        )
    for art, deck in state.advanced_decks.items():
        top = cat.tactic(deck[0]) if deck else None
        if top is not None and top.cost is not None:
            out.append(
                {
                    "kind": "advanced_tactic",
                    "id": top.id,
                    "art": art,
                    "name": top.name,
                    "cost": cost_text(top.cost),
                    "affordable": can_afford(w, top.cost),
                    "left": len(deck),
                }
            )
    for cid in [*state.training, *state.crafting]:
        card: m.TacticCard | m.ItemCard | None = cat.tactic(cid) or cat.item(cid)
        if card is None or card.cost is None:
            continue
        kind = "tactic" if cid in state.training else "item"
        out.append(
            {
                "kind": f"special_{kind}",
                "id": cid,
                "name": card.name,
                "cost": cost_text(card.cost),
                "trophies": trophy_text(card.trophies),
                "affordable": can_afford(w, card.cost) and _holds_trophies(state, card.trophies),
            }
        )
    for t in state.troupers:
        for s in t.sleeves:
            item = cat.item(s.item)
            if item is None or item.upgrade_cost is None or s.advanced:
                continue
            out.append(
                {
                    "kind": "upgrade",
                    "trouper": t.trouper,
                    "id": s.item,
                    "name": item.name,
                    "cost": cost_text(item.upgrade_cost),
                    "affordable": can_afford(w, item.upgrade_cost),
                }
            )
    return out


def purchase_choices(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """Everything on offer in the Show's Purchases, each with ``affordable`` (the Wagon and the
    trophies can pay it now). Raises RuleError outside the Day Part."""
    return _purchase_choices(state, catalog)


def _holds_trophies(state: CampaignState, needs: Sequence[TrophyCost]) -> bool:
    hold = {"location": state.location_trophies, "nemesis": state.nemesis_trophies}
    for kind in ("location", "nemesis"):
        reqs = [t for t in needs if t.kind == kind]
        total = sum(t.n for t in reqs)
        if sum(hold[kind].values()) < total:
            return False
        for t in reqs:
            if t.of and hold[kind].get(t.of, 0) < sum(x.n for x in reqs if x.of == t.of):
                return False
    return True


def day_next(state: CampaignState, catalog: Catalog) -> NextStep:
    """What the players do next in the Day Part, with the legal choices (pure)."""
    cat = catalog
    if state.part != "day":
        if state.part == "night":
            sentence = "The Day Part is over and the night is set up."
        else:
            sentence = f"The campaign is in the {state.part} part, not the Day."
        return NextStep(
            part=state.part, step=state.part, title="Not the Day Part", sentence=sentence
        )
    day = _day(state)
    step = day.step
    title = STEP_TITLES[step]
    base = {"part": "day", "step": step, "title": title}
    if step == "recovery":
        return NextStep(
            **base,
            sentence="Recovery: Vigor tokens back to available (Bites stay on them), Insanity "
            "cubes to the leftmost space.",
        )
    if step == "purchases":
        return NextStep(
            **base,
            sentence="Spend the Wagon at the buildings, buy and upgrade cards, swap cards and "
            "Items; then choose the Zone.",
            choices=_purchase_choices(state, cat),
            details={
                "wagon": state.wagon.as_dict(),
                "location_trophies": dict(state.location_trophies),
                "nemesis_trophies": dict(state.nemesis_trophies),
                "bought": list(day.purchases),
            },
        )
    if step == "zone":
        return NextStep(
            **base,
            sentence="Choose the Zone of the next night.",
            choices=[{"id": z.id, "name": z.name} for z in cat.all("zones")],
        )
    if step == "location":
        zone = day.zone or ""
        locs = [
            {"id": loc.id, "name": loc.name, "face": loc.choice} for loc in cat.locations_in(zone)
        ]
        die = cat.config.location_die
        if day.cartographer:
            return NextStep(
                **base,
                sentence=f"Cartographer's Office: choose the Location card of {zone} "
                "(or roll for it).",
                choices=locs,
            )
        return NextStep(
            **base,
            sentence=f"Roll the {die} die for the Location card of {zone}.",
            choices=locs,
            details={"die": die},
        )
    if step == "minions":
        minions = [{"id": mn.id, "name": mn.name, "type": mn.type} for mn in cat.all("minions")]
        if day.hunting_house:
            return NextStep(
                **base,
                sentence="Hunting House: choose four Minion cards; two of them, at random, take "
                "spaces A and B.",
                choices=minions,
            )
        return NextStep(
            **base,
            sentence="Reveal two Minion cards at random for spaces A and B.",
            choices=minions,
        )
    if step == "last_assault":
        avail = available_nemeses(state, cat)
        return NextStep(
            **base,
            sentence="Last Assault: do the players face Vlad tonight?"
            + ("" if avail else " Every lieutenant is defeated: only Vlad is left."),
            choices=[{"id": "yes"}, {"id": "no"}] if avail else [{"id": "yes"}],
            details={"vlad_weakened": len(state.vlad_weakened)},
        )
    if step == "nemesis":
        nems = [
            {"id": n, "name": getattr(cat.nemesis(n), "name", n)}
            for n in available_nemeses(state, cat)
        ]
        if day.asylum:
            return NextStep(
                **base,
                sentence="Asylum: choose the Nemesis.",
                choices=nems,
            )
        return NextStep(
            **base,
            sentence="Reveal the Nemesis at random from the available ones.",
            choices=nems,
        )
    if step == "dusk_difficulty":
        loc = cat.get("locations", day.location or "")
        return NextStep(
            **base,
            sentence="Lay out the Map as the Location card shows; the app has the Reaction deck "
            "and shuffles it. Choose the Difficulty Level.",
            choices=difficulty_levels(state, cat),
            details={
                "location": day.location,
                "location_name": loc.name if loc else None,
                "map": list(loc.map) if loc else [],
                "nemesis": day.nemesis,
                "minions": {"A": day.minions[0], "B": day.minions[1]} if day.minions else {},
            },
        )
    if step == "dusk_events":
        n = influence(state, cat)
        loc = cat.get("locations", day.location or "")
        zone = loc.zone if loc else ""
        return NextStep(
            **base,
            sentence=f"Place {n} Event card(s) on the Chain from the left.",
            choices=[{"id": e.id, "name": e.name} for e in cat.events_in(zone)],
            details={"influence": n},
        )
    if step == "equipping":
        waiting = [
            t.trouper
            for i, t in enumerate(state.troupers)
            if len(day.equipped.get(i, {})) != len(ITEM_CATEGORIES)
        ]
        choices = []
        for i, t in enumerate(state.troupers):
            by_cat: dict[str, list[str]] = {c: [] for c in ITEM_CATEGORIES}
            for s in t.sleeves:
                item = cat.item(s.item)
                if item is not None:
                    by_cat[item.category].append(s.item + ("+" if s.advanced else ""))
            choices.append(
                {"trouper": t.trouper, "sleeves": by_cat, "equipped": day.equipped.get(i, {})}
            )
        if waiting:
            sentence = "Equipping: optional swaps, then each Trouper equips three Items, one per "
            sentence += "category. Still to equip: " + ", ".join(waiting) + "."
        else:
            sentence = "Everyone is equipped: end the Day and set up the night."
        return NextStep(
            **base, sentence=sentence, choices=choices, details={"waiting": waiting}
        )
    return NextStep(**base, sentence="The Day Part is over.")


__all__ = [
    "BuyAdvancedTactic",
    "BuyBuilding",
    "BuySpecialCard",
    "ChooseDifficulty",
    "ChooseLocation",
    "ChooseMinions",
    "ChooseNemesis",
    "ChooseZone",
    "DrawMinions",
    "DrawNemesis",
    "EndDay",
    "Equip",
    "LastAssault",
    "NextStep",
    "PlaceEvents",
    "Recover",
    "RollLocation",
    "SwapItem",
    "SwapTactic",
    "UpgradeItem",
    "available_nemeses",
    "building_for",
    "building_problem",
    "day_next",
    "difficulty_levels",
    "match_id",
    "pay_resources",
    "pay_trophies",
    "purchase_choices",
]
