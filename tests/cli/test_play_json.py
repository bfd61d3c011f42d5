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


def _pick(doc: dict, turn: int) -> str:  # type: ignore[type-arg]
    """What a script answers to the document's question: now and then a choice that asks a
    follow-up, else Enter where there is a default, else the first open choice."""
    if len(doc["answers"]) > 3:
        return "back"  # a pick the script cannot complete: the top menu again
    open_ = [c for c in doc["choices"] if c["enabled"]]
    follow = [c["key"] for c in open_ if c["follow_up"]]
    if follow and turn % 3 == 0:
        return str(follow[turn % len(follow)])
    if doc["default"] is not None:
        return ""
    if doc["confirm"]:
        return "y"
    if not open_:
        return "1"  # a face or a number the table reads
    n = doc["many"][0] if doc["many"] else 1
    return " ".join(c["key"] for c in open_[: max(1, n)])


def test_play_answer_records_what_the_same_lines_record_typed(  # type: ignore[no-untyped-def]
    blood, saves_dir: Path, monkeypatch
) -> None:
    """Issue 26, Build 7: `blood play --json --answer ...` driven by its own documents (a
    follow-up's choices listed, the answers that led there handed back) records the very log
    the same lines record typed at `blood play`: same actions, same state hashes."""
    import io

    from blood_companion.cli import session

    def new() -> None:
        assert blood("campaign", "new", "g", "--troupers", "aurel,zora", "--seed", "5").code == 0

    def log() -> list[tuple[str, dict, str | None]]:  # type: ignore[type-arg]
        with session.open_session("g") as store:
            return [(e.type, e.data, e.state_hash) for e in store.log()]

    new()
    lines: list[str] = []
    doc = blood("play", "--campaign", "g", "--json").json()
    follow_ups = 0
    for turn in range(80):
        line = _pick(doc, turn)
        lines.append(line)
        doc = blood("play", "--campaign", "g", "--json",
                    *[a for x in [*doc["answers"], line] for a in ("--answer", x)]).json()
        follow_ups += bool(doc["answers"])
        if doc["answers"]:
            assert doc["need"] is not None or doc["confirm"]
    logs = [log()]
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(saves_dir.parent / "typed"))
    new()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(x + "\n" for x in lines)))
    assert blood("play", "--campaign", "g").code == 0
    logs.append(log())
    assert follow_ups > 3 and len(logs[0]) > 20
    assert logs[0] == logs[1]
