"""The fast path of a recorded step (`blood campaign wagon --coins 1`): the command line read
from the action's own declaration (cli/common.py ``step_params``, ``parse_step``, as its typer
command is made of it) and the step recorded by the same function, without importing typer or
click. Anything unusual on the line (a help, a typo, a missing value, a ``--draw`` or ``--card``)
goes to the typer app, which says what is wrong in its words; ``BLOOD_FAST=0`` sends every line
there.

:data:`GROUPS` names the module declaring each group's recorders (``RECORDERS``, or a
``recorder_for(word)`` finding one) without typer."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from blood_companion.cli.flags import Opt, Values
    from blood_companion.cli.settings import Settings

GROUPS = {"campaign": "blood_companion.cli.campaign_steps", "day": "blood_companion.cli.day_steps",
          "end": "blood_companion.cli.end_steps", "night": "blood_companion.cli.night_steps"}
# The commands of one word declared as an options table (cli/flags.py): module, table, runner.
# `blood play` is taken here only for a line that ends by itself (:data:`ONE_SHOT`); at the
# keyboard it runs through typer (its loop lasts the evening).
SINGLE = {"play": ("blood_companion.cli.play_cmd", "PLAY", "_play")}
# The options that make a long-running command (cli/entry.py LONG_RUNNING) end by itself.
ONE_SHOT = {"play": ("--json", "--answer")}


def fast_record(args: list[str], settings: Settings) -> int | None:
    """Record the step of ``args`` (global options taken out) and return the exit code, or
    None when this path does not take the line (the typer app runs it)."""
    if os.environ.get("BLOOD_FAST") == "0" or not args:
        return None
    home = GROUPS.get(args[0]) if len(args) > 1 else None
    single = SINGLE.get(args[0])
    if single is not None:
        once = ONE_SHOT.get(args[0], ())
        if not any(a.partition("=")[0] in once for a in args[1:]):
            return None
    elif home is None:
        return None
    import functools
    import importlib

    from blood_companion.cli.common import failed, parse_step, step_command, step_params
    from blood_companion.cli.settings import using

    if single is not None:  # `blood play --json`
        module = importlib.import_module(single[0])
        table, runner, words = getattr(module, single[1]), getattr(module, single[2]), args[1:]
    else:  # a group's command that records no action (undo, redo, night answer), or a step
        module = importlib.import_module(str(home))
        table, runner = getattr(module, "COMMANDS", {}).get(args[1], (None, None))
        words = args[2:]
    if table is not None:
        given = _declared(words, table)
        if given is None:
            return None
        run = functools.partial(runner, given)
    else:
        # a group finding one recorder without importing every action of it (night, day)
        finder = getattr(module, "recorder_for", None)
        step = finder(args[1]) if finder is not None else next(
            (r for r in module.RECORDERS if r.word == args[1]), None)
        if step is None:
            return None
        classes, where = step_params(step.cls, step.show)
        typed = parse_step(args[2:], where)
        if typed is None:
            return None
        run = functools.partial(step_command(classes, where, step.record, step.resolve,
                                             step.show), **typed)
    try:
        with using(settings):
            run()
    except (EOFError, KeyboardInterrupt):  # as click says it (typer.Abort)
        import sys

        from blood_companion.cli.common import stderr

        sys.stderr.write("\n")
        stderr.print("Aborted.")
        return 1
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception as exc:  # noqa: BLE001 - as the typer app reports it (cli/app.py run)
        return failed(exc, args, lambda: " ".join(args[:2]))
    return 0


def _declared(args: list[str], table: Sequence[Opt]) -> Values | None:
    """The values of a declared command's options (cli/flags.py ``parse``), or None where
    typer must say what is wrong: any word starting with "-" the table does not name (click
    takes it for an option) or any line ``parse`` refuses."""
    from blood_companion.cli.flags import Usage, parse

    known = {f for opt in table for f in opt.flags}
    options = args[: args.index("--")] if "--" in args else args
    if any(a.startswith("-") and a.partition("=")[0] not in known for a in options):
        return None
    try:
        return parse(args, table)
    except Usage:
        return None
