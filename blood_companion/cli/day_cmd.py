"""`blood day ...`: the Day Part's Show and Dusk steps, in order, one action per command.

The rules live in ``engine/day.py``; this module parses, records through ``cli.session`` and
renders. ``blood day next`` (and every command after it records) says what comes next, from
the engine's one ``day_next`` function.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from blood_companion import matching
from blood_companion.cli import completion, session, views
from blood_companion.cli.common import JsonOpt, print_json, stdout
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.textview import print_lines, width
from blood_companion.cli.view_docs import _commands, day_next_doc
from blood_companion.cli.view_text import day_next, levels_table
from blood_companion.engine import day as d
from blood_companion.engine.actions import Action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.plain import counted_all
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState
from blood_companion.errors import UsageError

day_app = typer.Typer(
    help=SUMMARIES["day"],
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(day_app, name="day", short_help=SUMMARIES["day"])


PayOpt = Annotated[
    str | None,
    typer.Option("--pay", help="Resources paid, e.g. coins=2,jewels=1 (needed for 'any' costs)."),
]


# ---------------------------------------------------------------------- parsing


def _resource(word: str) -> str:
    return matching.match(word, [(r, r) for r in RESOURCE_NAMES], "Resource", error=UsageError)


def parse_counts(text: str, option: str) -> dict[str, int]:
    """``a=2,b=1`` -> {"a": 2, "b": 1}; a bare name counts 1. Raises UsageError."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, eq, value = part.partition("=")
        try:
            n = int(value) if eq else 1
        except ValueError:
            raise UsageError(
                f"{option}: {part!r} is not NAME=NUMBER", hint=f"e.g. {option} coins=2,jewels=1"
            ) from None
        out[name.strip()] = out.get(name.strip(), 0) + n
    return out


def parse_pay(text: str | None) -> dict[str, int] | None:
    if text is None:
        return None
    pay: dict[str, int] = {}
    for name, n in parse_counts(text, "--pay").items():
        r = _resource(name)
        pay[r] = pay.get(r, 0) + n
    return pay


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _trouper(state: CampaignState, who: str) -> int:
    return d.trouper_at(state, who)


def _trouper_id(who: str | None) -> str | None:
    """The Trouper id for an id, colour or seat (as recorded in the log)."""
    if who is None:
        return None
    with session.open_session() as store:
        st = store.state
        return st.troupers[_trouper(st, who)].trouper


# ---------------------------------------------------------------------- recording & output


def _record(action: Action, as_json: bool, draws: list[str] | None = None, **extra: Any
            ) -> None:
    from blood_companion.engine.words import drawn_lines, sentence

    with session.open_session() as store:
        before = store.state
        state = session.record(action, store, draws=list(draws or []))
        nxt = d.day_next(state, store.catalog)
        cmds = _commands(state, store.catalog)
        if as_json:
            print_json(
                {
                    "ok": True,
                    "action": action.model_dump(mode="json"),
                    "done": sentence(action, store.catalog, before),
                    **extra,
                    "part": state.part,
                    "phase": state.phase,
                    "day": state.day.model_dump(mode="json") if state.day else None,
                    "wagon": state.wagon.as_dict(),
                    "location_trophies": state.location_trophies,
                    "nemesis_trophies": state.nemesis_trophies,
                    "next": {**nxt.model_dump(mode="json"), "commands": cmds},
                    "log_length": store.log_length,
                    "state_hash": store.state_hash,
                }
            )
            return
        stdout.print(Text(sentence(action, store.catalog, before), style="green"))
        found = drawn_lines(before, state, store.catalog)
        for line in found:
            stdout.print(line, highlight=False, markup=False)
        if not found:
            _print_result(action, state, store.catalog)
        _print_next_short(nxt, cmds)


def _print_result(action: Action, state: CampaignState, cat: Any) -> None:
    """The one or two facts the action revealed (a die, the cards drawn, the night)."""
    day = state.day
    if day is None:
        return
    if isinstance(action, d.EndDay) and state.night is not None:
        n = state.night
        nem, loc = cat.nemesis(n.nemesis), cat.get("locations", n.location)
        stdout.print(f"The night is ready: {nem.name if nem else n.nemesis} at "
                     f"{loc.name if loc else n.location}, Difficulty {n.difficulty}.")
    elif isinstance(action, (d.RollLocation, d.ChooseLocation)) and day.location:
        loc = cat.get("locations", day.location)
        roll = f" (die: {day.location_roll})" if day.location_roll else ""
        stdout.print(f"Location card: {loc.name if loc else day.location}{roll}")
    elif isinstance(action, (d.DrawMinions, d.ChooseMinions)) and day.minions:
        stdout.print(f"Minion A: {day.minions[0]}   Minion B: {day.minions[1]}")
    elif isinstance(action, (d.DrawNemesis, d.ChooseNemesis, d.LastAssault)) and day.nemesis:
        nem = cat.nemesis(day.nemesis)
        stdout.print(f"Nemesis: {nem.name if nem else day.nemesis}")
    elif isinstance(action, d.PlaceEvents):
        stdout.print("Events on the Chain: " + (", ".join(day.events) or "none"))
    elif day.step == "purchases":
        stdout.print("Wagon: " + counted_all(state.wagon.as_dict(), zeros=True))


def _print_next_short(nxt: d.NextStep, cmds: list[str]) -> None:
    stdout.print(Text.assemble(("Next: ", "bold"), nxt.sentence))
    if cmds:
        stdout.print(Text("  " + cmds[0], style="cyan"))


def _print_next(doc: dict[str, Any]) -> None:
    print_lines(day_next(doc, width()))


# ---------------------------------------------------------------------- commands


@day_app.command("next")
def next_(as_json: JsonOpt = False) -> None:
    """What the table does next, with the legal choices."""
    with session.open_session() as store:
        doc = day_next_doc(store.state, store.catalog)
        views.keep(store, "day-next", doc)
    views.show("day-next", doc, as_json)


@day_app.command("recover")
def recover(as_json: JsonOpt = False) -> None:
    """Show 1, Recovery: Vigor back, Insanity cubes to the left (Bites stay)."""
    _record(d.Recover(), as_json)


@day_app.command("buy")
def buy(
    building: Annotated[str, typer.Argument(help="hunting-house, cartographer, sanatorium, ...")],
    trouper: Annotated[
        str | None, typer.Argument(help="Sanatorium: whose Bite is discarded.")
    ] = None,
    pay: PayOpt = None,
    give: Annotated[
        str | None, typer.Option("--give", help="Alchemist: Resources given, e.g. scrolls=2.")
    ] = None,
    get: Annotated[
        str | None, typer.Option("--get", help="Alchemist: the Resource gained, e.g. jewels.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Use a Bran building, paying its cost from the Wagon."""
    trade_from, amount, trade_to = None, 0, None
    if give is not None:
        counts = parse_counts(give, "--give")
        if len(counts) != 1:
            raise UsageError("--give names one Resource, e.g. --give scrolls=2")
        name, amount = next(iter(counts.items()))
        trade_from = _resource(name)
    if get is not None:
        trade_to = _resource(get)
    with session.open_session() as store:
        building_id = d.building_for(store.catalog, building).id
    action = d.BuyBuilding(
        building=building_id,
        pay=parse_pay(pay),
        trouper=_trouper_id(trouper),
        trade_from=trade_from,
        trade_to=trade_to,
        amount=amount,
    )
    _record(action, as_json)


@day_app.command("buy-tactic")
def buy_tactic(
    trouper: Annotated[
        str, typer.Argument(help="Trouper id, colour or seat.", autocompletion=completion.trouper)
    ],
    art: Annotated[
        str,
        typer.Option(
            "--art", help="The Advanced Tactic deck (an Art).", autocompletion=completion.art
        ),
    ],
    pay: PayOpt = None,
    card: Annotated[
        str | None,
        typer.Option(
            "--card", help="With the Advanced Tactic decks at the table: the card on top (its "
            "name or id; asked on a terminal when missing).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Buy the top card of an Advanced Tactic deck into a Trouper's Personal Reserve."""
    with session.open_session() as store:
        state = store.state
        trouper = state.troupers[_trouper(state, trouper)].trouper
        art_id = d.match_id(art, [(a, a) for a in state.advanced_decks], "Art")
        deck = state.advanced_decks.get(art_id) or []
        top = deck[0] if deck else None
    _record(
        d.BuyAdvancedTactic(trouper=trouper, art=art_id, pay=parse_pay(pay)), as_json,
        [card] if card else [], card=top,
    )


@day_app.command("buy-card")
def buy_card(
    trouper: Annotated[
        str, typer.Argument(help="Trouper id, colour or seat.", autocompletion=completion.trouper)
    ],
    card: Annotated[
        str, typer.Argument(help="A Location/Nemesis Tactic or Item card (id or prefix).")
    ],
    pay: PayOpt = None,
    trophies: Annotated[
        str | None, typer.Option("--trophies", help="Trophy tokens spent, e.g. halls=1,lucilla=1.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Buy a Location or Nemesis card with Resources and Trophy tokens."""
    with session.open_session() as store:
        st, cat = store.state, store.catalog
        offer = [(c, getattr(cat.tactic(c) or cat.item(c), "name", c)) for c in st.training]
        offer += [(c, getattr(cat.item(c), "name", c)) for c in st.crafting]
        cid = d.match_id(card, offer, "Location/Nemesis card on the Village Card")
        trouper = st.troupers[_trouper(st, trouper)].trouper
    paid_trophies = parse_counts(trophies, "--trophies") if trophies is not None else None
    action = d.BuySpecialCard(trouper=trouper, card=cid, pay=parse_pay(pay), trophies=paid_trophies)
    _record(action, as_json)


def _sleeved(store: Any, trouper: str, text: str) -> tuple[str, str]:
    st, cat = store.state, store.catalog
    t = st.troupers[_trouper(st, trouper)]
    cands = [(s.item, getattr(cat.item(s.item), "name", s.item)) for s in t.sleeves]
    return t.trouper, d.match_id(text, cands, f"Item in {t.trouper}'s sleeves")


@day_app.command("upgrade")
def upgrade(
    trouper: Annotated[
        str, typer.Argument(help="Trouper id, colour or seat.", autocompletion=completion.trouper)
    ],
    item: Annotated[str, typer.Argument(help="A sleeved Trouper Item (id or prefix).")],
    pay: PayOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Turn a Trouper Item to its Advanced side, paying its upgrade cost."""
    with session.open_session() as store:
        who, iid = _sleeved(store, trouper, item)
    _record(d.UpgradeItem(trouper=who, item=iid, pay=parse_pay(pay)), as_json)


@day_app.command("swap-tactic")
def swap_tactic(
    trouper: Annotated[
        str, typer.Argument(help="Trouper id, colour or seat.", autocompletion=completion.trouper)
    ],
    out: Annotated[str, typer.Argument(help="The deck card going to the Reserve.")],
    into: Annotated[
        str, typer.Argument(metavar="IN", help="The Reserve card going into the deck.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Replace a deck card with a Reserve card of the same Art (Building rule kept)."""
    with session.open_session() as store:
        st, cat = store.state, store.catalog
        t = st.troupers[_trouper(st, trouper)]

        def names(ids: list[str]) -> list[tuple[str, str]]:
            return [(c, getattr(cat.tactic(c), "name", c)) for c in ids]

        out_id = d.match_id(out, names(t.deck), f"card in {t.trouper}'s deck")
        in_id = d.match_id(into, names(t.reserve_cards), f"card in {t.trouper}'s Reserve")
    _record(d.SwapTactic(trouper=t.trouper, out=out_id, into=in_id), as_json)


@day_app.command("swap-item")
def swap_item(
    trouper: Annotated[
        str, typer.Argument(help="Trouper id, colour or seat.", autocompletion=completion.trouper)
    ],
    out: Annotated[str, typer.Argument(help="The sleeved Item going to the Reserve.")],
    into: Annotated[
        str, typer.Argument(metavar="IN", help="The Reserve Item going into the sleeve.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Replace a sleeved Item with a Reserve Item of the same category."""
    with session.open_session() as store:
        who, out_id = _sleeved(store, trouper, out)
        st, cat = store.state, store.catalog
        t = st.troupers[_trouper(st, trouper)]
        cands = [(i, getattr(cat.item(i), "name", i)) for i in t.reserve_items]
        in_id = d.match_id(into, cands, f"Item in {who}'s Reserve")
    _record(d.SwapItem(trouper=who, out=out_id, into=in_id), as_json)


@day_app.command("zone")
def zone(
    zone: Annotated[
        str,
        typer.Argument(
            help="catacombs, garden, graveyard or halls.", autocompletion=completion.zone
        ),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Zone Selection (ends the purchases)."""
    with session.open_session() as store:
        zid = d.match_id(zone, [(z.id, z.name) for z in store.catalog.all("zones")], "Zone")
    _record(d.ChooseZone(zone=zid), as_json)


@day_app.command("location")
def location(
    card: Annotated[
        str | None, typer.Argument(help="Cartographer's Office: the Location card.")
    ] = None,
    roll: Annotated[bool, typer.Option("--roll", help="Roll the Location die digitally.")] = False,
    dice: Annotated[
        str | None, typer.Option("--dice", help="The face of your physical die, e.g. 2 or x.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The Location card: by a die roll, or chosen with the Cartographer's Office."""
    if sum(x is not None and x is not False for x in (card, dice, roll or None)) > 1:
        raise UsageError("give one of: a Location card, --roll, --dice FACE")
    action: Action
    if card is not None:
        from blood_companion.engine.table import at_table

        with session.open_session() as store:
            day = store.state.day
            zone_id = day.zone if day is not None and day.zone else ""
            locs = [(x.id, x.name) for x in store.catalog.locations_in(zone_id)]
            lid = d.match_id(card, locs, f"Location card of {zone_id or 'the Zone'}")
            held = at_table(store.state, "locations") and not (day and day.cartographer)
        # the card the players' own die gave them, when they hold the Location cards
        action = d.RollLocation(drawn={"locations": [lid]}) if held else \
            d.ChooseLocation(location=lid)
    else:
        action = d.RollLocation(faces=dice)
    _record(action, as_json)


@day_app.command("minions")
def minions(
    cards: Annotated[
        str | None, typer.Argument(help="Hunting House: four Minion cards, comma-separated.")
    ] = None,
    random_: Annotated[
        bool, typer.Option("--random", help="Reveal two Minion cards at random.")
    ] = False,
    drawn: Annotated[
        str | None,
        typer.Option(
            "--drawn", help="The two Minion cards drawn from your own deck, A first (A,B)."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Minion Selection: two at random (or drawn from your deck), or four chosen with the
    Hunting House."""
    if sum(x is not None and x is not False for x in (cards, drawn, random_ or None)) > 1:
        raise UsageError("give the Minion cards, --drawn or --random, only one")
    action: Action
    if drawn is not None:
        action = d.DrawMinions(minions=_ids(drawn))
    elif cards is None:
        action = d.DrawMinions()
    else:
        with session.open_session() as store:
            cands = [(mn.id, mn.name) for mn in store.catalog.all("minions")]
            picked = [d.match_id(x, cands, "Minion card") for x in _ids(cards)]
        action = d.ChooseMinions(minions=picked)
    _record(action, as_json)


@day_app.command("last-assault")
def last_assault(
    yes: Annotated[bool | None, typer.Option("--yes/--no", help="Face Vlad tonight?")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Last Assault: face Vlad (--yes) or not (--no)."""
    if yes is None:
        raise UsageError("say --yes (face Vlad) or --no")
    _record(d.LastAssault(face_vlad=yes), as_json)


@day_app.command("nemesis")
def nemesis(
    card: Annotated[
        str | None,
        typer.Argument(help="Asylum: the Nemesis chosen.", autocompletion=completion.nemesis),
    ] = None,
    random_: Annotated[
        bool, typer.Option("--random", help="Reveal the Nemesis at random.")
    ] = False,
    drawn: Annotated[
        str | None,
        typer.Option("--drawn", help="The Nemesis card drawn from your own shuffled cards."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Nemesis Selection: at random among the available (or drawn at the table), or chosen
    with the Asylum."""
    if sum(x is not None and x is not False for x in (card, drawn, random_ or None)) > 1:
        raise UsageError("give the Nemesis, --drawn or --random, only one")
    action: Action
    if drawn is not None:
        action = d.DrawNemesis(nemesis=drawn)
    elif card is None:
        action = d.DrawNemesis()
    else:
        with session.open_session() as store:
            cands = [(n.id, n.name) for n in store.catalog.all("nemeses")]
            action = d.ChooseNemesis(nemesis=d.match_id(card, cands, "Nemesis"))
    _record(action, as_json)


@day_app.command("difficulty")
def difficulty(
    level: Annotated[
        int | None, typer.Argument(help="The Difficulty Level (omit to see the table).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Dusk: see what each Difficulty Level means, then choose one."""
    with session.open_session() as store:
        levels = d.difficulty_levels(store.state, store.catalog)
        step = store.state.day.step if store.state.day else None
    if level is None:
        if step != "dusk_difficulty" and not levels:
            raise RuleError("the Difficulty Level is chosen once the Nemesis is known")
        if as_json:
            print_json({"levels": levels})
        else:
            print_lines(levels_table(levels, width()))
        return
    if not as_json and step == "dusk_difficulty":
        print_lines(levels_table(levels, width()))
    _record(d.ChooseDifficulty(level=level), as_json)


@day_app.command("events")
def events(
    cards: Annotated[
        str | None, typer.Argument(help="Event cards drawn from your deck [random].")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Dusk: place the influence's number of Event cards on the Chain."""
    _record(d.PlaceEvents(events=_ids(cards) if cards is not None else None), as_json)


@day_app.command("equip")
def equip(
    trouper: Annotated[
        str, typer.Argument(help="Trouper id, colour or seat.", autocompletion=completion.trouper)
    ],
    items: Annotated[str, typer.Argument(help="Three sleeved Items, one per category: A,B,C.")],
    as_json: JsonOpt = False,
) -> None:
    """Dusk, Equipping: three Items, one Protection, one Tool, one Artifact."""
    with session.open_session() as store:
        resolved = []
        who = trouper
        for text in _ids(items):
            who, iid = _sleeved(store, trouper, text)
            resolved.append(iid)
    _record(d.Equip(trouper=who, items=resolved), as_json)


@day_app.command("end")
def end(as_json: JsonOpt = False) -> None:
    """The Day Part ends: the night is set up."""
    _record(d.EndDay(), as_json)
