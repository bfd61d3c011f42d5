"""The seven-step Test procedure, Exhausted and Knocked Out, the Insanity track, Attacks."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from dice_boxes import box_of
from hypothesis import given, settings
from hypothesis import strategies as st

from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import DiceBox, Face, parse_faces
from blood_companion.engine.errors import DiceError, RuleError
from blood_companion.engine.odds import InsanityBonuses, Substitution, insanity_bonuses, trait_pool
from blood_companion.engine.rolls import attack_target
from blood_companion.engine.rolls.procedure import (
    TestResult,
    TestSetup,
    TestState,
    advise_test,
    confirm_test,
    cube_after_test,
    odds_for_test,
    prepare_test,
    replay_test,
    replay_throws,
    reroll_at_best,
    reroll_test,
    roll_test,
)

RGB = ("R", "G", "B")


def faces(box: DiceBox, text: str, pool: tuple[str, ...] = RGB) -> tuple[Face, ...]:
    return parse_faces(text, pool, box)


def seeded(setup: TestSetup, box: DiceBox, seed: int) -> TestResult:
    """A whole Test as the night takes it (rolls/night.py ``take_test``): rolled, re-rolled at
    best, confirmed."""
    rng = Chance.fresh(seed, 0)
    return confirm_test(reroll_at_best(roll_test(prepare_test(setup, box), box, rng=rng), box, rng))


# --------------------------------------------------------------------------- steps 1-3


def test_prepare_takes_the_dice_and_bonuses(box: DiceBox) -> None:
    st_ = prepare_test(TestSetup(pool=RGB, target=4, bonus_triumphs=1, rerolls=2), box)
    assert st_.pool == RGB
    assert st_.bonus_triumphs == 1
    assert st_.rerolls_left == 2
    assert not st_.rolled


def test_a_test_rolls_three_dice(box: DiceBox) -> None:
    with pytest.raises(DiceError, match="3 dice"):
        prepare_test(TestSetup(pool=("R", "G"), target=2), box)
    with pytest.raises(DiceError, match="at most 3"):
        prepare_test(TestSetup(pool=("R", "G", "B", "B"), target=2), box)


def test_exhausted_rolls_three_red_dice_but_keeps_bonuses(box: DiceBox) -> None:
    setup = TestSetup(pool=("B", "B", "B"), target=3, exhausted=True, bonus_triumphs=1, rerolls=1)
    eff = prepare_test(setup, box)
    assert eff.pool == ("R", "R", "R")
    assert (eff.bonus_triumphs, eff.rerolls_left) == (1, 1)
    assert eff.notes and "Exhausted" in eff.notes[0]
    state = prepare_test(setup.model_copy(update={"bonus_dice": ("B",)}), box)
    assert sorted(state.pool) == ["B", "R", "R"]  # a Bonus Die still replaces a Red die


def test_knocked_out_gets_no_bonus_of_any_kind(box: DiceBox) -> None:
    setup = TestSetup(
        pool=("B", "B", "B"),
        target=3,
        knocked_out=True,
        bonus_triumphs=2,
        rerolls=2,
        bonus_dice=("B", "B"),
        insanity=InsanityBonuses(triumphs=2, reroll=True),
    )
    state = prepare_test(setup, box)
    assert state.pool == ("R", "R", "R")
    assert (state.bonus_triumphs, state.rerolls_left, state.insanity) == (0, 0, None)
    assert state.substitutions == ()
    assert "Knocked Out" in state.notes[0]
    state = roll_test(state, box, faces=faces(box, "1 1 0", ("R", "R", "R")))
    with pytest.raises(RuleError, match="Knocked Out"):
        reroll_test(state, box, [0], faces=faces(box, "2", ("R",)))
    with pytest.raises(RuleError, match="Insanity"):
        reroll_test(state, box, [0], insanity=True, faces=faces(box, "2", ("R",)))
    with pytest.raises(RuleError):
        confirm_test(state, use_insanity_triumphs=True)
    result = confirm_test(state)
    assert (result.total, result.success) == (2, False)
    with pytest.raises(RuleError, match="grants 0"):
        prepare_test(setup, box, [Substitution(bonus="B", slot=0, replaced="R")])


def test_knocked_out_odds_ignore_every_bonus(box: DiceBox) -> None:
    ko = TestSetup(pool=RGB, target=3, knocked_out=True, rerolls=2, bonus_triumphs=2)
    plain = TestSetup(pool=("R", "R", "R"), target=3)
    assert odds_for_test(ko, box).probability == odds_for_test(plain, box).probability


def test_bonus_dice_are_placed_before_the_roll(box: DiceBox) -> None:
    setup = TestSetup(pool=("R", "R", "R"), target=4, bonus_dice=("B", "G"))
    state = prepare_test(setup, box)  # best placement: B G R (3/8) beats B R R (23/64)
    assert sorted(state.pool) == ["B", "G", "R"]
    # for 6 Triumphs the Grey die is worse than the Red it would replace (1/24 < 3/64)
    high = prepare_test(setup.model_copy(update={"target": 6}), box)
    assert sorted(high.pool) == ["B", "R", "R"]
    chosen = prepare_test(setup, box, [Substitution(bonus="G", slot=2, replaced="R")])
    assert chosen.pool == ("R", "R", "G")
    with pytest.raises(RuleError, match="grants"):
        prepare_test(
            setup,
            box,
            [
                Substitution(bonus="B", slot=0, replaced="R"),
                Substitution(bonus="B", slot=1, replaced="R"),
            ],
        )
    with pytest.raises(DiceError, match="two Bonus Dice"):
        prepare_test(
            setup,
            box,
            [
                Substitution(bonus="B", slot=0, replaced="R"),
                Substitution(bonus="G", slot=0, replaced="R"),
            ],
        )


# --------------------------------------------------------------------------- steps 4-7


def test_the_seven_steps_with_physical_dice(box: DiceBox) -> None:
    setup = TestSetup(pool=RGB, target=6, bonus_triumphs=1, rerolls=2)
    state = prepare_test(setup, box)
    state = roll_test(state, box, faces=faces(box, "0 x 3"))
    assert state.faces[2].label == "B-triple"
    state = reroll_test(state, box, [0, 1], faces=faces(box, "2 0", ("R", "G")))
    assert state.rerolls_left == 1
    state = reroll_test(state, box, [1], faces=faces(box, "1", ("G",)))
    assert state.rerolls_left == 0
    with pytest.raises(RuleError, match="no Re-roll"):
        reroll_test(state, box, [1], faces=faces(box, "2", ("G",)))
    result = confirm_test(state)
    assert result.dice_triumphs == 6
    assert result.total == 7 and result.success
    assert [r.kind for r in result.rolls] == ["roll", "reroll", "reroll"]
    assert all(r.source == "physical" for r in result.rolls)
    assert replay_test(result, box) == result


def test_failure_below_target(box: DiceBox) -> None:
    state = roll_test(
        prepare_test(TestSetup(pool=RGB, target=5), box), box, faces=faces(box, "1 1 2")
    )
    result = confirm_test(state)
    assert (result.total, result.success) == (4, False)


def test_target_zero_always_succeeds(box: DiceBox) -> None:
    state = roll_test(
        prepare_test(TestSetup(pool=RGB, target=0), box), box, faces=faces(box, "x x x")
    )
    assert confirm_test(state).success


def test_defeats_cancel_triumphs_when_configured(box: DiceBox) -> None:
    setup = TestSetup(pool=RGB, target=3, defeats_cancel=True)
    state = roll_test(prepare_test(setup, box), box, faces=faces(box, "2 x 2"))
    result = confirm_test(state)
    assert (result.dice_triumphs, result.success) == (3, True)
    state = roll_test(prepare_test(setup, box), box, faces=faces(box, "x x 2"))
    assert confirm_test(state).dice_triumphs == 0


def test_rolling_twice_or_rerolling_before_rolling_is_refused(box: DiceBox) -> None:
    state = prepare_test(TestSetup(pool=RGB, target=3, rerolls=1), box)
    with pytest.raises(RuleError, match="roll the dice"):
        reroll_test(state, box, [0], rng=Chance.fresh(1, 0))
    with pytest.raises(RuleError, match="roll the dice"):
        confirm_test(state)
    with pytest.raises(RuleError, match="roll the dice first"):
        advise_test(state, box)
    rolled = roll_test(state, box, rng=Chance.fresh(1, 0))
    with pytest.raises(RuleError, match="already rolled"):
        roll_test(rolled, box, rng=Chance.fresh(1, 0))


@pytest.mark.parametrize(
    ("slots", "message"),
    [([], "at least one"), ([3], "no die 4"), ([0, 0], "twice"), ([-1], "no die 0")],
)
def test_bad_reroll_positions(box: DiceBox, slots: list[int], message: str) -> None:
    state = prepare_test(TestSetup(pool=RGB, target=3, rerolls=1), box)
    state = roll_test(state, box, rng=Chance.fresh(1, 0))
    with pytest.raises(DiceError, match=message):
        reroll_test(state, box, slots, rng=Chance.fresh(2, 0))


def test_physical_faces_must_match_the_dice(box: DiceBox) -> None:
    state = prepare_test(TestSetup(pool=RGB, target=3, rerolls=1), box)
    with pytest.raises(DiceError, match="2 face"):
        roll_test(state, box, faces=faces(box, "1 1", ("R", "G")))
    with pytest.raises(DiceError, match="for a G die"):
        roll_test(state, box, faces=faces(box, "1 1 1", ("R", "R", "B")))
    bogus = (Face(die="R", triumphs=1), Face(die="G", triumphs=1), Face(die="B", triumphs=4))
    with pytest.raises(DiceError, match="no face with 4"):
        roll_test(state, box, faces=bogus)
    with pytest.raises(RuleError, match="either"):
        roll_test(state, box)


# --------------------------------------------------------------------------- Insanity


def test_insanity_track_bonuses_at_or_before_the_cube(data_box: DiceBox, catalog: Any) -> None:
    spaces = catalog.insanity.spaces
    assert insanity_bonuses(spaces, 0) == InsanityBonuses()
    last = len(spaces) - 1
    full = insanity_bonuses(spaces, last)
    assert full.any
    # the shipped placeholder track: Re-roll at 2, +1 at 4, +2 at 6
    track = [
        {},
        {},
        {"bonus": {"kind": "reroll", "n": 1}},
        {},
        {"bonus": {"kind": "bonus_triumphs", "n": 1}},
        {},
        {"bonus": {"kind": "bonus_triumphs", "n": 2}},
    ]
    assert insanity_bonuses(track, 1) == InsanityBonuses()
    assert insanity_bonuses(track, 2) == InsanityBonuses(reroll=True)
    assert insanity_bonuses(track, 5) == InsanityBonuses(reroll=True, triumphs=1)
    assert insanity_bonuses(track, 6) == InsanityBonuses(reroll=True, triumphs=2)
    assert insanity_bonuses(track, 6, "one_die") == InsanityBonuses(
        reroll=True, triumphs=2, reroll_max_dice=1
    )
    with pytest.raises(RuleError, match="Insanity cube"):
        insanity_bonuses(track, 7)
    with pytest.raises(RuleError, match="Insanity cube"):
        insanity_bonuses(track, -1)


def test_failed_test_moves_the_cube_right(catalog: Any) -> None:
    assert len(catalog.insanity.spaces) == 7
    assert cube_after_test(catalog, 2, success=False) == 3
    assert cube_after_test(catalog, 2, success=True) == 2
    assert cube_after_test(catalog, 6, success=False) == 6
    assert cube_after_test(catalog, 7, success=False) == 6  # past a shorter track: its last space


def test_insanity_bonus_is_one_choice(box: DiceBox) -> None:
    ins = InsanityBonuses(reroll=True, triumphs=2)
    state = prepare_test(TestSetup(pool=RGB, target=5, insanity=ins), box)
    state = roll_test(state, box, faces=faces(box, "0 1 1"))
    after = reroll_test(state, box, [0], insanity=True, faces=faces(box, "2", ("R",)))
    assert after.insanity is None and after.insanity_used == "reroll"
    with pytest.raises(RuleError, match="no Insanity Re-roll"):
        reroll_test(after, box, [1], insanity=True, faces=faces(box, "2", ("G",)))
    with pytest.raises(RuleError, match="no Insanity bonus Triumphs"):
        confirm_test(after, use_insanity_triumphs=True)
    assert confirm_test(after).total == 4  # the Re-roll was the bonus: no +2 now
    took = confirm_test(state)  # by default the +2 is taken
    assert (took.insanity_used, took.insanity_triumphs, took.total) == ("triumphs", 2, 4)
    kept = confirm_test(state, use_insanity_triumphs=False)
    assert (kept.insanity_used, kept.total) == (None, 2)


def test_one_die_reading_limits_the_insanity_reroll(box: DiceBox) -> None:
    ins = InsanityBonuses(reroll=True, reroll_max_dice=1)
    state = prepare_test(TestSetup(pool=RGB, target=5, insanity=ins), box)
    state = roll_test(state, box, faces=faces(box, "0 0 1"))
    with pytest.raises(RuleError, match="at most 1"):
        reroll_test(state, box, [0, 1], insanity=True, faces=faces(box, "2 2", ("R", "G")))
    ok = reroll_test(state, box, [0], insanity=True, faces=faces(box, "2", ("R",)))
    assert ok.insanity_used == "reroll"


# --------------------------------------------------------------------------- whole Tests


def test_a_whole_test_is_seeded_and_replays(box: DiceBox) -> None:
    setup = TestSetup(
        pool=("R", "R", "G"),
        target=5,
        bonus_dice=("B",),
        rerolls=2,
        insanity=InsanityBonuses(reroll=True, triumphs=1),
    )
    a = seeded(setup, box, 42)
    b = seeded(setup, box, 42)
    assert a == b
    assert "B" in a.pool
    assert replay_test(a, box) == a
    assert a.model_validate_json(a.model_dump_json()) == a  # the record survives a save


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 8), st.integers(0, 2))
def test_replay_of_any_seeded_test_is_exact(seed: int, target: int, rerolls: int) -> None:
    box = box_of(
        {
            "R": [(0, 0), (0, 1), (1, 0), (2, 0)],
            "G": [(0, 1), (1, 0), (2, 0)],
            "B": [(1, 0), (3, 0)],
        }
    )
    setup = TestSetup(
        pool=RGB, target=target, rerolls=rerolls, insanity=InsanityBonuses(reroll=True)
    )
    result = seeded(setup, box, seed)
    assert replay_test(result, box) == result
    assert result.success == (result.total >= target)
    assert len(result.rolls) <= 1 + rerolls + 1


def test_a_test_with_explicit_choices_and_physical_dice(box: DiceBox) -> None:
    setup = TestSetup(pool=RGB, target=6, rerolls=1, insanity=InsanityBonuses(reroll=True))
    start = prepare_test(setup, box)
    result = confirm_test(replay_throws(start, box, ["0 0 3", "2", "1"], ["1", "i:2"], whole=True))
    assert result.total == 6 and result.success
    assert [r.kind for r in result.rolls] == ["roll", "reroll", "insanity_reroll"]
    with pytest.raises(RuleError, match="each Re-roll needs"):  # fewer throws than Re-rolls
        replay_throws(start, box, ["0 0 3"], ["1"], whole=True)
    with pytest.raises(RuleError, match="each Re-roll needs"):  # more throws than Re-rolls
        replay_throws(start, box, ["0 0 3", "2"], [], whole=True)


def test_best_play_succeeds_exactly_as_often_as_the_odds_say(box: DiceBox) -> None:
    """Follow advise_test through every way physical dice can fall; the weighted share of
    successes is the odds engine's probability."""
    setup = TestSetup(
        pool=("R", "G", "B"), target=5, rerolls=1, insanity=InsanityBonuses(triumphs=1)
    )
    start = prepare_test(setup, box)

    def chance(state: TestState) -> Fraction:
        move = advise_test(state, box)
        if move.action == "confirm":
            return Fraction(int(confirm_test(state).success))
        dice = [state.pool[s] for s in move.slots]
        outs = list(itertools.product(*(box.die(x).faces for x in dice)))
        total = Fraction(0)
        for combo in outs:
            nxt = reroll_test(
                state, box, move.slots, insanity=move.action == "insanity_reroll", faces=combo
            )
            total += chance(nxt)
        return total / len(outs)

    outs = list(itertools.product(*(box.die(x).faces for x in start.pool)))
    got = sum((chance(roll_test(start, box, faces=c)) for c in outs), Fraction(0)) / len(outs)
    assert got == odds_for_test(setup, box).probability


# --------------------------------------------------------------------------- Attacks, Traits


def test_attack_target_is_defense_lowered_by_fatigue() -> None:
    assert attack_target(5) == 5
    assert attack_target(5, [1, 2]) == 2
    assert attack_target(2, [1, 2]) == 0
    assert attack_target(4, [1], modifier=1) == 4
    with pytest.raises(RuleError):
        attack_target(-1)


def test_trait_pool(box: DiceBox) -> None:
    traits = {"strength": "2B R", "dexterity": "R G B", "cunning": "3G", "madness": "3R"}
    assert trait_pool(traits, "Strength", box) == ("B", "B", "R")
    with pytest.raises(RuleError, match="no Trait"):
        trait_pool(traits, "charm", box)
    with pytest.raises(DiceError):
        trait_pool({"strength": "4R"}, "strength", box)


def test_setup_refuses_bad_numbers() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        TestSetup(pool=RGB, target=-1)
    with pytest.raises(ValidationError):
        TestSetup(pool=RGB, target=3, rerolls=-1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,3", ((0, 2), False)),  # as recorded by `night attack --reroll`
        ("1 3", ((0, 2), False)),  # as typed at `blood test` and `blood play`
        ("i:1,3", ((0, 2), True)),  # the recorded Insanity Re-roll
        ("I1,3", ((0, 2), True)),
        ("i 2", ((1,), True)),
        ("insanity 2", ((1,), True)),
        ("3, 1", ((2, 0), False)),  # in the order given; reroll_test sorts and refuses twins
    ],
)
def test_one_reroll_notation_for_records_and_typed_answers(
    text: str, expected: tuple[tuple[int, ...], bool]
) -> None:
    from blood_companion.engine.rolls.procedure import parse_reroll

    assert parse_reroll(text, 3) == expected


@pytest.mark.parametrize("text", ["", "i", "i:", "4", "0", "1 x", "insane 2"])
def test_reroll_notation_refuses_what_names_no_die_of_the_pool(text: str) -> None:
    from blood_companion.engine.rolls.procedure import parse_reroll

    with pytest.raises(DiceError):
        parse_reroll(text, 3)
