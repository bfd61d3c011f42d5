"""Issue 26, "A typed answer is never reinterpreted" and "Refuse early": dice positions at a
re-roll prompt are positions, keys are unique within a prompt, an option that cannot be
completed is disabled with its reason, cards and Troupers are accepted by name, and a campaign
that cannot start is refused before anyone is asked who holds the decks."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from play_driver import (
    Driver,
    activate,
    first_tactic,
    night_table,
    plain_attack,
    set_night,
    set_trouper,
    tactic_with,
)

from blood_companion.cli.entry import main
from blood_companion.cli.play_menu import Again, Confirm, Done, Walk
from blood_companion.engine.night import Attack, FinishActivation
from blood_companion.engine.night_state import Bonus


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("bad", [
    ["--troupers", "aurel,nobody"],
    ["--troupers", "aurel,zora", "--colours", "red,red"],
    ["--troupers", "aurel,zora", "--colours", "mauve"],
])
@pytest.mark.parametrize("command", [["play", "--new", "x"], ["campaign", "new", "x"]])
def test_a_campaign_that_cannot_start_is_refused_before_the_decks_question(
    saves_dir: Path, capsys: Any, monkeypatch: Any, command: list[str], bad: list[str],
) -> None:
    monkeypatch.setattr("sys.stdin", _Terminal("\n\n\n"))
    assert main([*command, *bad]) == 1
    cap = capsys.readouterr()
    assert "Who holds the decks?" not in cap.out
    assert "Error" in cap.err
    assert not list(saves_dir.glob("x*"))


def test_a_taken_name_is_refused_before_the_decks_question(
    saves_dir: Path, capsys: Any, monkeypatch: Any,
) -> None:
    assert main(["campaign", "new", "x", "--troupers", "aurel", "--decks", "app"]) == 0
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", _Terminal("\n\n\n"))
    assert main(["play", "--new", "x", "--troupers", "zora"]) == 1
    cap = capsys.readouterr()
    assert "Who holds the decks?" not in cap.out and "already exists" in cap.err


# --------------------------------------------------------------------------- positions


def _at_re_roll(catalog: Any, rerolls: int = 2) -> Driver:
    """Aurel's attack thrown with no Triumph, Re-rolls left: the "Re-roll which dice?"
    question, with the best re-roll of every die suggested."""
    table = night_table(catalog, ["aurel"], seed=2)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    activate(table, card=card)
    set_night(table, bonuses={0: Bonus(rerolls=rerolls)})
    drv = Driver(table)
    drv.type("1", "n", "f")
    if drv.screen().need == "trait":
        drv.type("")
    pool = drv.screen().test["pool"].split()
    drv.type(" ".join("0" for _ in pool))
    assert drv.screen().need == "reroll"
    return drv


@pytest.mark.parametrize(("typed", "recorded"), [
    ("1 2", "1,2"), ("2 3", "2,3"), ("2", "2"), ("1,3", "1,3"), ("3 1", "1,3"),
])
def test_dice_positions_at_a_re_roll_are_positions(catalog: Any, typed: str, recorded: str
                                                   ) -> None:
    drv = _at_re_roll(catalog)
    best = next(c for c in drv.screen().choices if c.key == "b")
    assert "Re-roll die 1,2" in best.label  # the suggestion names more dice than typed
    drv.type(typed)
    screen = drv.screen()
    assert screen.need == "dice"
    assert f"(die {recorded.replace(',', ', ')})" in screen.question
    drv.type(" ".join("0" for _ in recorded.split(",")), "k")
    attack = drv.recorded[-1]
    assert isinstance(attack, Attack) and attack.reroll == [recorded]


# --------------------------------------------------------------------------- unique keys


def _play_randomly(drv: Driver, rng: random.Random, seen: list[tuple[str, list[str]]],
                   limit: int = 1500) -> None:
    """Answers every question of the night at random (a key of an enabled choice, several for
    a question of several, Enter where there is a default), noting each screen's keys."""
    for _ in range(limit):
        night = drv.state.night
        if night is None or night.result is not None:
            return
        screen = drv.screen()
        seen.append((screen.question, [c.key.lower() for c in screen.choices]))
        enabled = [c for c in screen.choices if c.enabled]
        if screen.default is not None and rng.random() < 0.5:
            answer = ""
        elif screen.many is not None and enabled:
            least, most = screen.many
            k = rng.randint(least, min(most, len(enabled)))
            answer = " ".join(c.key for c in rng.sample(enabled, k)) or "none"
        elif enabled:
            answer = rng.choice(enabled).key
        else:
            answer = ""
        result = drv.type(answer)
        if isinstance(result, Confirm):
            drv.type(answer, confirmed=True)
        elif isinstance(result, Again):
            if drv.walk.option is not None:
                drv.walk = drv.walk.top
            fallback = drv.screen()
            keys = [c.key for c in fallback.choices if c.enabled]
            drv.type(fallback.default if fallback.default is not None else keys[0])


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_keys_are_unique_within_every_prompt_of_a_random_night(catalog: Any, seed: int
                                                                ) -> None:
    table = night_table(catalog, ["ioana", "aurel", "zora"], seed=seed)
    drv = Driver(table)
    seen: list[tuple[str, list[str]]] = []
    _play_randomly(drv, random.Random(seed), seen)
    assert len(seen) > 100
    twice = [(q, keys) for q, keys in seen if len(keys) != len(set(keys))]
    assert twice == []


def test_two_supports_of_one_card_have_two_keys(catalog: Any) -> None:
    table = night_table(catalog, ["ioana", "aurel"], seed=2)
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("ioana", "ioana-t06"), ("aurel", card)])  # Lent Courage first
    activate(table, card=card)
    drv = Driver(table)
    supports = [c for c in drv.screen().choices if "Support of Lent Courage" in c.label]
    assert len(supports) == 2
    assert len({c.key for c in supports}) == 2
    assert isinstance(drv.type(supports[1].key), Done)  # the second Support, not the first
    assert drv.recorded[-1].type == "night_support" and drv.recorded[-1].effect == 2


# --------------------------------------------------------------------------- disabled


def test_an_event_whose_discard_cost_cannot_be_paid_is_shown_disabled(catalog: Any) -> None:
    loc = catalog.locations_in("graveyard")[0].id
    table = night_table(catalog, ["aurel", "ioana"], seed=5, location=loc,
                        events=["graveyard-e05"])  # Ring the Cemetery Bell: Discard 1
    card = first_tactic(catalog, "aurel", plain_attack)
    tactic_with(table, [("aurel", card)])
    while table.state.night.chain[table.state.night.activation.slot].owner != 0:
        table.do(FinishActivation())
    set_trouper(table, "aurel", hand=[])
    before = table.state
    drv = Driver(table)
    event = next(c for c in drv.screen().choices if "Ring the Cemetery Bell" in c.label)
    assert not event.enabled and "discards 1 Tactic card" in event.why and "holds 0" in event.why
    result = drv.type(event.key)
    assert isinstance(result, Again) and "holds 0" in result.message
    assert drv.walk.option is None and table.state == before


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize("typed", ["mad waltz", "Mad Waltz", "mad walts", "waltz"])
def test_a_card_is_played_by_its_name_at_planning(catalog: Any, typed: str) -> None:
    table = night_table(catalog, ["zora"], seed=3)
    waltz = next(c.id for c in catalog.starting_tactics_for("zora") if c.name == "Mad Waltz")
    hand = [c for c in table.state.troupers[0].hand if c != waltz]
    set_trouper(table, "zora", hand=[*hand[:4], waltz])
    drv = Driver(table)
    result = drv.type(typed)
    assert isinstance(result, Done), drv.messages
    assert drv.recorded[-1].type == "night_play" and drv.recorded[-1].card == waltz


def test_a_vlad_card_is_weakened_by_its_name(catalog: Any) -> None:
    from blood_companion.engine.reward_state import RewardState

    cards = catalog.vlad_reactions_in("graveyard")
    tithe = next(v for v in cards if v.enhanced.name == "Tithe of Blood")
    table = night_table(catalog, ["aurel"], seed=3)
    rewards = RewardState(result="won", nemesis="vlad", zone="graveyard",
                          location=catalog.locations_in("graveyard")[0].id, difficulty=1,
                          vlad=True, vlad_cards=1)
    state = table.state.model_copy(update={"part": "end", "rewards": rewards, "night": None})
    walk = Walk.start(state, catalog)
    assert walk.screen().step == "vlad_cards"
    result = walk.answer("tithe of blood")
    assert isinstance(result, Done) and result.action.cards == [tithe.id]
