"""An owner's first evening at the command line (issue 43): natural notes import in one run and
say every phrase they store in other words; an ambiguous name lists each card with its id, side
and deck; the same-name warning in `import-text` and `transcribe`, never for a card the same
file replaces; and the new card words (a Step toward a Target, a Cube on a Tile, a Condition the
table judges) played in a night from a test's own data folder."""

from __future__ import annotations

import builtins
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.common import stdout
from blood_companion.cli.entry import main
from blood_companion.content.loader import load_catalog
from blood_companion.engine import words

CORPUS = Path(__file__).parents[1] / "content" / "owner_corpus"
FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))


@pytest.fixture()
def overlay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "my-box"
    monkeypatch.setenv("BLOOD_DATA_DIR", str(folder))
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path / "saves"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(stdout, "_width", 200)
    monkeypatch.chdir(tmp_path)
    return folder


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_natural_notes_import_in_one_run_and_say_what_they_normalise(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    notes = tmp_path / "corvin.txt"
    shutil.copy(CORPUS / "nemesis_notes.txt", notes)
    code, out, err = run(capsys, "data", "import-text", str(notes), "--dry-run")
    assert code == 0, err
    assert "read as a Weakness card (its lines; the heading names its deck)" in out
    assert "line 23: 'Condition: 2 Bite Tokens' is stored as 'Condition: 2+ Bites'" in out
    code, out, _ = run(capsys, "data", "import-text", str(notes), "--dry-run", "--json")
    cards = {c["name"]: c for c in json.loads(out)["cards"]}
    assert cards["Ribcage Crack"]["read_as"] == [
        {"line": 23, "typed": "Condition: 2 Bite Tokens", "stored": "Condition: 2+ Bites"}]
    assert cards["Lantern Walk"]["read_as"] == []  # typed as it is stored
    items = tmp_path / "petru.txt"
    shutil.copy(CORPUS / "trouper_notes.txt", items)
    for path in (notes, items):
        code, out, err = run(capsys, "data", "import-text", str(path))
        assert code == 0, err
        # Lucky Horseshoe takes another slot while the same file replaces the placeholder of
        # that name: no warning about a name no card will have
        assert "another card is also named" not in out
    code, out, _ = run(capsys, "card", "show", "Strongman's Belt")
    assert "Condition: on a Strength Test. Outcome: +1 Bonus Triumph." in out
    code, out, _ = run(capsys, "card", "show", "Ribcage Crack")
    assert "Physical Defense -1 on this side" in out


def test_an_ambiguous_name_lists_each_card_with_its_id_side_and_deck(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    deck = tmp_path / "aurel-deck.txt"
    shutil.copy(FIXTURES / "aurel-deck.txt", deck)
    assert run(capsys, "data", "import-text", str(deck))[0] == 0
    code, _, err = run(capsys, "card", "show", "Catch and Return")
    assert code == 1
    assert "Catch and Return [aurel-t10], Starting Tactic card of Aurel" in err
    assert "Catch and Return [adv-juggling-03], Advanced Tactic card (Juggling deck)" in err
    assert "Catch and Return, Catch and Return" not in err

    horseshoe = tmp_path / "horseshoe.txt"
    horseshoe.write_text("== Petru: Items ==\n\nLucky Horseshoe - Tool - Upgrade: 1 Coin\n"
                         "Starting side: Quick. Cost: Deplete this Item. Outcome: Re-roll 1.\n"
                         "Advanced side:\n"
                         "Quick. Cost: Deplete this Item. Outcome: Re-roll 2.\n",
                         encoding="utf-8")
    code, out, err = run(capsys, "data", "import-text", str(horseshoe))
    assert code == 0, err
    # the placeholder of that name stays: said, with its id
    assert "another card is also named 'Lucky Horseshoe' (petru-i06)" in out
    code, _, err = run(capsys, "card", "show", "Lucky Horseshoe")
    assert code == 1
    assert "Lucky Horseshoe [petru-i03], Trouper Item card of Petru" in err
    assert "Lucky Horseshoe [petru-i06], Starting side of a Trouper Item card of Petru" in err
    assert "Bent Horseshoe" not in err  # an advanced-side name the owner never typed
    code, out, _ = run(capsys, "card", "show", "petru-i03")
    assert code == 0 and "Advanced side (upgrade: 1 Coin): Lucky Horseshoe · Quick" in out


def test_transcribe_warns_of_a_name_another_card_has(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["Wingbeat Descent", "", "", "", "", "Outcome: +1 Threat.", "", "", "",
                    "quit"])
    monkeypatch.setattr(builtins, "input", lambda *a: next(answers))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "data", "transcribe", "reactions", "corvin-r03")
    assert code == 0, err
    assert "Wingbeat Descent [corvin-r03] written to" in out
    assert "another card is also named 'Wingbeat Descent' (lucilla-r01)" in out


# --------------------------------------------------------------------------- played in a night

FORMS = [
    "Target: Self. Outcome: Step 1 toward the closest Trouper.",
    "Target: Tile (Distance 0-1). Outcome: Place a Cube.",
    "Target: Trouper (any distance; most Bites). Condition: the target stands on a Crypt Tile. "
    "Outcome: Move 2 away from the Nemesis.",
]


def test_the_new_card_words_are_played_in_a_night(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    """Corvin's deck typed with the words the app could not hold before, played in whole nights
    by the bot: each is told to the table as a physical instruction, and the Condition only the
    table can judge is asked (the bot answers yes or no), never assumed."""
    from night_bot import new_table, step

    notes = tmp_path / "corvin.txt"
    notes.write_text("== Corvin: Reaction cards ==\n\n" + "\n".join(
        f"Card {k + 1}\n{FORMS[k % 3]}\n" for k in range(12)), encoding="utf-8")
    code, _, err = run(capsys, "data", "import-text", str(notes))
    assert code == 0, err
    cat = load_catalog(overlay, use_cache=False)
    said: list[str] = []
    asked: list[str] = []
    for seed in range(3):
        table = new_table(cat, 2, seed=seed, bot_seed=seed, nemesis="corvin")
        for _ in range(3000):
            if table.night.phase == "over":
                break
            asked += [q.prompt for q in table.night.pending]
            step(table)
        said += [words.render(e, cat) for e in table.night.log]
    toward = [s for s in said if "Step 1" in s and "toward the closest of" in s]
    assert toward, "no Step toward a Trouper was told"
    assert "(the Map shows which; a tie: the Leader's Rule)" in toward[0]
    assert any(s.startswith("PLACE a Cube (Corpse) on a Tile at Distance 0-1 from Corvin")
               for s in said)
    assert any("does its Condition hold? the target stands on a Crypt Tile" in q for q in asked)
    held = [s for s in said if "Move 2" in s and "away from Corvin the Gravewarden" in s]
    skipped = [s for s in said if "its Condition does not hold, the Effect is skipped" in s]
    assert held and skipped  # the table's answer decides, both ways
