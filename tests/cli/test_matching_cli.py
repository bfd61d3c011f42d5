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


def test_end_loot_reads_a_resource_as_day_does() -> None:
    """`blood end loot --resource` names a Resource through the same matcher as `blood day`:
    its name, a unique start, the singular, a small typo; anything else is a usage error that
    says did you mean."""
    import pytest

    from blood_companion.cli import day_cmd, end_cmd
    from blood_companion.errors import UsageError

    read_end, read_day = end_cmd.RESOLVE["resource"], day_cmd.RESOLVE["resource"]
    for word, meant in [("coins", "coins"), ("co", "coins"), ("coin", "coins"),
                        ("jewls", "jewels"), ("Scrolls", "scrolls")]:
        assert read_end(None, word, None) == read_day(None, word, None) == meant
    with pytest.raises(UsageError, match="unknown Resource 'jwlz'") as refused:
        read_end(None, "jwlz", None)
    assert "did you mean 'jewels'?" in str(refused.value.hint)
    with pytest.raises(UsageError, match="unknown Resource 'xyz'"):
        read_end(None, "xyz", None)
