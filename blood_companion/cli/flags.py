"""One declaration of a command's options: a table of :class:`Opt` values, of which
:func:`typer_command` makes the typer command (and `blood rules`, answered before typer,
its ``argparse`` reading: cli/rules_cmd.py). Standard library only (typer is imported by the
``typer_`` functions: `blood rules` and the global options use this module)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

JSON_HELP = "Print exactly one JSON document on stdout."
DRAW_HELP = ("A card the players drew from a deck they hold (a Reaction card revealed, a Minion "
             "summoned), by name or id; repeat in the order drawn. Asked on a terminal when "
             "missing.")
LISTS = ("list", "words")  # the kinds that take several values


class Opt:
    """One parameter of a command: ``name`` (the value's key), its ``flags`` (none: the
    command's words, ``kind="words"``), ``kind`` (flag, int, str, path, list: repeatable,
    words), ``default``, ``help``, and for typer ``metavar``, ``envvar`` and ``complete`` (a
    callback of ``cli/completion.py``, by name); ``min`` for a number, ``required``. An int
    without flags is a positional whole number (`blood campaign undo 3`)."""

    __slots__ = ("name", "flags", "kind", "default", "help", "metavar", "envvar", "complete",
                 "min", "required")

    def __init__(
        self, name: str, *flags: str, kind: str = "str", default: Any = None, help: str = "",
        metavar: str | None = None, envvar: str | None = None, complete: str | None = None,
        min: int | None = None, required: bool = False,
    ) -> None:
        self.name, self.flags, self.kind, self.default, self.help = name, flags, kind, default, help
        self.metavar, self.envvar, self.complete = metavar, envvar, complete
        self.min, self.required = min, required


JSON = Opt("as_json", "--json", kind="flag", default=False, help=JSON_HELP)
DRAW = Opt("draw", "--draw", kind="list", metavar="CARD", help=DRAW_HELP)


class Values(dict):
    """The values of a command's parameters by name, also as attributes (``ask.target``)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def typer_parameters(table: Sequence[Opt]) -> list[Any]:
    """The typer parameters (``inspect.Parameter``, keyword-only) of ``table``."""
    import inspect
    from pathlib import Path

    import typer

    from blood_companion.cli import completion

    types = {"flag": bool, "int": int, "str": str, "path": Path, "list": str, "words": str}
    params = []
    for opt in table:
        extra: dict[str, Any] = {"help": opt.help}
        for key in ("metavar", "envvar", "min"):
            if getattr(opt, key) is not None:
                extra[key] = getattr(opt, key)
        if opt.complete:
            extra["autocompletion"] = getattr(completion, opt.complete)
        default = ... if opt.required else opt.default
        kind = types[opt.kind]
        typed: Any = list[kind] if opt.kind in LISTS else kind  # type: ignore[valid-type]
        info = (typer.Argument(default, **extra) if opt.kind == "words" or not opt.flags
                else typer.Option(default, *opt.flags, **extra))
        params.append(inspect.Parameter(
            opt.name, inspect.Parameter.KEYWORD_ONLY, default=info,
            annotation=typed if opt.required or opt.default is not None else typed | None,
        ))
    return params


def typer_command(table: Sequence[Opt], run: Callable[[Values], None]) -> Any:
    """A function typer makes a command of: the parameters of ``table``; it calls ``run``
    with their values as :func:`parse` gives them (a list parameter not given: ``[]``)."""
    import inspect

    def command(**given: object) -> None:
        run(Values((o.name, (given[o.name] or []) if o.kind in LISTS else given[o.name])
                   for o in table))

    command.__signature__ = inspect.Signature(typer_parameters(table))  # type: ignore[attr-defined]
    return command


def add_command(app: Any, word: str, table: Sequence[Opt], run: Callable[[Values], None],
                **options: Any) -> None:
    """Register the command ``word`` of ``table`` and ``run`` (:func:`typer_command`) on the
    typer ``app``; its help is ``run``'s docstring unless ``options`` (typer's) say another."""
    app.command(word, **{"help": run.__doc__, **options})(typer_command(table, run))
