"""Issue 41, "One game definition": a new night action is one module and one row of its phase.

The toy action below moves the Threat token. It is declared here and only here (its class: its
fields and their flags, its command and help, its log sentence, its menu option and that
option's question, its ``apply``) plus one row of the Night (``flow.extend``), and nothing else
is edited: the CLI builds `blood night toy` and its ``--help``, `blood night next` lists it with
its command, `blood play`'s menu offers it and asks its question, the log says it in words and
the table is told to move the token.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
import typer
from table_fields import unmapped
from typer.testing import CliRunner

from blood_companion.cli import night_cmd
from blood_companion.cli.common import run_typer
from blood_companion.cli.entry import main
from blood_companion.cli.play_menu import Done, Walk
from blood_companion.cli.view_docs import night_next_doc
from blood_companion.content.loader import load_catalog
from blood_companion.engine import flow, physical, words
from blood_companion.engine.actions import Action, Cli, Context
from blood_companion.engine.bookkeeping import night_of, with_night
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.state import CampaignState
from blood_companion.store import CampaignStore


class MoveThreat(Action):
    """A toy night action: a Trouper moves the Threat token up the track."""

    type: Literal["night_toy"] = "night_toy"
    command = "night toy"
    summary = "Move the Threat token up the Threat track (a toy action)."
    words = "{trouper:who} moves the Threat token {steps} space(s) up"
    parts = ("night",)
    trouper: Annotated[str, Cli(help="Who moves it.", names="trouper")]
    steps: Annotated[int, Cli("--steps", "Spaces to move it up.")] = 1

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        return with_night(state, threat=night_of(state).threat + self.steps)

    @classmethod
    def options(cls, state: CampaignState, catalog: Any) -> tuple[Option, ...]:
        if state.night is None or state.night.pending:
            return ()
        return (Option("toy", "Move the Threat token up", "night_toy",
                       {"trouper": state.troupers[0].trouper}, needs=("steps",)),)

    @classmethod
    def question(cls, state: CampaignState, catalog: Any, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        return Ask("steps", "How many spaces does the Threat token move up?",
                   tuple(Pick(str(n), f"{n} space(s)", n) for n in (1, 2, 3)), default="1")


@pytest.fixture()
def toy() -> Iterator[type[MoveThreat]]:
    """The one row: the toy is a move of the Night (undone afterwards)."""
    undo = flow.extend("night", MoveThreat)
    yield MoveThreat
    undo()


class Night:
    """A campaign at its first night, made through the real `blood` commands: its state, data
    pack and head as the save holds them now."""

    def __init__(self, saves_dir: Path) -> None:
        self.saves_dir = saves_dir

    def now(self) -> tuple[CampaignState, Any, int]:
        with CampaignStore.open(self.saves_dir, "demo", load_catalog) as store:
            return store.state, store.catalog, store.head


@pytest.fixture()
def night(saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> Night:
    for argv in (["campaign", "new", "demo", "--troupers", "aurel,zora", "--mode", "single",
                  "--seed", "7"],
                 ["night", "setup", "--nemesis", "corvin", "--location",
                  "catacombs-ossuary-gallery", "--minions",
                  "undead-bone-sentinel,ghoul-crypt-gnawer", "--difficulty", "1"]):
        assert main(argv) == 0, capsys.readouterr().err
    capsys.readouterr()
    return Night(saves_dir)


def _app() -> typer.Typer:
    """The `blood night` group of an app built now (after the extension)."""
    app, group = typer.Typer(), typer.Typer()
    night_cmd.add_recorders(group)
    app.add_typer(group, name="night")
    return app


def test_the_toy_is_a_move_of_the_night_and_read_from_the_log(toy: type[MoveThreat]) -> None:
    night = flow.phase("night")
    assert night is not None and toy in night.moves
    assert flow.action_class("night_toy") is toy
    assert flow.parse_action({"type": "night_toy", "trouper": "aurel", "steps": 2}) == toy(
        trouper="aurel", steps=2)
    assert toy in flow.declared("night")


def test_the_toy_has_its_command_and_help(toy: type[MoveThreat], night: Night,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    shown = CliRunner().invoke(_app(), ["night", "toy", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    for text in ("Move the Threat token up the Threat track", "Who moves it.", "--steps",
                 "Spaces to move it up."):
        assert text in shown.output
    before = night.now()[0].night
    assert before is not None
    assert run_typer(_app(), ["night", "toy", "zora", "--steps", "2"]) == 0, capsys.readouterr()
    after = night.now()[0].night
    assert after is not None and after.threat == before.threat + 2


def test_the_toy_is_in_night_next_and_in_the_play_menu(toy: type[MoveThreat],
                                                       night: Night) -> None:
    state, catalog, _ = night.now()
    nxt = flow.next_view(state, catalog)
    option = nxt.option("toy")
    assert option is not None and option.kind == "night_toy"
    assert "blood night toy aurel [--steps STEPS]" in night_next_doc(state, catalog)["commands"]

    walk = Walk.start(state, catalog)
    assert "toy" in [c.key for c in walk.screen().choices]
    asked = walk.answer("toy")
    assert isinstance(asked, Walk) and asked.asked is not None
    assert asked.screen().question == "How many spaces does the Threat token move up?"
    done = asked.answer("3")
    assert isinstance(done, Done) and done.action == toy(trouper="aurel", steps=3)


def test_the_toy_has_its_sentence_and_its_physical_instruction(
    toy: type[MoveThreat], night: Night
) -> None:
    state, catalog, head = night.now()
    action = toy(trouper="aurel", steps=2)
    assert words.sentence(action, catalog, state) == (
        "Aurel, the Thread-Walker moves the Threat token 2 space(s) up")
    after = flow.apply(state, action, catalog, head)
    assert unmapped(state, after) == []
    told = physical.lines(state, after, catalog)
    threat = state.night.threat if state.night is not None else 0
    assert f"Threat token: {threat} → {threat + 2}" in told
