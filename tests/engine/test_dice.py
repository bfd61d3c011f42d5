"""Dice: pool notation, seeded rolling, typed-in faces (unit and property tests)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from dice_boxes import box_of
from hypothesis import given, settings
from hypothesis import strategies as st

from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import (
    MAX_POOL_DICE,
    DiceBox,
    Face,
    check_pool,
    format_face,
    format_faces,
    format_pool,
    parse_faces,
    parse_pool,
    roll_pool,
    triumph_total,
)
from blood_companion.engine.errors import DiceError, RuleError
from blood_companion.errors import BloodError

letters = st.sampled_from(["R", "G", "B"])
pools = st.lists(letters, min_size=1, max_size=9)


# --------------------------------------------------------------------------- pool notation


@pytest.mark.parametrize(
    ("text", "pool"),
    [
        ("R G B", ("R", "G", "B")),
        ("2R B", ("R", "R", "B")),
        ("3B", ("B", "B", "B")),
        ("RGB", ("R", "G", "B")),
        ("rgb", ("R", "G", "B")),
        ("2B R", ("B", "B", "R")),
        ("2 B", ("B", "B")),
        ("R,G,B", ("R", "G", "B")),
        ("R+2G", ("R", "G", "G")),
        ("2RB", ("R", "R", "B")),
        ("  G  ", ("G",)),
        ("2 black, red", ("B", "B", "R")),
        ("Grey gray", ("G", "G")),
    ],
)
def test_parse_pool_accepts_the_quick_notation(text: str, pool: tuple[str, ...]) -> None:
    assert parse_pool(text) == pool


@pytest.mark.parametrize(
    "text",
    ["", "   ", "X", "R Y", "2", "0R", "-2R", "R -1G", "2.5R", "blue", "R/G", "31R", "999999B"],
)
def test_parse_pool_refuses_bad_pools(text: str) -> None:
    with pytest.raises(DiceError) as info:
        parse_pool(text)
    assert info.value.message  # a clear message, not a traceback
    assert info.value.exit_code == 1


def test_pool_errors_are_rule_errors_with_exit_code_1() -> None:
    with pytest.raises(RuleError):
        parse_pool("Q")
    assert issubclass(DiceError, BloodError)


def test_parse_pool_refuses_more_dice_than_the_box_holds(box: DiceBox) -> None:
    assert parse_pool("3R 3G 3B", box) == ("R",) * 3 + ("G",) * 3 + ("B",) * 3
    with pytest.raises(DiceError, match="the box has 3"):
        parse_pool("4R", box)
    with pytest.raises(DiceError, match="the box has 3"):
        parse_pool("2B R 2B", box)


def test_parse_pool_caps_the_total(box: DiceBox) -> None:
    with pytest.raises(DiceError, match="at most 3"):
        parse_pool("R G B R", box, max_dice=3)
    assert len(parse_pool(f"{MAX_POOL_DICE}R")) == MAX_POOL_DICE


def test_a_box_without_a_die_refuses_it() -> None:
    reds = box_of({"R": [(0, 0), (1, 0)]})
    with pytest.raises(DiceError, match="unknown die"):
        parse_pool("R B", reds)
    with pytest.raises(DiceError, match="no 'B' die"):
        reds.die("B")


def test_check_pool_refuses_empty_and_unknown() -> None:
    with pytest.raises(DiceError):
        check_pool(())
    with pytest.raises(DiceError):
        check_pool(("R", "Z"))


@given(pools)
def test_format_then_parse_is_identity(pool: list[str]) -> None:
    assert parse_pool(format_pool(pool)) == tuple(pool)


@st.composite
def written_pools(draw: st.DrawFn) -> tuple[str, tuple[str, ...]]:
    """A pool written the many ways players type it, and the pool it means."""
    parts: list[str] = []
    pool: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        letter = draw(letters)
        count = draw(st.integers(1, 4))
        word = draw(
            st.sampled_from(
                [letter, letter.lower(), {"R": "red", "G": "grey", "B": "black"}[letter]]
            )
        )
        if count == 1 and draw(st.booleans()):
            parts.append(word)
        else:
            parts.append(f"{count}{draw(st.sampled_from(['', ' ']))}{word}")
        pool.extend([letter] * count)
    seps = st.sampled_from([" ", "  ", ", ", "+", " + ", ","])
    text = parts[0]
    for p in parts[1:]:
        text += draw(seps) + p
    return text, tuple(pool)


@given(written_pools())
def test_parse_pool_reads_every_spelling(case: tuple[str, tuple[str, ...]]) -> None:
    text, pool = case
    assert parse_pool(text) == pool


@given(st.text(max_size=20))
def test_parse_pool_never_crashes(text: str) -> None:
    try:
        pool = parse_pool(text)
    except DiceError as exc:
        assert exc.message
    else:
        assert 1 <= len(pool) <= MAX_POOL_DICE
        assert set(pool) <= {"R", "G", "B"}


# --------------------------------------------------------------------------- rolling


@given(pools, st.integers(min_value=0, max_value=2**32))
def test_roll_is_seeded_and_shows_faces_of_each_die(pool: list[str], seed: int) -> None:
    box = box_of(
        {"R": [(0, 0), (0, 1), (1, 0), (2, 0)], "G": [(0, 1), (1, 0), (2, 0)], "B": [(3, 0)]}
    )
    first = roll_pool(pool, box, Chance.fresh(seed, 0))
    again = roll_pool(pool, box, Chance.fresh(seed, 0))
    assert first == again
    assert [f.die for f in first] == pool
    for f in first:
        assert f in box.die(f.die).faces


@settings(max_examples=25)
@given(st.integers(min_value=0, max_value=2**32))
def test_roll_uses_only_the_given_generator(seed: int) -> None:
    box = box_of({"B": [(i, 0) for i in range(8)]})
    random.seed(1)
    a = roll_pool(["B"] * 3, box, Chance.fresh(seed, 0))
    random.seed(2)
    b = roll_pool(["B"] * 3, box, Chance.fresh(seed, 0))
    assert a == b


def test_roll_covers_every_face_evenly(box: DiceBox) -> None:
    rng = Chance.fresh(7, 0)
    seen = Counter(roll_pool(["B"], box, rng)[0].label for _ in range(8000))
    assert set(seen) == {f.label for f in box.die("B").faces}
    assert all(800 < n < 1200 for n in seen.values())


def test_triumph_total(box: DiceBox) -> None:
    faces = parse_faces("2 x 3", ("R", "G", "B"), box)
    assert triumph_total(faces) == 5
    assert triumph_total(faces, defeats_cancel=True) == 4
    assert triumph_total(parse_faces("x x x", ("R", "G", "B"), box), defeats_cancel=True) == 0


# --------------------------------------------------------------------------- physical entry


def test_parse_faces_in_pool_order(box: DiceBox) -> None:
    faces = parse_faces("2 x 3", ("R", "G", "B"), box)
    assert [(f.die, f.triumphs, f.defeats) for f in faces] == [
        ("R", 2, 0),
        ("G", 0, 1),
        ("B", 3, 0),
    ]
    assert faces[2].label == "B-triple"


def test_parse_faces_by_die_letter_in_any_order(box: DiceBox) -> None:
    pool = ("R", "G", "B")
    expect = parse_faces("2 x 3", pool, box)
    assert parse_faces("B3 R2 Gx", pool, box) == expect
    assert parse_faces("b:3, r:2, g:0/1", pool, box) == expect
    assert parse_faces("B:B-triple R:2 G:G-defeat", pool, box) == expect


def test_parse_faces_by_label(box: DiceBox) -> None:
    faces = parse_faces("R-double g-defeat B-TRIPLE", ("R", "G", "B"), box)
    assert [f.label for f in faces] == ["R-double", "G-defeat", "B-triple"]


def test_prefixed_entries_fill_same_colour_dice_in_order(box: DiceBox) -> None:
    faces = parse_faces("B1 R0 B3", ("B", "R", "B"), box)
    assert [f.triumphs for f in faces] == [1, 0, 3]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2 x", "2 face"),
        ("2 x 3 1", "4 face"),
        ("3 1 1", "Red Die has no face"),  # the placeholder Red die tops out at 2
        ("2 1 x/", "cannot read"),
        ("2 1 4", "Black Die has no face"),
        ("B3 R2 x", "every face entry names its die"),
        ("B3 B2 R1", "no more of those"),
        ("xx 1 1", "Red Die has no face"),
        ("1/1 1 1", "no face"),
    ],
)
def test_parse_faces_refuses_faces_the_die_lacks(box: DiceBox, text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message) as info:
        parse_faces(text, ("R", "G", "B"), box)
    assert info.value.exit_code == 1


def test_parse_faces_hint_lists_the_faces(box: DiceBox) -> None:
    with pytest.raises(DiceError) as info:
        parse_faces("3 1 1", ("R", "G", "B"), box)
    assert info.value.hint == "its faces are 0, x, 1, 2"


def _all_faces(box: DiceBox, pool: list[str]) -> st.SearchStrategy[tuple[Face, ...]]:
    return st.tuples(*(st.sampled_from(box.die(x).faces) for x in pool))


@given(st.data(), st.lists(letters, min_size=1, max_size=3))
def test_format_faces_then_parse_keeps_the_counts(
    box: DiceBox, data: st.DataObject, pool: list[str]
) -> None:
    faces = data.draw(_all_faces(box, pool))
    back = parse_faces(format_faces(faces), pool, box)
    assert [(f.die, f.counts) for f in back] == [(f.die, f.counts) for f in faces]
    prefixed = [f"{f.die}{format_face(f)}" for f in faces]
    shuffled = data.draw(st.permutations(prefixed))
    back2 = parse_faces(" ".join(shuffled), pool, box)
    assert Counter((f.die, f.counts) for f in back2) == Counter((f.die, f.counts) for f in faces)
    labels = parse_faces(" ".join(str(f.label) for f in faces), pool, box)
    assert labels == faces
