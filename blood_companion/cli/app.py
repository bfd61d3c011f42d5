"""The typer application: every command module registers its commands here, in the order
`blood --help` lists them (``cli.summaries``)."""

from __future__ import annotations

import inspect
from typing import Any

import typer

from blood_companion import __version__
from blood_companion.cli import (
    board_cmd,
    campaign_cmd,
    card_cmd,
    data_cmd,
    day_cmd,
    dice_run,
    end_cmd,
    night_cmd,
    play_cmd,
    report_cmd,
    rules_cmd,
    status_cmd,
    table_cmd,
    test_cmd,
)
from blood_companion.cli.about import is_version_request, print_version
from blood_companion.cli.common import run_typer, typer_parameters
from blood_companion.cli.settings import GLOBALS, Settings, current, using

app = typer.Typer(
    name="blood",
    help="Blood Companion: plays the Nemesis, rolls the dice, keeps the campaign, answers rules.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

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
main_callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
    inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
    inspect.Parameter("version", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
                      default=typer.Option(False, "--version", callback=_version, is_eager=True,
                                           help="Show the version and exit.")),
    *typer_parameters(GLOBALS),
])
app.callback()(main_callback)


# The command modules, in the order `blood --help` lists their commands (cli/summaries.py):
# typer lists a group's commands first, then its sub-groups, each in the order registered.
for _module in (dice_run, test_cmd, status_cmd, board_cmd, play_cmd, table_cmd, rules_cmd,
                report_cmd, data_cmd, campaign_cmd, day_cmd, night_cmd, end_cmd, card_cmd):
    _module.register(app)


def run(argv: list[str], settings: Settings | None = None) -> int:
    """Run the typer app on argv (global options already taken out, in ``settings``)."""
    if is_version_request(argv):  # `--version`, `--version --json`, `--json --version`
        return print_version(argv, settings if settings is not None else current())
    return run_typer(app, argv, settings)
