"""`blood roll` and `blood odds` in the typer app: what `--help`, completion and the app used
directly run. Their options are those ``cli/dice_run.py`` declares and parses on the fast path
(``cli/flags.py`` makes the typer parameters of them); both call the same code. The notation
is documented in docs/dice-and-odds.md."""

from __future__ import annotations

import typer

from blood_companion.cli import dice_run
from blood_companion.cli.common import settings
from blood_companion.cli.flags import Values, typer_command
from blood_companion.cli.summaries import SUMMARIES


def _roll(ask: Values) -> None:
    dice_run.show(*dice_run.roll(ask, settings()), ask.as_json)


def _odds(ask: Values) -> None:
    dice_run.show(*dice_run.odds(ask, settings()), ask.as_json)


def register(app: typer.Typer) -> None:
    app.command("roll", help=dice_run.ROLL_HELP, short_help=SUMMARIES["roll"])(
        typer_command(dice_run.ROLL, _roll)
    )
    app.command("odds", help=dice_run.ODDS_HELP, short_help=SUMMARIES["odds"])(
        typer_command(dice_run.ODDS, _odds)
    )
