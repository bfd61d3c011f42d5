"""Naming a card (or any record) as the players say it, by id or name, typo-tolerant, with the
package's one matcher (:mod:`blood_companion.matching`): :func:`find` lists the ids a text could
name, :func:`match` raises :class:`RuleError` naming the ambiguity or the closest names."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from blood_companion import matching
from blood_companion.engine.errors import RuleError
from blood_companion.matching import suggestions


def find(text: str, candidates: Sequence[tuple[str, str]]) -> list[str]:
    """Every candidate id `text` could name (one id when it is clear; none when nothing fits)."""
    found = matching.find(text, candidates)
    return [found.id] if found.id is not None else list(found.ambiguous)


def named(text: str, cid: str, candidates: Sequence[tuple[str, str]]) -> str:
    """The name of ``cid`` that ``text`` says (a card has a name per side): the one typed, else
    the closest of its names, else its first."""
    names = [n for c, n in candidates if c == cid]
    folded = " ".join(text.casefold().split())
    exact = [n for n in names if " ".join(n.casefold().split()) == folded]
    if exact or not names:
        return exact[0] if exact else cid
    found = matching.find(text, [(n, n) for n in names])
    return found.id or names[0]


def match(text: str, candidates: Iterable[tuple[str, str]], what: str,
          describe: Callable[[str, str], str] | None = None) -> str:
    """The id among ``(id, name)`` candidates that `text` names, else RuleError naming the
    ambiguity (each candidate as ``describe(id, name)`` says it) or the closest names."""
    cands = list(dict.fromkeys((str(c), str(n)) for c, n in candidates))
    if not text.strip():
        raise RuleError(f"no {what} given")
    hits = find(text, cands)
    if len(hits) == 1:
        return hits[0]
    if hits:
        if describe is not None:  # one a line: each told apart by what describe says
            raise RuleError(f"{text.strip()!r} could be several {what}s:\n" + "\n".join(
                f"  {describe(h, named(text, h, cands))}" for h in hits[:8]),
                hint="type its id (in brackets above)")
        raise RuleError(f"{text.strip()!r} could be several {what}s: "
                        + ", ".join(named(text, h, cands) for h in hits[:8]),
                        hint="type more of the name")
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
