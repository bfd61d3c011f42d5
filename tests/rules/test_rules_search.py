"""Search quality: real questions asked at the table, each with the entry that must come first.

Runs against the shipped reference (installed ``blood_companion/_data`` or the checkout's
``data/``); the index is built into a temporary cache folder.
"""

from __future__ import annotations

import pytest

from blood_companion.rules.index import RulesIndex, build_index
from blood_companion.rules.loader import load_entries

# (question as typed, id that must rank first)
QUESTIONS = [
    ("how does push work", "push"),
    ("pushing", "push"),
    ("what happens in cleanup", "cleanup-phase"),
    ("what does exhausted do to my test", "exhausted"),
    ("exausted", "exhausted"),
    ("exhausted test", "exhausted"),
    ("can I rest twice", "rest"),
    ("how many cards do I draw when my deck is empty", "draw"),
    ("what happens when I get bitten", "bite"),
    ("can I move through scenery", "impassable-tiles"),
    ("fly over impassable tiles", "fly"),
    ("who decides when we disagree", "leaders-rule"),
    ("card says something different from the rulebook", "golden-rule"),
    ("how do I reroll", "reroll"),
    ("re-roll dice", "reroll"),
    ("bonus dice", "bonus-dice"),
    ("bonus triumph", "bonus-triumphs"),
    ("insanity bonus", "insanity"),
    ("what happens when I fail a test", "insanity"),
    ("knocked out", "knocked-out"),
    ("how many wounds until knocked out", "knocked-out"),
    ("what order are the phases of a turn", "game-turn"),
    ("planning phase", "planning-phase"),
    ("who plays first", "leader-token"),
    ("when does the nemesis react", "alert-space"),
    ("interruption card", "interruption"),
    ("nemesis phase order right to left", "nemesis-phase"),
    ("in what order do minions activate", "minions-phase"),
    ("summon minion", "summon"),
    ("how do I wound the nemesis", "wounding-a-nemesis"),
    ("which side of the nemesis do I hit", "nemesis-sides"),
    ("how does the nemesis move", "nemesis-movement"),
    ("what does fatigue do", "fatigue"),
    ("how does threat work", "threat"),
    ("what is a support effect", "support-effect"),
    ("quick effect", "quick-effect"),
    ("aura", "aura-effect"),
    ("what is a special area", "special-area"),
    ("distance 0-1", "distance"),
    ("who does the nemesis target", "nemesis-target-priority"),
    ("sacrifice", "sacrifice"),
    ("can I skip an effect on my card", "reading-an-effect"),
    ("heal wounds", "heal"),
    ("how do I remove a bite", "sanatorium"),
    ("what happens at dusk", "dusk-phase"),
    ("show phase steps", "show-phase"),
    ("which die for the location", "gap-location-die"),
    ("19 or 21 tiles", "gap-tiles-per-zone"),
    ("abomination", "minion-types"),
    ("do defeats cancel triumphs", "gap-defeat-symbols"),
    ("rewards for winning the night", "victory-rewards"),
    ("we lost the night", "defeat-roll"),
    ("deplete item", "using-items"),
    ("vigor token", "vigor-token"),
    ("trap token", "whisper-and-trap-tokens"),
    ("event card effect", "event-effects"),
    ("cascade", "cascade"),
    ("attract", "attract"),
    ("escape", "escape"),
    ("how far can I step", "step"),
    ("step 2", "step"),
    ("roguelite", "roguelite-mode"),
    ("single game", "single-game-mode"),
    ("seven steps of a test", "test"),
    ("physical defense", "attacks-and-defenses"),
    ("discard", "discard"),
    ("summoning", "summon"),
    ("wepon tool artifact", "item-cards"),
    ("vlad weakened side", "vlad-reaction-cards"),
    ("how does the night start", "beginning-of-the-night"),
    ("what if my deck runs out", "draw"),
    ("when does the leader token pass", "leader-token"),
    ("what is the chain", "chain"),
    ("can I use an item outside my turn", "using-items"),
    ("what happens if all vigor tokens are bitten", "bite"),
    ("where do summoned minions go", "summon"),
    ("minion defeated", "wounding-a-minion"),
    ("how do I win", "winning-and-losing"),
    ("what does the check symbol do", "check-cards"),
    ("how do I choose difficulty", "difficulty-level"),
    ("how do I buy tactic cards", "purchasing-tactic-cards"),
    ("swap tactic cards", "replacing-tactic-cards"),
    ("upgrade an item", "upgrading-items"),
    ("can I give my cards to another player", "personal-reserve"),
    ("what is an intersection", "nemesis-sides"),
    ("how do weaknesses work", "weakness-cards"),
    ("pull an enemy towards me", "attract"),
    ("can a knocked out trouper reroll", "knocked-out"),
    ("how many tiles per zone", "gap-tiles-per-zone"),
    ("what happens in the show phase", "show-phase"),
    ("when is threat reset", "threat"),
    ("plannig phase", "planning-phase"),
    ("clenaup", "cleanup-phase"),
    ("nemisis", "nemesis"),
    ("summonning", "summon"),
    ("atract", "attract"),
    ("which dice do I roll for strength", "test"),
    ("everyone is knocked out", "gap-all-knocked-out"),
    ("what is N", "elements"),
    ("how many cards do i draw at the start", "beginning-of-the-night"),
    ("can i attack the nemesis from behind", "nemesis-sides"),
    ("what's the difference between push and move", "push"),
    ("can i play two cards", "cascade"),
    ("what happens when the threat token reaches an alert space", "alert-space"),
]


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex(build_index(load_entries()))


def test_at_least_forty_questions() -> None:
    assert len(QUESTIONS) >= 40
    assert len({q for q, _ in QUESTIONS}) == len(QUESTIONS)


@pytest.mark.parametrize(("question", "expected"), QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_best_answer_first(index: RulesIndex, question: str, expected: str) -> None:
    assert expected in index.by_id, f"the table names an unknown entry {expected!r}"
    results = index.search(question, limit=5)
    top = [e.id for e, _ in results]
    assert top and top[0] == expected, f"{question!r}: got {top}"


def test_nonsense_finds_nothing(index: RulesIndex) -> None:
    assert index.search("zzzxq qqqvv", limit=5) == []


def test_scores_are_best_first(index: RulesIndex) -> None:
    scores = [s for _, s in index.search("nemesis wound side", limit=10)]
    assert scores == sorted(scores, reverse=True)


def test_kind_filter(index: RulesIndex) -> None:
    results = index.search("exhausted", limit=10, kinds=("gap",))
    assert results and all(e.kind == "gap" for e, _ in results)
