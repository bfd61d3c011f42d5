"""`blood play` driven by a script of answers on standard input, in-process and as the
installed console script; killed mid-night and resumed at the same question."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from play_driver import leader_asks, table_says

from blood_companion.cli.entry import main
from blood_companion.cli.play_cmd import Loop
from blood_companion.cli.play_menu import Again, Done, Walk
from blood_companion.engine.night import PlayCard
from tests.cli.conftest import blood_exe


def run_play(monkeypatch: pytest.MonkeyPatch, capsys: Any, answers: list[str], *args: str) -> Any:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    code = main(["play", *args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def leader_types_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter where only the table answers (no Enter default: issues 26 and 39) types what
    Enter chose before: at a Leader question "1", the first candidate; at a Condition or a
    position only the Map shows "y"; at an attack limited by a Distance the first target;
    elsewhere Enter, and the script's "all" where the Map says who is in range
    (play_driver.table_says)."""
    ask = Loop.ask

    def typed(self: Loop, prompt: str) -> str | None:
        line = ask(self, prompt)
        if line != "" or self.walk is None:
            return line
        if "Look at the Map: type a name" in self.walk.screen().question:
            return line  # the script's next line, "all", answers it
        return table_says(self.walk)

    monkeypatch.setattr(Loop, "ask", typed)


def show(capsys: Any) -> dict[str, Any]:
    assert main(["campaign", "show", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_play_a_whole_day_and_night_from_a_script(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, saves_dir: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    # A few global commands and a wrong answer first, then Enter (the default) throughout,
    # each followed by "all": where only the Map answers there is no default (issue 26), and
    # the table says every Trouper is in range (elsewhere "all" is refused or picks all).
    # (the first Enter: the app holds every deck)
    answers = ["", "help", "status", "odds", "zzz", *["", "all"] * 280]
    leader_types_1(monkeypatch)
    code, out, err = run_play(
        monkeypatch, capsys, answers, "--new", "eve", "--troupers", "aurel,ioana", "--seed", "1"
    )
    assert code == 0, err
    assert "Game 1 · Day Part · Show 1: Recovery" in out
    assert "'zzz' is not one of the choices" in out
    assert "Game 1 · Turn 1 · Planning Phase" in out
    assert "At the table:" in out and "What changed:" not in out  # each move told once
    assert "Game 1 · End of the Night" in out
    assert "Saved. `blood play` resumes here." in out
    doc = show(capsys)
    assert doc["log_length"] > 60
    # The night was played to its end and the rewards were taken: game 1 is in the history.
    assert main(["campaign", "verify", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert doc["game"] >= 2
    # every recorded step is an ordinary action (the same the subcommands record)
    assert main(["campaign", "log", "--json"]) == 0
    types = {json.loads(line)["type"] for line in capsys.readouterr().out.splitlines()}
    assert {"day_recover", "night_play", "night_continue", "end_night"} <= types


def test_play_quit_and_typed_choices(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, saves_dir: Path
) -> None:
    code, out, _ = run_play(
        monkeypatch, capsys, ["", "1", "quit"], "--new", "q", "--troupers", "petru", "--seed",
        "2"
    )
    assert code == 0 and "✓ Recovery" in out
    assert show(capsys)["phase"] == "purchases"
    # resume: the same question (purchases) is asked again; undo takes the Recovery back
    code, out, _ = run_play(monkeypatch, capsys, ["undo", "quit"])
    assert code == 0 and "Buy something, or finish buying?" in out
    assert "Took back: Recovery" in out
    assert show(capsys)["phase"] == "recovery"


def test_menus_record_engine_actions(saves_dir: Path, capsys: Any) -> None:
    from blood_companion.cli import session

    assert main(["campaign", "new", "m", "--troupers", "aurel,zora", "--seed", "3",
                 "--mode", "single"]) == 0
    args = [
        "night",
        "setup",
        "--nemesis",
        "lucilla",
        "--location",
        "catacombs-ossuary-gallery",
        "--minions",
        "undead-bone-sentinel,ghoul-crypt-gnawer",
    ]
    assert main(args) == 0
    capsys.readouterr()
    with session.open_session() as store:
        state, cat = store.state, store.catalog
    night = state.night
    assert night is not None
    while night.pending or night.phase != "planning":
        # Enter, or where only the table answers (no default, issue 26) "all" of them at the
        # Map, the first candidate at a Leader question
        def says(walk: Walk) -> str:
            return ("1" if leader_asks(walk) else
                    "" if walk.screen().default is not None else "all")

        first = Walk.start(state, cat)
        picked = first.answer(says(first))
        while isinstance(picked, Walk):
            picked = picked.answer(says(picked))
        assert isinstance(picked, Done)
        with session.open_session() as store:
            state = store.record(picked.action)
        night = state.night
        assert night is not None
    walk = Walk.start(state, cat)
    assert "Planning Phase" in walk.screen().title
    done = walk.answer("1")
    assert isinstance(done, Done) and isinstance(done.action, PlayCard)
    assert isinstance(walk.answer("nonsense"), Again)


def test_installed_blood_play_with_input(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "80"}
    p = subprocess.run(
        [*blood_exe(), "play", "--new", "sub", "--troupers", "ioana,zora", "--seed", "11"],
        # Enter to every question up to Turn 1's first with no default, and a few there: 20
        # unusable answers in a row stop a piped `blood play` (exit 1, issue 40)
        input="\n" * 45,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "Game 1 · Turn 1" in p.stdout
    assert "Traceback" not in p.stderr
    assert all(len(line) <= 80 for line in p.stdout.splitlines())


def _read_prompt(fd: int, buf: str) -> str:
    """Read the process's output until it waits at a new prompt."""
    start = len(buf)
    while len(buf) == start or not buf.endswith("> "):
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buf += chunk.decode("utf-8", "replace")
    return buf


def _last_menu(out: str) -> str:
    """The last question shown (title, question and choices), without the prompt line."""
    block = out.rsplit("\n\n", 1)[-1]
    return "\n".join(block.splitlines()[:-1])


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_killed_mid_night_resumes_at_the_same_question(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "80"}
    cmd = [*blood_exe(), "play", "--new", "k", "--troupers", "aurel,petru", "--seed", "4"]
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert proc.stdin is not None and proc.stdout is not None
    out = ""
    try:
        for _ in range(200):
            out = _read_prompt(proc.stdout.fileno(), out)
            menu = _last_menu(out)
            if "Planning Phase" in menu.splitlines()[0] and " plays " in out:
                break
            # Enter, or where only the table answers (no default, issue 26) "all" of them at
            # the Map, the first candidate at a Leader question
            proc.stdin.write(b"all\n" if "Look at the Map: type a name" in menu else
                             b"1\n" if "A free choice: type a name" in menu else b"\n")
            proc.stdin.flush()
        else:
            pytest.fail("never reached the Planning Phase")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    p = subprocess.run(
        [*blood_exe(), "play"],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    resumed = _last_menu(p.stdout.rsplit("quit", 1)[0])
    assert resumed == menu


def test_a_prompt_takes_names_and_small_typos_but_numbers_only_as_keys() -> None:
    """At a `blood play` question a pick is named by its key, its name (a small typo forgiven,
    as in every other place a player names something) or its id; a number is only a key."""
    from blood_companion.cli.play_menu import _find
    from blood_companion.engine.legal import Pick

    nemeses = [Pick("1", "Lucilla", "lucilla"), Pick("2", "Corvin the Gravewarden", "corvin")]
    assert _find(nemeses, "lucila") is nemeses[0]
    assert _find(nemeses, "korvin") is nemeses[1]
    assert _find(nemeses, "2") is nemeses[1]
    assert _find(nemeses, "3") is None
    hand = [Pick("1", "Ricochet", "aurel-t03"), Pick("2", "Rope Dance", "aurel-t12")]
    assert _find(hand, "12") is None  # past the hand: refused, never part of an id
    assert _find(hand, "aurel-t12") is hand[1]
    assert _find(hand, "aurel-t13") is None  # an id is never a typo
    checklist = [Pick("ok", "Done", "ok"), Pick("all", "All done: skip the rest", "all")]
    for junk in ("[A", "a", "zz", "?!", "nonsense words here", "k k"):
        assert _find(checklist, junk) is None, junk


@pytest.mark.parametrize("answers", ["quit\n", "3\nq\n"])
def test_quit_at_the_decks_question_starts_nothing(tmp_path: Path, answers: str) -> None:
    """`quit` stops `blood play --new` at its first question, as at every other prompt: no
    campaign is created (it was once refused as "not app or table")."""
    env = {**os.environ, "NO_COLOR": "1", "BLOOD_SAVES_DIR": str(tmp_path / "saves")}
    p = subprocess.run(
        [*blood_exe(), "play", "--new", "demo", "--troupers", "aurel,ioana"],
        input=answers, capture_output=True, text=True, env=env, timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "No campaign started." in p.stdout and "app or table" not in p.stdout
    assert not (tmp_path / "saves" / "demo.blood.db").exists()
