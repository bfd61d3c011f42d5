"""`blood rules` (search, ``keyword NAME``, ``phase NAME``, ``list [KIND]``): the one command
answered before typer (cli/entry.py), so that checking a rule at the table is quick. Its options
are one table, :data:`OPTIONS`: :func:`main` reads a command line with ``argparse`` made of it,
:func:`register` makes the typer command (``--help``, completion) of it; both call :func:`run`.
The index loads with ``marshal``; rich and typer are imported only when they are used."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NamedTuple

from blood_companion.cli.failures import refused, unexpected, usage_error
from blood_companion.cli.flags import JSON, Opt, Values
from blood_companion.cli.settings import Settings, current
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.display import _isatty, clean, colour_choice, colour_wanted, json_text
from blood_companion.display import console as safe_console
from blood_companion.errors import BloodError
from blood_companion.matching import close_to, did_you_mean
from blood_companion.rules import loader
from blood_companion.rules.entry import KINDS, NAMED, RuleEntry
from blood_companion.rules.index import RulesIndex

USAGE = (
    "Usage: blood rules [OPTIONS] QUERY...\n"
    "       blood rules keyword NAME | phase NAME | list [KIND]\n"
    "Options: --json, --plain, --limit N (results to show, default 5), --kind KIND\n"
    "Try 'blood rules --help' for help."
)
# What `blood rules` takes: read by :func:`main` (argparse) and made the typer command's parameters
# (:func:`register`); either gives :func:`run` the same values.
OPTIONS = (
    Opt("words", kind="words", metavar="QUERY", complete="rules_words",
        help="Words to search, or: keyword NAME, phase NAME, list."),
    JSON,
    Opt("plain", "--plain", kind="flag", default=False, help="Plain text (screen readers, pipes)."),
    Opt("limit", "--limit", "-n", kind="int", default=5, min=1, help="How many results to show."),
    Opt("kind", "--kind", help="Only entries of this kind.", complete="rules_kind"),
)

HELP = "\n\n".join([
    "Answer rules questions from the rulebook reference, typos forgiven.",
    "[bold]Examples[/bold]",
    "  blood rules how does push work",
    '  blood rules "exhausted test" --plain',
    "  blood rules keyword push     [dim](a keyword or symbol)[/dim]",
    "  blood rules phase cleanup    [dim](a phase and its steps, in order)[/dim]",
    "  blood rules list gap         [dim](or keyword, symbol, phase, procedure, concept,"
    " component, mode)[/dim]",
    "A panel on a terminal; plain text in a pipe or with --plain; with --json one JSON"
    ' document {"query", "results": [{"id", "title", "section", "text", ...}]}, best first.',
])


# ---------------------------------------------------------------------- documents


def entry_doc(entry: RuleEntry, score: float | None = None, full: bool = True) -> dict:
    doc: dict[str, object] = {"id": entry.id, "title": entry.title, "section": entry.section,
                              "text": entry.text, "kind": entry.kind}
    if full:
        doc.update(steps=entry.steps, related=entry.related, aliases=entry.aliases,
            source=entry.source)
        if entry.decision:
            doc.update(decision=entry.decision, decision_link=entry.decision_link)
    if score is not None:
        doc["score"] = score
    return doc


class Answer(NamedTuple):
    """What to show: the mode, the query and the (entry, score) results, best first."""

    mode: str
    query: str
    results: list


def answer(opts: Values, index: RulesIndex) -> Answer:
    """Resolve the words into an Answer; raises BloodError (nothing found) or Usage."""
    if opts.kind is not None and opts.kind not in KINDS:
        raise Usage(f"--kind must be one of {', '.join(KINDS)}")
    words = opts.words
    head = words[0].lower() if words else ""
    rest = " ".join(words[1:]).strip()
    if head in NAMED:
        kinds, plural = NAMED[head]
        if not rest:
            return Answer("list", head, [(e, None) for e in index.of_kinds(kinds)])
        entry = index.find(rest, kinds)
        if entry is None:
            cands = [(e.id, e.title) for e in index.of_kinds(kinds)]
            names = ", ".join(e.id for e in index.of_kinds(kinds))
            close = did_you_mean(close_to(rest, cands), dict(cands))
            raise BloodError(f"no {head} named {rest!r}",
                hint="; ".join(h for h in (close, f"{plural}: {names}") if h))
        return Answer(head, rest, [(entry, None)])
    if head == "list" or not words:
        kind = opts.kind or (rest if head == "list" and rest else None)
        if kind is not None and kind not in KINDS:
            raise Usage(f"list takes one of {', '.join(KINDS)}, not {kind!r}")
        return Answer("list", kind or "", [(e, None) for e in index.listing(kind)])
    query = " ".join(words)
    only = (opts.kind,) if opts.kind else None
    results = index.search(query, limit=opts.limit, kinds=only)
    if not results:
        raise BloodError(f"no rules entry matches {query!r}",
            hint="try other words, 'blood rules list' or 'blood rules keyword NAME'")
    return Answer("search", query, results)


def json_doc(ans: Answer, limit: int) -> dict:
    listing = ans.mode == "list"
    results = ans.results if listing else ans.results[:limit]
    return {
        "ok": True,
        "query": ans.query,
        "mode": ans.mode,
        "results": [entry_doc(e, s, full=not listing) for e, s in results],
    }


# ---------------------------------------------------------------------- plain text


def decision_line(entry: RuleEntry) -> str:
    """The app's own addition to an entry, marked as not the rulebook's, with its link."""
    return f"The app's choice, not the rulebook's: {entry.decision} (see {entry.decision_link})"


def plain_entry(entry: RuleEntry) -> list[str]:
    lines = [entry.title, f"Section: {entry.section} ({entry.source})", f"Kind: {entry.kind}", ""]
    lines.extend(p for para in entry.text.split("\n\n") for p in (para, ""))
    if entry.steps:
        lines.append("Steps:")
        lines.extend(f"{n}. {step}" for n, step in enumerate(entry.steps, 1))
        lines.append("")
    if entry.decision:
        lines.extend((decision_line(entry), ""))
    if entry.related:
        lines.append("Related: " + ", ".join(entry.related))
    return lines


def plain_lines(ans: Answer, limit: int) -> list[str]:
    if ans.mode == "list":
        lines: list[str] = []
        kind = None
        for e, _ in ans.results:
            if e.kind != kind:
                kind = e.kind
                lines.append(f"{kind}:" if not lines else f"\n{kind}:")
            lines.append(f"  {e.id}: {e.title}")  # one "id: title" per line, easy to cut
        return lines
    first, _ = ans.results[0]
    lines = plain_entry(first)
    others = ans.results[1:limit]
    if others:
        lines.append("")
        lines.append("Also matching:")
        lines.extend(f"- {e.title} ({e.id})" for e, _ in others)
    return lines


# ---------------------------------------------------------------------- rich


def print_rich(ans: Answer, limit: int) -> None:
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = safe_console(highlight=False)
    if ans.mode == "list":
        table = Table.grid(padding=(0, 2))
        table.add_column(style="cyan", no_wrap=True)
        table.add_column()
        kind = None
        for e, _ in ans.results:
            if e.kind != kind:
                if kind is not None:
                    table.add_row("", "")
                kind = e.kind
                table.add_row(Text(kind, style="bold"), "")
            table.add_row("  " + e.id, e.title)
        console.print(table)
        return
    first, _ = ans.results[0]
    parts: list = [Text(p) for p in first.text.split("\n\n")]
    if first.steps:
        steps = Table.grid(padding=(0, 1))
        steps.add_column(justify="right", style="bold")
        steps.add_column()
        for n, step in enumerate(first.steps, 1):
            steps.add_row(f"{n}.", step)
        parts.append(steps)
    if first.decision:
        parts.append(Text(decision_line(first), style="italic yellow"))
    if first.related:
        parts.append(Text("Related: " + ", ".join(first.related), style="dim"))
    body = Group(*[x for p in parts for x in (p, Text(""))][:-1])
    console.print(
        Panel(
            body,
            title=Text(first.title, style="bold"),
            title_align="left",
            subtitle=Text(f"{first.section} - {first.kind}", style="dim"),
            subtitle_align="right",
            border_style="red" if first.kind == "gap" else "cyan",
        )
    )
    others = ans.results[1:limit]
    if others:
        line = Text("Also: ", style="dim")
        for n, (e, _) in enumerate(others):
            if n:
                line.append(" | ", style="dim")
            line.append(e.title)
            line.append(f" ({e.id})", style="dim")
        console.print(line)


# ---------------------------------------------------------------------- main


def _wants_rich(opts: Values) -> bool:
    """The panel on a terminal or with FORCE_COLOR (the one colour rule:
    ``display.colour_wanted``); plain text in a pipe, with --plain or --json. On a terminal
    with NO_COLOR the panel stays, without colour."""
    if opts.plain or opts.as_json:
        return False
    if colour_choice() is False:  # NO_COLOR: the panel on a terminal, in no colour
        return os.environ.get("TERM") != "dumb" and _isatty(sys.stdout)
    return colour_wanted(sys.stdout)


class Usage(Exception):
    """Bad command-line input (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise Usage(message[:1].upper() + message[1:])


def _within(low: int | None, high: int | None) -> Any:
    """A whole number between ``low`` and ``high`` (an ``Opt``'s ``min`` and ``max``, both
    included; None: no bound), said as typer says it."""
    bounds = "".join((f"{low}<=" if low is not None else "", "x",
                      f"<={high}" if high is not None else ""))
    if low is not None and high is None:
        bounds = f"x>={low}"

    def number(text: str) -> int:
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is not in the range {bounds}")
        return value

    return number


def parser() -> argparse.ArgumentParser:
    """The ``argparse`` reading of :data:`OPTIONS` (the same values as the typer command)."""
    made = _Parser(prog="blood rules", add_help=False, allow_abbrev=False)
    for opt in OPTIONS:
        if opt.kind == "words":
            made.add_argument(opt.name, nargs="*")
        elif opt.kind == "flag":
            made.add_argument(*opt.flags, dest=opt.name, action="store_true")
        else:
            number = int if opt.min is None and opt.max is None else _within(opt.min, opt.max)
            made.add_argument(*opt.flags, dest=opt.name, default=opt.default,
                              type=number if opt.kind == "int" else str)
    return made


def usage_exit(exc: Usage, as_json: bool) -> int:
    """Report a usage error with the usage lines (cli/failures.py ``usage_error``); exit 2."""
    sys.stderr.write(USAGE + "\n")
    return usage_error(str(exc), as_json)


def main(args: list[str], settings: Settings | None = None) -> int:
    """Run ``blood rules`` with the words after ``rules``; return the exit code."""
    options, after = (args[: args.index("--")], args[args.index("--") + 1:]) if "--" in args \
        else (args, [])  # after "--", words only
    try:
        opts = Values(vars(parser().parse_intermixed_args(options)))
    except Usage as exc:
        return usage_exit(exc, "--json" in options)
    opts["words"] = [*opts.words, *after]
    return run(opts, settings)


def run(opts: Values, settings: Settings | None = None) -> int:
    """Answer ``blood rules`` with the values of :data:`OPTIONS`; return the exit code."""
    as_json = opts.as_json
    try:
        data_dir = settings.data_path if settings is not None else None
        ans = answer(opts, loader.load_index(data_dir=data_dir))
    except Usage as exc:
        return usage_exit(exc, as_json)
    except BloodError as exc:  # nothing found, or the loader's (bad YAML): no traceback
        return refused(exc, as_json)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        return unexpected("rules", exc, as_json)
    try:
        if as_json:
            sys.stdout.write(json_text(json_doc(ans, opts.limit)) + "\n")
        elif _wants_rich(opts):
            print_rich(ans, opts.limit)
        else:
            sys.stdout.write(clean("\n".join(plain_lines(ans, opts.limit))) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as other commands in a pipe do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        return unexpected("rules", exc, as_json)
    return 0


def register(app: Any) -> None:
    """`blood rules` in the typer app, made of :data:`OPTIONS`."""
    from blood_companion.cli.common import add_command  # typer: not when answered before it

    add_command(app, "rules", OPTIONS, _typed, help=HELP, short_help=SUMMARIES["rules"])


def _typed(opts: Values) -> None:
    code = run(opts, current())
    if code:
        import typer

        raise typer.Exit(code)
