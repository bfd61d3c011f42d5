"""Issue 26, "No default asserts a fact only the table knows": a question only the Map answers
(which Troupers are in range, closest, farthest) has no Enter default, names every Trouper,
spells out `all` and `none`, and takes a Trouper by name; Enter after "Several of them" records
nothing either. A Leader question (a free choice among tied Troupers) has no Enter default
either; with one candidate left nothing is asked."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from night_bot import Table, new_table  # noqa: E402
from play_driver import Driver  # noqa: E402

from blood_companion.cli.play_menu import Again, Done  # noqa: E402
from blood_companion.engine import bookkeeping as fx  # noqa: E402
from blood_companion.engine import legal, narrate, why  # noqa: E402
from blood_companion.engine.campaign import Seat, StartCampaign  # noqa: E402
from blood_companion.engine.night import AnswerQuestion, SetupNight  # noqa: E402
from blood_companion.engine.state import CampaignState, state_hash  # noqa: E402

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


# --------------------------------------------------------------------------- the Leader's choice


def _tied(catalog: Any, **wounds: int) -> Table:
    """Corvin's Cold Hands from Below (closest, a dodge Test) waits at its target question,
    Ioana holding the Leader token; ``wounds`` gives Troupers Wounds (a Target Priority)."""
    from test_rule_enemy_queue import COLD, nemesis_phase_next

    from blood_companion.engine.night import NextPhase

    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = table.state.model_copy(update={"leader": 1})
    for who, n in wounds.items():
        table.state = fx.with_trouper(table.state, table.state.trouper_index(who),
                                      unmarked_wounds=n)
    nemesis_phase_next(table, [COLD], [], 0)
    table.do(NextPhase())
    assert table.state.night.pending[0].kind == "closest"
    return table


def test_a_leader_question_has_no_enter_default_and_enter_asks_again(catalog: Any) -> None:
    table = _tied(catalog)
    table.do(AnswerQuestion(troupers=["aurel", "ioana"]))  # as close, no Wounds: still tied
    assert table.state.night.pending[0].kind == "leader"
    assert legal.next_view(table.state, catalog).default is None
    drv = Driver(table)
    screen = drv.screen()
    assert screen.default is None and "Leader's Rule" in screen.question
    assert any("A free choice" in line for line in screen.info)
    before = state_hash(table.state)
    again = drv.walk.answer("")
    assert isinstance(again, Again) and "no default" in again.message  # a choice is needed
    assert state_hash(table.state) == before
    for typed, chosen in (("1", "aurel"), ("2", "ioana"), ("ioana", "ioana")):
        done = drv.walk.answer(typed)
        assert isinstance(done, Done) and done.action.troupers == [chosen], typed


def test_one_candidate_left_is_the_target_without_a_leader_question(catalog: Any) -> None:
    # the table names one Trouper closest: the Answer says so, no Leader question follows
    table = _tied(catalog)
    table.do(AnswerQuestion(troupers=["aurel"]))
    q = table.state.night.pending[0]
    assert q.kind == "test" and q.trouper == 0
    said = [narrate.render(e, catalog) for e in why.told(table.state.night.log)]
    assert said[-1] == "Answer: Aurel, the Thread-Walker"
    # a tie the app's state settles (fewest Wounds): decided, the dodge Test names Ioana
    table = _tied(catalog, aurel=2)
    table.do(AnswerQuestion(troupers=["aurel", "ioana"]))
    q = table.state.night.pending[0]
    assert q.kind == "test" and q.trouper == 1
    assert "Ioana of the Seven Veils may dodge" in legal.next_view(table.state, catalog).prompt
