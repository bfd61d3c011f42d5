"""A card as the players read it on the table: its name, what kind of card it is, its symbols
and its Effects in words, and the map legend of the Location cards.

:func:`find_card` finds any card by id or name (typo-tolerant, engine/naming.py);
:func:`card_face` gives its lines. Ids appear only where asked for (``with_id``): everything
else names cards the way they are printed. Placeholder content is marked (DESIGN.md: "the app
shows that mark wherever such content appears"). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from blood_companion.content import models as m
from blood_companion.content.cards import format_cost, format_fatigue
from blood_companion.content.loader import Catalog
from blood_companion.content.render import render_effect

# The Map notation of the Location cards (data/locations/*.yaml; "Zones" > "Tiles").
MAP_LEGEND: tuple[tuple[str, str], ...] = (
    ("N", "Nemesis start"), ("T", "Trouper start"), ("A", "Minion A (hammer)"),
    ("B", "Minion B (pen)"), ("L", "large Scenic Element"), ("S", "small Scenic Element"),
    (".", "plain Tile"), ("-", "no Tile"),
)
# Kinds that are cards on the table (what `show` finds), in the order searched, and their names.
KIND_WORDS = {
    "starting_tactics": "Starting Tactic card", "advanced_tactics": "Advanced Tactic card",
    "special_tactics": "Location/Nemesis Tactic card", "trouper_items": "Trouper Item card",
    "special_items": "Location/Nemesis Item card", "reactions": "Reaction card",
    "vlad_reactions": "Vlad Reaction card", "weaknesses": "Weakness card",
    "nemeses": "Nemesis card", "minions": "Minion card", "locations": "Location card",
    "events": "Event card", "troupers": "Trouper card",
}
CARD_KINDS = tuple(KIND_WORDS)
PLACEHOLDER = "(placeholder text: transcribe your box over it)"


def map_legend(rows: list[str] | None = None) -> list[str]:
    """The legend of the Map notation (only the symbols `rows` use, when given), in lines of
    at most three symbols so a terminal of 80 columns shows it whole."""
    used = set("".join(rows)) if rows else None
    parts = [f"{sym} {what}" for sym, what in MAP_LEGEND if used is None or sym in used]
    return [("Legend: " if k == 0 else "        ") + ", ".join(parts[k:k + 3])
            for k in range(0, len(parts), 3)]


def map_lines(rows: list[str]) -> list[str]:
    """The Map rows as the Location card shows them (every other row sits half a Tile to the
    right), then the legend."""
    out = [("Map: " if k == 0 else "     ") + " " * (k % 2) + " ".join(row)
           for k, row in enumerate(rows)]
    return [*out, *map_legend(rows)]


def kind_of(catalog: Catalog, cid: str) -> str | None:
    return next((kind for kind in CARD_KINDS if catalog.get(kind, cid) is not None), None)


def named_sides(rec: Any) -> list[tuple[str, str | None]]:
    """A card's printed names, each with the side that prints it (None: a one-sided card)."""
    sides: list[tuple[str, str | None]]
    if isinstance(rec, m.VladReactionCard):
        sides = [(rec.enhanced.name, "enhanced"), (rec.weakened.name, "weakened")]
    elif isinstance(rec, m.ItemCard) and rec.advanced is not None:
        sides = [(rec.starting.name, "starting"), (rec.advanced.name, "advanced")]
    else:
        return [(rec.name, None)]
    return sides if sides[0][0] != sides[1][0] else [(sides[0][0], None)]


def names_of(rec: Any) -> list[str]:
    """Every name a card prints (both sides of a two-sided card)."""
    return [name for name, _ in named_sides(rec)]


def card_pairs(catalog: Catalog) -> list[tuple[str, str]]:
    """Every card as (id, name), both sides of two-sided cards by name."""
    return [(rec.id, name) for kind in CARD_KINDS for rec in catalog.all(kind)
            for name in names_of(rec)]


def find_card(catalog: Catalog, text: str) -> str:
    """The id of the card `text` names (id or name, typo-tolerant). RuleError otherwise; an
    ambiguous name lists each card it could be with its id, side and deck."""
    from blood_companion.engine import naming

    return naming.match(text, card_pairs(catalog), "card",
                        describe=lambda cid, name: card_label(catalog, cid, name))


def card_label(catalog: Catalog, cid: str, name: str) -> str:
    """A card told apart from others of its name: ``Catch and Return [aurel-t11], Starting
    Tactic card of Aurel``, ``Lucky Horseshoe [petru-i06], Starting side of a Trouper Item card
    of Petru``."""
    kind = kind_of(catalog, cid)
    rec: Any = catalog.get(kind, cid) if kind else None
    if rec is None:
        return f"{name} [{cid}]"
    what = KIND_WORDS.get(kind or "", "card")
    side = next((s for n, s in named_sides(rec) if n == name), None)
    if side is not None:
        what = f"{side.capitalize()} side of a {what}"
    return f"{name} [{cid}], {what}{deck_words(catalog, rec)}"


def deck_words(catalog: Catalog, rec: Any) -> str:
    """Whose deck a card is in, as words: `` of Aurel``, `` of Corvin``, `` (Juggling deck)``,
    `` of the Catacombs``; empty for a card of no deck."""
    if getattr(rec, "trouper", None):
        return f" of {trouper_name(catalog, rec.trouper)}"
    nemesis = getattr(rec, "nemesis", None)
    if nemesis:
        nem = catalog.nemesis(nemesis)
        return f" of {nem.name if nem is not None else nemesis}"
    if isinstance(rec, m.TacticCard) and rec.art:
        return f" ({rec.art.capitalize()} deck)"
    zone_id = getattr(rec, "zone", None)
    if zone_id:
        zone = catalog.get("zones", zone_id)
        return f" of {zone.name if zone is not None else zone_id}"
    return ""


def trouper_name(catalog: Catalog, tid: Any) -> str:
    """A Trouper's name as printed on their card (the id when the data pack has none)."""
    tid = "" if tid is None else str(tid)
    rec = catalog.trouper(tid)
    return rec.name if rec is not None else tid


def _effects(effects: list[m.Effect]) -> list[str]:
    if len(effects) == 1:
        return ["  " + render_effect(effects[0])]
    return [f"  {k + 1}. {render_effect(e)}" for k, e in enumerate(effects)]


def _reaction_face(face: m.ReactionFace) -> list[str]:
    # a card without the Fatigue symbol shows no Fatigue line
    marks = [f"Fatigue: {format_fatigue(face.fatigue)}"] if face.fatigue != m.Fatigue() else []
    if face.interruption:
        marks.append("Interruption (resolves as soon as it is revealed)")
    if face.check is not None:
        marks.append("Check: " + (face.check.text or face.check.kind.replace("_", " ")))
    return [*(["  " + " · ".join(marks)] if marks else []), *_effects(face.effects)]


def card_face(catalog: Catalog, cid: str, *, face: str | None = None,
              with_id: bool = False) -> list[str]:
    """The lines of a card as printed (``face``: ``weakened`` for a Vlad card turned)."""
    kind = kind_of(catalog, cid)
    rec: Any = catalog.get(kind, cid) if kind else catalog.find(cid)
    if rec is None:
        return [f"{cid}: not in the data pack in use"]
    what = KIND_WORDS.get(kind or "", "card")
    ident = f" [{rec.id}]" if with_id else ""
    lines: list[str] = []
    # whose card it is: a Trouper's, a Nemesis's (Reaction, Weakness), a Zone's (Location, Event)
    nemesis = isinstance(rec, (m.ReactionCard, m.WeaknessCard))
    nem = catalog.nemesis(rec.nemesis) if nemesis else None
    owner = (f" of {trouper_name(catalog, rec.trouper)}" if getattr(rec, "trouper", None)
             else f" of {nem.name}" if nem is not None else "")
    zone = catalog.get("zones", rec.zone) if isinstance(rec, (m.Location, m.Event)) else None
    zone_name = zone.name if zone else getattr(rec, "zone", "")
    if isinstance(rec, m.TacticCard):
        head = [f"{what}{owner}"]
        if rec.art:
            head.append(rec.art.capitalize())
        head.append(f"Threat {rec.threat}")
        head += [x for x, on in (("Cascade", rec.cascade), ("Block", rec.block)) if on]
        if rec.cost is not None:
            head.append("costs " + format_cost(rec.cost))
        lines = [f"{rec.name}{ident} — " + " · ".join(head), *_effects(rec.effects)]
    elif isinstance(rec, m.ItemCard):
        lines = [f"{rec.starting.name}{ident} — {what}{owner} · {rec.category.capitalize()}"]
        sides = [("Starting side", rec.starting)]
        if rec.advanced is not None:
            upgrade = "" if rec.upgrade_cost is None else format_cost(rec.upgrade_cost)
            sides.append((f"Advanced side (upgrade: {upgrade})", rec.advanced))
        for label, item_side in sides:
            quick = " · Quick" if item_side.quick else ""
            lines.append(f" {label}: {item_side.name}{quick}")
            lines += _effects(item_side.effects)
    elif isinstance(rec, m.VladReactionCard):
        shown = rec.weakened if face == "weakened" else rec.enhanced
        side = "Weakened" if face == "weakened" else "Enhanced"
        lines = [f"{shown.name}{ident} — {what} ({side} side)", *_reaction_face(shown)]
        other = rec.enhanced if face == "weakened" else rec.weakened
        if other != shown:
            lines.append(f" Other side: {other.name}")
    elif isinstance(rec, m.ReactionCard):
        lines = [f"{rec.name}{ident} — {what}{owner}", *_reaction_face(rec.face())]
    elif isinstance(rec, m.WeaknessCard):
        mods = [f"{label} Defense {n:+d}" for label, n in (("Physical", rec.physical_modifier),
                                                            ("Mind", rec.mind_modifier)) if n]
        lines = [f"{rec.name}{ident} — {what}{owner}, {rec.side} side: {rec.effect_name}"]
        if mods:
            lines.append("  " + ", ".join(mods) + " on this side")
        lines += _effects(rec.effects)
        if rec.trophy:
            lines.append(f"  Nemesis Trophy: {rec.trophy}")
    elif isinstance(rec, m.Nemesis):
        lines = [f"{rec.name}{ident} — {what}" + (" (Vlad)" if rec.vlad else ""),
                 f"  Defenses: Physical {rec.defenses.physical}, Mind {rec.defenses.mind}"]
        for lv in rec.levels:
            w = lv.wounds
            lines.append(f"  Level {lv.level} ({lv.name}): Wounds front {w['front']}, left "
                         f"{w['left']}, right {w['right']}; {lv.influence} Event card(s)")
        for sk in rec.skills:
            lines.append(f"  Skill{' ' + sk.name if sk.name else ''}: {render_effect(sk)}")
    elif isinstance(rec, m.Minion):
        lines = [f"{rec.name}{ident} — {what} · {rec.type.capitalize()} · Defenses: Physical "
                 f"{rec.defenses.physical}, Mind {rec.defenses.mind}", *_effects(rec.effects)]
    elif isinstance(rec, m.Location):
        lines = [f"{rec.name}{ident} — {what} of {zone_name} (Location "
                 f"die: {rec.choice})", *["  " + x for x in map_lines(list(rec.map))]]
        for r in rec.rewards:
            loot = ", ".join(f"{x.dice} for {x.resource}" for x in r.loot) or "no loot"
            lines.append(f"  Level {r.level}: {r.vlad_cards} Vlad card(s), {r.location_trophies} "
                         f"Location / {r.nemesis_trophies} Nemesis Trophy, {r.advanced_tactics} "
                         f"Advanced Tactic card(s), loot {loot}; if defeated "
                         f"{r.defeat_roll.dice} for {r.defeat_roll.resource}")
    elif isinstance(rec, m.Event):
        lines = [f"{rec.name}{ident} — {what} of {zone_name} · "
                 f"{rec.event_type.replace('_', ' ')}", *_effects(rec.effects),
                 f"  Reward: {event_reward_text(rec.reward)}"]
    elif isinstance(rec, m.Trouper):
        traits = ", ".join(f"{k.capitalize()} {v}" for k, v in rec.traits.items())
        build = ", ".join(f"{b.count} {b.art.capitalize()}" for b in rec.building)
        lines = [f"{rec.name}{ident} — {what}", f"  Traits: {traits}", f"  Building: {build}"]
    else:
        lines = [f"{getattr(rec, 'name', cid)}{ident} — {what}"]
    if getattr(rec, "source", "") == "placeholder":
        lines.append("  " + PLACEHOLDER)
    return lines


def event_reward_text(r: m.EventReward) -> str:
    """An Event card's reward in words ("Events"), for the card's face and the night log."""
    from blood_companion.engine.words.text import counted

    def plus(n: int, word: str) -> str:
        return f"+{n} {word}{'' if n == 1 else 's'}"

    parts = [plus(r.chain_spaces, "Chain space")] if r.chain_spaces else []
    parts += [counted(getattr(r.resources, x), x, sign=True) for x in m.RESOURCES
              if getattr(r.resources, x)]
    if r.resources.any:
        parts.append(plus(r.resources.any, "Resource") + " of your choice (adjust the Wagon)")
    if r.location_trophies:
        n = r.location_trophies
        parts.append(f"+{n} Location {'Trophy' if n == 1 else 'Trophies'}")
    return ", ".join(parts) or "none"


# --------------------------------------------------------------------------- the Map's pieces


def minion_miniatures(catalog: Catalog, zone: str, space: str) -> int:
    """How many Miniatures a Minion card on space A or B starts with: one per Tile with that
    Minion symbol in the Zone ("Dusk Phase": one Miniature per Tile)."""
    z = catalog.get("zones", zone)
    symbol = {"A": "minion_a", "B": "minion_b"}.get(space)
    if z is None or symbol is None:
        return 1
    return sum(g.count for g in z.tiles if g.symbol == symbol) or 1


SCENIC_TILES = {"large": "L", "small": "S"}  # the Map's Tile symbols ("Zones" > "Tiles")


def scenic_elements(catalog: Catalog, events: Sequence[str]) -> list[dict[str, Any]]:
    """The Scenic Elements the Event cards on the Chain use ("Scenic Elements": the Map has
    Tiles for one Large and three Small ones; the Event cards say which go there), each with
    its size and the Tile symbol it goes on (L, S; None when the card does not say). A Tile
    holding one is Impassable ("Impassability")."""
    out = []
    for eid in events:
        ev = catalog.get("events", eid)
        if ev is None or not ev.scenic_element:
            continue
        out.append({"event": ev.id, "event_name": ev.name, "name": ev.scenic_element,
                    "size": ev.scenic_size, "tile": SCENIC_TILES.get(ev.scenic_size or "")})
    return out
