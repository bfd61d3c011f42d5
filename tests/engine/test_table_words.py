"""Issue 26, Build 6: words a table can act on. A refusal names the Items, not their ids; dice
faces and a Nemesis level's Wounds are spelled out; a chance is never rounded to 100% (or 0%)
unless it is certain; the Heal question names the Wounds space; the Map is drawn with every
other row half a Tile to the right."""

from __future__ import annotations

import re
from typing import Any

from test_day import Table, walk_to

from blood_companion.content.face import map_lines
from blood_companion.engine import day as d
from blood_companion.engine.words import faces_words, percent

RAW_ID = re.compile(r"[a-z]+-[a-z]*\d\d")


def test_two_items_of_one_category_are_refused_by_name(catalog: Any) -> None:
    table = Table(catalog, n=2)
    walk_to(table, "equipping")
    zora = table.trouper("ioana")
    by_cat: dict[str, list[str]] = {}
    for s in zora.sleeves:
        by_cat.setdefault(catalog.item(s.item).category, []).append(s.item)
    two = next(ids for ids in by_cat.values() if len(ids) >= 2)[:2]
    err = table.refuse(d.Equip(trouper="ioana", items=two), "are both")
    assert not RAW_ID.search(err.message)
    assert all(catalog.item(i).name in err.message for i in two)


def test_faces_and_wounds_spelled_out(catalog: Any) -> None:
    assert faces_words("R0x G1 B2") == (
        "Red die: a Defeat; Grey die: 1 Triumph; Black die: 2 Triumphs")
    assert faces_words("0 xx 1/1") == "a blank face; 2 Defeats; 1 Triumph and a Defeat"
    table = Table(catalog, n=2)
    walk_to(table, "dusk_difficulty")
    from blood_companion.engine import flow

    labels = [o.label for o in flow.next_view(table.state, catalog).options]
    assert labels and all("Front" in x and "Right Side" in x for x in labels)
    assert not any(re.search(r"\bF\d L\d R\d\b", x) for x in labels)


def test_a_chance_is_never_rounded_to_certain() -> None:
    assert percent(0.9996) == "over 99%" and percent(0.9996, 1) == "over 99.9%"
    assert percent(0.001) == "under 1%" and percent(0.0004, 1) == "under 0.1%"
    assert percent(1) == "100%" and percent(0) == "0%" and percent(0.5) == "50%"


def test_the_map_is_drawn_with_its_hex_offset() -> None:
    lines = map_lines(["-T.A-", "....", "-B.N-"])
    assert lines[:3] == ["Map: - T . A -", "      . . . .", "     - B . N -"]
