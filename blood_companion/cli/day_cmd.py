"""`blood day ...`: the Day Part's Show and Dusk, one recorded action per command (the rules:
``engine/day/``); every step says what comes next (``day_next``)."""

from __future__ import annotations

from typing import Any

from blood_companion.cli import common, render, session
from blood_companion.cli.common import (
    CARD,
    add_recorder,
    command_group,
    declare_command,
    print_json,
    resource,
    stdout,
)
from blood_companion.cli.flags import DRAW, JSON
from blood_companion.cli.render import levels_table, print_view, width
from blood_companion.cli.view_docs import day_next_doc
from blood_companion.display import Styled, styled
from blood_companion.engine import day as d
from blood_companion.engine.actions import Action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table
from blood_companion.engine.words import counted_all, drawn_lines, record_name
from blood_companion.errors import UsageError


def parse_counts(text: str, option: str) -> dict[str, int]:
    """``a=2,b=1`` -> {"a": 2, "b": 1}; a bare name counts 1. Raises UsageError."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, eq, value = part.partition("=")
        try:
            n = int(value) if eq else 1
        except ValueError:
            raise UsageError(f"{option}: {part!r} is not NAME=NUMBER",
                             hint=f"e.g. {option} coins=2,jewels=1") from None
        out[name.strip()] = out.get(name.strip(), 0) + n
    return out


def parse_pay(text: str | None) -> dict[str, int] | None:
    if text is None:
        return None
    pay: dict[str, int] = {}
    for name, n in parse_counts(text, "--pay").items():
        r = resource(name)
        pay[r] = pay.get(r, 0) + n
    return pay


def _prepare(store: Any, action: Action, as_json: bool) -> Action:
    """The card their own die gave them, when the Location deck is at the table; the
    Difficulty Levels shown before one is chosen."""
    before = store.state
    if isinstance(action, d.ChooseLocation) and at_table(before, "locations") and not (
            before.day and before.day.cartographer):
        action = d.RollLocation(drawn={"locations": [action.location]})
    if isinstance(action, d.ChooseDifficulty) and not as_json and before.day and \
            before.day.step == "dusk_difficulty":
        print_view(levels_table(d.difficulty_levels(before, store.catalog), width()))
    return action


def _doc(step: session.Step) -> dict[str, Any]:
    state, store, action = step.after, step.store, step.action
    extra = {}
    if isinstance(action, d.BuyAdvancedTactic):  # the card on top, before the step
        extra["card"] = next(iter(step.before.advanced_decks.get(action.art) or []), None)
    return {
        "action": action.model_dump(mode="json"),
        "done": step.done(),
        **extra,
        "part": state.part,
        "phase": state.phase,
        "day": state.day.model_dump(mode="json") if state.day else None,
        "wagon": state.wagon.as_dict(),
        "location_trophies": state.location_trophies,
        "nemesis_trophies": state.nemesis_trophies,
        "next": day_next_doc(state, step.catalog, names=False),
        "log_length": store.log_length,
        "state_hash": store.state_hash,
        "instructions": step.told(),
    }


def _show(step: session.Step) -> None:
    """What the step did and revealed, what the table moves, and what comes next."""
    stdout.print(styled(step.done(), style="green"))
    found = drawn_lines(step.before, step.after, step.catalog)
    for line in found:
        stdout.print(line, highlight=False, markup=False)
    if not found:
        _print_result(step.action, step.after, step.catalog)
    step.tell()
    nxt = day_next_doc(step.after, step.catalog, names=False)
    stdout.print(Styled(("Next: ", "bold"), nxt["sentence"]))
    for cmd in nxt["commands"][:1]:
        stdout.print(styled("  " + cmd, style="cyan"))


# Open the campaign, build the action (from the store: its state before the step and the
# catalog), record it, print what it revealed and what comes next.
_record = session.recorder(_doc, _show, prepare=_prepare)


def _print_result(action: Action, state: CampaignState, cat: Any) -> None:
    """The one or two facts the action revealed (a die, the cards drawn, the night)."""
    day = state.day
    if day is None:
        return
    if action.type == "day_end" and state.night is not None:
        n = state.night
        stdout.print(f"The night is ready: {record_name(cat, n.nemesis)} at "
                     f"{record_name(cat, n.location)}, Difficulty {n.difficulty}.")
    elif action.type in ("day_roll_location", "day_choose_location") and day.location:
        roll = f" (die: {day.location_roll})" if day.location_roll else ""
        stdout.print(f"Location card: {record_name(cat, day.location)}{roll}")
    elif action.type in ("day_draw_minions", "day_choose_minions") and day.minions:
        stdout.print(f"Minion A: {day.minions[0]}   Minion B: {day.minions[1]}")
    elif action.type in ("day_draw_nemesis", "day_choose_nemesis", "day_last_assault") and \
            day.nemesis:
        stdout.print(f"Nemesis: {record_name(cat, day.nemesis)}")
    elif action.type == "day_place_events":
        stdout.print("Events on the Chain: " + (", ".join(day.events) or "none"))
    elif day.step == "purchases":
        stdout.print("Wagon: " + counted_all(state.wagon.as_dict(), zeros=True))


def _sleeved(store: Any, trouper: str, text: str) -> str:
    t = store.state.troupers[store.state.trouper_index(trouper)]
    cands = [(s.item, getattr(store.catalog.item(s.item), "name", s.item)) for s in t.sleeves]
    return d.match_id(text, cands, f"Item in {t.trouper}'s sleeves")


def _give(text: str, values: dict[str, Any]) -> str:
    """``--give scrolls=2``: the Resource given (and its ``amount``)."""
    counts = parse_counts(text, "--give")
    if len(counts) != 1:
        raise UsageError("--give names one Resource, e.g. --give scrolls=2")
    name, values["amount"] = next(iter(counts.items()))
    return resource(name)


def _named(ids: list[str], find: Any) -> list[tuple[str, str]]:
    return [(c, getattr(find(c), "name", c)) for c in ids]


def _offer(store: Any, word: str) -> str:
    st, cat = store.state, store.catalog
    offer = [(c, getattr(cat.tactic(c) or cat.item(c), "name", c)) for c in st.training]
    offer += _named(st.crafting, cat.item)
    return d.match_id(word, offer, "Location/Nemesis card on the Village Card")


def _location(store: Any, card: str) -> str:
    day = store.state.day
    zone_id = day.zone if day is not None and day.zone else ""
    locs = [(x.id, x.name) for x in store.catalog.locations_in(zone_id)]
    return d.match_id(card, locs, f"Location card of {zone_id or 'the Zone'}")


def _held(store: Any, values: dict[str, Any], where: str) -> Any:
    t = store.state.troupers[store.state.trouper_index(values["trouper"])]
    cat = store.catalog
    if where == "deck":
        return _named(t.deck, cat.tactic), f"card in {t.trouper}'s deck"
    if where == "reserve":
        return _named(t.reserve_cards, cat.tactic), f"card in {t.trouper}'s Reserve"
    return _named(t.reserve_items, cat.item), f"Item in {t.trouper}'s Reserve"


# Words a day command's fields name, found from the store before the step (engine/actions.py
# ``Cli``).
RESOLVE: dict[str, Any] = {
    **common.RESOLVE,
    "building": lambda store, w, _: d.building_for(store.catalog, w).id,
    "pay": lambda store, w, _: parse_pay(w),
    "trophies": lambda store, w, _: parse_counts(w, "--trophies"),
    "give": lambda store, w, values: _give(w, values),
    "art": lambda store, w, _: d.match_id(w, [(a, a) for a in store.state.advanced_decks],
                                          "Art"),
    "offer": lambda store, w, _: _offer(store, w),
    "sleeved": lambda store, w, values: ([_sleeved(store, values["trouper"], x) for x in w]
                                         if isinstance(w, list)
                                         else _sleeved(store, values["trouper"], w)),
    "deck": lambda store, w, values: d.match_id(w, *_held(store, values, "deck")),
    "reserve": lambda store, w, values: d.match_id(w, *_held(store, values, "reserve")),
    "reserve_item": lambda store, w, values: d.match_id(w, *_held(store, values, "item")),
    "zone": lambda store, w, _: d.match_id(
        w, [(z.id, z.name) for z in store.catalog.all("zones")], "Zone"),
    "location": lambda store, w, _: _location(store, w),
    "minions": lambda store, w, _: [d.match_id(
        x, [(m.id, m.name) for m in store.catalog.all("minions")], "Minion card") for x in w],
    "nemesis": lambda store, w, _: d.match_id(
        w, [(n.id, n.name) for n in store.catalog.all("nemeses")], "Nemesis"),
}


def _levels(as_json: bool) -> None:
    """``day difficulty`` without a level: what each Difficulty Level means."""
    with session.open_session() as store:
        levels = d.difficulty_levels(store.state, store.catalog)
        step = store.state.day.step if store.state.day else None
    if step != "dusk_difficulty" and not levels:
        raise RuleError("the Difficulty Level is chosen once the Nemesis is known")
    if as_json:
        print_json({"levels": levels})
    else:
        print_view(levels_table(levels, width()))


day_app, register = command_group("day")


@declare_command(day_app, "next", JSON)
def next_(as_json: bool = False) -> None:
    """What the table does next, with the legal choices."""
    session.view(lambda store: day_next_doc(store.state, store.catalog), render.day_next,
                 as_json)


# The recorded steps, in the order `blood day --help` lists them (after `next`); a pair is one
# command, for the card chosen or drawn.
for _cls in (d.Recover, d.BuyBuilding, d.BuyAdvancedTactic, d.BuySpecialCard, d.UpgradeItem,
             d.SwapTactic, d.SwapItem, d.ChooseZone, (d.ChooseLocation, d.RollLocation),
             (d.ChooseMinions, d.DrawMinions), d.LastAssault, (d.ChooseNemesis, d.DrawNemesis),
             d.ChooseDifficulty, d.PlaceEvents, d.Equip, d.EndDay):
    add_recorder(day_app, _cls, _record, RESOLVE,
                 CARD if _cls is d.BuyAdvancedTactic else DRAW if isinstance(_cls, tuple) else None,
                 _levels if _cls is d.ChooseDifficulty else None)
