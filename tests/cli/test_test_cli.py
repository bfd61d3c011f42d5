"""`blood test` in a campaign: odds first, the roll, the record, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from blood_companion.cli import test_cmd
from blood_companion.engine.chance import Chance


@pytest.fixture()
def campaign(blood, saves_dir: Path):  # type: ignore[no-untyped-def]
    r = blood("campaign", "new", "night1", "--troupers", "aurel,zora", "--seed", "7")
    assert r.code == 0, r.err
    return "night1"


def _show(blood):  # type: ignore[no-untyped-def]
    return blood("campaign", "show", "--json").json()


def test_digital_test_is_recorded_and_undone(blood, campaign) -> None:  # type: ignore[no-untyped-def]
    before = _show(blood)
    r = blood("test", "zora", "madness", "--target", "4", "--auto", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["pool"] and len(doc["faces"]) == 3
    assert 0 < doc["probability"] < 1 and "/" in doc["exact"]
    assert doc["insanity"]["after"] == doc["insanity"]["before"] + (0 if doc["success"] else 1)
    after = _show(blood)
    assert after["log_length"] == before["log_length"] + 1
    assert blood("campaign", "undo", "--json").code == 0
    assert _show(blood)["state_hash"] == before["state_hash"]


def test_physical_dice_and_rerolls(blood, campaign) -> None:  # type: ignore[no-untyped-def]
    # zora's Madness is "2B G" in the placeholder pack: B B G
    r = blood(
        "test",
        "zora",
        "madness",
        "-t",
        "5",
        "--dice",
        "x 1 0",
        "--rerolls",
        "1",
        "--reroll",
        "1 3",
        "--reroll-dice",
        "3 2",
        "--json",
    )
    assert r.code == 0, r.err
    doc = r.json()
    kinds = [x["kind"] for x in doc["rolls"]]
    assert kinds[0] == "roll" and doc["rolls"][0]["source"] == "physical"
    assert kinds == ["roll", "reroll"]
    assert doc["rolls"][1]["slots"] == [0, 2]
    assert doc["total"] == 6 and doc["success"] is True
    log = blood("campaign", "log", "--json").out
    assert "physical" in log


def test_bad_input_records_nothing(blood, campaign) -> None:  # type: ignore[no-untyped-def]
    before = _show(blood)["log_length"]
    r = blood("test", "zora", "madness", "-t", "4", "--dice", "9 9 9")
    assert r.code == 1 and "has no face" in r.err
    r = blood("test", "bob", "strength", "-t", "4")
    assert r.code == 1 and "no Trouper 'bob'" in r.err
    r = blood("test", "zora", "charm", "-t", "4")
    assert r.code == 1 and "no Trait" in r.err
    r = blood("test", "zora", "madness", "-t", "-2")
    assert r.code == 1 and "greater than or equal to 0" in r.err
    assert _show(blood)["log_length"] == before


def test_players_pick_rerolls(monkeypatch: pytest.MonkeyPatch, catalog) -> None:  # type: ignore[no-untyped-def]

    from blood_companion.engine.dice import DiceBox
    from blood_companion.engine.rolls.procedure import TestSetup, prepare_test

    box = DiceBox.from_models(catalog.dice)
    setup = TestSetup(pool=("B", "G", "R"), target=4, rerolls=2)
    answers = iter(["9", "2 3", ""])  # a bad die number is asked again, then 2 3, then confirm
    monkeypatch.setattr(typer, "prompt", lambda *a, **k: next(answers))
    result = test_cmd.run_interactive(
        prepare_test(setup, box),
        box,
        Chance.fresh(3, 0),
        auto=False,
        physical=False,
        first_faces="1 0 0",
        reroll_faces=["2 1"],
        quiet=True,
    )
    assert [r.kind for r in result.rolls] == ["roll", "reroll"]
    assert result.rolls[1].slots == (1, 2)
