"""A Trouper's Vigor tokens and the Bite tokens lying on them: the one place that counts them.

Rulebook: "Vigor Token" (six tokens, Available or Depleted side up), "Bite" (a Bite covers one
Vigor token of the player's choice, face up or face down; a covered token cannot be depleted
and counts for no prerequisite until the Bite leaves it; with every token covered a new Bite is
not placed), "Using a Vigor Token" (a Cost in Vigor flips Available tokens with no Bite on
them), "Show Phase" (Recovery: every token Available, then the Bites back on them).

Vigor tokens are alike, so four counts say everything the board shows (a token-by-token
list would only name which of equal tokens is which). :class:`TrouperState` keeps three of
them: ``vigor_depleted`` (tokens Depleted side up, bitten or not), ``bites`` (every Bite
token) and ``bites_on_depleted`` (the Bites lying on Depleted tokens); :func:`layout` reads
them, and every change goes through a function here.
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
    """The board's Vigor space of ``t`` with ``tokens`` Vigor tokens. Counts set by hand that do
    not fit together (more Bites on Available tokens than there are) are read the nearest way
    the board allows: Bites beyond the Available tokens lie on Depleted ones."""
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
    """Pay ``n`` Vigor: that many uncovered Available tokens turn Depleted. Raises RuleError."""
    check_deplete(t, tokens, n, who)
    lay = layout(t, tokens)
    return _set(t, up_bitten=lay.available_bitten, down=lay.depleted + n,
                down_bitten=lay.depleted_bitten)


def bite_options(t: TrouperState, tokens: int, n: int) -> list[int]:
    """How many of ``n`` new Bites may lie on Depleted tokens, each way the player could place
    them (the rest on Available ones; Bites beyond the uncovered tokens are not placed). One
    entry: the board leaves no choice."""
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
    """``n`` Bites leave the board (a Cost, the Sanatorium). They come off Available tokens
    first, which then pay again; a Bite taken off a Depleted token frees nothing before the
    Recovery, where every Bite goes back on an Available token anyway (docs/rules-decisions.md,
    "Bites on Vigor tokens"). Raises RuleError without ``n`` Bites."""
    if t.bites < n:
        raise RuleError(f"{t.bites} Bite token(s) to discard; {n} asked")
    lay = layout(t, tokens)
    off_board = t.bites - lay.bites  # only counts set by hand hold more Bites than tokens
    off_down = max(0, n - off_board - lay.available_bitten)
    return t.model_copy(update={
        "bites": t.bites - n, "bites_on_depleted": lay.depleted_bitten - off_down})


def _set(t: TrouperState, *, up_bitten: int, down: int, down_bitten: int) -> TrouperState:
    """The counts kept on the state from a layout (the uncovered Available tokens are the
    rest of the tokens)."""
    return t.model_copy(update={
        "vigor_depleted": down + down_bitten, "bites": up_bitten + down_bitten,
        "bites_on_depleted": down_bitten})
