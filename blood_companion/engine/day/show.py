"""The Show Phase's Recovery, Purchases and the replacing of cards and Items ("Show Phase",
"Village Card", "Purchasing Tactic Cards and Item Cards", "Replacing a Tactic Card",
"Replacing an Item Card", "Trouper Item Card").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.content import models as m
from blood_companion.engine import vigor
from blood_companion.engine.actions import Cli, Context, Pay, Who
from blood_companion.engine.day.core import (
    DayAction,
    building_for,
    building_problem,
    day_of,
    item_names,
    match_id,
    replace_trouper,
    tactic_names,
    top_card,
    with_day,
)
from blood_companion.engine.day.options import (
    advanced_offers,
    art_of,
    building_offers,
    card_offers,
    category_of,
    chosen_trouper,
    names_of,
    numbered,
    swap_step,
    trouper_ask,
    upgrade_offers,
)
from blood_companion.engine.day.payments import buy, known_resource, pay_trophies
from blood_companion.engine.day.steps import advance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState, ItemSlot, Wagon

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class Recover(DayAction):
    """Show 1, Recovery: Vigor back to the available side (Bites stay, on Vigor tokens),
    Insanity cubes to the leftmost space, the night's cards and items back with their owner."""

    type: Literal["day_recover"] = "day_recover"
    command = "day recover"
    summary = "Show 1, Recovery: Vigor back, Insanity cubes to the left (Bites stay)."
    doing = "recovery"
    offers_at = "recovery"

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        return (Option("1", "Recover", "day_recover"),)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        troupers = [t.recovered() for t in state.troupers]
        return advance(state.model_copy(update={"troupers": troupers}), day_of(state), self.type)

    words = "Recovery: Vigor restored, Insanity cubes back to the left"


class BuyBuilding(DayAction):
    """Use a Bran building ("Village Card"), paying its cost from the Wagon."""

    type: Literal["day_buy_building"] = "day_buy_building"
    command = "day buy"
    summary = "Use a Bran building, paying its cost from the Wagon."
    doing = "using a building"
    offers_at = "purchases"
    building: Annotated[str, Cli(help="hunting-house, cartographer, sanatorium, ...",
                                 names="building")]
    pay: Pay = None
    trouper: Annotated[str | None, Cli(  # Sanatorium: whose Bite is discarded
        help="Sanatorium: whose Bite is discarded.", names="trouper")] = None
    # Alchemist's Laboratory: the Resource given up (and how many: ``amount``) ...
    trade_from: Annotated[str | None, Cli(
        "--give", "Alchemist: Resources given, e.g. scrolls=2.", names="give")] = None
    trade_to: Annotated[str | None, Cli(  # ... and the one gained
        "--get", "Alchemist: the Resource gained, e.g. jewels.", names="resource")] = None
    amount: int = 0  # ... how many

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        return tuple(building_offers(state, catalog)[1])

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need == "trouper":
            return trouper_ask(state, catalog, None, holding="bites")
        fields = {**option.fields, **answers}
        if need == "trade_from":
            return Ask("trade_from", "Which Resource do you give up?",
                       numbered((r, r) for r in RESOURCE_NAMES))
        if need == "amount":
            have = getattr(state.wagon, str(fields.get("trade_from")), 0)
            top = max(1, min(6, have))
            return Ask("amount", f"How many {fields.get('trade_from')} (the Wagon has {have})?",
                       tuple(Pick(str(n), str(n), n) for n in range(1, top + 1)), default="1")
        if need == "trade_to":
            return Ask("trade_to", "For which Resource?",
                       numbered((r, r) for r in RESOURCE_NAMES if r != fields.get("trade_from")))
        return None

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        b = building_for(ctx.catalog, self.building)
        once = b.effect in ("hunting_house", "cartographer", "asylum")  # the Day's flags
        if once and getattr(day_of(state), b.effect):
            raise RuleError(f"the {b.name} was already used this Day; its Effect holds")
        # Check the building's own choices before paying, so a refusal changes nothing.
        troupers = state.troupers
        if b.effect == "sanatorium":
            if self.trouper is None:
                raise RuleError("the Sanatorium needs a Trouper: whose Bite is discarded?")
            idx = state.trouper_index(self.trouper)
            t = state.troupers[idx]
            if t.bites == 0:
                raise RuleError(f"{t.trouper} has no Bite token to discard")
            troupers = replace_trouper(state, idx,
                                       vigor.remove_bites(t, ctx.catalog.config.vigor_tokens, 1))
        elif self.trouper is not None:
            raise RuleError(f"the {b.name} does not take a Trouper")
        if b.effect != "alchemist" and (self.trade_from or self.trade_to or self.amount):
            raise RuleError(f"the {b.name} does not trade Resources")
        return buy(state, b.cost, self.pay, f"the {b.name}", bought=b.id,
                   day_update={b.effect: True} if once else None,
                   trade=self._trade if b.effect == "alchemist" else None, troupers=troupers)

    def _trade(self, wagon: Wagon) -> Wagon:
        src, dst = self.trade_from, self.trade_to
        if src is None or dst is None or self.amount < 1:
            raise RuleError("the Alchemist's Laboratory trades N of one Resource for N of another",
                            hint="say the Resource given up, how many, and the one gained",
                            see=("day_buy_building",))
        known_resource(src)
        known_resource(dst)
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

    words = (
        "Bought the {building:building}[ for {trouper:who}][: {amount} {trade_from} for {trade_to}]"
        "{pay:paid}"
    )


class BuyAdvancedTactic(DayAction):
    """Buy the top card of an Advanced Tactic deck into a Trouper's Personal Reserve
    ("Purchasing a Tactic Card")."""

    type: Literal["day_buy_advanced"] = "day_buy_advanced"
    command = "day buy-tactic"
    summary = "Buy the top card of an Advanced Tactic deck into a Trouper's Personal Reserve."
    doing = "buying a tactic card"
    offers_at = "purchases"
    trouper: Who
    art: Annotated[str, Cli("--art", "The Advanced Tactic deck (an Art).", names="art",
                            complete="art")]
    pay: Pay = None
    asks = {"trouper": lambda state, catalog, option, answers: trouper_ask(
        state, catalog, str(option.fields.get("art")), what=f"the {option.fields.get('art')} card")}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        return tuple(advanced_offers(state, catalog)[1])

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        idx = state.trouper_index(self.trouper)
        art = match_id(self.art, [(a, a) for a in state.advanced_decks], "Art")
        top, rest = top_card(state, ctx, art, f"the {art} Advanced Tactic deck is empty")
        card = ctx.catalog.tactic(top)
        if card is None or card.cost is None:
            raise RuleError(f"unknown Tactic card {top!r} on top of the {art} deck")
        t = state.troupers[idx]
        t = t.model_copy(update={"reserve_cards": [*t.reserve_cards, card.id]})
        return buy(state, card.cost, self.pay, f"{card.name} ({card.id})", bought=card.id,
                   troupers=replace_trouper(state, idx, t),
                   advanced_decks={**state.advanced_decks, art: rest})

    words = "{trouper:who} buys the top card of the {art:cap} deck{pay:paid}"


class BuySpecialCard(DayAction):
    """Buy a Location or Nemesis Tactic card (Training space) or Item card (Crafting space)
    with Resources and Trophy tokens ("Purchasing a Tactic Card", "Purchasing an Item Card")."""

    type: Literal["day_buy_card"] = "day_buy_card"
    command = "day buy-card"
    summary = "Buy a Location or Nemesis card with Resources and Trophy tokens."
    doing = "buying a card"
    offers_at = "purchases"
    trouper: Who
    card: Annotated[str, Cli(help="A Location/Nemesis Tactic or Item card (id or prefix).",
                             names="offer")]
    pay: Pay = None
    trophies: Annotated[dict[str, int] | None, Cli(
        "--trophies", "Trophy tokens spent, e.g. halls=1,lucilla=1.", names="trophies")] = None
    asks = {"trouper": lambda state, catalog, option, answers: trouper_ask(
        state, catalog, art_of(catalog, str(option.fields.get("card"))))}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        return tuple(card_offers(state, catalog)[1])

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        idx = state.trouper_index(self.trouper)
        offer = tactic_names(cat, state.training) + item_names(cat, state.crafting)
        cid = match_id(self.card, offer, "Location/Nemesis card on the Village Card")
        card: m.TacticCard | m.ItemCard | None = cat.tactic(cid) if cid in state.training else None
        if card is None:
            card = cat.item(cid)
        if card is None or card.cost is None:
            raise RuleError(f"unknown card {cid!r}")
        what = f"{card.name} ({card.id})"
        loc, nem = pay_trophies(state, cat, card.trophies, self.trophies, what)
        t = state.troupers[idx]
        update: dict[str, Any] = {}
        if cid in state.training:
            t = t.model_copy(update={"reserve_cards": [*t.reserve_cards, cid]})
            update["training"] = [c for c in state.training if c != cid]
        else:
            t = t.model_copy(update={"reserve_items": [*t.reserve_items, cid]})
            update["crafting"] = [c for c in state.crafting if c != cid]
        return buy(state, card.cost, self.pay, what, bought=cid,
                   troupers=replace_trouper(state, idx, t), location_trophies=loc,
                   nemesis_trophies=nem, **update)

    words = "{trouper:who} buys {card:name}{pay:paid}"


class UpgradeItem(DayAction):
    """Turn a sleeved Trouper Item to its Advanced side, paying its upgrade cost
    ("Trouper Item Card")."""

    type: Literal["day_upgrade_item"] = "day_upgrade_item"
    command = "day upgrade"
    summary = "Turn a Trouper Item to its Advanced side, paying its upgrade cost."
    doing = "upgrading an item"
    offers_at = "purchases"
    trouper: Who
    item: Annotated[str, Cli(help="A sleeved Trouper Item (id or prefix).", names="sleeved")]
    pay: Pay = None

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        return tuple(upgrade_offers(state, catalog)[1])

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        idx = state.trouper_index(self.trouper)
        t = state.troupers[idx]
        iid = match_id(self.item, item_names(cat, [s.item for s in t.sleeves]), "sleeved Item")
        card = cat.item(iid)
        slot_i = next(i for i, s in enumerate(t.sleeves) if s.item == iid)
        if card is None or card.kind != "trouper" or card.upgrade_cost is None:
            raise RuleError(f"{iid} is not a Trouper Item: it has no Advanced side")
        if t.sleeves[slot_i].advanced:
            raise RuleError(f"{card.name} ({iid}) is already on its Advanced side")
        sleeves = list(t.sleeves)
        sleeves[slot_i] = ItemSlot(item=iid, advanced=True)
        t = t.model_copy(update={"sleeves": sleeves})
        return buy(state, card.upgrade_cost, self.pay, f"upgrading {card.name}",
                   bought=f"upgrade {iid}", troupers=replace_trouper(state, idx, t))

    words = "{trouper:who} upgrades {item:item} to its Advanced side{pay:paid}"


class SwapTactic(DayAction):
    """Replace a deck card with a Personal Reserve card of the same Art, keeping the Building
    rule ("Replacing a Tactic Card")."""

    type: Literal["day_swap_tactic"] = "day_swap_tactic"
    command = "day swap-tactic"
    summary = "Replace a deck card with a Reserve card of the same Art (Building rule kept)."
    doing = "replacing a tactic card"
    trouper: Who
    out: Annotated[str, Cli(help="The deck card going to the Reserve.", names="deck")]
    into: Annotated[str, Cli(help="The Reserve card going into the deck.", metavar="IN",
                             names="reserve")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        if not swap_step(state) or not any(t.reserve_cards for t in state.troupers):
            return ()
        return (Option("st", "Swap a Tactic card with one of the Personal Reserve",
                       "day_swap_tactic", needs=("trouper", "out", "into"), group="swap"),)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need == "trouper":
            return trouper_ask(state, catalog, None, holding="reserve_cards")
        t = chosen_trouper(state, option, answers)
        if t is None:
            return None
        if need == "out":
            # only cards that a Reserve card can replace (same Art; Location and Nemesis cards
            # count as every Art)
            arts = {art_of(catalog, c) for c in t.reserve_cards}
            ids = [c for c in t.deck if None in arts or art_of(catalog, c) in arts
                   or art_of(catalog, c) is None]
            return Ask("out", "Which deck card goes to the Reserve?", names_of(catalog, ids))
        if need == "into":
            out_card = catalog.tactic(str({**option.fields, **answers}.get("out")))
            art = out_card.art if out_card is not None else None
            ids = [c for c in t.reserve_cards
                   if art is None or art_of(catalog, c) in (None, art)]
            return Ask("into", "Which Reserve card takes its place (same Art)?",
                       names_of(catalog, ids))
        return None

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        idx = state.trouper_index(self.trouper)
        t = state.troupers[idx]
        out = match_id(self.out, tactic_names(cat, t.deck), f"card in {t.trouper}'s deck")
        new = match_id(self.into, tactic_names(cat, t.reserve_cards),
                       f"card in {t.trouper}'s Reserve")
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
        return with_day(state, day_of(state), troupers=replace_trouper(state, idx, t))

    words = "{trouper:who} swaps {out:name} (to the Reserve) for {into:name}"


class SwapItem(DayAction):
    """Replace a sleeved Item with a Personal Reserve Item of the same category; a Starting
    Item leaving its sleeve loses its upgrade ("Replacing an Item Card")."""

    type: Literal["day_swap_item"] = "day_swap_item"
    command = "day swap-item"
    summary = "Replace a sleeved Item with a Reserve Item of the same category."
    doing = "replacing an item"
    trouper: Who
    out: Annotated[str, Cli(help="The sleeved Item going to the Reserve.", names="sleeved")]
    into: Annotated[str, Cli(help="The Reserve Item going into the sleeve.", metavar="IN",
                             names="reserve_item")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        if not swap_step(state) or not any(t.reserve_items for t in state.troupers):
            return ()
        return (Option("si", "Swap an Item with one of the Personal Reserve", "day_swap_item",
                       needs=("trouper", "out", "into"), group="swap"),)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need == "trouper":
            return trouper_ask(state, catalog, None, holding="reserve_items")
        t = chosen_trouper(state, option, answers)
        if t is None:
            return None
        if need == "out":
            # only Items of a category the Reserve holds
            cats = {category_of(catalog, c) for c in t.reserve_items}
            ids = [s.item for s in t.sleeves if category_of(catalog, s.item) in cats]
            return Ask("out", "Which sleeved Item goes to the Reserve?",
                       names_of(catalog, ids, items=True))
        if need == "into":
            out_item = catalog.item(str({**option.fields, **answers}.get("out")))
            cat = out_item.category if out_item is not None else None
            ids = [c for c in t.reserve_items if cat is None or category_of(catalog, c) == cat]
            return Ask("into", "Which Reserve Item takes its place (same category)?",
                       names_of(catalog, ids, items=True))
        return None

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        idx = state.trouper_index(self.trouper)
        t = state.troupers[idx]
        out = match_id(self.out, item_names(cat, [s.item for s in t.sleeves]),
                       f"Item in {t.trouper}'s sleeves")
        new = match_id(self.into, item_names(cat, t.reserve_items),
                       f"Item in {t.trouper}'s Reserve")
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
        equipped = dict(day_of(state).equipped)
        gear = dict(equipped.get(idx, {}))
        if out in gear.values():
            gear = {c: i for c, i in gear.items() if i != out}
            equipped[idx] = gear
        return with_day(state, day_of(state).model_copy(update={"equipped": equipped}),
                        troupers=replace_trouper(state, idx, t))

    words = "{trouper:who} swaps the Item {out:item} (to the Reserve) for {into:item}"
