"""`blood rules`, `roll`, `odds` and the global options declare their options once
(``cli/flags.py``): the fast path's parser and the typer command read the same table, so a
command line gives the command the same values either way, and an option added to a table is
on both."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from blood_companion.cli import dice_run, rules_fast
from blood_companion.cli.flags import JSON, Opt, Usage, Values, parse, typer_command
from blood_companion.cli.settings import GLOBAL_OPTIONS, GLOBALS


def typer_values(table: tuple[Opt, ...], args: list[str]) -> Values:
    """What the typer command made of ``table`` hands its function for ``args``."""
    got: list[Values] = []
    app = typer.Typer()
    app.command()(typer_command(table, got.append))
    app.command("other")(lambda: None)  # two commands: the first is called by its name
    result = CliRunner().invoke(app, ["command", *args])
    assert result.exit_code == 0, result.output
    return got[0]


LINES = [
    (rules_fast.OPTIONS, ["how", "does", "push", "work"]),
    (rules_fast.OPTIONS, ["--json", "--plain", "-n", "3", "--kind", "keyword", "push"]),
    (rules_fast.OPTIONS, ["--limit=2", "--", "-push", "--plain"]),
    (dice_run.ROLL, ["R G B", "--seed", "3"]),
    (dice_run.ROLL, ["2R", "--dice", "1 x", "--json"]),
    (dice_run.ODDS, ["R", "G", "-t", "2", "-r", "1", "--bonus-dice", "G", "--bonus-dice", "B"]),
    (dice_run.ODDS, ["--trouper", "aurel", "--trait", "strength", "--target", "2",
                     "--insanity", "3", "--insanity-reading", "one-die", "--knocked-out"]),
    (dice_run.ODDS, ["R", "--target=-1", "--bonus-triumphs", "+2", "--exhausted"]),
]


@pytest.mark.parametrize(("table", "args"), LINES)
def test_the_fast_parser_and_the_typer_command_give_the_same_values(
    table: tuple[Opt, ...], args: list[str]
) -> None:
    fast = parse(args, table)
    assert fast == typer_values(table, args)
    assert set(fast) == {o.name for o in table}


def test_an_option_declared_once_is_on_both_paths() -> None:
    toy = (
        Opt("words", kind="words", metavar="WORDS", help="Words."),
        Opt("colour", "--colour", "-c", help="A colour.", default="red"),
        Opt("count", "--count", kind="int", default=1, min=1, help="How many."),
        JSON,
    )
    args = ["a", "-c", "blue", "--count", "4", "b"]
    assert parse(args, toy) == {"words": ["a", "b"], "colour": "blue", "count": 4,
                                "as_json": False}
    assert parse(args, toy) == typer_values(toy, args)
    app = typer.Typer()
    app.command()(typer_command(toy, lambda _: None))
    shown = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "100"}).output
    assert "--colour" in shown and "-c" in shown and "A colour." in shown
    assert "--count" in shown and "[default: 1]" in shown


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--count", "0"], "0 is not in the range x>=1"),
        (["--count", "x"], "'x' is not a valid integer"),
        (["--count"], "Option '--count' requires an argument."),
        (["--json=yes"], "Option '--json' does not take a value."),
        (["--nope"], "No such option: --nope"),
        ([], "Missing option '--count'."),
    ],
)
def test_the_fast_parser_refuses_in_typers_words(args: list[str], words: str) -> None:
    table = (Opt("count", "--count", kind="int", min=1, required=True), JSON)
    with pytest.raises(Usage, match=words.replace("(", r"\(").replace("[", r"\[")):
        parse(args, table)


def test_the_global_options_of_the_typer_app_are_the_declared_ones() -> None:
    from blood_companion.cli.app import app

    group: Any = typer.main.get_command(app)
    declared = {o.name: (o.flags, o.envvar, o.help) for o in GLOBALS}
    shown = {
        p.name: (tuple(p.opts), p.envvar, p.help)
        for p in group.params if p.name in declared
    }
    assert shown == declared
    assert GLOBAL_OPTIONS == {"--saves-dir": "BLOOD_SAVES_DIR", "--data-dir": "BLOOD_DATA_DIR",
                              "--campaign": "BLOOD_CAMPAIGN"}
