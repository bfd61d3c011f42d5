"""Issue 16: `blood play` never loses or changes a choice, and offers every rule a Test has.
One test per numbered item (named after it), each driving the menus as a player types."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from play_driver import (
    Driver,
    activate,
    draw,
    finish_planning,
    first_tactic,
    leader_asks,
    night_table,
    place,
    plain_attack,
    set_night,
    set_trouper,
    tactic_with,
)

from blood_companion.cli.entry import main
from blood_companion.cli.play_menu import Again, Confirm, Done, Walk
from blood_companion.engine.night import (
    Attack,
    FinishActivation,
    PlayCard,
    Rest,
    RollTest,
    UseEvent,
    UseItem,
)
from blood_companion.engine.night_state import Bonus

# --------------------------------------------------------------------------- 1, 2, 3, 10


def test_1_a_bad_answer_in_a_follow_up_asks_it_again_and_never_changes_the_choice(
    catalog: Any,
) -> None:
    table = night_table(catalog, ["aurel", "ioana"])
    drv = Driver(table)
    hand = list(table.state.troupers[0].hand)
    assert "plays a Tactic card or Rests" in drv.screen().question
    drv.type("r")
    assert drv.screen().need == "card"
    assert isinstance(drv.type("0"), Again)
    assert isinstance(drv.type("9999"), Again)
    assert isinstance(drv.type("ü" * 5), Again)
    assert drv.screen().need == "card"  # still "which card goes face down?"
    drv.type("4")
    assert drv.recorded == [Rest(trouper="aurel", card=hand[3])]


def _exhausted_attack(catalog: Any) -> tuple[Any, str]:
    """Aurel's attack card is Active while he is Exhausted (he Rested after playing it)."""
    table = night_table(catalog, ["aurel", "ioana"], seed=3)
    card = first_tactic(catalog, "aurel", plain_attack)
    hand = [c for c in table.state.troupers[0].hand if c != card]
    set_trouper(table, "aurel", hand=[card, *hand[:4]])
    place(table, "aurel", PlayCard(trouper="aurel", card=card))
    place(table, "aurel", Rest(trouper="aurel", card=table.state.troupers[0].hand[-1]))
    finish_planning(table)
    night = table.state.night
    assert night.phase == "tactic" and table.state.troupers[0].exhausted
    for _ in range(10):  # the cards before Aurel's
        act = table.state.night.activation
        if table.state.night.chain[act.slot].card == card:
            break
        table.do(FinishActivation())
    return table, card


def test_2_a_refused_dice_entry_asks_the_same_question_with_the_same_default(
    catalog: Any,
) -> None:
    table, _ = _exhausted_attack(catalog)
    drv = Driver(table)
    drv.type("1")  # Effect 1: the attack
    while drv.screen().need != "dice":
        drv.type("")
    before = drv.screen()
    assert before.default == "r"
    bad = drv.type("3 3 2")  # a Red die has no 3
    assert isinstance(bad, Again) and "Red" in bad.message
    after = drv.screen()
    assert (after.need, after.default, after.question) == ("dice", "r", before.question)
    drv.type("")  # Enter: the app rolls (never "Done")
    drv.enter_until_recorded()
    assert isinstance(drv.recorded[0], Attack)


def test_3_odds_at_the_roll_prompt_keep_the_target_side_and_trait(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, catalog: Any,
) -> None:
    from blood_companion.cli.play_cmd import Loop

    table, _ = _exhausted_attack(catalog)
    drv = Driver(table)
    drv.type("1", "n", "r")  # the Nemesis, its right side
    while drv.screen().need != "dice":
        drv.type("")
    screen = drv.screen()
    assert screen.test is not None and screen.test["pool"] == "R R R"
    assert "R R R" in screen.question and "%" in screen.question
    loop = Loop("x")
    loop.walk = drv.walk
    loop.test_odds()
    out = capsys.readouterr().out
    assert "roll R R R" in out and "to reach" in out and "No Test" not in out
    assert loop.walk is drv.walk  # the target, side and Trait are kept
    drv.type("")
    drv.enter_until_recorded()
    attack = drv.recorded[0]
    assert isinstance(attack, Attack) and attack.target == "nemesis" and attack.side == "right"


def test_10_an_exhausted_trouper_is_shown_the_dice_really_rolled(catalog: Any) -> None:
    table, _ = _exhausted_attack(catalog)
    drv = Driver(table)
    drv.type("1", "n", "f")
    screen = drv.screen()
    if screen.need == "trait":
        assert all("roll R R R" in c.label for c in screen.choices)
        assert any("Exhausted" in line for line in screen.info)
        drv.type("")
    assert "rolls R R R" in drv.screen().question


# --------------------------------------------------------------------------- 4


def test_4_enter_everywhere_never_loses_a_night_for_lack_of_cards(catalog: Any) -> None:
    """Enter only, 20 seeded nights of every size, Nemesis and Difficulty: none is lost
    because nobody has a card left (seeds 12 and 24 were, with the old defaults)."""
    import dataclasses

    from blood_companion.engine.flow import next_view

    # The 20 nights as they were chosen: every Weakness Trophy asked (each Enter a "No"), so
    # the random stream, and each night, is the one these seeds were picked on (issue 26's
    # Trophy decisions drop those questions and shift the dice of later steps).
    rules = catalog.config.model_copy(update={"weakness_trophy": "ask"})
    catalog = dataclasses.replace(catalog, records={**catalog.records, "rules_config": [rules]})
    nemeses = ["lucilla", "corvin", "saskia", "ilie", "mirela"]
    zones = ["catacombs", "garden", "graveyard", "halls"]
    sizes = [["ioana"], ["zora"], ["aurel", "ioana"], ["petru", "zora"], ["aurel"], ["petru"]]
    minions = [m.id for m in catalog.all("minions")]
    lost = []
    for seed in range(5, 25):
        pair = [minions[seed % 8], minions[(seed * 3 + 1) % 8]]
        table = night_table(
            catalog, sizes[seed % 6], seed=seed, nemesis=nemeses[seed % 5],
            difficulty=1 + seed % 3, location=catalog.locations_in(zones[seed % 4])[seed % 3].id,
            minions=pair if pair[0] != pair[1] else minions[:2],
        )
        drv = Driver(table)
        for _ in range(3000):
            if table.state.night.result is not None:
                break
            assert not next_view(table.state, catalog).end
            result = drv.type("")
            assert not isinstance(result, Again), result
        assert table.state.night.result is not None
        if table.state.night.reason == "nobody_can_play":
            lost.append(seed)
    assert lost == []


# --------------------------------------------------------------------------- 6, 7


def test_6_a_failed_throw_is_followed_by_the_best_re_roll_and_lucky_ribbon(
    catalog: Any,
) -> None:
    table = night_table(catalog, ["aurel"], seed=2)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    activate(table, card=card)
    set_night(table, bonuses={0: Bonus(rerolls=1)})  # a Support's Re-roll 1
    assert "aurel-i05" in table.state.troupers[0].equipped.values()  # Lucky Ribbon
    drv = Driver(table)
    drv.type("1", "n", "f")
    if drv.screen().need == "trait":
        drv.type("")
    assert drv.screen().need == "dice"
    pool = drv.screen().test["pool"].split()
    zeros = " ".join("0" for _ in pool)
    drv.type(zeros)  # a physical throw with no Triumph at all
    screen = drv.screen()
    assert screen.need == "reroll" and screen.default == "b"
    best = next(c for c in screen.choices if c.key == "b")
    assert "best odds" in best.label
    ribbon = next(c for c in screen.choices if "Lucky Ribbon" in c.label)
    drv.type(ribbon.key)  # one more Re-roll from the Lucky Ribbon (depleted)
    assert "2 Re-roll(s)" in drv.screen().question
    drv.type("1 2 3")
    assert drv.screen().need == "dice"  # the faces of the re-rolled dice
    drv.type(zeros)
    drv.type("k")
    attack = drv.recorded[0]
    assert isinstance(attack, Attack)
    assert attack.items == ["aurel-i05"] and attack.reroll == ["1,2,3"]
    assert attack.dice == [zeros, zeros]
    assert "aurel-i05" in table.state.troupers[0].depleted_items
    assert table.state.night.bonuses == {}  # the Support's Re-roll was not used: spent anyway


def test_6_digital_throws_are_recorded_with_their_faces_and_replay(catalog: Any) -> None:
    from blood_companion.engine.flow import apply

    table = night_table(catalog, ["aurel"], seed=2)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    activate(table, card=card)
    set_night(table, bonuses={0: Bonus(rerolls=2)})
    before, at = table.state, len(table.log)
    drv = Driver(table)
    for _ in range(20):
        if drv.recorded:
            break
        drv.type("")
    attack = drv.recorded[0]
    assert attack.dice and all(d.startswith("app:") for d in attack.dice)
    assert len(attack.dice) == len(attack.reroll) + 1
    assert apply(before, attack, catalog, at) == table.state  # replays exactly
    test = next(e for e in table.state.night.log if e.kind == "test")
    first = attack.dice[0].removeprefix("app:").split()
    assert len(test.args["faces"].split()) == len(first) == 3


def test_7_quick_items_are_offered_when_their_condition_holds(catalog: Any) -> None:
    table = night_table(catalog, ["aurel", "ioana"], seed=4)
    # Aurel wears the Safety Harness ("when wounded: Heal 1"); Ioana her Layered Veils
    gear = dict(table.state.troupers[0].equipped, protection="aurel-i02")
    set_trouper(table, "aurel", equipped=gear)
    drv = Driver(table)
    assert not any("Safety Harness" in c.label for c in drv.screen().choices)
    wound = table.state.troupers[0].hand[-1]
    set_trouper(table, "aurel", wounds=[wound], hand=table.state.troupers[0].hand[:-1])
    set_night(table, phase="nemesis", phase_done=True)
    drv.restart()
    harness = [c for c in drv.screen().choices if "Safety Harness" in c.label]
    assert harness and drv.screen().default == "1"  # offered, never the default
    drv.type(harness[0].key)
    drv.enter_until_recorded()
    assert drv.recorded[0] == UseItem(trouper="aurel", item="aurel-i02", heal=[wound])
    assert table.state.troupers[0].wounds == []


def test_7_a_quick_item_against_an_enemy_effect_is_offered_at_the_dodge(catalog: Any) -> None:
    table = night_table(catalog, ["ioana"], seed=1)
    drv = Driver(table)
    # play on until the Nemesis asks Ioana for a dodge Test
    for _ in range(400):
        night = table.state.night
        if night.pending and night.pending[0].kind == "test" or night.result:
            break
        drv.type("")
    assert table.state.night.pending and table.state.night.pending[0].kind == "test"
    veils = "ioana-i01"
    assert veils in table.state.troupers[0].equipped.values()
    drv.type("r")
    item = [c for c in drv.screen().choices if "Layered Veils" in c.label]
    assert item, [c.label for c in drv.screen().choices]
    before = drv.screen().test["bonus_triumphs"]
    drv.type(item[0].key)
    assert drv.screen().test["bonus_triumphs"] == before + 1
    drv.type("")
    while not drv.recorded or not isinstance(drv.recorded[-1], RollTest):
        drv.type("")
    assert drv.recorded[-1].items == [veils]
    assert veils in table.state.troupers[0].depleted_items


# --------------------------------------------------------------------------- 8, 9, 11, 12


def _graveyard(catalog: Any, events: list[str], minions: list[str] | None = None) -> Any:
    loc = catalog.locations_in("graveyard")[0].id
    return night_table(catalog, ["aurel", "ioana"], seed=5, location=loc, events=events,
                       minions=minions)


def test_8_a_discard_cost_asks_which_card(catalog: Any) -> None:
    table = _graveyard(catalog, ["graveyard-e05"])  # Ring the Cemetery Bell: Discard 1
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    activate(table, owner=0)
    draw(table, "aurel", 2)
    hand = list(table.state.troupers[0].hand)
    drv = Driver(table)
    event = next(c for c in drv.screen().choices if "Ring the Cemetery Bell" in c.label)
    drv.type(event.key)
    assert drv.screen().need == "discard"  # the Cost first, before the Test
    assert [c.label.split(" (Threat")[0] for c in drv.screen().choices] == [
        catalog.tactic(c).name for c in hand]
    drv.type("1")
    drv.enter_until_recorded()
    assert isinstance(drv.recorded[0], UseEvent) and drv.recorded[0].discard == [hand[0]]


def test_9_a_targeted_effect_asks_the_target(catalog: Any) -> None:
    table = night_table(catalog, ["aurel", "ioana"], seed=6)
    lullaby = "ioana-t05"
    assert catalog.tactic(lullaby).name == "Lullaby of Mending"
    tactic_with(table, [("ioana", lullaby)])
    activate(table, card=lullaby)
    aurel = table.state.troupers[0]
    set_trouper(table, "aurel", wounds=aurel.draw_pile[:2], draw_pile=aurel.draw_pile[2:])
    drv = Driver(table)
    drv.type("1")
    screen = drv.screen()
    assert screen.need == "recipient"
    assert screen.choices[int(screen.default) - 1].label.startswith("Aurel")  # the wounded
    drv.type("")
    drv.enter_until_recorded()
    effect = drv.recorded[0]
    assert effect.recipient == "aurel"
    assert table.state.troupers[0].wounds == []


def test_11_an_item_attack_asks_the_target_and_rolls(catalog: Any) -> None:
    table = night_table(catalog, ["aurel"], seed=7)
    gear = dict(table.state.troupers[0].equipped, tool="aurel-i04")  # Throwing Knives
    set_trouper(table, "aurel", equipped=gear)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    activate(table, card=card)
    drv = Driver(table)
    knives = next(c for c in drv.screen().choices if "Throwing Knives" in c.label)
    drv.type(knives.key)
    screen = drv.screen()
    assert screen.need == "target"
    assert all(c.key != "n" for c in screen.choices)  # Minions only
    drv.type("b")
    drv.enter_until_recorded()
    use = drv.recorded[0]
    assert isinstance(use, UseItem) and use.target == "B" and use.dice
    kinds = [e.kind for e in table.state.night.log]
    assert "attacks" in kinds and "test" in kinds


def test_12_type_restrictions_come_before_the_questions(catalog: Any) -> None:
    beasts = [m.id for m in catalog.all("minions") if m.type == "beast"][:2]
    table = _graveyard(catalog, ["graveyard-e03"], minions=beasts)  # Chase (Ghoul only)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    activate(table, owner=0)
    drv = Driver(table)
    chase = next(c for c in drv.screen().choices if "Chase the Grave-Robbers" in c.label)
    assert not chase.enabled and "Ghoul" in chase.why
    result = drv.type(chase.key)
    assert isinstance(result, Again) and "Ghoul" in result.message
    assert drv.screen().need is None and not drv.recorded


# --------------------------------------------------------------------------- day: 5, 13, 15


def _day(blood: Any, troupers: str = "aurel,ioana", seed: int = 3) -> None:
    assert blood("campaign", "new", "d", "--troupers", troupers, "--seed", str(seed)).code == 0
    assert blood("day", "recover").code == 0


def _store() -> Any:
    from blood_companion.cli import session

    return session.open_session()


def _play(monkeypatch: pytest.MonkeyPatch, capsys: Any, answers: list[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["play"]) == 0
    return str(capsys.readouterr().out)


def _log(capsys: Any) -> list[dict[str, Any]]:
    assert main(["campaign", "log", "--json"]) == 0
    return [json.loads(line)["action"] for line in capsys.readouterr().out.splitlines()]


def _wagon(**amounts: int) -> Any:
    from blood_companion.engine.campaign import AdjustWagon

    with _store() as store:
        store.record(AdjustWagon(**amounts, reason="test"))


def test_5_purchase_keys_stay_the_same_within_the_step(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    _day(blood)
    _wagon(coins=20)
    with _store() as store:
        walk = Walk.start(store.state, store.catalog)
    keys = {c.key: c.label for c in walk.screen().choices}
    # buy the first building, then type its key again from the old screen
    _play(monkeypatch, capsys, ["b1", "b1", "b2", "quit"])
    buys = [a for a in _log(capsys) if a["type"] == "day_buy_building"]
    names = [keys["b1"], keys["b2"]]
    assert len(buys) == 2  # the second "b1" is refused (used), never another building
    assert buys[0]["building"] != buys[1]["building"]
    with _store() as store:
        labels = {c.key: c.label for c in Walk.start(store.state, store.catalog).screen().choices}
    assert labels["b1"].startswith(names[0].split(" (")[0])
    assert labels["b2"].startswith(names[1].split(" (")[0])


def test_13_swaps_the_alchemist_and_cards_drawn_at_the_table_in_blood_play(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    _day(blood)
    _wagon(coins=10, scrolls=4)
    with _store() as store:
        choices = {c.label.split(" (")[0]: c.key for c in
                   Walk.start(store.state, store.catalog).screen().choices}
    alchemist = choices["Alchemist's Laboratory"]
    advanced = next(k for label, k in choices.items() if "juggling" in label)
    out = _play(monkeypatch, capsys, [
        alchemist, "scrolls", "2", "jewels",      # trade 2 Scrolls for 2 Jewels
        advanced, "",                              # a juggling card: to Aurel by default
        "st", "", "1", "1",                        # swap it into his deck
        "z", "", "t",                              # Zone; the Location die typed in
        "2", "t", "castle wolf, bone sentinel",   # the Minion cards drawn at the table
        "", "t", "saskia", "quit",
    ])
    log = _log(capsys)
    trade = next(a for a in log if a["type"] == "day_buy_building"
                 and a.get("trade_from"))
    assert (trade["trade_from"], trade["amount"], trade["trade_to"]) == ("scrolls", 2, "jewels")
    bought = next(a for a in log if a["type"] == "day_buy_advanced")
    assert (bought["art"], bought["trouper"]) == ("juggling", "aurel")
    assert any(a["type"] == "day_swap_tactic" for a in log), out
    draws = next(a for a in log if a["type"] == "day_draw_minions")
    assert draws["minions"] == ["beast-castle-wolf", "undead-bone-sentinel"]
    nem = next(a for a in log if a["type"] == "day_draw_nemesis")
    assert nem["nemesis"] == "saskia"
    assert "--trade" not in out


def test_15_items_are_named_with_spaces(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    _day(blood, troupers="aurel")
    answers = ["z", "", "", "", "", "", "", "",  # Zone ... Events with the defaults
               "c", "Safety Harness,Throwing Knives, lucky ribbon", "quit"]
    out = _play(monkeypatch, capsys, answers)
    equip = [a for a in _log(capsys) if a["type"] == "day_equip"]
    assert equip and equip[-1]["items"] == ["aurel-i02", "aurel-i04", "aurel-i05"], out
    # without commas too
    walk_answers = ["undo", "c", "Padded Doublet Throwing Knives Silver Bell", "quit"]
    _play(monkeypatch, capsys, walk_answers)
    equip = [a for a in _log(capsys) if a["type"] == "day_equip"]
    assert equip[-1]["items"] == ["aurel-i01", "aurel-i04", "aurel-i06"]


# --------------------------------------------------------------------------- 14


def test_14_redo_at_any_prompt_and_undo_says_what_it_took_back(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    _day(blood)
    out = _play(monkeypatch, capsys, ["z", "", "undo", "redo", "undo 2", "redo 2", "quit"])
    assert "Took back: Zone: The Catacombs\n" in out
    assert "Brought back: Zone: The Catacombs\n" in out
    assert "Took back: Zone: The Catacombs; Recovery" in out
    assert "Brought back: Recovery: Vigor restored" in out
    with _store() as store:
        assert store.state.day.zone == "catacombs"


# --------------------------------------------------------------------------- 16


def test_16_advanced_tactic_cards_go_to_a_trouper_who_can_use_them(catalog: Any) -> None:
    from blood_companion.engine.flow import ask, next_view
    from blood_companion.engine.reward_state import RewardState

    table = night_table(catalog, ["aurel", "ioana"])
    state = table.state.model_copy(update={
        "part": "end", "rewards": RewardState(result="won", zone="catacombs", nemesis="lucilla",
                                              location=table.state.night.location,
                                              difficulty=1, advanced_tactics=2),
    })
    nxt = next_view(state, catalog)
    # round the table: the first card to an Art Aurel's deck uses, the next one to Ioana's
    first = nxt.option(nxt.default or "")
    assert first is not None and first.fields["art"] in {"funambulism", "juggling", "enchantment"}
    q0 = ask(state, catalog, first, {})
    assert q0 is not None and next(p for p in q0.picks if p.key == q0.default).value == "aurel"
    second = state.model_copy(update={"rewards": state.rewards.model_copy(
        update={"tactics_taken": ["x"]})})
    nxt2 = next_view(second, catalog)
    assert nxt2.option(nxt2.default or "").fields["art"] in {"enchantment", "delirium",
                                                             "alchemy"}
    alchemy = next(o for o in nxt.options if o.fields.get("art") == "alchemy")
    q = ask(state, catalog, alchemy, {})
    assert q is not None
    default = next(p for p in q.picks if p.key == q.default)
    assert default.value == "ioana"  # Aurel's Building rule has no Alchemy
    aurel = next(p for p in q.picks if p.value == "aurel")
    assert "alchemy" in aurel.warn.lower()
    walk = Walk.start(state, catalog).answer(alchemy.key)
    assert isinstance(walk, Walk)
    assert isinstance(walk.answer(aurel.key), Confirm)
    done = walk.answer(aurel.key, confirmed=True)
    assert isinstance(done, Done) and done.action.trouper == "aurel"  # type: ignore[attr-defined]


def test_16_the_summary_after_vlad_says_the_box_was_reset(
    capsys: Any, catalog: Any,
) -> None:
    from blood_companion.cli.end_cmd import show_summary
    from blood_companion.engine.state import CampaignState, GameRecord

    rewards = {"box_reset": True, "wagon": {"jewels": 0, "coins": 0, "trinkets": 0,
                                           "scrolls": 0},
               "resources": {}, "spent": 0, "given": {}, "trophies": {},
               "vlad_weakened": [], "vlad_weakened_total": 4, "left_behind": []}
    state = CampaignState(game=5, part="day", history=[
        GameRecord(number=4, mode="roguelite", troupers=["aurel"], nemesis="vlad",
                   result="won", rewards=rewards)])
    show_summary(state, catalog)
    out = capsys.readouterr().out
    assert "box returns to its starting state" in out
    assert "now 4 of" not in out and "0 of" in out


# --------------------------------------------------------------------------- bad input


def test_bad_input_of_every_kind_asks_again_with_the_same_default(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    _day(blood)
    long = "y" * 3000
    bad = ["0", "-1", "999", "zz", "ünïcödé 漢字", "🎲", long, "\x1b[A", "b1 b2"]
    out = _play(monkeypatch, capsys, ["z", *bad, "", "quit"])
    zone = "Zone Selection: where do you face the Nemesis tonight?"
    # asked again after each one (a line with a control character is answered as it is read)
    assert "That line contains the control character U+001B; type it again." in out
    assert out.count(zone) == len(bad)
    assert out.count("[1] > ") == len(bad) + 1  # with the same default
    assert long not in out and all(len(line) <= 100 for line in out.splitlines())
    types = [a["type"] for a in _log(capsys)]
    assert types.count("day_zone") == 1  # only the answer that chose
    assert types[-1] == "day_zone"


def test_end_of_input_quits_saved_and_resumes_at_the_same_question(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    _day(blood)
    out = _play(monkeypatch, capsys, ["z"])  # then Ctrl-D in the middle of a choice
    assert out.rstrip().endswith("Saved. `blood play` resumes here.")
    out = _play(monkeypatch, capsys, ["quit"])
    assert "Buy something, or finish buying?" in out  # nothing half-recorded


def test_1_commands_at_the_target_side_and_trait_questions_keep_the_choice(
    saves_dir: Path, capsys: Any,
) -> None:
    """The loop itself: `odds`, `help`, `status` and a bad answer typed at the Target, Side and
    Trait questions of an attack ask the same question again; the attack is recorded with the
    answers given around them."""
    from blood_companion.cli.play_cmd import Loop

    assert main(["campaign", "new", "one", "--troupers", "aurel", "--mode", "single",
                 "--seed", "4"]) == 0
    seen: list[tuple[str | None, str]] = []

    class Script(Loop):
        plan: list[str] = []

        def ask(self, prompt: str) -> str | None:
            screen = self.walk.screen()
            if self.plan:
                seen.append((screen.need, screen.question))
                return self.plan.pop(0)
            if any(isinstance(a, Attack) for a in done):
                return None
            attack = [c for c in screen.choices if c.enabled and c.label.startswith("Effect")
                      and "Attack" in c.label]
            if screen.need is None and attack:
                self.plan = [attack[0].key, "odds", "help", "status", "zz", "n",
                             "odds", "status", "0", "l"]
                return self.plan.pop(0)
            # Enter, or where only the table answers (no default, issue 26) "all" of them at
            # the Map, the first candidate at a Leader question
            if leader_asks(self.walk):
                return "1"
            return "all" if "Look at the Map: type a name" in screen.question else ""

        def record(self, action: Any, digest: str) -> bool:
            done.append(action)
            return super().record(action, digest)

    done: list[Any] = []
    Script("one").run()
    out = capsys.readouterr().out
    target = [q for need, q in seen if need == "target"]
    side = [q for need, q in seen if need == "side"]
    assert len(target) == 5 and len(set(target)) == 1  # asked again after each
    assert len(side) >= 4 and len(set(side)) == 1
    attack = next(a for a in done if isinstance(a, Attack))
    assert (attack.target, attack.side) == ("nemesis", "left")
    assert "Answer with the key of a choice" in out  # help was shown in between


# --------------------------------------------------------------------------- issue 15, item 4


def test_15_4_a_quick_effect_is_recorded_outside_the_activation_by_blood_night(
    blood: Any, saves_dir: Path, catalog: Any,
) -> None:
    """`blood night quick`: Dash Along the Rafters' Step resolved in the Planning Phase, once."""
    assert blood("campaign", "new", "q", "--troupers", "aurel", "--mode", "single",
                 "--seed", "2").code == 0
    loc = catalog.locations_in("catacombs")[0].id
    mins = ",".join(m.id for m in catalog.all("minions")[:2])
    assert blood("night", "setup", "--nemesis", "lucilla", "--location", loc, "--minions", mins,
                 "--difficulty", "1").code == 0
    with _store() as store:
        while store.state.night.pending or store.state.night.phase != "planning":
            walk: Any = Walk.start(store.state, store.catalog, store.head)
            while isinstance(walk, Walk):  # Enter, or "all" where only the Map answers
                walk = walk.answer("" if walk.screen().default is not None else "all")
            store.record(walk.action)
        assert "aurel-t04" in store.state.troupers[0].hand
    assert blood("night", "play", "aurel", "aurel-t04").code == 0
    board = blood("night", "board", "--json").json()
    space = next(s["space"] for s in board["chain"] if s["card"] == "aurel-t04")
    nxt = blood("night", "next", "--json").json()
    assert f"blood night quick {space} --effect 1" in nxt["commands"]
    r = blood("night", "quick", str(space), "--json")
    assert r.code == 0, r.err
    assert any("Step 3" in line for line in r.json()["changes"])
    again = blood("night", "quick", str(space))
    assert again.code == 1 and "already resolved" in again.err
    assert blood("night", "quick", "1").code == 1  # an Event card: no Quick Effect there
    v = blood("campaign", "verify", "--json")
    assert v.code == 0 and v.json()["ok"]


def test_15_4_quick_effects_in_blood_play_in_every_phase(catalog: Any) -> None:
    """Smelling Salts' Heal (a Trouper target) in the Nemesis Phase; the card's own activation
    then no longer offers it; Scarlet Riposte's Quick attack while a dodge Test waits."""
    from blood_companion.engine.night import UseQuick

    table = night_table(catalog, ["aurel", "ioana"], seed=11)
    salts, riposte = "ioana-t11", "nem-saskia-t"
    assert catalog.tactic(salts).name == "Smelling Salts"
    tactic_with(table, [("ioana", salts), ("aurel", riposte)])
    night = table.state.night
    spaces = {s.card: k + 1 for k, s in enumerate(night.chain)}
    aurel = table.state.troupers[0]
    set_trouper(table, "aurel", wounds=aurel.draw_pile[:1], draw_pile=aurel.draw_pile[1:])
    drv = Driver(table)
    keys = {c.key: c for c in drv.screen().choices}
    quick = keys.get(f"q{spaces[salts]}")
    assert quick is not None and "Smelling Salts" in quick.label and quick.enabled
    assert drv.screen().default != quick.key
    drv.type(quick.key)
    screen = drv.screen()
    assert screen.need == "recipient"
    assert screen.choices[int(screen.default) - 1].label.startswith("Aurel")  # the wounded
    drv.type("")
    drv.enter_until_recorded()
    used = drv.recorded[-1]
    assert isinstance(used, UseQuick) and used.slot == spaces[salts] and used.recipient == "aurel"
    assert table.state.troupers[0].wounds == []
    # its own activation no longer offers it
    activate(table, card=salts)
    first = next(c for c in Driver(table).screen().choices if c.key == "1")
    assert not first.enabled and "already resolved" in first.why
    # the Quick attack of Scarlet Riposte (its activation skipped), while the Nemesis waits
    # on a dodge Test
    for _ in range(400):
        night = table.state.night
        if night.pending and night.pending[0].kind == "test" or night.result:
            break
        act = night.activation
        if act is not None and night.chain[act.slot].card == riposte:
            table.do(FinishActivation())
            continue
        Driver(table).type("")
    assert table.state.night.pending and table.state.night.pending[0].kind == "test"
    drv = Driver(table)
    keys = {c.key: c for c in drv.screen().choices}
    assert drv.screen().default == "r"
    drv.type(f"q{spaces[riposte]}")
    if drv.screen().need == "confirm":  # its Condition is one only the Map shows
        drv.type("y")
    assert drv.screen().need == "target"
    drv.type("n", "f")
    while not drv.recorded or not isinstance(drv.recorded[-1], UseQuick):
        drv.type("")
    assert drv.recorded[-1].slot == spaces[riposte]
    assert table.state.night.pending  # the dodge Test still waits


def test_8_an_attack_with_a_discard_cost_asks_the_card_first(catalog: Any) -> None:
    table = night_table(catalog, ["ioana"], seed=3)
    fever = "ioana-t07"  # Fever Visions: Cost Discard 1, two Mind Attacks
    tactic_with(table, [("ioana", fever)])
    activate(table, card=fever)
    draw(table, "ioana", 2)
    hand = list(table.state.troupers[0].hand)
    drv = Driver(table)
    drv.type("1")
    assert drv.screen().need == "discard"
    drv.type(str(len(hand)))
    assert drv.screen().need == "target"
    drv.enter_until_recorded()
    attack = drv.recorded[0]
    assert isinstance(attack, Attack) and attack.discard == [hand[-1]]


def test_13_the_alchemists_hint_names_the_options_that_exist(
    blood: Any, saves_dir: Path,
) -> None:
    _day(blood)
    _wagon(coins=3)
    r = blood("day", "buy", "alchemists-laboratory", "--pay", "coins=1")
    assert r.code == 1
    assert "--give" in r.err and "--get" in r.err and "--trade" not in r.err
