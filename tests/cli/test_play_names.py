"""`blood play` says what the players chose in names, never ids, and shows a depleted Item
disabled with its reason rather than offering it and then refusing it (issue 43, item 4)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from blood_companion.cli.play_menu import Walk
from blood_companion.content.loader import shipped_data_dir, validate_layers
from blood_companion.engine import bookkeeping as fx

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))


def planning_table() -> Any:
    from night_bot import answer, new_table

    table = new_table(validate_layers([shipped_data_dir()]), 2, seed=1, nemesis="corvin")
    for _ in range(200):
        if table.night.phase == "planning" and not table.night.pending:
            return table
        answer(table)
    raise AssertionError("the night never reached the Planning Phase")


def test_the_trail_of_answers_names_cards_and_items() -> None:
    table = planning_table()
    state, cat = table.state, table.catalog
    aurel = state.troupers[0]
    card, item = aurel.hand[0], next(iter(aurel.equipped.values()))
    walk = Walk.start(state, cat)
    chosen = walk._replace(option=walk.nxt.options[0],
                           answers={"discard": [card], "items": [item], "who": aurel.trouper,
                                    "target": "nemesis"})
    trail = chosen.context()
    assert "target: Corvin the Gravewarden" in trail
    assert cat.find(card).name in trail
    assert fx.item_side(state, cat, 0, item).name in trail
    assert "Aurel, the Thread-Walker" in trail
    assert card not in trail and item not in trail  # names, not ids


def test_a_depleted_quick_item_is_shown_disabled_with_its_reason() -> None:
    table = planning_table()
    state, cat = table.state, table.catalog
    gear = {**state.troupers[1].equipped, "protection": "ioana-i02"}  # a Quick Item (Heal 1)
    state = fx.with_trouper(state, 1, equipped=gear, depleted_items=["ioana-i02"])
    choices = Walk.start(state, cat).screen().choices
    vest = [c for c in choices if "Quick Item" in c.label and "ioana-i02" not in c.label
            and cat.item("ioana-i02").starting.name in c.label]
    assert vest, [c.label for c in choices]
    assert not vest[0].enabled and vest[0].why == "depleted until the Cleanup Phase"


def test_a_depleted_test_item_is_shown_disabled_at_the_test() -> None:
    from blood_companion.engine.rolls.night import TestSpec, throw_ask

    table = planning_table()
    state, cat = table.state, table.catalog
    gear = {**state.troupers[0].equipped, "artifact": "aurel-i05"}
    state = fx.with_trouper(state, 0, equipped=gear)
    spec = TestSpec(t=0, traits=("strength",), fixed=None, target=2, label="a Test")
    name = fx.item_side(state, cat, 0, "aurel-i05").name
    fresh = throw_ask(state, cat, spec, {})
    assert fresh is not None
    offered = [p for p in fresh.picks if p.value == "aurel-i05"]
    assert offered and offered[0].enabled  # usable: offered
    spent = fx.with_trouper(state, 0, depleted_items=["aurel-i05"])
    asked = throw_ask(spent, cat, spec, {})
    assert asked is not None
    (pick,) = [p for p in asked.picks if p.value == "aurel-i05"]
    assert not pick.enabled and pick.why == "depleted until the Cleanup Phase"
    assert name in pick.label


def test_a_condition_the_table_judges_is_asked_with_no_default() -> None:
    import dataclasses

    from blood_companion.content import models as m
    from blood_companion.engine.chance import Chance
    from blood_companion.engine.night import enemy as ai
    from blood_companion.engine.night_state import EnemyJob

    table = planning_table()
    cat = table.catalog
    eff = m.Effect(timing="beginning_of_turn", condition=m.Condition(
        kind="text", text="a Trouper stands on a Crypt Tile"), outcome=[m.Outcome(kind="wound")])
    nem = cat.nemesis("corvin").model_copy(update={"skills": [eff]})
    cat2 = dataclasses.replace(cat, records={**cat.records, "nemeses": [
        nem if n.id == "corvin" else n for n in cat.all("nemeses")]})
    job = EnemyJob(source="skill", card="corvin", label="Corvin: Crypt", effects=[0])
    state = ai.run_queue(fx.with_night(table.state, queue=[job], pending=[]), cat2,
                         Chance.fresh(0, 0))
    screen = Walk.start(state, cat2).screen()
    assert "does its Condition hold? a Trouper stands on a Crypt Tile" in screen.question
    assert screen.default is None  # the table says; Enter decides nothing
    assert {c.key for c in screen.choices} >= {"y", "n"}
