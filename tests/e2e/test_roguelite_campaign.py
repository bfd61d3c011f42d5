"""A whole Roguelite campaign on fixed seeds, through the real CLI: four games at tables of 2, 3,
1 and 2 Troupers; a loss; wins that weaken Vlad's cards; a Last Assault that defeats Vlad; the
box back in its starting state. After every step the save is read back (`campaign show`), the
step is undone and redone (the state_hash must come back exactly); at the Part boundaries a new
process of the installed `blood` resumes the campaign and does the undo/redo itself.

The Day Part, the End of the Night and the table changes are `blood` commands; the nights are
played by the night bot into the same save (tests/e2e/roguelite_driver.py). The bot seeds that
give each night its result were found by tests/e2e/find_seeds.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from roguelite_driver import PLAN, START_TROUPERS, Campaign

from blood_companion.content.models import ARTS
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import day as d
from blood_companion.engine import words
from blood_companion.engine.state import CampaignState


def check_carried(c: Campaign, doc: dict[str, Any], game: int) -> CampaignState:
    """After `blood end finish`: the next game waits at the Day Part with the box as it was."""
    state = c.state()
    s = doc["summary"]
    assert (state.game, state.part, state.phase) == (game + 1, "day", "recovery")
    assert s["game"] == game and s["next_game"] == game + 1
    assert doc["next"].startswith(f"Game {game + 1} begins with the Day Part")
    assert s["carried"]["wagon"] == state.wagon.as_dict()
    assert s["carried"]["vlad_weakened"] == state.vlad_weakened
    shown = c.show()
    assert len(shown["history"]) == game
    row = shown["history"][-1]
    assert row["result"] == s["result"] and not row["pending"]
    assert row["nemesis"] == s["nemesis"] and row["difficulty"] == s["difficulty"]
    assert shown["totals"]["resources_earned"] == state.resources_earned
    assert shown["totals"]["resources_spent"] == state.resources_spent
    return state


def test_roguelite_campaign_to_vlad_and_back(catalog: Any, saves_dir: Path) -> None:
    c = Campaign(saves_dir, catalog)
    c.start()
    initial = c.state()
    assert [t.trouper for t in initial.troupers] == list(START_TROUPERS)

    # ---------------------------------------------------------------- game 1: 2 Troupers lose
    plan = PLAN[0]
    c.table_changes(plan)
    code, out, _ = c.run("end", "night", "--json", ok=False)  # refused: it is the Day
    assert code == 1 and '"ok": false' in out
    assert c.show()["state_hash"] == c.hashes[-1]
    c.day(plan)
    status = c.proc("status")
    assert status["part"] == "night" and status["night"] is not None
    assert c.night(plan) == "lost"
    status = c.proc("status")
    assert status["next"]["phase"] == "over" and status["next"]["commands"] == ["blood end night"]
    doc = c.end_of_night(plan)
    state = check_carried(c, doc, 1)
    s = doc["summary"]
    assert s["result"] == "lost" and not s["box_reset"]
    rec = state.history[0]
    assert rec.troupers == list(START_TROUPERS) and rec.difficulty == 3
    # the defeat roll was typed in: every die showed its "2" face, into the Wagon as coins
    (roll,) = rec.rewards["rolls"]
    assert roll["physical"] and roll["resource"] == "coins"
    assert roll["gained"] == 2 * len(roll["faces"].split()) == state.wagon.coins
    assert s["wagon_delta"] == {"coins": state.wagon.coins}
    # a lost night takes no Location card tokens, but the Weakness Trophies won during it count
    assert s["trophies"] == {f"nemesis:{k}": n for k, n in state.nemesis_trophies.items()}
    assert state.location_trophies == {} and s["vlad_weakened"] == [] and s["reserve"] == {}
    assert state.vlad_weakened == [] and state.resources_spent == 0
    lost_to = rec.nemesis
    totals = c.show()["totals"]
    assert totals["lost"] == 1 and totals["by_nemesis"] == {lost_to: {"won": 0, "lost": 1}}

    # ---------------------------------------------------------------- game 2: Petru joins, win
    plan = PLAN[1]
    doc = c.play(plan)
    state = check_carried(c, doc, 2)
    s = doc["summary"]
    rec = state.history[1]
    assert rec.troupers == [*START_TROUPERS, "petru"] and rec.result == "won"
    assert state.resources_spent > 0 and s["spent"] == state.resources_spent  # Day purchases
    col = _column(catalog, rec.location, rec.difficulty)
    garden = {v.id for v in catalog.vlad_reactions_in("garden")}
    assert len(s["vlad_weakened"]) == col.vlad_cards and set(s["vlad_weakened"]) <= garden
    assert state.vlad_weakened == s["vlad_weakened"]
    taken = sum(len(v) for v in s["reserve"].values())
    assert taken == col.advanced_tactics + 3  # the card's number plus the Troupers who played
    for who, cards in s["reserve"].items():
        assert set(cards) <= set(state.troupers[state.trouper_index(who)].reserve_cards)
    assert s["trophies"] and state.location_trophies.get("garden", 0) >= 1
    assert sum(s["earned"].values()) == sum(r["gained"] for r in rec.rewards["rolls"])
    won_first = rec.nemesis
    assert won_first not in d.available_nemeses(state, catalog)

    # ---------------------------------------------------------------- game 3: Aurel alone wins
    plan = PLAN[2]
    doc = c.play(plan)
    state = check_carried(c, doc, 3)
    s = doc["summary"]
    rec = state.history[2]
    assert rec.troupers == ["aurel"] and rec.result == "won"
    catacombs = {v.id for v in catalog.vlad_reactions_in("catacombs")}
    assert s["vlad_weakened"] and set(s["vlad_weakened"]) <= catacombs
    assert len(state.vlad_weakened) == len(set(state.vlad_weakened)) == s["vlad_weakened_total"]
    assert set(state.vlad_weakened) >= set(s["vlad_weakened"])
    assert {won_first, rec.nemesis}.isdisjoint(d.available_nemeses(state, catalog))
    weakened_before_vlad = list(state.vlad_weakened)
    assert len(weakened_before_vlad) >= 3

    # ---------------------------------------------------------------- game 4: the Last Assault
    plan = PLAN[3]
    c.table_changes(plan)
    c.day(plan)
    state = c.state()
    night = state.night
    assert night is not None and night.vlad and night.nemesis == catalog.vlad().id
    # Vlad's deck holds his 12 cards, each showing its current side
    assert sorted(night.reaction_deck + [r.card for r in night.reaction_line]) == sorted(
        v.id for v in catalog.all("vlad_reactions")
    )
    for v in catalog.all("vlad_reactions"):
        face = fx.reaction_face(state, catalog, v.id)
        assert face == (v.weakened if v.id in weakened_before_vlad else v.enhanced)
    assert c.night(plan) == "won"
    state = c.state()
    assert state.night is not None
    revealed = [
        m.group(1)
        for e in state.night.log
        if (
            m := re.match(
                r"Alert: the Nemesis reveals (.+?)( \(Interruption.*)?$", words.render(e, catalog)
            )
        )
    ]
    sides = {
        v.id: (v.weakened.name if v.id in weakened_before_vlad else v.enhanced.name)
        for v in catalog.all("vlad_reactions")
    }
    assert revealed and set(revealed) <= set(sides.values())
    doc = c.end_of_night(plan)
    s = doc["summary"]
    assert s["result"] == "won" and s["box_reset"] and s["game"] == 4

    # ---------------------------------------------------------------- the box is reset
    state = c.state()
    assert (state.game, state.part, state.phase) == (5, "day", "recovery")
    assert state.vlad_defeats == 1
    assert [t.trouper for t in state.troupers] == ["aurel", "ioana"]
    for t in state.troupers:
        assert t.deck == [x.id for x in catalog.starting_tactics_for(t.trouper)]
        assert [(x.item, x.advanced) for x in t.sleeves] == [
            (i.id, False) for i in catalog.items_for(t.trouper)
        ]
        assert t.reserve_cards == [] and t.reserve_items == [] and t.bites == 0
    for key in ("wagon", "location_trophies", "nemesis_trophies", "vlad_weakened"):
        assert getattr(state, key) == getattr(initial, key), key
    assert state.training == initial.training and state.crafting == initial.crafting
    for art in ARTS:
        assert sorted(state.advanced_decks[art]) == sorted(initial.advanced_decks[art])
    assert d.available_nemeses(state, catalog) == [n.id for n in catalog.lieutenants()]
    shown = c.proc("campaign", "show")
    assert [r["result"] for r in shown["history"]] == ["lost", "won", "won", "won"]
    assert [len(r["troupers"]) for r in shown["history"]] == [2, 3, 1, 2]
    assert [r["cycle"] for r in shown["history"]] == [1, 1, 1, 1]
    assert shown["history"][-1]["box_reset"] and shown["history"][-1]["nemesis"] == "vlad"
    totals = shown["totals"]
    assert (totals["games"], totals["won"], totals["lost"]) == (4, 3, 1)
    assert totals["by_nemesis"]["vlad"] == {"won": 1, "lost": 0}
    assert totals["by_nemesis"][lost_to]["lost"] >= 1
    assert totals["vlad_cards_weakened"] == len(weakened_before_vlad)
    assert totals["vlad_weakened_now"] == 0 and totals["vlad_defeats"] == 1
    assert totals["resources_earned"] == state.resources_earned > 0
    assert totals["resources_spent"] == state.resources_spent > 0
    assert shown["wagon"] == {"jewels": 0, "coins": 0, "trinkets": 0, "scrolls": 0}

    _, text, _ = c.run("campaign", "show")
    assert "History" in text and "Nights won-lost: 3-1" in text and "box reset" in text

    # ---------------------------------------------------------------- and the loop goes on
    c.step("day", "recover", new_process=True)
    state = c.state()
    assert state.game == 5 and state.phase == "purchases" and state.part == "day"
    assert c.steps_checked >= 60 and c.processes >= 15


def _column(catalog: Any, location: str | None, level: int | None) -> Any:
    loc = catalog.get("locations", location)
    return next(r for r in loc.rewards if r.level == level)
