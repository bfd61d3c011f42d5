"""Issue 29, Speed: a command imports what it uses, no more.

* the Day and night engines' packages import a module when one of its names is first asked for
  (``engine/day/__init__.py``, ``engine/night/__init__.py``): a recorded Day step imports no
  night engine and not the actions of every Day step;
* an action class is found by its ``type`` with only its own module imported
  (``engine/actions.py`` ``ACTION_HOMES``, ``action_class``);
* the consoles of every command never load rich's emoji table (``cli/common.py``), nor rich at
  all for a recorded step printed to a pipe (``display.LazyConsole``), and the
  console script tells pydantic not to scan the installed distributions for plugins
  (``cli/entry.py`` ``quiet_pydantic_plugins``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import entry


def _modules_after(code: str, env: dict[str, str] | None = None) -> list[str]:
    """The modules a fresh interpreter holds after running ``code`` (its last line of output)."""
    probe = code + "\nimport sys\nprint(json.dumps(sorted(sys.modules)))\n"
    p = subprocess.run([sys.executable, "-c", "import json\n" + probe], capture_output=True,
                       text=True, env=env, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    found: list[str] = json.loads(p.stdout.strip().splitlines()[-1])
    return found


def test_action_homes_name_the_module_of_every_action() -> None:
    import importlib

    from blood_companion.engine import actions

    for name in actions.ACTION_MODULES:
        importlib.import_module(name)
    homes = {t: f"blood_companion.engine.{h}" for t, h in actions.ACTION_HOMES.items()}
    # the toy actions other tests declare in their own modules are not the engine's
    found = {t: c.__module__ for t, c in actions._REGISTRY.items()
             if c.__module__.startswith("blood_companion.engine.")}
    assert found == homes


def test_an_action_class_imports_its_own_module_only() -> None:
    mods = _modules_after(
        "from blood_companion.engine.actions import action_class, parse_action\n"
        "assert action_class('day_zone').__name__ == 'ChooseZone'\n"
        "assert action_class('night_rest').__name__ == 'Rest'\n"
    )
    assert "blood_companion.engine.day.selection" in mods
    assert "blood_companion.engine.night.planning" in mods
    for other in ("day.show", "day.dusk", "night.tactic", "night.answers", "endgame",
                  "rolls.recorded"):
        assert f"blood_companion.engine.{other}" not in mods, other


def test_an_unknown_type_is_still_refused_after_looking_everywhere() -> None:
    from blood_companion.engine import actions

    assert actions.action_class("no_such_action") is None
    assert actions.action_class("day_end") is actions.action_types()["day_end"]


def test_a_name_of_the_day_package_imports_its_module_only() -> None:
    mods = _modules_after("from blood_companion.engine.day import STEP_TITLES, day_next\n")
    assert "blood_companion.engine.day.views" in mods
    assert "blood_companion.engine.day.selection" not in mods
    assert "blood_companion.engine.day.show" not in mods
    from blood_companion.engine import day, night
    from blood_companion.engine.day.show import Recover
    from blood_companion.engine.night.answers import NextPhase

    assert day.Recover is Recover and night.NextPhase is NextPhase
    with pytest.raises(AttributeError):
        day.NoSuchThing  # noqa: B018
    with pytest.raises(ImportError):
        from blood_companion.engine.night import NoSuchThing  # noqa: F401


def test_a_recorded_day_step_imports_no_night_engine_nor_emoji(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path / "saves"), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_CAMPAIGN", None)
    new = ["campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7"]
    run = "from blood_companion.cli.entry import main\nassert main({!r}) == 0\n"
    _modules_after(run.format(new), env)  # the campaign, and the pack's cache
    for argv in (["campaign", "wagon", "--coins", "1"], ["campaign", "undo"],
                 ["campaign", "redo"]):
        mods = _modules_after(run.format(argv), env)
        night = "blood_companion.engine.night"
        assert not [m for m in mods if m == night or m.startswith(night + ".")], argv
        assert "blood_companion.engine.day.selection" not in mods, argv
        assert "rich._emoji_codes" not in mods, argv


def test_a_recorded_night_step_imports_its_own_actions_only(tmp_path: Path) -> None:
    """`blood night play` finds its recorder from the stored command words (cli/commands.py
    ``kind_of``, night_steps ``recorder_for``): once they are stored, it imports the Planning
    actions' module and no other night action's (nor the Test machinery); the line, its
    output and its exit code are those of the typer command (test_speed_record_fast)."""
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path / "saves"), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_CAMPAIGN", None)
    run = "from blood_companion.cli.entry import main\nassert main({!r}) == 0\n"
    for argv in (["campaign", "new", "n", "--mode", "single", "--troupers", "aurel,zora,ioana",
                  "--seed", "7"],
                 ["night", "setup", "--nemesis", "lucilla", "--location",
                  "catacombs-ossuary-gallery", "--minions", "undead-bone-sentinel,ghoul-crypt-"
                  "gnawer"], ["night", "answer", "none"]):
        _modules_after(run.format(argv), env)
    who, hand = _hand(env)
    first = _modules_after(run.format(["night", "rest", who, hand[0]]), env)
    assert "blood_companion.engine.night.tactic" in first  # the words not stored yet: all
    who, hand = _hand(env)
    mods = _modules_after(run.format(["night", "play", who, hand[0]]), env)
    night = [m for m in mods if m.startswith("blood_companion.engine.night.")]
    assert "blood_companion.engine.night.planning" in night
    for other in ("tactic", "answers", "quick"):
        assert f"blood_companion.engine.night.{other}" not in night
    assert "blood_companion.engine.rolls.procedure" not in mods


def test_the_days_recorded_steps_name_every_day_action_once() -> None:
    """cli/day_steps.py ``STEPS`` lists the Day's recorded steps by action type: every Day
    action declaring its command is there once, and a step's recorder is the one RECORDERS
    holds (same classes, same draw option, same show)."""
    from blood_companion.cli import day_steps
    from blood_companion.engine.actions import action_class, declared

    kinds = [k for s in day_steps.STEPS for k in ((s,) if isinstance(s, str) else s)]
    assert len(kinds) == len(set(kinds))
    # the pairs' second actions (a card drawn) declare no command of their own
    assert {cls.model_fields["type"].default for cls in declared("day")} <= set(kinds)
    assert all(getattr(action_class(k), "__module__", "").startswith(
        "blood_companion.engine.day.") for k in kinds)
    for r in day_steps.RECORDERS:
        word = r.word
        assert day_steps.recorder_for(word) == r


def test_a_recorded_day_step_imports_its_own_actions_only(tmp_path: Path) -> None:
    """`blood day recover` (a Show step) imports the Show actions' module and not the
    Selection's nor the Dusk's, once the Day's command words are stored."""
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path / "saves"), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_CAMPAIGN", None)
    run = "from blood_companion.cli.entry import main\nassert main({!r}) == 0\n"
    _modules_after(run.format(["campaign", "new", "d", "--troupers", "aurel,zora", "--seed",
                               "3"]), env)
    first = _modules_after(run.format(["day", "recover"]), env)
    assert "blood_companion.engine.day.selection" in first  # the words not stored yet: all
    _modules_after(run.format(["campaign", "undo"]), env)
    mods = _modules_after(run.format(["day", "recover"]), env)
    assert "blood_companion.engine.day.show" in mods
    assert "blood_companion.engine.day.selection" not in mods
    assert "blood_companion.engine.day.dusk" not in mods


def _hand(env: dict[str, str]) -> tuple[str, list[str]]:
    """Who plays now and their hand (`blood night next --json`)."""
    doc = json.loads(subprocess.run(
        [sys.executable, "-m", "blood_companion", "night", "next", "--json"], env=env,
        capture_output=True, text=True, timeout=120, check=True).stdout)
    return str(doc["who"]), list(doc["hand"])


def test_a_recorded_step_printed_to_a_pipe_loads_no_rich(tmp_path: Path) -> None:
    """The consoles write plain text to a pipe themselves (display.LazyConsole): a Day step,
    a night step, undo and redo print without importing rich."""
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path / "saves"),
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    for key in ("BLOOD_CAMPAIGN", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE"):
        env.pop(key, None)
    run = "from blood_companion.cli.entry import main\nassert main({!r}) == 0\n"
    new = ["campaign", "new", "one", "--mode", "single", "--troupers", "aurel,zora",
           "--seed", "7"]
    _modules_after(run.format(new), env)
    for argv in (["campaign", "wagon", "--coins", "1"], ["campaign", "undo"],
                 ["campaign", "redo"], ["night", "setup", "--nemesis", "lucilla", "--location",
                 "catacombs-ossuary-gallery", "--minions", "undead-bone-sentinel,ghoul-crypt-"
                 "gnawer"], ["night", "answer", "none"], ["campaign", "undo"]):
        mods = _modules_after(run.format(argv), env)
        assert not [m for m in mods if m == "rich" or m.startswith("rich.")], argv


class _Ran(Exception):
    pass


def test_the_console_script_quiets_pydantic_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str | None] = []

    def fake_main(argv: Any = None) -> int:
        seen.append(os.environ.get("PYDANTIC_DISABLE_PLUGINS"))
        return 0

    def fake_exit(code: int) -> None:
        raise _Ran

    monkeypatch.setattr(entry, "main", fake_main)
    monkeypatch.setattr(entry.os, "_exit", fake_exit)
    monkeypatch.setattr(sys, "argv", ["blood", "status"])
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    was = __import__("gc").isenabled()
    try:
        for preset in (None, "some_plugin"):
            if preset is not None:
                monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", preset)
            with pytest.raises(_Ran):
                entry.console()
    finally:
        if was:
            __import__("gc").enable()
    assert seen == ["__all__", "some_plugin"]  # a value the user set is kept


def test_main_leaves_pydantic_plugins_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path))
    assert entry.main(["--version"]) == 0
    assert "PYDANTIC_DISABLE_PLUGINS" not in os.environ


_PLUGINS = (
    "import os\nos.environ.pop('PYDANTIC_DISABLE_PLUGINS', None)\n"
    "from blood_companion.cli import entry\nentry.quiet_pydantic_plugins()\n{between}"
    "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int = 0\n"
    "assert M(x=1).x == 1\nimport pydantic.plugin._loader as loader\n"
    "print(type(loader).__name__)\n"
)


def test_the_console_script_imports_no_distribution_metadata_for_plugins() -> None:
    """With every plugin disabled, pydantic's loader (and its importlib.metadata) is not
    imported: a stand-in answers "no plugins"."""
    mods = _modules_after(_PLUGINS.format(between=""))
    assert "importlib.metadata" not in mods


def test_the_real_plugin_loader_answers_when_plugins_are_on() -> None:
    probe = _PLUGINS.format(between="os.environ['PYDANTIC_DISABLE_PLUGINS'] = ''\n")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                       timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["module"]  # the stand-in gave way to pydantic's own module
