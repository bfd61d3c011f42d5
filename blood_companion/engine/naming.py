"""Naming a card (or any record) as the players say it: by id or name, typo-tolerant.

The players holding real cards read names, not ids. :func:`match` finds the one candidate a
typed text names, in this order: the exact id; the exact name (any case, accents and
punctuation ignored); a unique id or name prefix; a unique part of a name; a unique close match
(a typo, a letter missing or doubled). When nothing fits it raises :class:`RuleError` with the
closest names as a "did you mean" hint.

Pure and standard library only (``difflib``). The shared matcher the CLI uses for commands may
later take this over; the engine keeps its own so it never imports the CLI.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence

from blood_companion.engine.errors import RuleError

CLOSE = 0.8  # the ratio a typo must reach to be taken (difflib.SequenceMatcher)
SUGGEST = 0.55  # the ratio a candidate must reach to be suggested


def fold(text: str) -> str:
    """Lower case, accents off, only letters, digits and single spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    out = "".join(c if c.isalnum() else " " for c in text)
    return " ".join(out.split())


def score(key: str, name: str) -> float:
    """How close a typed (folded) text is to a name: the best ratio against the whole name or
    any run of as many of its words ("Korvn" against "Corvin the Gravewarden")."""
    folded = fold(name)
    best = difflib.SequenceMatcher(None, key, folded).ratio()
    words, k = folded.split(), len(key.split())
    for i in range(0, max(0, len(words) - k) + 1):
        part = " ".join(words[i:i + k])
        best = max(best, difflib.SequenceMatcher(None, key, part).ratio())
    return best


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def suggestions(text: str, candidates: Sequence[tuple[str, str]], n: int = 3) -> list[str]:
    """The names closest to `text` (for a "did you mean" hint)."""
    key = fold(text)
    scored = []
    for _cid, name in candidates:
        best = score(key, name)
        if best >= SUGGEST:
            scored.append((best, name))
    scored.sort(key=lambda x: -x[0])
    return _unique(name for _, name in scored)[:n]


def find(text: str, candidates: Sequence[tuple[str, str]]) -> list[str]:
    """Every candidate id `text` could name, best level first (one id when it is clear)."""
    cands = _unique_pairs(candidates)
    raw = text.strip().lower()
    key = fold(text)
    if not key:
        return []
    for cid, _ in cands:
        if cid.lower() == raw:
            return [cid]
    by_name = _unique(cid for cid, name in cands if fold(name) == key)
    if by_name:
        return by_name
    prefix = _unique(
        cid for cid, name in cands if cid.lower().startswith(raw) or fold(name).startswith(key)
    )
    if prefix:
        return prefix
    if len(key) >= 3:
        inside = _unique(cid for cid, name in cands if key in fold(name))
        if inside:
            return inside
    if _looks_like_id(raw):
        return []  # ids are exact: "aurel-t01" never stands for "aurel-t02"
    ratios = []
    for cid, name in cands:
        r = score(key, name)
        if r >= CLOSE:
            ratios.append((r, cid))
    ratios.sort(key=lambda x: -x[0])
    if len(ratios) > 1 and ratios[0][0] > ratios[1][0] + 0.05:
        return [ratios[0][1]]
    return _unique(cid for _, cid in ratios)


def _looks_like_id(text: str) -> bool:
    """An id typed as such (``aurel-t02``, ``nem-lucilla-i``): a typo there is not forgiven."""
    return "-" in text and " " not in text and any(c.isdigit() for c in text) or (
        text.count("-") >= 2 and " " not in text)


def _unique_pairs(candidates: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys((str(c), str(n)) for c, n in candidates))


def match(text: str, candidates: Iterable[tuple[str, str]], what: str) -> str:
    """The id among ``(id, name)`` candidates that `text` names (see the module docstring).
    Raises RuleError naming the ambiguity, or the closest names ("did you mean")."""
    cands = _unique_pairs(candidates)
    if not text.strip():
        raise RuleError(f"no {what} given")
    hits = find(text, cands)
    if len(hits) == 1:
        return hits[0]
    names = dict(cands)
    if hits:
        raise RuleError(
            f"{text.strip()!r} could be several {what}s: "
            + ", ".join(names.get(h, h) for h in hits[:8]),
            hint="type more of the name",
        )
    close = suggestions(text, cands)
    if close:
        hint = "did you mean " + " or ".join(close) + "?"
    elif cands:
        shown = ", ".join(n for _, n in cands[:12]) + (" ..." if len(cands) > 12 else "")
        hint = f"choices: {shown}"
    else:
        hint = None
    raise RuleError(f"no {what} is called {text.strip()!r}", hint=hint)


__all__ = ["find", "fold", "match", "suggestions"]
