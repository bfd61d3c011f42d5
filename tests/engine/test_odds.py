"""The odds engine against brute force: every pool of up to 3 dice, targets 0..10, 0..2
Re-rolls, Bonus Dice, the Insanity bonus; and the optimal policy against every policy on
small cases."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import prod

import pytest
from dice_boxes import box_of
from hypothesis import given, settings
from hypothesis import strategies as st

from blood_companion.engine.dice import DiceBox
from blood_companion.engine.errors import DiceError
from blood_companion.engine.odds import (
    InsanityBonuses,
    Substitution,
    advise,
    odds,
    pool_dists,
    substitution_options,
    success_probability,
)

POOLS_UP_TO_3 = [
    p for n in (1, 2, 3) for p in itertools.combinations_with_replacement(("R", "G", "B"), n)
]
TARGETS = range(11)
# Targets that some roll of 3 placeholder dice can both reach and miss (beyond 7 is always 0,
# which the full sweep above already checks).
LIVE_TARGETS = range(1, 9)


# --------------------------------------------------------------------------- brute force


def brute_force(
    faces: Sequence[Sequence[int]],
    target: int,
    rerolls: int,
    *,
    ins_triumphs: int = 0,
    ins_reroll: bool = False,
    ins_reroll_dice: int | None = None,
    has_insanity: bool = False,
) -> Fraction:
    """The best chance of success by plain enumeration (faces given as their values, one list
    per die), Fractions throughout, no code shared with the engine. The order of the dice does
    not matter, so results are cached per sorted pool."""
    return _brute(
        tuple(sorted(tuple(sorted(f)) for f in faces)),
        target,
        rerolls,
        ins_triumphs,
        ins_reroll,
        ins_reroll_dice,
        has_insanity,
    )


@cache
def _brute(
    faces: tuple[tuple[int, ...], ...],
    target: int,
    rerolls: int,
    ins_triumphs: int,
    ins_reroll: bool,
    ins_reroll_dice: int | None,
    has_insanity: bool,
) -> Fraction:
    n = len(faces)
    # each die as (value, how many faces show it): equal faces need not be rolled twice
    tally = [sorted(Counter(f).items()) for f in faces]
    sides = [len(f) for f in faces]

    @cache
    def value(state: tuple[int, ...], r: int, ins: bool) -> Fraction:
        bonus = ins_triumphs if ins else 0
        best = Fraction(1 if max(0, sum(state)) + bonus >= target else 0)
        moves: list[tuple[int, bool]] = []
        if r > 0:
            moves.append((r - 1, ins))
        if ins and ins_reroll:
            moves.append((r, False))
        for next_r, next_ins in moves:
            from_insanity = next_r == r
            for mask in range(1, 1 << n):
                chosen = [i for i in range(n) if mask >> i & 1]
                if from_insanity and ins_reroll_dice is not None and len(chosen) > ins_reroll_dice:
                    continue
                total = Fraction(0)
                for combo in itertools.product(*(tally[i] for i in chosen)):
                    new = list(state)
                    weight = 1
                    for i, (v, w) in zip(chosen, combo, strict=True):
                        new[i] = v
                        weight *= w
                    total += weight * value(tuple(new), next_r, next_ins)
                best = max(best, total / prod(sides[i] for i in chosen))
        return best

    total = Fraction(0)
    for combo in itertools.product(*tally):
        weight = prod(w for _, w in combo)
        total += weight * value(tuple(v for v, _ in combo), rerolls, has_insanity)
    return total / prod(sides)


def face_values(box: DiceBox, pool: Sequence[str], defeats_cancel: bool = False) -> list[list[int]]:
    return [
        [f.triumphs - (f.defeats if defeats_cancel else 0) for f in box.die(x).faces] for x in pool
    ]


# --------------------------------------------------------------------------- exhaustive checks


@pytest.mark.parametrize("pool", POOLS_UP_TO_3, ids=lambda p: "".join(p))
def test_engine_equals_brute_force_every_pool_target_and_reroll(
    box: DiceBox, pool: tuple[str, ...]
) -> None:
    faces = face_values(box, pool)
    for target in TARGETS:
        for rerolls in (0, 1, 2):
            expect = brute_force(faces, target, rerolls)
            got = odds(pool, box, target, rerolls=rerolls).probability
            assert got == expect, (pool, target, rerolls)


@pytest.mark.parametrize("pool", [("R", "G", "B"), ("R", "R", "B"), ("G",), ("B", "B")])
@pytest.mark.parametrize("bonus", [0, 1, 3])
def test_bonus_triumphs_lower_the_need(box: DiceBox, pool: tuple[str, ...], bonus: int) -> None:
    faces = face_values(box, pool)
    for target in TARGETS:
        for rerolls in (0, 1):
            expect = brute_force(faces, target - bonus, rerolls)
            got = odds(pool, box, target, rerolls=rerolls, bonus_triumphs=bonus)
            assert got.probability == expect


@pytest.mark.parametrize("pool", [("R", "G", "B"), ("B", "B", "R"), ("R",), ("G", "R")])
def test_defeats_cancel_reading(box: DiceBox, pool: tuple[str, ...]) -> None:
    faces = face_values(box, pool, defeats_cancel=True)
    for target in LIVE_TARGETS:
        for rerolls in (0, 1, 2) if len(pool) < 3 else (0, 1):
            expect = brute_force(faces, target, rerolls)
            got = odds(pool, box, target, rerolls=rerolls, defeats_cancel=True).probability
            assert got == expect


INSANITY_CASES = [
    InsanityBonuses(triumphs=1),
    InsanityBonuses(triumphs=2),
    InsanityBonuses(reroll=True),
    InsanityBonuses(reroll=True, triumphs=1),
    InsanityBonuses(reroll=True, triumphs=2),
    InsanityBonuses(reroll=True, reroll_max_dice=1),
    InsanityBonuses(reroll=True, reroll_max_dice=1, triumphs=2),
]


@pytest.mark.parametrize("ins", INSANITY_CASES, ids=repr)
@pytest.mark.parametrize("pool", [("R", "G", "B"), ("R", "R", "R"), ("B", "G")])
def test_insanity_bonus_played_optimally(
    box: DiceBox, pool: tuple[str, ...], ins: InsanityBonuses
) -> None:
    faces = face_values(box, pool)
    for target in LIVE_TARGETS:
        for rerolls in (0, 1):
            expect = brute_force(
                faces,
                target,
                rerolls,
                ins_triumphs=ins.triumphs,
                ins_reroll=ins.reroll,
                ins_reroll_dice=ins.reroll_max_dice,
                has_insanity=True,
            )
            got = odds(pool, box, target, rerolls=rerolls, insanity=ins).probability
            assert got == expect, (target, rerolls)


def test_insanity_any_dice_reroll_is_one_more_reroll(box: DiceBox) -> None:
    pool = ("R", "G", "B")
    for target in TARGETS:
        with_ins = odds(pool, box, target, rerolls=1, insanity=InsanityBonuses(reroll=True))
        assert with_ins.probability == odds(pool, box, target, rerolls=2).probability


def test_one_die_reading_is_never_better_than_any_dice(box: DiceBox) -> None:
    pool = ("R", "R", "G")
    for target in TARGETS:
        one = odds(pool, box, target, insanity=InsanityBonuses(reroll=True, reroll_max_dice=1))
        anyd = odds(pool, box, target, insanity=InsanityBonuses(reroll=True))
        assert one.probability <= anyd.probability
    # target 3 from R R G: re-rolling one die is strictly worse than any dice
    one = odds(pool, box, 3, insanity=InsanityBonuses(reroll=True, reroll_max_dice=1))
    anyd = odds(pool, box, 3, insanity=InsanityBonuses(reroll=True))
    assert one.probability < anyd.probability


@pytest.mark.parametrize(
    ("pool", "bonus_dice"),
    [
        (("R", "R", "R"), ("B",)),
        (("R", "R", "R"), ("G", "B")),
        (("R", "G", "B"), ("G", "G", "B")),
        (("G", "G", "R"), ("B", "B", "B", "G")),
    ],
)
def test_bonus_dice_placed_optimally(
    box: DiceBox, pool: tuple[str, ...], bonus_dice: tuple[str, ...]
) -> None:
    # Brute force: every way to hand each Bonus Die to a different die (or not use it).
    n = len(pool)
    for target in TARGETS:
        for rerolls in (0, 1):
            best = Fraction(0)
            for assign in itertools.product([None, *range(n)], repeat=len(bonus_dice)):
                used = [a for a in assign if a is not None]
                if len(used) != len(set(used)):
                    continue
                rolled = list(pool)
                for b, a in zip(bonus_dice, assign, strict=True):
                    if a is not None:
                        rolled[a] = b
                best = max(best, brute_force(face_values(box, rolled), target, rerolls))
            got = odds(pool, box, target, rerolls=rerolls, bonus_dice=bonus_dice)
            assert got.probability == best
            assert len(got.substitutions) <= min(len(bonus_dice), n)


def test_bonus_dice_left_unused_when_they_do_not_help() -> None:
    # A "Black" die that can only show 0: never worth taking.
    box = box_of({"R": [(1, 0), (2, 0)], "B": [(0, 0)]})
    res = odds(("R", "R", "R"), box, 4, bonus_dice=("B",))
    assert res.substitutions == ()
    assert res.pool == ("R", "R", "R")


def test_substitution_options_are_distinct_pools() -> None:
    opts = substitution_options(("R", "R", "R"), ("B", "B"))
    assert [len(o) for o in opts] == [0, 1, 2]
    opts = substitution_options(("R", "G", "B"), ("G",))
    assert {tuple(s.slot for s in o) for o in opts} == {(), (0,), (2,)}
    assert all(isinstance(s, Substitution) for o in opts for s in o)


# --------------------------------------------------------------------------- policies


def policy_value(
    faces: Sequence[Sequence[int]], target: int, rerolls: int, policy: dict[tuple, int]
) -> Fraction:
    """Exact chance of success of a fixed Markov policy (state, Re-rolls left) -> mask."""
    n = len(faces)

    @cache
    def value(state: tuple[int, ...], r: int) -> Fraction:
        mask = policy.get((state, r), 0) if r > 0 else 0
        if mask == 0:
            return Fraction(1 if sum(state) >= target else 0)
        chosen = [i for i in range(n) if mask >> i & 1]
        outs = list(itertools.product(*(faces[i] for i in chosen)))
        total = Fraction(0)
        for combo in outs:
            new = list(state)
            for i, v in zip(chosen, combo, strict=True):
                new[i] = v
            total += value(tuple(new), r - 1)
        return total / len(outs)

    starts = list(itertools.product(*faces))
    return sum((value(s, rerolls) for s in starts), Fraction(0)) / len(starts)


SMALL_CASES = [
    # (faces per die as values, rerolls): small enough to list every Markov policy
    ([[0, 1]], 1),
    ([[0, 1, 2, 2]], 2),
    ([[0, 1, 1, 3]], 2),
    ([[0, 1], [0, 0, 2]], 1),
    ([[0, 1, 2], [0, 0, 2]], 1),
]


@pytest.mark.parametrize(("faces", "rerolls"), SMALL_CASES)
def test_optimal_policy_beats_every_policy(faces: list[list[int]], rerolls: int) -> None:
    letters = ["R", "G", "B"][: len(faces)]
    box = box_of(
        {x: [(v, 0) for v in f] for x, f in zip(letters, faces, strict=True)}
    )
    n = len(faces)
    states = list(itertools.product(*(sorted(set(f)) for f in faces)))
    points = [(s, r) for s in states for r in range(1, rerolls + 1)]
    for target in range(1, sum(max(f) for f in faces) + 1):
        engine = odds(letters, box, target, rerolls=rerolls).probability
        best = Fraction(0)
        for choice in itertools.product(range(1 << n), repeat=len(points)):
            best = max(
                best, policy_value(faces, target, rerolls, dict(zip(points, choice, strict=True)))
            )
        assert engine == best, target
        # and the engine's own policy (advise at every point) achieves it
        dists = pool_dists(letters, box)
        own = {(s, r): _mask(advise(dists, s, target, rerolls_left=r).slots) for (s, r) in points}
        assert policy_value(faces, target, rerolls, own) == engine


def _mask(slots: Sequence[int]) -> int:
    return sum(1 << s for s in slots)


@pytest.mark.parametrize("pool", [("R", "G", "B"), ("B", "B", "R"), ("G", "G")])
def test_engine_policy_achieves_engine_value(box: DiceBox, pool: tuple[str, ...]) -> None:
    faces = face_values(box, pool)
    dists = pool_dists(pool, box)
    states = list(itertools.product(*(sorted(set(f)) for f in faces)))
    for target in (2, 4, 6):
        for rerolls in (1, 2):
            policy = {
                (s, r): _mask(advise(dists, s, target, rerolls_left=r).slots)
                for s in states
                for r in range(1, rerolls + 1)
            }
            expect = odds(pool, box, target, rerolls=rerolls).probability
            assert policy_value(faces, target, rerolls, policy) == expect


def test_advice_probability_is_the_value_of_the_state(box: DiceBox) -> None:
    dists = pool_dists(("R", "G", "B"), box)
    d = advise(dists, (0, 0, 3), 4, rerolls_left=1)
    # the Black die already shows 3: keep it and re-roll others
    assert d.action == "reroll"
    assert 2 not in d.slots
    assert d.probability == _best_after(box, (0, 0, 3))
    sure = advise(dists, (2, 2, 3), 4, rerolls_left=2)
    assert sure.action == "confirm" and sure.probability == 1


def _best_after(box: DiceBox, showing: tuple[int, int, int]) -> Fraction:
    faces = face_values(box, ("R", "G", "B"))
    best = Fraction(1 if sum(showing) >= 4 else 0)
    for mask in range(1, 8):
        chosen = [i for i in range(3) if mask >> i & 1]
        outs = list(itertools.product(*(faces[i] for i in chosen)))
        hits = 0
        for combo in outs:
            new = list(showing)
            for i, v in zip(chosen, combo, strict=True):
                new[i] = v
            hits += sum(new) >= 4
        best = max(best, Fraction(hits, len(outs)))
    return best


def test_advise_takes_insanity_triumphs_at_confirm(box: DiceBox) -> None:
    dists = pool_dists(("R", "G", "B"), box)
    d = advise(dists, (1, 1, 1), 4, rerolls_left=0, insanity=InsanityBonuses(triumphs=1))
    assert d.action == "confirm" and d.use_insanity_triumphs and d.probability == 1
    d = advise(dists, (0, 0, 0), 4, rerolls_left=0, insanity=InsanityBonuses(reroll=True))
    assert d.action == "insanity_reroll" and d.slots == (0, 1, 2)


# --------------------------------------------------------------------------- distribution


@pytest.mark.parametrize("pool", POOLS_UP_TO_3, ids=lambda p: "".join(p))
def test_distribution_without_rerolls_is_the_enumeration(
    box: DiceBox, pool: tuple[str, ...]
) -> None:
    faces = face_values(box, pool)
    counts: dict[int, int] = {}
    for combo in itertools.product(*faces):
        counts[sum(combo)] = counts.get(sum(combo), 0) + 1
    total = sum(counts.values())
    expect = tuple((t + 1, Fraction(c, total)) for t, c in sorted(counts.items()))
    assert odds(pool, box, 3, bonus_triumphs=1).distribution == expect


@pytest.mark.parametrize("rerolls", [0, 1, 2])
@pytest.mark.parametrize("target", [0, 3, 5, 8])
def test_distribution_sums_to_one_and_matches_probability(
    box: DiceBox, rerolls: int, target: int
) -> None:
    res = odds(
        ("R", "G", "B"),
        box,
        target,
        rerolls=rerolls,
        bonus_triumphs=1,
        insanity=InsanityBonuses(reroll=True, triumphs=1),
    )
    assert sum(p for _, p in res.distribution) == 1
    assert res.at_least(target) == res.probability


def test_known_values(box: DiceBox) -> None:
    # Pinned exact values for the placeholder dice (R G B, target 4).
    assert odds(("R", "G", "B"), box, 4).probability == Fraction(3, 8)
    assert odds(("R", "G", "B"), box, 4, rerolls=1).probability == Fraction(45, 64)
    assert odds(("R", "G", "B"), box, 4, rerolls=2).probability == Fraction(15949, 18432)
    assert odds(("R", "G", "B"), box, 0).probability == 1
    assert odds(("R",), box, 3, rerolls=2).probability == 0


def test_icepool_agrees_without_rerolls(box: DiceBox) -> None:
    icepool = pytest.importorskip("icepool")
    for pool in POOLS_UP_TO_3:
        die = icepool.Die([0])
        for x in pool:
            die = die + icepool.Die([f.triumphs for f in box.die(x).faces])
        for target in TARGETS:
            p = Fraction(die.probability(">=", target))
            assert odds(pool, box, target).probability == p


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": -1}, "below 0"),
        ({"target": 1000}, "far beyond"),
        ({"rerolls": -1}, "Re-rolls"),
        ({"rerolls": 11}, "Re-rolls"),
        ({"bonus_triumphs": -2}, "bonus Triumphs"),
        ({"bonus_dice": ("B",) * 7}, "Bonus Dice"),
        ({"bonus_dice": ("Q",)}, "no 'Q' die"),
    ],
)
def test_odds_refuses_bad_input(box: DiceBox, kwargs: dict, message: str) -> None:
    args = {"target": 3, **kwargs}
    target = args.pop("target")
    with pytest.raises(DiceError, match=message):
        odds(("R", "G", "B"), box, target, **args)


def test_test_options_need_a_test_sized_pool(box: DiceBox) -> None:
    assert odds(("R", "R", "G", "B"), box, 5).probability > 0  # a plain roll is fine
    with pytest.raises(DiceError, match="3 dice"):
        odds(("R", "R", "G", "B"), box, 5, rerolls=1)
    with pytest.raises(DiceError, match="the box has 3"):
        odds(("R",) * 4, box, 5)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from(["R", "G", "B"]), min_size=1, max_size=3),
    st.integers(0, 10),
    st.integers(0, 2),
)
def test_more_rerolls_never_hurt(pool: list[str], target: int, rerolls: int) -> None:
    box = box_of(
        {
            "R": [(0, 0), (0, 1), (1, 0), (2, 0)],
            "G": [(0, 1), (1, 0), (2, 0)],
            "B": [(1, 0), (3, 0)],
        }
    )
    dists = pool_dists(pool, box)
    a = success_probability(dists, target, rerolls=rerolls)
    b = success_probability(dists, target, rerolls=rerolls + 1)
    assert 0 <= a <= b <= 1
