"""The Chain's spaces as places on the Night Board ("Night Board", "Planning Phase"): a card
stays on its space until the Cleanup (a new one goes on the leftmost free space, maybe left of
an Event). A :class:`ChainSlot` stores its 0-based ``space`` only where it is not its place in
the list; :func:`number` and :func:`index_at` are the one way between the two.
"""

from __future__ import annotations

from collections.abc import Sequence

from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_state import ChainSlot


def spaces(chain: Sequence[ChainSlot]) -> list[int]:
    """The 0-based space of each card, left to right (stored, or its list position)."""
    return [s.space if s.space is not None else k for k, s in enumerate(chain)]


def number(chain: Sequence[ChainSlot], k: int) -> int:
    """The space of the card at list index ``k`` as the board numbers it (1 = leftmost)."""
    slot = chain[k]
    return (slot.space if slot.space is not None else k) + 1


def index_at(chain: Sequence[ChainSlot], space: int) -> int | None:
    """The list index of the card on Chain space ``space`` (1-based), or None if it is free."""
    for k, sp in enumerate(spaces(chain)):
        if sp == space - 1:
            return k
    return None


def card_at(chain: Sequence[ChainSlot], space: int) -> int:
    """The list index of the card on Chain space ``space`` (1-based), which must hold one."""
    k = index_at(chain, space)
    if k is None:
        raise RuleError(f"no card on Chain space {space}")
    return k


def leftmost_free(chain: Sequence[ChainSlot]) -> int:
    """The 0-based leftmost free space."""
    taken = set(spaces(chain))
    return next(sp for sp in range(len(chain) + 1) if sp not in taken)


def place(chain: Sequence[ChainSlot], slot: ChainSlot) -> tuple[list[ChainSlot], int]:
    """``slot`` on the leftmost free space ("Planning Phase"): the new Chain (left to right)
    and the list index of the card placed."""
    sp = leftmost_free(chain)
    cards = sorted([*zip(spaces(chain), chain, strict=True), (sp, slot)], key=lambda x: x[0])
    return on_spaces(cards), next(k for k, (s, _) in enumerate(cards) if s == sp)


def keep(chain: Sequence[ChainSlot], kept: Sequence[int]) -> list[ChainSlot]:
    """The Chain once the cards at the list indexes ``kept`` alone stay ("Cleanup Phase")."""
    sp = spaces(chain)
    return on_spaces([(sp[k], chain[k]) for k in kept])


def on_spaces(cards: Sequence[tuple[int, ChainSlot]]) -> list[ChainSlot]:
    """The Chain of (0-based space, card) pairs, left to right."""
    out = []
    for k, (sp, s) in enumerate(cards):
        want = None if sp == k else sp
        out.append(s if s.space == want else s.model_copy(update={"space": want}))
    return out
