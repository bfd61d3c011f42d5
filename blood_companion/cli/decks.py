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


def _answer(prompt: str, echo: bool) -> str | None:
    """One answer, lower case and stripped (echoed when read from a script); None at the end
    of input or on `quit`."""
    try:
        line = input(prompt)
    except EOFError:
        return None
    if echo:
        stdout.print(Text(line, style="bold"), markup=False, highlight=False)
    key = line.strip().lower()
    return None if key in QUIT else key


def ask_holders() -> str | None:
    """The setting as `--decks` text ("app", "table" or "DECK=table,..."), asked line by line
    on standard input (Enter: the app holds every deck). None at the end of input or `quit`."""
    echo = not sys.stdin.isatty()
    while True:
        stdout.print(Text(QUESTION, style="green"))
        key = _answer("[1] > ", echo)
        if key is None:
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
            key = _answer(f"{title[0].upper() + title[1:]}: held by the app or the table? [app] > ",
                          echo)
            if key is None:
                return None
            key = key or "app"
            if key in ("a", "app"):
                break
            if key in ("t", "table", "players", "p"):
                chosen.append(f"{deck}=table")
                break
            stdout.print(Text("app or table", style="red"))
    return ",".join(chosen) or "app"
