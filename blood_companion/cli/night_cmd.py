"""`blood night ...`: the Night Part with the app as the Nemesis: laying a night out, its
views, the answer to a question; the recorded steps are made of cli/night_steps.py."""

from __future__ import annotations

from typing import Annotated

import typer

from blood_companion.cli import night_steps, session
from blood_companion.cli.common import (
    DrawOpt,
    JsonOpt,
    add_recorder,
    command_group,
    print_json,
    stdout,
)
from blood_companion.cli.flags import add_command
from blood_companion.cli.night_steps import _night_state, _record
from blood_companion.engine import narrate, why
from blood_companion.engine.night import NextPhase, board_view

night_app, register = command_group("night")


# ---------------------------------------------------------------------- commands


add_command(night_app, "setup", *night_steps.COMMANDS["setup"])  # first, as it was declared


@night_app.command("next")
def next_(as_json: JsonOpt = False) -> None:
    """What the table does now: whose move, the question waiting, the commands that fit."""
    session.view("night-next", night_steps.next_doc, as_json)


@night_app.command("board")
def board(as_json: JsonOpt = False) -> None:
    """The Night Board (same as `blood status`)."""
    from blood_companion.cli.status_cmd import print_night

    with session.open_session() as store:
        view = board_view(_night_state(store.state), store.catalog)
    if as_json:
        print_json(view)
    else:
        print_night(view)


@night_app.command("log")
def log(
    turn: Annotated[int | None, typer.Option("--turn", help="Only this Game Turn.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The night's log: what the Nemesis, the Minions and the players did."""
    with session.open_session() as store:
        night = _night_state(store.state).night
        assert night is not None
        entries = [e for e in why.told(night.log) if turn is None or e.turn == turn]
        cat = store.catalog
        lines = [(e, narrate.render(e, cat)) for e in entries]
    if as_json:
        print_json({"log": [{**e.model_dump(), "text": text} for e, text in lines]})
        return
    for e, text in lines:
        stdout.print(f"[{e.turn}] {text}", markup=False)


add_command(night_app, "answer", *night_steps.COMMANDS["answer"])  # after log, as declared


@night_app.command("phase", hidden=True)
def phase(draw: DrawOpt = None, as_json: JsonOpt = False) -> None:
    """Same as `continue`."""
    _record(NextPhase(), as_json, draw)


def add_recorders(app: typer.Typer) -> None:
    """A command for every night action declaring its command (cli/night_steps.py)."""
    for step in night_steps.recorders():
        add_recorder(app, *step)


add_recorders(night_app)
