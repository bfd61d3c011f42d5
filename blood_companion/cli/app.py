"""The typer application: one module per command group registers itself here."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import typer
from pydantic import ValidationError
from rich.text import Text

from blood_companion import __version__
from blood_companion.cli.common import hint_of, print_json, stderr, wants_json
from blood_companion.cli.entry import unexpected
from blood_companion.errors import BloodError

app = typer.Typer(
    name="blood",
    help="Blood Companion: plays the Nemesis, rolls the dice, keeps the campaign, answers rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

# Command-group modules; each exposes `register(app)`, keyed by the command names it adds.
# Only the module of the command being run is imported (each pulls in rules engines and
# pydantic models that cost time to build); `blood --help` imports them all to list them.
COMMANDS: dict[str, str] = {
    "data": "data_cmd",
    "roll": "dice_cmd",
    "odds": "dice_cmd",
    "campaign": "campaign_cmd",
    "test": "test_cmd",
    "day": "day_cmd",
    "night": "night_cmd",
    "end": "end_cmd",
    "status": "status_cmd",
    "card": "card_cmd",
    "play": "play_cmd",
    "rules": "rules_cmd",
}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


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
        None,
        "--saves-dir",
        envvar="BLOOD_SAVES_DIR",
        help="Folder of campaign saves (default: ./saves).",
    ),
    data_dir: str = typer.Option(
        None, "--data-dir", envvar="BLOOD_DATA_DIR", help="Your data layered over the shipped pack."
    ),
    campaign: str = typer.Option(
        None,
        "--campaign",
        envvar="BLOOD_CAMPAIGN",
        help="Campaign to act on (default: the last one used).",
    ),
) -> None:
    """Global options may be given anywhere on the command line."""


_registered: set[str] = set()
# The click command typer builds from the registered modules; building it costs more than
# most commands, so a process that runs several (`blood play`, the tests) builds it once.
_built: dict[frozenset[str], Any] = {}


def register_commands(names: list[str]) -> None:
    """Import and register the given command modules (once each)."""
    for name in names:
        if name in _registered:
            continue
        _registered.add(name)
        importlib.import_module(f"blood_companion.cli.{name}").register(app)


def click_command() -> Any:
    """The click command of the app with the modules registered so far (built once)."""
    key = frozenset(_registered)
    if key not in _built:
        _built.clear()
        _built[key] = typer.main.get_command(app)
    return _built[key]


def command_path(argv: list[str]) -> str:
    """The command argv runs, as words (``campaign undo``), for messages."""
    words: list[str] = []
    group = click_command()
    for arg in argv:
        if arg.startswith("-"):
            continue
        sub = getattr(group, "commands", {}).get(arg)
        if sub is None:
            break
        words.append(arg)
        group = sub
    return " ".join(words) or "(command)"


def _command_of(argv: list[str]) -> str | None:
    """The command word of argv (the first argument that is not an option)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return None


def report(exc: BloodError, argv: list[str]) -> int:
    """Print a refused action or bad input clearly; return its exit code."""
    hint = hint_of(exc)
    if wants_json(argv):
        doc = exc.to_json()
        if hint:
            doc["hint"] = hint
        print_json(doc)
    stderr.print(Text.assemble(("Error: ", "bold red"), exc.message))
    if hint:
        stderr.print(Text.assemble(("Hint: ", "yellow"), hint))
    return exc.exit_code


def run(argv: list[str]) -> int:
    command = _command_of(argv)
    register_commands([COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES)
    try:
        click_command().main(args=argv, prog_name="blood", standalone_mode=True)
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
    except BrokenPipeError:
        raise  # cli.entry stops quietly
    except Exception as exc:  # noqa: BLE001 - the last line of defence, see entry.unexpected
        return unexpected(command_path(argv), exc, wants_json(argv))
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
