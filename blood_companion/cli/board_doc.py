"""The document of the served board (`blood board --serve`, cli/board_serve.py): the status
document (``view_docs.status_doc``, as `blood status --json` prints it) and the question
waiting now, with its options, as `blood play` asks it (issue 39; read-only on the page)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.cli.play_cmd import shown_choices
from blood_companion.cli.play_menu import Walk
from blood_companion.cli.view_docs import status_doc
from blood_companion.errors import BloodError

if TYPE_CHECKING:
    from blood_companion.store import CampaignStore


def question_doc(store: CampaignStore) -> dict[str, Any] | None:
    """The question `blood play` would ask now: its title, the lines above it, the question,
    each option shown (key, label, whether possible now and why not, the default) and how
    many more are not possible now; None when none is asked (the campaign is over, or the
    question cannot be built from this save)."""
    try:
        screen = Walk.start(store.state, store.catalog, store.head).screen()
    except BloodError:
        return None
    if screen.end:
        return None
    rows, hidden = shown_choices(screen)
    return {
        "title": screen.title,
        "info": list(screen.info),
        "question": screen.question,
        "who": screen.who,
        "choices": [{"key": c.key, "label": c.label, "enabled": c.enabled, "why": c.why,
                     "default": bool(mark)} for c, _, mark in rows],
        "more_not_possible": hidden,
        "free_text": screen.free_hint,
        "several": list(screen.many) if screen.many is not None else None,
    }


def served_doc(store: CampaignStore) -> dict[str, Any]:
    """The status document with the question waiting now (``question``)."""
    return {**status_doc(store), "question": question_doc(store)}
