"""The campaign-level actions `blood campaign ...` records (wagon, trophies, Troupers, decks)
and its undo and redo: their recorders and declared commands, without typer, for the typer
commands (cli/campaign_cmd.py) and the fast path of a recorded step (cli/record_fast.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.cli import session
from blood_companion.cli.common import Recorder, print_json, recorders, stdout
from blood_companion.cli.flags import JSON, Opt, Values
from blood_companion.cli.view_docs import summary
from blood_companion.engine.campaign import (
    AddTrouper,
    AdjustTrophies,
    AdjustWagon,
    NextSingleGame,
    RetireTrouper,
    SetDecks,
    SetLeader,
)
from blood_companion.engine.state import RESOURCE_NAMES
from blood_companion.errors import BloodError, UsageError

if TYPE_CHECKING:
    from blood_companion.store import CampaignStore


def _changed(
    store: CampaignStore, as_json: bool, message: str, *, refresh: bool = True, **extra: Any
) -> None:
    if refresh:  # the views of the campaign as it is now (session.record stores them itself)
        session.refresh_status(store)
    if as_json:
        print_json({"ok": True, **extra, **summary(store)})
    else:
        stdout.print(message)


def undo(given: Values) -> None:
    """Take back the last N steps (they stay redo-able until a new action replaces them)."""
    with session.open_session() as store:
        before = store.head
        if given.to is not None:
            store.undo_to(given.to)
        else:
            store.undo(given.n)
        _changed(store, given.as_json, f"Back to step {store.head} (was {before}); "
                 f"{store.redo_available} step(s) can be redone.", undone=before - store.head)


def redo(given: Values) -> None:
    """Re-apply N undone steps."""
    with session.open_session() as store:
        before = store.head
        store.redo(given.n)
        _changed(store, given.as_json, f"Redone to step {store.head} (was {before}).",
                 redone=store.head - before)


# The commands that are no action, by word: their options (cli/flags.py) and what they run.
COMMANDS = {
    "undo": ((Opt("n", kind="int", default=1, help="How many steps to take back."),
              Opt("to", "--to", help="Jump to a step number or a mark instead."), JSON), undo),
    "redo": ((Opt("n", kind="int", default=1, help="How many undone steps to re-apply."),
              JSON), redo),
}


def _nothing_to_change(store: CampaignStore, action: Any, as_json: bool) -> Any:
    if isinstance(action, AdjustWagon) and not any(getattr(action, r) for r in RESOURCE_NAMES):
        raise UsageError("nothing to change", hint="e.g. `blood campaign wagon --coins 2`")
    return action


def _act_show(step: session.Step) -> None:
    stdout.print(f"{step.store.head}. {step.done()}")
    step.tell()


_act = session.recorder(
    lambda step: {"ok": True, "recorded": step.action.model_dump(mode="json"),
                  "instructions": step.told(), **summary(step.store)},
    _act_show, prepare=_nothing_to_change, draws=False)


def _decks_lines(state: Any) -> None:
    """Who holds each deck."""
    from blood_companion.cli.table_words import decks_lines

    for line in decks_lines(state):
        stdout.print(line, highlight=False)


def _decks_now(as_json: bool) -> None:
    from blood_companion.engine.table import holders

    with session.open_session() as store:
        if as_json:
            print_json({"ok": True, "decks": holders(store.state)})
        else:
            _decks_lines(store.state)


def _decks_doc(step: session.Step) -> dict[str, Any]:
    from blood_companion.engine.table import holders

    return {"ok": True, "decks": holders(step.after), **summary(step.store)}


def _holders(words: list[str], hint: str | None = None) -> dict[str, str]:
    """Who holds the decks, as `--decks` or `campaign decks` say it (engine/table.py)."""
    from blood_companion.engine.table import parse_holders

    try:
        return parse_holders(",".join(words))
    except BloodError as exc:
        raise UsageError(exc.message, hint=hint or exc.hint) from None


def _trophies(changes: list[str]) -> dict[str, int]:
    """``halls=+1 nemesis:lucilla=-1`` -> {token: signed count}."""
    parsed: dict[str, int] = {}
    for text in changes:
        key, sep, value = text.partition("=")
        try:
            n = int(value.strip())
        except ValueError:
            n = None
        if not sep or not key.strip() or n is None:
            raise UsageError(
                f"{text!r} is not TOKEN=N", hint="e.g. `blood campaign trophies halls=+1`"
            )
        parsed[key.strip().lower()] = parsed.get(key.strip().lower(), 0) + n
    return parsed


# Words the campaign commands' fields name (engine/actions.py ``Cli``).
RESOLVE: dict[str, Any] = {
    "id": lambda store, word, _: word.strip().lower(),
    "trophies": lambda store, words, _: _trophies(words),
    "holders": lambda store, words, _: _holders(words),
}
RECORDERS: list[Recorder] = [
    Recorder(SetDecks, session.recorder(_decks_doc, lambda step: _decks_lines(step.after),
                                        draws=False), RESOLVE, None, _decks_now),
    *recorders(_act, RESOLVE, AddTrouper, RetireTrouper, SetLeader, AdjustWagon, AdjustTrophies,
               NextSingleGame),
]
