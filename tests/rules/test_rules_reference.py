"""The rules reference covers the rulebook: every keyword, symbol, phase and listed topic.

Also checks the shape of every entry (section names are rulebook headings, related ids exist,
phases list their steps, plain ASCII for screen readers and pipes) and, when the rulebook is
next to the repository, that no entry copies a run of its sentences.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from blood_companion.rules.entry import KINDS, RuleEntry
from blood_companion.rules.index import RulesIndex, build_index
from blood_companion.rules.loader import load_entries

# Rules Compendium > Elements - Keywords (Discard N and Deplete are defined there too).
KEYWORDS = [
    "Step", "Run", "Fly", "Escape", "Push", "Attract", "Move",
    "Draw", "Discard", "Heal", "Deplete", "Rest", "Summon",
]  # fmt: skip
# Elements - Symbols.
SYMBOLS = ["wound", "bite", "exhausted"]
# Game Flow: the parts, the Day Part phases and their steps, the Night Part and each phase of
# the Game Turn in order (name -> entry id).
PHASES = {
    "Game Flow": "game-flow",
    "Day Part": "day-part",
    "Show": "show-phase",
    "Recovery": "recovery",
    "Purchases": "purchases",
    "Zone Selection": "zone-selection",
    "Minion Selection": "minion-selection",
    "Last Assault": "last-assault",
    "Nemesis Selection": "nemesis-selection",
    "Dusk": "dusk-phase",
    "Equipping": "equipping",
    "Night Part": "night-part",
    "Beginning of the Night": "beginning-of-the-night",
    "Game Turn": "game-turn",
    "Start of Turn": "start-of-turn",
    "Planning": "planning-phase",
    "Tactic": "tactic-phase",
    "Nemesis": "nemesis-phase",
    "Minions": "minions-phase",
    "Cleanup": "cleanup-phase",
    "End of the Night": "end-of-the-night",
}
TURN_ORDER = [
    "start-of-turn",
    "planning-phase",
    "tactic-phase",
    "nemesis-phase",
    "minions-phase",
    "cleanup-phase",
]
# Topics the issue lists (issue 8, point 1), each with the entry that answers it.
TOPICS = [
    "setup-players", "setup-playing-area", "test", "reroll", "bonus-dice", "bonus-triumphs",
    "insanity", "exhausted", "knocked-out", "effect", "reading-an-effect", "target", "cost",
    "condition", "outcome", "distance", "special-area", "path", "nemesis-target-priority",
    "nemesis-sides", "nemesis-movement", "wounds", "wounding-a-trouper", "wounding-a-nemesis",
    "wounding-a-minion", "minions", "threat", "event-effects", "event-cards", "item-cards",
    "using-items", "vigor-token", "whisper-and-trap-tokens", "game-modes", "roguelite-mode",
    "single-game-mode", "story-mode", "golden-rule", "leaders-rule",
    # printed gaps and contradictions the app had to decide
    "gap-tiles-per-zone", "gap-minion-type-names", "gap-defeat-symbols", "gap-insanity-reroll",
    "gap-location-die",
]  # fmt: skip
# Section headings of the alpha rulebook an entry may cite.
SECTIONS = {
    "Components", "Assembling Game Components", "Goal of the Game", "Golden Rule",
    "Leader Rule", "Game Mode Presentation", "Setup", "Player Setup", "Playing Area Setup",
    "Basics", "Effects", "Reading an Effect", "Game Flow", "Day Part Overview",
    "Night Part Overview", "Components Anatomy", "The Troupers", "Trouper Card", "Item Card",
    "Trouper Item Card", "Location Item Card and Nemesis Item Cards", "Tactic Card",
    "Starting Tactic Cards", "Advanced Tactic Cards",
    "Location Tactic Cards and Nemesis Tactic Cards", "Trouper Deck", "Trouper Board",
    "Trouper Tokens", "Whisper and Trap Token", "Event Token", "Exhausted Token", "Vigor Token",
    "Bite Token", "Enemies - Nemesis", "Nemesis Card", "Weakness Card", "Reaction Card",
    "Reaction Card - Vlad", "Nemesis Deck", "Enemies - Minions", "Minion Card", "Zones", "Tiles",
    "Location Cards", "Event Cards", "Scenic Elements", "Other Components", "Dice", "Cubes",
    "Night Board", "Village Card", "Wagon", "Game Modes", "Roguelite Mode", "Story Mode",
    "Single Game Mode", "Day Part", "Show Phase", "Purchasing Tactic Cards and Item Cards",
    "Resources", "Purchasing a Tactic Card", "Replacing a Tactic Card", "Purchasing an Item Card",
    "Replacing an Item Card", "Dusk Phase", "Night Part", "Beginning of the Night", "Game Turns",
    "Start of Turn", "Planning Phase", "Cascade", "Block", "Rest", "Tactic Phase",
    "Nemesis Phase", "Minions Phase", "Cleanup Phase", "Exhausted and Knocked Out",
    "End of the Night", "The Players Were Defeated", "The Players Won", "Rules Compendium",
    "Elements", "Elements - Keywords", "Step N", "Run", "Fly", "Impassability", "Escape N",
    "Push N", "Attract N", "Move N", "Draw N", "Discard N", "Heal N", "Deplete", "Summon",
    "Elements - Symbols", "Tests", "Re-rolling the Dice", "Bonus Triumphs", "Bonus Dice",
    "Insanity", "Types of Effects", "Standard Effect", "Aura Effect", "Support Effect",
    "Repetition", "Quick Effects", "Reading the Elements", "Reading the Elements of a Target",
    "Reading the Elements of a Cost", "Reading the Elements of a Condition",
    "Reading the Elements of an Outcome", "Attacks and Defenses", "Reading Special Areas", "Path",
    "Resolving the Effects", "Nemesis Sides and Weaknesses", "Targeting a Nemesis",
    "Nemesis Weaknesses", "Nemesis Movement", "Wounds", "Wounding a Trouper",
    "Wounding a Nemesis", "Wounding a Minion", "Minions", "Threat", "Events", "Event Effects",
    "Use of Items and Tokens", "Using an Item", "Using a Vigor Token",
    "Placing a Trap or Whisper Token",
}  # fmt: skip
# Beside the repository (../shared/rulebook), looked for above it (a worktree sits deeper).
_BOOK = Path("shared") / "rulebook" / "blood-rulebook-alpha.txt"
RULEBOOK = next((p / _BOOK for p in Path(__file__).resolve().parents[3:] if (p / _BOOK).exists()),
                Path(__file__).resolve().parents[3] / _BOOK)


@pytest.fixture(scope="module")
def entries() -> list[RuleEntry]:
    return load_entries()


@pytest.fixture(scope="module")
def index(entries: list[RuleEntry]) -> RulesIndex:
    return RulesIndex(build_index(entries))


@pytest.mark.parametrize("name", KEYWORDS)
def test_every_keyword_has_an_entry(index: RulesIndex, name: str) -> None:
    entry = index.find(name, ("keyword",))
    assert entry is not None, f"no keyword entry for {name}"
    assert entry.title.split()[0] == name
    assert entry.section in ("Elements - Keywords", f"{name} N", name)


@pytest.mark.parametrize("name", SYMBOLS)
def test_every_symbol_has_an_entry(index: RulesIndex, name: str) -> None:
    entry = index.find(name, ("symbol",))
    assert entry is not None and entry.kind == "symbol"
    assert name in entry.title.lower()


@pytest.mark.parametrize(("name", "ident"), sorted(PHASES.items()))
def test_every_phase_has_an_entry(index: RulesIndex, name: str, ident: str) -> None:
    entry = index.find(name, ("phase",))
    assert entry is not None and entry.id == ident


def test_turn_phases_are_listed_in_order(index: RulesIndex) -> None:
    turn = index.by_id["game-turn"]
    assert len(turn.steps) == len(TURN_ORDER)
    for step, ident in zip(turn.steps, TURN_ORDER, strict=True):
        title = index.by_id[ident].title
        assert step.lower().startswith(title.lower()), (step, title)
    assert turn.related[: len(TURN_ORDER)] == TURN_ORDER


def test_procedures_have_their_printed_number_of_steps(index: RulesIndex) -> None:
    assert len(index.by_id["test"].steps) == 7  # Tests: the seven steps
    assert len(index.by_id["cleanup-phase"].steps) == 10
    assert len(index.by_id["show-phase"].steps) == 6
    assert len(index.by_id["beginning-of-the-night"].steps) == 3
    assert len(index.by_id["event-effects"].steps) == 4
    assert len(index.by_id["wounding-a-nemesis"].steps) >= 3


@pytest.mark.parametrize("ident", TOPICS)
def test_every_listed_topic_has_an_entry(index: RulesIndex, ident: str) -> None:
    assert ident in index.by_id


def test_entries_are_well_formed(entries: list[RuleEntry]) -> None:
    ids = [e.id for e in entries]
    assert len(ids) == len(set(ids))
    titles = [e.title.lower() for e in entries]
    assert len(titles) == len(set(titles)), "two entries share a title"
    for e in entries:
        assert e.kind in KINDS
        assert e.source == "rulebook"
        assert e.section in SECTIONS, f"{e.id}: {e.section!r} is not a rulebook section"
        assert e.related, f"{e.id}: lists no related entries"
        assert e.text.isascii() and all(s.isascii() for s in e.steps), e.id
        if e.kind == "phase" and e.id not in PHASES.values():
            pytest.fail(f"{e.id}: phase entry not covered by the PHASES table")
    for ident in PHASES.values():
        assert any(e.id == ident for e in entries)


def test_phases_with_steps(entries: list[RuleEntry]) -> None:
    with_steps = {e.id for e in entries if e.steps}
    for ident in ("day-part", "show-phase", "dusk-phase", "night-part", "game-turn",
                  "planning-phase", "tactic-phase", "nemesis-phase", "minions-phase",
                  "cleanup-phase", "end-of-the-night", "rest", "summon"):  # fmt: skip
        assert ident in with_steps, ident


def test_every_gap_states_the_choice(entries: list[RuleEntry]) -> None:
    gaps = [e for e in entries if e.kind == "gap"]
    assert len(gaps) >= 10
    for e in gaps:
        assert e.decision and e.decision_link, f"{e.id}: a gap entry says what the app does"


def _anchors(markdown: str) -> set[str]:
    # GitHub's heading ids: lower case, punctuation dropped, spaces to dashes.
    found = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^a-z0-9 -]", "", title).replace(" ", "-"))
    return found


def test_the_rulebook_part_never_speaks_for_the_app(entries: list[RuleEntry]) -> None:
    # The text and steps are the rulebook's rule in our words; what the app decided is the
    # `decision`, shown apart and linked to docs/rules-decisions.md (issue 43).
    app = re.compile(r"\b(app|app's|placeholders?)\b", re.I)
    speaking = [e.id for e in entries for t in [e.text, *e.steps] if app.search(t)]
    assert not speaking, f"move the app's choice to `decision`: {speaking}"


def test_every_decision_links_to_its_heading(entries: list[RuleEntry]) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules-decisions.md").read_text(
        encoding="utf-8")
    anchors = _anchors(doc)
    decided = [e for e in entries if e.decision]
    assert len(decided) >= 30
    for e in decided:
        page, _, anchor = e.decision_link.partition("#")
        assert page == "docs/rules-decisions.md" and anchor in anchors, (e.id, e.decision_link)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not next to the repository")
def test_entries_are_written_in_our_own_words(entries: list[RuleEntry]) -> None:
    # No run of 8 words taken from the rulebook, except inventories of counted components
    # ("12 Starting Tactic Cards, 6 Trouper Item Cards"), which cannot be said otherwise.
    n = 8
    book = _words(RULEBOOK.read_text(encoding="utf-8"))
    grams = {tuple(book[i : i + n]) for i in range(len(book) - n + 1)}
    copied = []
    for e in entries:
        for text in [e.text, *e.steps, e.decision]:
            w = _words(text)
            for i in range(len(w) - n + 1):
                gram = tuple(w[i : i + n])
                if gram in grams and sum(t.isdigit() for t in gram) < 2:
                    copied.append(f"{e.id}: {' '.join(gram)}")
    assert not copied, copied[:10]


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not next to the repository")
def test_every_cited_section_is_a_heading_of_the_rulebook(entries: list[RuleEntry]) -> None:
    lines = {line.strip() for line in RULEBOOK.read_text(encoding="utf-8").splitlines()}
    missing = sorted({e.section for e in entries} - lines)
    assert not missing, missing
