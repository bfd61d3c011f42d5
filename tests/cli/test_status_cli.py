"""`blood status` outside and inside a night."""

from __future__ import annotations

from pathlib import Path
from typing import Any


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
