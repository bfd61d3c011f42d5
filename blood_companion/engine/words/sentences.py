"""Sentences with the data pack's names: records, Troupers and the other pieces by name; an
action's declared ``words`` (:func:`say`, :func:`sentence`); a night log event's sentence
(:func:`render`) from its template in :mod:`.templates`. One renderer, :func:`.text.fill`, and
one table of how a field is shown (:data:`KINDS`). Ids stay in the saves and ``--json``; these
pure functions render at the edge, so a card the owner transcribes shows its new name in old
logs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.face import event_reward_text, trouper_name
from blood_companion.engine import chain as ch
from blood_companion.engine.table import UNKNOWN
from blood_companion.engine.words.names import (
    check_text,
    effect_text,
    faces_words,
    job_label,
    miniature_name,
    outcome_words,
    record_name,
    summon_tile,
)
from blood_companion.engine.words.templates import (
    EVENTS,
    MOVES,
    NEMESIS_ENTERS,
    NEMESIS_TURNS,
    REASONS,
)
from blood_companion.engine.words.text import (
    FORMAT,
    SIDE_WORDS,
    counted,
    counted_all,
    fill,
    listing,
    phrase,
)

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.actions import Action
    from blood_companion.engine.night_state import NightLogEntry, NightState
    from blood_companion.engine.state import CampaignState

# --------------------------------------------------------------------------- names


def name(catalog: Catalog | None, cid: Any, face: str | None = None) -> str:
    """A record's printed name (its id without a catalog or when the pack lacks it)."""
    if cid is None:
        return ""
    if str(cid) == UNKNOWN:
        return "a card the app did not see"
    if catalog is None:
        return str(cid)
    return record_name(catalog, cid, face)


def who(catalog: Catalog | None, tid: Any) -> str:
    """A Trouper by name (the id, colour or seat the players typed when it names nobody)."""
    return str(tid) if catalog is None else trouper_name(catalog, tid)


def names(catalog: Catalog | None, ids: Iterable[Any]) -> str:
    return listing(name(catalog, c) for c in ids)


def item_name(catalog: Catalog | None, iid: Any) -> str:
    if catalog is None:
        return str(iid)
    raw = str(iid).rstrip("+")
    card = catalog.item(raw)
    if card is None:
        return name(catalog, raw)
    if str(iid).endswith("+") and card.advanced is not None:
        return card.advanced.name
    return card.starting.name


def zone_name(catalog: Catalog | None, zid: Any) -> str:
    if catalog is None:
        return str(zid)
    z = catalog.get("zones", str(zid))
    return z.name if z is not None else str(zid)


def target_name(catalog: Catalog | None, state: CampaignState | None, target: Any) -> str:
    """An attack's target as typed ("nemesis", a Minion space, a Trouper)."""
    text = str(target or "")
    if text.lower() in ("nemesis", "n"):
        if state is not None and state.night is not None and catalog is not None:
            return name(catalog, state.night.nemesis)
        return "the Nemesis"
    if len(text) <= 2 and text[:1].isalpha():
        space = text.upper()
        if state is not None and state.night is not None and catalog is not None:
            slot = next((s for s in state.night.minions if s.space == space), None)
            if slot is not None:
                return f"Minion {space} ({name(catalog, slot.minion)})"
        return f"Minion {space}"
    return who(catalog, text)


def dice_words(dice: Any, reroll: Any = ()) -> str:
    throws = [f"the app rolled {str(d)[4:].strip()}" if str(d).startswith("app:") else str(d)
              for d in (dice or [])]
    extra = f", {len(list(reroll or []))} Re-roll(s)" if reroll else ""
    if not throws:
        return " (the app rolls)" if not extra else f" (the app rolls{extra})"
    return " (dice: " + "; then ".join(throws) + extra + ")"


def building_name(catalog: Catalog | None, bid: str) -> str:
    if catalog is None:
        return bid
    return next((b.name for b in catalog.village.buildings if b.id == bid or b.effect == bid), bid)


def trait_words(trait: Any) -> str:
    return f" with {str(trait).capitalize()}" if trait else ""


def active_card(state: CampaignState | None, catalog: Catalog | None) -> str:
    if state is None or state.night is None or state.night.activation is None:
        return ""
    slot = state.night.chain[state.night.activation.slot]
    return "" if slot.kind == "rest" else name(catalog, slot.card)


def chain_card(state: CampaignState | None, catalog: Catalog | None, space: Any) -> str:
    try:
        k = int(space) - 1
    except (TypeError, ValueError):
        return name(catalog, space)
    at = None if state is None or state.night is None else ch.index_at(state.night.chain, k + 1)
    if state is None or state.night is None or at is None:
        return f"the card on Chain space {space}"
    return name(catalog, state.night.chain[at].card)


def how_tested(a: Any) -> str:
    """The Test an action takes, in words: its Trait and dice (when it names either)."""
    return trait_words(a.trait) + (dice_words(a.dice, a.reroll) if a.dice or a.trait else "")


def actor_name(state: CampaignState | None, catalog: Catalog | None) -> str:
    if state is None or state.night is None:
        return ""
    night = state.night
    if night.pending and night.pending[0].trouper is not None:
        return who(catalog, state.troupers[night.pending[0].trouper].trouper)
    if night.activation is not None:
        return who(catalog, state.troupers[night.activation.trouper].trouper)
    return ""


def trophy_words(catalog: Catalog | None, key: str) -> str:
    kind, _, of = key.rpartition(":")
    if not kind and catalog is not None:
        kind = "location" if catalog.get("zones", of) is not None else "nemesis"
    if not kind:
        return of + " Trophy"
    if kind == "location":
        return f"Location Trophy of {zone_name(catalog, of)}"
    return f"Nemesis Trophy of {name(catalog, of)}"


# --------------------------------------------------------------------------- fields

Kind = Callable[["Catalog | None", "CampaignState | None", Any, Any], str]


def _cat(c: Catalog | None) -> Catalog:
    assert c is not None, "a log event is told with a catalog"
    return c


def _rec(c: Catalog | None, v: Any, a: Any) -> str:
    """A record an event names, with the face it showed (``face``: a Vlad card Weakened)."""
    return record_name(_cat(c), v, a.get("face"))


def _reason(c: Catalog | None, a: Mapping[str, Any], v: Any) -> str:
    if v == "check_holds" and a.get("job"):
        ref = a["job"]
        return f"{job_label(_cat(c), ref)}: {check_text(_cat(c), ref)}"
    return REASONS.get(str(v), str(v))


def _label(c: Catalog | None, v: Any) -> str:
    if v in (None, "", "dodge", "test"):
        return "the dodge" if v == "dodge" else "a Test"
    return record_name(_cat(c), v)


def _reward(c: Catalog | None, v: Any) -> str:
    ev = _cat(c).get("events", str(v or ""))
    return event_reward_text(ev.reward) if ev is not None else "(not in the data pack)"


# How a field is shown (``{field:kind}``; in a log event's template, ``{field}`` alone is
# shown by the kind of its own name when there is one): (catalog, state, the action or the
# event's fields, value) -> words. An action's words show their ids without a catalog, a list
# joined with commas; a log event is always told with one.
KINDS: dict[str, Kind] = {
    # an action's fields
    "who": lambda c, s, a, v: who(c, v),
    "name": lambda c, s, a, v: name(c, v),
    "names": lambda c, s, a, v: names(c, v) if c is not None else ", ".join(v),
    "item": lambda c, s, a, v: item_name(c, v),
    "items": lambda c, s, a, v: (listing if c is not None else ", ".join)(
        [item_name(c, i) for i in v]),
    "zone": lambda c, s, a, v: zone_name(c, v),
    "building": lambda c, s, a, v: building_name(c, v),
    "cap": lambda c, s, a, v: str(v).capitalize(),
    "paid": lambda c, s, a, v: f" (paid {counted_all(dict(v))})" if v else "",
    "side": lambda c, s, a, v: SIDE_WORDS.get(str(v), str(v)),
    "target": lambda c, s, a, v: target_name(c, s, v),
    "chain": lambda c, s, a, v: chain_card(s, c, v),
    "trait": lambda c, s, a, v: trait_words(v),
    "dice": lambda c, s, a, v: dice_words(v, a.reroll),
    "when": lambda c, s, a, v: "",  # a yes/no that only picks the words around it
    "trophies": lambda c, s, a, v: (
        listing(f"{n:+d} {trophy_words(c, k)}" for k, n in v.items() if n) if c is not None
        else ", ".join(f"{n:+d} {k}" for k, n in v.items() if n)),
    # a log event's fields (engine/words/templates.py)
    "number": lambda c, s, a, v: "" if v is None else str(v),
    "leader": lambda c, s, a, v: trouper_name(_cat(c), v),
    "whos": lambda c, s, a, v: ", ".join(trouper_name(_cat(c), x) for x in v or []) or "nobody",
    **{key: (lambda c, s, a, v: _rec(c, v, a))
       for key in ("card", "src", "nemesis", "minion", "event")},
    "job": lambda c, s, a, v: job_label(_cat(c), v or {}),
    "outcome": lambda c, s, a, v: outcome_words(v),
    "effect": lambda c, s, a, v: effect_text(_cat(c), a),
    "check": lambda c, s, a, v: check_text(_cat(c), a.get("job") or a),
    "reward": lambda c, s, a, v: _reward(c, v),
    "reason": lambda c, s, a, v: _reason(c, a, v),
    "cards": lambda c, s, a, v: listing(record_name(_cat(c), x) for x in v) if v else "",
    "faces": lambda c, s, a, v: faces_words(v) if isinstance(v, str) else str(v),
    "found": lambda c, s, a, v: "; ".join(
        f"{trouper_name(_cat(c), t)}: {record_name(_cat(c), x)}" for t, x in v or []),
    "resource": lambda c, s, a, v: (  # "+1 coin", "+2 coins"
        counted(int(a.get("n", 0)), v).partition(" ")[2] if isinstance(v, str) else str(v)),
    "foe": lambda c, s, a, v: miniature_name(_cat(c), v),
    "label": lambda c, s, a, v: _label(c, v),
    "tile": lambda c, s, a, v: summon_tile(_cat(c), a),
    "needs": lambda c, s, a, v: (  # each attack kind against its own Defense
        ", ".join(f"{str(k).capitalize()} Defense {n}" for k, n in v.items())
        if isinstance(v, Mapping) else str(v)),
    "landed": lambda c, s, a, v: ", ".join(
        f"the {str(k).capitalize()} Attack "
        + ("lands" if k in (v or []) else f"misses ({n} needed)")
        for k, n in (a.get("needs") or {}).items()),
    "tags": lambda c, s, a, v: "".join(f" ({t})" for t in v or []),
    "within": lambda c, s, a, v: _within(a),
    "extra": lambda c, s, a, v: f" +{v}" if v else "",
    "verdict": lambda c, s, a, v: "Success" if a.get("success") else "Failure",
    "trait_name": lambda c, s, a, v: str(v).capitalize() if v and str(v).isalpha() else str(v),
    "token": lambda c, s, a, v: "Trap" if v == "traps" else "Whisper",
    "defense": lambda c, s, a, v: str(v).capitalize(),
    "movement": lambda c, s, a, v: movement_text(_cat(c), a),
    "cube": lambda c, s, a, v: cube_text(_cat(c), a),
}


def show(catalog: Catalog, field: str, args: Mapping[str, Any], kind: str = "") -> str:
    """One field of a log event in words (its own kind by default)."""
    how = KINDS.get(kind or field)
    v = args.get(field)
    return how(catalog, None, args, v) if how is not None else "" if v is None else str(v)


def render(entry: NightLogEntry | Mapping[str, Any], catalog: Catalog) -> str:
    """The sentence of one log event, in the words and names of the data pack in use (an old
    save's event read leniently: a field it lacks shows as nothing)."""
    if isinstance(entry, Mapping):
        kind, args = str(entry.get("kind", "")), entry.get("args") or {}
    else:
        kind, args = entry.kind, entry.args
    event = EVENTS.get(kind)
    if event is None:
        return f"({kind.replace('_', ' ')}: {', '.join(f'{k} {v}' for k, v in args.items())})"
    template = event.text
    for field, text in event.variants:
        if args.get(field):
            template = text
    return fill(template, args.get, lambda field, kind, v: show(catalog, field, args, kind))


# Fields every action's ``words`` may name besides its own: what the state before it says.
CONTEXT: dict[str, Callable[[Catalog | None, CampaignState | None, Any], Any]] = {
    "actor": lambda c, s, a: actor_name(s, c),  # who the question or the activation waits on
    "active": lambda c, s, a: active_card(s, c),  # the Active card
    "tested": lambda c, s, a: how_tested(a),  # the Test it takes
    "hand_size": lambda c, s, a: c.config.hand_size if c is not None else 5,
}

class _Scope(dict[str, Any]):
    """What an action's ``words`` name: its fields, then what :data:`CONTEXT` reads."""

    def __init__(self, action: Any, c: Catalog | None, s: CampaignState | None) -> None:
        super().__init__(action)
        self.action, self.c, self.s = action, c, s

    def __missing__(self, key: str) -> Any:
        return CONTEXT[key](self.c, self.s, self.action)


def say(action: Any, c: Catalog | None = None, s: CampaignState | None = None) -> str:
    """An action's declared ``words`` rendered by :func:`fill`, with the names of catalog `c`
    (ids without one) and `s` the state before it: ``{field}`` or ``{field:kind}``
    (:data:`KINDS`) shows a field of the action or of :data:`CONTEXT`."""
    scope = _Scope(action, c, s)

    def value(field: str) -> Any:
        try:
            return FORMAT.get_field(field, (), scope)[0]
        except (KeyError, IndexError):
            return None

    return fill(action.words, value,
                lambda f, kind, v: KINDS[kind](c, s, action, v) if kind else str(v))


def sentence(action: Action, catalog: Catalog | None = None,
             state: CampaignState | None = None) -> str:
    """The action in words, with names (``state``: the state before it, for what it acts on:
    the Active card, the Trouper a question waits on)."""
    text: str | None = None
    if catalog is not None or state is not None:
        try:  # the action's own words (``said``)
            text = action.said(catalog, state)
        except Exception:  # noqa: BLE001 - words must never hide the log: fall back
            text = None
    if text is None:
        text = action.describe()
    drawn = getattr(action, "drawn", None)
    if drawn:
        shown = [names(catalog, cs) for cs in drawn.values()]
        if not all(x in text for x in shown):
            text += "; drawn at the table: " + "; ".join(shown)
    return text


def night_reason(night: NightState, catalog: Catalog) -> str:
    """Why the night ended, in words (``NightState.reason`` holds a code of :data:`REASONS`,
    or a sentence in saves of app 0.1.0)."""
    for entry in reversed(night.log):
        if entry.kind == "night_over":
            return show(catalog, "reason", entry.args)
    return REASONS.get(night.reason, night.reason)


def movement_text(catalog: Catalog, args: Mapping[str, Any]) -> str:
    """A movement log event as the instruction the table carries out."""
    kind = str(args.get("move", "move"))
    template = MOVES.get(kind, MOVES["move"])
    toward = args.get("toward")
    text = phrase(template, mover=miniature_name(catalog, args.get("mover")),
                  by=miniature_name(catalog, args.get("by")) if args.get("by") else "its source",
                  n=args.get("n") or 1,
                  toward=(f" {'away from' if args.get('away') else 'toward'} "
                          f"{miniature_name(catalog, toward)}" if toward else ""))
    mover = args.get("mover") or {}
    if isinstance(catalog.find(str(mover.get("card", ""))), m.Nemesis):
        if kind != "escape":
            aim = (" (the side on the shortest path to its target)"
                   if toward or kind == "attract" else "")
            text += phrase(NEMESIS_TURNS, target=aim)
        text += NEMESIS_ENTERS
    return text + _within(args)


def cube_text(catalog: Catalog, args: Mapping[str, Any]) -> str:
    """A Cube placed on a Tile ("Other Components"), as the table places it."""
    src = args.get("src")
    who = trouper_name(catalog, src) if catalog.trouper(str(src)) else record_name(catalog, src)
    nemesis = catalog.find(str(args.get("nemesis", "")))
    stands = getattr(nemesis, "cube_name", None)
    n = int(args.get("n") or 1)
    what = ("a Cube" if n == 1 else f"{n} Cubes") + (f" ({stands})" if stands else "")
    tile = (f"a Tile at Distance {args['distance']} from {who} (Leader's Rule picks it)"
            if args.get("distance") else f"the Tile {who}'s Effect targets")
    return f"PLACE {what} on {tile}"


def _within(args: Mapping[str, Any]) -> str:
    """An Effect on every Minion / Enemy whose Distance only the table sees."""
    d = args.get("within")
    return f" (only if it stands within {'the Special Area' if d == 'area' else f'Distance {d}'}" \
        " of the Effect's source)" if d else ""


