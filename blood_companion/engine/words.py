"""What players read: actions as sentences with the data pack's names (each action declares its
``words``, a template :func:`say` renders), what a step drew as a physical instruction, and the
physical set-up checklists of the Dusk and the Beginning of the Night. Ids stay in the saves and
``--json``; these pure functions render at the edge, so a card the owner transcribes shows its
new name in old logs.

Rulebook sections: "Dusk Phase" (the Map, the Nemesis Card and its Reaction deck, the Nemesis
Miniature and its Front, the Minion Miniatures, the Event cards), "Beginning of the Night"
(five cards each), "Setup" (Playing Area Setup), "Threat" (the token on the first space),
"Zones" > "Tiles" (the start Tiles).

The other modules of words: ``engine/narrate.py`` (the night log), ``engine/plain.py`` (words
without the data pack) and ``cli/table_words.py`` (cards, hands, log lines as the CLI prints).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.engine import chain as ch
from blood_companion.engine import narrate
from blood_companion.engine.legal import Ask, Pick
from blood_companion.engine.plain import FORMAT, SIDE_WORDS, counted, counted_all, fill, listing
from blood_companion.engine.table import UNKNOWN, at_table

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.actions import Action
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
    return narrate.record_name(catalog, cid, face)


def who(catalog: Catalog | None, tid: Any) -> str:
    """A Trouper by name (the id, colour or seat the players typed when it names nobody)."""
    if catalog is None:
        return str(tid)
    from blood_companion.content.face import trouper_name

    return trouper_name(catalog, tid)


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


def paid_words(pay: Any) -> str:
    if not pay:
        return ""
    return " (paid " + counted_all(dict(pay)) + ")"


def trophy_words(catalog: Catalog | None, key: str) -> str:
    kind, _, of = key.rpartition(":")
    if not kind and catalog is not None:
        kind = "location" if catalog.get("zones", of) is not None else "nemesis"
    if not kind:
        return of + " Trophy"
    if kind == "location":
        return f"Location Trophy of {zone_name(catalog, of)}"
    return f"Nemesis Trophy of {name(catalog, of)}"


# --------------------------------------------------------------------------- actions

# How a field of an action's ``words`` is shown (``{field:kind}``): (catalog, state, action,
# value) -> words. Without a catalog the ids show, and a list is joined with commas.
KINDS: dict[str, Callable[[Catalog | None, CampaignState | None, Any, Any], str]] = {
    "who": lambda c, s, a, v: who(c, v),
    "name": lambda c, s, a, v: name(c, v),
    "names": lambda c, s, a, v: names(c, v) if c is not None else ", ".join(v),
    "item": lambda c, s, a, v: item_name(c, v),
    "items": lambda c, s, a, v: (listing if c is not None else ", ".join)(
        [item_name(c, i) for i in v]),
    "zone": lambda c, s, a, v: zone_name(c, v),
    "building": lambda c, s, a, v: building_name(c, v),
    "cap": lambda c, s, a, v: str(v).capitalize(),
    "paid": lambda c, s, a, v: paid_words(v),
    "side": lambda c, s, a, v: SIDE_WORDS.get(str(v), v),
    "target": lambda c, s, a, v: target_name(c, s, v),
    "chain": lambda c, s, a, v: chain_card(s, c, v),
    "trait": lambda c, s, a, v: trait_words(v),
    "dice": lambda c, s, a, v: dice_words(v, a.reroll),
    "when": lambda c, s, a, v: "",  # a yes/no that only picks the words around it
    "trophies": lambda c, s, a, v: (
        listing(f"{n:+d} {trophy_words(c, k)}" for k, n in v.items() if n) if c is not None
        else ", ".join(f"{n:+d} {k}" for k, n in v.items() if n)),
}

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


# --------------------------------------------------------------------------- what a step drew


def _minion_tiles(catalog: Catalog, zone: str | None, space: str) -> int:
    from blood_companion.content.face import minion_miniatures

    return minion_miniatures(catalog, zone or "", space)


def drawn_lines(before: CampaignState, after: CampaignState, catalog: Catalog) -> list[str]:
    """What a Day or End-of-the-Night step drew or revealed, as what to do at the table
    ("Minion A: Bone Sentinel — put its card on space A ..."). The night's own draws are in its
    log (engine/narrate.py)."""
    out: list[str] = []
    db, da = before.day, after.day
    if da is not None:
        if da.location and (db is None or db.location != da.location):
            loc = catalog.get("locations", da.location)
            roll = f" (the die shows {da.location_roll})" if da.location_roll else ""
            out.append(f"Location card: {name(catalog, da.location)}{roll} — keep it beside the "
                       "Night Board; its Map is laid out at the Dusk.")
            if loc is not None:
                from blood_companion.content.face import map_lines

                out += ["  " + x for x in map_lines(list(loc.map))]
        if da.minions and (db is None or db.minions != da.minions):
            for space, mid in zip(("A", "B"), da.minions, strict=False):
                card = catalog.get("minions", mid)
                kind = f" ({card.type.capitalize()})" if card is not None else ""
                n = _minion_tiles(catalog, da.zone, space)
                tile = "hammer" if space == "A" else "pen"
                out.append(  # the Dusk's step moves the card and Miniatures (told there)
                    f"Minion {space}: {name(catalog, mid)}{kind} — at the Dusk its card goes on "
                    f"Minion space {space} of the Night Board and its {n} Miniature(s) on the "
                    f"{space} ({tile}) Tiles, one per Tile.")
        if da.nemesis and (db is None or db.nemesis != da.nemesis):
            nem = catalog.nemesis(da.nemesis)
            vlad = " (the Last Assault)" if nem is not None and nem.vlad else ""
            out.append(f"Nemesis: {name(catalog, da.nemesis)}{vlad} — take its Nemesis card, its "
                       "three Weakness cards and its Reaction deck; the Dusk lays them out.")
        if da.events and (db is None or db.events != da.events):
            for k, ev in enumerate(da.events):
                out.append(f"Event card on Chain space {k + 1}: {name(catalog, ev)}")
    rb, ra = before.rewards, after.rewards
    if ra is not None:
        # an Advanced Tactic card taken is the step's own instruction ("At the table"), told once
        made = len(rb.rolls) if rb is not None else 0
        for made_roll in ra.rolls[made:]:
            how = "your dice" if made_roll.physical else "the app's dice"
            out.append(f"Loot roll {made_roll.dice} ({how}): "
                       f"{narrate.faces_words(made_roll.faces)} → "
                       f"{counted(made_roll.gained, made_roll.resource)} to the Wagon.")
    for tb, ta in zip(before.troupers, after.troupers, strict=False):
        if after.part == "day":
            out += [f"{who(catalog, ta.trouper)} takes {name(catalog, cid)} into the Personal "
                    "Reserve." for cid in ta.reserve_cards[len(tb.reserve_cards):]]
    return out


# --------------------------------------------------------------------------- checklists


def dusk_checklist(state: CampaignState, catalog: Catalog) -> list[str]:
    """The Dusk Phase's physical set-up, one line to tick each ("Dusk Phase"), before the Day
    ends and the night is laid out."""
    day = state.day
    if day is None:
        return []
    loc = catalog.get("locations", day.location or "")
    nem = catalog.nemesis(day.nemesis or "")
    out = []
    if loc is not None:
        out.append(f"Lay out the Map of {loc.name} with the Tiles of "
                   f"{zone_name(catalog, day.zone)} (the Map below; N, A, B, T, L, S as the "
                   "legend says).")
    # The cards and Miniatures the set-up step lays out (the Reaction deck, the Minion cards
    # and their Miniatures, the Event cards) are its own instructions ("At the table"), told
    # once there; this list holds what no instruction tells.
    if nem is not None:
        table = at_table(state, "reactions")
        deck = ("shuffle its Reaction deck" if table else "its Reaction deck face down as the "
                "app lays it out, unshuffled (the app keeps the order: it names each card it "
                "reveals)")
        out.append(f"The Nemesis card of {nem.name} in the playing area with its three Weakness "
                   f"cards on their sides; {deck}.")
        out.append(f"The {nem.name} Miniature on the N Tile, its Front facing the path toward the "
                   "Trouper you agree on. The Minion Miniatures (told when the Day ends) go on "
                   "the Tiles of their symbol, one per Tile.")
    out.append(scenic_line(catalog, day.events))
    out.append("The Threat token on the first space of the Threat track; Resolved tokens and "
               "Cubes beside the Night Board.")
    return out


def scenic_line(catalog: Catalog, events: Iterable[str]) -> str:
    """The Scenic Elements the Event cards name, on their Tiles, and which Tiles that makes
    Impassable ("Scenic Elements", "Impassability"; ``unnamed_scenic_tiles`` for the rest)."""
    from blood_companion.content.face import scenic_elements

    placed = []
    for s in scenic_elements(catalog, list(events)):
        where = {"L": "the L Tile", "S": "an S Tile"}.get(
            s["tile"] or "", "its Scenic Element Tile (L or S, as the Event card shows)")
        placed.append(f"the {s['name']} on {where} (for {s['event_name']})")
    if catalog.config.unnamed_scenic_tiles == "impassable":
        rest = ("a Scenic Element of that size of your choice, Impassable too" if placed else
                "a Scenic Element of that size of your choice; those Tiles are Impassable (no "
                "Miniature enters them; Fly may pass over)")
    else:
        rest = "nothing: they are ordinary Tiles"
    if not placed:
        return ("Scenic Elements: no Event card on the Chain names one; every L and S Tile "
                f"takes {rest}.")
    return ("Scenic Elements the Event cards name: " + "; ".join(placed) + ". Their Tiles are "
            "Impassable (no Miniature enters them; Fly may pass over). The other L and S Tiles "
            f"take {rest}.")


def night_checklist(state: CampaignState, catalog: Catalog) -> list[str]:
    """The Beginning of the Night's physical set-up, one line to tick each ("Beginning of the
    Night"; "Zones" > "Tiles": the Troupers start on the T Tiles)."""
    night = state.night
    if night is None:
        return []
    out = []
    for t in state.troupers:
        # The Items equipped and the five cards each draws are the set-up step's own
        # instructions ("At the table"), told once there, not again here.
        out.append(f"{who(catalog, t.trouper)}: the Miniature on a T Tile (Troupers' start "
                   "Tiles); the Vigor tokens available side up, the Insanity cube leftmost.")
    out.append("Everyone's Trap and Whisper tokens in their Personal Reserve, the Exhausted "
               "tokens beside the Trouper Boards.")
    return out


def checklist_for(state: CampaignState, catalog: Catalog, kind: str) -> list[str]:
    return dusk_checklist(state, catalog) if kind == "dusk" else night_checklist(state, catalog)


SETUP = "_setup"  # the walker's own need: the lines of a physical set-up checklist, ticked


def checklist_ask(state: CampaignState, catalog: Catalog, kind: str, title: str,
                  answers: Mapping[str, Any]) -> Ask | None:
    """The next line of a physical set-up checklist (``kind``: ``dusk`` or ``night``; the
    lines come from engine/words.py), ticked by Enter; ``all`` ticks the rest at once."""
    lines = checklist_for(state, catalog, kind)
    done = list(answers.get(SETUP) or [])
    if "all" in done or len(done) >= len(lines):
        return None
    k = len(done)
    info: tuple[str, ...] = ()
    if kind == "dusk" and k == 0:
        day = state.day
        loc = catalog.get("locations", day.location or "") if day is not None else None
        if loc is not None:
            from blood_companion.content.face import map_lines

            info = tuple(map_lines(list(loc.map)))
    if info and "the Map below" in lines[k]:  # drawn below the sentence pointing to it
        lines[k], info = "\n".join((lines[k], *info)), ()
    return Ask(SETUP, f"{title} [{k + 1}/{len(lines)}] {lines[k]}", (
        Pick("ok", "Done", "ok"), Pick("all", "All done: skip the rest of the list", "all"),
    ), default="ok", info=info, append=True)


__all__ = [
    "SETUP", "SIDE_WORDS", "checklist_ask", "checklist_for", "drawn_lines", "dusk_checklist",
    "listing", "name", "names", "night_checklist", "sentence", "who"
]
