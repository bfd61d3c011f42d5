"""`blood roll` and `blood odds` answer without typer or pydantic, and the typer commands (help,
completion, the app used directly) run the same code: the same output either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from blood_companion.cli.app import app, register_commands

register_commands(["dice_run"])

ASKS = [
    ["roll", "R G B", "--seed", "3"],
    ["roll", "2R", "--dice", "1 x"],
    ["odds", "R G B", "--target", "2"],
    ["odds", "R G B", "-t", "3", "-r", "2", "--bonus-dice", "B", "-k", "1"],
    ["odds", "--trouper", "aurel", "--trait", "strength", "--target", "2", "--insanity", "3"],
    ["odds", "--trouper", "zora", "--trait", "cunning", "--target", "2", "--knocked-out"],
]


@pytest.mark.parametrize("args", ASKS)
@pytest.mark.parametrize("as_json", [False, True])
def test_the_fast_path_and_the_typer_command_agree(
    blood: Any, args: list[str], as_json: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    full = [*args, "--json"] if as_json else args
    fast = blood(*full)
    typed = CliRunner().invoke(app, full)
    assert fast.code == typed.exit_code == 0, (fast.err, typed.output)
    assert fast.out == typed.stdout
    if as_json:
        assert json.loads(fast.out)["ok"] is True


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["roll", "R", "--nope"], 2, "No such option: --nope"),
        (["roll"], 2, "Missing argument"),
        (["odds", "R"], 2, "Missing option '--target'"),
        (["odds", "R", "--target", "x"], 2, "not a valid integer"),
        (["odds", "R", "--target", "-1"], 1, "below 0"),
        (["roll", "R Q"], 1, "'Q'"),
        (["odds", "--trouper", "arl", "--trait", "strength", "-t", "1"], 1, "did you mean"),
        (["roll", "R", "--seed", "1", "--dice", "1"], 2, "either --seed"),
    ],
)
def test_refusals(blood: Any, args: list[str], code: int, words: str) -> None:
    r = blood(*args)
    assert r.code == code and words in r.err, (r.code, r.err)
    j = blood(*args, "--json")
    assert j.code == code and json.loads(j.out)["ok"] is False


def test_dice_questions_stay_light() -> None:
    code = (
        "import sys\n"
        "from blood_companion.cli.entry import main\n"
        "for args in (['roll', 'R G B'], ['odds', 'R G B', '-t', '2', '-r', '1'],"
        " ['odds', '--trouper', 'aurel', '--trait', 'strength', '-t', '2', '--json']):\n"
        "    assert main(args) == 0, args\n"
        "heavy = [m for m in ('pydantic', 'typer', 'rich', 'yaml') if m in sys.modules]\n"
        "sys.stderr.write(repr(heavy)); sys.exit(1 if heavy else 0)\n"
    )
    env = {**os.environ, "NO_COLOR": "1"}
    subprocess.run([sys.executable, "-m", "blood_companion", "roll", "R"], env=env,
                   capture_output=True, timeout=120, check=True)  # the pack's cache exists
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
