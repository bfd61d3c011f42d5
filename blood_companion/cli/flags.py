"""One declaration of a command's options: a table of :class:`Opt` values, of which
``cli/common.py`` makes the typer command (``add_command``), and `blood rules`, answered
before typer, its ``argparse`` reading (cli/rules_cmd.py). Standard library only."""

from __future__ import annotations

from typing import Any

LISTS = ("list", "words")  # the kinds that take several values


class Opt:
    """One parameter of a command: ``name`` (the value's key), its ``flags`` (none: the
    command's words, ``kind="words"``), ``kind`` (flag, int, str, path, list: repeatable,
    words), ``default``, ``help``, and for typer ``metavar``, ``envvar`` and ``complete`` (a
    callback of ``cli/completion.py``, by name); ``min`` and ``max`` for a number (both
    included), ``required``. An int without flags is a positional whole number (`blood
    campaign undo 3`)."""

    __slots__ = ("name", "flags", "kind", "default", "help", "metavar", "envvar", "complete",
                 "min", "max", "required")

    def __init__(
        self, name: str, *flags: str, kind: str = "str", default: Any = None, help: str = "",
        metavar: str | None = None, envvar: str | None = None, complete: str | None = None,
        min: int | None = None, max: int | None = None, required: bool = False,
    ) -> None:
        self.name, self.flags, self.kind, self.default, self.help = name, flags, kind, default, help
        self.metavar, self.envvar, self.complete = metavar, envvar, complete
        self.min, self.max, self.required = min, max, required


JSON = Opt("as_json", "--json", kind="flag", default=False,
           help="Print exactly one JSON document on stdout.")
DRAW = Opt("draw", "--draw", kind="list", metavar="CARD", help=(
    "A card the players drew from a deck they hold (a Reaction card revealed, a Minion "
    "summoned), by name or id; repeat in the order drawn. Asked on a terminal when missing."))


class Values(dict):
    """The values of a command's parameters by name, also as attributes (``ask.target``)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None
