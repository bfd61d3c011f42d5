"""A Weakness card's Nemesis Trophy sentence read into clauses (:func:`read`) and judged against
the app's state at the moment of a Wound (:func:`judge`) ("Weakness Cards", "Nemesis Trophy";
docs/rules-decisions.md, "Weakness Trophies decided from the app's state").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUM = {"no": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "twice": 2}
_N = r"(\d+|one|two|three)"
_LINE = r"on (?:her|his|its|the) reaction line"


@dataclass(frozen=True)
class Clause:
    """One condition of the sentence (``kind``: one of :data:`_CLAUSES`, or ``unknown``)."""

    kind: str
    text: str
    n: int = 0
    what: str = "any"  # physical, mind or any (attack kinds, Fatigue)


@dataclass(frozen=True)
class Moment:
    """The app's state when the Wound lands (``line``: each Reaction card's Fatigue)."""

    attack: frozenset[str]
    trouper: str
    bites: int
    insanity: int
    exhausted: bool
    wounds_this_turn: int
    line: tuple[tuple[int, int], ...]


def _n(word: str) -> int:
    return int(word) if word.isdigit() else _NUM[word.lower()]


# (pattern, kind, what): a pattern's first group, when any, is the clause's number.
_CLAUSES: tuple[tuple[str, str, str], ...] = (
    (r"with an? (physical|mind) attack", "attack", ""),
    (r"with any attack", "attack", "any"),
    (r"in the same game turn", "wounds_this_turn", ""),
    (r"while your trouper carries no bites?", "bites_at_most", "0"),
    (r"while your trouper carries at least " + _N + r" bites?", "bites_at_least", ""),
    (r"while your trouper carries (?:at most " + _N + r" bites?|" + _N + r" bites? or fewer)",
     "bites_at_most", ""),
    (r"while your trouper is not exhausted", "not_exhausted", ""),
    (r"while your trouper is exhausted", "exhausted", ""),
    (r"while your trouper (?:has|carries) (?:an )?insanity of at least " + _N,
     "insanity_at_least", ""),
    (r"while (?:a|at least " + _N + r") reaction cards? with (physical |mind )?fatigue "
     r"(?:is|are) " + _LINE, "fatigue_on_line", ""),
    # recognised, but only the table sees them (the Map, the activation, the Trait used)
    (r"at distance \d+", "table", ""),
    (r"while no \w+ is on (?:her|his|its) tile", "table", ""),
    (r"while no \w+ is on the map", "table", ""),
    (r"during a game turn in which an? \w+ was defeated", "table", ""),
    (r"during the last game turn of the night", "table", ""),
    (r"without moving your trouper this activation", "table", ""),
    (r"while your hand holds fewer than \d+ tactic cards?", "table", ""),
    (r"using the \w+ trait", "table", ""),
)
_HEAD = re.compile(
    r"\s*(?:wound|inflict " + _N + r" wounds on) (?:her|his|its) (?:front|left|right)"
    r"(?: side)?( twice)?", re.I)
_NEXT = re.compile(r"\s+(?=while |with |during |at |without |using |in the )", re.I)


def read(text: str) -> list[Clause]:
    """The clauses of a Trophy sentence, words not recognised an ``unknown`` one each."""
    rest = text.strip().rstrip(".")
    clauses: list[Clause] = []
    head = _HEAD.match(rest)
    many = 1
    if head:
        many = _n(head.group(1)) if head.group(1) else (2 if head.group(2) else 1)
        rest = rest[head.end():]
    while rest.strip(" ,"):
        rest = re.sub(r"^[\s,]*(?:and\s+)?", "", rest)
        for pattern, kind, what in _CLAUSES:
            got = re.match(pattern, rest, re.I)
            if got is None:
                continue
            groups = [g for g in got.groups() if g]
            n = many if kind == "wounds_this_turn" else (
                int(what) if what.isdigit() else _n(groups[0]) if groups and groups[0].strip()
                .lower() not in ("physical", "mind") else 1)
            sort = next((g.strip().lower() for g in groups if g.strip().lower()
                         in ("physical", "mind")), "any")
            clauses.append(Clause(kind, got.group(0), n, sort))
            rest = rest[got.end():]
            break
        else:
            cut = _NEXT.search(rest, 1)
            clauses.append(Clause("unknown", rest[:cut.start() if cut else len(rest)].strip()))
            rest = rest[cut.start():] if cut else ""
    if many > 1 and not any(c.kind == "wounds_this_turn" for c in clauses):
        clauses.append(Clause("unknown", f"{many} Wounds at once"))
    return clauses


def _bites(n: int) -> str:
    return f"{n} Bite" + ("" if n == 1 else "s")


def check(c: Clause, at: Moment) -> tuple[bool | None, str]:
    """Whether the app's state meets one clause (None: only the table knows), and why."""
    who = at.trouper
    if c.kind == "attack":
        kinds = " and ".join(k.title() for k in sorted(at.attack)) or "no"
        ok = bool(at.attack) if c.what == "any" else c.what in at.attack
        return ok, f"a {kinds} Attack" + ("" if ok else f", the card asks for a {c.what.title()}"
                                          " Attack")
    if c.kind in ("bites_at_least", "bites_at_most"):
        ok = at.bites >= c.n if c.kind == "bites_at_least" else at.bites <= c.n
        want = ("no Bites" if c.n == 0 else f"at most {c.n}") if c.kind == "bites_at_most" \
            else f"at least {c.n}"
        return ok, f"{who} carries {_bites(at.bites)}" + ("" if ok else f", the card asks "
                                                          f"for {want}")
    if c.kind in ("exhausted", "not_exhausted"):
        ok = at.exhausted == (c.kind == "exhausted")
        return ok, f"{who} is {'' if at.exhausted else 'not '}Exhausted"
    if c.kind == "insanity_at_least":
        ok = at.insanity >= c.n
        return ok, f"{who}'s Insanity is {at.insanity}" + ("" if ok else f", the card asks "
                                                           f"for at least {c.n}")
    if c.kind == "wounds_this_turn":
        ok = at.wounds_this_turn >= c.n
        return ok, f"{at.wounds_this_turn} Wound(s) on this side this Game Turn" + (
            "" if ok else f", the card asks for {c.n}")
    if c.kind == "fatigue_on_line":
        pick = {"physical": (0,), "mind": (1,)}.get(c.what, (0, 1))
        cards = sum(1 for f in at.line if any(f[i] for i in pick))
        what = "" if c.what == "any" else c.what.title() + " "
        ok = cards >= c.n
        return ok, f"{cards} Reaction card(s) with {what}Fatigue on the Reaction Line" + (
            "" if ok else f", the card asks for at least {c.n}")
    return None, c.text


@dataclass(frozen=True)
class Verdict:
    """``earned``: None when the table must say; ``default``: the answer the question offers."""

    earned: bool | None
    why: str
    default: bool


def judge(text: str, at: Moment) -> Verdict:
    """The Trophy sentence judged at a Wound: no Trophy when a clause is not met, the Trophy when
    all are, else the table is asked (yes by default when a clause the app judges holds)."""
    seen = [(c, *check(c, at)) for c in read(text)]
    against = [why for _, ok, why in seen if ok is False]
    if against:
        return Verdict(False, "; ".join(against), False)
    known = [why for _, ok, why in seen if ok]
    if all(ok for _, ok, _ in seen):
        return Verdict(True, ", ".join(known) or "the Wound itself", True)
    return Verdict(None, ", ".join(known), bool(known))
