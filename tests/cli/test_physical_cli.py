"""Issue 26, Build 1 at the CLI: a recorded step prints what the table moves ("At the table:"),
its `--json` document lists the ``instructions``, and `campaign log --physical` shows them
below each step (engine/physical.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from test_night_cli import SETUP

# As tests/engine/test_physical.py: an id ("zora-i01", "bone_sentinel") or a Python repr.
ID = re.compile(r"\b[a-z]+-[a-z]*\d+\b|\b[a-z]+_[a-z_]+\b")
REPR = re.compile(r"None|True|False|[\[\]{}]|\(\)|'\w+':")


def new_night(blood: Any) -> None:
    r = blood("campaign", "new", "demo", "--troupers", "aurel,zora", "--mode", "single",
              "--seed", "7", "--json")
    assert r.code == 0, r.err
    r = blood(*SETUP)
    assert r.code == 0, r.err
    assert "At the table:" in r.out and "Aurel's deck → Aurel's hand" in r.out


def test_a_played_card_is_told_as_a_move_to_the_chain(blood: Any, saves_dir: Path) -> None:
    new_night(blood)
    hand = blood("night", "next", "--json").json()["hand"]
    r = blood("night", "play", "aurel", "1", "--json")
    assert r.code == 0, r.err
    moves = r.json()["instructions"]
    played = [i for i in moves if i["component"] == "cards"]
    assert played and played[0]["from"] == "Aurel's hand"
    assert played[0]["to"].startswith("Chain space")
    assert any(i["what"] == "Threat token" for i in moves)
    who = blood("night", "next", "--json").json()["who"]
    r = blood("night", "play", who, "1")
    assert r.code == 0, r.err
    name = {"aurel": "Aurel", "zora": "Zora Blackcandle"}[who]
    assert "At the table:" in r.out and f"{name}'s hand → Chain space" in r.out
    log = blood("campaign", "log", "--physical")
    assert log.code == 0, log.err
    assert log.out.count("At the table:") >= 3 and "Threat token:" in log.out
    assert "At the table:" not in blood("campaign", "log").out
    lines = blood("campaign", "log", "--physical", "--json").out.splitlines()
    docs = [json.loads(line) for line in lines]
    assert docs[-2]["instructions"][0]["text"] in log.out
    assert hand[0] not in log.out  # names, never ids


def table_lines(out: str) -> list[str]:
    """The lines under each "At the table:" heading of a terminal output."""
    found, inside = [], False
    for line in out.splitlines():
        text = line.strip()
        if text == "At the table:":
            inside = True
        elif inside and text.startswith("• "):
            found.append(text[2:])
        else:
            inside = False
    return found


def test_blood_play_tells_the_table_every_move_in_words(
    monkeypatch: Any, capsys: Any, saves_dir: Path
) -> None:
    from test_play import run_play

    monkeypatch.setenv("COLUMNS", "200")
    answers = ["", *["", "all", "1"] * 150]  # "1": the Leader chooses freely (no default)
    code, out, err = run_play(
        monkeypatch, capsys, answers, "--new", "eve", "--troupers", "aurel,ioana", "--seed", "1"
    )
    # where the script has no usable answer, 20 in a row stop a piped `blood play` (issue 40)
    assert code == 0 or "stopped after 20 answers in a row" in err, err
    lines = table_lines(out)
    assert any("'s hand → Chain space" in line for line in lines)
    assert any(line.startswith("Threat token: ") for line in lines)
    for line in lines:
        assert not ID.search(line), line
        assert not REPR.search(line.replace("None Leave the Pit", "")), line


def test_the_issue_39_table_night_tells_a_hidden_hand_as_a_hand(
    blood: Any, saves_dir: Path, monkeypatch: Any
) -> None:
    """Issue 39's reproduction: the players hold every deck; the card played comes from the
    hand, and nothing goes back to the box."""
    monkeypatch.setenv("COLUMNS", "200")
    r = blood("campaign", "new", "t", "--troupers", "aurel,zora", "--mode", "single",
              "--seed", "11", "--decks", "table")
    assert r.code == 0, r.err
    r = blood("night", "setup", "--nemesis", "lucilla", "--location",
              "catacombs-ossuary-gallery", "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer",
              "--draw", "Read the Epitaphs")
    assert r.code == 0, r.err
    assert "Shuffle Aurel's deck" in r.out and "5 cards: Aurel's deck → Aurel's hand" in r.out
    assert "draw 5 cards" not in r.out  # told once, as the step's instructions
    assert blood("night", "answer", "none").code == 0
    r = blood("night", "play", "aurel", "Lunge from the Wire")
    assert r.code == 0, r.err
    log = blood("campaign", "log", "--physical", "--last", "1").out
    assert "Lunge from the Wire: Aurel's hand → Chain space 2" in log
    assert "back to the box" not in log and "Trouper deck" not in log
