"""What every command shares: settings, output, and the one error handler."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from blood_companion.cli.settings import Settings, current
from blood_companion.display import console, json_text

# Every line a command prints goes through these two consoles, which clean what came from a
# user or a file (control sequences, bidi overrides) before it reaches the terminal.
stdout = console(highlight=False, soft_wrap=False)
stderr = console(stderr=True, highlight=False, soft_wrap=True)

JSON_HELP = "Print exactly one JSON document on stdout."
# The `--json` option every command takes: `as_json: JsonOpt = False`.
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def settings() -> Settings:
    """The global options of the command running now (read once: cli/settings.py)."""
    return current()


_warned: dict[int, set[str]] = {}


def warn_data(catalog: Any) -> Any:
    """Say on stderr, once per command, which files of the owner's data were not loaded
    (they belong to no kind: ``Catalog.warnings``); return the catalog."""
    from rich.text import Text

    said = _warned.setdefault(id(current()), set())
    if len(_warned) > 64:  # a long `blood play` session: keep only this command's
        _warned.clear()
        _warned[id(current())] = said
    for problem in getattr(catalog, "warnings", ()):
        text = str(problem)
        if text not in said:
            said.add(text)
            stderr.print(Text.assemble(("Warning: ", "yellow"), text))
    return catalog


def write_output(path: Any, text: str, *, what: str, force: bool, check_only: bool = False
                 ) -> bool:
    """Write a file the user named (``--out``, an export) through the one file writer
    (:func:`blood_companion.fileio.write_file`): never a save, a link or a file in the saves
    folder; over an existing file only with ``--force``. False when it held ``text`` already."""
    from blood_companion.fileio import write_file

    return write_file(path, text.encode("utf-8"), what=what, force=force,
                      saves_dir=settings().saves_path, check_only=check_only)


def print_json(doc: Any) -> None:
    """Print one JSON document on stdout (no rich markup, no wrapping). Every document says
    whether the command did what was asked: ``"ok"`` comes first (true unless the document
    already says otherwise)."""
    if isinstance(doc, dict) and "ok" not in doc:
        doc = {"ok": True, **doc}
    sys.stdout.write(json_text(doc) + "\n")
    sys.stdout.flush()


def wants_json(argv: list[str]) -> bool:
    return "--json" in argv


def hint_of(exc: Any) -> str | None:
    """A refusal's hint, with the commands its `see` references name (cli/commands.py)."""
    hint = getattr(exc, "hint", None)
    see = getattr(exc, "see", ())
    if see:
        from blood_companion.cli.commands import for_refs

        more = for_refs(see)
        hint = f"{hint}; {more}" if hint else more
    return hint


# A position, a step count or a step number: no more digits than any of them needs.
MAX_NUMBER_DIGITS = 9


def typed_number(text: str) -> int | None:
    """The whole number a player typed ("3", " 12 "), or None when `text` is not one: other
    digit characters ("²"), a sign, or more digits than any count in the game."""
    word = text.strip()
    if word.isascii() and word.isdigit() and len(word) <= MAX_NUMBER_DIGITS:
        return int(word)
    return None
