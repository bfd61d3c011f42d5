"""`blood day ...` end to end, in-process: JSON documents, refusals (exit 1, save unchanged)
and undo of a Day step through `blood campaign undo`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture()
def table(blood: Any, saves_dir: Path) -> Any:
    r = blood("campaign", "new", "demo", "--troupers", "aurel,ioana", "--seed", "4", "--json")
    assert r.code == 0, r.err
    r = blood(
        "campaign",
        "wagon",
        "--coins",
        "10",
        "--jewels",
        "10",
        "--scrolls",
        "10",
        "--trinkets",
        "10",
        "--json",
    )
    assert r.code == 0, r.err
    return blood


def _hash(blood: Any) -> str:
    r = blood("campaign", "show", "--json")
    assert r.code == 0, r.err
    return str(r.json()["state_hash"])


def test_next_then_whole_day_in_json(table: Any) -> None:
    blood = table
    r = blood("day", "next", "--json")
    assert r.code == 0 and r.json()["step"] == "recovery"
    assert r.json()["commands"] == ["blood day recover"]
    steps = [
        ("day", "recover"),
        ("day", "buy", "cartographer", "--pay", "coins=4"),
        ("day", "buy-tactic", "aurel", "--art", "jug", "--pay", "coins=1,scrolls=1"),
        ("day", "upgrade", "1", "aurel-i01", "--pay", "coin=3"),
        ("day", "buy", "alchemist", "--pay", "scrolls=1", "--give", "scrolls=2", "--get", "coins"),
        ("day", "zone", "halls"),
        ("day", "location", "halls-"),
    ]
    for args in steps[:-1]:
        r = blood(*args, "--json")
        assert r.code == 0, (args, r.err)
        doc = r.json()
        assert doc["ok"] is True and "next" in doc and "state_hash" in doc
    r = blood("day", "location", "--roll", "--json")
    assert r.code == 0, r.err
    assert r.json()["day"]["location"].startswith("halls-")
    for args in [
        ("day", "minions", "--random"),
        ("day", "last-assault", "--no"),
        ("day", "nemesis", "--random"),
    ]:
        r = blood(*args, "--json")
        assert r.code == 0, (args, r.err)
    r = blood("day", "difficulty", "--json")
    assert [lv["level"] for lv in r.json()["levels"]] == [1, 2, 3]
    r = blood("day", "difficulty", "1", "--json")
    assert r.code == 0 and r.json()["day"]["difficulty"] == 1
    r = blood("day", "events", "--json")
    assert r.code == 0 and len(r.json()["day"]["events"]) == 1
    r = blood("day", "end", "--json")
    assert r.code == 1 and "still to equip" in r.json()["error"]
    assert blood("day", "equip", "aurel", "aurel-i01,aurel-i03,aurel-i05", "--json").code == 0
    r = blood("day", "equip", "azure", "ioana-i01,ioana-i03,ioana-i05", "--json")
    assert r.code == 0 and r.json()["next"]["commands"][0] == "blood day end"
    r = blood("day", "end", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["part"] == "night" and doc["next"]["part"] == "night"
    wagon = doc["wagon"]
    assert wagon == {"jewels": 10, "coins": 4, "trinkets": 10, "scrolls": 6}


def test_refusals_exit_1_and_change_nothing(table: Any) -> None:
    blood = table
    before = _hash(blood)
    r = blood("day", "buy", "asylum", "--pay", "coins=10", "--json")
    assert r.code == 1 and "not possible now" in r.json()["error"]
    assert _hash(blood) == before
    assert blood("day", "recover").code == 0
    assert blood("campaign", "wagon", "--coins", "-8").code == 0
    cases = [
        (("day", "buy", "asylum", "--pay", "coins=10,jewels=1"), "too much"),
        (("day", "buy", "asylum", "--pay", "coins=10"), "Wagon has 2"),
        (("day", "buy", "asylum"), "say which"),
        (("day", "buy", "palace", "--pay", "coins=1"), "unknown building"),
        (("day", "buy-card", "aurel", "loc-halls-t", "--pay", "jewels=3"), "players hold"),
        (("day", "buy-card", "aurel", "nothing"), "unknown"),
        (("day", "swap-tactic", "aurel", "aurel-t01", "ioana-t01"), "unknown card"),
        (("day", "upgrade", "aurel", "ioana-i01", "--pay", "coins=3"), "unknown Item"),
        (("day", "difficulty", "2"), "not possible now"),
        (("day", "equip", "aurel", "aurel-i01,aurel-i02,aurel-i03"), "not possible now"),
        (("day", "location", "--roll"), "not possible now"),
    ]
    before = _hash(blood)
    for args, message in cases:
        r = blood(*args, "--json")
        assert r.code == 1, (args, r.out, r.err)
        assert message in r.json()["error"], (args, r.json())
        r = blood(*args)
        assert r.code == 1 and "Error:" in r.err
    assert _hash(blood) == before


def test_usage_errors_exit_2(table: Any) -> None:
    blood = table
    blood("day", "recover")
    assert blood("day", "buy", "asylum", "--pay", "coins=ten").code == 2
    assert blood("day", "buy", "asylum", "--pay", "gold=10").code == 2
    assert blood("day", "last-assault").code == 2


def test_undo_restores_each_day_step(table: Any) -> None:
    blood = table
    for args in [
        ("day", "recover"),
        ("day", "buy", "hunting", "--pay", "coins=6"),
        ("day", "zone", "garden"),
        ("day", "location", "--dice", "x"),
        ("day", "minions", "undead-bone,ghoul-crypt,beast-castle,aberration-stitched"),
        ("day", "last-assault", "--yes"),
        ("day", "difficulty", "3"),
        ("day", "events", "--json"),
    ]:
        before = _hash(blood)
        r = blood(*args)
        assert r.code == 0, (args, r.err)
        after = _hash(blood)
        assert blood("campaign", "undo").code == 0
        assert _hash(blood) == before
        assert blood("campaign", "redo").code == 0
        assert _hash(blood) == after
    r = blood("day", "next", "--json")
    assert r.json()["step"] == "equipping"


def test_next_renders_every_step_in_80_columns(table: Any, monkeypatch: Any) -> None:
    blood = table
    out = blood("day", "next").out
    assert "blood day recover" in out
    blood("day", "recover")
    out = blood("day", "next").out
    assert "hunting-house" in out and "Wagon: 10 jewels" in out
    blood("day", "zone", "catacombs")
    blood("day", "location", "--roll")
    blood("day", "minions", "--random")
    blood("day", "last-assault", "--no")
    blood("day", "nemesis", "--random")
    out = blood("day", "next").out
    assert "Map:" in out and "wounds F/L/R" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    r = blood("day", "difficulty", "2")
    assert "Difficulty Level 2" in r.out
    blood("day", "events")
    out = blood("day", "next").out
    assert "protection" in out and "Padded Doublet" in out and "aurel-i01" not in out
    doc = json.loads(blood("day", "next", "--json").out)
    assert doc["details"]["waiting"] == ["aurel", "ioana"]
