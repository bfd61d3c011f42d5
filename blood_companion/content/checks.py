"""Cross-checks over the whole data pack, after every record validated on its own.

References exist, ids are unique across kinds, each Nemesis has its 12 Reaction and 3 Weakness
cards, Trouper decks follow their building rule, items cover the three categories, and the
counts match the box's Components list.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.errors import Problem

if TYPE_CHECKING:  # the loader imports this module when it runs the checks
    from blood_companion.content.loader import Catalog

SINGLETONS = ("components", "rules_config", "night_board", "insanity", "village")
CARD_KINDS = ("reactions", "vlad_reactions", "weaknesses", "starting_tactics", "trouper_items",
              "advanced_tactics", "special_tactics", "special_items", "minions", "events",
              "locations", "nemeses", "troupers", "zones")


def cross_check(cat: Catalog) -> list[Problem]:
    problems: list[Problem] = []

    def add(kind: str, rid: str | None, field: str | None, message: str) -> None:
        file, line = cat.origin_line(kind, rid) if rid else (f"(kind {kind})", None)
        problems.append(Problem(file, line, f"{rid}.{field}" if rid and field else field, message))

    # singletons ------------------------------------------------------------
    for kind in SINGLETONS:
        n = len(cat.all(kind))
        if n != 1:
            add(kind, None, None, f"expected exactly one {kind} record, found {n}")
    if problems:
        return problems
    config = cat.config

    # ids unique across kinds -----------------------------------------------
    seen: dict[str, str] = {}
    for kind in CARD_KINDS:
        for rec in cat.all(kind):
            if rec.id in seen and seen[rec.id] != kind:
                add(kind, rec.id, "id", f"id {rec.id!r} is also used by a {seen[rec.id]} record")
            seen.setdefault(rec.id, kind)

    zones = {z.id for z in cat.all("zones")}
    nemeses = {n.id: n for n in cat.all("nemeses")}
    lieutenants = {i for i, n in nemeses.items() if not n.vlad}
    troupers = {t.id: t for t in cat.all("troupers")}
    levels = {d.level for d in cat.all("difficulty")}

    def ref(kind: str, rid: str, field: str, value: str | None, pool: Any, what: str) -> None:
        if value is not None and value not in pool:
            known = ", ".join(sorted(pool)) or "none"
            add(kind, rid, field, f"unknown {what} {value!r} (known: {known})")

    # dice --------------------------------------------------------------------
    letters = Counter(d.letter for d in cat.dice)
    for letter in ("R", "G", "B"):
        if letters[letter] != 1:
            add("dice", None, "letter", f"expected one die {letter}, found {letters[letter]}")
    try:
        face_labels = [f.label for f in cat.die(config.location_die).faces]
    except KeyError:
        face_labels = []

    # zones, locations, events ---------------------------------------------------
    for z in cat.all("zones"):
        if z.tile_count() != config.tiles_per_zone:
            add("zones", z.id, "tiles", f"tiles add up to {z.tile_count()}, rules_config says "
                f"{config.tiles_per_zone} per Zone")
    for loc in cat.all("locations"):
        ref("locations", loc.id, "zone", loc.zone, zones, "zone")
        if loc.choice not in face_labels:
            add("locations", loc.id, "choice", f"{loc.choice!r} is not a face of the location "
                f"die ({config.location_die}): {', '.join(str(x) for x in face_labels)}")
        got = {r.level for r in loc.rewards}
        if got != levels:
            add("locations", loc.id, "rewards",
                f"rewards cover levels {sorted(got)}, the Difficulty levels are {sorted(levels)}")
    for zone in zones:
        choices = Counter(loc.choice for loc in cat.locations_in(zone))
        for choice, n in choices.items():
            if n > 1:
                add("zones", zone, None, f"{n} Location cards share the die result {choice!r}")
        if missing := [str(label) for label in face_labels if label not in choices]:
            add("zones", zone, "locations", "no Location card for the die result(s) "
                f"{', '.join(missing)} (one Location card per face)")
    for e in cat.all("events"):
        ref("events", e.id, "zone", e.zone, zones, "zone")

    # nemeses ---------------------------------------------------------------------
    for n in cat.all("nemeses"):
        got = {lv.level for lv in n.levels}
        if got != levels:
            add("nemeses", n.id, "levels",
                f"levels {sorted(got)} differ from the Difficulty levels {sorted(levels)}")
        weak = cat.weaknesses_for(n.id)
        sides = Counter(w.side for w in weak)
        if len(weak) != 3 or any(sides[s] != 1 for s in m.SIDES):
            add("nemeses", n.id, "weaknesses", "needs exactly 3 Weakness cards, one per side "
                f"(front, left, right); found {dict(sides) or 'none'}")
        if not n.vlad:
            count = len(cat.reactions_for(n.id))
            if count != 12:
                add("nemeses", n.id, "reactions", f"needs exactly 12 Reaction cards, found {count}")
    vlads = [n for n in nemeses.values() if n.vlad]
    if len(vlads) != 1:
        add("nemeses", None, "vlad", f"expected one Vlad (vlad: true), found {len(vlads)}")
    for r in cat.all("reactions"):
        ref("reactions", r.id, "nemesis", r.nemesis, lieutenants, "lieutenant Nemesis")
    for w in cat.all("weaknesses"):
        ref("weaknesses", w.id, "nemesis", w.nemesis, nemeses, "Nemesis")
    for v in cat.all("vlad_reactions"):
        ref("vlad_reactions", v.id, "zone", v.zone, zones, "zone")

    # troupers: decks and items ------------------------------------------------------
    for kind in ("starting_tactics", "trouper_items"):
        for card in cat.all(kind):
            ref(kind, card.id, "trouper", card.trouper, troupers, "Trouper")
            if card.kind not in ("starting", "trouper"):
                add(kind, card.id, "kind", f"a {kind} card must be of kind starting/trouper")
    for t in troupers.values():
        total = sum(b.count for b in t.building)
        if total != 12:
            add("troupers", t.id, "building", f"the building rule counts {total} cards, not 12")
        deck = cat.starting_tactics_for(t.id)
        if len(deck) != 12:
            add("troupers", t.id, "starting_tactics", f"needs 12 Starting cards, found {len(deck)}")
        arts = Counter(c.art for c in deck)
        want = {b.art: b.count for b in t.building}
        # While an owner transcribes a deck card by card, the Trouper card and the deck mix
        # their printed cards with our placeholders, whose Arts need not match theirs: the
        # Building rule is checked once the deck and its Trouper card are all of one kind.
        mixed = len({r.source == "placeholder" for r in [t, *deck]}) > 1
        if dict(arts) != want and not mixed:
            add("troupers", t.id, "building",
                f"the Starting deck's Arts {dict(arts)} do not follow the building rule {want}")
        items = cat.items_for(t.id)
        cats = Counter(i.category for i in items)
        if len(items) != 6 or any(cats[c] == 0 for c in m.ITEM_CATEGORIES):
            add("troupers", t.id, "items", "needs 6 Trouper Item cards covering protection, tool "
                f"and artifact; found {dict(cats) or 'none'}")

    for card in cat.all("advanced_tactics"):
        if card.kind != "advanced":
            add("advanced_tactics", card.id, "kind", "cards here must be of kind advanced")
    for kind in ("special_tactics", "special_items"):
        for card in cat.all(kind):
            if card.kind not in ("location", "nemesis"):
                add(kind, card.id, "kind", "cards here must be of kind location or nemesis")
            ref(kind, card.id, "location", card.location, zones, "Location (zone)")
            ref(kind, card.id, "nemesis", card.nemesis, lieutenants, "lieutenant Nemesis")
            for tc in card.trophies:
                pool = zones if tc.kind == "location" else lieutenants
                ref(kind, card.id, "trophies", tc.of, pool, f"{tc.kind} trophy")

    # counts against the Components list ---------------------------------------------
    box = {c.name: c.count for c in cat.all("components")[0].items}
    labels = {"nemeses": "Nemesis Cards", "reactions": "Reaction Cards",
              "vlad_reactions": "Vlad Reaction Cards", "minions": "Minion Cards",
              "weaknesses": "Weakness Cards", "events": "Event Cards"}
    for kind, label in labels.items():
        want_n, n_have = box.get(label), len(cat.all(kind))
        if want_n is not None and n_have != want_n:
            add(kind, None, None, f"the box has {want_n} {label}, the data pack has {n_have}")
    n_boards = box.get("Trouper Boards")
    if n_boards is not None and len(troupers) != n_boards:
        add("troupers", None, None,
            f"the box has {n_boards} Trouper Boards, the data pack has {len(troupers)} Troupers")
    for zone in zones:
        n_events = len(cat.events_in(zone))
        if n_events != 6:
            add("zones", zone, "events", f"needs 6 Event cards (6 per Zone), found {n_events}")
    if len(cat.all("village")[0].buildings) != 5:
        add("village", cat.village.id, "buildings", "Bran has five buildings")
    minion_types = Counter(mi.type for mi in cat.all("minions"))
    for t in m.MINION_TYPES:
        if minion_types[t] == 0 and cat.all("minions"):
            add("minions", None, "type", f"no Minion of type {t}")
    return problems
