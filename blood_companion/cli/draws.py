"""Naming the cards the players drew from decks they hold (engine/table.py), for every command.

On the engine's :class:`~blood_companion.engine.table.DrawNeeded`, :func:`name_draw` takes the
command's next ``--draw`` value or asks on a terminal, and adds the card to the action's
``drawn`` (recorded with the step); else the command is refused, the state unchanged."""

from __future__ import annotations

import sys

from blood_companion.cli.common import stdout
from blood_companion.display import styled
from blood_companion.engine import naming
from blood_companion.engine.actions import Action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.table import CARD_OF, DrawNeeded


def resolve(need: DrawNeeded, text: str, what: str | None = None) -> str:
    """The candidate id `text` names: its number in the list, its id or name (typo-tolerant).
    RuleError with "did you mean" (a `what`, else the deck's card) otherwise."""
    pairs = list(zip(need.candidates, need.names, strict=True))
    key = text.strip()
    if key.isdigit() and 1 <= int(key) <= len(pairs):
        return pairs[int(key) - 1][0]
    return naming.match(key, pairs, what or CARD_OF.get(need.deck, "card"))


def _ask(need: DrawNeeded, done: list[str]) -> str | None:
    for line in done:  # what the step already did, before the question that depends on it
        stdout.print(line)
    stdout.print(styled(need.prompt, style="green"))
    for i, n in enumerate(need.names):
        stdout.print(f"  {i + 1:>3}. {n}")
    while True:
        try:
            line = input("> ")
        except EOFError:
            return None
        try:
            return resolve(need, line)
        except RuleError as exc:
            stdout.print(styled(exc.message + (f" ({exc.hint})" if exc.hint else ""), style="red"))


def name_draw(action: Action, need: DrawNeeded, left: list[str], what: str | None = None,
              done: list[str] | None = None) -> Action:
    """`action` with the next drawn card named: from `left` (consumed; :func:`resolve` with
    `what`), else asked on a terminal (after `done`: what the step did before it needed the
    card). Raises RuleError (nothing recorded) when neither gives it."""
    cid: str | None
    if left:
        cid = resolve(need, left.pop(0), what)
    elif sys.stdin.isatty():
        cid = _ask(need, list(done or []))
    else:
        cid = None
    if cid is None:
        shown = ", ".join(need.names[:12]) + (" ..." if len(need.names) > 12 else "")
        raise RuleError(
            "\n".join([*(done or []), need.prompt]),  # what the step did first, then the ask
            hint=f"the players hold this deck: name the {CARD_OF.get(need.deck, 'card')} with "
            f"--draw NAME (it can be: {shown})",
        )
    drawn = {k: list(v) for k, v in action.drawn.items()}
    drawn.setdefault(need.deck, []).append(cid)
    return action.model_copy(update={"drawn": drawn})
