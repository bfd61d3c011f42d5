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


def test_play_json_gives_each_choice_its_action_and_command(blood, saves_dir: Path) -> None:  # type: ignore[no-untyped-def]
    assert blood("campaign", "new", "k", "--troupers", "aurel", "--seed", "2").code == 0
    assert blood("day", "recover").code == 0
    doc = blood("play", "--json").json()
    assert {"part", "step", "title", "question", "who", "need", "info", "default", "free_text",
            "multi", "many", "test", "end", "choices", "campaign", "log_length",
            "state_hash"} <= set(doc)
    assert (doc["part"], doc["step"], doc["need"]) == ("day", "purchases", None)
    for c in doc["choices"]:
        assert {"key", "label", "enabled", "why", "action", "follow_up", "command"} <= set(c)
        assert c["command"].startswith("blood ")
        assert c["follow_up"] == (c["action"] is None)
        if not c["enabled"]:
            assert c["why"]
    keys = [c["key"] for c in doc["choices"]]
    assert len(keys) == len(set(keys)) and "z" in keys and "b1" in keys
