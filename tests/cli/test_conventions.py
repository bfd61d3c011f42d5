"""The CLI behaves like a well-kept Python CLI: shell completion, a JSON error document for
usage errors, global options read once into a settings object (no environment written)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from blood_companion.cli.app import app
from blood_companion.cli.settings import Settings, current, using
from tests.cli.conftest import blood_exe

runner = CliRunner()


# ---------------------------------------------------------------------- completion


def test_show_completion_prints_a_script(monkeypatch: pytest.MonkeyPatch) -> None:
    # the shell detected is bash: a run with no shell among its parents (nohup, a service)
    # finds none, and typer then says "Shell  not supported"
    monkeypatch.setattr("typer.completion._get_shell_name", lambda: "bash")
    result = runner.invoke(app, ["--show-completion", "bash"])
    assert result.exit_code == 0, result.output
    assert "complete -o default -F _blood_completion blood" in result.output


def test_completion_options_are_known_to_the_installed_script(
    blood: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("typer.completion._get_shell_name", lambda: "bash")  # as above
    r = blood("--show-completion", "bash")
    assert r.code == 0, r.err
    assert "No such option" not in r.err


def test_the_shell_gets_command_names() -> None:
    env = {**os.environ, "_BLOOD_COMPLETE": "complete_bash", "COMP_WORDS": "blood cam",
           "COMP_CWORD": "1"}
    out = subprocess.run(blood_exe(), env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["campaign"]
    env.update(COMP_WORDS="blood night pl", COMP_CWORD="2")
    out = subprocess.run(blood_exe(), env=env, capture_output=True, text=True, timeout=120)
    assert "play" in out.stdout.split()


# ---------------------------------------------------------------------- --json documents


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "R", "--nope", "--json"],  # click: no such option
        ["odds", "R G", "--json"],  # click: missing --target
        ["odds", "R", "--target", "x", "--json"],  # click: not a number
        ["--saves-dir", "--json"],  # cli.entry: a global option without its value
        ["campaign", "new", "x", "--troupers", "petru", "--mode", "coop", "--json"],  # ours
    ],
)
def test_a_usage_error_with_json_prints_one_error_document(
    blood: Any, saves_dir: Path, args: list[str]
) -> None:
    r = blood(*args)
    assert r.code == 2, (args, r.err)
    doc = json.loads(r.out)  # exactly one document on stdout
    assert doc["ok"] is False and doc["error"]
    assert "Error" in r.err  # the person at the terminal reads it on stderr too


def test_a_usage_error_without_json_prints_nothing_on_stdout(blood: Any) -> None:
    r = blood("roll", "R", "--nope")
    assert r.code == 2 and r.out == "" and "No such option" in r.err


def test_json_documents_say_ok(blood: Any, saves_dir: Path) -> None:
    docs = [
        blood("roll", "R G B", "--seed", "1", "--json"),
        blood("odds", "R G B", "--target", "2", "--json"),
        blood("rules", "push", "--json"),
        blood("data", "validate", "--json"),
        blood("campaign", "new", "c", "--troupers", "aurel,ioana", "--seed", "3", "--json"),
        blood("campaign", "show", "--json"),
        blood("status", "--json"),
        blood("day", "next", "--json"),
        blood("campaign", "undo", "--json"),  # nothing to undo: a refusal
    ]
    for r in docs:
        doc = json.loads(r.out)
        assert "ok" in doc, doc
        assert doc["ok"] is (r.code == 0), doc


# ---------------------------------------------------------------------- settings


def test_settings_resolve_options_over_environment() -> None:
    env = {"BLOOD_SAVES_DIR": "/env/saves", "BLOOD_CAMPAIGN": "envc"}
    s = Settings.resolve(saves_dir="/given", env=env)
    assert s == Settings("/given", None, "envc")
    assert s.saves_dir == Path("/given") and s.data_dir is None
    assert Settings.resolve(env={}) == Settings("saves", None, None)
    with pytest.raises(AttributeError):
        s.campaign = "other"  # type: ignore[misc]


def test_using_makes_settings_current_and_restores() -> None:
    outer = current()
    with using(Settings("/a")) as s:
        assert current() is s
        with using(Settings("/b")):
            assert current().saves_path == "/b"
        assert current() is s
    assert current() == outer


def test_two_invocations_with_different_saves_dirs_do_not_leak(tmp_path: Path) -> None:
    """typer's CliRunner on the app, no environment patched: each invocation reads its own
    --saves-dir into its settings (ctx.obj) and nothing stays behind."""
    a, b = tmp_path / "a", tmp_path / "b"
    before = dict(os.environ)
    made = runner.invoke(
        app, ["--saves-dir", str(a), "campaign", "new", "one", "--troupers", "aurel", "--json"]
    )
    assert made.exit_code == 0, made.output
    listed_a = runner.invoke(app, ["--saves-dir", str(a), "campaign", "list", "--json"])
    listed_b = runner.invoke(app, ["--saves-dir", str(b), "campaign", "list", "--json"])
    names_a = [c["name"] for c in json.loads(listed_a.stdout)["campaigns"]]
    names_b = [c["name"] for c in json.loads(listed_b.stdout)["campaigns"]]
    assert names_a == ["one"] and names_b == []
    assert dict(os.environ) == before  # no command wrote the environment
    shown = runner.invoke(app, ["--saves-dir", str(a), "campaign", "show", "--json"])
    assert json.loads(shown.stdout)["name"] == "one"
    missing = runner.invoke(app, ["--saves-dir", str(b), "campaign", "show", "--json"])
    assert missing.exit_code == 1


def test_the_settings_reach_the_command_through_the_typer_context(tmp_path: Path) -> None:
    seen: list[Settings] = []

    probe = typer.Typer()

    @probe.callback()
    def _root(ctx: typer.Context) -> None:
        pass

    @probe.command()
    def look(ctx: typer.Context) -> None:
        seen.append(ctx.find_object(Settings))  # type: ignore[arg-type]

    from blood_companion.cli.app import main_callback

    outer = typer.Typer()
    outer.callback()(main_callback)
    outer.add_typer(probe, name="probe")
    for folder in ("x", "y"):
        r = runner.invoke(outer, ["--saves-dir", str(tmp_path / folder), "probe", "look"])
        assert r.exit_code == 0, r.output
    assert [s.saves_dir for s in seen] == [tmp_path / "x", tmp_path / "y"]


def test_global_options_anywhere_do_not_touch_the_environment(blood: Any, tmp_path: Path) -> None:
    before = {k: v for k, v in os.environ.items() if k.startswith("BLOOD_")}
    r = blood("campaign", "list", "--saves-dir", str(tmp_path / "s"), "--json")
    assert r.code == 0, r.err
    assert {k: v for k, v in os.environ.items() if k.startswith("BLOOD_")} == before


# ---------------------------------------------------------------------- the command listing


def test_every_command_has_its_summary() -> None:
    from blood_companion.cli.summaries import SUMMARIES

    group = typer.main.get_command(app)
    assert list(group.commands) == list(SUMMARIES)  # type: ignore[attr-defined]
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        assert command.short_help == SUMMARIES[name], name


def test_a_model_refusing_input_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pydantic validation error escaping a command is the user's input refused (exit 1,
    "invalid input: ..."), not a crash."""
    import pydantic

    from blood_companion.cli import app as app_module
    from blood_companion.cli import dice_run

    def refuse(*_: Any, **__: Any) -> Any:
        pydantic.TypeAdapter(int).validate_python("seven")

    monkeypatch.setattr(dice_run, "roll", refuse)
    assert app_module.run(["roll", "R"]) == 1
    err = capsys.readouterr().err
    assert "invalid input" in err and "unexpected" not in err


@pytest.mark.parametrize(("words", "shown"), [
    (["campaign", "new"], ["[a new random one]", "A,B[,C,D]", "[seat 1]"]),
    (["night", "setup"], ["[random]"]),
    (["card", "hand"], ["[everyone]"]),
])
def test_an_options_help_keeps_its_bracketed_default(words: list[str], shown: list[str]) -> None:
    # rich reads "[...]" as markup: an option's help is escaped so the default stays readable
    page = " ".join(runner.invoke(app, [*words, "--help"], env={"COLUMNS": "200"}).output.split())
    for text in shown:
        assert text in page
