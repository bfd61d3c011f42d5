"""The chance generator is specified (engine/chance.py) and pinned here: a change to any of its
numbers changes every new campaign's draws. Recorded chance replays without the generator."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blood_companion.engine.chance import BloodRandom, Chance, ChanceMismatch, LegacyRandom


def test_first_words_follow_the_written_specification() -> None:
    g = BloodRandom(7, 3)
    words = [g.word() for _ in range(3)]
    spec = [
        int.from_bytes(
            hashlib.blake2b(f"7:3:{n}".encode(), digest_size=8, person=b"blood-rng-v1").digest(),
            "big",
        )
        for n in range(3)
    ]
    assert words == spec


def test_first_outputs_are_pinned() -> None:
    assert [BloodRandom(7, 3).word() for _ in range(1)] == [13723633136020834102]
    g = BloodRandom(7, 3)
    assert [g.word() for _ in range(3)] == [
        13723633136020834102,
        9149435183310324846,
        2987534728548484555,
    ]
    g = BloodRandom(0, 0)
    assert [g.randbelow(6) for _ in range(10)] == [4, 2, 2, 1, 5, 5, 3, 3, 0, 3]
    g = BloodRandom(42, 1)
    x = list(range(10))
    g.shuffle(x)
    assert x == [4, 6, 9, 3, 0, 8, 5, 7, 1, 2]
    g = BloodRandom(42, 2)
    assert g.sample(list("abcdefgh"), 3) == ["f", "h", "d"]
    assert g.choice("xyz") == "y"


def test_randbelow_is_unbiased_over_every_residue() -> None:
    g = BloodRandom(1, 1)
    counts = [0] * 7
    for _ in range(7000):
        counts[g.randbelow(7)] += 1
    assert all(800 < c < 1200 for c in counts)


@given(st.integers(), st.integers(0, 10_000), st.lists(st.text(max_size=3), max_size=20))
def test_recorded_chance_replays_without_the_generator(
    seed: int, step: int, items: list[str]
) -> None:
    fresh = Chance.fresh(seed, step)
    deck = list(items)
    fresh.shuffle(deck, "deck")
    drawn = fresh.sample(items, min(2, len(items)), "draw")
    face = fresh.randrange(6, "die:R")
    again = Chance.replay(fresh.outcomes)
    deck2 = list(items)
    again.shuffle(deck2, "deck")
    assert deck2 == deck
    assert again.sample(items, min(2, len(items)), "draw") == drawn
    assert again.randrange(6, "die:R") == face
    assert again.outcomes == fresh.outcomes and again.unused() == []


def test_replay_matches_by_label_not_by_call_order() -> None:
    fresh = Chance.fresh(5, 9)
    a = list("abcdef")
    fresh.shuffle(a, "reaction-deck")
    die = fresh.randrange(8, "die:B")
    replay = Chance.replay(fresh.outcomes)
    assert replay.randrange(8, "die:B") == die  # asked first now
    b = list("abcdef")
    replay.shuffle(b, "reaction-deck")
    assert b == a


def test_a_recorded_outcome_that_does_not_fit_is_refused() -> None:
    fresh = Chance.fresh(5, 9)
    fresh.shuffle(list("abc"), "deck")
    with pytest.raises(ChanceMismatch, match="other items"):
        Chance.replay(fresh.outcomes).shuffle(list("abd"), "deck")
    with pytest.raises(ChanceMismatch, match="no recorded"):
        Chance.replay(fresh.outcomes).randrange(6, "die:R")
    with pytest.raises(ChanceMismatch, match="out of range"):
        Chance.replay([{"k": "randrange", "l": "die:R", "v": 7}]).randrange(6, "die:R")


def test_legacy_generator_is_app_0_1_0s() -> None:
    old = random.Random("blood:11:4")
    legacy = LegacyRandom(11, 4)
    x, y = list(range(12)), list(range(12))
    old.shuffle(x)
    legacy.shuffle(y)
    assert x == y
    assert legacy.sample(list("abcdef"), 2) == old.sample(list("abcdef"), 2)
    assert legacy.randrange(8) == old.randrange(8)


def test_a_named_stream_of_a_step_is_its_own_and_stable() -> None:
    """`blood play` rolls a Test's dice from a stream of the step about to be recorded: never
    the numbers the step itself draws, and the same every time."""
    from blood_companion.engine.chance import BloodRandom

    def words(*key: object) -> list[int]:
        gen = BloodRandom(*key)  # type: ignore[arg-type]
        return [gen.word() for _ in range(3)]

    stream = words(7, 3, "play-throw-0")
    assert set(stream).isdisjoint(words(7, 3))
    assert stream == words(7, 3, "play-throw-0")
    assert set(stream).isdisjoint(words(7, 3, "play-throw-1"))
