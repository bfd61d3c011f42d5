"""Issue 17 through the subcommands: who holds the decks (`campaign new --decks`, `campaign
decks`), cards named by the players (`--draw`, typo-tolerant, refused with what to draw),
card text on demand (`blood card show/hand`, `blood status --cards`) and readable logs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

RAW_ID = re.compile(r"[a-z]+-[a-z]?\d\d")


def _single(blood: Any, decks: str = "table") -> None:
    r = blood("campaign", "new", "t", "--troupers", "aurel,zora", "--mode", "single",
              "--seed", "4", "--decks", decks)
    assert r.code == 0, r.err


def test_who_holds_the_decks_is_asked_and_changed_later(blood: Any, saves_dir: Path) -> None:
    r = blood("campaign", "new", "a", "--troupers", "aurel", "--seed", "1")
    assert r.code == 0 and "The app shuffles and draws every deck" in r.out
    r = blood("campaign", "decks", "--json")
    assert r.json()["decks"] == dict.fromkeys(
        ["troupers", "reactions", "minions", "events", "locations", "nemeses", "advanced",
         "loot"], "app")
    r = blood("campaign", "decks", "reactions=table", "minion=table")
    assert r.code == 0 and "the players (real cards)" in r.out
    r = blood("campaign", "decks", "--json")
    held = r.json()["decks"]
    assert held["reactions"] == "table" and held["minions"] == "table"
    assert held["troupers"] == "app"
    r = blood("campaign", "log")
    assert "Who holds the decks: the Nemesis Reaction deck: the players" in r.out
    r = blood("campaign", "decks", "reactons=app")  # a typo is forgiven
    assert r.code == 0 and blood("campaign", "decks", "--json").json()["decks"][
        "reactions"] == "app"
    r = blood("campaign", "decks", "monsters=table")
    assert r.code == 2 and "no deck is called 'monsters'" in r.err and "minions" in r.err
    r = blood("campaign", "decks", "troupers=maybe")
    assert r.code == 2 and "app or table" in r.err
    r = blood("campaign", "new", "b", "--troupers", "aurel", "--decks", "everything")
    assert r.code == 2 and "app or table" in r.err


def test_a_table_night_through_the_subcommands(blood: Any, saves_dir: Path) -> None:
    _single(blood)
    setup = ["night", "setup", "--nemesis", "lucilla", "--location",
             "catacombs-ossuary-gallery", "--minions", "beast-castle-wolf,undead-bone-sentinel"]
    r = blood(*setup)
    # the players hold the Event cards: the step waits for the card they drew
    assert r.code == 1 and "Draw an Event card of The Catacombs" in r.err
    assert "--draw" in r.err and "Light the Old Lamps" in r.err
    r = blood(*setup, "--draw", "Ligth the Old Lamps")  # a typo is forgiven
    assert r.code == 0, r.err
    # told once, as the table does it: the deck shuffled, then five cards from it
    assert "Shuffle Aurel's deck" in r.out and "5 cards: Aurel's deck → Aurel's hand" in r.out
    assert "draw 5 cards" not in r.out
    r = blood("card", "hand", "aurel")
    assert "holds 5 card(s) the app does not see" in r.out and "Knife Volley" in r.out
    r = blood("card", "hand", "aurel", "--json")
    hand = r.json()["hands"][0]
    assert hand["hidden"] and hand["cards"] == 5 and len(hand["can_be"]) == 12
    revealed = 0
    for _ in range(80):
        nxt = blood("night", "next", "--json").json()
        q = nxt.get("question")
        if q:  # the Nemesis's questions: nobody in range, the app rolls the dodges
            words = {"in_range": ["answer", "none"], "test": ["roll"],
                     "confirm": ["answer", "yes"]}.get(q["kind"], ["answer", "1"])
            r = blood("night", *words)
            assert r.code == 0, r.err
            continue
        if nxt["phase"] != "planning":
            break
        who = nxt["who"]
        r = blood("night", "play", who, "1")
        if r.code == 1 and "Alert" in r.err:
            # an Alert: the Reaction card the players revealed, named with a typo
            name = re.search(r"it can be: ([^,)]+)", r.err)
            assert name is not None
            typo = name.group(1).strip()[:-1]
            r = blood("night", "play", who, "1", "--draw", typo)
            assert r.code == 0, r.err
            # the card's face is shown (a Fatigue line only when it prints one: issue 27)
            assert "Alert: the Nemesis reveals" in r.out and "Outcome:" in r.out
            revealed += 1
        elif r.code == 1 and "must Rest" in r.err:
            r = blood("night", "rest", who, "1")
        assert r.code == 0, r.err
    assert revealed >= 1
    r = blood("status", "--cards")
    assert r.code == 0 and "Reaction Line (left to right):" in r.out and "Outcome:" in r.out
    assert "Physical 0, Mind 0" not in r.out
    r = blood("status", "--cards", "--json")
    cards = r.json()["reaction_cards"]["cards"]
    assert cards and cards[0]["text"]
    # a card that cannot be in the hand is refused where it lies
    st = blood("campaign", "show", "--json").json()
    assert st["log_length"] > 3
    r = blood("night", "play", "aurel", "Zzzz Qqq")
    assert r.code == 1


def test_card_show_by_name_or_id(blood: Any, saves_dir: Path) -> None:
    r = blood("card", "show", "Mist", "Walk")
    assert r.code == 0 and "Mist Walk — Reaction card of Mirela" in r.out
    assert not RAW_ID.search(r.out)
    r = blood("card", "show", "knife", "volly", "--ids")  # typo, and its id asked for
    assert r.code == 0 and "[aurel-" in r.out and "Threat 2" in r.out
    r = blood("card", "show", "Ossuary", "Gallery")
    assert "Legend: N Nemesis start" in r.out and "Map: - T . A -" in r.out
    r = blood("card", "show", "Crown", "of", "Bats", "--json")
    doc = r.json()
    assert doc["kind"] == "vlad_reactions" and doc["lines"]
    r = blood("card", "show", "Qwerty", "Zxcv")
    assert r.code == 1 and "no card is called" in r.err


def test_logs_read_as_sentences(blood: Any, saves_dir: Path) -> None:
    _single(blood, "app")
    blood("night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
          "--minions", "beast-castle-wolf,undead-bone-sentinel")
    for _ in range(6):
        nxt = blood("night", "next", "--json").json()
        if nxt.get("question") or nxt["phase"] != "planning":
            break
        r = blood("night", "play", nxt["who"], "1")
        if r.code != 0:
            blood("night", "rest", nxt["who"], "1")
    r = blood("campaign", "log")
    assert r.code == 0
    assert "'s hand: " in r.out and "(the app drew them)" in r.out
    assert not RAW_ID.search(r.out), r.out
    assert "=[" not in r.out and "=None" not in r.out
    r = blood("campaign", "log", "--json")
    first = json.loads(r.out.splitlines()[1])
    assert first["action"]["type"] == "night_setup"  # ids stay in --json
