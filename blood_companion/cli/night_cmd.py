"""`blood night ...`: the Night Part with the app as the Nemesis: laying a night out, its views,
the answer to a question, and the steps it records: each records one engine action and prints
what changed and what comes next (``--json``: one document ``{"ok", "action", "changes",
"next", ...}``)."""

from __future__ import annotations

from typing import Any

import typer

from blood_companion import matching
from blood_companion.cli import render, session
from blood_companion.cli.common import (
    add_recorder,
    command_group,
    declare_command,
    print_json,
    split_list,
    stdout,
    trouper_of,
    typed_number,
)
from blood_companion.cli.flags import DRAW, JSON, Opt
from blood_companion.cli.render import night_next, print_view, width
from blood_companion.cli.status_cmd import print_night
from blood_companion.cli.view_docs import night_next_doc
from blood_companion.display import styled
from blood_companion.engine import why, words
from blood_companion.engine.actions import Action
from blood_companion.engine.box import NeedsDayPart
from blood_companion.engine.chain import card_at
from blood_companion.engine.flow import declared
from blood_companion.engine.night import AnswerQuestion, NextPhase, SetupNight, board_view
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import hand_choices
from blood_companion.engine.words import entry_lines
from blood_companion.errors import BloodError, UsageError
from blood_companion.store import CampaignStore


def _card(store: CampaignStore, trouper: str, key: str) -> str:
    """A card of the Trouper's hand by position in hand (1-based), id, name, unique prefix or
    unique part (``t09`` for ``aurel-t09``), typo-tolerant: the one matcher. A bare number is a
    position in hand, never part of an id ("9" with five cards is refused). A hand the app does
    not see (the Trouper decks at the table) offers every card that can be in it, in the order
    `blood card hand` lists them."""
    state, cat = store.state, store.catalog
    i = state.trouper_index(trouper)
    choices = hand_choices(state, i)
    who = words.who(cat, state.troupers[i].trouper)
    position = typed_number(key.strip())
    if position is not None and not 1 <= position <= len(choices):
        raise BloodError(
            f"{who}'s hand holds {len(choices)} card(s) to name: there is no card {position}",
            hint="cards are named by their position in hand (1 = first), their name or id",
        )
    pairs = [(c, words.record_name(cat, c)) for c in choices]
    return matching.match(key, pairs, f"card in {who}'s hand", positions=True)


def _waiting_card(store: CampaignStore, cards: list[str], key: str) -> str:
    """One of the cards whose timed Effects wait (an "order" question): by its position in
    the question (1-based), id, or (part of) its name."""
    named = [(c, words.record_name(store.catalog, c)) for c in cards]
    return matching.match(key, named, "card of those waiting", positions=True)


def _night_state(state: CampaignState) -> CampaignState:
    """`state`, refused when no night is being played."""
    if state.night is None:
        raise BloodError("no night is being played",
            hint="`blood night setup --nemesis ID --location ID --minions A,B --difficulty N`")
    return state


def next_doc(store: CampaignStore) -> dict[str, Any]:
    """The document of `blood night next`; refused when no night is being played."""
    return night_next_doc(_night_state(store.state), store.catalog)


def _doc(step: session.Step) -> dict[str, Any]:
    return {
        "ok": True,
        "action": step.done(),
        "changes": [words.render(e, step.catalog) for e in _entries(step)],
        "instructions": step.told(),
        "decisions": why.step_decisions(step.before, step.after),
        "next": night_next_doc(step.after, step.catalog),
        "state_hash": step.store.state_hash,
    }


def _entries(step: session.Step) -> list[Any]:
    """The log entries the step wrote (all of them for the night it laid out), its decision
    records left out (`why` shows them: engine/why.py)."""
    assert step.after.night is not None
    night = step.before.night
    start = 0 if step.action.type == "night_setup" or night is None else len(night.log)
    return why.told(step.after.night.log[start:])


def _show(step: session.Step) -> None:
    for entry in _entries(step):
        for line, style in entry_lines(entry, step.after, step.catalog):
            stdout.print(styled(line, style=style))
    step.tell()
    print_view(night_next(night_next_doc(step.after, step.catalog), width()))


# Open the campaign, build the action from it, record it (naming the cards the players drew
# from decks they hold: ``--draw``, or asked), print the changes and what comes next.
_record = session.recorder(_doc, _show)


def _held(store: CampaignStore, words: list[str], fields: dict[str, Any]) -> list[str]:
    """Cards of the hand of the Trouper who pays (a Cost's or a Rest's discard), each by its
    position in hand, name or id (:func:`_card`): the Item's owner (``trouper``), the Quick
    card's owner (``slot``), else the Active Trouper."""
    night = store.state.night
    who: str | None = None
    if fields.get("trouper"):
        who = str(fields["trouper"])
    elif night is not None and fields.get("slot") is not None:
        try:
            owner = night.chain[card_at(night.chain, int(fields["slot"]))].owner
        except (ValueError, IndexError, BloodError):
            owner = None
        who = store.state.troupers[owner].trouper if owner is not None else None
    elif night is not None and night.activation is not None:
        who = store.state.troupers[night.activation.trouper].trouper
    return words if who is None else [_card(store, who, w) for w in words]


# Words a command's fields name, found in the state before the step (engine/actions.py ``Cli``).
RESOLVE = {
    "trouper": lambda store, word, _: trouper_of(store, word),
    "hand": lambda store, word, fields: _card(store, fields["trouper"], word),
    "held": lambda store, words, fields: _held(store, list(words), fields),
}


night_app, _add_group = command_group("night")


@declare_command(night_app, "setup",
                 Opt("nemesis", "--nemesis", required=True,
                     help="Nemesis id (lucilla, corvin, ...)."),
                 Opt("location", "--location", required=True, help="Location card id."),
                 Opt("minions", "--minions", required=True, help="Two Minion card ids: A,B."),
                 Opt("difficulty", "--difficulty", kind="int", default=1,
                     help="Difficulty level."),
                 Opt("events", "--events", help="Event ids for the Chain [random]."), DRAW, JSON)
def setup(nemesis: str, location: str, minions: str, difficulty: int, events: str | None,
          draw: list[str], as_json: bool) -> None:
    """Single Game mode: lay out a night and begin it (five cards each, Game Turn 1).

    A Roguelite night is prepared by the Day Part (`blood day`)."""
    action = SetupNight(nemesis=nemesis.strip().lower(), location=location.strip().lower(),
                        minions=split_list([minions]), difficulty=difficulty,
                        events=split_list([events]) if events else None)
    try:
        _record(action, as_json, draw)
    except NeedsDayPart as exc:
        raise NeedsDayPart(
            exc.message,
            hint="play the Day Part: `blood day next` names each step (`blood day recover`, "
            "`blood day zone ZONE`, ... `blood day end` lays the night out), or `blood play`",
        ) from None


@declare_command(night_app, "next", JSON)
def next_(as_json: bool = False) -> None:
    """What the table does now: whose move, the question waiting, the commands that fit."""
    session.view(next_doc, render.night_next, as_json)


@declare_command(night_app, "board", JSON)
def board(as_json: bool = False) -> None:
    """The Night Board (same as `blood status`)."""
    with session.open_session() as store:
        view = board_view(_night_state(store.state), store.catalog)
    if as_json:
        print_json(view)
    else:
        print_night(view)


@declare_command(night_app, "log",
                 Opt("turn", "--turn", kind="int", help="Only this Game Turn."), JSON)
def log(turn: int | None = None, as_json: bool = False) -> None:
    """The night's log: what the Nemesis, the Minions and the players did."""
    with session.open_session() as store:
        night = _night_state(store.state).night
        assert night is not None
        entries = [e for e in why.told(night.log) if turn is None or e.turn == turn]
        cat = store.catalog
        lines = [(e, words.render(e, cat)) for e in entries]
    if as_json:
        print_json({"log": [{**e.model_dump(), "text": text} for e, text in lines]})
        return
    for e, text in lines:
        stdout.print(f"[{e.turn}] {text}", markup=False)


@declare_command(night_app, "answer", Opt("who", kind="words", help=(
    "Troupers (id, colour or seat), 'none', the cards to discard or to take the Wounds, "
    "yes or no, the cards in the order their Effects resolve, available or depleted for "
    "each Bite, or intact or consumed for the token moved from the Map.")), DRAW, JSON)
def answer(who: list[str], draw: list[str], as_json: bool) -> None:
    """Answer the question the Nemesis or a Minion is waiting on."""
    names = split_list(who)

    def build(store: CampaignStore) -> Action:
        state = store.state
        night = state.night
        if night is None or not night.pending:
            raise BloodError("no question is waiting", hint="`blood night next`")
        q = night.pending[0]
        if q.kind in ("discard", "wound"):
            t = state.troupers[q.trouper or 0].trouper
            return AnswerQuestion(cards=[_card(store, t, c) for c in names])
        if q.kind == "confirm":
            said = " ".join(names).strip().lower()
            if said not in ("yes", "y", "no", "n"):
                raise UsageError("this question is answered yes or no",
                                 hint="`blood night answer yes` or `blood night answer no`")
            return AnswerQuestion(yes=said.startswith("y"))
        if q.kind == "order":
            return AnswerQuestion(cards=[_waiting_card(store, q.cards, c) for c in names])
        if q.kind in ("bite", "token"):  # a side per Bite, or the side of the token moved
            return AnswerQuestion(cards=names)
        if [n.lower() for n in names] in ([], ["none"]):
            return AnswerQuestion(troupers=[])
        return AnswerQuestion(troupers=[trouper_of(store, n) for n in names])

    _record(build, as_json, draw)


@declare_command(night_app, "phase", DRAW, JSON, hidden=True)
def phase(draw: list[str] | None = None, as_json: bool = False) -> None:
    """Same as `continue`."""
    _record(NextPhase(), as_json, draw)


def add_recorders(app: typer.Typer) -> None:
    """A command for every night action declaring its command (``summary``), built from its
    fields (cli/common.py ``add_recorder``), in the order of the game's definition
    (engine/flow.py: the Night's moves)."""
    for cls in declared("night"):
        add_recorder(app, cls, _record, RESOLVE)


def register(app: typer.Typer) -> None:
    """`blood night` in the app: its commands, then one for every night action declared by
    the time the app is made (cli/app.py), a module's own included."""
    add_recorders(night_app)
    _add_group(app)
