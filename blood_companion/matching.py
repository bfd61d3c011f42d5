"""The one way a typed word picks a thing by id or name, with "did you mean ...?" (stdlib only).

Every place a player names something (a card in hand, a building, a Trouper's item, a rules
keyword, a menu choice in `blood play`) hands :func:`find` or :func:`match` the candidates as
``(id, name)`` pairs. The word picks, in this order, the first rule that gives exactly one:

1. the exact id (any case);
2. a position in the list, 1-based, when ``positions`` is set ("2" = the second card);
3. the exact name (any case);
4. a unique prefix of an id or a name ("crim" for Crimson Swoop);
5. a unique part of an id or a name ("t09" for aurel-t09, "swoop").

A rule that gives several stops the search: the word is ambiguous (:attr:`Found.ambiguous`).
Nothing found: :attr:`Found.close` names the nearest ids or names (``difflib``, imported only
then), and :func:`match` raises with "did you mean ...?" and the choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from blood_companion.errors import BloodError

Candidates = Iterable[tuple[str, str]]
SHOWN = 12  # choices listed in a refusal's hint


class Found:
    """What a word picked: ``id`` (or None), the ``ambiguous`` ids, the ``close`` suggestions."""

    __slots__ = ("id", "ambiguous", "close")

    def __init__(
        self, id: str | None, ambiguous: Sequence[str] = (), close: Sequence[str] = ()
    ) -> None:
        self.id = id
        self.ambiguous = tuple(ambiguous)
        self.close = tuple(close)

    def __repr__(self) -> str:
        return f"Found({self.id!r}, ambiguous={self.ambiguous!r}, close={self.close!r})"


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def find(text: str, candidates: Candidates, *, positions: bool = False) -> Found:
    """The candidate ``text`` names (see the module doc); never raises."""
    cands = list(dict.fromkeys((str(i), str(n or "")) for i, n in candidates))
    key = text.strip().casefold()
    if not key:
        return Found(None)
    for rule in range(5):
        if rule == 0:
            hits = [i for i, _ in cands if i.casefold() == key]
        elif rule == 1:
            if not positions or not (key.isascii() and key.isdigit() and len(key) < 6):
                continue
            n = int(key)
            ids = _unique(i for i, _ in cands)
            hits = [ids[n - 1]] if 1 <= n <= len(ids) else []
        elif rule == 2:
            hits = [i for i, name in cands if name and name.casefold() == key]
        elif rule == 3:
            hits = [
                i for i, name in cands
                if i.casefold().startswith(key) or name.casefold().startswith(key)
            ]
        else:
            hits = [i for i, name in cands if key in i.casefold() or key in name.casefold()]
        hits = _unique(hits)
        if len(hits) == 1:
            return Found(hits[0])
        if hits:
            return Found(None, ambiguous=hits)
    return Found(None, close=close_to(key, cands))


def close_to(text: str, candidates: Candidates, n: int = 3) -> list[str]:
    """The ids whose id or name is nearest to ``text`` (at most ``n``; maybe none)."""
    import difflib

    cands = list(candidates)
    by_word: dict[str, str] = {}
    for i, name in cands:
        by_word.setdefault(i.casefold(), i)
        if name:
            by_word.setdefault(name.casefold(), i)
    words = difflib.get_close_matches(text.strip().casefold(), list(by_word), n=n, cutoff=0.6)
    return _unique(by_word[w] for w in words)


def did_you_mean(close: Sequence[str], names: dict[str, str] | None = None) -> str:
    """ "did you mean 'a' or 'b'?" (with each one's name when it differs), or ""."""
    if not close:
        return ""
    names = names or {}
    shown = [
        f"{c!r} ({names[c]})" if names.get(c) and names[c].casefold() != c.casefold() else repr(c)
        for c in close
    ]
    return "did you mean " + " or ".join(shown) + "?"


def match(
    text: str,
    candidates: Candidates,
    what: str,
    *,
    positions: bool = False,
    error: type[BloodError] = BloodError,
) -> str:
    """The id ``text`` names among ``candidates``; raises ``error`` (a BloodError) naming what
    was typed, the ids it could be, or the nearest ones ("did you mean ...?") and the choices."""
    cands = list(dict.fromkeys((str(i), str(n or "")) for i, n in candidates))
    if not text.strip():
        raise error(f"no {what} given", hint=_choices(cands))
    found = find(text, cands, positions=positions)
    if found.id is not None:
        return found.id
    if found.ambiguous:
        raise error(
            f"{text.strip()!r} could be several {what}s: {', '.join(found.ambiguous[:8])}",
            hint="type more of the id or the name",
        )
    names = dict(cands)
    hint = "; ".join(h for h in (did_you_mean(found.close, names), _choices(cands)) if h)
    raise error(f"unknown {what} {text.strip()!r}", hint=hint or None)


def _choices(cands: list[tuple[str, str]]) -> str:
    if not cands:
        return ""
    ids = _unique(i for i, _ in cands)
    return "choices: " + ", ".join(ids[:SHOWN]) + (" ..." if len(ids) > SHOWN else "")
