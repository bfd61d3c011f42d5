"""`blood rules` in the typer app: the help text and a fallback that runs the fast path.

``cli.entry`` normally answers ``blood rules ...`` through ``cli.rules_fast`` without loading
typer; this command is what ``blood --help`` and ``blood rules --help`` show, and it runs the
same code when the typer app is used directly.
"""

from __future__ import annotations

import typer

from blood_companion.cli.common import JSON_HELP

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
    words: list[str] = typer.Argument(
        None, metavar="QUERY", help="Words to search, or: keyword NAME, phase NAME, list."
    ),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    plain: bool = typer.Option(False, "--plain", help="Plain text (screen readers, pipes)."),
    limit: int = typer.Option(5, "--limit", "-n", min=1, help="How many results to show."),
    kind: str = typer.Option(None, "--kind", help="Only entries of this kind."),
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
    code = fast_main(args)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command(name="rules", help=HELP, short_help="Rules reference: search, keywords, phases.")(
        rules
    )
