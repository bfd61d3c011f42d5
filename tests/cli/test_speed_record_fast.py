"""Issue 29: a recorded step, undo and redo on their fast path (cli/record_fast.py, no typer
nor click) print, exit and save exactly what the typer command does; anything unusual on the
line goes to typer."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from blood_companion.cli import entry

# Each line is run in order on two copies of one campaign: on the fast path, and with it off.
LINES = [
    "campaign wagon --coins 1",
    "campaign wagon --coins=2 --jewels 1 --reason found",
    "campaign wagon --json --coins -1",
    "campaign wagon --scrolls +3 -- ",
    "campaign wagon",
    "campaign wagon --json",
    "campaign trophies halls=+1 --reason test",
    "campaign trophies halls=+1 nemesis:lucilla=-1 --json",
    "campaign trophies bad",
    "campaign add-trouper ioana",
    "campaign add-trouper nobody --json",
    "campaign leader zora",
    "campaign leader nobody",
    "campaign retire-trouper ioana --json",
    "campaign decks",
    "campaign decks --json",
    "campaign decks table",
    "campaign decks app --json",
    "campaign next-game",
    "campaign next-game --json",
    "campaign undo",
    "campaign redo",
    "campaign undo 2 --json",
    "campaign redo --json 1",
    "campaign undo --to 2",
    "campaign undo --to=nomark",
    "campaign redo 50",
    "campaign redo -- 1",
    "campaign leader -- -z",
    "campaign leader -",
    "--campaign nope campaign wagon --coins 1",
    "campaign undo --json --campaign nope",
]
# Lines the fast path leaves to typer (its usage errors and help, in its words).
TO_TYPER = [
    "campaign wagon --coins x",
    "campaign wagon --coins",
    "campaign wagon --coins 1.5",
    "campaign wagon --coins 99999999999999999999",
    "campaign wagon --help",
    "campaign wagon --coin 1",
    "campaign wagon --coins 1 extra",
    "campaign wagon --json --json",
    "campaign wagon --json=1",
    "campaign wagon --reason -x",
    "campaign trophies",
    "campaign leader",
    "campaign leader a b",
    "campaign leader -z",
    "campaign undo -1",
    "campaign undo x",
    "campaign undo --to",
    "campaign undo --help",
    "campaign redo 1 2",
    "campaign redo --json=yes",
]


def _save(folder: Path) -> list[object]:
    """What the save holds, but when each step was recorded."""
    with sqlite3.connect(next(folder.glob("*.db"))) as db:
        return [
            db.execute("SELECT step, type, data, av, chance, delta, state_hash, app, data_fp, "
                       "exact FROM actions ORDER BY step").fetchall(),
            db.execute("SELECT * FROM snapshots ORDER BY step").fetchall(),
            db.execute("SELECT * FROM meta WHERE key != 'created' ORDER BY key").fetchall(),
        ]


# The day steps of a Roguelite campaign, from the Recovery to the Events.
DAY_LINES = [
    "day recover",
    "day recover --json",
    "day zone catacmbs",
    "day zone garden",
    "day location",
    "day minions --json",
    "day difficulty",
    "day last-assault",
    "day last-assault --no",
    "day nemesis",
    "day difficulty --json",
    "day difficulty 2",
    "day events",
    "day end --json",
]
DAY_TO_TYPER = [
    "day location --random",
    "day zone",
    "day zone --help",
    "day nemesis --draw x",
    "day difficulty two",
    "day next",
]
# A Single game's night (laid out and answered through typer) and the End steps refused in it.
NIGHT_SETUP = ["night setup --nemesis lucilla --location catacombs-ossuary-gallery --minions "
               "undead-bone-sentinel,ghoul-crypt-gnawer", "night answer none"]
NIGHT_LINES = [
    "night play aurel Ricochet",
    "night play aurel nothing",
    "night play zora 1 --json",
    "night continue",
    "night pass aurel",
    "night rest zora 2",
    "end night",
    "end loot --json",
    "end finish",
    "end weaken x",
]
NIGHT_TO_TYPER = [
    "night play aurel",
    "night play aurel 1 --draw x",
    "night rest --help",
    "end weaken --help",
    "end night extra",
]


def _both_ways(tmp_path: Path, capsys: pytest.CaptureFixture[str],
               monkeypatch: pytest.MonkeyPatch, new: list[str], setup: list[str],
               lines: list[str], to_typer: list[str]) -> None:
    """Run the campaign ``new`` and the ``setup`` lines, then each line of ``lines`` and
    ``to_typer`` on two copies of it, on the fast path and with it off: the same output,
    exit code and save; the fast path took exactly ``lines``."""
    from blood_companion.cli import record_fast

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BLOOD_CAMPAIGN", raising=False)
    first = tmp_path / "typer"
    assert entry.main(["--saves-dir", str(first), "campaign", "new", "same", *new]) == 0
    for line in setup:
        assert entry.main(["--saves-dir", str(first), *line.split()]) == 0, line
    shutil.copytree(first, tmp_path / "fast")
    capsys.readouterr()
    taken: list[str] = []
    real = record_fast.fast_record

    def fast_record(args: list[str], settings: object) -> int | None:
        code = real(args, settings)  # type: ignore[arg-type]
        if code is not None:
            taken.append(" ".join(args))
        return code

    monkeypatch.setattr(record_fast, "fast_record", fast_record)
    for line in lines + to_typer:
        ran = {}
        for way in ("typer", "fast"):
            monkeypatch.setenv("BLOOD_FAST", "0" if way == "typer" else "1")
            code = entry.main(["--saves-dir", str(tmp_path / way), *line.split()])
            out, err = (t.replace(str(tmp_path / way), "SAVES") for t in capsys.readouterr())
            ran[way] = (code, out, err)
        assert ran["fast"] == ran["typer"], line
        assert _save(tmp_path / "fast") == _save(tmp_path / "typer"), line
    assert taken == [" ".join(line.replace("--campaign nope", "").split()) for line in lines]


def test_recorded_steps_are_the_same_on_the_fast_path_and_through_typer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _both_ways(tmp_path, capsys, monkeypatch, ["--troupers", "aurel,zora", "--seed", "5"], [],
               LINES, TO_TYPER)


def test_day_steps_are_the_same_on_the_fast_path_and_through_typer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _both_ways(tmp_path, capsys, monkeypatch, ["--troupers", "aurel,zora", "--seed", "5"], [],
               DAY_LINES, DAY_TO_TYPER)


def test_night_and_end_steps_are_the_same_on_the_fast_path_and_through_typer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _both_ways(tmp_path, capsys, monkeypatch,
               ["--troupers", "aurel,zora", "--seed", "5", "--mode", "single"], NIGHT_SETUP,
               NIGHT_LINES, NIGHT_TO_TYPER)


def test_a_night_answer_is_the_same_on_the_fast_path_and_through_typer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`night answer` (a command of cli/night_steps.py ``COMMANDS``, not an action's own
    declaration): the answer, a refused one and a question that is not waiting both ways."""
    _both_ways(tmp_path, capsys, monkeypatch,
               ["--troupers", "aurel,zora", "--seed", "5", "--mode", "single"], NIGHT_SETUP[:1],
               ["night answer nobody", "night answer none --json", "night answer none"],
               ["night answer --help", "night answer none --draw", "night answer --jsn"])


def test_a_night_setup_is_the_same_on_the_fast_path_and_through_typer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`night setup` (cli/night_steps.py ``COMMANDS``): the night laid out, one refused while
    it goes on, and lines typer reports (a missing or mistyped option, `--help`)."""
    _both_ways(tmp_path, capsys, monkeypatch,
               ["--troupers", "aurel,zora", "--seed", "5", "--mode", "single"], [],
               [NIGHT_SETUP[0] + " --difficulty 2 --events x --json", NIGHT_SETUP[0],
                NIGHT_SETUP[0] + " --json"],
               ["night setup", "night setup --nemesis lucilla", "night setup --help",
                NIGHT_SETUP[0] + " --difficulty two", NIGHT_SETUP[0] + " --draw"])


def test_a_roguelite_night_setup_is_refused_the_same_way_on_both_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _both_ways(tmp_path, capsys, monkeypatch, ["--troupers", "aurel,zora", "--seed", "5"], [],
               [NIGHT_SETUP[0], NIGHT_SETUP[0] + " --json"], [])


def test_a_one_shot_play_is_the_same_on_the_fast_path_and_through_typer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`blood play --json` and `--answer` lines (cli/play_cmd.py ``PLAY``, one table for the
    typer command and the fast path); at the keyboard `play` is typer's."""
    _both_ways(tmp_path, capsys, monkeypatch, ["--troupers", "aurel,zora", "--seed", "5"], [],
               ["play --json", "play --answer 1 --json", "play --answer=2", "play --answer x",
                "play --steps 1 --answer 1 --answer 1 --json"],
               ["play --json --steps x", "play --json --help", "play --answer", "play --jsn"])


def test_a_recorded_step_imports_neither_typer_nor_click(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path / "saves"), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_CAMPAIGN", None)
    env.pop("BLOOD_FAST", None)
    run = ("import json, sys\nfrom blood_companion.cli.entry import main\n"
           "assert main({!r}) == {}\nprint(json.dumps(sorted(sys.modules)))\n")
    new = ["campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7"]
    single = ["campaign", "new", "single", "--troupers", "aurel,zora", "--seed", "5", "--mode",
              "single"]
    setup = ["--campaign", "single", "night", "setup", "--nemesis", "lucilla", "--location",
             "catacombs-ossuary-gallery", "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]
    answer = ["--campaign", "single", "night", "answer", "none"]
    # (the line, its exit code); the End step is refused while the night goes on
    for argv, code in ((new, 0), (["campaign", "wagon", "--coins", "1"], 0),
                       (["campaign", "trophies", "halls=+1", "--json"], 0),
                       (["campaign", "undo"], 0), (["campaign", "redo", "--json"], 0),
                       (["day", "recover", "--json"], 0), (single, 0), (setup, 0), (answer, 0),
                       (["--campaign", "single", "night", "play", "aurel", "1"], 0),
                       (["--campaign", "single", "end", "night"], 1)):
        p = subprocess.run([sys.executable, "-c", run.format(argv, code)], capture_output=True,
                           text=True, env=env, timeout=120, check=False)
        assert p.returncode == 0, p.stderr
        if argv in (new, single):  # `night setup` and `night answer` are fast-path lines too
            continue
        mods = json.loads(p.stdout.strip().splitlines()[-1])
        assert not [m for m in mods if m.split(".")[0] in ("typer", "click")], argv
