"""Issue 29, Speed: the costs removed at their root keep every behaviour.

* the console script ends a short-lived command without collecting garbage or tearing the
  modules down (``cli/entry.py`` ``console``): what it recorded is on disk and what it printed
  reaches a pipe whole; `blood play` keeps the collector and the normal exit;
* an action is parsed by its ``type`` (``engine/actions.py`` ``parse_action``): the same object
  as the discriminated union of every action gave, and the same refusals;
* the catalog cache is keyed by the pack's content, not where it is installed
  (``content/raw.py``): two installs of one pack share one cache file.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import entry


def _module_blood(*args: str, saves: Path) -> subprocess.CompletedProcess[bytes]:
    """`python -m blood_companion ARGS` (the console script's own path) with piped output."""
    env = {**os.environ, "BLOOD_SAVES_DIR": str(saves), "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("BLOOD_CAMPAIGN", None)
    return subprocess.run(
        [sys.executable, "-m", "blood_companion", *args],
        capture_output=True,  # both to pipes, as in a script
        env=env,
        timeout=120,
        check=False,
    )


# --------------------------------------------------------------------------- the exit path


def test_recorded_step_is_on_disk_after_the_fast_exit(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7").code == 0
    before = blood("campaign", "show", "--json").json()
    for n, coins in enumerate(("2", "3"), 1):  # two processes: the second reads the first's
        p = _module_blood("campaign", "wagon", "--coins", coins, "--json", saves=saves_dir)
        assert p.returncode == 0, p.stderr.decode()
        assert json.loads(p.stdout)["log_length"] == before["log_length"] + n
    after = blood("campaign", "show", "--json").json()
    assert after["log_length"] == before["log_length"] + 2
    assert after["wagon"]["coins"] == before["wagon"]["coins"] + 5
    log = [json.loads(line) for line in blood("campaign", "log", "--json").out.splitlines()]
    assert [e["action"].get("coins") for e in log[-2:]] == [2, 3]
    # an undo in its own process is kept too
    p = _module_blood("campaign", "undo", "--json", saves=saves_dir)
    assert p.returncode == 0, p.stderr.decode()
    assert blood("campaign", "show", "--json").json()["log_length"] == before["log_length"] + 1


def test_long_output_reaches_a_pipe_whole(blood: Any, saves_dir: Path) -> None:
    whole = blood("data", "schema")
    assert whole.code == 0 and len(whole.out) > 200_000  # bigger than a pipe's buffer
    p = _module_blood("data", "schema", saves=saves_dir)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.decode() == whole.out
    assert json.loads(p.stdout)  # ends where the document ends


def test_an_error_exit_keeps_its_code_and_message(saves_dir: Path) -> None:
    p = _module_blood("campaign", "wagon", "--coins", "1", "--campaign", "nowhere", saves=saves_dir)
    assert p.returncode not in (0, None)
    assert b"nowhere" in p.stderr


class _Exited(Exception):
    def __init__(self, code: int, collecting: bool) -> None:
        super().__init__(code)
        self.code, self.collecting = code, collecting


def _console(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[str, int, bool]:
    """Run ``entry.console`` in-process with ``os._exit`` caught: (how it ended, code, whether
    the collector was on at the end)."""

    def fake_exit(code: int) -> None:
        raise _Exited(code, gc.isenabled())

    monkeypatch.setattr(entry.os, "_exit", fake_exit)
    monkeypatch.setattr(entry, "main", lambda argv=None: 0)
    monkeypatch.setattr(sys, "argv", ["blood", *args])
    was = gc.isenabled()
    try:
        entry.console()
    except _Exited as exc:
        return "fast", exc.code, exc.collecting
    except SystemExit as exc:
        return "normal", int(exc.code or 0), gc.isenabled()
    finally:
        if was:
            gc.enable()
    raise AssertionError("console() returned")


def test_a_short_command_ends_without_collecting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _console(monkeypatch, "campaign", "wagon", "--coins", "1") == ("fast", 0, False)
    assert _console(monkeypatch, "--saves-dir", "x", "status") == ("fast", 0, False)


def test_play_keeps_the_collector_and_the_normal_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _console(monkeypatch, "play") == ("normal", 0, True)
    assert _console(monkeypatch, "--saves-dir", "play", "play", "--json") == ("normal", 0, True)
