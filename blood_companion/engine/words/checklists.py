"""What to do at the table besides the board's changes: what a Day or End-of-the-Night step
drew or revealed, and the physical set-up checklists of the Dusk and the Beginning of the Night,
a line to tick each.

Rulebook sections: "Dusk Phase" (the Map, the Nemesis Card and its Reaction deck, the Nemesis
Miniature and its Front, the Minion Miniatures, the Event cards), "Beginning of the Night"
(five cards each), "Setup" (Playing Area Setup), "Threat" (the token on the first space),
"Zones" > "Tiles" (the start Tiles).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content.face import map_lines, minion_miniatures, scenic_elements
from blood_companion.engine.legal import Ask, Pick
from blood_companion.engine.table import at_table
from blood_companion.engine.words.names import faces_words
from blood_companion.engine.words.sentences import name, who, zone_name
from blood_companion.engine.words.templates import SETUP
from blood_companion.engine.words.text import counted

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.state import CampaignState

# --------------------------------------------------------------------------- what a step drew


def drawn_lines(before: CampaignState, after: CampaignState, catalog: Catalog) -> list[str]:
    """What a Day or End-of-the-Night step drew or revealed, as what to do at the table
    ("Minion A: Bone Sentinel — put its card on space A ..."). The night's own draws are in its
    log (:func:`.sentences.render`)."""
    out: list[str] = []
    db, da = before.day, after.day
    if da is not None:
        if da.location and (db is None or db.location != da.location):
            loc = catalog.get("locations", da.location)
            roll = f" (the die shows {da.location_roll})" if da.location_roll else ""
            out.append(f"Location card: {name(catalog, da.location)}{roll} — keep it beside the "
                       "Night Board; its Map is laid out at the Dusk.")
            if loc is not None:
                out += ["  " + x for x in map_lines(list(loc.map))]
        if da.minions and (db is None or db.minions != da.minions):
            for space, mid in zip(("A", "B"), da.minions, strict=False):
                card = catalog.get("minions", mid)
                kind = f" ({card.type.capitalize()})" if card is not None else ""
                n = minion_miniatures(catalog, da.zone or "", space)
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
                       f"{faces_words(made_roll.faces)} → "
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


def checklist_ask(state: CampaignState, catalog: Catalog, kind: str, title: str,
                  answers: Mapping[str, Any]) -> Ask | None:
    """The next line of a physical set-up checklist (``kind``: ``dusk`` or ``night``; the
    lines are words of this package), ticked by Enter; ``all`` ticks the rest at once."""
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
            info = tuple(map_lines(list(loc.map)))
    if info and "the Map below" in lines[k]:  # drawn below the sentence pointing to it
        lines[k], info = "\n".join((lines[k], *info)), ()
    return Ask(SETUP, f"{title} [{k + 1}/{len(lines)}] {lines[k]}", (
        Pick("ok", "Done", "ok"), Pick("all", "All done: skip the rest of the list", "all"),
    ), default="ok", info=info, append=True)
