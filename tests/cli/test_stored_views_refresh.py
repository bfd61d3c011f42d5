"""After a recorded step the status of the campaign is stored anew (``cli/view_docs.refresh``):
a status that cannot be drawn for a reason a stored one may fairly meet (the data pack, the
cache folder) only costs speed, but a bug in the view's builder is not hidden."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import view_docs
from blood_companion.engine.errors import RuleError


def _new(blood: Any) -> None:
    r = blood("campaign", "new", "c", "--troupers", "aurel,ioana", "--seed", "3")
    assert r.code == 0, r.err


def _raising(error: Exception) -> Any:
    def build(*_: Any, **__: Any) -> Any:
        raise error

    return build


def test_a_bug_in_a_view_builder_is_not_hidden(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _new(blood)
    monkeypatch.setattr(view_docs, "_now", _raising(KeyError("troupers")))
    r = blood("campaign", "wagon", "--coins", "1")
    assert r.code == 1 and "unexpected KeyError" in r.err, (r.code, r.err)


@pytest.mark.parametrize(
    "error", [OSError("the cache folder is read-only"), RuleError("the pack no longer fits")]
)
def test_a_view_that_cannot_be_drawn_only_costs_speed(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    _new(blood)
    monkeypatch.setattr(view_docs, "_now", _raising(error))
    r = blood("campaign", "wagon", "--coins", "1", "--json")
    assert r.code == 0, r.err
    assert r.json()["log_length"] == 2  # the start, then the Wagon: recorded
