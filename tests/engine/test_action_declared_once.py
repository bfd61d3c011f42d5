"""An action is declared once (issue 25): a new action written in one module, with its command
words and its fields' flags and help, is found by the CLI (a typer command built for it, its
--help listing the flags), the command table and the options' commands (`blood night next`),
the log sentence and the log's parser, with no other edit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

import pytest
import typer
from typer.testing import CliRunner

from blood_companion.cli import commands, night_cmd
from blood_companion.engine import actions
from blood_companion.engine.actions import Action, Cli, Dice, Side, parse_action
from blood_companion.engine.legal import Next, Option
from blood_companion.engine.words import sentence


@pytest.fixture
def lantern() -> Iterator[type[Action]]:
    """A toy night action, declared here and only here (and forgotten afterwards)."""

    class LightLantern(Action):
        """A Trouper lights a lantern (a toy action: it changes nothing)."""

        type: Literal["night_lantern"] = "night_lantern"
        command = "night lantern"
        summary = "Light a lantern on the Trouper's Tile."
        trouper: Annotated[str, Cli(help="Who lights it.", names="trouper")]
        colour: Annotated[str | None, Cli("--colour", "The lantern's colour.")] = None
        wicks: Annotated[list[str], Cli("--wicks", "Wicks lit, comma-separated.")] = []
        side: Side = None
        dice: Dice = []
        steady: Annotated[bool, Cli("--steady", "The flame holds in the wind.")] = False

        def apply(self, state: Any, ctx: Any) -> Any:
            return state

    yield LightLantern
    actions._REGISTRY.pop("night_lantern", None)
    commands.spec.cache_clear()
    actions.action_adapter.cache_clear()


def test_a_declared_action_gets_its_typer_command(
    lantern: type[Action], monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded: list[Any] = []
    monkeypatch.setattr(night_cmd, "_record", lambda build, as_json, draws: recorded.append(
        (build, as_json, draws)))
    monkeypatch.setattr(night_cmd, "_trouper", lambda state, word: f"id-of-{word}")
    app = typer.Typer()
    night_cmd.add_recorders(app)
    runner = CliRunner()

    shown = runner.invoke(app, ["lantern", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    for text in ("Light a lantern on the Trouper's Tile.", "Who lights it.", "--colour",
                 "The lantern's colour.", "--wicks", "--side", "--dice", "--steady", "--draw",
                 "--json"):
        assert text in shown.output

    done = runner.invoke(app, ["lantern", "red", "--colour", "amber", "--wicks", "a,b",
                               "--wicks", "c", "--side", "LEFT", "--dice", "2 x 1", "--dice",
                               "1", "--steady", "--json"])
    assert done.exit_code == 0, done.output
    [(build, as_json, draws)] = recorded
    assert as_json is True and draws is None
    assert build(None) == lantern(trouper="id-of-red", colour="amber", wicks=["a", "b", "c"],
                                  side="left", dice=["2 x 1", "1"], steady=True)

    refused = runner.invoke(app, ["lantern", "red", "--side", "up"])
    assert refused.exit_code != 0
    assert "unknown side 'up'" in str(refused.exception)


def test_a_declared_action_is_in_the_command_table_and_the_options(
    lantern: type[Action],
) -> None:
    assert commands.command("night_lantern", {"trouper": "aurel", "colour": "amber",
                                              "steady": True, "dice": ["1", "2"]},
                            needs=("side",)) == (
        "blood night lantern aurel --colour amber [--side SIDE] --dice 1 --dice 2 --steady")
    nxt = Next(part="night", step="tactic", title="", prompt="", options=(
        Option("l", "Light a lantern", "night_lantern", {}, needs=("trouper", "wicks")),))
    assert commands.for_next(nxt) == ["blood night lantern TROUPER [--wicks WICKS]"]


def test_a_declared_action_has_its_sentence_and_is_read_from_the_log(
    lantern: type[Action],
) -> None:
    action = parse_action({"type": "night_lantern", "trouper": "aurel", "colour": "amber"})
    assert action == lantern(trouper="aurel", colour="amber")
    assert sentence(action) == "Lantern: trouper aurel, colour amber"
