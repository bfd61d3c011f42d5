"""`blood night ...` and `blood status` through the real entry point, saves in tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SETUP = [
    "night",
    "setup",
    "--nemesis",
    "corvin",
    "--location",
    "catacombs-ossuary-gallery",
    "--minions",
    "undead-bone-sentinel,ghoul-crypt-gnawer",
    "--difficulty",
    "1",
]


@pytest.fixture()
def night(blood: Any, saves_dir: Path) -> Any:
    r = blood(
        "campaign",
        "new",
        "demo",
        "--troupers",
        "aurel,zora",
        "--mode",
        "single",
        "--seed",
        "7",
        "--json",
    )
    assert r.code == 0, r.err
    r = blood(*SETUP, "--json")
    assert r.code == 0, r.err
    return blood


def test_setup_and_next(night: Any) -> None:
    r = night("night", "next", "--json")
    doc = r.json()
    assert doc["phase"] == "planning" and doc["who"] == "aurel"
    assert len(doc["hand"]) == 5
    r = night("night", "next")
    assert r.code == 0 and "Planning Phase" in r.out


def test_play_by_position_and_status(night: Any) -> None:
    hand = night("night", "next", "--json").json()["hand"]
    r = night("night", "play", "aurel", "1", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["ok"] and any("plays" in c for c in doc["changes"])
    st = night("status", "--json").json()
    assert st["night"]["chain"][-1]["card"] == hand[0]
    r = night("status")
    assert r.code == 0 and "Chain" in r.out and "Reaction Line" in r.out


def test_refusals_exit_1_and_change_nothing(night: Any) -> None:
    before = night("campaign", "show", "--json").json()["state_hash"]
    for args in (
        ["night", "play", "zora", "1"],  # out of turn
        ["night", "continue"],  # the Planning Phase goes on
        ["night", "done"],  # another phase's command
        ["night", "answer", "aurel"],  # no question
        ["night", "play", "aurel", "no-such-card"],
    ):
        r = night(*args)
        assert r.code == 1, args
        assert "Error" in r.err
    r = night("night", "play", "zora", "1", "--json")
    assert r.code == 1 and r.json()["ok"] is False
    assert night("campaign", "show", "--json").json()["state_hash"] == before


def test_undo_across_night_actions(night: Any) -> None:
    before = night("campaign", "show", "--json").json()["state_hash"]
    assert night("night", "rest", "aurel", "2").code == 0
    assert night("campaign", "show", "--json").json()["state_hash"] != before
    assert night("campaign", "undo").code == 0
    assert night("campaign", "show", "--json").json()["state_hash"] == before


def test_a_turn_to_the_nemesis_phase(night: Any) -> None:
    """Play until the Tactic Phase, skip every Effect, and let the Nemesis act."""
    for _ in range(40):
        nxt = night("night", "next", "--json").json()
        if nxt["phase"] != "planning":
            break
        who = nxt["who"]
        cmd = (
            "rest" if any("rest" in c and "play" not in c for c in nxt["commands"][:1]) else "play"
        )
        r = night("night", cmd, who, "1", "--json")
        assert r.code == 0, r.err
    for _ in range(40):
        nxt = night("night", "next", "--json").json()
        if nxt["phase"] != "tactic" or "blood night done" not in nxt["commands"]:
            break
        assert night("night", "done").code == 0
    for _ in range(60):
        nxt = night("night", "next", "--json").json()
        if nxt["phase"] in ("minions", "cleanup") or nxt["phase"] == "over":
            break
        q = nxt["question"]
        if q is None:
            r = night("night", "continue", "--json")
        elif q["kind"] == "test":
            r = night("night", "roll", "--json")
        elif q["kind"] == "discard":
            r = night("night", "answer", "1", "--json")
        elif q["kind"] == "in_range":
            r = night("night", "answer", "none", "--json")
        else:
            r = night("night", "answer", "aurel", "--json")
        assert r.code == 0, r.err
    board = night("night", "board", "--json").json()
    assert board["phase"] in ("nemesis", "minions", "cleanup", "over", "planning")
    log = night("night", "log", "--json").json()["log"]
    assert any("Nemesis Phase" in e["text"] for e in log)


def test_06_a_hand_position_past_the_hand_is_refused_never_read_as_an_id(night: Any) -> None:
    # Issue 15 item 6: with five cards, "9" once matched aurel-t09 by its id
    hand = night("night", "next", "--json").json()["hand"]
    assert len(hand) == 5
    before = night("campaign", "show", "--json").json()["state_hash"]
    r = night("night", "rest", "aurel", "9")
    assert r.code == 1 and "holds 5 card(s) to name: there is no card 9" in " ".join(r.err.split())
    assert night("campaign", "show", "--json").json()["state_hash"] == before
    r = night("night", "rest", "aurel", "5", "--json")
    assert r.code == 0, r.err
    st = night("status", "--json").json()
    assert st["night"]["chain"][-1]["kind"] == "rest"
