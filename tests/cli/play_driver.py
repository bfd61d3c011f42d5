"""`blood play`'s menus without a terminal: answers typed into the walker (cli/play_menu.py),
each finished answer applied with the engine, as `blood play` records it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from night_bot import Table  # noqa: E402

from blood_companion.cli.play_menu import Again, Confirm, Done, Screen, Walk  # noqa: E402
from blood_companion.engine import bookkeeping as fx  # noqa: E402
from blood_companion.engine.actions import Action  # noqa: E402
from blood_companion.engine.campaign import Seat, StartCampaign  # noqa: E402
from blood_companion.engine.night import (  # noqa: E402
    FinishActivation,
    PassCascade,
    PlayCard,
    Rest,
    SetupNight,
)
from blood_companion.engine.state import CampaignState  # noqa: E402


class Driver:
    """A table playing through the walker: :meth:`type` answers the question shown."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.walk = Walk.start(table.state, table.catalog, len(table.log))
        self.recorded: list[Action] = []
        self.messages: list[str] = []

    @property
    def state(self) -> CampaignState:
        return self.table.state

    def screen(self) -> Screen:
        return self.walk.screen()

    def restart(self) -> None:
        self.walk = Walk.start(self.table.state, self.table.catalog, len(self.table.log))

    def type(self, *answers: str, confirmed: bool = False, literal: bool = False) -> Any:
        """Each answer typed in turn. Enter ("") where only the Map answers (no default,
        issue 26) stands for what the table says there (:meth:`table_says`) unless
        ``literal``."""
        result: Any = None
        for text in answers:
            if text == "" and not literal:
                text = self.table_says()
            result = self.walk.answer(text, confirmed=confirmed)
            if isinstance(result, Walk):
                self.walk = result
            elif isinstance(result, Done):
                self.table.do(result.action)
                self.recorded.append(result.action)
                self.restart()
            elif isinstance(result, (Again, Confirm)):
                self.messages.append(result.message)
        return result

    def table_says(self) -> str:
        """What the table types here for Enter (:func:`table_says`)."""
        return table_says(self.walk)

    def enter_until(self, done: Any, limit: int = 300) -> None:
        """Enter (the default) until ``done(state)`` holds."""
        for _ in range(limit):
            if done(self.state):
                return
            result = self.type("")
            assert not isinstance(result, Again), result
        raise AssertionError("never got there")

    def enter_until_recorded(self) -> None:
        """Enter (the default) until an answer is recorded."""
        while not self.recorded:
            self.type("")


def table_says(walk: Walk) -> str:
    """Enter, or where only the table answers (no default: issues 26 and 39) what it says
    here: every Trouper named stands in range, closest or farthest; the Leader (or the owner)
    picks the first candidate; a Condition or a position only the Map shows holds; an attack
    limited by a Distance takes the first target: as Enter did before."""
    screen = walk.screen()
    if leader_asks(walk):
        return "1"
    if screen.default is None and (screen.need == "confirm" or (
            screen.need is None and walk.draw is None
            and {c.key for c in screen.choices} == {"y", "n"})):
        return "y"
    if screen.default is None and screen.need == "target":
        return next(c.key for c in screen.choices if c.enabled)
    if screen.default is not None or "Look at the Map: type a name" not in screen.question:
        return ""
    if any(c.key == "a" for c in screen.choices):
        return "all"
    return "1"  # one candidate: that one


def leader_asks(walk: Walk) -> bool:
    """The top menu shows a free choice among several tied Troupers (a ``leader`` question:
    the Leader's Rule, or a timed Effect's owner choosing), which has no Enter default."""
    night = walk.state.night
    return (walk.asked is None and walk.screen().default is None and night is not None
            and bool(night.pending) and night.pending[0].kind == "leader")


def night_table(
    catalog: Any, troupers: list[str], *, seed: int = 1, nemesis: str = "lucilla",
    location: str | None = None, minions: list[str] | None = None,
    events: list[str] | None = None, difficulty: int = 1,
) -> Table:
    """A Single Game night set up and begun, waiting in the Planning Phase of Game Turn 1
    (the Enemy's questions before it answered with the defaults)."""
    table = Table(catalog, CampaignState())
    table.do(StartCampaign(name="t", mode="single", seed=seed,
                           seats=[Seat(trouper=t) for t in troupers]))
    loc = location or catalog.locations_in("catacombs")[0].id
    mins = minions or [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis=nemesis, location=loc, minions=mins, difficulty=difficulty,
                        events=events))
    drv = Driver(table)
    drv.enter_until(lambda s: s.night.phase == "planning" and not s.night.pending)
    return table


def set_trouper(table: Table, who: str, **update: Any) -> None:
    i = table.state.trouper_index(who)
    table.state = fx.with_trouper(table.state, i, **update)


def set_night(table: Table, **update: Any) -> None:
    table.state = fx.with_night(table.state, **update)


def first_tactic(catalog: Any, trouper: str, test: Any) -> str:
    """The first of the Trouper's Starting Tactic cards that passes ``test``."""
    return next(c.id for c in catalog.starting_tactics_for(trouper) if test(c))


def plain_attack(card: Any) -> bool:
    """A card whose first Effect is a Standard Physical Attack with no Cost (no Cascade)."""
    return any(o.kind == "physical_attack" for o in card.effects[0].outcome) and not \
        card.effects[0].cost and card.effects[0].type == "standard" and not card.cascade


def tactic_with(table: Any, plays: list[tuple[str, str]], rests: list[tuple[str, str]] = ()
                 ) -> None:
    """Planning Phase: the cards played (and Rests) in order, then everyone passes; the
    Tactic Phase begins with the first card Active."""
    for who, card in plays:
        hand = list(table.state.troupers[table.state.trouper_index(who)].hand)
        if card not in hand:
            set_trouper(table, who, hand=[card, *hand[:4]])
        place(table, who, PlayCard(trouper=who, card=card))
    for who, card in rests:
        place(table, who, Rest(trouper=who, card=card))
    finish_planning(table)


def place(table: Any, who: str, action: Any) -> None:
    night = table.state.night
    player = table.state.troupers[night.to_play].trouper
    if player != who:  # the other Trouper's turn: they Rest (a card that ends nothing)
        other = table.state.troupers[night.to_play]
        if not other.rested_this_turn:
            table.do(Rest(trouper=player, card=other.hand[-1]))
        else:
            card = next(c for c in other.hand if not catalog_block(table, c))
            table.do(PlayCard(trouper=player, card=card))
        if table.state.night.cascade:
            table.do(PassCascade(trouper=player))
        Driver(table).enter_until(lambda s: not s.night.pending)
    table.do(action)
    if table.state.night.cascade:
        table.do(PassCascade(trouper=who))
    Driver(table).enter_until(lambda s: not s.night.pending)


def catalog_block(table: Any, card: str) -> bool:
    rec = table.catalog.tactic(card)
    return rec is not None and (rec.block or rec.cascade)


def finish_planning(table: Any) -> None:
    """The others fill the Chain (Rests first, so nobody runs out of cards)."""
    for _ in range(20):
        night = table.state.night
        if night.phase != "planning" or night.pending:
            break
        who = table.state.troupers[night.to_play]
        if night.cascade:
            table.do(PassCascade(trouper=who.trouper))
        elif not who.rested_this_turn and len(who.hand) > 1:
            table.do(Rest(trouper=who.trouper, card=who.hand[-1]))
        else:
            table.do(PlayCard(trouper=who.trouper, card=who.hand[-1]))
        Driver(table).enter_until(lambda s: not s.night.pending)


def activate(table: Table, card: str | None = None, owner: int | None = None) -> None:
    """The Tactic Phase: finish activations until ``card`` (or Trouper ``owner``'s card) is
    the Active one."""
    while True:
        night = table.state.night
        slot = night.chain[night.activation.slot]
        if slot.card == card if owner is None else slot.owner == owner:
            return
        table.do(FinishActivation())


def draw(table: Table, who: str, n: int) -> None:
    """Trouper ``who`` draws ``n`` cards from the draw pile into the hand."""
    t = table.state.troupers[table.state.trouper_index(who)]
    set_trouper(table, who, hand=[*t.hand, *t.draw_pile[:n]], draw_pile=t.draw_pile[n:])
