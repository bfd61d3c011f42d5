"""Singular and plural right in every Wagon and log sentence (issue 27, "1 coins")."""

from __future__ import annotations

from typing import Any

import pytest

from blood_companion.content import models as m
from blood_companion.content.face import event_reward_text
from blood_companion.engine import words
from blood_companion.engine.campaign import AdjustWagon
from blood_companion.engine.day.payments import cost_text, wagon_text
from blood_companion.engine.state import Wagon
from blood_companion.engine.words import counted, counted_all


@pytest.mark.parametrize(
    ("n", "resource", "sign", "words"),
    [(1, "coins", False, "1 coin"), (2, "coins", False, "2 coins"), (0, "jewels", False,
     "0 jewels"), (1, "trinkets", True, "+1 trinket"), (-1, "scrolls", True, "-1 scroll"),
     (-3, "scrolls", True, "-3 scrolls")],
)
def test_a_resource_is_counted_in_words(n: int, resource: str, sign: bool, words: str) -> None:
    assert counted(n, resource, sign) == words


def test_the_wagon_log_says_1_coin(catalog: Any) -> None:
    one = {"kind": "wagon_gain", "args": {"n": 1, "resource": "coins"}}
    two = {"kind": "wagon_gain", "args": {"n": 2, "resource": "coins"}}
    assert words.render(one, catalog) == "Wagon: +1 coin"
    assert words.render(two, catalog) == "Wagon: +2 coins"


def test_wagon_sentences_count_each_resource() -> None:
    assert AdjustWagon(coins=1, jewels=-1).describe() == "Wagon adjusted: -1 jewel, +1 coin"
    assert AdjustWagon(trinkets=2).describe() == "Wagon adjusted: +2 trinkets"
    assert wagon_text(Wagon(jewels=1, coins=2)) == "1 jewel, 2 coins, 0 trinkets, 0 scrolls"
    assert cost_text(m.ResourceCost(coins=1, trinkets=2, any=1)) == "1 coin + 2 trinkets + 1 any"
    assert counted_all({"jewels": 0, "coins": 1}, zeros=True) == "0 jewels, 1 coin"


def test_an_event_reward_counts_its_parts() -> None:
    reward = m.EventReward(chain_spaces=1, resources=m.ResourceCost(coins=1, any=2),
                           location_trophies=2)
    assert event_reward_text(reward) == (
        "+1 Chain space, +1 coin, +2 Resources of your choice (adjust the Wagon), "
        "+2 Location Trophies"
    )

