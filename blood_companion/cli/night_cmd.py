"""`blood night ...`: play the Night Part with the app as the Nemesis.

Each command builds one engine action (blood_companion/engine/night.py), records it through
the store and prints what changed and what the table does next. With ``--json`` a command
prints one JSON document: ``{"ok", "action", "changes", "next", ...}``.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.text import Text

from blood_companion.cli import commands, session
from blood_companion.cli.common import JsonOpt, print_json, stdout, typed_number
from blood_companion.engine import narrate
from blood_companion.engine.actions import Action
from blood_companion.engine.campaign import NeedsDayPart
from blood_companion.engine.night import (
    AnswerQuestion,
    Attack,
    FinishActivation,
    NextPhase,
    PassCascade,
    PlayCard,
    ResolveEffect,
    Rest,
    RestRedraw,
    RollTest,
    SetupNight,
    UseEvent,
    UseItem,
    UseQuick,
    UseSupport,
    board_view,
    night_view,
    whose_turn,
)
from blood_companion.engine.state import CampaignState
from blood_companion.errors import BloodError, UsageError

night_app = typer.Typer(
    help="The Night Part: play cards, resolve them, answer the Nemesis's questions.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(night_app, name="night")


DiceOpt = typer.Option(
    None,
    "--dice",
    help='Faces of your physical dice, e.g. "2 x 1" or "B3 R0 Gx"; repeat for each Re-roll. '
    "Without it the app rolls.",
)
RerollOpt = typer.Option(
    None, "--reroll", help="Dice re-rolled (1-based, e.g. 1,3; i1,3 for the Insanity Re-roll)."
)
TraitOpt = typer.Option(None, "--trait", help="Trait for the Test [the best odds].")
ConfirmOpt = typer.Option(
    False, "--confirm", help="The table confirms the Effect's Condition holds (one only the Map "
    "shows, e.g. adjacent to a Rock Tile)."
)
FlipOpt = typer.Option(
    False, "--flip", help="The Trap or Whisper placed goes on one of yours whose Consumed side "
    "is up (it turns Intact)."
)
DrawOpt = typer.Option(
    None, "--draw", help="A card the players drew from a deck they hold (a Reaction card "
    "revealed, a Minion summoned), by name or id; repeat in the order drawn. Asked on a "
    "terminal when missing."
)
ItemsOpt = typer.Option(
    None, "--items", help="Quick Items used during the Test (Bonus Triumphs, Re-rolls), by id "
    "or name, comma-separated."
)


# ---------------------------------------------------------------------- helpers


def _split(values: list[str] | None) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def _trouper(state: CampaignState, who: str) -> str:
    return state.troupers[state.trouper_index(who)].trouper


def _card(state: CampaignState, trouper: str, key: str) -> str:
    """A card of the Trouper's hand by id, position in hand (1-based), unique id prefix, unique
    part of its id (``t09`` for ``aurel-t09``) or (part of) its name, typo-tolerant. A hand the
    app does not see (the Trouper decks at the table) offers every card that can be in it, in
    the order `blood card hand` lists them."""
    from blood_companion.engine import naming
    from blood_companion.engine.table import hand_choices

    cat = session.catalog()
    i = state.trouper_index(trouper)
    t = state.troupers[i]
    choices = hand_choices(state, i)
    low = key.strip().lower()
    if low in choices:
        return low
    position = typed_number(low)
    who = narrate.trouper_name(cat, t.trouper)
    if position is not None:  # a bare number is a position in hand, never part of an id
        if 1 <= position <= len(choices):
            return choices[position - 1]
        raise BloodError(
            f"{who}'s hand holds {len(choices)} card(s) to name: there is no card {position}",
            hint="cards are named by their position in hand (1 = first), their name or id",
        )
    found = [c for c in choices if c.startswith(low)] or [c for c in choices if low in c]
    if len(set(found)) == 1:
        return found[0]
    pairs = [(c, narrate.record_name(cat, c)) for c in choices]
    hits = naming.find(key, pairs)
    if len(hits) == 1:
        return hits[0]
    if hits or found:
        shown = ", ".join(narrate.record_name(cat, c) for c in (hits or found))
        raise BloodError(f"{key!r} matches several cards in {who}'s hand: {shown}",
                         hint="type more of the name")
    close = naming.suggestions(key, pairs)
    hand = ", ".join(n for _, n in pairs)
    raise BloodError(
        f"{key!r} matches no card in {who}'s hand",
        hint=("did you mean " + " or ".join(close) + "? " if close else "") + f"hand: {hand}",
    )


def _waiting_card(cards: list[str], key: str) -> str:
    """One of the cards whose timed Effects wait (an "order" question): by its position in
    the question (1-based), id, or (part of) its name."""
    cat = session.catalog()
    low = key.strip().lower()
    position = typed_number(low)
    if position is not None and 1 <= position <= len(cards):
        return cards[position - 1]
    found = [c for c in cards if c == low] or [c for c in cards if low in c.lower()] or [
        c for c in cards if low in narrate.record_name(cat, c).lower()
    ]
    if len(set(found)) == 1:
        return found[0]
    listed = ", ".join(f"{i + 1}. {narrate.record_name(cat, c)}" for i, c in enumerate(cards))
    what = "matches several cards" if found else "matches no card"
    raise BloodError(f"{key!r} {what} of those waiting", hint=f"name each once, in order: {listed}")


def _night_state(state: CampaignState) -> None:
    if state.night is None:
        raise BloodError(
            "no night is being played",
            hint="`blood night setup --nemesis ID --location ID --minions A,B --difficulty N`",
        )


def _record(build: Any, as_json: bool, draws: list[str] | None = None) -> None:
    """Open the campaign, build the action from its state, record it (naming the cards the
    players drew from decks they hold: ``--draw``, or asked), print the changes."""
    from blood_companion.cli.table_words import entry_lines
    from blood_companion.engine.words import sentence

    with session.open_session() as store:
        before = store.state
        action: Action = build(before) if callable(build) else build
        before_log = len(before.night.log) if before.night is not None else 0
        state = session.record(action, store, draws=list(draws or []))
        cat = store.catalog
        assert state.night is not None
        start = 0 if action.type == "night_setup" else before_log
        entries = state.night.log[start:]
        changes = [narrate.render(e, cat) for e in entries]
        nxt = next_doc(state, cat)
        if as_json:
            print_json(
                {
                    "ok": True,
                    "action": sentence(action, cat, before),
                    "changes": changes,
                    "next": nxt,
                    "state_hash": store.state_hash,
                }
            )
            return
        for entry in entries:
            for line, style in entry_lines(entry, state, cat):
                stdout.print(Text(line, style=style))
        _print_next(nxt)


def next_doc(state: CampaignState, catalog: Any) -> dict[str, Any]:
    """`whose_turn` with the commands of the options open now (cli/commands.py)."""
    doc = whose_turn(state, catalog)
    doc["commands"] = commands.for_next(night_view(state, catalog), catalog)
    return doc


def _print_next(nxt: dict[str, Any]) -> None:
    head = f"Turn {nxt['turn']} · {nxt['phase_name']}"
    stdout.print(Text(head, style="bold"))
    stdout.print(Text(nxt.get("prompt", ""), style="green"))
    for line in nxt.get("effects", []):
        stdout.print("  " + line)
    if nxt.get("hand"):
        cat = session.catalog()
        names = []
        for c in nxt["hand"]:
            card = cat.tactic(c)
            names.append(f"{card.name} (Threat {card.threat})" if card else "a card")
        if nxt.get("hand_hidden"):
            stdout.print(f"  hand: {len(nxt['hand'])} cards the app does not see "
                         "(`blood card hand` lists what they can be)")
        else:
            stdout.print("  hand: " + "; ".join(names))
    for cmd in nxt.get("commands", []):
        stdout.print(Text("  $ " + cmd, style="dim"))


# ---------------------------------------------------------------------- commands


@night_app.command("setup")
def setup(
    nemesis: str = typer.Option(..., "--nemesis", help="Nemesis id (lucilla, corvin, ...)."),
    location: str = typer.Option(..., "--location", help="Location card id."),
    minions: str = typer.Option(..., "--minions", help="Two Minion card ids: A,B."),
    difficulty: int = typer.Option(1, "--difficulty", help="Difficulty level."),
    events: str = typer.Option(None, "--events", help="Event ids for the Chain [random]."),
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Single Game mode: lay out a night and begin it (five cards each, Game Turn 1). A
    Roguelite night is prepared by the Day Part (`blood day`)."""
    action = SetupNight(
        nemesis=nemesis.strip().lower(),
        location=location.strip().lower(),
        minions=_split([minions]),
        difficulty=difficulty,
        events=_split([events]) if events else None,
    )
    try:
        _record(action, as_json, draw)
    except NeedsDayPart as exc:
        raise NeedsDayPart(
            exc.message,
            hint="play the Day Part: `blood day next` names each step (`blood day recover`, "
            "`blood day zone ZONE`, ... `blood day end` lays the night out), or `blood play`",
        ) from None


@night_app.command("next")
def next_(as_json: bool = JsonOpt) -> None:
    """What the table does now: whose move, the question waiting, the commands that fit."""
    with session.open_session() as store:
        _night_state(store.state)
        nxt = next_doc(store.state, store.catalog)
    if as_json:
        print_json(nxt)
    else:
        _print_next(nxt)


@night_app.command("board")
def board(as_json: bool = JsonOpt) -> None:
    """The Night Board (same as `blood status`)."""
    from blood_companion.cli.status_cmd import print_night

    with session.open_session() as store:
        _night_state(store.state)
        view = board_view(store.state, store.catalog)
    if as_json:
        print_json(view)
    else:
        print_night(view)


@night_app.command("log")
def log(
    turn: int = typer.Option(None, "--turn", help="Only this Game Turn."),
    as_json: bool = JsonOpt,
) -> None:
    """The night's log: what the Nemesis, the Minions and the players did."""
    with session.open_session() as store:
        _night_state(store.state)
        night = store.state.night
        assert night is not None
        entries = [e for e in night.log if turn is None or e.turn == turn]
        cat = store.catalog
        lines = [(e, narrate.render(e, cat)) for e in entries]
    if as_json:
        print_json({"log": [{**e.model_dump(), "text": text} for e, text in lines]})
        return
    for e, text in lines:
        stdout.print(f"[{e.turn}] {text}", markup=False)


@night_app.command("play")
def play(
    trouper: str = typer.Argument(..., help="Trouper id, colour or seat."),
    card: str = typer.Argument(..., help="Card id, id prefix or name."),
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Planning Phase: play a Tactic card on the leftmost free Chain space."""

    def build(state: CampaignState) -> Action:
        who = _trouper(state, trouper)
        return PlayCard(trouper=who, card=_card(state, who, card))

    _record(build, as_json, draw)


@night_app.command("rest")
def rest(
    trouper: str = typer.Argument(..., help="Trouper id, colour or seat."),
    card: str = typer.Argument(..., help="The card placed face down."),
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Planning Phase: Rest (a face-down card, 1 Threat, Exhausted); once a Game Turn."""

    def build(state: CampaignState) -> Action:
        who = _trouper(state, trouper)
        return Rest(trouper=who, card=_card(state, who, card))

    _record(build, as_json, draw)


@night_app.command("pass")
def pass_(
    trouper: str = typer.Argument(..., help="The player who just played a Cascade card."),
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Planning Phase: play no more cards after a Cascade."""
    _record(lambda s: PassCascade(trouper=_trouper(s, trouper)), as_json, draw)


@night_app.command("attack")
def attack(
    effect: int = typer.Argument(..., help="Effect number on the Active card (1 = top)."),
    target: str = typer.Argument(..., help="nemesis, or a Minion space (A, B, C...)."),
    side: str = typer.Option(None, "--side", help="Nemesis side hit: front, left or right."),
    trait: str = TraitOpt,
    dice: list[str] = DiceOpt,
    reroll: list[str] = RerollOpt,
    bonus: int = typer.Option(0, "--bonus", help="Bonus Triumphs from other Effects."),
    distance: int = typer.Option(None, "--distance", help="Distance to the target."),
    discard: list[str] = typer.Option(None, "--discard", help="Card(s) discarded as a Cost."),
    also: list[str] = typer.Option(
        None, "--also", help="Minion spaces for the other attack Elements (if the table's rules "
        "give them to another Minion)."
    ),
    items: list[str] = ItemsOpt,
    confirm: bool = ConfirmOpt,
    flip: bool = FlipOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Tactic Phase: the Active Trouper attacks with an Effect of their card."""
    if side is not None and side.lower() not in ("front", "left", "right"):
        raise UsageError(f"unknown side {side!r}", hint="--side front, left or right")
    action = Attack(
        effect=effect,
        target=target,
        side=side.lower() if side else None,
        trait=trait,
        dice=list(dice or []),
        reroll=list(reroll or []),
        bonus_triumphs=bonus,
        distance=distance,
        discard=_split(discard),
        also=_split(also),
        items=_split(items),
        confirm=confirm,
        token_flip=flip,
    )
    _record(action, as_json, draw)


@night_app.command("effect")
def effect(
    number: int = typer.Argument(..., help="Effect number on the Active card (1 = top)."),
    trait: str = TraitOpt,
    dice: list[str] = DiceOpt,
    reroll: list[str] = RerollOpt,
    for_: str = typer.Option(None, "--for", help="The Trouper an ally Effect applies to."),
    discard: list[str] = typer.Option(None, "--discard", help="Card(s) discarded as a Cost."),
    heal: list[str] = typer.Option(None, "--heal", help="Wound card(s) to heal."),
    distance: int = typer.Option(None, "--distance", help="Distance to the target."),
    items: list[str] = ItemsOpt,
    confirm: bool = ConfirmOpt,
    flip: bool = FlipOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Tactic Phase: resolve a non-attack Effect (Step, Heal, Draw, a bonus...)."""
    action = ResolveEffect(
        effect=number,
        trait=trait,
        dice=list(dice or []),
        reroll=list(reroll or []),
        recipient=for_,
        discard=_split(discard),
        heal=_split(heal),
        distance=distance,
        items=_split(items),
        confirm=confirm,
        token_flip=flip,
    )
    _record(action, as_json, draw)


@night_app.command("support")
def support(
    space: int = typer.Argument(..., help="Chain space of the card with the Support."),
    effect: int = typer.Option(0, "--effect", help="Effect number [its Support Effect]."),
    confirm: bool = ConfirmOpt,
    flip: bool = FlipOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Tactic Phase: use another Trouper's Support Effect from a card to the left."""
    _record(UseSupport(slot=space, effect=effect, confirm=confirm, token_flip=flip), as_json, draw)


@night_app.command("item")
def item(
    trouper: str = typer.Argument(..., help="Trouper id, colour or seat."),
    item_id: str = typer.Argument(..., metavar="ITEM", help="Equipped Item: id, prefix or name."),
    discard: list[str] = typer.Option(None, "--discard", help="Card(s) discarded as a Cost."),
    heal: list[str] = typer.Option(None, "--heal", help="Wound card(s) to heal."),
    for_: str = typer.Option(None, "--for", help="The Trouper the Item's Effect targets."),
    target: str = typer.Option(None, "--target", help="An attack: nemesis or a Minion space."),
    side: str = typer.Option(None, "--side", help="Nemesis side hit: front, left or right."),
    trait: str = TraitOpt,
    dice: list[str] = DiceOpt,
    reroll: list[str] = RerollOpt,
    items: list[str] = ItemsOpt,
    confirm: bool = ConfirmOpt,
    flip: bool = FlipOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Use an equipped Item (a Quick one also outside your activation); an Item that attacks
    names its target and takes its Test like a card's."""
    _check_side(side)
    _record(
        lambda s: UseItem(
            trouper=_trouper(s, trouper), item=item_id, discard=_split(discard),
            heal=_split(heal), recipient=for_, target=target,
            side=side.lower() if side else None, trait=trait, dice=list(dice or []),
            reroll=list(reroll or []), items=_split(items), confirm=confirm, token_flip=flip,
        ),
        as_json,
        draw,
    )


@night_app.command("quick")
def quick(
    space: int = typer.Argument(..., help="Chain space of the card with the Quick Effect."),
    effect: int = typer.Option(1, "--effect", help="Effect number on the card (1 = top)."),
    for_: str = typer.Option(None, "--for", help="The Trouper the Effect targets."),
    target: str = typer.Option(None, "--target", help="An attack: nemesis or a Minion space."),
    side: str = typer.Option(None, "--side", help="Nemesis side hit: front, left or right."),
    trait: str = TraitOpt,
    dice: list[str] = DiceOpt,
    reroll: list[str] = RerollOpt,
    items: list[str] = ItemsOpt,
    heal: list[str] = typer.Option(None, "--heal", help="Wound card(s) to heal."),
    discard: list[str] = typer.Option(None, "--discard", help="Card(s) discarded as a Cost."),
    confirm: bool = ConfirmOpt,
    flip: bool = FlipOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Resolve a Quick Effect of a card on the Chain outside its owner's activation (any
    moment its Cost can be paid and its Condition holds)."""
    _check_side(side)
    action = UseQuick(
        slot=space, effect=effect, recipient=for_, target=target,
        side=side.lower() if side else None, trait=trait, dice=list(dice or []),
        reroll=list(reroll or []), items=_split(items), heal=_split(heal),
        discard=_split(discard), confirm=confirm, token_flip=flip,
    )
    _record(action, as_json, draw)


def _check_side(side: str | None) -> None:
    if side is not None and side.lower() not in ("front", "left", "right"):
        raise UsageError(f"unknown side {side!r}", hint="--side front, left or right")


@night_app.command("event")
def event(
    event_id: str = typer.Argument(..., metavar="EVENT", help="Event id, prefix or Chain space."),
    effect: int = typer.Option(1, "--effect", help="Effect number on the Event card."),
    target: str = typer.Option(None, "--target", help="Minion space for an attack Event."),
    trait: str = TraitOpt,
    dice: list[str] = DiceOpt,
    reroll: list[str] = RerollOpt,
    distance: int = typer.Option(None, "--distance", help="Distance to the Event's target."),
    discard: list[str] = typer.Option(None, "--discard", help="Card(s) discarded as a Cost."),
    items: list[str] = ItemsOpt,
    confirm: bool = ConfirmOpt,
    flip: bool = FlipOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Tactic Phase: attempt one Event Effect during your activation."""
    action = UseEvent(
        event=event_id,
        effect=effect,
        target=target,
        trait=trait,
        dice=list(dice or []),
        reroll=list(reroll or []),
        distance=distance,
        discard=_split(discard),
        items=_split(items),
        confirm=confirm,
        token_flip=flip,
    )
    _record(action, as_json, draw)


@night_app.command("redraw")
def redraw(
    discard: list[str] = typer.Option(None, "--discard", help="Card(s) to discard first."),
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Tactic Phase, a Rest card: discard any cards, then draw up to five."""
    _record(RestRedraw(discard=_split(discard)), as_json, draw)


@night_app.command("done")
def done(draw: list[str] = DrawOpt, as_json: bool = JsonOpt) -> None:
    """Tactic Phase: the Active Trouper finishes (Resolved token); the next one activates."""
    _record(FinishActivation(), as_json, draw)


@night_app.command("answer")
def answer(
    who: list[str] = typer.Argument(
        None, help="Troupers (id, colour or seat), 'none', the cards to discard or to take "
        "the Wounds, yes or no, or the cards in the order their Effects resolve."
    ),
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Answer the question the Nemesis or a Minion is waiting on."""
    names = _split(who)

    def build(state: CampaignState) -> Action:
        night = state.night
        if night is None or not night.pending:
            raise BloodError("no question is waiting", hint="`blood night next`")
        q = night.pending[0]
        if q.kind in ("discard", "wound"):
            t = state.troupers[q.trouper or 0].trouper
            return AnswerQuestion(cards=[_card(state, t, c) for c in names])
        if q.kind == "confirm":
            said = " ".join(names).strip().lower()
            if said not in ("yes", "y", "no", "n"):
                raise UsageError("this question is answered yes or no",
                                 hint="`blood night answer yes` or `blood night answer no`")
            return AnswerQuestion(yes=said.startswith("y"))
        if q.kind == "order":
            return AnswerQuestion(cards=[_waiting_card(q.cards, c) for c in names])
        if [n.lower() for n in names] in ([], ["none"]):
            return AnswerQuestion(troupers=[])
        return AnswerQuestion(troupers=[_trouper(state, n) for n in names])

    _record(build, as_json, draw)


@night_app.command("roll")
def roll(
    trait: str = TraitOpt,
    dice: list[str] = DiceOpt,
    reroll: list[str] = RerollOpt,
    bonus: int = typer.Option(0, "--bonus", help="Bonus Triumphs from other Effects."),
    items: list[str] = ItemsOpt,
    draw: list[str] = DrawOpt,
    as_json: bool = JsonOpt,
) -> None:
    """The waiting dodge Test: the app rolls, or type in your dice with --dice."""
    action = RollTest(
        trait=trait, dice=list(dice or []), reroll=list(reroll or []), bonus_triumphs=bonus,
        items=_split(items),
    )
    _record(action, as_json, draw)


@night_app.command("continue")
def continue_(draw: list[str] = DrawOpt, as_json: bool = JsonOpt) -> None:
    """Move on to the next phase; the Nemesis, Minions and Cleanup resolve inside."""
    _record(NextPhase(), as_json, draw)


@night_app.command("phase", hidden=True)
def phase(draw: list[str] = DrawOpt, as_json: bool = JsonOpt) -> None:
    """Same as `continue`."""
    _record(NextPhase(), as_json, draw)
