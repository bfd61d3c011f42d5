"""How much of the box an owner has transcribed: per kind and per deck, how many records are
transcribed, still placeholder, printed in the rulebook, and how many keep free-text Effects
(words the app does not resolve: the table does)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from blood_companion.content import models as m
from blood_companion.content.cards import deck_of
from blood_companion.content.loader import KINDS


@dataclass
class Tally:
    total: int = 0
    transcribed: int = 0
    placeholder: int = 0
    rulebook: int = 0
    free_text: int = 0  # records with at least one free-text Effect
    free_text_effects: int = 0

    def add(self, record: Any) -> None:
        self.total += 1
        setattr(self, record.source, getattr(self, record.source) + 1)
        free = sum(e.is_free_text for e in m.effects_in(record))
        self.free_text_effects += free
        self.free_text += free > 0


@dataclass
class KindProgress:
    kind: str
    tally: Tally = field(default_factory=Tally)
    decks: dict[str, Tally] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = asdict(self.tally)
        if self.decks:
            out["decks"] = {d: asdict(t) for d, t in self.decks.items()}
        return out


def progress(catalog: Any) -> tuple[list[KindProgress], Tally]:
    """Counts per kind (in the data pack's order) and per deck within a kind, and the totals."""
    kinds: list[KindProgress] = []
    total = Tally()
    for kind in KINDS:
        entry = KindProgress(kind)
        for record in catalog.all(kind):
            entry.tally.add(record)
            total.add(record)
            deck = deck_of(kind, record)
            if deck is not None:
                entry.decks.setdefault(deck, Tally()).add(record)
        kinds.append(entry)
    return kinds, total


def progress_json(catalog: Any) -> dict[str, Any]:
    kinds, total = progress(catalog)
    return {"kinds": {k.kind: k.to_json() for k in kinds}, "totals": asdict(total)}
