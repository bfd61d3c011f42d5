"""Read an Effect typed as printed into the structured :class:`~.models.Effect`.

The inverse of ``render.py``: ``parse_effect(render_effect(e)) == e`` for every Effect (the
round trip is a property test over the shipped data and generated Effects). It also accepts the
ways the rulebook itself writes Effects ("Reading an Effect", "Reading the Elements of a
Target / Cost / Condition / Outcome", "Reading Special Areas"), so an owner can type a card as
it reads::

    Target: Enemy (Distance 0-3). Condition: 2+ Bites. Cost: Deplete 1 Vigor.
    Outcome: Physical Attack, Physical Attack (Dexterity / Cunning).

The shape, section by section (each ends with a full stop; the order is free)::

    [Support|Aura|Quick|Sacrifice - ][Name - ][When wounded|At the Beginning of ...:]
    Target: [every ][Beast ]Enemy (Distance 0-1 | any distance | Special Area 0,0 1,0; closest then
            fewest Bites).
    Cost: Deplete 1 Vigor, Discard 1 Tactic card, Discard 1 Bite, Sacrifice, Deplete this Item.
    Condition: 2+ Bites | fewer than 3 cards in hand | 3+ Wounds | Exhausted | Insanity 2+ |
               Threat 4+ | any words.
    Outcome: Step 2, Run, 2x Wound, Bite, Physical Attack, +1 Threat, Re-roll 1, +Grey die,
             "words the app cannot structure" (Strength / Dexterity 5).
    On a failure: Wound.
    Repeat x2.
    A descriptive note (anything after the sections).

or, for words the app cannot structure at all, ``Free text: the Effect as printed``.

Pure code: no I/O, no CLI. A text that cannot be read raises :class:`EffectSyntaxError` naming
the word, its column and, where one is close, a suggestion.
"""


from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pydantic import ValidationError

from blood_companion.content import models as m
from blood_companion.content.render import (
    CONDITION_NAMES,
    COST_NAMES,
    DIE_NAMES,
    EVERY_NAMES,
    OUTCOME_FORMS,
    PRIORITY_NAMES,
    TIMING_NAMES,
    counted,
    render_outcome,
)

# --------------------------------------------------------------------------- vocabulary
# The words are render.py's tables read backwards, with the other ways the rulebook and owners
# write them.

TYPES = ("standard", "aura", "support", "quick")
SYMBOL_WORDS = "quick|sacrifice|support|aura"  # printed in front of an Effect
TIMINGS: dict[str, str] = {v.casefold(): k for k, v in TIMING_NAMES.items()} | {
    "at the beginning of the night": "beginning_of_night",
    "at the beginning of the turn": "beginning_of_turn",
    "at the beginning of each turn": "beginning_of_turn",
    "at the beginning of the cleanup phase": "beginning_of_cleanup", "when wounded": "on_wound",
    "when this suffers a wound": "on_wound", "always": "always",
}
LABELS = {
    "target": "Target", "cost": "Cost", "condition": "Condition", "outcome": "Outcome",
    "on a failure": "On a failure", "on failure": "On a failure", "free text": "Free text",
}
SECTION_NAMES = [*dict.fromkeys(LABELS.values()), "Repeat"]
EXPECTED_SECTIONS = "'Target:', 'Cost:', 'Condition:', 'Outcome:'"
CARD_SYMBOLS = {s: f"the {s.capitalize()} symbol" for s in ("cascade", "block", "interruption",
                                                             "check")}

TARGET_KINDS = {
    "self": "self", "trouper": "trouper", "troupers": "troupers_all", "enemy": "enemy",
    "enemies": "enemy", "nemesis": "nemesis", "minion": "minion", "minions": "minion",
    "tile": "tile", "event": "event",
}
# "every/each/all" before a Trouper, Minion or Enemy: each one the Target reaches.
EVERY_KINDS = {v.casefold(): k for k, v in EVERY_NAMES.items()} | {"enemie": "enemies_all"}
MINION_TYPE_WORDS = {t: t for t in m.MINION_TYPES} | {"abomination": "aberration"}
PRIORITIES: dict[str, str] = {v.casefold(): k for k, v in PRIORITY_NAMES.items()} | {
    # the rulebook's own short forms ("Target: Trouper (Distance ∞, Bites -X)")
    "bites -x": "fewest_bites", "bites +x": "most_bites", "wounds -x": "fewest_wounds",
    "wounds +x": "most_wounds", "least bites": "fewest_bites", "least wounds": "fewest_wounds",
    "nearest": "closest", "exhausted": "exhausted", "not exhausted": "not_exhausted",
}
DIE_COLOURS = {v.casefold(): k for k, v in DIE_NAMES.items()} | {"gray": "G"}
RESOURCE_WORDS: dict[str, str | None] = {w: r for r in m.RESOURCES for w in (r[:-1], r)} | {
    "resource": None, "resources": None,
}
# What an Outcome Element may look like (for suggestions).
ELEMENT_EXAMPLES = [
    "Step 1", "Run", "Fly", "Escape 1", "Push 1", "Attract 1", "Move 1", "Draw 1", "Discard 1",
    "Heal 1", "Deplete", "Rest", "Summon", "Wound", "Bite", "Exhausted", "Physical Attack",
    "Mind Attack", "+1 Threat", "+1 Bonus Triumph", "+1 Triumph", "Fly 2", "Run 2",
    "Place a Trap Token", "Re-roll 1", "+Grey die", "+Black die", "Place a Trap", "Place a Whisper",
    "+1 Coin",
]
COST_EXAMPLES = [counted(words, 1) for words in COST_NAMES.values()]
NO_NUMBER_KINDS = {v.casefold(): k for k, v in OUTCOME_FORMS.items() if "{" not in v} | {
    "trap": "place_trap", "whisper": "place_whisper", "cube": "place_cube",
    "consume the trap": "consume_trap",
    "turn that trap to its consumed side": "consume_trap",
}
# the printed variants of those: "Wounds", "Bite Tokens", "Place a Trap Token", "Whisper"
_NO_NUMBER_VARIANT = re.compile(
    r"(?:place (?:a )?)?(trap|whisper|cube)(?: token)?(?: on (?:a|the|that|this) tile)?|"
    r"(wound|physical attack|mind attack)s?|(bite)s?(?: tokens?)?"
)
# "Step 1 toward the closest Trouper", "Move 2 away from the Nemesis"
_TOWARD = re.compile(r"(?i)\s(towards?|away from)\s+")
_GOAL = re.compile(r"(?i)(?:the\s+)?(?:(closest|nearest|farthest)\s+)?(\S.*)")
# The words after a Test bonus that say when it helps: "+1 Triumph on a Strength Test"
_WHEN = re.compile(r"(?i)(?:on|in|for|when|if|during|while|against|with)\b")
TEST_BONUSES = ("bonus_triumphs", "reroll", "bonus_die")


def _form(words: str) -> str:
    """The pattern reading a printed form back (lower case; ``{n}`` a number, ``{s}`` a plural)."""
    return re.escape(words.casefold()).replace(r"\{n\}", r"(\d+)").replace(r"\{s\}", "s?")


# (pattern, kind): each read in lower case; a pattern's group is the count.
COSTS = [(_form(w), k) for k, w in COST_NAMES.items()] + [
    (r"deplete (\d+) vigor tokens?", "deplete_vigor"), (r"discard (\d+) cards?", "discard_card"),
    (r"discard (\d+) bites? tokens?", "discard_bite"), ("deplete item", "deplete_item"),
]
CONDITIONS = [(_form(w), k) for k, w in CONDITION_NAMES.items()] + [
    (r"(\d+)\+ bite", "bites_at_least"), (r"(\d+) bite tokens?", "bites_at_least"),
    (r"you have (?:less|fewer) than (\d+) tactic cards in your hand", "hand_below"),
    (r"(\d+)\+ wound", "wounds_at_least"),
]
# The Elements with a number but those of the keywords, before a count is read in front.
NUMBERED = [
    (r"\+?\s*(\d+) threat", "threat"), (r"\+?\s*(\d+) bonus triumphs?", "bonus_triumphs"),
    # "Some Effects allow you to add + Bonus Triumphs" ("Bonus Triumphs"): printed "+1
    # Triumph", "+2 Triumphs"
    (r"\+\s*(\d+) triumphs?", "bonus_triumphs"), (r"(?:\+?bonus )?triumph", "bonus_triumphs"),
    # the keyword list prints "Run N" and "Fly N" ("Elements"): the number is kept as the
    # Element's count, written back "Fly 3"
    (r"run\s+(\d+)", "run"), (r"fly\s+(\d+)", "fly"),
    (r"re-?roll (\d+)", "reroll"), (r"re-?roll", "reroll"),
]
_KEYWORD = re.compile(rf"({'|'.join(sorted(m.KEYWORDS_WITH_N))})(?:\s+(\d+))?")
_TARGET = re.compile(
    rf"(?i)((?:every|each|all)\s+)?(?:({'|'.join(MINION_TYPE_WORDS)})\s+)?"
    rf"({'|'.join(sorted(TARGET_KINDS, key=len, reverse=True))})\b"
)


def _read(key: str, table: list[tuple[str, str]]) -> tuple[str, int | None] | None:
    """The kind of the first pattern of ``table`` ``key`` is, with its count (None: no slot)."""
    for pattern, kind in table:
        match = re.fullmatch(pattern, key)
        if match:
            return kind, int(match.group(1)) if match.groups() else None
    return None


_LABEL = re.compile(rf"(?i)({'|'.join(LABELS)})\s*:")
_REPEAT = re.compile(r"(?i)repeat\b(?=\s*(?:x\s*\d|\d+\s*(?:x|times)\b))")
# Where a section may end or nest: quotes, brackets, a full stop before a space or the end, and
# a word after a space that may begin the next section's label.
_STOPS = re.compile(r'["()]|\.(?=\s|$)|(?<=\s)[ocfrtOCFRT]')


# --------------------------------------------------------------------------- errors


@dataclass
class EffectSyntaxError(ValueError):
    """A typed Effect that could not be read: at ``column`` (1-based) ``word`` was found;
    ``suggestion`` is a close spelling or what to type instead."""

    message: str
    column: int
    word: str = ""
    suggestion: str | None = None
    text: str = ""

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.message} at column {self.column}" + (
            f"; {self.suggestion}" if self.suggestion else "")

    def pointer(self) -> str:
        """The typed text with a caret line under the word (for a terminal)."""
        return f"{self.text}\n{' ' * (self.column - 1)}{'^' * max(1, len(self.word))}"


def _word_at(text: str, pos: int) -> str:
    match = re.match(r"[^\s,.;()/]+(?:\s+[^\s,.;()/:]+)?", text[pos:])
    return match.group(0) if match else text[pos : pos + 1]


def _close(word: str, options: list[str], cutoff: float = 0.6) -> str | None:
    lowered = {o.casefold(): o for o in options}
    found = difflib.get_close_matches(word.casefold(), list(lowered), n=1, cutoff=cutoff)
    return lowered[found[0]] if found else None


def _mean(word: str, options: list[str], otherwise: str | None = None) -> str | None:
    """The hint "did you mean 'X'?" for the option closest to ``word``, else ``otherwise``."""
    close = _close(word, options)
    return f"did you mean '{close}'?" if close else otherwise


# --------------------------------------------------------------------------- the parser


class _Parser:
    def __init__(self, text: str, *, hints: bool = True) -> None:
        self.text = text
        self.hints = hints  # a hint's own line is read without hints of its own (bounded)
        # the words after a Test bonus, read as the Effect's Condition (and where they are)
        self.bonus_condition: tuple[str, int] | None = None

    def fail(self, message: str, pos: int, suggestion: str | None = None,
             word: str | None = None) -> EffectSyntaxError:
        pos = max(0, min(pos, len(self.text)))
        return EffectSyntaxError(message, pos + 1, _word_at(self.text, pos) if word is None
                                 else word, suggestion, self.text)

    # -- scanning ------------------------------------------------------------
    def skip_ws(self, pos: int) -> int:
        return len(self.text) - len(self.text[pos:].lstrip()) if pos < len(self.text) else pos

    def label_at(self, pos: int) -> tuple[str, int] | None:
        """The section label starting at pos and where its body starts, or None."""
        match = _LABEL.match(self.text, pos)
        if match:
            return LABELS[match.group(1).casefold()], match.end()
        match = _REPEAT.match(self.text, pos)
        return ("Repeat", match.end()) if match else None

    def section_end(self, pos: int) -> int:
        """Where the section body starting at pos ends: its full stop (outside brackets and
        quotes), the next section label, or the end of the text."""
        text = self.text
        for i in _top_level(text, (match.start() for match in _STOPS.finditer(text, pos))):
            if text[i] == "." or (i > pos and self.label_at(i) is not None):
                return i
        return len(text)

    # -- the whole Effect ------------------------------------------------------
    def parse(self) -> m.Effect:
        text = self.text
        pos = self.skip_ws(0)
        if pos >= len(text):
            raise self.fail("the Effect is empty", 0,
                            "type it as printed, e.g. 'Target: Self. Outcome: Step 1.'")
        bare = text.strip().rstrip(".").casefold()
        if bare in CARD_SYMBOLS:
            raise self.fail(f"'{text.strip()}' is {CARD_SYMBOLS[bare]}, a mark of the card, not an "
                            f"Effect", pos,
                            f"it is one of the card's fields ({bare}), asked before the Effects")
        fields: dict[str, Any] = {}
        costs: list[m.Cost] = []
        pos = self.head(self.symbol_words(pos, fields, costs), fields, costs)
        seen: set[str] = set()
        note_at: int | None = None
        while (pos := self.skip_ws(pos)) < len(text):
            found = self.label_at(pos)
            if found is None:
                self.not_a_label(pos, structured=bool(seen - {"Repeat"}))
                note_at = pos
                fields["text"] = text[note_at:].strip()
                break
            label, body = found
            if label in seen:
                raise self.fail(f"a second '{label}' section", pos, "an Effect has one of each")
            seen.add(label)
            if label == "Free text":
                if len(seen) > 1:
                    raise self.fail("'Free text:' keeps a whole Effect as words; it cannot "
                                    "follow other sections", pos,
                                    "put 'Free text:' first and the whole printed Effect after it")
                fields["free_text"] = text[body:].strip()
                if not fields["free_text"]:
                    raise self.fail("expected the printed words after 'Free text:'", body)
                break
            end = self.section_end(body)
            self.section(label, body, end, fields)
            pos = end + 1 if end < len(text) and text[end] == "." else end
        if self.bonus_condition is not None:
            words, at = self.bonus_condition
            if "condition" in fields:
                raise self.fail(f"'{words}' after the Element is a Condition, and this Effect has "
                                "one", at, "type both in the 'Condition:' section", word=words)
            fields["condition"] = self.condition(words)
        if costs:
            fields["cost"] = costs + fields.get("cost", [])
        structured = {"target", "cost", "condition", "outcome", "test", "on_failure"}
        if "free_text" not in fields and not structured & fields.keys():
            raise self.fail("found no Target, Cost, Condition or Outcome",
                            note_at if note_at is not None else self.skip_ws(0),
                            "check the section names, or type 'Free text: ' before the printed "
                            "words to keep them as they are (the table then resolves them)")
        try:
            return m.Effect(**fields)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise self.fail(f"not a valid Effect ({where}: {err['msg']})",
                            self.skip_ws(0)) from None

    def not_a_label(self, pos: int, structured: bool) -> None:
        """Text that is not a section: a typo'd label is an error, prose after the sections is
        the Effect's note."""
        word_match = re.match(r"([A-Za-z][A-Za-z ]{0,20}?)\s*(:|\.|\s|$)", self.text[pos:])
        word = word_match.group(1) if word_match else _word_at(self.text, pos)
        has_colon = bool(word_match and word_match.group(2) == ":")
        close = _close(word, SECTION_NAMES, cutoff=0.75)
        if close and (has_colon or not structured or word.casefold() == close.casefold()):
            raise self.fail(f"unknown section '{word}'", pos, f"did you mean '{close}:'?",
                            word=word)
        if not structured:
            raise self.fail(f"expected a section ({EXPECTED_SECTIONS}), found '{word}'", pos,
                            "type 'Free text: ' before the printed words to keep them as they are",
                            word=word)

    def symbol_words(self, pos: int, fields: dict[str, Any], costs: list[m.Cost]) -> int:
        """The symbols printed in front of an Effect, typed as words with a full stop
        ("Sacrifice. Target: ...", "Quick. Cost: ..."): the Sacrifice Cost ("Reading the
        Elements of a Cost") and the Effect's type ("Types of Effects")."""
        while found := re.match(rf"(?i)({SYMBOL_WORDS})\s*\.(?=\s|$)\s*", self.text[pos:]):
            word = found.group(1).casefold()
            if word == "sacrifice":
                costs.append(m.Cost(kind="sacrifice"))
            elif "type" in fields:
                raise self.fail(f"a second type '{found.group(1)}'", pos,
                                "an Effect has one type (Quick, Support or Aura)")
            else:
                fields["type"] = word
            pos = self.skip_ws(pos + found.end())
        return pos

    def head(self, pos: int, fields: dict[str, Any], costs: list[m.Cost]) -> int:
        """Type, name and timing before the first colon ("Support:", "Aura - Bat Form -
        When wounded:"). Returns where the sections start."""
        text = self.text
        colon = text.find(":", pos)
        prefix = text[pos:colon]
        if self.label_at(pos) or colon < 0 or re.search(r"[().\"]|\.\s", prefix) or not (
            prefix.strip()
        ):
            return pos
        parts = [p.strip() for p in prefix.split(" - ")]
        known = False
        if parts and parts[0].casefold() in TYPES:
            fields["type"] = parts.pop(0).casefold()
            known = True
        while parts and parts[0].casefold() == "sacrifice":
            parts.pop(0)
            costs.append(m.Cost(kind="sacrifice"))
            known = True
        if parts and parts[-1].casefold() in TIMINGS:
            fields["timing"] = TIMINGS[parts.pop().casefold()]
            known = True
        after = self.skip_ws(colon + 1)
        if not parts:
            return after
        name = " - ".join(parts)
        if not known and not self.label_at(after) and after < len(text):
            word = (parts[0].split() or [""])[0]
            if re.fullmatch(SYMBOL_WORDS, word.casefold()):
                shown = word.capitalize()
                raise self.fail(
                    f"'{word}' is a symbol in front of the Effect", pos,
                    f"type it '{shown}.' or '{shown}:' before the sections, e.g. '{shown}. "
                    "Target: Self. Outcome: Step 1.'", word=word)
            close = _close(name, SECTION_NAMES, cutoff=0.75)
            if close:
                raise self.fail(f"unknown section '{name}'", pos, f"did you mean '{close}:'?",
                                word=name)
            raise self.fail(f"expected {EXPECTED_SECTIONS} after '{name}:'", after,
                            "an Effect's name is followed by its sections; type 'Free text: ' "
                            "before words the app cannot structure")
        fields["name"] = name
        return after

    # -- sections -------------------------------------------------------------------
    def section(self, label: str, start: int, end: int, fields: dict[str, Any]) -> None:
        at = self.skip_ws(start)
        body = self.text[at:end].rstrip()
        if not body and label != "Outcome":
            raise self.fail(f"expected something after '{label}:'", at)
        if label == "Target":
            fields["target"] = self.target(body, at)
        elif label == "Cost":
            fields["cost"] = self.costs(body, at)
        elif label == "Condition":
            fields["condition"] = self.condition(body)
        elif label == "Outcome":
            outcome, test = self.outcome_line(body, at, with_test=True)
            if not outcome and test is None:
                raise self.fail("expected the Outcome's Elements after 'Outcome:'", at)
            fields["outcome"] = outcome
            if test is not None:
                fields["test"] = test
        elif label == "On a failure":
            before = self.bonus_condition
            fields["on_failure"], _ = self.outcome_line(body, at, with_test=False)
            if self.bonus_condition != before:
                words, where = self.bonus_condition or ("", at)
                raise self.fail(f"'{words}' is a Condition: it belongs in 'Condition:'", where,
                                word=words)
        else:  # Repeat
            match = re.fullmatch(r"(?i)x\s*(\d+)|(\d+)\s*(?:x|times)", body)
            if not match:
                raise self.fail("expected 'Repeat x2'", at)
            n = int(match.group(1) or match.group(2))
            if not 1 <= n <= 6:
                raise self.fail(f"a Repetition is 1 to 6 times, found {n}", at)
            fields["repeat"] = n

    def condition(self, body: str) -> m.Condition:
        """A Condition's words: a known one, else words the table judges (asked at the table)."""
        found = _read(" ".join(body.split()).casefold(), CONDITIONS) or ("text", None)
        return m.Condition(kind=found[0], **({"n": found[1]} if found[1] is not None else {}),
                           **({"text": body} if found[0] == "text" else {}))

    def target(self, body: str, base: int) -> m.Target:
        match = _TARGET.match(body)
        if not match:
            word = _word_at(body, 0)
            raise self.fail("expected a Target (Self, Trouper, Enemy, Nemesis, Minion, Tile or "
                            f"Event, or every Trouper, Minion or Enemy), found '{word}'", base,
                            _mean(word, ["Self", "Trouper", "every Trouper", "Enemy", "every Enemy",
                                         "Nemesis", "Minion", "every Minion", "Tile", "Event"]))
        what, every, word = match.group(0), match.group(1) is not None, match.group(3).casefold()
        if every and word.removesuffix("s") not in EVERY_KINDS:
            raise self.fail(f"'{what}' as one Target is read for Troupers, Minions and Enemies "
                            "('every Trouper', 'every Minion', 'every Enemy')", base,
                            "for anything else type the Effect after 'Free text: ' (the table "
                            "resolves it)", word=what)
        fields: dict[str, Any] = {
            "kind": EVERY_KINDS[word.removesuffix("s")] if every else TARGET_KINDS[word]
        }
        if match.group(2):
            fields["minion_type"] = MINION_TYPE_WORDS[match.group(2).casefold()]
        rest = body[match.end():].strip()
        inner_at = base + match.end() + (len(body[match.end():]) - len(body[match.end():].lstrip()))
        inner = ""
        if rest.casefold().startswith("at "):
            inner, inner_at = rest[3:].strip(), inner_at + 3
        elif rest.startswith("("):
            if not rest.endswith(")"):
                raise self.fail("expected ')' to close the Target's brackets", base + len(body),
                                word=")")
            inner, inner_at = rest[1:-1], inner_at + 1
        elif rest:
            raise self.fail(f"expected a Distance in brackets after '{what}'", inner_at,
                            f"e.g. '{what} (Distance 0-1)'")
        if inner.strip():
            self.target_details(inner, inner_at, fields, what)
        try:
            return m.Target(**fields)
        except ValidationError as exc:
            raise self.fail(f"not a valid Target ({exc.errors()[0]['msg']})", base) from None

    def target_details(self, inner: str, base: int, fields: dict[str, Any], what: str) -> None:
        parts = [(p.group(0), base + p.start()) for p in re.finditer(r"[^;,]+(?:,(?!\s)[^;,]*)*",
                                                                      inner)]
        parts = [(p, at + len(p) - len(p.lstrip())) for p, at in parts if p.strip()]
        words, first_at = parts[0][0].strip(), parts[0][1]
        dist = re.fullmatch(r"(?i)(?:distance\s+(\d+(?:\s*-\s*\d+)?|any|∞)|(any distance|∞)|"
                            r"(special area))((?:\s+-?\d+,-?\d+)*)", words)
        if dist is None:
            raise self.fail(f"expected a Distance after '{what}' ('Distance 0-1', 'any distance' "
                            f"or 'Special Area'), found '{words.split()[0]}'", first_at,
                            _mean(words.split()[0], ["Distance", "any distance", "Special Area"]))
        if dist.group(1) and dist.group(1).casefold() not in ("any", "∞"):
            fields["distance"] = re.sub(r"\s+", "", dist.group(1))
        else:
            fields["distance"] = "area" if dist.group(3) else "any"
        if dist.group(4):  # else a Special Area's diagram is read from the card (the table)
            fields["area"] = dist.group(4).split()
        priorities: list[str] = []
        for part, at in parts[1:]:
            offset = 0
            for phrase in re.split(r"(?i)\s+then\s+", part.strip()):
                key = phrase.strip().casefold()
                if key not in PRIORITIES:
                    names = list(PRIORITY_NAMES.values())
                    raise self.fail(f"unknown Target Priority '{phrase.strip()}'",
                                    at + part.strip().find(phrase, offset),
                                    _mean(phrase, names, "priorities: " + ", ".join(names)),
                                    word=phrase.strip())
                offset = part.strip().find(phrase, offset) + len(phrase)
                priorities.append(PRIORITIES[key])
        if priorities:
            fields["priority"] = priorities

    def split_top(self, body: str, base: int) -> list[tuple[str, int]]:
        """Split at commas outside quotes and brackets; each piece with its start column."""
        cuts = [-1, *(i for i in _top_level(body, range(len(body))) if body[i] == ","), len(body)]
        out = []
        for start, end in pairwise(cuts):
            piece, at = body[start + 1 : end], base + start + 1
            if not piece.strip():
                raise self.fail("an empty Element between commas", at, word=",")
            out.append((piece.strip(), at + len(piece) - len(piece.lstrip())))
        return out

    def costs(self, body: str, base: int) -> list[m.Cost]:
        out = []
        for piece, at in self.split_top(body, base):
            key = piece.casefold()
            times = re.match(r"(\d+)\s*x\s+", key)
            found = _read(key[times.end():] if times else key, COSTS)
            if found is None or (times and found[1] is not None):
                close = _close(piece, COST_EXAMPLES, cutoff=0.5)
                raise self.fail(f"unknown Cost '{piece}'", at, f"did you mean '{close}'?" if close
                                else "costs: " + ", ".join(COST_EXAMPLES), word=piece)
            n = found[1] if found[1] is not None else int(times.group(1)) if times else 1
            try:
                out.append(m.Cost(kind=found[0], n=n))
            except ValidationError:
                raise self.fail(f"a Cost counts 1 to 6, found {n}", at) from None
        return out

    # -- Outcome ------------------------------------------------------------------------
    def outcome_line(
        self, body: str, base: int, *, with_test: bool
    ) -> tuple[list[m.Outcome], m.EffectTest | None]:
        test = None
        elements = body
        if body.endswith(")") and not _goal_brackets(body):
            open_at = _matching_open(body)
            if open_at is None:
                raise self.fail("a ')' with no '(' before it", base + len(body) - 1, word=")")
            if not with_test:
                raise self.fail("a Test in brackets belongs on the Outcome line", base + open_at,
                                word="(")
            test = self.test(body[open_at + 1 : -1], base + open_at + 1)
            elements = body[:open_at].rstrip()
        # a movement's Target keeps its brackets: "Step 1 toward the Trouper (any distance)"
        bare = _GOAL_BRACKETS.sub(lambda mt: " " * len(mt.group(0)), _unquoted(elements))
        if "(" in bare or ")" in bare:
            at = bare.find("(") if "(" in bare else bare.find(")")
            raise self.fail("brackets only hold the Test at the end of the Outcome", base + at,
                            "a Test comes last: 'Wound, Bite (Dexterity 4)'", word=elements[at])
        if not elements.strip():
            return [], test
        return [self.element(piece, at) for piece, at in self.split_top(elements, base)], test

    def element(self, piece: str, at: int) -> m.Outcome:
        quoted = re.match(r'(?:(\d+)\s*x\s+)?"', piece)
        if quoted:
            words = piece[quoted.end() - 1 :]
            if len(words) < 2 or not words.endswith('"') or '"' in words[1:-1]:
                raise self.fail("unclosed quotes", at, 'close the words with "', word=piece)
            if not words[1:-1].strip():
                raise self.fail("empty quotes", at, word=piece)
            fields = {"kind": "text", "text": words[1:-1], "n": int(quoted.group(1) or 1)}
        else:
            fields = self.element_fields(" ".join(piece.split()), at, piece)
        try:
            return m.Outcome(**fields)
        except ValidationError:
            raise self.fail(f"'{piece}' counts out of range (0 to 20)", at,
                            word=None if quoted else piece) from None

    def element_fields(self, text: str, at: int, piece: str) -> dict[str, Any]:
        key = text.casefold()
        # keywords with a number ("Elements - Keywords")
        match = _KEYWORD.fullmatch(key)
        if match:
            if match.group(2) is None:
                word = match.group(1).capitalize()
                raise self.fail(f"expected a number after '{word}'", at, f"e.g. '{word} 1'",
                                word=word)
            return {"kind": match.group(1), "n": int(match.group(2))}
        found = _read(key, NUMBERED)
        if found:
            return {"kind": found[0], "n": 1 if found[1] is None else found[1]}
        match = re.fullmatch(r"\+\s*(\d+) (\w+)", key)
        if match and match.group(2) in RESOURCE_WORDS:
            return {"kind": "gain_resource", "n": int(match.group(1)),
                    "resource": RESOURCE_WORDS[match.group(2)]}
        # Elements with no number: a count other than one is written in front ("2x Wound")
        times = re.match(r"(\d+)\s*x\s+", key) or re.match(r"(\d+)\s+(?=\D)", key)
        n = int(times.group(1)) if times else 1
        key = key[times.end():] if times else key
        variant = _NO_NUMBER_VARIANT.fullmatch(key)
        key = next(g for g in variant.groups() if g) if variant else key
        if key in NO_NUMBER_KINDS:
            return {"kind": NO_NUMBER_KINDS[key], "n": n}
        match = re.fullmatch(r"summon(?:\s+(\w+))?", key)
        if match:
            kind = match.group(1)
            if kind and kind not in MINION_TYPE_WORDS:
                raise self.fail(f"unknown Minion type '{kind}'", at + piece.casefold().rfind(kind),
                                _mean(kind, [t.capitalize() for t in m.MINION_TYPES],
                                      "types: Undead, Aberration, Ghoul, Beast"))
            return {"kind": "summon", "n": n} | (
                {"minion_type": MINION_TYPE_WORDS[kind]} if kind else {})
        match = re.fullmatch(r"\+?\s*(?:1\s+)?(?:bonus\s+)?(grey|gray|black|red) (?:die|dice)", key)
        if match:
            return {"kind": "bonus_die", "n": n, "die": DIE_COLOURS[match.group(1)]}
        toward = _TOWARD.search(text)
        if toward is not None and toward.start() > 0:
            return self.directed(text, toward, at, piece)
        close = _close(text, ELEMENT_EXAMPLES, cutoff=0.7)
        lead = None if close else self.leading_element(text)
        if lead is not None:
            lead_fields, shown, rest = lead
            if lead_fields["kind"] in TEST_BONUSES and _WHEN.match(rest) and (
                    self.bonus_condition is None):
                self.bonus_condition = (rest, at + piece.find(rest.split()[0]))
                return lead_fields
            lines = [line for line in (self.retyped(piece, shown, rest),
                                       self.retyped(piece, f'"{piece}"', None)) if line]
            raise self.fail(f"unknown Outcome Element '{piece}'", at,
                            f"the Element reads as '{shown}'; the words after it ('{rest}') are "
                            "not an Element: " + ("type the line as " + " or as ".join(
                                f"'{x}'" for x in lines) if lines else f"type '{shown}' and put "
                                "the rest in 'Condition:' or the whole Element in double quotes"),
                            word=piece)
        raise self.fail(f"unknown Outcome Element '{piece}'", at,
                        (f"did you mean '{close}'? " if close else "") + 'put words the app '
                        'cannot structure in double quotes, e.g. "swap places"', word=piece)

    def leading_element(self, text: str) -> tuple[dict[str, Any], str, str] | None:
        """An Element read from the first words of ``text``, as written back, and the words
        left over ("Wound the weakest" -> ({kind: wound}, "Wound", "the weakest")), or None."""
        words = text.split()
        for cut in range(min(len(words) - 1, 4), 0, -1):
            head = " ".join(words[:cut])
            sub = _Parser(head)
            try:
                fields = sub.element_fields(head, 0, head)
                if sub.bonus_condition is None:  # the Element's own words, no Condition
                    return fields, render_outcome(m.Outcome(**fields)), " ".join(words[cut:])
            except (EffectSyntaxError, ValidationError):
                continue
        return None

    def retyped(self, piece: str, shown: str, condition: str | None) -> str | None:
        """The whole Effect typed again with ``piece`` written ``shown`` and ``condition`` as
        its Condition: a hint is a line that reads (None when it would not, or when this is
        itself a hint's line being read)."""
        if not self.hints:
            return None
        at = self.text.find(piece)
        line = self.text[:at] + shown + self.text[at + len(piece):]
        if condition is not None:
            if re.search(r"(?i)\bcondition\s*:", line):
                return None
            outcome = re.search(r"(?i)\boutcome\s*:", line)
            cut = outcome.start() if outcome else 0
            line = f"{line[:cut]}Condition: {condition}. {line[cut:]}"
        try:
            _Parser(line, hints=False).parse()
        except (EffectSyntaxError, ValidationError):
            return None
        return line.strip()

    def directed(self, text: str, found: re.Match[str], at: int, piece: str) -> dict[str, Any]:
        """A movement toward (or away from) a Target: "Step 1 toward the closest Trouper"."""
        head, way = text[:found.start()], found.group(1)
        goal_words = _GOAL.fullmatch(text[found.end():])
        if goal_words is None:
            raise self.fail(f"expected a Target after '{way}'", at + len(text), word=piece)
        near, goal = goal_words.groups()
        fields = self.element_fields(head.strip(), at, head.strip())
        if fields["kind"] not in m.DIRECTED_MOVES:
            raise self.fail(f"'{head.strip()}' does not move toward a Target", at,
                            "a Step, Run, Fly or Move goes toward (or away from) a Target, "
                            "e.g. 'Step 1 toward the closest Trouper'", word=piece)
        goal_at = at + piece.find(goal)
        target = self.target(goal.strip(), goal_at)
        if near:
            word = "farthest" if near.casefold() == "farthest" else "closest"
            if word in target.priority:
                raise self.fail(f"'{near}' twice", goal_at, word=goal)
            target = target.model_copy(update={"priority": [word, *target.priority]})
        if target.kind in ("self", "troupers_all", "minions_all", "enemies_all"):
            raise self.fail(f"a movement goes toward one Target, not '{goal}'", goal_at,
                            "e.g. 'the closest Trouper', 'the Nemesis'", word=goal)
        return {**fields, "toward": target, "away": way.casefold() == "away from"}

    def test(self, body: str, base: int) -> m.EffectTest:
        if not body.strip():
            raise self.fail("empty brackets: expected a Test such as '(Strength 4)'", base - 1)
        traits: list[str] = []
        dice: str | None = None
        target: int | None = None
        for match in re.finditer(r"[^/]+", body):
            raw = match.group(0)
            for sub in re.split(r"(?i)\s+or\s+", raw):
                option = sub.strip()
                at = base + match.start() + raw.find(sub) + len(sub) - len(sub.lstrip())
                if not option:
                    raise self.fail("an empty option between slashes", at, word="/")
                trait = re.fullmatch(r"(?i)([a-z]+)(?:\s+(\d+))?", option)
                pool = re.fullmatch(r"((?:\d*\s*[RGBrgb]\s+)*\d*\s*[RGBrgb])(?:\s+(\d+))?", option)
                if trait and trait.group(1).casefold() in m.TRAITS:
                    traits.append(trait.group(1).casefold())
                    number = trait.group(2)
                elif pool:
                    if dice is not None:
                        raise self.fail("a Test takes one dice pool", at, word=option)
                    dice, number = pool.group(1), pool.group(2)
                else:
                    word = option.split()[0]
                    raise self.fail("expected a Trait (Strength, Dexterity, Cunning, Madness) or "
                                    f"dice like '2G B' in the Test, found '{word}'", at,
                                    _mean(word, [t.capitalize() for t in m.TRAITS]), word=word)
                if number is not None:
                    if target is not None and int(number) != target:
                        raise self.fail(f"a Test has one target number; found {target} and "
                                        f"{int(number)}", at)
                    target = int(number)
        try:
            return m.EffectTest(traits=traits, dice=dice, target=target)
        except ValidationError as exc:
            raise self.fail(f"not a valid Test ({exc.errors()[0]['msg']})", base) from None


def _outside(text: str, positions: Iterable[int], opens: str = "(") -> Iterator[tuple[int, int]]:
    """Each of ``positions`` outside quotes with the bracket depth after it (``opens``: "(", or
    ")" to scan backwards); a quote is never one of them."""
    depth = 0
    quoted = False
    for i in positions:
        ch = text[i]
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            depth = max(0, depth + (ch == opens) - (ch in "()" and ch != opens))
            yield i, depth


def _top_level(text: str, positions: Iterable[int]) -> Iterator[int]:
    """Those of ``positions`` outside quotes and brackets (never a quote or a bracket)."""
    return (i for i, depth in _outside(text, positions) if depth == 0 and text[i] not in "()")


def _matching_open(body: str) -> int | None:
    """Where the bracket opens that the last character of ``body`` (a ")") closes."""
    return next((i for i, depth in _outside(body, range(len(body) - 1, -1, -1), opens=")")
                 if depth == 0 and body[i] == "("), None)


_GOAL_BRACKETS = re.compile(r"(?i)(?<=\s)(?:towards?|away from)\s[^,()]*\([^()]*\)")


def _goal_brackets(body: str) -> bool:
    """True when the brackets closing ``body`` are a movement's Target, not a Test."""
    return bool(re.search(r"(?i)(?:towards?|away from)\s[^,()]*\((?:any distance|distance|"
                          r"special area|∞)[^()]*\)$", body))


def _unquoted(text: str) -> str:
    """The text with quoted words blanked out (same length, for column arithmetic)."""
    return re.sub(r'"[^"]*"', lambda mt: " " * len(mt.group(0)), text)


# A printed Effect is a few lines of a card: longer text is refused before it is read, so
# reading stays linear and bounded (issue 24: hostile text) and no number outgrows int().
MAX_EFFECT = 2000


def parse_effect(text: str) -> m.Effect:
    """Read one Effect typed as printed. Raises EffectSyntaxError (a ValueError)."""
    if len(text) > MAX_EFFECT:
        raise EffectSyntaxError(
            f"an Effect is at most {MAX_EFFECT} characters (this one has {len(text)})",
            MAX_EFFECT + 1, "", "type one Effect as printed; a long text is free text in a "
            "YAML file", text[:MAX_EFFECT])
    return _Parser(text).parse()


def free_text_effect(text: str) -> m.Effect:
    """Keep the typed words as they are: the table resolves them (never guessed)."""
    words = text.strip()
    if words.casefold().startswith("free text:"):
        words = words[len("free text:"):].strip()
    return m.Effect(free_text=words)
