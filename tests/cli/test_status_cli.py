"""`blood status` outside and inside a night."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import session, views
from blood_companion.store import CampaignStore


def test_status_by_day_and_by_night(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "s", "--troupers", "petru", "--seed", "1",
                 "--mode", "single").code == 0
    doc = blood("status", "--json").json()
    assert doc["night"] is None and doc["summary"]["troupers"][0]["trouper"] == "petru"
    assert blood("status").code == 0
    r = blood(
        "night",
        "setup",
        "--nemesis",
        "ilie",
        "--location",
        "catacombs-ossuary-gallery",
        "--minions",
        "undead-bone-sentinel,ghoul-crypt-gnawer",
    )
    assert r.code == 0, r.err
    doc = blood("status", "--json").json()
    night = doc["night"]
    assert night["threat"]["alerts"] and night["nemesis"]["id"] == "ilie"
    assert {"wounds", "vigor", "bites", "insanity", "exhausted", "items"} <= set(
        night["troupers"][0]
    )
    assert doc["next"]["prompt"]


# ---------------------------------------------------------------------- the stored status

NIGHT = ["night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]


def kept_status(saves_dir: Path, name: str) -> dict[str, Any] | None:
    """The status kept for campaign ``name`` (cli/views.py), as the next look reads it."""
    with CampaignStore.open(saves_dir, name, session.catalog) as store:
        return views.stored(store)


@pytest.mark.parametrize("as_json", [False, True])
def test_the_stored_status_prints_what_a_new_one_prints(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    """The status stored after a step (cli/views.py) is shown while the save is unchanged:
    the same text and JSON as the status drawn anew."""
    monkeypatch.setenv("COLUMNS", "80")
    assert blood("campaign", "new", "v", "--troupers", "zora,aurel", "--mode", "single",
                 "--seed", "4").code == 0
    assert blood(*NIGHT).code == 0  # records, and stores the status of the new state
    args = ["status", "--json"] if as_json else ["status"]
    assert kept_status(saves_dir, "v") is not None
    kept = blood(*args)
    for stored in (saves_dir / ".cache").glob("*.status.json"):
        stored.unlink()
    drawn = blood(*args)
    assert kept.code == drawn.code == 0, (kept.err, drawn.err)
    assert kept.out == drawn.out
    if as_json:
        assert json.loads(kept.out)["ok"] is True


def test_a_change_is_seen_at_once(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "w", "--troupers", "ioana", "--seed", "1").code == 0
    assert blood("day", "next").code == 0
    before = blood("campaign", "show", "--json").json()
    assert blood("campaign", "wagon", "--coins", "2").code == 0
    assert kept_status(saves_dir, "w")["wagon"]["coins"] == 2  # type: ignore[index]
    assert blood("status", "--json").json()["wagon"]["coins"] == before["wagon"]["coins"] + 2
    after = blood("campaign", "show", "--json").json()
    assert after["wagon"]["coins"] == before["wagon"]["coins"] + 2
    assert blood("campaign", "mark", "here").code == 0  # same head, new revision
    assert "[here]" in blood("campaign", "log").out
    assert blood("campaign", "undo").code == 0
    assert blood("campaign", "show", "--json").json()["wagon"] == before["wagon"]
    assert blood("status", "--json").json()["wagon"] == before["wagon"]
    assert "(undone)" in blood("campaign", "log").out


def test_the_log_shows_the_last_steps(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "l", "--troupers", "ioana", "--seed", "1").code == 0
    for _ in range(55):
        assert blood("campaign", "wagon", "--coins", "1").code == 0
    out = blood("campaign", "log").out
    assert "6 earlier step(s)" in out and " 56. " in out and " 6. " not in out
    every = blood("campaign", "log", "--last", "0").out
    assert " 1. Started" in every
    assert len(blood("campaign", "log", "--json").out.splitlines()) == 56
