"""`blood play --json`: the question waiting now, as one JSON document."""

from __future__ import annotations

from pathlib import Path


def test_play_json_new_then_question(blood, saves_dir: Path) -> None:  # type: ignore[no-untyped-def]
    r = blood("play", "--new", "j", "--troupers", "aurel,zora", "--seed", "2", "--json")
    assert r.code == 0, r.err
    doc = r.json()  # exactly one document, even with --new
    assert doc["campaign"] == "j" and doc["log_length"] == 1
    assert doc["choices"][0]["action"] == {"type": "day_recover"}
    assert doc["default"] == "1"
    assert blood("day", "recover").code == 0
    doc = blood("play", "--json").json()
    assert doc["log_length"] == 2
    keys = [c["key"] for c in doc["choices"]]
    assert doc["default"] in keys
    # asking does not record anything
    assert blood("play", "--json").json()["state_hash"] == doc["state_hash"]
