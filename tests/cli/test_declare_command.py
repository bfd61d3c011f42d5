"""Issue 41: every command is made of its declaration, an options table (cli/flags.py ``Opt``)
through ``cli/common.py`` ``declare_command``: the function gets each value by name, a list not
given as ``[]``, and its help page lists the table's options in order with their help."""

from __future__ import annotations

import argparse

import pytest
import typer
from typer.testing import CliRunner

from blood_companion.cli.common import declare_command
from blood_companion.cli.flags import JSON, Opt
from blood_companion.cli.rules_cmd import _within


def _app() -> tuple[typer.Typer, list[dict[str, object]]]:
    app = typer.Typer()
    got: list[dict[str, object]] = []

    @declare_command(app, "toll",
                     Opt("trouper", help="Who rings.", required=True),
                     Opt("times", "--times", "-t", kind="int", default=1, help="How often."),
                     Opt("bells", "--bell", kind="list", help="A bell; repeat."),
                     JSON)
    def toll(trouper: str, times: int, bells: list[str], as_json: bool) -> None:
        """Ring the bells."""
        got.append({"trouper": trouper, "times": times, "bells": bells, "as_json": as_json})

    @declare_command(app, "quiet")
    def quiet() -> None:
        """Nothing rings."""

    return app, got


def test_the_function_gets_each_value_by_name() -> None:
    app, got = _app()
    r = CliRunner().invoke(app, ["toll", "aurel", "-t", "3", "--bell", "a", "--bell", "b",
                                 "--json"])
    assert r.exit_code == 0, r.output
    assert got == [{"trouper": "aurel", "times": 3, "bells": ["a", "b"], "as_json": True}]
    r = CliRunner().invoke(app, ["toll", "zora"])
    assert got[-1] == {"trouper": "zora", "times": 1, "bells": [], "as_json": False}


def test_a_required_value_missing_is_a_usage_error() -> None:
    app, got = _app()
    r = CliRunner().invoke(app, ["toll"])
    assert r.exit_code == 2 and not got


def test_the_help_is_the_docstring_and_the_table() -> None:
    app, _ = _app()
    r = CliRunner().invoke(app, ["toll", "--help"], env={"COLUMNS": "100"})
    assert r.exit_code == 0
    assert "Ring the bells." in r.output
    text = r.output
    assert text.index("--times") < text.index("--bell") < text.index("--json")
    assert "How often." in text and "A bell; repeat." in text


def test_a_number_outside_its_min_and_max_is_refused() -> None:
    app = typer.Typer()
    got: list[int] = []

    @declare_command(app, "listen",
                     Opt("port", "--port", kind="int", default=8765, min=0, max=65535,
                         metavar="N", help="The port."))
    def listen(port: int) -> None:
        """Listen."""
        got.append(port)

    @declare_command(app, "other")
    def other() -> None:
        """A second command, so that `listen` stays a subcommand."""

    runner = CliRunner()
    for given in ("0", "65535"):
        assert runner.invoke(app, ["listen", "--port", given]).exit_code == 0
    assert runner.invoke(app, ["listen"]).exit_code == 0
    assert got == [0, 65535, 8765]
    for given, why in (("70000", "65535"), ("-1", "0"), ("x", "integer")):
        r = runner.invoke(app, ["listen", "--port", given])
        assert r.exit_code == 2 and "--port" in r.output and why in r.output, r.output
    assert got == [0, 65535, 8765]
    r = runner.invoke(app, ["listen", "--help"], env={"COLUMNS": "100"})
    assert "N [0<=x<=65535]" in r.output


def test_the_rules_reading_keeps_min_and_max_too() -> None:
    number = _within(0, 65535)
    assert number("0") == 0 and number("65535") == 65535
    for given in ("-1", "65536"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"0<=x<=65535"):
            number(given)
    with pytest.raises(argparse.ArgumentTypeError, match=r"x>=1"):
        _within(1, None)("0")
