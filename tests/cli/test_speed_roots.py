"""Issue 29, Speed: the costs removed at their root keep every behaviour.

* the console script ends a short-lived command without collecting garbage or tearing the
  modules down (``cli/entry.py`` ``console``): what it recorded is on disk and what it printed
  reaches a pipe whole; `blood play` keeps the collector and the normal exit;
* an action is parsed by its ``type`` (``engine/actions.py`` ``parse_action``): the same object
  as the discriminated union of every action gave, and the same refusals.
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
    assert _console(monkeypatch, "--saves-dir", "play", "play", "--steps", "2") == (
        "normal", 0, True)


def test_play_answering_one_question_ends_without_collecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`blood play --json` and `--answer` print one document (or the lines answered) and end:
    a short-lived command, ended as the others are."""
    assert _console(monkeypatch, "--saves-dir", "play", "play", "--json") == ("fast", 0, False)
    assert _console(monkeypatch, "play", "--answer", "1") == ("fast", 0, False)
    assert _console(monkeypatch, "play", "--answer=1", "--json") == ("fast", 0, False)


# --------------------------------------------------------------------------- actions by type

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "saves"


def _golden_actions() -> list[dict[str, Any]]:
    """Every action of the golden saves that keep an action schema version per step (v0.2.0
    on), upcast to today's shape: about 30 kinds."""
    import sqlite3

    from blood_companion.engine.upcast import upcast_action

    out = []
    for db in sorted(GOLDEN.glob("*/*.blood.db")):
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            if "av" not in {row[1] for row in conn.execute("PRAGMA table_info(actions)")}:
                continue  # an older layout, read by store/legacy.py
            rows = conn.execute("SELECT data, av FROM actions ORDER BY step").fetchall()
        finally:
            conn.close()
        out += [upcast_action(json.loads(data), av) for data, av in rows]
    return out


def test_an_action_parsed_by_type_is_the_one_the_union_gives() -> None:
    from blood_companion.engine.actions import action_adapter, parse_action

    union = action_adapter()
    actions = _golden_actions()
    assert len({a["type"] for a in actions}) >= 20
    for raw in actions:
        mine = parse_action(raw)
        theirs = union.validate_python(raw)
        assert type(mine) is type(theirs) and mine == theirs, raw["type"]
        assert mine.model_dump() == theirs.model_dump()
        assert parse_action(json.dumps(raw)) == theirs  # from the JSON text too


def test_parsing_by_type_builds_no_union(monkeypatch: pytest.MonkeyPatch) -> None:
    from blood_companion.engine import actions

    def no_union() -> Any:
        raise AssertionError("the union of every action was built")

    monkeypatch.setattr(actions, "action_adapter", no_union)
    wagon = actions.parse_action({"type": "adjust_wagon", "coins": 2})
    assert type(wagon).__name__ == "AdjustWagon" and wagon.coins == 2  # type: ignore[attr-defined]
    with pytest.raises(actions.RuleError, match=r"adjust_wagon\.coins"):
        actions.parse_action('{"type": "adjust_wagon", "coins": "many"}')


@pytest.mark.parametrize(
    "data",
    [
        {"type": "no_such_action"},
        {"type": 5},
        {"type": ["adjust_wagon"]},
        {},
        {"coins": 1},
        [1],
        None,
        {"type": "adjust_wagon", "coins": "many"},
        {"type": "adjust_wagon", "bogus": 1},
        {"type": "set_leader"},
        '{"type": "no_such_action"}',
        '{"type": "adjust_wagon", "coins": "many"}',
        "[1]",
        "null",
        "{not json",
    ],
)
def test_a_refusal_by_type_says_what_the_union_said(data: Any) -> None:
    from pydantic import ValidationError

    from blood_companion.engine.actions import RuleError, action_adapter, parse_action

    union = action_adapter()
    with pytest.raises(ValidationError) as theirs:
        if isinstance(data, str):
            union.validate_json(data)
        else:
            union.validate_python(data)
    err = theirs.value.errors()[0]
    expected = f"malformed action ({'.'.join(str(x) for x in err['loc'])}: {err['msg']})"
    with pytest.raises(RuleError) as mine:
        parse_action(data)
    assert str(mine.value) == expected


# --------------------------------------------------------------------------- the stored help


def test_help_is_stored_and_printed_again_as_rendered(
    blood: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from blood_companion.cli import help_text

    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "100")
    first = blood("--help")
    assert first.code == 0 and "Usage: blood" in first.out and "campaign" in first.out
    (stored,) = (tmp_path / "help").glob("help-*.txt")
    assert stored.read_text(encoding="utf-8") == first.out

    def no_render(settings: Any) -> Any:
        raise AssertionError("rendered again")

    monkeypatch.setattr(help_text, "_render", no_render)
    assert blood("--help").out == first.out
    monkeypatch.undo()
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "60")  # another width: another text, rendered and stored
    narrow = blood("--help")
    assert narrow.code == 0 and narrow.out != first.out
    assert max(len(line) for line in narrow.out.splitlines()) <= 60
    assert len(list((tmp_path / "help").glob("help-*.txt"))) == 2
    stored.write_bytes(b"\xff\xfe not ours")  # a damaged text is no text: rendered anew
    monkeypatch.setenv("COLUMNS", "100")
    assert blood("--help").out == first.out


def test_stored_help_imports_no_typer(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from blood_companion.cli.entry import main\n"
        "code = main(['--help'])\n"
        "sys.stderr.write(repr((code, sorted(m for m in ('typer', 'rich', 'pydantic')"
        " if m in sys.modules))))\n"
    )
    env = {**os.environ, "BLOOD_CACHE_DIR": str(tmp_path), "COLUMNS": "100"}
    runs = [
        subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                       timeout=120, check=False)
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout and "Usage: blood" in runs[1].stdout
    assert "'typer'" in runs[0].stderr  # the first one renders it with typer
    assert runs[1].stderr == "(0, [])"
