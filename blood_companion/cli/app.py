"""The typer application: one module per command group registers itself here."""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import Any

import typer

# typer carries its own copy of click; its parsing errors are these classes
from typer._click import exceptions as click_exceptions

from blood_companion import __version__
from blood_companion.cli.about import is_version_request, print_version
from blood_companion.cli.common import failed, print_json, stderr, wants_json
from blood_companion.cli.failures import usage_doc
from blood_companion.cli.flags import typer_parameters
from blood_companion.cli.settings import GLOBALS, Settings, current, using
from blood_companion.cli.summaries import SUMMARIES


def _flags_show_no_type() -> None:
    """A flag takes no value, so its help row shows no type (typer >= 0.2x prints `<bool>`)."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "flags_untyped", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and getattr(self, "metavar", None) is None:
            return None
        return shown(self, ctx)

    display_type_rich.flags_untyped = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_show_no_type()

app = typer.Typer(
    name="blood",
    help="Blood Companion: plays the Nemesis, rolls the dice, keeps the campaign, answers rules.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

# Command-group modules; each exposes `register(app)`, keyed by the command names it adds.
# Only the module of the command being run is imported (each pulls in rules engines and
# pydantic models that cost time to build); `blood --help` lists them from their summaries
# (``cli.summaries``) without importing any (:func:`listing_command`).
COMMANDS: dict[str, str] = {
    "data": "data_cmd",
    "roll": "dice_run",
    "odds": "dice_run",
    "campaign": "campaign_cmd",
    "test": "test_cmd",
    "day": "day_cmd",
    "night": "night_cmd",
    "end": "end_cmd",
    "status": "status_cmd",
    "board": "board_cmd",
    "card": "card_cmd",
    "play": "play_cmd",
    "table": "table_cmd",
    "rules": "rules_fast",
    "report": "report_cmd",
}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


def _version(value: bool) -> None:
    if value:
        print(f"blood-companion {__version__}")
        raise typer.Exit()


def main_callback(ctx: typer.Context, **given: Any) -> None:
    """Global options may be given anywhere on the command line."""
    # `blood ...` resolved them already (cli.entry, options anywhere on the line); an app
    # invoked directly (typer's CliRunner) reads them here. Either way, once per invocation.
    if isinstance(ctx.obj, Settings):
        settings = ctx.obj
    else:
        # typer read BLOOD_SAVES_DIR itself: say so where the folder came from
        from_env = getattr(ctx.get_parameter_source("saves_dir"), "name", "") == "ENVIRONMENT"
        saves_dir = None if from_env else given["saves_dir"]
        settings = Settings.resolve(saves_dir, given["data_dir"], given["campaign"])
    ctx.obj = settings
    ctx.with_resource(using(settings))


# Its parameters: --version, then the global options as cli/settings.py declares them.
_VERSION = typer.Option(
    False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
)
main_callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
    inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
    inspect.Parameter("version", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=_VERSION),
    *typer_parameters(GLOBALS),
])
app.callback()(main_callback)


_registered: set[str] = set()
# The click command typer builds from the registered modules; building it costs more than
# most commands, so a process that runs several (`blood play`, the tests) builds it once.
_built: dict[tuple[frozenset[str], Any], Any] = {}


def register_commands(names: list[str]) -> None:
    """Import and register the given command modules (once each)."""
    for name in names:
        if name in _registered:
            continue
        _registered.add(name)
        importlib.import_module(f"blood_companion.cli.{name}").register(app)


def click_command(argv: list[str] | None = None) -> Any:
    """The click command of the app with the modules registered so far (built once).

    With ``argv`` naming a group's command (``campaign wagon ...``, no help asked), the group
    is built with that command alone: click reads no other, and building every command of the
    group (their parameters from their signatures) cost more than recording the step. Any
    other line (a help, an unknown or missing command) gets the whole app."""
    one = _one_command(argv or [])
    key = (frozenset(_registered), one)
    if key not in _built:
        if not any(k[0] == key[0] for k in _built):
            _built.clear()
        if one is None:
            _built[key] = typer.main.get_command(app)
        else:
            group, keep = one
            commands = group.registered_commands
            group.registered_commands = [keep]
            try:
                _built[key] = typer.main.get_command(app)
            finally:
                group.registered_commands = commands
    return _built[key]


def _one_command(argv: list[str]) -> Any:
    """(the typer group, the command info) argv runs, when it runs one command of a group of
    the registered modules and asks no help; else None."""
    words = [a for a in argv if not a.startswith("-")][:2]
    if len(words) < 2 or {"--help", "-h"} & set(argv) or argv[:2] != words:
        return None
    group = next((g.typer_instance for g in app.registered_groups if g.name == words[0]), None)
    if group is None or any(g.name == words[1] for g in group.registered_groups):
        return None
    for info in group.registered_commands:
        callback = getattr(info.callback, "__name__", "")
        if (info.name or typer.main.get_command_name(callback)) == words[1]:
            return group, info
    return None


def listing_command() -> Any:
    """The app's click command for `blood --help` (and `blood` alone): its own options, and
    each command not registered yet as a placeholder of its summary, in the order of
    ``SUMMARIES`` (the order typer gives the registered ones). It lists exactly what the whole
    app lists, without importing the command modules."""
    from typer.core import TyperCommand, TyperGroup

    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)  # the app has a callback: always a group
    for name, summary in SUMMARIES.items():
        if name not in group.commands:
            group.add_command(TyperCommand(name, short_help=summary, help=summary), name)
    group.commands = {name: group.commands[name] for name in SUMMARIES}
    return group


def command_path(argv: list[str]) -> str:
    """The command argv runs, as words (``campaign undo``), for messages."""
    words: list[str] = []
    group = click_command(argv)
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


_COMPLETION_OPTIONS = {"--install-completion", "--show-completion"}


def run(argv: list[str], settings: Settings | None = None) -> int:
    """Run the typer app on argv (global options already taken out, in ``settings``)."""
    if is_version_request(argv):  # `--version`, `--version --json`, `--json --version`
        return print_version(argv, settings if settings is not None else current())
    listing = _command_of(argv) is None and not _COMPLETION_OPTIONS & set(argv)
    register_commands(COMMAND_MODULES)
    try:
        code = (listing_command() if listing else click_command(argv)).main(
            args=argv, prog_name="blood", standalone_mode=False, obj=settings
        )
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except click_exceptions.UsageError as exc:
        if wants_json(argv):
            print_json(usage_doc(exc.format_message()))
        exc.show()  # usage, the hint to --help and the error, on stderr
        return 2
    except click_exceptions.ClickException as exc:
        exc.show()
        return exc.exit_code
    except typer.Abort:
        stderr.print("Aborted.")
        return 1
    except (Exception, KeyboardInterrupt) as exc:
        return failed(exc, argv, lambda: command_path(argv))
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
