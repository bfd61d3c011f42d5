"""Issue 29, Speed: `blood play --json` starts without work its answer does not need.

* the board it shows first (and again at a Planning Phase) is the stored status document while
  it is true of the campaign, as `blood status` reads it: not drawn anew each start;
* the actions of the choices are parsed by their ``type``: never the union of every action.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

NIGHT = ("night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer")


def _campaigns(blood: Any) -> None:
    assert blood("campaign", "new", "day", "--troupers", "aurel,zora", "--seed", "3").code == 0
    assert blood("campaign", "new", "night", "--mode", "single", "--troupers",
                 "aurel,ioana,petru,zora", "--seed", "7").code == 0
    assert blood("--campaign", "night", *NIGHT).code == 0
    assert blood("--campaign", "night", "night", "answer", "none").code == 0


def _refuse(*_: Any, **__: Any) -> Any:
    raise AssertionError("built though not needed")


@pytest.mark.parametrize("name", ["day", "night"])
def test_play_json_shows_the_stored_board(blood: Any, saves_dir: Path, monkeypatch: Any,
                                          name: str) -> None:
    _campaigns(blood)
    first = blood("--campaign", name, "play", "--json")
    assert first.code == 0, first.err
    doc = first.json()
    assert any("Troupers" in line for line in doc["said"])  # the board was shown
    # the stored board is true of the campaign: nothing draws it again
    monkeypatch.setattr("blood_companion.cli.view_docs.status_doc", _refuse)
    monkeypatch.setattr("blood_companion.engine.board_view.build", _refuse)
    again = blood("--campaign", name, "play", "--json")
    assert again.code == 0, again.err
    assert again.json() == doc


def test_play_json_without_a_stored_board_draws_the_same(blood: Any, saves_dir: Path) -> None:
    _campaigns(blood)
    docs = [blood("--campaign", n, "play", "--json").json() for n in ("day", "night")]
    for stored in (saves_dir / ".cache").glob("*.status.json"):
        stored.unlink()
    assert [blood("--campaign", n, "play", "--json").json() for n in ("day", "night")] == docs


def test_play_json_parses_each_action_by_its_type(blood: Any, saves_dir: Path,
                                                  monkeypatch: Any) -> None:
    _campaigns(blood)
    monkeypatch.setattr("blood_companion.engine.flow.action_adapter", _refuse)
    for name in ("day", "night"):
        r = blood("--campaign", name, "play", "--json")
        assert r.code == 0, r.err
        assert any(c["action"] for c in r.json()["choices"])  # complete actions were built


def test_play_answered_through_the_console_script_keeps_what_it_recorded(
    blood: Any, saves_dir: Path
) -> None:
    """`blood play --json --answer ...` in a process of its own: its document reaches the
    pipe whole and its step is saved."""
    import json
    import os

    _campaigns(blood)
    before = blood("--campaign", "day", "play", "--json").json()
    env = {**os.environ, "BLOOD_SAVES_DIR": str(saves_dir), "NO_COLOR": "1", "COLUMNS": "100"}
    p = subprocess.run([sys.executable, "-m", "blood_companion", "--campaign", "day", "play",
                        "--json", "--answer", ""], capture_output=True, env=env, timeout=120,
                       check=False)
    assert p.returncode == 0, p.stderr.decode()
    doc = json.loads(p.stdout)
    assert doc["recorded"] == 1 and doc["log_length"] == before["log_length"] + 1
    assert blood("--campaign", "day", "play", "--json").json()["state_hash"] == doc["state_hash"]
