"""Questions players ask at the table, in their own words, each answered by the rule that
sets it (issue 43: "how many dice can I re-roll" was answered with an Insanity note).

For each question: the entry that must come first, the rulebook section it cites (a heading of
the alpha rulebook, checked against the book when it is beside the repository), and the words
of the answer that carry the count, limit or cost the question asks about. The answers were
checked by hand against those sections of the rulebook.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from blood_companion.rules.index import RulesIndex, build_index
from blood_companion.rules.loader import load_entries

# (question as a player asks it, entry first, its rulebook section, words the answer says)
TABLE = [
    ("how many dice can I reroll", "reroll", "Re-rolling the Dice", "any number of the dice"),
    ("can I reroll twice", "reroll", "Re-rolling the Dice", "several Re-rolls on the same Test"),
    ("what happens when the Nemesis deck runs out", "nemesis-deck", "Nemesis Deck",
     "Discard Pile is shuffled into a new deck"),
    ("can I use the Sanatorium twice", "sanatorium", "Village Card",
     "as often as they like, paying the cost each time"),
    ("what does it cost to remove a bite", "sanatorium", "Village Card", "costs 1 Resource"),
    ("how much does the hunting house cost", "hunting-house", "Village Card", "costs 6 Resources"),
    ("when do minions activate", "minions-phase", "Minions Phase", "Phase 5 of a Game Turn"),
    ("what does push do", "push", "Push N", "same straight line"),
    ("how far can push move a miniature", "push", "Push N", "up to N times"),
    ("how many times can I rest", "rest", "Rest", "at most once per Game Turn"),
    ("do I have to rest with one card left", "rest", "Rest", "must Rest if they hold only one"),
    ("how many cards do I draw at the start of the night", "beginning-of-the-night",
     "Beginning of the Night", "a hand of five"),
    ("how many wounds before I'm knocked out", "knocked-out", "Exhausted and Knocked Out",
     "8 or more Wounds"),
    ("can a knocked out trouper use bonus triumphs", "knocked-out", "Exhausted and Knocked Out",
     "cannot use Bonus Dice, Bonus Triumphs or Re-rolls"),
    ("how many items can I equip", "equipping", "Dusk Phase", "picks three Item Cards"),
    ("how many vigor tokens do we get", "vigor-token", "Using a Vigor Token", "6 Vigor Tokens"),
    ("how many bites can I take", "bite", "Elements - Symbols",
     "If every Vigor Token already carries a Bite, the new Bite is not placed"),
    ("what if I can't pay the cost", "cost", "Reading the Elements of a Cost",
     "the Effect does not resolve"),
    ("how many bonus dice can I use", "bonus-dice", "Bonus Dice",
     "may replace one of the Test's dice"),
    ("how many dice do I roll for a test", "test", "Tests", "a roll of three dice"),
    ("can I use an item twice in a turn", "using-items", "Using an Item",
     "cannot be used again until the Cleanup Phase"),
    ("can I use a support card twice", "support-effect", "Support Effect",
     "cannot be used again this turn"),
    ("when does threat go back to the start", "threat", "Threat", "in every Cleanup Phase"),
    ("how many cards in my deck", "trouper-deck", "Trouper Deck", "a deck of 12 Tactic Cards"),
    ("how many event cards go on the chain", "event-cards", "Event Cards",
     "as many as the Nemesis's Influence"),
    ("my deck is empty and I have to draw", "draw", "Draw N", "shuffle your Discard Pile"),
    ("how do we win the night", "winning-and-losing", "Wounding a Nemesis",
     "on each of the sides it lists"),
    ("what bonuses does the insanity track give", "insanity", "Insanity",
     "Re-roll 1, one Bonus Triumph or two Bonus Triumphs"),
    ("how many reaction cards does a nemesis have", "nemesis-deck", "Nemesis Deck",
     "The 12 Reaction Cards"),
    ("in what order does the nemesis resolve its cards", "nemesis-phase", "Nemesis Phase",
     "starting with the rightmost and moving left"),
    ("what if there is no room to summon a minion", "summon", "Summon",
     "If no Minion space is free on the Night Board, the Effect does nothing"),
    ("how many wounds does the nemesis need", "wounding-a-nemesis", "Wounding a Nemesis",
     "the number of Wounds its card lists for the Difficulty Level"),
    ("what happens when a trouper's deck runs out and they take a wound", "wounding-a-trouper",
     "Wounding a Trouper", "shuffle the Discard Pile into a new deck first"),
    ("how many wounds can a minion take", "wounding-a-minion", "Wounding a Minion",
     "One Wound defeats a Minion"),
    ("how many cards can I play with cascade", "cascade", "Cascade",
     "If that card has Cascade too, they may keep going"),
]  # fmt: skip

_HERE = Path(__file__).resolve()
RULEBOOK = next((p / "shared" / "rulebook" / "blood-rulebook-alpha.txt" for p in _HERE.parents
                 if (p / "shared" / "rulebook" / "blood-rulebook-alpha.txt").exists()), None)


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex(build_index(load_entries()))


def test_at_least_twenty_questions() -> None:
    assert len(TABLE) >= 20
    assert len({q for q, *_ in TABLE}) == len(TABLE)


@pytest.mark.parametrize(("question", "expected", "section", "says"), TABLE)
def test_the_rule_that_sets_it_comes_first(
    index: RulesIndex, question: str, expected: str, section: str, says: str
) -> None:
    results = index.search(question, limit=3)
    top = [e.id for e, _ in results]
    assert top and top[0] == expected, f"{question!r}: got {top}"
    first = results[0][0]
    assert first.section == section, f"{question!r}: cites {first.section!r}"
    answer = " ".join([first.text, *first.steps])
    assert says in answer, f"{question!r}: the answer does not say {says!r}"


@pytest.mark.skipif(RULEBOOK is None, reason="the rulebook is not beside the repository")
def test_every_cited_section_is_a_rulebook_heading() -> None:
    assert RULEBOOK is not None
    lines = {line.strip() for line in RULEBOOK.read_text(encoding="utf-8").splitlines()}
    missing = sorted({section for _, _, section, _ in TABLE} - lines)
    assert not missing, missing
