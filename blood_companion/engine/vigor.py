"""A Trouper's Vigor tokens and the Bite tokens lying on them: the one place that counts them.

Rulebook: "Vigor Token", "Bite" (a Bite covers one Vigor token of the player's choice, either
side up; a covered token cannot be depleted), "Using a Vigor Token", "Show Phase" (Recovery).
The tokens are alike, so counts say everything: :class:`TrouperState` keeps ``vigor_depleted``,
``bites`` and ``bites_on_depleted``; :func:`layout` reads them, every change goes through here.
"""

from __future__ import annotations

from typing import NamedTuple

from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import TrouperState


class VigorLayout(NamedTuple):
    """The Vigor tokens of one Trouper, by side and cover."""

    available: int  # Available side up, no Bite: the only ones that pay a Cost
    available_bitten: int
    depleted: int  # Depleted side up, no Bite
    depleted_bitten: int

    @property
    def uncovered(self) -> int:
        """Tokens a new Bite can still cover."""
        return self.available + self.depleted

    @property
    def bites(self) -> int:
        return self.available_bitten + self.depleted_bitten


def layout(t: TrouperState, tokens: int) -> VigorLayout:
    """The board's Vigor space of ``t`` (counts set by hand read the nearest way it allows)."""
    down = min(t.vigor_depleted, tokens)
    up = tokens - down
    bites = min(t.bites, tokens)
    on_down = min(max(t.bites_on_depleted, bites - up), bites, down)
    on_up = min(bites - on_down, up)
    return VigorLayout(up - on_up, on_up, down - on_down, on_down)


def usable(t: TrouperState, tokens: int) -> int:
    """Vigor that can pay a Cost now: Available tokens with no Bite on them."""
    return layout(t, tokens).available


def check_deplete(t: TrouperState, tokens: int, n: int, who: str) -> None:
    """Refuse (RuleError) a Cost of ``n`` Vigor that ``t`` cannot pay."""
    have = usable(t, tokens)
    if have < n:
        bitten = layout(t, tokens).available_bitten
        why = f" ({bitten} Available token(s) under a Bite)" if bitten else ""
        raise RuleError(f"{who} has {have} usable Vigor{why}; the Cost is {n}")


def deplete(t: TrouperState, tokens: int, n: int, who: str) -> TrouperState:
    """Pay ``n`` Vigor: that many uncovered Available tokens turn Depleted."""
    check_deplete(t, tokens, n, who)
    lay = layout(t, tokens)
    return _set(t, up_bitten=lay.available_bitten, down=lay.depleted + n,
                down_bitten=lay.depleted_bitten)


def bite_options(t: TrouperState, tokens: int, n: int) -> list[int]:
    """Each number of ``n`` new Bites that may lie on Depleted tokens (one: no choice)."""
    lay = layout(t, tokens)
    placed = min(n, lay.uncovered)
    low = max(0, placed - lay.available)
    return list(range(low, min(placed, lay.depleted) + 1))


def bite(t: TrouperState, tokens: int, on_available: int, on_depleted: int) -> TrouperState:
    """New Bites on uncovered tokens, as many on each side as the player chose."""
    lay = layout(t, tokens)
    if on_available > lay.available or on_depleted > lay.depleted:
        raise RuleError(
            f"{lay.available} Available and {lay.depleted} Depleted Vigor token(s) have no Bite")
    return _set(t, up_bitten=lay.available_bitten + on_available,
                down=lay.depleted - on_depleted, down_bitten=lay.depleted_bitten + on_depleted)


def remove_bites(t: TrouperState, tokens: int, n: int) -> TrouperState:
    """``n`` Bites leave the board, off Available tokens first, which then pay again
    (docs/rules-decisions.md, "Bites on Vigor tokens")."""
    if t.bites < n:
        raise RuleError(f"{t.bites} Bite token(s) to discard; {n} asked")
    lay = layout(t, tokens)
    off_board = t.bites - lay.bites  # only counts set by hand hold more Bites than tokens
    off_down = max(0, n - off_board - lay.available_bitten)
    return t.model_copy(update={
        "bites": t.bites - n, "bites_on_depleted": lay.depleted_bitten - off_down})


def _set(t: TrouperState, *, up_bitten: int, down: int, down_bitten: int) -> TrouperState:
    return t.model_copy(update={
        "vigor_depleted": down + down_bitten, "bites": up_bitten + down_bitten,
        "bites_on_depleted": down_bitten})
