"""One declaration of a command's options, read by its fast path and by its typer command.

`blood rules`, `roll`, `odds` and the global options are answered without importing typer
(``cli/entry.py``), yet `--help` and completion go through typer. Each declares its options
once, as :class:`Opt` values: :func:`parse` reads a command line with them, :func:`typer_command`
makes the typer command of them; both give the command the same values. Standard library only
(typer is imported by the ``typer_`` functions)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
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


class Usage(Exception):
    """Bad command-line input (exit code 2), in typer's words."""


def usage_exit(usage: str, exc: Usage, as_json: bool) -> int:
    """Report a usage error of a fast path: its usage lines and the error on stderr (with
    ``--json`` the JSON error document on stdout); exit code 2."""
    import sys

    from blood_companion.cli.failures import usage_error

    sys.stderr.write(usage + "\n")
    return usage_error(str(exc), as_json)


def _label(opt: Opt) -> str:
    return " / ".join(f"'{f}'" for f in opt.flags) or f"'{opt.metavar}...'"


def scan(args: list[str], takes: Mapping[str, bool], numbers: bool = True
         ) -> tuple[list[tuple[str, str | None]], list[str]]:
    """A command line as its options in order, (flag, its value or None), and its other words:
    ``takes`` says of each flag whether it takes a value; ``--`` ends the options; "-" alone
    is a word, and so is "-3" with ``numbers``. Raises Usage as typer would."""
    options: list[tuple[str, str | None]] = []
    words: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            words.extend(args[i:])
            break
        name, eq, value = arg.partition("=")
        if not arg.startswith("-") or name not in takes and (
                len(arg) == 1 or numbers and arg[1:].isdigit()):
            words.append(arg)
            continue
        if name not in takes:
            raise Usage(f"No such option: {name}")
        if not takes[name]:
            if eq:
                raise Usage(f"Option '{name}' does not take a value.")
            options.append((name, None))
            continue
        if not eq:
            if i >= len(args):
                raise Usage(f"Option '{name}' requires an argument.")
            value, i = args[i], i + 1
        options.append((name, value))
    return options, words


def parse(args: list[str], table: Sequence[Opt]) -> Values:
    """The values of ``table`` on the command line ``args`` (defaults filled in; the words
    under the ``words`` parameter, ``--`` ends the options); raises Usage as typer would."""
    by_flag = {f: o for o in table for f in o.flags}
    words = next((o for o in table if o.kind == "words"), None)
    given = Values((o.name, [] if o.kind in LISTS else o.default) for o in table)
    seen: set[str] = set()
    options, rest = scan(args, {f: o.kind != "flag" for f, o in by_flag.items()})
    for name, value in options:
        opt = by_flag[name]
        seen.add(opt.name)
        if value is None:
            given[opt.name] = True
        elif opt.kind == "int":
            given[opt.name] = _number(opt, name, value)
        elif opt.kind == "list":
            given[opt.name].append(value)
        else:
            given[opt.name] = value
    for opt in table:  # a positional whole number takes the first word
        if opt.kind == "int" and not opt.flags and rest:
            given[opt.name] = _number(opt, f"[{opt.name.upper()}]", rest.pop(0))
    if rest and words is None:
        raise Usage(f"Got unexpected extra argument ({rest[0]})")
    if words is not None:
        given[words.name] = rest
    for opt in table:  # a blank word is no word (`blood roll ""`)
        if opt.required and not (opt.name in seen or opt.kind == "words" and "".join(rest).strip()):
            what = "argument" if opt.kind == "words" else "option"
            raise Usage(f"Missing {what} {_label(opt)}.")
    return given


def _number(opt: Opt, name: str, text: str) -> int:
    """An integer typed as digits 0-9 with an optional sign (what typer takes), in range."""
    word = text.strip()
    digits = word[1:] if word[:1] in "+-" else word
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        raise Usage(f"Invalid value for '{name}': '{text}' is not a valid integer.")
    number = int(word)
    if opt.min is not None and number < opt.min:
        raise Usage(f"Invalid value for {_label(opt)}: {number} is not in the range x>={opt.min}.")
    return number


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
