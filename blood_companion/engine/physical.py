"""What the table must move after a step: every change to the board as a physical instruction.

The board a step changed is read from the two states, never written by the rule that changed
it (DESIGN.md, "The app tells every change"). :func:`leaves` flattens a state document into
``path -> value`` with the pieces' identities as keys (a Trouper by id, a Chain card by its
space, a Minion card by its space); :data:`TABLE` maps every path that names something the
table holds to the kind of piece it is and its sentence; :data:`QUIET` lists what the table
does not hold (the engine's cursor, the log, the Day's choices). :func:`instructions` compares
the leaves and renders one :class:`Instruction` per change; cards are followed from where they
left to where they arrived, so a drawn card is one line ("Mad Waltz: Zora's deck → Zora's
hand"). A changed path found in neither table is :func:`unmapped` (a test failure).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from blood_companion.engine import words
from blood_companion.engine.plain import SIDE_WORDS, listing

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.state import CampaignState

Path = tuple[str, ...]
BOX = "the box"  # where a card comes from or goes to when no zone of the board holds it


class Instruction(NamedTuple):
    """One physical move: ``what`` (a piece, by name) of ``trouper`` goes from ``frm`` to
    ``to`` (``count`` of them). ``component`` is the kind of change (a :data:`TABLE` kind),
    ``field`` the table pattern it tells; ``text`` is the sentence the table reads. (A named
    tuple, not a dataclass: creating a frozen dataclass compiles six methods at import.)"""

    component: str
    what: str
    frm: Any
    to: Any
    count: int = 1  # type: ignore[assignment]  # a field, shadowing tuple.count
    trouper: str = ""
    field: str = ""
    text: str = ""
    cards: tuple[str, ...] = ()  # a card move: the cards' names


# --------------------------------------------------------------------------- leaves


def leaves(state: CampaignState) -> dict[Path, Any]:
    """The state document flattened: dicts by key, lists of records by their identity (a
    Trouper's id, a Minion card's space, a Chain card's space), other lists as one value."""
    out: dict[Path, Any] = {}
    # The log and the history only grow and hold no piece: left out (a step stays cheap).
    _flat(state.model_dump(mode="json", exclude=_UNREAD), (), out)
    return out


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
        return words.who(self.catalog, tid).split(",")[0].split(" of ")[0]

    def card(self, cid: Any) -> str:
        return words.name(self.catalog, cid)


Sentence = Callable[[Ctx, dict[str, str], Any, Any], list[Instruction]]


def _n(v: Any) -> int:
    """A count: a number, or how many marks a list holds (Cubes on a card's Effects)."""
    return len(v) if isinstance(v, list) else int(v) if isinstance(v, (int, bool)) else 0


def track(what: str, trouper: bool = False) -> Sentence:
    """A marker on a track: "Threat token: 3 → 5"; a Trouper's Insanity cube by its space,
    the leftmost being space 1 ("Aurel: move your Insanity cube to space 2 (from 1)")."""

    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        if _n(old) == _n(new):
            return []
        o, n = _n(old), _n(new)
        who = ctx.who(b["t"]) if trouper else ""
        text = (f"{who}: move your {what} to space {n + 1} (from {o + 1})" if who
                else f"{what}: {o} → {n}")
        return [Instruction("track", what, o, n, 1, who, text=text)]

    return say


def tokens(what: str, more: str, fewer: str, trouper: bool = True) -> Sentence:
    """A count of tokens: ``more``/``fewer`` say what to do with each one (``{n}``, ``{s}``)."""

    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        o, n = _n(old), _n(new)
        if o == n:
            return []
        k = abs(n - o)
        who = ctx.who(b["t"]) if trouper and "t" in b else ""
        label = {"who": who, "n": str(k), "s": "" if k == 1 else "s", "space": _space(b),
                 "name": _chain_name(ctx.after if n > o else ctx.before, ctx, b)}
        verb = (more if n > o else fewer).format(**label)
        head = f"{who}: " if who else ""
        return [Instruction("tokens", what.format(**label), o, n, k, who,
                            text=head + verb + f" ({o} → {n})")]

    return say


def flag(what: str, on: str, off: str, trouper: bool = True) -> Sentence:
    """A yes/no a token or a card side shows: ``on`` when it turns true, ``off`` when false."""

    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        if bool(old) == bool(new):
            return []
        who = ctx.who(b["t"]) if trouper and "t" in b else ""
        at = ctx.after if new else ctx.before
        label = {"who": who, "space": _space(b), "name": _chain_name(at, ctx, b),
                 "item": ctx.card(b.get("c", ""))}
        verb = (on if new else off).format(**label)
        return [Instruction("flag", what.format(**label), bool(old), bool(new), 1, who, text=verb)]

    return say


def listed(what: str, on: str, off: str) -> Sentence:
    """A list of pieces turned or taken (``{name}``: each one's name): ``on`` for each added."""

    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        who = ctx.who(b["t"]) if "t" in b else ""
        out = []
        for text, extra, flip in ((on, Counter(new or []) - Counter(old or []), True),
                                  (off, Counter(old or []) - Counter(new or []), False)):
            for pid in extra.elements():
                name = SIDE_WORDS.get(str(pid)) or ctx.card(pid)
                out.append(Instruction(what, name, not flip, flip, 1, who,
                                       text=text.format(name=name, who=who)))
        return out

    return say


def side(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
    """An Item card in its sleeve turned to its red (upgraded) side or back."""
    if bool(old) == bool(new):
        return []
    who, k = ctx.who(b["t"]), int(b["i"])
    item = next((ctx.card(t.sleeves[k].item) for t in ctx.after.troupers
                 if t.trouper == b["t"] and k < len(t.sleeves)), f"the Item in sleeve {k + 1}")
    to = "red (upgraded)" if new else "plain"
    return [Instruction("item", f"Item sleeve {k + 1}", not new, bool(new), 1, who,
                        text=f"{who}: turn {item} to its {to} side")]


def equip(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
    who, cat = ctx.who(b["t"]), b["c"]
    if new:
        return [Instruction("item", ctx.card(new), "Reserve", cat, 1, who,
                            text=f"{who}: {ctx.card(new)} beside your Trouper board ({cat})")]
    return [Instruction("item", ctx.card(old), cat, "Reserve", 1, who,
                        text=f"{who}: {ctx.card(old)} back to your Reserve")]


def resources(what: str) -> Sentence:
    def say(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
        o, n = _n(old), _n(new)
        if o == n:
            return []
        k = b.get("k", "")
        name = what.format(k=k.replace("_", " ").capitalize(), card=ctx.card(k))
        verb = "add" if n > o else "take away"
        return [Instruction("resource", name, o, n, abs(n - o),
                            text=f"{name}: {verb} {abs(n - o)} ({o} → {n})")]

    return say


def leader(ctx: Ctx, b: dict[str, str], old: Any, new: Any) -> list[Instruction]:
    ts = ctx.after.troupers
    if not isinstance(new, int) or not 0 <= new < len(ts):
        return []
    who = ctx.who(ts[new].trouper)
    return [Instruction("leader", "Leader", old, new, 1, who, text=f"{who} is the Leader now")]


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


# Card zones: where a card lies, as the table calls it (``{who}``: the Trouper's name).
def zone(label: str, ordered: bool = False) -> tuple[str, str, bool]:
    return ("cards", label, ordered)


# --------------------------------------------------------------------------- the table

T = "troupers", "{t}"
C, CS = ("night", "chain", "{i}"), "Chain space {space}"
R, RS = ("night", "reaction_line", "{i}"), "Reaction Line space {space}"
M = ("night", "minions", "{i}")
TABLE: dict[Path, Sentence | tuple[str, str, bool]] = {
    # tracks
    ("night", "threat"): track("Threat token"),
    (*T, "insanity"): track("Insanity cube", trouper=True),
    # tokens
    (*T, "vigor_depleted"): tokens("Vigor token", "flip {n} Vigor token{s} to the Depleted side",
                                   "flip {n} Vigor token{s} back to the Available side"),
    (*T, "bites"): tokens("Bite token", "put {n} Bite token{s} on your Vigor tokens",
                          "take {n} Bite token{s} off your Vigor tokens"),
    (*T, "bites_on_depleted"): tokens(
        "Bite tokens on Depleted Vigor tokens",
        "move {n} Bite token{s} onto a Depleted Vigor token",
        "move {n} Bite token{s} onto an Available Vigor token"),
    (*T, "unmarked_wounds"): tokens("Wound", "{n} Wound{s} no card could mark (note them)",
                                    "{n} unmarked Wound{s} healed"),
    (*T, "exhausted"): flag("Exhausted token", "{who}: take an Exhausted token",
                            "{who}: put your Exhausted token away"),
    (*T, "knocked_out"): flag("Trouper miniature", "{who}: Knocked Out, lay your miniature down",
                              "{who}: stand your miniature up again"),
    **{(*T, kind, part): tokens(f"{name} tokens ({part})", f"{{n}} {name} {more}",
                                f"{{n}} {name} {fewer}")
       for kind, name in (("traps", "Trap"), ("whispers", "Whisper"))
       for part, more, fewer in (
           ("supply", "token{s} back to your Reserve", "token{s} out of your Reserve"),
           ("intact", "token{s} on the Map, Intact side up", "Intact token{s} off the Map"),
           ("consumed", "token{s} on the Map, Consumed side up",
            "Consumed token{s} off the Map"))},
    (*C, "resolved"): flag(f"Resolved token on {CS}",
                           f"{CS} ({{name}}): put a Resolved token on it",
                           f"{CS} ({{name}}): take its Resolved token away"),
    (*C, "sacrificed"): flag(f"Sacrifice Cube on {CS}",
                             f"{CS} ({{name}}): put a Cube on its Sacrifice symbol",
                             f"{CS} ({{name}}): take the Cube off its Sacrifice symbol"),
    (*C, "face_down"): flag(f"card side on {CS}", f"{CS}: turn {{name}} face down",
                            f"{CS}: turn {{name}} face up"),
    (*C, "supports_used"): tokens(f"Support Cubes on {CS}",
                                 f"{CS} ({{name}}): put {{n}} Cube{{s}} on its used Support Effect",
                                 f"{CS} ({{name}}): take {{n}} Cube{{s}} off its Support Effects",
                                 trouper=False),
    (*C, "quick_used"): tokens(f"Quick Cubes on {CS}",
                              f"{CS} ({{name}}): mark {{n}} used Quick Effect{{s}} with a Cube",
                              f"{CS} ({{name}}): take {{n}} Cube{{s}} off its Quick Effects",
                              trouper=False),
    (*R, "resolved"): flag(f"Resolved token on {RS}", f"{RS}: put a Resolved token on it",
                           f"{RS}: take its Resolved token away"),
    (*M, "alive"): tokens("Minion miniatures on space {space}",
                          "Minion space {space}: put {n} miniature{s} on the Map",
                          "Minion space {space}: take {n} miniature{s} off the Map"),
    (*M, "summoned"): flag("Minion card on space {space}",
                           "Minion space {space}: the Minion is summoned",
                           "Minion space {space}: the Minion is no longer summoned"),
    ("night", "chain_spaces"): tokens("Chain", "the Chain grows by {n} space{s}",
                                      "the Chain shrinks by {n} space{s}", trouper=False),
    # Items, the Wagon, trophies
    (*T, "depleted_items"): listed("item", "{name}: turn it face down (Depleted)",
                                   "{name}: turn it face up again"),
    ("night", "weakness_trophies"): listed("trophy", "Weakness Trophy of the {name}: take it",
                                           "Weakness Trophy of the {name}: give it back"),
    ("vlad_weakened",): listed("card", "{name}: turn it to its Weakened side",
                               "{name}: turn it back to its Enhanced side"),
    (*T, "sleeves", "{i}", "advanced"): side,
    (*T, "equipped", "{c}"): equip,
    ("wagon", "{k}"): resources("Wagon {k}"),
    ("location_trophies", "{k}"): resources("Location Trophy {card}"),
    ("nemesis_trophies", "{k}"): resources("Nemesis Trophy {card}"),
    ("leader",): leader,
    # cards
    (*T, "hand"): zone("{who}'s hand"),
    (*T, "draw_pile"): zone("{who}'s deck", ordered=True),
    (*T, "discard"): zone("{who}'s discard pile"),
    (*T, "wounds"): zone("{who}'s Wounds space"),
    (*T, "deck"): zone("{who}'s Trouper deck"),
    (*T, "reserve_cards"): zone("{who}'s Reserve"),
    (*T, "reserve_items"): zone("{who}'s Reserve (Items)"),
    (*T, "sleeves", "{i}", "item"): zone("{who}'s Item sleeve {space}"),
    (*C, "card"): zone(CS),
    (*R, "card"): zone(RS),
    (*M, "minion"): zone("Minion space {space}"),
    ("night", "reaction_deck"): zone("the Reaction deck", ordered=True),
    ("night", "reaction_discard"): zone("the Nemesis discard pile"),
    ("night", "nemesis_wounds", "{k}"): zone("the Nemesis's {k} Wounds"),
    ("night", "event_deck"): zone("the Event deck", ordered=True),
    ("advanced_decks", "{k}"): zone("the {k} Advanced Tactic deck", ordered=True),
    ("training",): zone("the Training cards"),
    ("crafting",): zone("the Crafting cards"),
}

# What the table does not hold: the engine's cursor and log, choices, identities.
QUIET: tuple[Path, ...] = (
    ("schema_version",), ("name",), ("mode",), ("seed",), ("started",), ("game",), ("part",),
    ("phase",), ("history", "*"), ("day", "*"), ("rewards", "*"), ("resources_earned",),
    ("resources_spent",), ("vlad_defeats",), ("decks", "*"), ("set_aside", "*"),
    (*T, "seat"), (*T, "colour"), (*T, "trouper"), (*T, "rested_this_turn"),
    ("night", "chain", "{i}", "kind"), ("night", "chain", "{i}", "owner"),
    ("night", "chain", "{i}", "threat"), ("night", "chain", "{i}", "space"),
    ("night", "reaction_line", "{i}", "interruption"), ("night", "minions", "{i}", "space"),
    *[("night", k) for k in ("nemesis", "vlad", "zone", "location", "difficulty", "turn",
                             "phase", "to_play", "passed", "cascade", "rightmost_player",
                             "active", "event_used", "result", "reason", "phase_done",
                             "after_play", "rest_exhaust", "activated", "started")],
    ("night", "log", "*"), ("night", "pending", "*"), ("night", "queue", "*"),
    ("night", "activation", "*"), ("night", "bonuses", "*"), ("night",), ("day",),
    ("rewards",),
)


def _row(path: Path) -> tuple[Path, dict[str, str]] | None:
    for pattern in TABLE:
        bound = _match(pattern, path)
        if bound is not None:
            return pattern, bound
    return None


def _quiet(path: Path) -> bool:
    for pattern in QUIET:
        if pattern[-1] == "*" and len(path) >= len(pattern) - 1:
            if _match(pattern[:-1], path[: len(pattern) - 1]) is not None:
                return True
        elif _match(pattern, path) is not None:
            return True
    return False


def changed(before: CampaignState, after: CampaignState) -> list[Path]:
    """Every leaf path whose value the step changed (appeared, went or differs)."""
    a, b = leaves(before), leaves(after)
    return [p for p in {**a, **b} if not _same(a.get(p), b.get(p))]


def _same(old: Any, new: Any) -> bool:
    # A piece absent before and the same piece at rest (0, no, none) are the same board.
    return old == new or (not old and not new)


def unmapped(before: CampaignState, after: CampaignState) -> list[str]:
    """The changed paths neither :data:`TABLE` nor :data:`QUIET` names (a test failure)."""
    return sorted(".".join(p) for p in changed(before, after) if _row(p) is None and not _quiet(p))


# --------------------------------------------------------------------------- instructions


def instructions(before: CampaignState, after: CampaignState,
                 catalog: Catalog | None) -> list[Instruction]:
    """The physical moves that turn the board of ``before`` into that of ``after``."""
    ctx = Ctx(before, after, catalog)
    a, b = leaves(before), leaves(after)
    out: list[Instruction] = []
    gone: list[tuple[str, str, str]] = []  # (card, zone label, pattern)
    came: list[tuple[str, str, str]] = []
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
            gone += [(c, label, field) for c in (Counter(olds) - Counter(news)).elements()]
            came += [(c, label, field) for c in (Counter(news) - Counter(olds)).elements()]
            if say[2] and Counter(olds) == Counter(news):
                shuffled.append((label, field))
            continue
        out += [i._replace(field=field) for i in say(ctx, bound, old, new)]
    out += _moves(gone, came, ctx)
    out += [Instruction("shuffle", label, label, label, 0, field=field,
                        text=f"Shuffle {label}") for label, field in shuffled]
    return out


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
    return template.format(who=who, space=_space(bound), k=kname)


def _home(card: str, here: str, ctx: Ctx) -> str:
    """Where a card no zone took comes from or goes back to: its Trouper's deck (a night's
    cards put away, the night's deal), else the box."""
    for state in (ctx.after, ctx.before):
        for t in state.troupers:
            if card in t.deck:
                home = f"{ctx.who(t.trouper)}'s Trouper deck"
                return BOX if home == here else home
    return BOX


def _moves(gone: list[tuple[str, str, str]], came: list[tuple[str, str, str]],
           ctx: Ctx) -> list[Instruction]:
    """Pair each card that left a zone with where it arrived; group moves by route."""
    routes: dict[tuple[str, str, str], list[str]] = {}
    left = list(gone)
    for card, to, field in came:
        src = next((g for g in left if g[0] == card), None)
        if src is not None:
            left.remove(src)
        frm, frm_field = (src[1], src[2]) if src else (_home(card, to, ctx), "")
        routes.setdefault((frm, to, frm_field + ">" + field), []).append(card)
    for card, frm, field in left:
        routes.setdefault((frm, _home(card, frm, ctx), field + ">"), []).append(card)
    out = []
    for (frm, to, field), cards in routes.items():
        names = [ctx.card(c) for c in cards]
        what = listing(names) if len(names) < 4 else f"{len(names)} cards"
        if frm == BOX:
            text = f"{what}: to {to}"
        elif to == BOX:
            text = f"{what}: from {frm} back to the box"
        else:
            text = f"{what}: {frm} → {to}"
        out.append(Instruction("cards", what, frm, to, len(cards), "", field, text, tuple(names)))
    return out


def lines(before: CampaignState, after: CampaignState, catalog: Catalog | None) -> list[str]:
    """The instructions' sentences, in order."""
    return [i.text for i in instructions(before, after, catalog)]


def as_json(items: list[Instruction]) -> list[dict[str, Any]]:
    return [{"component": i.component, "what": i.what, "from": i.frm, "to": i.to,
             "count": i.count, "trouper": i.trouper, "cards": list(i.cards), "text": i.text}
            for i in items]
