"""What every command shares: settings, output, and the one error handler."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

stdout = Console(highlight=False, soft_wrap=False)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)

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
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")
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
