"""The night's phases and the Day's steps are specs that drive the game (issue 25): only the
machine (``bookkeeping.goto``/``phases.advance``, ``steps.advance``) moves ``phase``/``step``,
the game follows each spec's ``next``, and the one legality check refuses every action outside
the phase or step whose spec allows it, Quick Effects included."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from night_bot import new_table, step
from test_day import Table, walk_to

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import day as d
from blood_companion.engine.day.steps import DAY_ACTIONS
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import action_class, apply
from blood_companion.engine.night import PHASES, UseQuick
from blood_companion.engine.state import state_hash

ENGINE = Path(d.__file__).parent.parent
# a phase or step written as a literal: `phase="planning"`, `{"step": "zone"}`
LITERAL = re.compile(r"""\b(phase|step)\s*=\s*["']|["'](phase|step)["']\s*:\s*["']""")


def test_no_night_or_day_module_writes_a_phase_or_step_literal() -> None:
    files = [*ENGINE.glob("night/*.py"), *ENGINE.glob("day/*.py"), ENGINE / "bookkeeping.py",
             ENGINE / "night_setup.py", ENGINE / "day_state.py"]
    found = [f"{f.name}:{n}: {line.strip()}" for f in files
             for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
             if LITERAL.search(line)]
    assert found == []


def test_only_goto_writes_the_night_phase_in_whole_nights(catalog: Any, monkeypatch: Any
                                                           ) -> None:
    inside: list[str] = []
    with_night, goto = fx.with_night, fx.goto

    def guarded(state: Any, **update: Any) -> Any:
        assert "phase" not in update or inside, f"phase={update['phase']} outside the machine"
        return with_night(state, **update)

    def machine(state: Any, phase: str, **update: Any) -> Any:
        inside.append(phase)
        try:
            return goto(state, phase, **update)
        finally:
            inside.pop()

    monkeypatch.setattr(fx, "with_night", guarded)
    monkeypatch.setattr(fx, "goto", machine)
    for players, seed in ((1, 0), (2, 0), (3, 0)):
        table = new_table(catalog, players, seed=seed, bot_seed=seed)
        for _ in range(3000):
            if table.night.phase == "over":
                break
            step(table)
        assert table.night.phase == "over"
        # the phases the log passed through follow each spec's `next` (or end the night)
        seen = [e.phase for e in table.night.log]
        moves = {(a, b) for a, b in zip(seen, seen[1:], strict=False) if a != b}
        assert moves and all(b in (PHASES[a].next, "over") for a, b in moves), moves


def test_a_quick_effect_outside_the_phases_that_allow_it_is_refused_by_the_table(
    catalog: Any,
) -> None:
    quick = UseQuick(slot=1, effect=1)
    refused: set[str] = set()
    for players, seed in ((2, 0), (1, 0)):
        table = new_table(catalog, players, seed=seed, bot_seed=seed)
        for _ in range(3000):
            night = table.night
            if night.phase == "over":
                break
            spec = PHASES[night.phase]
            if quick.type not in (spec.questions if night.pending else spec.actions):
                before = state_hash(table.state)
                with pytest.raises(RuleError, match=f"the table is in the {spec.title}"):
                    apply(table.state, quick, catalog, 0)
                assert state_hash(table.state) == before
                refused.add(night.phase)
            step(table)
    assert {"start_of_turn", "cleanup"} <= refused


def _sample(kind: str) -> Any:
    cls = action_class(kind)
    assert cls is not None, kind
    values = {str: "aurel", int: 1, bool: False}
    fields = {k: values.get(f.annotation, []) for k, f in cls.model_fields.items()
              if f.is_required()}
    return cls(**fields)


def test_every_day_action_is_refused_outside_the_steps_that_allow_it(catalog: Any) -> None:
    table = Table(catalog, n=2)
    samples = [_sample(k) for k in sorted(DAY_ACTIONS)]
    checked = set()
    for key in list(d.STEPS)[:-1]:
        walk_to(table, key)
        spec = d.STEPS[table.step()]  # the Zone Selection is passed in the Purchases
        for action in samples:
            if action.type in spec.actions:
                continue
            before = state_hash(table.state)
            with pytest.raises(RuleError, match=f"not possible now: the Day is at '{spec.title}'"):
                apply(table.state, action, catalog, 0)
            assert state_hash(table.state) == before
            checked.add((spec.key, action.type))
    assert {k for k, _ in checked} == set(d.STEPS) - {"zone", "done"}
    assert len(checked) > 120


def test_the_day_follows_the_steps_next_and_skips(catalog: Any) -> None:
    single = Table(catalog, n=1, mode="single")
    assert d.purchases_open(single.state) is False  # "Single Game Mode": no purchases
    single.do(d.Recover())
    assert single.step() == "zone"  # the Purchases skipped
    table = Table(catalog, n=2)
    assert d.purchases_open(table.state)
    table.do(d.Recover())
    assert table.step() == d.STEPS["recovery"].next and d.purchases_open(table.state)
    walk_to(table, "last_assault")
    assert not d.purchases_open(table.state)
    table.do(d.LastAssault(face_vlad=True))  # facing Vlad skips the Nemesis Selection
    assert table.step() == "dusk_difficulty" == d.STEPS["nemesis"].next


def test_each_day_step_has_its_view() -> None:
    from blood_companion.engine.day.views import STEP_VIEWS

    assert set(STEP_VIEWS) == set(d.STEPS)
