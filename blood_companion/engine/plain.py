"""Sentences without the data pack: an action's kind and fields in words, and word lists. A
leaf module (``Action.describe`` uses it; the sentences players read come from
``engine/words.py``, which names the cards)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def listing(items: Iterable[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    xs = [x for x in items if x]
    if not xs:
        return "nothing"
    if len(xs) == 1:
        return xs[0]
    return ", ".join(xs[:-1]) + " and " + xs[-1]


def fields_sentence(action: Any) -> str:
    """An action's kind and its fields, in words (ids as they are)."""
    title = action.type.replace("night_", "").replace("day_", "").replace("_", " ")
    parts = []
    for key, value in action.model_dump(mode="json").items():
        if key in ("type", "drawn") or value in (None, [], {}, "", False, 0):
            continue
        shown = listing(str(v) for v in value) if isinstance(value, list) else str(value)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return title[:1].upper() + title[1:] + (f": {', '.join(parts)}" if parts else "")
