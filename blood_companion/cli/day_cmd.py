"""`blood day ...`: the Day Part's Show and Dusk steps; the recorded steps are made of
cli/day_steps.py ``RECORDERS``."""

from __future__ import annotations

from blood_companion.cli import session
from blood_companion.cli.common import JsonOpt, add_recorder, command_group
from blood_companion.cli.day_steps import RECORDERS, next_doc

day_app, register = command_group("day")


@day_app.command("next")
def next_(as_json: JsonOpt = False) -> None:
    """What the table does next, with the legal choices."""
    session.view("day-next", next_doc, as_json)


for _step in RECORDERS:
    add_recorder(day_app, *_step)
