"""The views of a campaign (status, night next, day next, campaign show, campaign log) are
answered from their stored documents while the save is unchanged: the same text and JSON as
the full command, refreshed by every command that changes the campaign, and without importing
typer, pydantic, rich or the engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import views
from blood_companion.cli.settings import Settings

NIGHT = ["night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]
VIEWS = [["status"], ["night", "next"], ["campaign", "show"], ["campaign", "log"]]


def _full(blood: Any, monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    """The command run in full (the fast path refused)."""
    with monkeypatch.context() as m:
        m.setattr(views, "fast_view", lambda *_: None)
        return blood(*args)


@pytest.mark.parametrize("as_json", [False, True])
def test_fast_path_prints_what_the_command_prints(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert blood("campaign", "new", "v", "--troupers", "zora,aurel", "--mode", "single",
                 "--seed", "4").code == 0
    assert blood(*NIGHT).code == 0  # records, and stores the views of the new state
    for words in VIEWS:
        if as_json and words == ["campaign", "log"]:
            continue  # JSON lines of every step: always the full command
        args = [*words, "--json"] if as_json else words
        view = views.match(args)
        assert view is not None
        assert views.cached(view[0], Settings.resolve()) is not None or words[-1] == "log", words
        fast = blood(*args)
        full = _full(blood, monkeypatch, *args)
        assert fast.code == full.code == 0, (words, fast.err, full.err)
        assert fast.out == full.out, words
        if as_json:
            assert json.loads(fast.out)["ok"] is True


def test_a_change_is_seen_at_once(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "w", "--troupers", "ioana", "--seed", "1").code == 0
    assert blood("day", "next").code == 0
    before = blood("campaign", "show", "--json").json()
    assert blood("campaign", "wagon", "--coins", "2").code == 0
    assert views.cached("campaign-show", Settings.resolve())["wagon"]["coins"] == 2  # type: ignore[index]
    after = blood("campaign", "show", "--json").json()
    assert after["wagon"]["coins"] == before["wagon"]["coins"] + 2
    assert blood("campaign", "mark", "here").code == 0  # same head, new revision
    assert "[here]" in blood("campaign", "log").out
    assert blood("campaign", "undo").code == 0
    assert blood("campaign", "show", "--json").json()["wagon"] == before["wagon"]
    assert "(undone)" in blood("campaign", "log").out


def test_the_log_shows_the_last_steps(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "l", "--troupers", "ioana", "--seed", "1").code == 0
    for _ in range(55):
        assert blood("campaign", "wagon", "--coins", "1").code == 0
    out = blood("campaign", "log").out
    assert "6 earlier step(s)" in out and " 56. " in out and " 6. " not in out
    every = blood("campaign", "log", "--last", "0").out
    assert " 1. Started" in every
    assert len(blood("campaign", "log", "--json").out.splitlines()) == 56


def _single_night(env: dict[str, str]) -> None:
    """A Single game's night laid out, by the installed app in processes of their own."""
    exe = [sys.executable, "-m", "blood_companion"]
    subprocess.run([*exe, "campaign", "new", "x", "--troupers", "zora", "--mode", "single"],
                   env=env, check=True, capture_output=True, timeout=120)
    subprocess.run([*exe, *NIGHT], env=env, check=True, capture_output=True, timeout=120)


def test_the_fast_path_stays_light(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path), "NO_COLOR": "1"}
    _single_night(env)
    code = (
        "import sys\n"
        "from blood_companion.cli.entry import main\n"
        "for args in (['status'], ['night', 'next'], ['campaign', 'show'], ['status', '--json']):\n"
        "    assert main(args) == 0, args\n"
        "heavy = [m for m in ('pydantic', 'typer', 'rich', 'yaml', 'blood_companion.engine.state',"
        " 'blood_companion.store.campaign_store') if m in sys.modules]\n"
        "sys.stderr.write(repr(heavy)); sys.exit(1 if heavy else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_view_with_options_it_does_not_know_runs_in_full() -> None:
    assert views.match(["status"]) == ("status", False)
    assert views.match(["night", "next", "--json"]) == ("night-next", True)
    assert views.match(["campaign", "log", "--json"]) is None
    assert views.match(["campaign", "log", "--all"]) is None
    assert views.match(["status", "--json", "--json"]) is None
    assert views.match(["campaign", "undo"]) is None


def test_a_view_built_anew_prints_what_the_command_prints_without_typer(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No stored document (or a stale one): the fast path builds the view with the typer
    command's own builder (views.BUILDERS, session.view) and keeps it; a refusal is said the
    same way (night next by day)."""
    monkeypatch.setenv("COLUMNS", "80")
    assert blood("campaign", "new", "d", "--troupers", "zora,aurel", "--seed", "4").code == 0
    assert blood("campaign", "new", "n", "--troupers", "zora,aurel", "--mode", "single",
                 "--seed", "4").code == 0
    assert blood("--campaign", "n", *NIGHT).code == 0
    taken: list[str] = []
    real = views.rebuild

    def rebuild(view: str, *rest: Any) -> int | None:
        code = real(view, *rest)
        if code is not None:
            taken.append(view)
        return code

    monkeypatch.setattr(views, "rebuild", rebuild)
    lines = [("n", ["status"]), ("n", ["status", "--json"]), ("n", ["night", "next"]),
             ("n", ["night", "next", "--json"]), ("d", ["day", "next"]), ("d", ["status"]),
             ("d", ["day", "next", "--json"]), ("d", ["night", "next"]),
             ("d", ["night", "next", "--json"])]
    for name, words in lines:
        found = views.match(words)
        assert found is not None
        stored = views.cache_path(saves_dir, name, found[0])
        ran = []
        for way in ("fast", "full"):
            stored.unlink(missing_ok=True)
            result = (blood if way == "fast" else
                      lambda *a: _full(blood, monkeypatch, *a))("--campaign", name, *words)
            ran.append((result.code, result.out, result.err,
                        stored.read_text() if stored.exists() else None))
        assert ran[0] == ran[1], words
        assert (ran[0][0] == 0) == (ran[0][3] is not None), words  # kept when shown
    assert taken == [views.match(w)[0] for _, w in lines]  # type: ignore[index]
    assert blood("--campaign", "d", "night", "next").code == 1  # no night: refused


def test_a_view_built_anew_imports_no_typer(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path), "NO_COLOR": "1",
           "BLOOD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("BLOOD_FAST", None)
    _single_night(env)
    code = (
        "import sys, shutil\n"
        "from blood_companion.cli.entry import main\n"
        "for args in (['status'], ['night', 'next', '--json'], ['status', '--json']):\n"
        f"    shutil.rmtree({str(tmp_path / '.cache')!r}, ignore_errors=True)\n"
        "    assert main(args) == 0, args\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich')]\n"
        "sys.stderr.write(repr(heavy)); sys.exit(1 if heavy else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
