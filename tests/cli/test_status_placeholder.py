"""`blood status` marks the placeholder content in play (and not the transcribed one)."""

from __future__ import annotations

import json
from pathlib import Path


def test_placeholder_mark(blood, saves_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert blood("campaign", "new", "m", "--troupers", "aurel", "--seed", "1").code == 0
    doc = blood("status", "--json").json()
    assert "Troupers" in doc["placeholder"] and "dice" in doc["placeholder"]
    r = blood("status")
    assert "Placeholder content: Troupers" in r.out
    # an owner who transcribed Aurel's card no longer sees Troupers marked
    card = blood("data", "show", "troupers", "aurel", "--json").json()
    card.pop("ok")
    card["source"] = "rulebook"
    overlay = tmp_path / "box"
    overlay.mkdir()
    (overlay / "troupers.yaml").write_text(json.dumps([card]))
    doc = blood("--data-dir", str(overlay), "status", "--json").json()
    assert "Troupers" not in doc["placeholder"]
