"""Every sentence players read, in one package: the template table (:mod:`.templates`), the one
renderer (:func:`.text.fill`), records by name (:mod:`.names`), how each field is shown and an
action's or log event's sentence (:mod:`.sentences`), what a step drew and the set-up
checklists (:mod:`.checklists`), cards, hands and log entries in lines (:mod:`.lines`). The
engine imports the module it needs; the CLI and tests may use the names below.
"""

from __future__ import annotations

from blood_companion.engine.words.checklists import checklist_for, drawn_lines
from blood_companion.engine.words.lines import (
    decks_lines,
    entry_lines,
    hand_lines,
    result_lines,
    show_lines,
    so_far_lines,
)
from blood_companion.engine.words.names import faces_words, record_name
from blood_companion.engine.words.sentences import (
    movement_text,
    night_reason,
    render,
    say,
    sentence,
    trophy_words,
    who,
)
from blood_companion.engine.words.templates import EVENTS, check
from blood_companion.engine.words.text import counted, counted_all, percent

__all__ = [
    "EVENTS", "check", "checklist_for", "counted", "counted_all", "decks_lines", "drawn_lines",
    "entry_lines", "faces_words", "hand_lines", "movement_text", "night_reason", "percent",
    "record_name", "render", "result_lines", "say", "sentence", "show_lines", "so_far_lines",
    "trophy_words", "who",
]
