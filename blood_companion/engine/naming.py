"""Naming a card (or any record) as the players say it, by id or name, typo-tolerant, with the
package's one matcher (:mod:`blood_companion.matching`): :func:`find` lists the ids a text could
name, :func:`match` raises :class:`RuleError` naming the ambiguity or the closest names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from blood_companion import matching
from blood_companion.engine.errors import RuleError
from blood_companion.matching import suggestions


def find(text: str, candidates: Sequence[tuple[str, str]]) -> list[str]:
    """Every candidate id `text` could name (one id when it is clear; none when nothing fits)."""
    found = matching.find(text, candidates)
    return [found.id] if found.id is not None else list(found.ambiguous)


def match(text: str, candidates: Iterable[tuple[str, str]], what: str) -> str:
    """The id among ``(id, name)`` candidates that `text` names (see the module docstring).
    Raises RuleError naming the ambiguity, or the closest names ("did you mean")."""
    cands = list(dict.fromkeys((str(c), str(n)) for c, n in candidates))
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


__all__ = ["find", "match", "suggestions"]
