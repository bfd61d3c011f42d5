"""Issue 26, "No default asserts a fact only the table knows": a question only the Map answers
(which Troupers are in range, closest, farthest) has no Enter default, names every Trouper,
spells out `all` and `none`, and takes a Trouper by name; Enter after "Several of them" records
nothing either."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from night_bot import Table  # noqa: E402
from play_driver import Driver  # noqa: E402

from blood_companion.cli.play_menu import Again, Done  # noqa: E402
from blood_companion.engine import legal  # noqa: E402
from blood_companion.engine.campaign import Seat, StartCampaign  # noqa: E402
from blood_companion.engine.night import SetupNight  # noqa: E402
from blood_companion.engine.state import CampaignState  # noqa: E402

MAP = ("in_range", "closest", "farthest")


def _begun(catalog: Any, troupers: list[str], seed: int) -> Table:
    table = Table(catalog, CampaignState())
    table.do(StartCampaign(name="t", mode="single", seed=seed,
                           seats=[Seat(trouper=t) for t in troupers]))
    table.do(SetupNight(nemesis="lucilla", location=catalog.locations_in("catacombs")[0].id,
                        minions=[m.id for m in catalog.all("minions")[:2]], difficulty=1))
    return table


def _to_map_question(table: Table, limit: int = 400) -> Driver:
    """Enter until a question only the Map answers is asked."""
    drv = Driver(table)
    for _ in range(limit):
        night = table.state.night
        if night is not None and night.pending and night.pending[0].kind in MAP:
            return drv
        drv.type("", literal=True)
    raise AssertionError("no Map question came")


def test_a_map_question_has_no_default_and_spells_all_and_none(catalog: Any) -> None:
    seen = 0
    for seed in range(1, 9):
        table = _begun(catalog, ["aurel", "ioana", "zora"], seed)
        try:
            drv = _to_map_question(table, 150)
        except AssertionError:
            continue
        seen += 1
        q = table.state.night.pending[0]
        nxt = legal.next_view(table.state, catalog)
        assert nxt.default is None
        screen = drv.screen()
        assert screen.default is None and "Look at the Map" in screen.question
        assert "`all`" in screen.question
        assert ("`none`" in screen.question) == (q.kind == "in_range")
        names = {c.label for c in screen.choices}
        assert {"Aurel, the Thread-Walker", "Ioana of the Seven Veils"} <= names
        before = table.state
        assert isinstance(drv.walk.answer(""), Again)  # Enter says nothing here
        assert table.state == before
    assert seen >= 3


def test_a_trouper_is_named_at_a_map_question(catalog: Any) -> None:
    for seed in range(1, 9):
        table = _begun(catalog, ["aurel", "ioana", "zora"], seed)
        try:
            drv = _to_map_question(table, 150)
        except AssertionError:
            continue
        cands = [table.state.troupers[i].trouper for i in table.state.night.pending[0].candidates]
        if "ioana" not in cands:
            continue
        result = drv.walk.answer("ioana")
        assert isinstance(result, Done)
        assert result.action.troupers == ["ioana"]
        if len(cands) > 2:
            several = drv.walk.answer("s")
            assert not isinstance(several, (Done, Again))
            assert isinstance(several.answer(""), Again)  # not "nobody"
            done = several.answer("ioana zora" if "zora" in cands else "ioana")
            assert isinstance(done, Done) and "ioana" in done.action.troupers
        return
    raise AssertionError("no Map question with Ioana among the candidates")


def test_all_and_none_are_answers_at_a_map_question(catalog: Any) -> None:
    for seed in range(1, 9):
        table = _begun(catalog, ["aurel", "ioana"], seed)
        try:
            drv = _to_map_question(table, 150)
        except AssertionError:
            continue
        q = table.state.night.pending[0]
        cands = [table.state.troupers[i].trouper for i in q.candidates]
        result = drv.walk.answer("all")
        assert isinstance(result, Done) and result.action.troupers == cands
        if q.kind == "in_range":
            result = drv.walk.answer("none")
            assert isinstance(result, Done) and result.action.troupers == []
        return
    raise AssertionError("no Map question came")
