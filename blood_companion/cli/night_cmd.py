"""`blood night ...`: play the Night Part with the app as the Nemesis.

Each command builds one engine action (blood_companion/engine/night.py), records it through
the store and prints what changed and what the table does next. With ``--json`` a command
prints one JSON document: ``{"ok", "action", "changes", "next", ...}``.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from blood_companion import matching
from blood_companion.cli import session, views
from blood_companion.cli.common import JsonOpt, print_json, stdout, typed_number
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.textview import print_lines, width
from blood_companion.cli.view_docs import night_next_doc
from blood_companion.cli.view_text import night_next
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
)
from blood_companion.engine.state import CampaignState
from blood_companion.errors import BloodError, UsageError

night_app = typer.Typer(
    help=SUMMARIES["night"],
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(night_app, name="night", short_help=SUMMARIES["night"])


DiceOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--dice",
        help='Faces of your physical dice, e.g. "2 x 1" or "B3 R0 Gx"; repeat for each Re-roll. '
        "Without it the app rolls.",
    ),
]
RerollOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--reroll", help="Dice re-rolled (1-based, e.g. 1,3; i1,3 for the Insanity Re-roll)."
    ),
]
TraitOpt = Annotated[
    str | None, typer.Option("--trait", help="Trait for the Test [the best odds].")
]
ConfirmOpt = Annotated[
    bool,
    typer.Option(
        "--confirm", help="The table confirms the Effect's Condition holds (one only the Map "
        "shows, e.g. adjacent to a Rock Tile).",
    ),
]
FlipOpt = Annotated[
    bool,
    typer.Option(
        "--flip", help="The Trap or Whisper placed goes on one of yours whose Consumed side "
        "is up (it turns Intact).",
    ),
]
DrawOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--draw", help="A card the players drew from a deck they hold (a Reaction card "
        "revealed, a Minion summoned), by name or id; repeat in the order drawn. Asked on a "
        "terminal when missing.",
    ),
]
ItemsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--items", help="Quick Items used during the Test (Bonus Triumphs, Re-rolls), by id "
        "or name, comma-separated.",
    ),
]
DiscardOpt = Annotated[
    list[str] | None, typer.Option("--discard", help="Card(s) discarded as a Cost.")
]
HealOpt = Annotated[list[str] | None, typer.Option("--heal", help="Wound card(s) to heal.")]
SideOpt = Annotated[
    str | None, typer.Option("--side", help="Nemesis side hit: front, left or right.")
]
WeaknessOpt = Annotated[
    bool | None,
    typer.Option(
        "--weakness/--no-weakness", help="An attack on the Nemesis: whether the Condition of "
        "its Weakness Effect on that side holds (one only the table sees).",
    ),
]


# ---------------------------------------------------------------------- helpers


def _split(values: list[str] | None) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def _trouper(state: CampaignState, who: str) -> str:
    return state.troupers[state.trouper_index(who)].trouper


def _card(state: CampaignState, trouper: str, key: str) -> str:
    """A card of the Trouper's hand by position in hand (1-based), id, name, unique prefix or
    unique part (``t09`` for ``aurel-t09``), typo-tolerant: the one matcher. A bare number is a
    position in hand, never part of an id ("9" with five cards is refused). A hand the app does
    not see (the Trouper decks at the table) offers every card that can be in it, in the order
    `blood card hand` lists them."""
    from blood_companion.engine.table import hand_choices

    cat = session.catalog()
    i = state.trouper_index(trouper)
    choices = hand_choices(state, i)
    who = narrate.trouper_name(cat, state.troupers[i].trouper)
    position = typed_number(key.strip())
    if position is not None and not 1 <= position <= len(choices):
        raise BloodError(
            f"{who}'s hand holds {len(choices)} card(s) to name: there is no card {position}",
            hint="cards are named by their position in hand (1 = first), their name or id",
        )
    pairs = [(c, narrate.record_name(cat, c)) for c in choices]
    return matching.match(key, pairs, f"card in {who}'s hand", positions=True)


def _waiting_card(cards: list[str], key: str) -> str:
    """One of the cards whose timed Effects wait (an "order" question): by its position in
    the question (1-based), id, or (part of) its name."""
    cat = session.catalog()
    named = [(c, narrate.record_name(cat, c)) for c in cards]
    return matching.match(key, named, "card of those waiting", positions=True)


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
        nxt = night_next_doc(state, cat)
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


def _print_next(nxt: dict[str, Any]) -> None:
    print_lines(night_next(nxt, width()))


# ---------------------------------------------------------------------- commands


@night_app.command("setup")
def setup(
    nemesis: Annotated[str, typer.Option("--nemesis", help="Nemesis id (lucilla, corvin, ...).")],
    location: Annotated[str, typer.Option("--location", help="Location card id.")],
    minions: Annotated[str, typer.Option("--minions", help="Two Minion card ids: A,B.")],
    difficulty: Annotated[int, typer.Option("--difficulty", help="Difficulty level.")] = 1,
    events: Annotated[
        str | None, typer.Option("--events", help="Event ids for the Chain [random].")
    ] = None,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Single Game mode: lay out a night and begin it (five cards each, Game Turn 1).

    A Roguelite night is prepared by the Day Part (`blood day`)."""
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
def next_(as_json: JsonOpt = False) -> None:
    """What the table does now: whose move, the question waiting, the commands that fit."""
    with session.open_session() as store:
        _night_state(store.state)
        nxt = night_next_doc(store.state, store.catalog)
        views.keep(store, "night-next", nxt)
    views.show("night-next", nxt, as_json)


@night_app.command("board")
def board(as_json: JsonOpt = False) -> None:
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
    turn: Annotated[int | None, typer.Option("--turn", help="Only this Game Turn.")] = None,
    as_json: JsonOpt = False,
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
    trouper: Annotated[str, typer.Argument(help="Trouper id, colour or seat.")],
    card: Annotated[str, typer.Argument(help="Card id, id prefix or name.")],
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Planning Phase: play a Tactic card on the leftmost free Chain space."""

    def build(state: CampaignState) -> Action:
        who = _trouper(state, trouper)
        return PlayCard(trouper=who, card=_card(state, who, card))

    _record(build, as_json, draw)


@night_app.command("rest")
def rest(
    trouper: Annotated[str, typer.Argument(help="Trouper id, colour or seat.")],
    card: Annotated[str, typer.Argument(help="The card placed face down.")],
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Planning Phase: Rest (a face-down card, 1 Threat, Exhausted); once a Game Turn."""

    def build(state: CampaignState) -> Action:
        who = _trouper(state, trouper)
        return Rest(trouper=who, card=_card(state, who, card))

    _record(build, as_json, draw)


@night_app.command("pass")
def pass_(
    trouper: Annotated[str, typer.Argument(help="The player who just played a Cascade card.")],
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Planning Phase: play no more cards after a Cascade."""
    _record(lambda s: PassCascade(trouper=_trouper(s, trouper)), as_json, draw)


@night_app.command("attack")
def attack(
    effect: Annotated[int, typer.Argument(help="Effect number on the Active card (1 = top).")],
    target: Annotated[str, typer.Argument(help="nemesis, or a Minion space (A, B, C...).")],
    side: SideOpt = None,
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    bonus: Annotated[int, typer.Option("--bonus", help="Bonus Triumphs from other Effects.")] = 0,
    distance: Annotated[
        int | None, typer.Option("--distance", help="Distance to the target.")
    ] = None,
    discard: DiscardOpt = None,
    also: Annotated[
        list[str] | None,
        typer.Option(
            "--also", help="Minion spaces for the other attack Elements (if the table's rules "
            "give them to another Minion).",
        ),
    ] = None,
    items: ItemsOpt = None,
    weakness: WeaknessOpt = None,
    confirm: ConfirmOpt = False,
    flip: FlipOpt = False,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Tactic Phase: the Active Trouper attacks with an Effect of their card."""
    _check_side(side)
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
        weakness=weakness,
    )
    _record(action, as_json, draw)


@night_app.command("effect")
def effect(
    number: Annotated[int, typer.Argument(help="Effect number on the Active card (1 = top).")],
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    for_: Annotated[
        str | None, typer.Option("--for", help="The Trouper an ally Effect applies to.")
    ] = None,
    discard: DiscardOpt = None,
    heal: HealOpt = None,
    distance: Annotated[
        int | None, typer.Option("--distance", help="Distance to the target.")
    ] = None,
    items: ItemsOpt = None,
    on: Annotated[
        list[str] | None,
        typer.Option("--on", help="Every Minion / every Enemy: those within the Distance "
                     "(nemesis, Minion spaces); unsaid, the app writes it for the table."),
    ] = None,
    confirm: ConfirmOpt = False,
    flip: FlipOpt = False,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
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
        on=_split(on) if on is not None else None,
        confirm=confirm,
        token_flip=flip,
    )
    _record(action, as_json, draw)


@night_app.command("support")
def support(
    space: Annotated[int, typer.Argument(help="Chain space of the card with the Support.")],
    effect: Annotated[
        int, typer.Option("--effect", help="Effect number [its Support Effect].")
    ] = 0,
    target: Annotated[
        str | None, typer.Option("--target", help="An attack: nemesis or a Minion space.")
    ] = None,
    side: SideOpt = None,
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    items: ItemsOpt = None,
    heal: HealOpt = None,
    weakness: WeaknessOpt = None,
    confirm: ConfirmOpt = False,
    flip: FlipOpt = False,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Tactic Phase: use another Trouper's Support Effect from a card to the left.

    A Support that attacks names its target and takes its Test like a card's."""
    _check_side(side)
    _record(
        UseSupport(
            slot=space, effect=effect, target=target, side=side.lower() if side else None,
            trait=trait, dice=list(dice or []), reroll=list(reroll or []), items=_split(items),
            heal=_split(heal), confirm=confirm, token_flip=flip, weakness=weakness,
        ),
        as_json,
        draw,
    )


@night_app.command("item")
def item(
    trouper: Annotated[str, typer.Argument(help="Trouper id, colour or seat.")],
    item_id: Annotated[
        str, typer.Argument(metavar="ITEM", help="Equipped Item: id, prefix or name.")
    ],
    discard: DiscardOpt = None,
    heal: HealOpt = None,
    for_: Annotated[
        str | None, typer.Option("--for", help="The Trouper the Item's Effect targets.")
    ] = None,
    target: Annotated[
        str | None, typer.Option("--target", help="An attack: nemesis or a Minion space.")
    ] = None,
    side: SideOpt = None,
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    items: ItemsOpt = None,
    weakness: WeaknessOpt = None,
    confirm: ConfirmOpt = False,
    flip: FlipOpt = False,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Use an equipped Item (a Quick one also outside your activation).

    An Item that attacks names its target and takes its Test like a card's."""
    _check_side(side)
    _record(
        lambda s: UseItem(
            trouper=_trouper(s, trouper), item=item_id, discard=_split(discard),
            heal=_split(heal), recipient=for_, target=target,
            side=side.lower() if side else None, trait=trait, dice=list(dice or []),
            reroll=list(reroll or []), items=_split(items), confirm=confirm, token_flip=flip,
            weakness=weakness,
        ),
        as_json,
        draw,
    )


@night_app.command("quick")
def quick(
    space: Annotated[
        int, typer.Argument(help="Chain space of the card with the Quick Effect.")
    ],
    effect: Annotated[
        int, typer.Option("--effect", help="Effect number on the card (1 = top).")
    ] = 1,
    for_: Annotated[
        str | None, typer.Option("--for", help="The Trouper the Effect targets.")
    ] = None,
    target: Annotated[
        str | None, typer.Option("--target", help="An attack: nemesis or a Minion space.")
    ] = None,
    side: SideOpt = None,
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    items: ItemsOpt = None,
    heal: HealOpt = None,
    discard: DiscardOpt = None,
    weakness: WeaknessOpt = None,
    confirm: ConfirmOpt = False,
    flip: FlipOpt = False,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve a Quick Effect of a card on the Chain outside its owner's activation.

    Any moment its Cost can be paid and its Condition holds."""
    _check_side(side)
    action = UseQuick(
        slot=space, effect=effect, recipient=for_, target=target,
        side=side.lower() if side else None, trait=trait, dice=list(dice or []),
        reroll=list(reroll or []), items=_split(items), heal=_split(heal),
        discard=_split(discard), confirm=confirm, token_flip=flip, weakness=weakness,
    )
    _record(action, as_json, draw)


def _check_side(side: str | None) -> None:
    if side is not None and side.lower() not in ("front", "left", "right"):
        raise UsageError(f"unknown side {side!r}", hint="--side front, left or right")


@night_app.command("event")
def event(
    event_id: Annotated[
        str, typer.Argument(metavar="EVENT", help="Event id, prefix or Chain space.")
    ],
    effect: Annotated[int, typer.Option("--effect", help="Effect number on the Event card.")] = 1,
    target: Annotated[
        str | None, typer.Option("--target", help="Minion space for an attack Event.")
    ] = None,
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    distance: Annotated[
        int | None, typer.Option("--distance", help="Distance to the Event's target.")
    ] = None,
    discard: DiscardOpt = None,
    items: ItemsOpt = None,
    confirm: ConfirmOpt = False,
    flip: FlipOpt = False,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
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
    discard: Annotated[
        list[str] | None, typer.Option("--discard", help="Card(s) to discard first.")
    ] = None,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Tactic Phase, a Rest card: discard any cards, then draw up to five."""
    _record(RestRedraw(discard=_split(discard)), as_json, draw)


@night_app.command("done")
def done(draw: DrawOpt = None, as_json: JsonOpt = False) -> None:
    """Tactic Phase: the Active Trouper finishes (Resolved token); the next one activates."""
    _record(FinishActivation(), as_json, draw)


@night_app.command("answer")
def answer(
    who: Annotated[
        list[str] | None,
        typer.Argument(
            help="Troupers (id, colour or seat), 'none', the cards to discard or to take the "
            "Wounds, yes or no, the cards in the order their Effects resolve, available or "
            "depleted for each Bite, or intact or consumed for the token moved from the Map."
        ),
    ] = None,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
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
        if q.kind in ("bite", "token"):  # a side per Bite, or the side of the token moved
            return AnswerQuestion(cards=names)
        if [n.lower() for n in names] in ([], ["none"]):
            return AnswerQuestion(troupers=[])
        return AnswerQuestion(troupers=[_trouper(state, n) for n in names])

    _record(build, as_json, draw)


@night_app.command("roll")
def roll(
    trait: TraitOpt = None,
    dice: DiceOpt = None,
    reroll: RerollOpt = None,
    bonus: Annotated[int, typer.Option("--bonus", help="Bonus Triumphs from other Effects.")] = 0,
    items: ItemsOpt = None,
    draw: DrawOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The waiting dodge Test: the app rolls, or type in your dice with --dice."""
    action = RollTest(
        trait=trait, dice=list(dice or []), reroll=list(reroll or []), bonus_triumphs=bonus,
        items=_split(items),
    )
    _record(action, as_json, draw)


@night_app.command("continue")
def continue_(draw: DrawOpt = None, as_json: JsonOpt = False) -> None:
    """Move on to the next phase; the Nemesis, Minions and Cleanup resolve inside."""
    _record(NextPhase(), as_json, draw)


@night_app.command("phase", hidden=True)
def phase(draw: DrawOpt = None, as_json: JsonOpt = False) -> None:
    """Same as `continue`."""
    _record(NextPhase(), as_json, draw)
