"""`blood rules` in the typer app: the help text and a fallback that runs the fast path.

``cli.entry`` normally answers ``blood rules ...`` through ``cli.rules_fast`` without loading
typer; this command is what ``blood --help`` and ``blood rules --help`` show, and it runs the
same code when the typer app is used directly.
"""

from __future__ import annotations

from typing import Annotated

import typer

from blood_companion.cli import completion
from blood_companion.cli.common import JsonOpt, settings
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


def rules(
    words: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="QUERY", help="Words to search, or: keyword NAME, phase NAME, list.",
            autocompletion=completion.rules_words,
        ),
    ] = None,
    as_json: JsonOpt = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text (screen readers, pipes).")
    ] = False,
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, help="How many results to show.")
    ] = 5,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind", help="Only entries of this kind.", autocompletion=completion.rules_kind
        ),
    ] = None,
) -> None:
    from blood_companion.cli.rules_fast import fast_main

    args = ["--", *(words or [])]
    if kind:
        args[:0] = ["--kind", kind]
    args[:0] = ["--limit", str(limit)]
    if plain:
        args.insert(0, "--plain")
    if as_json:
        args.insert(0, "--json")
    code = fast_main(args, settings())
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command(name="rules", help=HELP, short_help=SUMMARIES["rules"])(
        rules
    )
