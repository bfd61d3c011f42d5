"""What every command shares: settings, output, and the one error handler."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from blood_companion.display import console, json_text

# Every line a command prints goes through these two consoles, which clean what came from a
# user or a file (control sequences, bidi overrides) before it reaches the terminal.
stdout = console(highlight=False, soft_wrap=False)
stderr = console(stderr=True, highlight=False, soft_wrap=True)

JSON_HELP = "Print exactly one JSON document on stdout."
# The `--json` option every command takes.
JsonOpt = typer.Option(False, "--json", help=JSON_HELP)


@dataclass(frozen=True)
class Settings:
    saves_dir: Path
    data_dir: Path | None
    campaign: str | None


def settings() -> Settings:
    """Global options resolved from the environment (cli.entry moves flags there)."""
    data = os.environ.get("BLOOD_DATA_DIR") or None
    return Settings(
        saves_dir=Path(os.environ.get("BLOOD_SAVES_DIR") or "saves"),
        data_dir=Path(data) if data else None,
        campaign=os.environ.get("BLOOD_CAMPAIGN") or None,
    )


def print_json(doc: Any) -> None:
    """Print one JSON document on stdout (no rich markup, no wrapping)."""
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
