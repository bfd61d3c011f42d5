"""Words for the rules search: tokenising, a light stemmer and a bounded edit distance.

Standard library only and no ``re`` (the lookup path runs on every ``blood rules`` call and
must stay cheap to import). The stemmer is deliberately crude: it only has to map the forms
players type ("pushing", "pushes", "pushed") onto the form the reference uses ("push"), and
it is applied the same way to the reference and to the question, so its quirks cancel out.
"""

from __future__ import annotations

# Words that carry no meaning in a question at the table ("how does Push work").
_STOPWORDS = """
    a an the and or but if then than so of to in on at by for from with into onto about as
    is are was were be been being am do does did doing done have has had having
    i me my mine we us our you your he she it its they them their this that these those
    what which who whom whose when where why how can could may might must shall should will
    would there here any some all each every also just only not no yes
    happen happens happened work works working mean means meaning rule rules explain
    tell please get gets got let lets one's oneself many much until
"""
STOPWORDS = frozenset(_STOPWORDS.split())

# Forms the suffix rules below cannot reach.
IRREGULAR = {
    "dice": "die", "died": "die", "ko": "knockout", "ko'd": "knockout", "bitten": "bite",
    "won": "win", "lost": "lose", "bit": "bite", "enemies": "enemy", "minis": "miniature",
    "mini": "miniature",
}

_VOWELS = frozenset("aeiouy")


def _undouble(w: str) -> str:
    # "running" -> "runn" -> "run"; keep "ll", "ss", "zz" ("fall", "pass").
    if len(w) >= 3 and w[-1] == w[-2] and w[-1] not in _VOWELS and w[-1] not in "lsz":
        return w[:-1]
    return w


def stem(word: str) -> str:
    """Reduce a lower-case word to the crude stem both the index and the query use."""
    w = IRREGULAR.get(word, word)
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) >= 6:
        w = _undouble(w[:-3])
    elif w.endswith("ed") and len(w) >= 5:
        w = _undouble(w[:-2])
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def raw_words(text: str) -> list[str]:
    """Split text into lower-case words; hyphenated words give their parts and the joined form.

    "Re-roll" yields "re", "roll" and "reroll"; "Leader's" yields "leader".
    """
    out: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if not buf:
            return
        word = "".join(buf).strip("-'")
        buf.clear()
        if not word:
            return
        if word.endswith("'s"):
            word = word[:-2]
        word = word.replace("'", "")
        if "-" in word:
            parts = [p for p in word.split("-") if p]
            out.extend(parts)
            if len(parts) > 1:
                out.append("".join(parts))
        elif word:
            out.append(word)

    for ch in text.lower():
        if ch.isalnum() or ch in "-'":
            buf.append(ch)
        elif ch in "\u2019\u2018":
            buf.append("'")
        else:
            flush()
    flush()
    return out


def terms(text: str) -> list[str]:
    """Index terms of a text: every word, stemmed (stopwords kept out)."""
    return [stem(w) for w in raw_words(text) if w not in STOPWORDS]


def query_terms(text: str) -> list[str]:
    """The meaningful stems of a question, in order, without repeats.

    Stopwords are dropped; if nothing is left, every word counts. Numbers are kept (the
    search treats them as optional: "Step 2" must still find Step N).
    """
    words = raw_words(text)
    kept = [w for w in words if w not in STOPWORDS]
    if not kept:
        kept = words
    seen: list[str] = []
    for w in kept:
        s = stem(w)
        if s not in seen:
            seen.append(s)
    return seen


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance between a and b, or limit + 1 once it exceeds limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        best = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
            if v < best:
                best = v
        if best > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1] if prev[-1] <= limit else limit + 1
