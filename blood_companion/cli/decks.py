"""Who holds the decks: the question `blood play --new` (and `blood campaign new` on a
terminal) asks, and the text of the setting (engine/table.py)."""

from __future__ import annotations

import sys

from rich.text import Text

from blood_companion.cli.common import stdout
from blood_companion.engine.errors import RuleError
from blood_companion.engine.table import DECKS, parse_holders

QUESTION = """Who holds the decks?
    1. The app: it shuffles and draws, and names each card it draws *
    2. The players: you draw the real cards and tell the app what came up
    3. Deck by deck"""


# Words that stop here, as at every `blood play` prompt (nothing is started).
QUIT = frozenset({"quit", "q", "exit"})


def _line(prompt: str) -> str | None:
    """One answer; None at the end of input."""
    try:
        return input(prompt)
    except EOFError:
        return None


def ask_holders() -> str | None:
    """The setting as `--decks` text ("app", "table" or "DECK=table,..."), asked line by line
    on standard input (Enter: the app holds every deck). None at the end of input or `quit`."""
    echo = not sys.stdin.isatty()
    while True:
        stdout.print(Text(QUESTION, style="green"))
        line = _line("[1] > ")
        if line is None:
            return None
        if echo:
            stdout.print(Text(line, style="bold"), markup=False, highlight=False)
        key = line.strip().lower()
        if key in QUIT:
            return None
        if key in ("", "1", "app"):
            return "app"
        if key in ("2", "table", "players"):
            return "table"
        if key in ("3", "deck by deck"):
            return _deck_by_deck(echo)
        try:
            parse_holders(key)
        except RuleError as exc:
            stdout.print(Text(f"{exc.message}: type 1, 2 or 3", style="red"))
            continue
        return key


def _deck_by_deck(echo: bool) -> str | None:
    chosen = []
    for deck, title in DECKS.items():
        while True:
            line = _line(f"{title[0].upper() + title[1:]}: held by the app or the table? [app] > ")
            if line is None:
                return None
            if echo:
                stdout.print(Text(line, style="bold"), markup=False, highlight=False)
            key = line.strip().lower() or "app"
            if key in QUIT:
                return None
            if key in ("a", "app"):
                break
            if key in ("t", "table", "players", "p"):
                chosen.append(f"{deck}=table")
                break
            stdout.print(Text("app or table", style="red"))
    return ",".join(chosen) or "app"
