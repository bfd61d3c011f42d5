"""After a recorded step the views of the campaign are stored anew (``cli/view_docs.refresh``):
a view that cannot be drawn for a reason a stored view may fairly meet (the data pack, the
cache folder) only costs speed, but a bug in a view builder is not hidden."""

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
    monkeypatch.setattr(view_docs, "show_doc", _raising(KeyError("troupers")))
    r = blood("campaign", "wagon", "--coins", "1")
    assert r.code == 1 and "unexpected KeyError" in r.err, (r.code, r.err)


@pytest.mark.parametrize(
    "error", [OSError("the cache folder is read-only"), RuleError("the pack no longer fits")]
)
def test_a_view_that_cannot_be_drawn_only_costs_speed(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    _new(blood)
    monkeypatch.setattr(view_docs, "show_doc", _raising(error))
    r = blood("campaign", "wagon", "--coins", "1", "--json")
    assert r.code == 0, r.err
    assert r.json()["log_length"] == 2  # the start, then the Wagon: recorded


def test_the_status_keeps_its_last_steps_sentences_for_the_next_refresh(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored status keeps the sentences of the steps it shows (views.keep ``said``); the
    next status reuses them instead of parsing those steps again, and none that another data
    pack or app version worded (views.kept_said)."""
    from blood_companion.cli import session, views
    from blood_companion.store import campaign_store

    assert blood("campaign", "new", "said", "--troupers", "aurel,zora", "--seed", "3").code == 0
    for coins in ("1", "2"):
        assert blood("campaign", "wagon", "--coins", coins).code == 0
    before = blood("status", "--json").json()["log"]
    with session.open_session() as store:
        said = views.kept_said(store)
        assert len(said) == len(before) == 3 and "Wagon adjusted: +2 coins" in said.values()
        parsed: list[str] = []
        real = campaign_store.parse_stored

        def parse_stored(data: str, av: int) -> Any:
            parsed.append(data)
            return real(data, av)

        monkeypatch.setattr(campaign_store, "parse_stored", parse_stored)
        assert [e.sentence for e in store.log(last=8, said=said)] == [
            e["sentence"] for e in before]
        assert parsed == []  # every sentence came from the stored status
        forged = {k: "(a forged sentence)" for k in said}
        assert {e.sentence for e in store.log(last=8, said=forged)} == {"(a forged sentence)"}
        store.log(last=8)
        assert len(parsed) == 3
        monkeypatch.setattr(views, "_said_key", lambda settings: {"version": "another"})
        assert views.kept_said(store) == {}  # worded by another app: worded anew
