"""The `blood` console script.

Every command runs through the typer app of ``cli.app``, but one: `blood rules` (checking a
rule at the table) is answered by ``cli.rules_cmd`` without importing typer, pydantic or the
data pack.

The global options (``--saves-dir``, ``--data-dir``, ``--campaign``, anywhere on the line;
``cli.settings.GLOBALS``) are taken out here and read once, with their environment variables,
into one :class:`~blood_companion.cli.settings.Settings` that every path receives; nothing
writes the environment. Typed text is checked here once for every command (:func:`check_args`),
and an exception nobody expected becomes one line, exit code 1 (cli/failures.py ``unexpected``).
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from blood_companion.cli import rules_cmd
from blood_companion.cli.failures import unexpected, usage_error
from blood_companion.cli.settings import GLOBAL_OPTIONS, Settings, argument_problem


class UsageExit(Exception):
    """A usage error found before any command runs (exit code 2): its message."""


def check_args(args: list[str]) -> None:
    """Refuse (UsageExit) arguments or BLOOD_* settings no command can take."""
    for n, arg in enumerate(args, 1):
        why = argument_problem(arg)
        if why:
            raise UsageExit(f"argument {n} {why}.")
    for env in GLOBAL_OPTIONS.values():
        value = os.environ.get(env)
        why = argument_problem(value) if value else None
        if why:
            raise UsageExit(f"{env} {why}.")


def extract_global_options(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """({global option: value}, the rest of argv); UsageExit for an option without a value."""
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


def console() -> NoReturn:
    """The `blood` console script: :func:`main` on the command line."""
    raise SystemExit(main())


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            check_args(args)
            options, rest = extract_global_options(args)
        except UsageExit as exc:
            return usage_error(str(exc), "--json" in args)
        return dispatch(rest, Settings.resolve(options.get("--saves-dir"),
                                               options.get("--data-dir"),
                                               options.get("--campaign")))
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
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        word = next((a for a in args if not a.startswith("-")), "")  # the command, for messages
        return unexpected(word if word.isidentifier() and len(word) < 20 else "(command)", exc,
                          "--json" in args)


def dispatch(args: list[str], settings: Settings) -> int:
    """Run a command whose global options are already taken out."""
    if args[:1] == ["rules"] and not ({"--help", "-h"} & set(args)) and not os.environ.get(
            "_BLOOD_COMPLETE"):
        return rules_cmd.main(args[1:], settings)
    from blood_companion.cli.app import run  # typer and the game: not for `blood rules`

    return run(args, settings)


if __name__ == "__main__":
    console()
