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
from blood_companion.engine.night import SetupNight  # noqa: E402
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
        """Enter, or where only the table answers (no default: issue 26) what it says here:
        every Trouper named stands in range, closest or farthest; the Leader (or the owner)
        picks the first candidate, as Enter did before."""
        screen = self.screen()
        if leader_asks(self.walk):
            return "1"
        if screen.default is not None or "Look at the Map: type a name" not in screen.question:
            return ""
        if any(c.key == "a" for c in screen.choices):
            return "all"
        return "1"  # one candidate: that one

    def enter_until(self, done: Any, limit: int = 300) -> None:
        """Enter (the default) until ``done(state)`` holds."""
        for _ in range(limit):
            if done(self.state):
                return
            result = self.type("")
            assert not isinstance(result, Again), result
        raise AssertionError("never got there")


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
