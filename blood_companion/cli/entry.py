"""The `blood` console script.

Every command runs through the typer app of ``cli.app``, but one: `blood rules` (checking a
rule at the table) is answered by ``cli.rules_cmd`` without importing typer, pydantic or the
data pack.

The global options (``--saves-dir``, ``--data-dir``, ``--campaign``, anywhere on the command
line; declared once in ``cli.settings.GLOBALS``, which the typer app's callback is made of too)
are taken out here and read once, with their environment variables, into one
:class:`~blood_companion.cli.settings.Settings` that every path receives; nothing writes the
environment.

It is also the border where typed text is checked once for every command (:func:`check_args`:
valid UTF-8, no control characters, a sane length, digits a number can be made of) and the last
line of defence (:func:`unexpected`): an exception nobody expected becomes one line naming the
command and the exception type, exit code 1, never a traceback.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from blood_companion.cli.failures import unexpected as unexpected
from blood_companion.cli.failures import usage_doc as usage_doc
from blood_companion.cli.failures import usage_error as usage_error
from blood_companion.cli.settings import (
    GLOBAL_OPTIONS,
    Settings,
    argument_problem,
    current,
)

__all__ = [
    "GLOBAL_OPTIONS", "argument_problem", "check_args", "console", "dispatch", "main",
    "unexpected",
]


def check_args(args: list[str]) -> None:
    """Refuse (SystemExit 2, one clear line) arguments or BLOOD_* settings no command can take."""
    for n, arg in enumerate(args, 1):
        why = argument_problem(arg)
        if why:
            raise UsageExit(f"argument {n} {why}.")
    for env in GLOBAL_OPTIONS.values():
        value = os.environ.get(env)
        why = argument_problem(value) if value else None
        if why:
            raise UsageExit(f"{env} {why}.")


class UsageExit(SystemExit):
    """A usage error found before any command runs (exit code 2), with its message."""

    def __init__(self, message: str) -> None:
        super().__init__(2)
        self.message = message


def extract_global_options(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """Take the global options out of argv: ({option name: value}, the remaining argv).

    Raises UsageExit when such an option is missing its value.
    """
    found: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        name, eq, value = arg.partition("=")
        if name in GLOBAL_OPTIONS:
            if not eq:
                if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                    raise UsageExit(f"option {name} needs a value.")
                value = argv[i + 1]
                i += 1
            found[name] = value
        else:
            rest.append(arg)
        i += 1
    return found, rest


def settings_from(options: dict[str, str]) -> Settings:
    """The settings of one invocation: its global options, else the environment."""
    return Settings.resolve(
        saves_dir=options.get("--saves-dir"),
        data_dir=options.get("--data-dir"),
        campaign=options.get("--campaign"),
    )


def command_word(args: list[str]) -> str:
    """The command of argv for messages (its first word that is not an option)."""
    word = next((a for a in args if not a.startswith("-")), "")
    return word if word.isidentifier() and len(word) < 20 else "(command)"


def console() -> NoReturn:
    """The `blood` console script: :func:`main` on the command line."""
    raise SystemExit(main())


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args)
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as other commands in a pipe do.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a real file (tests, an embedding app)
            pass
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence, see unexpected()
        return unexpected(command_word(args), exc, "--json" in args)


def _main(args: list[str]) -> int:
    try:
        check_args(args)
        options, args = extract_global_options(args)
    except UsageExit as exc:
        return usage_error(exc.message, "--json" in args)
    return dispatch(args, settings_from(options))


def dispatch(args: list[str], settings: Settings | None = None) -> int:
    """Run a command whose global options are already taken out (``blood play`` runs `rules`
    and `odds` typed at its prompt through here, with its own settings)."""
    settings = settings if settings is not None else current()
    if args[:1] == ["rules"] and not ({"--help", "-h"} & set(args)) and not os.environ.get(
            "_BLOOD_COMPLETE"):
        from blood_companion.cli import rules_cmd

        return rules_cmd.main(args[1:], settings)
    from blood_companion.cli.app import run

    return run(args, settings)


if __name__ == "__main__":
    console()
