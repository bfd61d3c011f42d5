"""An action is parsed by its ``type`` (``engine/flow.py`` ``parse_action``): the same object
as the discriminated union of every action gives, and the same refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

# --------------------------------------------------------------------------- actions by type

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "saves"


def _golden_actions() -> list[dict[str, Any]]:
    """Every action of the golden saves that keep an action schema version per step (v0.2.0
    on), upcast to today's shape: about 30 kinds."""
    import sqlite3

    from blood_companion.engine.upcast import upcast_action

    out = []
    for db in sorted(GOLDEN.glob("*/*.blood.db")):
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            if "av" not in {row[1] for row in conn.execute("PRAGMA table_info(actions)")}:
                continue  # an older layout, read by store/legacy.py
            rows = conn.execute("SELECT data, av FROM actions ORDER BY step").fetchall()
        finally:
            conn.close()
        out += [upcast_action(json.loads(data), av) for data, av in rows]
    return out


def test_an_action_parsed_by_type_is_the_one_the_union_gives() -> None:
    from blood_companion.engine.flow import action_adapter, parse_action

    union = action_adapter()
    actions = _golden_actions()
    assert len({a["type"] for a in actions}) >= 20
    for raw in actions:
        mine = parse_action(raw)
        theirs = union.validate_python(raw)
        assert type(mine) is type(theirs) and mine == theirs, raw["type"]
        assert mine.model_dump() == theirs.model_dump()
        assert parse_action(json.dumps(raw)) == theirs  # from the JSON text too


def test_parsing_by_type_builds_no_union(monkeypatch: pytest.MonkeyPatch) -> None:
    from blood_companion.engine import flow
    from blood_companion.engine.errors import RuleError

    def no_union() -> Any:
        raise AssertionError("the union of every action was built")

    monkeypatch.setattr(flow, "action_adapter", no_union)
    wagon = flow.parse_action({"type": "adjust_wagon", "coins": 2})
    assert type(wagon).__name__ == "AdjustWagon" and wagon.coins == 2  # type: ignore[attr-defined]
    with pytest.raises(RuleError, match=r"adjust_wagon\.coins"):
        flow.parse_action('{"type": "adjust_wagon", "coins": "many"}')


@pytest.mark.parametrize(
    "data",
    [
        {"type": "no_such_action"},
        {"type": 5},
        {"type": ["adjust_wagon"]},
        {},
        {"coins": 1},
        [1],
        None,
        {"type": "adjust_wagon", "coins": "many"},
        {"type": "adjust_wagon", "bogus": 1},
        {"type": "set_leader"},
        '{"type": "no_such_action"}',
        '{"type": "adjust_wagon", "coins": "many"}',
        "[1]",
        "null",
        "{not json",
    ],
)
def test_a_refusal_by_type_says_what_the_union_said(data: Any) -> None:
    from pydantic import ValidationError

    from blood_companion.engine.errors import RuleError
    from blood_companion.engine.flow import action_adapter, parse_action

    union = action_adapter()
    with pytest.raises(ValidationError) as theirs:
        if isinstance(data, str):
            union.validate_json(data)
        else:
            union.validate_python(data)
    err = theirs.value.errors()[0]
    expected = f"malformed action ({'.'.join(str(x) for x in err['loc'])}: {err['msg']})"
    with pytest.raises(RuleError) as mine:
        parse_action(data)
    assert str(mine.value) == expected


# --------------------------------------------------------------------------- the catalog cache


def _install(where: Path) -> Path:
    """A copy of the shipped pack at ``where`` (another install of the same pack)."""
    import shutil

    from blood_companion.content.raw import shipped_data_dir

    shutil.copytree(shipped_data_dir(), where)
    return where
