"""What the Day looks like: the next step in a sentence, with the choices on offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from blood_companion.content import models as m
from blood_companion.content.face import trouper_name
from blood_companion.content.models import ITEM_CATEGORIES, TrophyCost
from blood_companion.engine.board_view import DayBoard, DayTrouper
from blood_companion.engine.day.core import available_nemeses, day_of
from blood_companion.engine.day.dusk import difficulty_levels, influence
from blood_companion.engine.day.payments import can_afford, cost_text, trophy_text
from blood_companion.engine.day.steps import STEP_TITLES, purchases_open
from blood_companion.engine.narrate import record_name
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

class NextStep(BaseModel):
    """What the table does next: the step, a sentence and the legal choices (the options
    players pick from are in ``engine/day/options.py``)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    part: str
    step: str
    title: str
    sentence: str
    choices: list[dict[str, Any]] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)


def purchase_choices_of(state: CampaignState, cat: Catalog) -> list[dict[str, Any]]:
    w = state.wagon
    out: list[dict[str, Any]] = []
    for b in cat.village.buildings:
        used = getattr(day_of(state), b.effect, False) is True
        out.append({"kind": "building", "id": b.id, "name": b.name, "cost": cost_text(b.cost),
                    "affordable": can_afford(w, b.cost) and not used, "used": used})
    for art, deck in state.advanced_decks.items():
        top = cat.tactic(deck[0]) if deck else None
        if top is not None and top.cost is not None:
            out.append({"kind": "advanced_tactic", "id": top.id, "art": art, "name": top.name,
                        "cost": cost_text(top.cost), "affordable": can_afford(w, top.cost),
                        "left": len(deck)})
    for cid in [*state.training, *state.crafting]:
        card: m.TacticCard | m.ItemCard | None = cat.tactic(cid) or cat.item(cid)
        if card is None or card.cost is None:
            continue
        kind = "tactic" if cid in state.training else "item"
        ok = can_afford(w, card.cost) and holds_trophies(state, card.trophies)
        out.append({"kind": f"special_{kind}", "id": cid, "name": card.name,
                    "cost": cost_text(card.cost), "trophies": trophy_text(card.trophies),
                    "affordable": ok})
    for t in state.troupers:
        for s in t.sleeves:
            item = cat.item(s.item)
            if item is None or item.upgrade_cost is None or s.advanced:
                continue
            out.append({"kind": "upgrade", "trouper": t.trouper, "id": s.item, "name": item.name,
                        "cost": cost_text(item.upgrade_cost),
                        "affordable": can_afford(w, item.upgrade_cost)})
    return out


def purchase_choices(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """Everything on offer in the Show's Purchases, each with ``affordable`` (the Wagon and the
    trophies can pay it now). Raises RuleError outside the Day Part."""
    return purchase_choices_of(state, catalog)


def holds_trophies(state: CampaignState, needs: Sequence[TrophyCost]) -> bool:
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
        return NextStep(part=state.part, step=state.part, title="Not the Day Part",
                        sentence=sentence)
    day = day_of(state)
    step = day.step
    title = STEP_TITLES[step]
    base = {"part": "day", "step": step, "title": title}
    if step == "recovery":
        return NextStep(**base, sentence="Recovery: Vigor tokens back to available (Bites stay "
                        "on them), Insanity cubes to the leftmost space.")
    if step == "purchases":
        return NextStep(
            **base, sentence="Spend the Wagon at the buildings, buy and upgrade cards, swap cards "
            "and Items; then choose the Zone.", choices=purchase_choices_of(state, cat),
            details={"wagon": state.wagon.as_dict(),
                     "location_trophies": dict(state.location_trophies),
                     "nemesis_trophies": dict(state.nemesis_trophies),
                     "bought": list(day.purchases)})
    if step == "zone":
        return NextStep(**base, sentence="Choose the Zone of the next night.",
                        choices=[{"id": z.id, "name": z.name} for z in cat.all("zones")])
    if step == "location":
        zone_rec = cat.get("zones", day.zone or "")
        zone = zone_rec.name if zone_rec is not None else day.zone or ""
        locs = [{"id": loc.id, "name": loc.name, "face": loc.choice}
                for loc in cat.locations_in(day.zone or "")]
        die = cat.config.location_die
        if day.cartographer:
            return NextStep(**base, sentence=f"Cartographer's Office: choose the Location card "
                            f"of {zone} (or roll for it).", choices=locs)
        return NextStep(**base, sentence=f"Roll the {die} die for the Location card of {zone}.",
                        choices=locs, details={"die": die})
    if step == "minions":
        minions = [{"id": mn.id, "name": mn.name, "type": mn.type} for mn in cat.all("minions")]
        if day.hunting_house:
            return NextStep(**base, sentence="Hunting House: choose four Minion cards; two of "
                            "them, at random, take spaces A and B.", choices=minions)
        return NextStep(**base, sentence="Reveal two Minion cards at random for spaces A and B.",
                        choices=minions)
    if step == "last_assault":
        avail = available_nemeses(state, cat)
        return NextStep(**base, sentence="Last Assault: do the players face Vlad tonight?"
                        + ("" if avail else " Every lieutenant is defeated: only Vlad is left."),
                        choices=[{"id": "yes"}, {"id": "no"}] if avail else [{"id": "yes"}],
                        details={"vlad_weakened": len(state.vlad_weakened)})
    if step == "nemesis":
        nems = [{"id": n, "name": getattr(cat.nemesis(n), "name", n)}
                for n in available_nemeses(state, cat)]
        if day.asylum:
            return NextStep(**base, sentence="Asylum: choose the Nemesis.", choices=nems)
        return NextStep(**base, sentence="Reveal the Nemesis at random from the available ones.",
                        choices=nems)
    if step == "dusk_difficulty":
        loc = cat.get("locations", day.location or "")
        return NextStep(
            **base, sentence="Lay out the Map as the Location card shows; the app has the "
            "Reaction deck and shuffles it. Choose the Difficulty Level.",
            choices=difficulty_levels(state, cat),
            details={"location": day.location, "location_name": loc.name if loc else None,
                     "map": list(loc.map) if loc else [], "nemesis": day.nemesis,
                     "minions": {"A": day.minions[0], "B": day.minions[1]} if day.minions else {}})
    if step == "dusk_events":
        n = influence(state, cat)
        loc = cat.get("locations", day.location or "")
        zone = loc.zone if loc else ""
        return NextStep(**base, sentence=f"Place {n} Event card(s) on the Chain from the left.",
                        choices=[{"id": e.id, "name": e.name} for e in cat.events_in(zone)],
                        details={"influence": n})
    if step == "equipping":
        waiting = [t.trouper for i, t in enumerate(state.troupers)
                   if len(day.equipped.get(i, {})) != len(ITEM_CATEGORIES)]
        choices = []
        for i, t in enumerate(state.troupers):
            by_cat: dict[str, list[str]] = {c: [] for c in ITEM_CATEGORIES}
            for s in t.sleeves:
                item = cat.item(s.item)
                if item is not None:
                    by_cat[item.category].append(s.item + ("+" if s.advanced else ""))
            choices.append({"trouper": t.trouper, "sleeves": by_cat,
                            "equipped": day.equipped.get(i, {})})
        if waiting:
            sentence = "Equipping: optional swaps, then each Trouper equips three Items, one per "
            sentence += "category. Still to equip: " + ", ".join(
                r.name if (r := cat.trouper(w)) is not None else w for w in waiting) + "."
        else:
            sentence = "Everyone is equipped: end the Day and set up the night."
        return NextStep(**base, sentence=sentence, choices=choices, details={"waiting": waiting})
    return NextStep(**base, sentence="The Day Part is over.")


def day_board(state: CampaignState, catalog: Catalog) -> DayBoard:
    """The Day Part as the board shows it (engine/board_view.py): the step, the Wagon and the
    trophies, what was bought and what is affordable now, tonight's choices so far and each
    Trouper's deck, Reserve and Items, all named."""
    day = day_of(state)
    troupers: list[DayTrouper] = []
    for i, t in enumerate(state.troupers):
        equipped = dict(day.equipped.get(i, {}))
        troupers.append({
            "seat": t.seat + 1, "trouper": t.trouper, "name": trouper_name(catalog, t.trouper),
            "colour": t.colour, "leader": i == state.leader, "bites": t.bites,
            "insanity": t.insanity, "deck": len(t.deck),
            "reserve_cards": list(t.reserve_cards), "reserve_items": list(t.reserve_items),
            "sleeves": [s.item + ("+" if s.advanced else "") for s in t.sleeves],
            "equipped": equipped,
            # what players read (issue 17: names, not ids)
            "reserve_names": [_name(catalog, c) for c in [*t.reserve_cards, *t.reserve_items]],
            "equipped_names": [_name(catalog, c) for c in equipped.values()],
        })
    buying = purchases_open(state)
    choices = purchase_choices(state, catalog) if buying else []
    return {
        "step": day.step,
        "title": STEP_TITLES[day.step],
        "wagon": state.wagon.as_dict(),
        "location_trophies": dict(state.location_trophies),
        "nemesis_trophies": dict(state.nemesis_trophies),
        "bought": list(day.purchases),
        "bought_names": [_name(catalog, c) for c in day.purchases],
        "affordable": [c for c in choices if c.get("affordable")],
        "purchases_open": buying,
        "selection": {"zone": day.zone, "location": day.location, "minions": list(day.minions),
                      "nemesis": day.nemesis, "difficulty": day.difficulty,
                      "events": list(day.events)},
        "selection_names": {
            "zone": _name(catalog, day.zone), "location": _name(catalog, day.location),
            "minions": [_name(catalog, mn) for mn in day.minions],
            "nemesis": _name(catalog, day.nemesis),
            "events": [_name(catalog, e) for e in day.events],
        },
        "troupers": troupers,
    }


def _name(catalog: Catalog, cid: str | None) -> str:
    """A card's (or Zone's) name as printed; an Item on the side it shows ("+": advanced)."""
    if not cid:
        return ""
    item = catalog.item(cid.rstrip("+"))
    if item is not None:
        side = item.advanced if cid.endswith("+") and item.advanced is not None else item.starting
        return str(side.name)
    return record_name(catalog, cid)
