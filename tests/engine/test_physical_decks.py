"""Issue 39, Build 1: the physical instructions are right whoever holds the decks.

The model of the physical board (tests/engine/test_physical.py: ``PhysicalBoard``) is moved
only by the instructions each step prints (engine/physical.py), in the three deck modes: the
app holds every deck, the players hold every deck (hidden hands, decks shuffled at the table,
every draw named), and mixed. After every step of random nights and of whole campaigns (a Day,
a Night, the End of the Night, the next Day), the model equals the app's board, hidden hands
included (as many cards, and every card the model names is one the app holds there), and no
line sends a Trouper's card back to the box: the rules never take one out of the game.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from night_bot import TROUPERS, Table, step  # noqa: E402
from play_driver import Driver  # noqa: E402
from test_physical import PhysicalBoard, check_same, clean, told, wrong_box_lines  # noqa: E402

from blood_companion.cli.play_menu import Again  # noqa: E402
from blood_companion.engine import bookkeeping as fx  # noqa: E402
from blood_companion.engine import physical as ph  # noqa: E402
from blood_companion.engine.actions import Action  # noqa: E402
from blood_companion.engine.campaign import Seat, StartCampaign  # noqa: E402
from blood_companion.engine.chance import BloodRandom, Chance  # noqa: E402
from blood_companion.engine.night import PlayCard, SetupNight  # noqa: E402
from blood_companion.engine.state import CampaignState  # noqa: E402
from blood_companion.engine.table import DECKS, UNKNOWN, DrawNeeded, unseen  # noqa: E402

MODES: dict[str, dict[str, str]] = {
    "app": {},
    "table": dict.fromkeys(DECKS, "table"),
    # the players hold their Trouper decks and the Event cards, the app the Nemesis's
    "mixed": {"troupers": "table", "events": "table", "minions": "table"},
    # the app deals the Trouper decks, the players hold the Nemesis's and the Day's cards
    "mixed-nemesis": {d: "table" for d in DECKS if d != "troupers"},
}


class NamingTable(Table):
    """A table holding real cards: it names each card a step draws from a deck it holds, and
    the card it plays, Rests or discards out of a hand the app cannot see."""

    def do(self, action: Action) -> CampaignState:
        action = self._name_hidden(action)
        for _ in range(60):
            try:
                return super().do(action)
            except DrawNeeded as need:
                drawn = {k: list(v) for k, v in action.drawn.items()}
                taken = drawn.setdefault(need.deck, [])
                free = [c for c in need.candidates if c not in taken] or need.candidates
                taken.append(self.rng.choice(free))
                action = action.model_copy(update={"drawn": drawn})
        raise AssertionError("a step drew more cards than the table could name")

    def _name_hidden(self, action: Action) -> Action:
        update: dict[str, Any] = {}
        for key in ("card", "cards", "discard"):
            value = getattr(action, key, None)
            cards = [value] if isinstance(value, str) else value
            if not isinstance(cards, list) or UNKNOWN not in cards:
                continue
            i = self._owner(action)
            could = [c for c in unseen(self.state, i) if c not in cards]
            self.rng.shuffle(could)
            named = [c if c != UNKNOWN else could.pop() for c in cards]
            update[key] = named[0] if isinstance(value, str) else named
        return action.model_copy(update=update) if update else action

    def _owner(self, action: Action) -> int:
        who = getattr(action, "trouper", None)
        if isinstance(who, str):
            return self.state.trouper_index(who)
        night = self.state.night
        assert night is not None
        if night.pending and night.pending[0].trouper is not None:
            return night.pending[0].trouper
        assert night.activation is not None
        owner = night.chain[night.activation.slot].owner
        assert owner is not None
        return owner


class Follower:
    """The physical board beside the app: after each step, the step's instructions move the
    model, which must then hold what the app holds."""

    def __init__(self, catalog: Any) -> None:
        self.catalog = catalog
        self.board = PhysicalBoard()
        self.before = CampaignState()
        self.lines = 0
        self.wrong_box: list[str] = []

    def follow(self, after: CampaignState) -> None:
        items = ph.instructions(self.before, after, self.catalog)
        told(self.before, after, items)
        clean(items)
        self.wrong_box += wrong_box_lines(self.before, after, items, self.catalog)
        for i in items:
            self.board.apply(i)
        check_same(self.board, after, self.catalog)
        self.lines += len(items)
        self.before = after


def _start(table: NamingTable, decks: dict[str, str], players: int, seed: int,
           mode: str = "single") -> None:
    table.do(StartCampaign(name="t", mode=mode, seed=seed,  # type: ignore[arg-type]
                           seats=[Seat(trouper=t) for t in TROUPERS[:players]],
                           decks=decks))  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize(("players", "nemesis", "seed"),
                         [(2, "lucilla", 3), (3, "corvin", 11), (4, "vlad", 5)])
def test_a_random_night_is_followed_by_the_instructions_in_every_deck_mode(
    catalog: Any, mode: str, players: int, nemesis: str, seed: int
) -> None:
    table = NamingTable(catalog, CampaignState(), rng=random.Random(seed))
    follower = Follower(catalog)
    _start(table, MODES[mode], players, seed)
    follower.follow(table.state)
    loc = catalog.locations_in("graveyard")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis=nemesis, location=loc, minions=mins,
                        difficulty=1 if nemesis == "lucilla" else 2))
    follower.follow(table.state)
    for _ in range(3000):
        if table.night.phase == "over":
            break
        step(table)
        follower.follow(table.state)
    assert table.night.phase == "over"
    assert follower.lines > 100
    assert follower.wrong_box == [], follower.wrong_box


def answer(drv: Driver) -> None:
    """Enter; where the menu has no default (the card the table drew, a free choice), the
    first options it asks for; the faces of dice the table rolls: a Triumph each."""
    dice = re.match(r"The faces of your dice \((.*)\)", drv.screen().question)
    if dice:
        n = sum(int(k or 1) for k, _ in re.findall(r"(\d*)([RGB])", dice.group(1)))
        drv.type(" ".join(["1"] * n))
        return
    result = drv.type("")
    if isinstance(result, Again):
        wanted = re.search(r"type (\d+) of the numbers", result.message)
        n = int(wanted.group(1)) if wanted else 1
        drv.type(" ".join(str(k) for k in range(1, n + 1)))


@pytest.mark.parametrize("mode", list(MODES))
def test_a_whole_campaign_through_blood_play_is_followed_in_every_deck_mode(
    catalog: Any, mode: str
) -> None:
    """A Roguelite campaign through `blood play`'s menus (every default taken; the table
    names what it draws): the Day, the Night, the End of the Night and the next Day."""
    table = NamingTable(catalog, CampaignState(), rng=random.Random(7))
    follower = Follower(catalog)
    _start(table, MODES[mode], 2, 7, mode="roguelite")
    follower.follow(table.state)
    parts = _play_through(table, follower, lambda s: s.game >= 2 and s.part == "night")
    assert table.state.game >= 2 and {"day", "night", "end"} <= parts, parts
    assert follower.wrong_box == [], follower.wrong_box


@pytest.mark.parametrize("mode", list(MODES))
def test_a_single_game_through_blood_play_is_followed_in_every_deck_mode(
    catalog: Any, mode: str
) -> None:
    """A Single Game night of three Troupers to its end, through `blood play`'s menus."""
    table = NamingTable(catalog, CampaignState(), rng=random.Random(5))
    follower = Follower(catalog)
    _start(table, MODES[mode], 3, 5)
    follower.follow(table.state)
    loc = catalog.locations_in("garden")[0].id
    mins = [m.id for m in catalog.all("minions")[2:4]]
    table.do(SetupNight(nemesis="saskia", location=loc, minions=mins, difficulty=1))
    follower.follow(table.state)
    _play_through(table, follower, lambda s: s.part == "over")
    assert table.state.part == "over" and follower.lines > 150
    assert follower.wrong_box == [], follower.wrong_box


def _play_through(table: NamingTable, follower: Follower, done: Any) -> set[str]:
    drv = Driver(table)
    parts: set[str] = set()
    for _ in range(3000):
        if done(table.state):
            break
        before = len(table.log)
        answer(drv)
        if len(table.log) > before:
            follower.follow(table.state)
            parts.add(table.state.part)
    assert done(table.state)
    return parts


# --------------------------------------------------------------------------- the sentences


def _table_night(catalog: Any) -> NamingTable:
    """A Single Game night with every deck at the table, waiting for the first card."""
    table = NamingTable(catalog, CampaignState(), rng=random.Random(3))
    _start(table, MODES["table"], 2, 3)
    loc = catalog.locations_in("graveyard")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1))
    while table.night.phase != "planning" or table.night.pending:
        step(table)
    return table


def _moves(before: CampaignState, after: CampaignState, catalog: Any) -> list[str]:
    return [i.text for i in ph.instructions(before, after, catalog)
            if i.component in ("cards", "shuffle")]


def _chance() -> Chance:
    return Chance(BloodRandom(1, 0))


def test_the_beginning_of_the_night_shuffles_the_deck_then_deals_from_it(catalog: Any) -> None:
    table = NamingTable(catalog, CampaignState(), rng=random.Random(3))
    _start(table, MODES["table"], 1, 3)
    before = table.state
    loc = catalog.locations_in("graveyard")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1))
    moves = [m for m in _moves(before, table.state, catalog) if "Aurel" in m]
    assert moves == ["Shuffle Aurel's deck", "5 cards: Aurel's deck → Aurel's hand"]


def test_a_card_played_from_a_hidden_hand_comes_from_the_hand(catalog: Any) -> None:
    table = _table_night(catalog)
    who = table.night.to_play
    assert who is not None
    t = table.state.troupers[who]
    before = table.state
    card = unseen(before, who)[0]
    table.do(PlayCard(trouper=t.trouper, card=card))
    name = ph.Ctx(before, table.state, catalog).card(card)
    owner = ph.Ctx(before, before, catalog).who(t.trouper)
    assert _moves(before, table.state, catalog) == [f"{name}: {owner}'s hand → Chain space 2"]


def test_a_hidden_wound_healed_by_name_goes_from_the_wounds_to_the_discard_pile(
    catalog: Any
) -> None:
    state = _table_night(catalog).state
    state = fx.wound_trouper(state, catalog, 0, _chance(), 2)
    assert state.troupers[0].wounds == [UNKNOWN, UNKNOWN]
    card = unseen(state, 0)[0]
    healed = fx.heal(state, catalog, 0, 1, [card])
    name = ph.Ctx(state, healed, catalog).card(card)
    assert _moves(state, healed, catalog) == [
        f"{name}: Aurel's Wounds space → Aurel's discard pile"]
    unnamed = fx.heal(state, catalog, 0, 1)  # the player picks one of the face-down cards
    assert _moves(state, unnamed, catalog) == [
        "a card: Aurel's Wounds space → Aurel's discard pile"]


def test_a_rest_discards_from_the_hand_then_draws_from_the_deck(catalog: Any) -> None:
    state = _table_night(catalog).state
    two = unseen(state, 0)[:2]
    after = fx.discard_cards(state, catalog, 0, two)
    after = fx.draw_cards(after, catalog, 0, 2, _chance())
    assert len(after.troupers[0].hand) == len(state.troupers[0].hand)
    names = ph.Ctx(state, after, catalog)
    assert _moves(state, after, catalog) == [
        f"{names.card(two[0])} and {names.card(two[1])}: Aurel's hand → Aurel's discard pile",
        "2 cards: Aurel's deck → Aurel's hand"]


def test_a_draw_from_an_empty_deck_shuffles_the_discard_pile_into_it_first(catalog: Any) -> None:
    state = _table_night(catalog).state
    t = state.troupers[0]
    known = unseen(state, 0)[:3]
    state = fx.with_trouper(state, 0, draw_pile=[UNKNOWN], discard=known,
                            hand=[UNKNOWN] * (len(t.deck) - 4))
    after = fx.draw_cards(state, catalog, 0, 2, _chance())
    ctx = ph.Ctx(state, after, catalog)
    assert _moves(state, after, catalog) == [
        ctx.card(known[0]) + ", " + ctx.card(known[1]) + " and " + ctx.card(known[2])
        + ": Aurel's discard pile → Aurel's deck",
        "Shuffle Aurel's deck", "2 cards: Aurel's deck → Aurel's hand"]
    board = PhysicalBoard()
    board.zones = {"Aurel's deck": Counter({"?": 1}), "Aurel's discard pile": Counter(
        ctx.card(c) for c in known)}
    for i in ph.instructions(state, after, catalog):
        board.apply(i)
    assert board.pile("Aurel's deck") == Counter({"?": 2})


def test_the_end_of_the_night_gathers_every_card_on_its_owners_deck(catalog: Any) -> None:
    table = _table_night(catalog)
    state = fx.wound_trouper(table.state, catalog, 0, _chance(), 1)
    gathered = state.model_copy(update={
        "troupers": [t.recovered() for t in state.troupers], "night": None, "part": "end"})
    moves = _moves(state, gathered, catalog)
    assert "5 cards: Aurel's hand → Aurel's deck" in moves
    assert "a card: Aurel's Wounds space → Aurel's deck" in moves
    assert not [m for m in moves if "back to the box" in m and ("Aurel" in m or "Ioana" in m)]


def test_a_reaction_deck_formed_again_at_the_table_is_shuffled_before_the_reveal(
    catalog: Any
) -> None:
    state = _table_night(catalog).state
    night = state.night
    assert night is not None
    state = fx.with_night(state, reaction_deck=[], reaction_discard=list(night.reaction_deck))
    chance = _chance()
    card = night.reaction_deck[0]
    chance.name_draws({"reactions": [card]})
    after = fx.reveal_reaction(state, catalog, chance)
    name = ph.Ctx(state, after, catalog).card(card)
    n = len(night.reaction_deck) - 1
    assert _moves(state, after, catalog) == [
        f"{n + 1} cards: the Nemesis discard pile → the Reaction deck",
        "Shuffle the Reaction deck", f"{name}: the Reaction deck → Reaction Line space 1"]
    board = PhysicalBoard()
    board.zones = {"the Nemesis discard pile": Counter(
        ph.Ctx(state, state, catalog).card(c) for c in night.reaction_deck)}
    for i in ph.instructions(state, after, catalog):
        board.apply(i)
    assert board.pile("Reaction Line space 1") == Counter([name])
    assert sum(board.pile("the Reaction deck").values()) == n
