"""Issue 26, "A typed answer is never reinterpreted" and "Refuse early": dice positions at a
re-roll prompt are positions, keys are unique within a prompt, an option that cannot be
completed is disabled with its reason, cards and Troupers are accepted by name, and a campaign
that cannot start is refused before anyone is asked who holds the decks."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.entry import main


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("bad", [
    ["--troupers", "aurel,nobody"],
    ["--troupers", "aurel,zora", "--colours", "red,red"],
    ["--troupers", "aurel,zora", "--colours", "mauve"],
])
@pytest.mark.parametrize("command", [["play", "--new", "x"], ["campaign", "new", "x"]])
def test_a_campaign_that_cannot_start_is_refused_before_the_decks_question(
    saves_dir: Path, capsys: Any, monkeypatch: Any, command: list[str], bad: list[str],
) -> None:
    monkeypatch.setattr("sys.stdin", _Terminal("\n\n\n"))
    assert main([*command, *bad]) == 1
    cap = capsys.readouterr()
    assert "Who holds the decks?" not in cap.out
    assert "Error" in cap.err
    assert not list(saves_dir.glob("x*"))


def test_a_taken_name_is_refused_before_the_decks_question(
    saves_dir: Path, capsys: Any, monkeypatch: Any,
) -> None:
    assert main(["campaign", "new", "x", "--troupers", "aurel", "--decks", "app"]) == 0
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", _Terminal("\n\n\n"))
    assert main(["play", "--new", "x", "--troupers", "zora"]) == 1
    cap = capsys.readouterr()
    assert "Who holds the decks?" not in cap.out and "already exists" in cap.err
