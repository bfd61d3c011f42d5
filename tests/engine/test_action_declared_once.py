"""An action is declared once (issue 25): a new action written in one module, with its command
words and its fields' flags and help, and one row of its phase (engine/flow.py ``extend``), is
found by the CLI (a typer command built for it, its --help listing the flags), the command table
and the options' commands (`blood night next`), the log sentence and the log's parser, with no
other edit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

import pytest
import typer
from typer.testing import CliRunner

from blood_companion.cli import commands, night_cmd
from blood_companion.engine import flow
from blood_companion.engine.actions import Action, Cli, Dice, Side
from blood_companion.engine.flow import parse_action
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

    undo = flow.extend("night", LightLantern)
    yield LightLantern
    undo()
    commands.spec.cache_clear()


def test_a_declared_action_gets_its_typer_command(
    lantern: type[Action], monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded: list[Any] = []
    monkeypatch.setattr(night_cmd, "_record", lambda build, as_json, draws: recorded.append(
        (build, as_json, draws)))
    monkeypatch.setattr(night_cmd, "trouper_of", lambda state, word: f"id-of-{word}")
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


def test_a_declared_action_says_its_own_sentence() -> None:
    """The log sentence is declared on the action (``said``): words.sentence reads it, and
    falls back to ``describe()`` without names or when the words fail."""

    class RingBell(Action):
        type: Literal["day_ring_bell"] = "day_ring_bell"
        times: int = 1

        def said(self, c: Any, s: Any) -> str:
            if self.times < 0:
                raise ValueError("no such ringing")
            return f"The bell rings {self.times} time(s) over {s}"

        def describe(self) -> str:
            return "Bell"

    assert sentence(RingBell(times=3), None, "the Village") == (  # type: ignore[arg-type]
        "The bell rings 3 time(s) over the Village")
    assert sentence(RingBell(times=3)) == "Bell"
    assert sentence(RingBell(times=-1), None, "the Village") == "Bell"  # type: ignore[arg-type]


def test_a_declared_day_action_gets_completion_lists_and_no_draw_option() -> None:
    """add_recorder without a draw option: a positional comma-separated list, a positional typed
    once per entry, a completed argument, and words resolved from what `record` builds from."""

    class Hang(Action):
        type: Literal["day_hang"] = "day_hang"
        command = "day hang"
        summary = "Hang garlands."
        trouper: Annotated[str, Cli(help="Who hangs them.", names="trouper", complete="trouper")]
        garlands: Annotated[list[str], Cli(help="Garlands, A,B.")]
        knots: Annotated[list[str], Cli(help="Knots, one per word.", many=True)]

        def apply(self, state: Any, ctx: Any) -> Any:
            return state

    recorded: list[Any] = []
    app = typer.Typer()
    from blood_companion.cli.common import add_recorder

    add_recorder(app, Hang, lambda build, as_json, draws: recorded.append((build, draws)),
                 {"trouper": lambda store, word, _: f"{store}:{word}"}, draw=None)
    runner = CliRunner()
    shown = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert "--draw" not in shown.output and "Hang garlands." in shown.output
    done = runner.invoke(app, ["red", "a, b", "x", "y"])
    assert done.exit_code == 0, done.output
    [(build, draws)] = recorded
    assert draws is None
    assert build("st") == Hang(trouper="st:red", garlands=["a", "b"], knots=["x", "y"])
    command = typer.main.get_command(app)
    trouper = next(p for p in command.params if p.name == "trouper")
    assert trouper._custom_shell_complete is not None  # type: ignore[attr-defined]


def test_a_yes_no_that_must_be_answered_is_refused_when_missing() -> None:
    class Toll(Action):
        type: Literal["day_toll"] = "day_toll"
        command = "day toll"
        summary = "Toll the bell, or not."
        loud: Annotated[bool, Cli("--loud", "Loudly?", off="--soft", ask="loudly")]

        def apply(self, state: Any, ctx: Any) -> Any:
            return state

    from blood_companion.cli.common import add_recorder

    recorded: list[Any] = []
    app = typer.Typer()
    add_recorder(app, Toll, lambda build, as_json, draws: recorded.append(build), {},
                 draw=None)
    runner = CliRunner()
    missing = runner.invoke(app, [])
    assert "say --loud (loudly) or --soft" in str(missing.exception)
    assert runner.invoke(app, ["--soft"]).exit_code == 0
    assert recorded[0](None) == Toll(loud=False)


def test_one_command_records_one_of_several_declared_actions() -> None:
    """add_recorder over several actions (as `day location`, `day minions`): the one whose
    fields are given is recorded, else the one its flag picks; two at once are refused; with
    `show`, the command given nothing shows instead. Help text keeps its brackets and a list
    option reads A,B, not <list[str]>."""

    class ChooseFlower(Action):
        type: Literal["day_choose_flower"] = "day_choose_flower"
        command = "day flower"
        summary = "A flower: chosen, or picked at random."
        flower: Annotated[str, Cli(help="The flower chosen [a rose].", metavar="name",
                                   names="flower")]

        def apply(self, state: Any, ctx: Any) -> Any:
            return state

    class RandomFlower(Action):
        type: Literal["day_random_flower"] = "day_random_flower"
        command = "day flower --random"
        picked_by = Cli("--random", "Pick one at random.")
        seen: Annotated[list[str] | None, Cli("--seen", "Flowers seen.")] = None

        def apply(self, state: Any, ctx: Any) -> Any:
            return state

    from blood_companion.cli.common import add_recorder

    recorded: list[Any] = []
    shown: list[Any] = []
    app, viewing = typer.Typer(), typer.Typer()
    for each, show in ((app, None), (viewing, shown.append)):
        add_recorder(each, (ChooseFlower, RandomFlower),
                     lambda build, as_json, draws: recorded.append(build("st")),
                     {"flower": lambda store, word, _: f"{store}:{word}"}, draw=None,
                     show=show)
    runner = CliRunner()
    helped = runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    for text in ("A flower: chosen, or picked at random.", "[name]", "[a rose]", "--random",
                 "Pick one at random.", "--seen", "A,B"):
        assert text in helped
    assert "list[str]" not in helped
    for args in (["rose"], ["--random"], [], ["--seen", "a,b"]):
        assert runner.invoke(app, args).exit_code == 0, args
    assert recorded == [ChooseFlower(flower="st:rose"), RandomFlower(), RandomFlower(),
                        RandomFlower(seen=["a", "b"])]
    for args in (["rose", "--random"], ["rose", "--seen", "a"], ["--random", "--seen", "c"]):
        refused = runner.invoke(app, args)
        assert refused.exit_code != 0
        assert "give only one of: name, --random, --seen" in str(refused.exception)
    recorded.clear()
    assert runner.invoke(viewing, ["--json"]).exit_code == 0
    assert shown == [True] and recorded == []
    assert runner.invoke(viewing, ["tulip"]).exit_code == 0
    assert recorded == [ChooseFlower(flower="st:tulip")] and shown == [True]


@pytest.mark.parametrize(("command", "words"), [
    ("location", ("[card]", "--roll", "--dice", "--draw", "Cartographer's Office")),
    ("minions", ("[cards]", "--random", "--drawn", "A,B", "--draw", "Hunting House")),
    ("nemesis", ("[card]", "--random", "--drawn", "--draw", "Asylum")),
    ("difficulty", ("[level]", "omit to see the table")),
])
def test_the_day_selections_are_built_from_their_declarations(
    command: str, words: tuple[str, ...]
) -> None:
    """`day location`, `minions`, `nemesis`, `difficulty`: commands built from the actions'
    declarations (their help is the actions' summary), with --draw for a deck the players
    hold."""
    from blood_companion.cli import day_cmd
    from blood_companion.engine import day as d

    shown = CliRunner().invoke(day_cmd.day_app, [command, "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    summary = {"location": d.ChooseLocation, "minions": d.ChooseMinions,
               "nemesis": d.ChooseNemesis, "difficulty": d.ChooseDifficulty}[command].summary
    assert summary and summary in " ".join(shown.output.split())
    for text in words:
        assert text in shown.output
