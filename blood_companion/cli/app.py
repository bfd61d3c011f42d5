"""The typer application: one module per command group registers itself here."""

from __future__ import annotations

import importlib
import sys

import typer
from pydantic import ValidationError
from rich.text import Text

from blood_companion import __version__
from blood_companion.cli.common import print_json, stderr, wants_json
from blood_companion.errors import BloodError

app = typer.Typer(
    name="blood",
    help="Blood Companion: plays the Nemesis, rolls the dice, keeps the campaign, answers rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

# Command-group modules; each exposes `register(app)`. Missing ones are skipped so a partial
# checkout still runs.
COMMAND_MODULES = [
    "data_cmd",
    "dice_cmd",
    "campaign_cmd",
    "test_cmd",
    "day_cmd",
    "night_cmd",
    "end_cmd",
    "status_cmd",
    "play_cmd",
    "rules_cmd",
]


def _version(value: bool) -> None:
    if value:
        print(f"blood-companion {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
    saves_dir: str = typer.Option(
        None, "--saves-dir", envvar="BLOOD_SAVES_DIR", help="Folder of campaign saves [./saves]."
    ),
    data_dir: str = typer.Option(
        None, "--data-dir", envvar="BLOOD_DATA_DIR", help="Your data layered over the shipped pack."
    ),
    campaign: str = typer.Option(
        None, "--campaign", envvar="BLOOD_CAMPAIGN", help="Campaign to act on [last used]."
    ),
) -> None:
    """Global options may be given anywhere on the command line."""


for _name in COMMAND_MODULES:
    try:
        _mod = importlib.import_module(f"blood_companion.cli.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"blood_companion.cli.{_name}":
            raise
        continue
    _mod.register(app)


def report(exc: BloodError, argv: list[str]) -> int:
    """Print a refused action or bad input clearly; return its exit code."""
    if wants_json(argv):
        print_json(exc.to_json())
    stderr.print(Text.assemble(("Error: ", "bold red"), exc.message))
    if exc.hint:
        stderr.print(Text.assemble(("Hint: ", "yellow"), exc.hint))
    return exc.exit_code


def run(argv: list[str]) -> int:
    try:
        app(args=argv, prog_name="blood", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except BloodError as exc:
        return report(exc, argv)
    except ValidationError as exc:
        return report(BloodError(f"invalid input: {exc.errors()[0].get('msg', exc)}"), argv)
    except KeyboardInterrupt:
        stderr.print("Interrupted; nothing more was recorded.")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
