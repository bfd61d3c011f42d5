"""`day`, `night` and `rules` name things through the one matcher, with "did you mean"."""

from __future__ import annotations

from typing import Any


def test_the_cli_uses_it(blood: Any, saves_dir: Any) -> None:
    """`day` (buildings, Resources), `night` (cards in hand) and `rules` say did you mean."""
    assert blood("campaign", "new", "m", "--troupers", "aurel", "--seed", "2").code == 0
    assert blood("day", "recover").code == 0
    r = blood("day", "buy", "hunting-hous", "--pay", "jewls=2")  # small typos are taken
    assert r.code == 1 and "the Hunting House costs" in r.err and "payment gives 2" in r.err
    r = blood("day", "buy", "hunting-hous", "--pay", "jwlz=2")
    assert r.code == 2 and "did you mean 'jewels'?" in r.err
    r = blood("day", "buy", "hntng-hs")
    assert r.code == 1 and "did you mean 'hunting-house'" in r.err
    assert blood("rules", "keyword", "pushh").code == 0  # the search forgives this one
    r = blood("rules", "keyword", "rnu")
    assert r.code == 1 and "did you mean 'run'?" in r.err
