"""The one id/name matcher (blood_companion/matching.py) that every typed choice goes through."""

from __future__ import annotations

import pytest

from blood_companion.engine.errors import RuleError
from blood_companion.errors import BloodError
from blood_companion.matching import close_to, did_you_mean, find, match

HAND = [
    ("aurel-t01", "Crimson Swoop"),
    ("aurel-t09", "Rope Dance"),
    ("aurel-t10", "Rope Trick"),
    ("zora-t02", "Candle Ward"),
]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("aurel-t09", "aurel-t09"),  # the id
        ("AUREL-T09", "aurel-t09"),  # any case
        ("2", "aurel-t09"),  # a position, when allowed
        ("rope dance", "aurel-t09"),  # the name
        ("crim", "aurel-t01"),  # a unique prefix of a name
        ("zora", "zora-t02"),  # a unique prefix of an id
        ("t09", "aurel-t09"),  # a unique part of an id
        ("ward", "zora-t02"),  # a unique part of a name
    ],
)
def test_what_a_word_picks(typed: str, expected: str) -> None:
    assert find(typed, HAND, positions=True).id == expected
    assert match(typed, HAND, "card", positions=True) == expected


def test_positions_only_when_asked() -> None:
    assert find("3", HAND).id is None
    assert find("3", HAND, positions=True).id == "aurel-t10"
    assert find("7", HAND, positions=True).id is None  # no such position, nor any part


def test_ambiguous_words_name_the_candidates() -> None:
    found = find("rope", HAND)
    assert found.id is None and found.ambiguous == ("aurel-t09", "aurel-t10")
    with pytest.raises(BloodError) as info:
        match("rope", HAND, "card")
    assert "could be several cards" in info.value.message
    assert "aurel-t09, aurel-t10" in info.value.message


def test_a_small_typo_is_taken_a_larger_one_gets_did_you_mean() -> None:
    assert find("candel wrd", HAND).id == "zora-t02"  # two letters off: taken
    assert find("crimsn swoop", HAND).id == "aurel-t01"
    assert find("Röpe Dänce!", HAND).id == "aurel-t09"  # accents and punctuation ignored
    assert find("candel wrd", HAND, typos=False).id is None
    assert find("aurel-t11", HAND).id is None  # a word typed as an id is never a typo
    assert close_to("crimsn swoop", HAND) == ["aurel-t01"]
    with pytest.raises(RuleError) as info:
        match("kandel vard", HAND, "card", error=RuleError)
    assert info.value.message == "unknown card 'kandel vard'"
    assert info.value.hint is not None
    assert info.value.hint.startswith("did you mean 'zora-t02' (Candle Ward)?")
    assert "choices: aurel-t01" in info.value.hint


def test_a_typo_close_to_two_names_is_ambiguous() -> None:
    found = find("rope trance", HAND)  # as near Rope Dance as Rope Trick? no: Dance is nearer
    assert found.id == "aurel-t09"
    twins = [("a", "Castle Wolf"), ("b", "Castle Walf")]
    assert find("castle wilf", twins).ambiguous == ("a", "b")


def test_nothing_typed_or_nothing_close() -> None:
    with pytest.raises(BloodError, match="no card given"):
        match("  ", HAND, "card")
    with pytest.raises(BloodError) as info:
        match("xyzzy", HAND, "card")
    assert info.value.hint is not None and "did you mean" not in info.value.hint
    assert did_you_mean([]) == ""
