"""The commands a view names are written from each action's declaration, stored in the cache
folder (cli/commands.py ``spec``): what is read back is what the declaration says, a changed
action module is read anew, and a view refreshed after a step imports no action module for
its commands (issue 29)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blood_companion.cli import commands
from blood_companion.engine.actions import ACTION_HOMES


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("BLOOD_NO_CACHE", raising=False)
    monkeypatch.setattr(commands, "_specs", None)
    commands.spec.cache_clear()
    yield tmp_path
    monkeypatch.setattr(commands, "_specs", None)
    commands.spec.cache_clear()


def test_every_stored_spec_is_the_declared_one(fresh: Path) -> None:
    kinds = sorted(ACTION_HOMES)
    made = {k: commands.spec(k) for k in kinds}  # read from the classes, and stored
    assert made == {k: commands._declared(k) for k in kinds}
    stored = json.loads(commands._spec_file().read_text())
    assert sorted(stored["specs"]) == kinds
    commands._specs = None
    commands.spec.cache_clear()
    assert {k: commands.spec(k) for k in kinds} == made  # read back from the file


def test_a_changed_action_module_is_read_anew(fresh: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    commands.spec("adjust_wagon")
    path = commands._spec_file()
    doc = json.loads(path.read_text())
    doc["specs"]["adjust_wagon"][0] = "blood campaign forged"
    path.write_text(json.dumps(doc))
    commands._specs = None
    commands.spec.cache_clear()
    assert commands.spec("adjust_wagon")[0] == "blood campaign forged"  # the stored one
    monkeypatch.setattr(commands, "_spec_key", lambda: [1, 2])  # a module changed since
    commands._specs = None
    commands.spec.cache_clear()
    assert commands.spec("adjust_wagon")[0] == "blood campaign wagon"
    assert json.loads(path.read_text())["key"] == [1, 2]  # stored anew under the new key
    path.write_text("{not json")
    commands._specs = None
    commands.spec.cache_clear()
    assert commands.spec("adjust_wagon") == commands._declared("adjust_wagon")


def test_a_refreshed_view_imports_no_action_module_for_its_commands(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path / "saves"), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_CAMPAIGN", None)
    run = ("import json, sys\nfrom blood_companion.cli.entry import main\n"
           "assert main({!r}) == 0\nprint(json.dumps(sorted(sys.modules)))\n")
    new = ["campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7"]
    wagon = ["campaign", "wagon", "--coins", "1"]
    for argv in (new, wagon, wagon):  # the first wagon stores the specs of the Day's commands
        p = subprocess.run([sys.executable, "-c", run.format(argv)], capture_output=True,
                           text=True, env=env, timeout=120, check=False)
        assert p.returncode == 0, p.stderr
    mods = json.loads(p.stdout.strip().splitlines()[-1])
    assert "blood_companion.engine.day.show" not in mods  # `blood day recover`, named only
