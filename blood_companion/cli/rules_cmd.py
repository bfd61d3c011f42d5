"""`blood rules` in the typer app: its help text; its options are those ``cli.rules_fast``
declares (:data:`~blood_companion.cli.rules_fast.OPTIONS`).

``cli.entry`` normally answers ``blood rules ...`` through ``cli.rules_fast`` without loading
typer; this command is what ``blood --help``, ``blood rules --help`` and completion show, and
it runs the same code with the same values when the typer app is used directly.
"""

from __future__ import annotations

import typer

from blood_companion.cli import rules_fast
from blood_companion.cli.common import settings
from blood_companion.cli.flags import Values, typer_command
from blood_companion.cli.summaries import SUMMARIES

HELP = "\n\n".join(
    [
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
    ]
)


def _rules(opts: Values) -> None:
    code = rules_fast.run(opts, settings())
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command(name="rules", help=HELP, short_help=SUMMARIES["rules"])(
        typer_command(rules_fast.OPTIONS, _rules)
    )
