"""The one way a typed word picks a thing by id or name, with "did you mean ...?" (stdlib only).

Every place a player names something (a card, a building, an item, a rules keyword, a choice
at a prompt) hands :func:`find` or :func:`match` ``(id, name)`` pairs (an id may have several
names). The word picks, in this order, the first rule that gives exactly one:

1. the exact id (any case);
2. a position in the list, 1-based, when ``positions`` is set ("2" = the second card);
3. the exact name (any case; accents and punctuation ignored: :func:`fold`);
4. a unique prefix of an id or a name ("crim" for Crimson Swoop);
5. a unique part of an id or a name ("t09" for aurel-t09, "swoop");
6. a typo: the one name clearly closest to the word, at least :data:`CLOSE` alike (a letter
   missing, doubled or swapped: "osuary galery"); never for a word typed as an id
   ("aurel-t01" never stands for "aurel-t02").

A rule that gives several stops the search (:attr:`Found.ambiguous`). Nothing found:
:attr:`Found.close` names the nearest, and :func:`match` raises with "did you mean ...?".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from blood_companion.errors import BloodError

Candidates = Iterable[tuple[str, str]]
SHOWN = 12  # choices listed in a refusal's hint
CLOSE = 0.8  # how alike a typo must be to be taken (difflib's ratio)
SUGGEST = 0.55  # how alike a name must be to be suggested by :func:`suggestions`


def fold(text: str) -> str:
    import unicodedata

    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    out = "".join(c if c.isalnum() else " " for c in text)
    return " ".join(out.split())


def score(key: str, name: str) -> float:
    """How close a folded word is to a name or any run of as many of its words ("Korvn")."""
    return _alike(key, fold(name))


def _alike(key: str, folded: str) -> float:
    import difflib

    best = difflib.SequenceMatcher(None, key, folded).ratio()
    words, k = folded.split(), len(key.split())
    for i in range(0, max(0, len(words) - k) + 1):
        part = " ".join(words[i : i + k])
        best = max(best, difflib.SequenceMatcher(None, key, part).ratio())
    return best


def looks_like_id(text: str) -> bool:
    """A word typed as an id (``aurel-t02``, ``nem-lucilla-i``): a typo there is not forgiven."""
    return ("-" in text and " " not in text and any(c.isdigit() for c in text)) or (
        text.count("-") >= 2 and " " not in text
    )


def suggestions(text: str, candidates: Candidates, n: int = 3) -> list[str]:
    key = fold(text)
    scored = [(score(key, name), name) for _, name in candidates if name]
    scored = [x for x in scored if x[0] >= SUGGEST]
    scored.sort(key=lambda x: -x[0])
    return _unique(name for _, name in scored)[:n]


class Found:
    """What a word picked: ``id`` (or None), the ``ambiguous`` ids, the ``close`` suggestions."""

    __slots__ = ("id", "ambiguous", "close")

    def __init__(
        self, id: str | None, ambiguous: Sequence[str] = (), close: Sequence[str] = ()
    ) -> None:
        self.id = id
        self.ambiguous = tuple(ambiguous)
        self.close = tuple(close)


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def find(
    text: str, candidates: Candidates, *, positions: bool = False, typos: bool = True
) -> Found:
    """The candidate ``text`` names (module doc; ``typos=False``: no rule 6); never raises."""
    cands = list(dict.fromkeys((str(i), str(n or "")) for i, n in candidates))
    key = text.strip().casefold()
    folded = fold(text)
    long = folded if len(folded) >= 3 else ""  # "[A" is no prefix of "All": folded, 3+ only
    if not key:
        return Found(None)
    names: list[tuple[str, str, str]] = []  # (id, name, folded name), folded once when needed
    for rule in range(6):
        if rule == 2:
            names = [(i, name, fold(name)) for i, name in cands]
        if rule == 0:
            hits = [i for i, _ in cands if i.casefold() == key]
        elif rule == 1:
            if not positions or not (key.isascii() and key.isdigit() and len(key) < 6):
                continue
            n = int(key)
            ids = _unique(i for i, _ in cands)
            hits = [ids[n - 1]] if 1 <= n <= len(ids) else []
        elif rule == 2:
            hits = [i for i, _, f in names if f and f == folded]
        elif rule == 3:
            hits = [
                i for i, _, f in names
                if i.casefold().startswith(key) or (long and f.startswith(long))
            ]
        elif rule == 4:
            hits = [
                i for i, name, f in names
                if key in i.casefold() or key in name.casefold() or (long and long in f)
            ]
        else:
            if not typos or not long or looks_like_id(key):
                continue
            ratios = sorted(
                ((r, i) for i, _, f in names if f and (r := _alike(folded, f)) >= CLOSE),
                key=lambda x: -x[0],
            )
            if len(ratios) > 1 and ratios[0][0] > ratios[1][0] + 0.05:
                ratios = ratios[:1]
            hits = [i for _, i in ratios]
        hits = _unique(hits)
        if len(hits) == 1:
            return Found(hits[0])
        if hits:
            return Found(None, ambiguous=hits)
    return Found(None, close=close_to(key, cands))


def close_to(text: str, candidates: Candidates, n: int = 3) -> list[str]:
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
    text: str, candidates: Candidates, what: str, *, positions: bool = False,
    error: type[BloodError] = BloodError,
) -> str:
    """The id ``text`` names among ``candidates``, else ``error`` with the ids it could be,
    or "did you mean ...?" and the choices."""
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
