"""What the table must move after a step: every change to the board as a physical instruction,
read from the two states (DESIGN.md, "The app tells every change").

:func:`leaves` flattens a state into ``path -> value`` keyed by the pieces' identities;
:data:`TABLE` maps each path the table holds to its sentence (tests/engine/table_fields.py lists
what it does not hold). :func:`instructions` renders one :class:`Instruction` per change, cards
followed from where they left to where they arrived ("Mad Waltz: Zora's deck → Zora's hand").
A card the app cannot see (engine/table.py) is still its owner's, moved by count until named; no
Trouper's Tactic card comes from or goes back to the box (docs/rules-decisions.md, "Where the
box keeps the cards").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from blood_companion.engine.table import UNKNOWN, at_table, in_zones, unseen
from blood_companion.engine.words import templates
from blood_companion.engine.words.sentences import name, who
from blood_companion.engine.words.templates import PHYSICAL, SAID
from blood_companion.engine.words.text import SIDE_WORDS, listing, phrase

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.state import CampaignState

Path = tuple[str, ...]
BOX = "the box"  # where a card comes from or goes to when no zone of the board holds it


class Instruction(NamedTuple):
    """One physical move: ``count`` of ``what`` (of ``trouper``) go from ``frm`` to ``to``;
    ``field`` is the :data:`TABLE` pattern it tells, ``text`` the sentence the table reads."""

    component: str
    what: str
    frm: Any
    to: Any
    count: int = 1  # type: ignore[assignment]  # a field, shadowing tuple.count
    trouper: str = ""
    field: str = ""
    text: str = ""
    cards: tuple[str, ...] = ()  # a card move: the cards' names (none: cards nobody named)
    hidden: bool = False  # a shuffle at the table: nobody knows the order or the cards now


# --------------------------------------------------------------------------- leaves


def leaves(state: CampaignState) -> dict[Path, Any]:
    """The state flattened: dicts by key, lists of records by their identity (a Trouper's id, a
    Minion or Chain card's space), other lists as one value."""
    out: dict[Path, Any] = {}
    # The log and the history only grow and hold no piece: left out (a step stays cheap).
    _flat(state.model_dump(mode="json", exclude=_UNREAD), (), out)
    for i, t in enumerate(state.troupers):
        # ``deck`` in the state is which cards the Trouper owns, not a place: the night's draw
        # pile and the deck put away are one pile ("Setup", "Beginning of the Night").
        base = ("troupers", t.trouper)
        out.pop((*base, "draw_pile"), None)
        space = deck_space(state, i)
        if space:
            out[(*base, "deck")] = space
        else:
            out.pop((*base, "deck"), None)
    return out


def deck_space(state: CampaignState, i: int) -> list[str]:
    """The cards on Trouper `i`'s deck space, top first: the draw pile, then the cards of the
    deck no zone holds, less as many as the hidden cards the app cannot place."""
    hidden = in_zones(state, i).count(UNKNOWN)
    return [*state.troupers[i].draw_pile, *unseen(state, i)[hidden:]]


_UNREAD: Any = {"history": True, "night": {"log": True}}


def _key(i: int, item: dict[str, Any]) -> str:
    if "trouper" in item and "seat" in item:
        return str(item["trouper"])
    if "space" in item:
        return str(item["space"])
    return str(i)


def _flat(doc: Any, path: Path, out: dict[Path, Any]) -> None:
    if isinstance(doc, dict):
        for k, v in doc.items():
            _flat(v, (*path, str(k)), out)
    elif isinstance(doc, list) and doc and all(isinstance(x, dict) for x in doc):
        for i, item in enumerate(doc):
            _flat(item, (*path, _key(i, item)), out)
    elif doc not in (None, [], {}):  # an empty list or record is no piece: as if missing
        out[path] = doc


def _match(pattern: Path, path: Path) -> dict[str, str] | None:
    if len(pattern) != len(path):
        return None
    bound: dict[str, str] = {}
    for p, s in zip(pattern, path, strict=True):
        if p.startswith("{"):
            bound[p[1:-1]] = s
        elif p != s:
            return None
    return bound


# --------------------------------------------------------------------------- sentences


class Ctx(NamedTuple):
    before: CampaignState
    after: CampaignState
    catalog: Catalog | None

    def who(self, tid: str) -> str:
        """A Trouper's short name ("Aurel, the Thread-Walker" is Aurel at the table)."""
        return who(self.catalog, tid).split(",")[0].split(" of ")[0]

    def card(self, cid: Any) -> str:
        return name(self.catalog, cid)


Sentence = Callable[[Ctx, dict[str, str], Any, Any], list[Instruction]]


def _n(v: Any) -> int:
    return len(v) if isinstance(v, list) else int(v) if isinstance(v, (int, bool)) else 0


def track(what: str, trouper: bool = False) -> Sentence:
    """A marker on a track: "Threat token: 3 → 5"; a Trouper's Insanity cube by its space,
    the leftmost being space 1 ("Aurel: move your Insanity cube to space 2 (from 1)")."""

    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        if _n(old) == _n(new):
            return []
        o, n = _n(old), _n(new)
        who = ctx.who(b["t"]) if trouper else ""
        text = (phrase(SAID["track_trouper"], who=who, what=what, to=n + 1, frm=o + 1) if who
                else phrase(SAID["track"], what=what, frm=o, to=n))
        return [Instruction("track", what, o, n, 1, who, text=text)]

    return say


def tokens(what: str, more: str, fewer: str, trouper: bool = True) -> Sentence:
    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        o, n = _n(old), _n(new)
        if o == n:
            return []
        k = abs(n - o)
        who = ctx.who(b["t"]) if trouper and "t" in b else ""
        label = {"who": who, "n": str(k), "s": "" if k == 1 else "s", "space": _space(b),
                 "name": _chain_name(ctx.after if n > o else ctx.before, ctx, b)}
        verb = phrase(more if n > o else fewer, **label)
        return [Instruction("tokens", phrase(what, **label), o, n, k, who,
                            text=phrase(SAID["tokens"], who=who, verb=verb, frm=o, to=n))]

    return say


def flag(what: str, on: str, off: str, trouper: bool = True) -> Sentence:
    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        if bool(old) == bool(new):
            return []
        who = ctx.who(b["t"]) if trouper and "t" in b else ""
        at = ctx.after if new else ctx.before
        label = {"who": who, "space": _space(b), "name": _chain_name(at, ctx, b),
                 "item": ctx.card(b.get("c", ""))}
        verb = phrase(on if new else off, **label)
        return [Instruction("flag", phrase(what, **label), bool(old), bool(new), 1, who,
                            text=verb)]

    return say


def listed(what: str, on: str, off: str) -> Sentence:
    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        who = ctx.who(b["t"]) if "t" in b else ""
        out = []
        for text, extra, flip in ((on, Counter(new or []) - Counter(old or []), True),
                                  (off, Counter(old or []) - Counter(new or []), False)):
            for pid in extra.elements():
                name = SIDE_WORDS.get(str(pid)) or ctx.card(pid)
                out.append(Instruction(what, name, not flip, flip, 1, who,
                                       text=phrase(text, name=name, who=who)))
        return out

    return say


def side(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
    """An Item card in its sleeve turned to its red (upgraded) side or back."""
    if bool(old) == bool(new):
        return []
    who, k = ctx.who(b["t"]), int(b["i"])
    item = next((ctx.card(t.sleeves[k].item) for t in ctx.after.troupers
                 if t.trouper == b["t"] and k < len(t.sleeves)),
                phrase(SAID["item_in_sleeve"], k=k + 1))
    said = SAID["item_upgraded" if new else "item_plain"]
    return [Instruction("item", phrase(SAID["item_sleeve"], k=k + 1), not new, bool(new), 1, who,
                        text=phrase(said, who=who, item=item))]


def equip(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
    who, cat = ctx.who(b["t"]), b["c"]
    if new:
        return [Instruction("item", ctx.card(new), "Reserve", cat, 1, who, text=phrase(
            SAID["equip"], who=who, item=ctx.card(new), category=cat))]
    return [Instruction("item", ctx.card(old), cat, "Reserve", 1, who,
                        text=phrase(SAID["unequip"], who=who, item=ctx.card(old)))]


def resources(what: str) -> Sentence:
    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        o, n = _n(old), _n(new)
        if o == n:
            return []
        k = b.get("k", "")
        name = phrase(what, k=k.replace("_", " ").capitalize(), card=ctx.card(k))
        said = SAID["resource_add" if n > o else "resource_take"]
        return [Instruction("resource", name, o, n, abs(n - o),
                            text=phrase(said, name=name, k=abs(n - o), frm=o, to=n))]

    return say


def leader(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
    ts = ctx.after.troupers
    if not isinstance(new, int) or not 0 <= new < len(ts):
        return []
    who = ctx.who(ts[new].trouper)
    return [Instruction("leader", "Leader", old, new, 1, who, text=phrase(SAID["leader"], who=who))]


def _space(b: dict[str, str]) -> str:
    i = b.get("i", "")
    return str(int(i) + 1) if i.isdigit() else i


def _chain_name(state: CampaignState, ctx: Ctx, b: dict[str, str]) -> str:
    night = state.night
    if night is None:
        return "the card"
    for k, slot in enumerate(night.chain):
        if str(slot.space if slot.space is not None else k) == b.get("i"):
            return ctx.card(slot.card)
    return "the card"


# --------------------------------------------------------------------------- the table

T, C, R, M = templates.T, templates.C, templates.R, templates.M
MAKERS: dict[str, Callable[..., Sentence | tuple[str, str, bool]]] = {
    "track": track, "tokens": tokens, "flag": flag, "listed": listed, "resources": resources,
    # card zones: where a card lies, as the table calls it (``{who}``: the Trouper's name)
    "zone": lambda label, ordered=False: ("cards", label, ordered),
    "side": lambda: side, "equip": lambda: equip, "leader": lambda: leader}
# The rows of :data:`words.templates.PHYSICAL`, each path with its sentence maker.
TABLE: dict[Path, Sentence | tuple[str, str, bool]] = {
    path: MAKERS[how](*said) for path, (how, *said) in PHYSICAL.items()}


def _row(path: Path) -> tuple[Path, dict[str, str]] | None:
    for pattern in TABLE:
        bound = _match(pattern, path)
        if bound is not None:
            return pattern, bound
    return None


def _same(old: Any, new: Any) -> bool:
    # A piece absent before and the same piece at rest (0, no, none) are the same board.
    return old == new or (not old and not new)


# --------------------------------------------------------------------------- instructions


def instructions(before: CampaignState, after: CampaignState,
                 catalog: Catalog | None) -> list[Instruction]:
    ctx = Ctx(before, after, catalog)
    a, b = leaves(before), leaves(after)
    out: list[Instruction] = []
    gone: list[Piece] = []
    came: list[Piece] = []
    shuffled: list[tuple[str, str]] = []
    for path in sorted({**a, **b}, key=lambda p: (_order(p), p)):
        old, new = a.get(path), b.get(path)
        if _same(old, new):
            continue
        row = _row(path)
        if row is None:
            continue
        pattern, bound = row
        field = ".".join(pattern)
        say = TABLE[pattern]
        if isinstance(say, tuple):
            label = _label(say[1], bound, ctx)
            olds, news = _cards(old), _cards(new)
            gone += [Piece(c, label, field, _owner(ctx.before, bound))
                     for c in (Counter(olds) - Counter(news)).elements()]
            came += [Piece(c, label, field, _owner(ctx.after, bound))
                     for c in (Counter(news) - Counter(olds)).elements()]
            if say[2] and olds != news and Counter(olds) == Counter(news) and UNKNOWN not in olds:
                shuffled.append((label, field))
            continue
        out += [i._replace(field=field) for i in say(ctx, bound, old, new)]
    out += _moves(gone, came, ctx, shuffled)
    return out


class Piece(NamedTuple):
    """A card that left or reached a zone (``owner``: the Trouper whose deck it is of, or "")."""

    card: str
    label: str
    field: str
    owner: str


def _owner(state: CampaignState, bound: dict[str, str]) -> str:
    if "t" in bound:
        return bound["t"]
    night = state.night
    if night is None or "i" not in bound:
        return ""
    for k, slot in enumerate(night.chain):
        if (str(slot.space if slot.space is not None else k) == bound["i"]
                and slot.owner is not None and slot.owner < len(state.troupers)):
            return state.troupers[slot.owner].trouper
    return ""


def _order(path: Path) -> int:
    return 0 if path[:1] == ("night",) else 1


def _cards(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(c) for c in value if c != "-"]
    return [str(value)]


def _label(template: str, bound: dict[str, str], ctx: Ctx) -> str:
    who = ctx.who(bound["t"]) if "t" in bound else ""
    k = bound.get("k", "")
    kname = SIDE_WORDS.get(k, k.replace("_", " ").title())
    return phrase(template, who=who, space=_space(bound), k=kname)


_DECK = ".".join((*T, "deck"))
# The piles beside the board the state does not list, by the zone a card of theirs lies in:
# the Minion cards not in play, from which the Show Phase reveals two and a Summon draws, and to
# which a defeated summoned Minion's card returns ("Summon", "Wounding a Minion").
OFF_BOARD: dict[str, str] = {".".join((*M, "minion")): "the Minion deck"}
_ZONE_DECK = "{who}'s deck"
# Where a card the players name comes from when the app could not see it, by where it goes:
# a card played or Rested on the Chain, discarded, or taking a Wound comes from the hand; a
# healed card from the Wounds space ("Heal N"); a Wound with no card in hand from the deck.
_REVEALED_FROM: dict[str, tuple[str, ...]] = {
    ".".join((*C, "card")): ("hand",),
    ".".join((*T, "discard")): ("wounds", "hand"),
    ".".join((*T, "wounds")): ("hand", "deck"),
}
Routes = dict[tuple[str, str, str], list[str]]
# The decks besides the Trouper decks that cards come back into during the night, and the
# setting that says who holds them (engine/table.py): "Wounding a Nemesis" forms the Reaction
# deck again from its discard pile, shuffled.
_HELD_DECKS: dict[str, str] = {"night.reaction_deck": "reactions"}


def _kind(field: str) -> str:
    return field.rsplit(".", 1)[-1]


def _pop(pool: list[Piece], test: Callable[[Piece], bool]) -> Piece | None:
    hit = next((p for p in pool if test(p)), None)
    if hit is not None:
        pool.remove(hit)
    return hit


def _same_card(piece: Piece) -> Callable[[Piece], bool]:
    return lambda p: p.card == piece.card


def _in_place(piece: Piece) -> Callable[[Piece], bool]:
    """The same zone, the card seen on one side only."""
    return lambda p: p.label == piece.label and (p.card == UNKNOWN) != (piece.card == UNKNOWN)


def _route(routes: Routes, src: Piece, dst: Piece) -> None:
    routes.setdefault((src.label, dst.label, f"{src.field}>{dst.field}"), []).append(dst.card)


def _moves(gone: list[Piece], came: list[Piece], ctx: Ctx,
           shuffled: list[tuple[str, str]]) -> list[Instruction]:
    """Pair each card that left a zone with where it arrived, grouped by route, in the order
    the table makes them: the named cards, those put into a deck, the shuffles, then the cards
    nobody named ("2 cards: Aurel's deck → Aurel's hand")."""
    named: Routes = {}
    into_decks: Routes = {}
    by_count: Routes = {}  # cards nobody named: told by count
    shuffles = {label: (field, False) for label, field in shuffled}
    left, arrive = list(gone), list(came)

    def hidden(p: Piece) -> bool:
        return p.card == UNKNOWN

    # 1. a card seen on both sides
    for dst in [p for p in arrive if not hidden(p)]:
        src = _pop(left, _same_card(dst))
        if src is not None:
            arrive.remove(dst)
            _route(named, src, dst)
    # 2. a card staying where it lies while the app learns or forgets what it is: a deck
    # shuffled at the table; the night's cards gathered on the deck space
    for dst in list(arrive):
        src = _pop(left, _in_place(dst))
        if src is not None:
            arrive.remove(dst)
            if hidden(dst) and dst.field == _DECK:
                shuffles[dst.label] = (_DECK, True)
    # 3. a card the players named, out of the hidden zone it was in
    for dst in [p for p in arrive if not hidden(p) and p.owner]:
        kinds = _REVEALED_FROM.get(dst.field, ())
        mine = [p for p in left if hidden(p) and p.owner == dst.owner]
        src = next((p for k in kinds for p in mine if _kind(p.field) == k), None)
        if src is None and mine and dst.field == _DECK:
            src = mine[0]
        if src is None and kinds:  # its zone also received hidden cards (a Rest's redraw)
            src = _borrow(ctx, dst.owner, kinds)
            if src is not None:
                left.append(src)
                arrive.append(src)
        if src is None:
            continue
        left.remove(src)
        arrive.remove(dst)
        # gathered on the deck space, a card is not named: which hidden card it was, nobody knows
        _route(by_count if dst.field == _DECK else named, src, dst._replace(
            card=UNKNOWN if dst.field == _DECK else dst.card))
    # 4. a card the app no longer sees went into its owner's deck, shuffled at the table
    budget = Counter(p.owner for p in arrive if hidden(p))
    for src in [p for p in left if not hidden(p) and p.owner]:
        if budget[src.owner] <= 0:  # as many as the hidden places that took a card
            continue
        budget[src.owner] -= 1
        left.remove(src)
        deck = Piece(UNKNOWN, _label(_ZONE_DECK, {"t": src.owner}, ctx), _DECK, src.owner)
        shuffles[deck.label] = (_DECK, True)
        if src.field != _DECK:
            _route(into_decks, src, deck._replace(card=src.card))
            if _pop(arrive, _in_place(deck._replace(card=src.card))) is not None:
                continue  # it stays in the deck
        left.append(deck)  # it leaves the deck again, unseen
    # 5. cards nobody named: by count, from the deck first
    for dst in [p for p in arrive if hidden(p)]:
        mine = [p for p in left if hidden(p) and p.owner == dst.owner and p.label != dst.label]
        src = next((p for p in mine if p.field == _DECK), mine[0] if mine else None)
        if src is not None:
            left.remove(src)
            arrive.remove(dst)
            _route(by_count, src, dst)
    # 6. what no zone of the board gave or took: from its pile beside the board (a Minion
    # card), out of the box (a new campaign, a card bought) or back into it (the End of the
    # Night puts the Nemesis's cards away)
    for dst in arrive:
        src = Piece(dst.card, OFF_BOARD.get(dst.field, BOX), "", "")
        _route(by_count if hidden(dst) else named, src, dst)
    for src in left:
        dst = Piece(src.card, OFF_BOARD.get(src.field, BOX), "", "")
        _route(by_count if hidden(src) else named, src, dst)
    drawn = _formed_again(named, shuffles, ctx)
    out = [_move(ctx, key, cards) for key, cards in (*named.items(), *into_decks.items())]
    out += [Instruction("shuffle", label, label, label, 0, field=field,
                        text=phrase(SAID["shuffle"], label=label),
                        hidden=blind) for label, (field, blind) in shuffles.items()]
    out += [_move(ctx, key, cards) for key, cards in (*drawn.items(), *by_count.items())]
    return out


def _formed_again(named: Routes, shuffles: dict[str, tuple[str, bool]], ctx: Ctx) -> Routes:
    """A deck the players hold formed again from its discard pile ("Wounding a Nemesis"): the
    cards taken from the pile go through the deck; returns those draws, told after the shuffle."""
    drawn: Routes = {}
    for frm, to, fields in list(named):
        deck_field = fields.partition(">")[2]
        held = _HELD_DECKS.get(deck_field)
        if held is None or frm == BOX or not at_table(ctx.after, held):
            continue
        shuffles.setdefault(to, (deck_field, False))
        for key in [k for k in named if k[0] == frm and k[1] != to]:
            cards = named.pop(key)
            named[(frm, to, fields)] += cards
            drawn.setdefault((to, key[1], f"{deck_field}>{key[2].partition('>')[2]}"),
                             []).extend(cards)
    return drawn


def _borrow(ctx: Ctx, owner: str, kinds: tuple[str, ...]) -> Piece | None:
    """The hidden zone a named card left though as many cards lie there as before (a Rest)."""
    i = next((k for k, t in enumerate(ctx.before.troupers) if t.trouper == owner), None)
    if i is None:
        return None
    t = ctx.before.troupers[i]
    for kind in kinds:
        pile = deck_space(ctx.before, i) if kind == "deck" else list(getattr(t, kind))
        if UNKNOWN in pile:
            template = TABLE[(*T, kind)]
            assert isinstance(template, tuple)
            return Piece(UNKNOWN, _label(template[1], {"t": owner}, ctx), ".".join((*T, kind)),
                         owner)
    return None


def _move(ctx: Ctx, key: tuple[str, str, str], cards: list[str]) -> Instruction:
    frm, to, field = key
    n = len(cards)
    names = [] if UNKNOWN in cards else [ctx.card(c) for c in cards]
    if not names:  # cards nobody named: a count
        what = SAID["a_card"] if n == 1 else phrase(SAID["cards"], n=n)
    else:  # a long list is counted, except the cards a hand takes: the player picks those
        what = (listing(names) if n < 4 or field.endswith(".hand")
                else phrase(SAID["cards"], n=n))
    said = SAID["from_box" if frm == BOX else "to_box" if to == BOX else "move"]
    text = phrase(said, what=what, frm=frm, to=to)
    return Instruction("cards", what, frm, to, n, "", field, text, tuple(names))


def lines(before: CampaignState, after: CampaignState, catalog: Catalog | None) -> list[str]:
    return [i.text for i in instructions(before, after, catalog)]


def as_json(items: list[Instruction]) -> list[dict[str, Any]]:
    return [{"component": i.component, "what": i.what, "from": i.frm, "to": i.to,
             "count": i.count, "trouper": i.trouper, "cards": list(i.cards), "text": i.text}
            for i in items]
