"""Every sentence players read, in one package: the one template table (:mod:`.templates`: each
night log event's kind with its fields and its sentence, the movement instructions, the
physical instructions' sentences), the one renderer (:func:`.text.fill`) and how each field is
shown (:data:`.sentences.KINDS`).

* :mod:`.text`: words without the data pack (counts, lists, percentages), the renderer;
* :mod:`.templates`: the table, and the check of an event the engine logs;
* :mod:`.names`: records by their names in the data pack (no state);
* :mod:`.sentences`: names of pieces in a state, an action's ``words`` (:func:`say`,
  :func:`sentence`), a log event's sentence (:func:`render`), movements;
* :mod:`.checklists`: what a step drew, the set-up checklists;
* :mod:`.lines`: cards, hands, decks and log entries as the table reads them, in lines.
"""

from __future__ import annotations

from blood_companion.engine.words.checklists import (
    checklist_ask,
    checklist_for,
    drawn_lines,
    dusk_checklist,
    night_checklist,
    scenic_line,
)
from blood_companion.engine.words.lines import (
    decks_lines,
    entry_lines,
    hand_lines,
    result_lines,
    show_lines,
    so_far_lines,
)
from blood_companion.engine.words.names import (
    effect_of,
    faces_words,
    job_label,
    job_ref,
    miniature_name,
    record_name,
    summon_tile,
)
from blood_companion.engine.words.sentences import (
    KINDS,
    actor_name,
    cube_text,
    item_name,
    movement_text,
    name,
    names,
    night_reason,
    render,
    say,
    sentence,
    trophy_words,
    who,
    zone_name,
)
from blood_companion.engine.words.templates import DECISION, EVENTS, REASONS, SETUP, check
from blood_companion.engine.words.text import (
    SIDE_WORDS,
    counted,
    counted_all,
    fill,
    listing,
    percent,
    phrase,
)

__all__ = [
    "DECISION", "EVENTS", "KINDS", "REASONS", "SETUP", "SIDE_WORDS", "actor_name", "check",
    "checklist_ask", "checklist_for", "counted", "counted_all", "cube_text", "decks_lines",
    "drawn_lines", "dusk_checklist", "effect_of", "entry_lines", "faces_words", "fill",
    "hand_lines", "item_name", "job_label", "job_ref", "listing", "miniature_name",
    "movement_text", "name",
    "names", "night_checklist", "night_reason", "percent", "phrase", "record_name", "render",
    "result_lines", "say", "scenic_line", "sentence", "show_lines", "so_far_lines",
    "summon_tile", "trophy_words", "who", "zone_name",
]
