"""A movement toward a Target (issue 43): the Target its priorities choose where the app knows
the board, the Troupers still in question where only the Map tells; a Cube on a Tile told."""

from __future__ import annotations

from typing import Any

from night_bot import new_table

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine import words
from blood_companion.engine.chance import Chance


def test_the_target_of_a_movement_is_chosen_by_its_priorities(catalog: Any) -> None:
    state = new_table(catalog, 3, seed=1, nemesis="corvin").state
    state = fx.with_trouper(state, 1, bites=2)
    ids = [t.trouper for t in state.troupers]
    # what the app knows decides: the one with the most Bites
    assert interp.goal(state, m.Target(kind="trouper", priority=["most_bites", "closest"])) == {
        "trouper": ids[1]}
    # what only the Map shows: the table is told who is still in question, and the priority
    assert interp.goal(state, m.Target(kind="trouper", priority=["fewest_bites", "closest"])) == {
        "among": [ids[0], ids[2]], "by": "closest"}
    assert interp.goal(state, m.Target(kind="nemesis")) == {"card": "corvin"}
    act = interp.Act(catalog, Chance.fresh(0, 0), source="corvin", enemy=True)
    away = m.Outcome(kind="move", n=2, toward=m.Target(kind="nemesis"), away=True)
    moved = interp.apply_outcomes(fx.with_night(state), act._replace(target=0), [away])
    said = words.render(fx.night_of(moved).log[-1], catalog)
    assert said.startswith(f"MOVE {fx.name_of(state, catalog, 0)}: Move 2 away from Corvin")


def test_a_cube_is_told_with_its_tile(catalog: Any) -> None:
    state = new_table(catalog, 2, seed=1, nemesis="corvin").state
    act = interp.Act(catalog, Chance.fresh(0, 0), source="corvin", enemy=True, tile="0-1")
    placed = interp.apply_outcomes(state, act, [m.Outcome(kind="place_cube")])
    assert words.render(fx.night_of(placed).log[-1], catalog) == (
        "PLACE a Cube (Corpse) on a Tile at Distance 0-1 from Corvin the Gravewarden (Leader's "
        "Rule picks it)")
    assert placed.troupers == state.troupers and placed.night is not None
