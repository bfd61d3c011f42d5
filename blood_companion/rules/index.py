"""The search index over the rules reference, and the lookups ``blood rules`` offers.

``build_index`` turns entries into a plain structure of dicts, lists, tuples, strings and
numbers (so the loader can cache it with ``marshal`` and reload it in well under a
millisecond); ``RulesIndex`` answers questions over that structure.

Ranking, in short: every entry is split into fields (name = title, aliases and id; tags;
section; body = text and steps), each query word is matched exactly or, failing that, by
prefix or a small edit distance (typos), and scored BM25-style with per-field weights. An
entry that covers more of the question's words always beats one that covers fewer; a
question that is exactly an entry's name puts that entry first.
"""

from __future__ import annotations

import math

from blood_companion.rules.entry import KINDS, RuleEntry
from blood_companion.rules.text import edit_distance, query_terms, terms

INDEX_FORMAT = 4

NAME, TAG, SECTION, BODY = 0, 1, 2, 3
FIELD_WEIGHT = (5.0, 3.0, 1.0, 1.0)
FIELD_K = (0.5, 0.5, 0.5, 1.2)
# Gaps explain contradictions; they should answer "19 or 21 tiles" but not outrank the rule
# itself when a player asks how something works.
KIND_PRIOR = {"gap": 0.6, "component": 0.9}
GAP_WORDS = frozenset(("gap", "contradiction", "contradict", "typo", "error", "choice"))


def _name_keys(e: RuleEntry) -> list[str]:
    """The phrases that name an entry exactly, reduced to stems (and without a trailing N)."""
    keys = []
    for phrase in [e.title, *e.aliases, e.id.replace("-", " ")]:
        key = " ".join(query_terms(phrase))
        if key.endswith(" n"):
            key = key[:-2]
        if key and key not in keys:
            keys.append(key)
    return keys


def build_index(entries: list[RuleEntry]) -> dict:
    """The cacheable search structure for these entries (order kept)."""
    postings: dict[str, dict[tuple[int, int], int]] = {}
    body_len = []
    for i, e in enumerate(entries):
        fields = (
            terms(" ".join([e.title, *e.aliases, e.id.replace("-", " ")])), terms(" ".join(e.tags)),
            terms(e.section), terms(" ".join([e.text, *e.steps, e.decision])),
        )
        body_len.append(len(fields[BODY]))
        for f, words in enumerate(fields):
            for w in words:
                slot = postings.setdefault(w, {})
                slot[(i, f)] = slot.get((i, f), 0) + 1
    flat = {w: tuple((i, f, n) for (i, f), n in slot.items()) for w, slot in postings.items()}
    return {
        "format": INDEX_FORMAT, "entries": [e.to_dict() for e in entries], "postings": flat,
        "body_len": body_len, "names": [_name_keys(e) for e in entries],
    }


class RulesIndex:
    """Search and lookups over a built index (see ``build_index``)."""

    def __init__(self, data: dict) -> None:
        self.data = data
        self.entries = [RuleEntry(**d) for d in data["entries"]]
        self.by_id = {e.id: e for e in self.entries}
        self.postings: dict[str, tuple[tuple[int, int, int], ...]] = data["postings"]
        self.body_len: list[int] = data["body_len"]
        self.names: list[list[str]] = data["names"]
        self.avg_body = (sum(self.body_len) / len(self.body_len)) if self.body_len else 1.0
        self._df: dict[str, int] = {}

    # ------------------------------------------------------------------ matching words

    def idf(self, term: str) -> float:
        df = self._df.get(term)
        if df is None:
            df = len({i for i, _, _ in self.postings.get(term, ())})
            self._df[term] = df
        n = len(self.entries)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def expand(self, q: str) -> dict[str, float]:
        """Index terms a query stem may mean, with how sure we are (1.0 = exact)."""
        if q in self.postings:
            return {q: 1.0}
        found: dict[str, float] = {}
        limit = 2 if len(q) >= 7 else 1 if len(q) >= 4 else 0
        for v in self.postings:
            if len(q) >= 3 and v.startswith(q):
                sim = 0.8
            elif len(v) >= 4 and q.startswith(v):
                sim = 0.75
            elif limit and abs(len(v) - len(q)) <= limit and (v[0] == q[0] or v[-1] == q[-1]):
                d = edit_distance(q, v, limit)
                if d > limit:
                    continue
                sim = 0.7 if d == 1 else 0.5
            else:
                continue
            if sim > found.get(v, 0.0):
                found[v] = sim
        best = sorted(found.items(), key=lambda kv: (-kv[1], -self.idf(kv[0]), kv[0]))
        return dict(best[:6])

    # ------------------------------------------------------------------ search

    def search(
        self, query: str, limit: int = 5, kinds: tuple[str, ...] | None = None
    ) -> list[tuple[RuleEntry, float]]:
        """Entries for a question, best first, with their scores (empty if nothing matches)."""
        qterms = query_terms(query)
        # Numbers ("Step 2", "8 wounds") help when the reference has them but never count
        # against an entry that lacks them, unless the question is nothing but numbers.
        words = [q for q in qterms if not q.isdigit()]
        numbers = [q for q in qterms if q.isdigit() and q in self.postings]
        if words:
            qterms = words + numbers
        if not qterms:
            return []
        needed = len(words) or len(qterms)
        per_term: list[dict[int, float]] = []
        via_name: dict[int, int] = {}
        best_forms: list[str] = []
        for q in qterms:
            scores: dict[int, float] = {}
            named: set[int] = set()
            alternatives = self.expand(q)
            # The phrase test below uses each word's most likely meaning ("nemisis" -> nemesis).
            best_forms.append(next(iter(alternatives), q))
            for v, sim in alternatives.items():
                idf = self.idf(v)
                by_entry: dict[int, float] = {}
                for i, f, n in self.postings[v]:
                    k = FIELD_K[f]
                    if f == BODY:
                        k *= 0.25 + 0.75 * self.body_len[i] / self.avg_body
                    by_entry[i] = by_entry.get(i, 0.0) + FIELD_WEIGHT[f] * n / (n + k)
                    if f == NAME:
                        named.add(i)
                for i, s in by_entry.items():
                    s *= sim * idf
                    if s > scores.get(i, 0.0):
                        scores[i] = s
            per_term.append(scores)
            for i in named:
                via_name[i] = via_name.get(i, 0) + 1
        phrase = " ".join(best_forms)
        gap_question = bool(GAP_WORDS & set(qterms))
        totals: dict[int, float] = {}
        for i in set().union(*per_term):
            e = self.entries[i]
            if kinds and e.kind not in kinds:
                continue
            parts = [s[i] for s in per_term if i in s]
            matched = sum(1 for n, s in enumerate(per_term) if i in s and n < needed)
            coverage = matched / needed
            if not coverage:
                continue
            score = sum(parts) * coverage * coverage
            if via_name.get(i, 0) >= needed:
                score *= 1.3
            if phrase in self.names[i]:
                score = score * 2.0 + 5.0
            if not gap_question:
                score *= KIND_PRIOR.get(e.kind, 1.0)
            totals[i] = score
        ranked = sorted(totals.items(), key=lambda kv: (-kv[1], self.entries[kv[0]].title))
        return [(self.entries[i], round(s, 4)) for i, s in ranked[:limit]]

    # ------------------------------------------------------------------ lookups

    def find(self, name: str, kinds: tuple[str, ...]) -> RuleEntry | None:
        """The entry of one of these kinds that ``name`` names, typos forgiven; else the entry
        of any kind it names exactly (:meth:`named`: an id from a Related line opens whichever
        word asks for it); else None."""
        if name in self.by_id and self.by_id[name].kind in kinds:
            return self.by_id[name]
        key = " ".join(query_terms(name))
        # "phase nemesis" means the Nemesis Phase, not the Nemesis: try "<name> phase" too.
        for candidate in (key, f"{key} {query_terms('phase')[0]}"):
            for i, e in enumerate(self.entries):
                if e.kind in kinds and candidate in self.names[i]:
                    return e
        low = name.strip().casefold()
        starts = [e for e in self.entries if e.kind in kinds and low
                  and (e.id.startswith(low) or e.title.casefold().startswith(low))]
        if len(starts) == 1:  # "symbol exhausted": the Exhausted Symbol
            return starts[0]
        if name in self.by_id:  # an id of another kind, as the Related lines show it
            return self.by_id[name]
        from blood_companion.matching import find

        found = find(name, [(e.id, e.title) for e in self.entries if e.kind in kinds])
        if found.id is not None:  # the id or title, a unique prefix or part: the one matcher
            return self.by_id[found.id]
        named = self.named(name)
        if named is not None:
            return named
        hits = self.search(name, limit=1, kinds=kinds)
        # A weak, partial match is not an answer to "keyword X": the caller suggests instead.
        if hits and hits[0][1] >= 1.5:
            return hits[0][0]
        return None

    def named(self, name: str) -> RuleEntry | None:
        """The entry of any kind that ``name`` names exactly: its id (as the Related lines and
        the search list it), its title or an alias, else the rulebook section it cites (a gap
        last, then the entry named like the section first). None if nothing is named so."""
        if name in self.by_id:
            return self.by_id[name]
        key = " ".join(query_terms(name))
        if not key:
            return None
        for i, e in enumerate(self.entries):
            if key in self.names[i]:
                return e
        cited = [(i, e) for i, e in enumerate(self.entries)
                 if " ".join(query_terms(e.section)) == key]
        cited.sort(key=lambda ie: (ie[1].kind == "gap", key not in " ".join(self.names[ie[0]])))
        return cited[0][1] if cited else None

    def of_kinds(self, kinds: tuple[str, ...]) -> list[RuleEntry]:
        return [e for e in self.entries if e.kind in kinds]

    def listing(self, kind: str | None = None) -> list[RuleEntry]:
        """Every entry (or those of one kind), grouped by kind, in reference order."""
        order = {k: n for n, k in enumerate(KINDS)}
        chosen = [e for e in self.entries if kind is None or e.kind == kind]
        return sorted(chosen, key=lambda e: order.get(e.kind, len(order)))
