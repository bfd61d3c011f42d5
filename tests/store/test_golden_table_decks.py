"""Issue 17 and the golden saves: a campaign of app 0.1.0 (every deck with the app) opens with
the app holding every deck, and can hand decks to the table from then on, as a step that undo,
redo, verify and export/import keep. Mid-night the Trouper decks and the Reaction deck stay
where they are."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_golden_saves import GOLDEN, doc, run


def _copy(tmp_path: Path, name: str) -> Path:
    saves = tmp_path / "saves"
    saves.mkdir()
    original = GOLDEN / "v0.1.0" / f"{name}.blood.db"
    shutil.copy(original, saves / original.name)
    return saves


def test_an_old_day_campaign_hands_its_decks_to_the_table(tmp_path: Path) -> None:
    saves = _copy(tmp_path, "day")
    before = doc(saves, "day", "campaign", "show")
    held = doc(saves, "day", "campaign", "decks")["decks"]
    assert set(held.values()) == {"app"}
    after = doc(saves, "day", "campaign", "decks", "all=table")
    assert after["log_length"] == before["log_length"] + 1
    assert set(after["decks"].values()) == {"table"}
    assert doc(saves, "day", "campaign", "verify")["ok"]
    undone = doc(saves, "day", "campaign", "undo")
    assert undone["state_hash"] == before["state_hash"]
    redone = doc(saves, "day", "campaign", "redo")
    assert redone["state_hash"] == after["state_hash"]
    export = tmp_path / "day.json"
    run(saves, "day", "campaign", "export", str(export))
    run(saves, "day", "campaign", "import", str(export), "--name", "day-copy")
    assert doc(saves, "day-copy", "campaign", "show")["state_hash"] == after["state_hash"]
    _, log = run(saves, "day", "campaign", "log")
    assert "Who holds the decks: the Trouper decks: the players" in log


def test_an_old_night_keeps_its_trouper_decks_until_the_end_of_the_night(tmp_path: Path) -> None:
    saves = _copy(tmp_path, "night")
    shown = doc(saves, "night", "campaign", "show")
    if shown["part"] != "night":  # pragma: no cover - the golden night save is mid-night
        return
    code, _ = run(saves, "night", "campaign", "decks", "troupers=table", ok=False)
    assert code == 1
    assert doc(saves, "night", "campaign", "show")["log_length"] == shown["log_length"]
    after = doc(saves, "night", "campaign", "decks", "minions=table,loot=table")
    assert after["decks"]["minions"] == "table" and after["decks"]["troupers"] == "app"
    assert doc(saves, "night", "campaign", "verify")["ok"]
