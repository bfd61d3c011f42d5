"""What every command shares: settings, output, the one error handler, and the commands
recording an action, made of the action's declaration (:func:`add_recorder`)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer
from pydantic import ValidationError
from rich.markup import escape

# typer carries its own copy of click; its parsing errors are these classes
from typer._click import exceptions as click_exceptions

from blood_companion import matching
from blood_companion.cli import completion
from blood_companion.cli.commands import for_refs
from blood_companion.cli.failures import unexpected, usage_doc
from blood_companion.cli.flags import DRAW, JSON, LISTS, Opt, Values
from blood_companion.cli.settings import current
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.views import print_doc
from blood_companion.display import Styled, console
from blood_companion.engine.actions import cli_fields
from blood_companion.engine.state import RESOURCE_NAMES
from blood_companion.errors import BloodError, UsageError
from blood_companion.fileio import write_file

# Every line a command prints goes through these two consoles, which clean what came from a
# user or a file (control sequences, bidi overrides) before it reaches the terminal. No text
# blood prints is emoji markup (":name:" in a name stays as typed), so rich's emoji table is
# never loaded (issue 29).
stdout = console(highlight=False, soft_wrap=False, emoji=False)
stderr = console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
print_json = print_doc  # one JSON document on stdout, "ok" first (cli/views.py)

# The `--card` of a recording command drawing one card from an Advanced Tactic deck the
# players hold (`--draw`: any other deck they hold, cli/draws.py).
CARD = Opt("draw", "--card", help="With the Advanced Tactic decks at the table: the card on top "
           "(its name or id; asked on a terminal when missing).")


def command_group(name: str) -> tuple[typer.Typer, Callable[[typer.Typer], None]]:
    """The typer app of the group `blood NAME`, and the ``register(app)`` adding it (cli/app.py)."""
    group = typer.Typer(help=SUMMARIES[name], no_args_is_help=True)
    return group, lambda app: app.add_typer(group, name=name, short_help=SUMMARIES[name])


def typer_parameters(table: Sequence[Opt]) -> list[Any]:
    """The typer parameters (``inspect.Parameter``, keyword-only) of ``table``."""
    types = {"flag": bool, "int": int, "str": str, "path": Path, "list": str, "words": str}
    params = []
    for opt in table:
        extra: dict[str, Any] = {"help": escape(opt.help)}
        for key in ("metavar", "envvar", "min", "max"):
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


def add_command(app: Any, word: str, table: Sequence[Opt], run: Callable[[Values], None],
                **options: Any) -> None:
    """Register the command ``word`` on the typer ``app``: the parameters of ``table``, whose
    values (a list not given: ``[]``) ``run`` gets; its help is ``run``'s docstring unless
    ``options`` (typer's) say another."""
    def command(**given: object) -> None:
        run(Values((o.name, (given[o.name] or []) if o.kind in LISTS else given[o.name])
                   for o in table))

    command.__signature__ = inspect.Signature(typer_parameters(table))  # type: ignore[attr-defined]
    app.command(word, **{"help": run.__doc__, **options})(command)


def declare_command(app: Any, word: str, *table: Opt, **options: Any
                    ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """:func:`add_command` as a decorator: the function takes each option's value by its name."""
    def register(func: Callable[..., None]) -> Callable[..., None]:
        add_command(app, word, table, lambda values: func(**values),
                    **{"help": func.__doc__, **options})
        return func

    return register


def split_list(values: list[str] | None) -> list[str]:
    """Comma-separated words, over any number of repeats of the option."""
    return [x.strip() for v in values or [] for x in v.split(",") if x.strip()]


Resolver = Callable[[Any, str, Mapping[str, Any]], Any]


class Param(NamedTuple):
    """One parameter of a recording command (no field: the class's ``picked_by`` flag)."""

    cls: Any
    field: str
    cli: Any
    listed: bool
    kind: Any
    default: Any
    metavar: str | None


def _params(classes: tuple[Any, ...], several: bool) -> dict[str, Param]:
    """A recording command's parameters by keyword, in order."""
    params: dict[str, Param] = {}
    for c in classes:
        if c.picked_by is not None:
            params[c.picked_by.flag[2:]] = Param(c, "", c.picked_by, False, bool, False, None)
        for field, cli in cli_fields(c).items():
            info = c.model_fields[field]
            kind = info.annotation
            listed = list in (typing.get_origin(kind), *map(typing.get_origin,
                                                            typing.get_args(kind)))
            default = info.get_default() if not info.is_required() else inspect.Parameter.empty
            metavar = cli.metavar or None
            if cli.many and not cli.flag:
                kind = list[str]
            elif listed and cli.flag:
                kind, default = list[str] | None, None
                metavar = metavar or (field.upper() if cli.many else "A,B")
            elif listed or cli.names:
                kind = str | None if default is None else str
            elif cli.ask:
                kind, default = bool | None, None
            if several:
                kind, default = kind | None, None
            key = (cli.flag[2:].replace("-", "_") if several and cli.flag
                   else (metavar or field) if several else field)
            params[key] = Param(c, field, cli, listed, kind, default, metavar)
    return params


def add_recorder(app: typer.Typer, cls: Any, record: Callable[..., None],
                 resolve: Mapping[str, Resolver], draw: Opt | None = DRAW,
                 show: Callable[[bool], None] | None = None) -> None:
    """Add to `app` the command recording the action class `cls`, made of its declaration
    (engine/actions.py): help ``cls.summary``; each field with a ``Cli`` an argument (no flag)
    or an option, in field order; then `draw` (``DRAW``, :data:`CARD` or None) and ``--json``.
    A word a field ``names`` is found in the campaign before the step (``resolve[names](store,
    word, fields so far)``); `record(build, as_json, draws)` records it (``session.recorder``).

    A tuple `cls` is the actions one command records (``day location``: the card chosen, or
    the die rolled): every field is optional, the one whose fields are given is recorded (two:
    refused), else the one with a ``picked_by`` flag; with `show`, no field shows that."""
    classes = cls if isinstance(cls, tuple) else (cls,)
    several = len(classes) > 1 or show is not None
    where = _params(classes, several)
    params = []
    for key, p in where.items():
        cli = p.cli
        done = {"autocompletion": getattr(completion, cli.complete)} if cli.complete else {}
        spec: Any = (typer.Option(cli.flag, help=escape(cli.help)) if not p.field
                     else typer.Option(f"{cli.flag}/{cli.off}" if cli.off else cli.flag,
                                       help=escape(cli.help), metavar=p.metavar, **done)
                     if cli.flag else typer.Argument(
                         help=escape(cli.help), metavar=None if key == p.metavar else p.metavar,
                         **done))
        params.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=p.default,
                                        annotation=Annotated[p.kind, spec]))
    params += typer_parameters([draw, JSON] if draw is not None else [JSON])

    def command(**typed: Any) -> None:
        draws, as_json = typed.pop("draw", None), typed.pop("as_json")
        given = [k for k in where if typed[k] is not None and typed[k] is not False
                 and typed[k] != []]
        chosen = {where[k].cls for k in given}
        if len(chosen) > 1 or len(given) > 1 and not all(where[k].field for k in given):
            raise UsageError("give only one of: " + ", ".join(
                p.cli.flag or key for key, p in where.items()))
        if not chosen and show is not None:
            show(as_json)
            return
        one = chosen.pop() if chosen else next((c for c in classes if c.picked_by), classes[0])
        values: dict[str, Any] = {}
        for key, (c, field, cli, listed, *_) in where.items():
            value = typed[key]
            if c is not one or not field or (several and value is None):
                continue
            if cli.ask and value is None:
                raise UsageError(f"say {cli.flag} ({cli.ask}) or {cli.off}")
            if cli.choices and value is not None:
                if value.lower() not in cli.choices:
                    raise UsageError(f"unknown {field} {value!r}", hint=f"{cli.flag} "
                                     f"{', '.join(cli.choices[:-1])} or {cli.choices[-1]}")
                value = value.lower()
            elif listed and not (value is None and c.model_fields[field].get_default() is None):
                value = (list(value or []) if cli.many else
                         split_list([value] if isinstance(value, str) else value))
            values[field] = value

        def build(state: Any) -> Any:
            fields = dict(values)
            for field, cli in cli_fields(one).items():
                if cli.names and fields.get(field) is not None:
                    fields[field] = resolve[cli.names](state, fields[field], fields)
            return one(**fields)

        record(build, as_json, [draws] if isinstance(draws, str) else draws)

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__doc__ = classes[0].summary
    app.command(classes[0].command.split()[1])(command)


def resource(word: str) -> str:
    """The Resource a word names (its name, a unique start, a near typo); UsageError otherwise."""
    return matching.match(word, [(r, r) for r in RESOURCE_NAMES], "Resource", error=UsageError)


def trouper_of(store: Any, word: str) -> str:
    """The id of the Trouper a word names (id, colour or seat) in the open campaign."""
    return str(store.state.troupers[store.state.trouper_index(word)].trouper)


# The words every group's fields name alike (each group's RESOLVE adds its own).
RESOLVE: dict[str, Resolver] = {
    "trouper": lambda store, word, _: trouper_of(store, word),
    "resource": lambda store, word, _: resource(word),
}


settings = current  # the global options of the command running now (read once: cli/settings.py)


_warned: dict[int, set[str]] = {}


def warn_data(catalog: Any) -> Any:
    """Say on stderr, once per command, which files of the owner's data were not loaded
    (they belong to no kind: ``Catalog.warnings``); return the catalog."""
    said = _warned.setdefault(id(current()), set())
    if len(_warned) > 64:  # a long `blood play` session: keep only this command's
        _warned.clear()
        _warned[id(current())] = said
    for problem in getattr(catalog, "warnings", ()):
        text = str(problem)
        if text not in said:
            said.add(text)
            stderr.print(Styled(("Warning: ", "yellow"), text))
    return catalog


def write_output(path: Any, text: str, *, what: str, force: bool, check_only: bool = False
                 ) -> bool:
    """Write a file the user named (``--out``) through the one file writer (fileio.py):
    never a save or into the saves folder. False when it held ``text`` already."""
    return write_file(path, text.encode("utf-8"), what=what, force=force,
                      saves_dir=settings().saves_path, check_only=check_only)


def hint_of(exc: Any) -> str | None:
    """A refusal's hint, with the commands its `see` references name (cli/commands.py)."""
    hint = getattr(exc, "hint", None)
    see = getattr(exc, "see", ())
    if see:
        more = for_refs(see)
        hint = f"{hint}; {more}" if hint else more
    return hint


def report(exc: Any, argv: list[str]) -> int:
    """Print a refused action or bad input clearly; return its exit code."""
    hint = hint_of(exc)
    if "--json" in argv:
        doc = exc.to_json()
        if hint:
            doc["hint"] = hint
        print_json(doc)
    stderr.print(Styled(("Error: ", "bold red"), exc.message))
    if hint:
        stderr.print(Styled(("Hint: ", "yellow"), hint))
    return exc.exit_code


def command_path(app: typer.Typer, argv: list[str]) -> str:
    """The command argv runs in ``app``, as words (``campaign undo``), for messages."""
    words: list[str] = []
    group = typer.main.get_command(app)
    for arg in argv:
        if arg.startswith("-"):
            continue
        sub = getattr(group, "commands", {}).get(arg)
        if sub is None:
            break
        words.append(arg)
        group = sub
    return " ".join(words) or "(command)"


def run_typer(app: typer.Typer, argv: list[str], settings: Any = None) -> int:
    """Run the typer ``app`` on argv with ``settings`` (its ``ctx.obj``); return the exit code.
    A usage error shows its usage lines (exit 2; ``--json``: its JSON document too)."""
    try:
        code = typer.main.get_command(app).main(
            args=argv, prog_name="blood", standalone_mode=False, obj=settings
        )
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except click_exceptions.UsageError as exc:
        if "--json" in argv:
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
        return failed(exc, argv, lambda: command_path(app, argv))
    return code if isinstance(code, int) else 0


def failed(exc: BaseException, argv: list[str], command: Callable[[], str]) -> int:
    """The exit code of a command that ``exc`` stopped, said once (the last line of defence
    names ``command()``). A closed pipe goes on to cli.entry, which stops quietly."""
    if isinstance(exc, BloodError):
        return report(exc, argv)
    if isinstance(exc, ValidationError):
        return report(BloodError(f"invalid input: {exc.errors()[0].get('msg', exc)}"), argv)
    if isinstance(exc, KeyboardInterrupt):
        stderr.print("Interrupted; nothing more was recorded.")
        return 130
    if isinstance(exc, BrokenPipeError):
        raise exc
    return unexpected(command(), exc, "--json" in argv)


def typed_number(text: str) -> int | None:
    """The whole number a player typed ("3", " 12 "), or None when `text` is not one: other
    digit characters ("²"), a sign, or more digits (9) than any count in the game."""
    word = text.strip()
    if word.isascii() and word.isdigit() and len(word) <= 9:
        return int(word)
    return None
