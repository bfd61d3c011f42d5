"""A transcribed card is exactly the printed card, at the command line (issue 27):
`import-text --dry-run` says where every field came from, `transcribe` asks before taking a
placeholder's value, `card show` shows the card as printed, a name shared with another card is
warned about, and a data edit reaches a question already waiting in `blood play`."""

from __future__ import annotations

import builtins
import io
import json
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.common import stdout
from blood_companion.cli.entry import main


@pytest.fixture()
def overlay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "my-box"
    monkeypatch.setenv("BLOOD_DATA_DIR", str(folder))
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path / "saves"))
    monkeypatch.setenv("COLUMNS", "200")
    # the commands' console is made once per process, on the first import of cli.common, and
    # rich reads COLUMNS only then: an earlier test file may have fixed another width
    monkeypatch.setattr(stdout, "_width", 200)
    monkeypatch.chdir(tmp_path)
    return folder


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


ITEM = """\
kind: trouper_items
trouper: aurel

Padded Vest
category: protection
upgrade cost: 4 any
Starting side: Quick. Cost: Deplete this Item. Outcome: +1 Triumph.
Advanced side: Silk Vest
Quick. Cost: Deplete this Item. Outcome: +2 Triumphs.
"""


def test_dry_run_lists_every_field_and_where_it_came_from(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    path = tmp_path / "item.txt"
    path.write_text(ITEM, encoding="utf-8")
    code, out, err = run(capsys, "data", "import-text", str(path), "--dry-run")
    assert code == 0, err
    assert "upgrade cost: 4 any  ← line 6" in out
    assert "starting side name: Padded Vest  ← line 4 (the card's name)" in out
    assert "starting side quick: yes  ← line 7" in out
    assert "trouper: aurel  ← the kind: block, line 2" in out
    # a side's Quick is read from its typed "Quick." on either side (issue 43: the Advanced
    # side's "Quick. Cost: ..." was stored as not Quick)
    assert "advanced side quick: yes  ← line 9" in out
    # a normalised phrase is shown as it is stored
    assert "line 9: 'Outcome: +2 Triumphs' is stored as 'Outcome: +2 Bonus Triumphs'" in out
    assert "kept from the card it replaces" not in out
    code, out, _ = run(capsys, "data", "import-text", str(path), "--dry-run", "--json")
    fields = {f["field"]: f for f in json.loads(out)["cards"][0]["fields"]}
    assert fields["upgrade cost"] == {"field": "upgrade cost", "value": "4 any",
                                      "from": "line 6"}
    assert not (overlay / "trouper_items").exists()


def test_card_show_shows_the_card_as_printed(overlay: Path, capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "item.txt"
    path.write_text(ITEM, encoding="utf-8")
    assert run(capsys, "data", "import-text", str(path))[0] == 0
    code, out, err = run(capsys, "card", "show", "Padded Vest")
    assert code == 0, err
    assert "upgrade: 4 any" in out and "upgrade: free" not in out
    assert "Starting side: Padded Vest · Quick" in out
    assert "Advanced side (upgrade: 4 any): Silk Vest · Quick\n" in out  # typed "Quick."
    code, out, _ = run(capsys, "card", "show", "corvin-r01")
    assert code == 0 and "Fatigue: Physical 0" not in out


def test_a_name_another_card_has_is_warned(overlay: Path, capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "clash.txt"
    path.write_text("kind: starting_tactics\ntrouper: aurel\n\nWingbeat Descent\nart: alchemy\n"
                    "threat: 1\nOutcome: Step 1.\n", encoding="utf-8")
    code, out, err = run(capsys, "data", "import-text", str(path), "--dry-run")
    assert code == 0, err
    assert "another card is also named 'Wingbeat Descent' (lucilla-r01)" in out


def test_transcribe_shows_a_placeholder_value_before_keeping_it(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["Sudden Gust", "", "", "", "", "Outcome: +1 Threat.", "", "", "", "quit"])
    monkeypatch.setattr(builtins, "input", lambda *a: next(answers))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "data", "transcribe", "reactions", "corvin-r03")
    assert code == 0, err
    assert "interruption: yes (from the placeholder) — keep? [y/N]: " in out
    assert "interruption [yes]" not in out
    code, out, _ = run(capsys, "data", "show", "reactions", "corvin-r03", "--json")
    record = json.loads(out)["reactions"][0] if "reactions" in json.loads(out) else \
        json.loads(out)
    assert record["source"] == "transcribed" and record["interruption"] is False


@pytest.mark.parametrize("answer", ["status", "1"], ids=["a command", "the answer"])
def test_a_data_edit_reaches_a_waiting_question(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, answer: str
) -> None:
    # the Recovery question waits; the owner transcribes a card meanwhile (another terminal),
    # then types a command or answers it: the app says so and asks again with the new card
    overlay.mkdir()
    card = tmp_path / "petru.txt"
    card.write_text("kind: starting_tactics\ntrouper: petru\n\nNew Words [petru-t01]\n"
                    "art: alchemy\nthreat: 1\nOutcome: Step 1.\n", encoding="utf-8")
    said: list[str] = []

    def typed(prompt: str = "") -> str:
        said.append(prompt)
        if len(said) == 2:
            assert main(["data", "import-text", str(card)]) == 0
            return answer
        return "" if len(said) < 2 else "quit"

    monkeypatch.setattr(builtins, "input", typed)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "play", "--new", "eve", "--troupers", "petru", "--seed", "2")
    assert code == 0, err
    assert "Your data changed since this question was asked" in out
    assert "asking again with the new cards; nothing recorded is changed" in out
    assert out.count("Recovery") >= 2  # the same question, asked again
    code, out, _ = run(capsys, "campaign", "show", "--json")
    doc = json.loads(out)
    assert doc["phase"] == "recovery" and doc["log_length"] == 1  # nothing recorded
