"""Issue 29, Speed of the commands that record: what they no longer build or import, and that
they answer the same.

* a command of a group (``campaign wagon``) is run from a click group holding that command
  alone (``cli/app.py`` ``click_command``); help, an unknown command or a usage error get the
  whole group and say what they said;
* a recorded step imports no YAML (the cached pack is marshal data; ``content/cards.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from blood_companion.cli import app as cli_app


def test_a_group_command_is_built_alone() -> None:
    cli_app.register_commands(["campaign_cmd"])
    whole = cli_app.click_command(["campaign", "--help"]).commands["campaign"].commands
    assert {"wagon", "undo", "redo", "new", "show"} <= set(whole)
    one = cli_app.click_command(["campaign", "wagon", "--coins", "1"]).commands["campaign"]
    assert list(one.commands) == ["wagon"]
    assert [p.name for p in one.commands["wagon"].params] == [
        p.name for p in whole["wagon"].params
    ]
    # an unknown command, a help or options before the command: the whole group
    for argv in (["campaign", "wagn"], ["campaign", "wagon", "--help"], ["campaign"]):
        assert set(cli_app.click_command(argv).commands["campaign"].commands) == set(whole)
    # the typer app itself is left whole
    assert cli_app.click_command().commands["campaign"].commands.keys() == whole.keys()


def test_a_group_command_says_what_it_said(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7").code == 0
    bad = blood("campaign", "wagon", "--coins", "x")
    assert bad.code == 2 and "blood campaign wagon --help" in bad.err
    typo = blood("campaign", "wagn")
    assert typo.code == 2 and "Did you mean 'wagon'?" in typo.err
    ok = blood("campaign", "wagon", "--coins", "2")
    assert ok.code == 0 and "Wagon adjusted: +2 coins" in ok.out
    assert "wagon" in blood("campaign", "--help").out


def test_a_recorded_step_imports_no_yaml(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    env = {**os.environ, "BLOOD_SAVES_DIR": str(saves), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_CAMPAIGN", None)
    new = ["campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7"]
    wagon = ["campaign", "wagon", "--coins", "1"]
    found = []
    for argv in (new, wagon, wagon):  # the first writes the pack's cache, then fresh processes
        code = (
            "import sys\n"
            "from blood_companion.cli.entry import main\n"
            f"assert main({argv!r}) == 0\n"
            "print('YAML' if 'yaml' in sys.modules else 'none')\n"
        )
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=120, check=False)
        assert p.returncode == 0, p.stderr
        found.append(p.stdout.strip().splitlines()[-1])
    assert found[1:] == ["none", "none"]
