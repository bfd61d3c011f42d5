"""Every sentence players read, in one package: the one template table (:mod:`.templates`: each
night log event's kind with its fields and its sentence, the movement instructions, the
physical instructions' sentences), the one renderer (:func:`.text.fill`) and how each field is
shown (:data:`.sentences.KINDS`). The engine imports the module it needs; the CLI and tests
may use the names below.

* :mod:`.text`: words without the data pack (counts, lists, percentages), the renderer;
* :mod:`.templates`: the table, and the check of an event the engine logs;
* :mod:`.names`: records by their names in the data pack (no state);
* :mod:`.sentences`: names of pieces in a state, an action's ``words`` (:func:`say`,
  :func:`sentence`), a log event's sentence (:func:`render`), movements;
* :mod:`.checklists`: what a step drew, the set-up checklists;
* :mod:`.lines`: cards, hands, decks and log entries as the table reads them, in lines.
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
