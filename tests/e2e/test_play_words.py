"""Issue 17, proof 2, and issue 26, Build 6: a whole scripted Roguelite game through
`blood play` prints words, not ids: no line contains a raw id (``[a-z]+-[a-z]*\\d\\d``, like
``aurel-t02``), a Python repr (``=[``, ``{'``, ``None``) or a shell command line, except
what an explicit ``show --ids`` prints.

The script takes the default almost everywhere (the whole Day, the Dusk and Beginning of the
Night checklists, the night, the End of the Night) and asks for cards on the way: ``show`` a
card by name, ``hand``, ``cards`` (the Reaction Line with its text), ``decks``, ``status``.
A second game holds every deck at the table: each card drawn is named, each card played is
picked from the cards the hidden hand can hold.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import session
from blood_companion.cli.common import stdout
from blood_companion.cli.entry import main
from blood_companion.cli.play_cmd import Loop

RAW_ID = re.compile(r"[a-z]+-[a-z]*\d\d")  # the catalog's numbered ids (aurel-t02, zora-i01)
REPR = ("=[", "=None", "{'", "['", " object at 0x")
SHELL = re.compile(r"`?\$ blood |`blood [a-z]+ [a-z]+[^`]*--")  # a command line to run
START, END = "<<ids>>", "<</ids>>"
COMMANDS = ["show --ids Knife Volley", "show Mist Walk", "hand", "cards", "decks", "status",
            "show lunge from the wire", "hand zora", "show Ossuary Galery"]


class Script(Loop):
    """`blood play` answered by a script: mostly Enter, a prompt command now and then, and for
    a question without a default (a card drawn or played at the table) the first choice."""

    def __init__(self, name: str, limit: int) -> None:
        super().__init__(name)
        self.asked = 0
        self.limit = limit
        self.games = 0

    def table_command(self, head: str, args: list[str]) -> None:
        ids = head == "show" and "--ids" in args
        if ids:
            stdout.print(START)
        super().table_command(head, args)
        if ids:
            stdout.print(END)

    def ask(self, prompt: str) -> str | None:
        self.asked += 1
        if self.asked > self.limit:
            return None
        with self.open() as store:
            if store.state.game >= 2:
                return None  # the first game is over
        if prompt.startswith("Take it anyway"):
            return "y"
        if self.asked % 23 == 0:
            return COMMANDS[(self.asked // 23 - 1) % len(COMMANDS)]
        screen = self.walk.screen() if self.walk is not None else None
        if screen is not None and screen.default is None and not screen.choices:
            # the faces the players' own dice show (the loot dice at the table): one each
            pool = re.search(r"\(([0-9RGB ]+)\)", screen.question)
            n = sum(int(x[:-1] or 1) for x in pool.group(1).split()) if pool else 1
            return " ".join(["1"] * n)
        if screen is not None and screen.default is None:
            open_ = [c.key for c in screen.choices if c.enabled]
            if screen.many is not None:
                return " ".join(open_[: max(1, screen.many[0])]) if open_ else ""
            return open_[0] if open_ else ""
        return ""


def _offending(out: str) -> list[str]:
    bad, exempt = [], False
    for line in out.splitlines():
        if line.strip() == START:
            exempt = True
            continue
        if line.strip() == END:
            exempt = False
            continue
        if exempt:
            continue
        if RAW_ID.search(line) or any(r in line for r in REPR) or SHELL.search(line) or (
                re.search(r"\bNone\b(?! of them)", line)):
            bad.append(line)
    return bad


@pytest.mark.parametrize("decks", ["app", "table"])
def test_a_whole_roguelite_game_through_blood_play_prints_words_not_ids(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, saves_dir: Path, decks: str
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    name = f"words-{decks}"
    assert main(["campaign", "new", name, "--troupers", "aurel,zora", "--seed", "3",
                 "--decks", decks]) == 0
    capsys.readouterr()  # `campaign new` (its save's path holds pytest's folder names)
    Script(name, limit=3000).run()
    out = capsys.readouterr().out
    with session.open_session(name) as store:
        state, log = store.state, store.log()
    assert state.game == 2, "the scripted game did not finish"
    assert len(log) > 30
    # the script did ask for cards, and what they print names them
    assert "Refused" not in out  # the scripted game is never refused
    assert START in out and "Fatigue: Physical" in out
    assert "Legend: N Nemesis start" in out
    assert "Dusk set-up [1/" in out and "Beginning of the Night [1/" in out
    if decks == "table":
        assert "Which card does" in out and "Which card is it?" in out
        assert any(e.type == "night_play" and e.data.get("card") for e in log)
        assert any(e.data.get("drawn") for e in log)
    else:
        assert "Aurel's deck → Aurel's hand" in out  # the cards the app drew, by name
    assert _offending(out) == []
