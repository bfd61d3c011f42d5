"""The game's one definition (engine/flow.py): the Day, the Night and the End as phases whose
moves are the action classes, and what the engine looks up derived from them."""

from __future__ import annotations

from typing import Any

from night_bot import new_table, play_night

from blood_companion.engine import flow
from blood_companion.engine.endgame import EndNight


def test_every_action_is_a_move_of_one_phase_or_of_the_campaign() -> None:
    moves = flow.moves()
    tags = {cls.model_fields["type"].default for cls in moves}
    assert len(moves) == len(set(moves)) == len(tags)
    assert all(flow.action_class(cls.model_fields["type"].default) is cls for cls in moves)
    for phase in flow.FLOW:
        for cls in phase.moves:
            assert cls.parts is None or phase.name in cls.parts or cls.type == "night_setup", cls
    assert {p.name for p in flow.FLOW} == {"day", "night", "end"}
    assert flow.phase("setup") is None and flow.phase("night") is flow.NIGHT


def test_the_askers_are_those_of_the_phases() -> None:
    askers = flow.askers()
    assert {"night_play", "day_zone", "roll_loot"} <= set(askers)
    assert "night_pass" not in askers  # no question follows a pass
    assert "day_recover" not in askers  # nor the Recovery


def test_the_end_of_the_night_is_the_nights_end(catalog: Any) -> None:
    """A whole night: once it is won or lost the Night is ``over``, its ``end`` (the End of
    the Night) is what `end_night` does, and the part that follows is the Night's ``next``."""
    table = play_night(new_table(catalog, 2, seed=3, bot_seed=3))
    state = table.state
    assert flow.NIGHT.over(state)
    assert flow.NIGHT.end is not None
    closed = flow.NIGHT.end(state, catalog)
    assert table.do(EndNight()) == closed
    assert closed.part == flow.NIGHT.next(state) == "over"  # a Single game ends with its night
