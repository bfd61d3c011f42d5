"""Transcribing the box: a whole Trouper deck from a text file (then a night played with it),
every bad card reported with file:line and nothing written, id collisions, the text template,
progress, and the interactive loop driven by answers on standard input."""

from __future__ import annotations

import builtins
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from blood_companion.cli.entry import main
from blood_companion.content import models as m
from blood_companion.content.effect_text import parse_effect
from blood_companion.content.loader import load_catalog, shipped_data_dir, validate_layers
from blood_companion.content.render import render_effect

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))


@pytest.fixture()
def overlay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The owner's data folder (--data-dir) for one test, and a saves folder."""
    folder = tmp_path / "my-box"
    monkeypatch.setenv("BLOOD_DATA_DIR", str(folder))
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path / "saves"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.chdir(tmp_path)
    return folder


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def written_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml")) if folder.exists() else []


# --------------------------------------------------------------------------- a whole deck


def test_a_trouper_deck_from_a_text_file_then_a_night_with_it(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    deck = tmp_path / "aurel-deck.txt"
    shutil.copy(FIXTURES / "aurel-deck.txt", deck)
    code, out, err = run(capsys, "data", "import-text", str(deck))
    assert code == 0, err
    assert "Wrote 12 card(s) to my-box/starting_tactics/aurel.transcribed.yaml" in out
    assert "1 free-text Effect(s)" in out

    # The overlay is readable YAML with its schema line, marked transcribed.
    (path,) = written_files(overlay)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/starting_tactics.schema")
    assert (overlay / "schemas" / "starting_tactics.schema.json").is_file()
    assert "# Target: Enemy (Distance 0-3). Cost: Deplete 1 Vigor. Condition: 2+ Bites." in text
    records = yaml.safe_load(text)
    assert [r["id"] for r in records] == [f"aurel-t{i:02}" for i in range(1, 13)]
    assert {r["source"] for r in records} == {"transcribed"}

    # The catalog with that overlay holds the typed cards, in the deck's slots.
    cat = load_catalog(overlay, use_cache=False)
    cards = cat.starting_tactics_for("aurel")
    assert [c.name for c in cards][:3] == ["Ricochet", "Highwire Strike", "Tumble Through"]
    assert all(c.source == "transcribed" and c.trouper == "aurel" for c in cards)
    by_name = {c.name: c for c in cards}
    assert by_name["Tumble Through"].cascade and by_name["Dizzying Bow"].block
    clubs = by_name["Burning Clubs"].effects[0]
    assert clubs == parse_effect(
        "Target: Enemy (Distance 0-3). Condition: 2+ Bites. Cost: Deplete 1 Vigor. "
        "Outcome: Physical Attack, Physical Attack (Dexterity / Cunning)."
    )
    assert by_name["Knife Fan"].effects[0].target.area == ["0,0", "1,0", "2,0"]
    (free,) = by_name["Catch and Return"].effects
    assert free.is_free_text and free.free_text.startswith("Swap places")
    # the other Troupers' decks are untouched placeholders
    assert all(c.source == "placeholder" for c in cat.starting_tactics_for("ioana"))

    # progress counts them, free text included
    code, out, _ = run(capsys, "data", "progress", "--json")
    doc = json.loads(out)
    aurel = doc["kinds"]["starting_tactics"]["decks"]["aurel"]
    assert aurel == {"total": 12, "transcribed": 12, "placeholder": 0, "rulebook": 0,
                     "free_text": 1, "free_text_effects": 1}

    # A night with Aurel's typed deck: the Tactic Phase offers the typed Effects, in words.
    from night_bot import new_table, step

    from blood_companion.engine.night import activation_options

    table = new_table(cat, 2, seed=3)
    assert sorted(table.state.troupers[0].deck) == [c.id for c in cards]
    offered: dict[str, list[str]] = {}
    for _ in range(3000):
        night = table.night
        if night.phase == "over":
            break
        act = night.activation
        if night.phase == "tactic" and act is not None and not night.pending:
            slot = night.chain[act.slot]
            if slot.kind == "tactic" and slot.card.startswith("aurel-"):
                options = activation_options(table.state, cat)
                offered[slot.card] = [e["text"] for e in options.get("effects", [])]
        step(table)
    assert table.night.phase == "over"
    assert offered, "Aurel never played a card"
    for card_id, texts in offered.items():
        card = cat.tactic(card_id)
        assert card is not None and card.source == "transcribed"
        assert texts == [render_effect(e) for e in card.effects][: len(texts)]
        assert texts


def test_kinds_read_back_from_their_text_template(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    """export-text writes a kind in a form import-text reads back to the same cards: the kinds
    with sides, nested lists and tables here (every record of every kind goes through the text
    form in tests/content/test_transcribe.py)."""
    shipped = validate_layers([shipped_data_dir()])
    for kind in ("trouper_items", "vlad_reactions", "nemeses", "locations", "dice", "events"):
        path = tmp_path / f"{kind}.txt"
        code, _, err = run(capsys, "data", "export-text", kind, "--out", str(path))
        assert code == 0, err
        code, out, err = run(capsys, "data", "import-text", str(path), "--dry-run", "--json")
        assert code == 0, (kind, err)
        doc = json.loads(out)
        assert len(doc["cards"]) == len(shipped.all(kind)), kind
        assert all(c["kept"] == [] for c in doc["cards"]), kind
    assert written_files(overlay) == []  # --dry-run writes nothing


def test_export_text_one_deck(overlay: Path, capsys: Any) -> None:
    code, out, _ = run(capsys, "data", "export-text", "reactions", "--deck", "lucilla")
    assert code == 0
    assert out.count("[lucilla-r") == 12 and "kind: reactions\nnemesis: lucilla\n" in out
    code, _, err = run(capsys, "data", "export-text", "reactions", "--deck", "nobody")
    assert code == 2 and "decks: corvin, ilie, lucilla, mirela, saskia" in err


# --------------------------------------------------------------------------- bad input

BAD = """\
kind: starting_tactics
trouper: aurel

Ricochet
art: funambulism
threat: 2
Target: Enemy (Distanse 0-1). Outcome: Wound.

Second Card [aurel-t02]
art: jugling
threat: 2
Target: Self. Outcome: Step 1.

Twice [aurel-t02]
art: juggling
threat: 1
Target: Self. Outcome: Shove 1.

Stolen Id [lucilla-r01]
art: juggling
threat: 1
Target: Self. Outcome: Step 1.

Good One [aurel-t05]
art: funambulism
threat: 2
Target: Self. Outcome: Step 2.
"""


def test_every_bad_card_is_reported_and_nothing_written(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(BAD, encoding="utf-8")
    code, _, err = run(capsys, "data", "import-text", str(path))
    assert code == 1
    assert "bad.txt: 5 problems; nothing was written" in err
    assert ("bad.txt:7 [Ricochet]: Effect: expected a Distance after 'Enemy'" in err
            and "at column 16; did you mean 'Distance'?" in err)
    assert "bad.txt:10 [Second Card]: art: 'jugling' is not one of the choices; did you mean " \
           "'juggling'?" in err
    assert "bad.txt:17 [Twice]: Effect: unknown Outcome Element 'Shove 1' at column 24" in err
    # both places named for a collision: the other card's line, the other kind's file:line
    assert "bad.txt:14 [Twice]: id 'aurel-t02' is also given to the card on line 9" in err
    assert "bad.txt:19 [Stolen Id]: id 'lucilla-r01' is already a reactions card (" in err
    assert "data/reactions/lucilla.yaml:9); ids are unique across card kinds" in err
    assert written_files(overlay) == []  # not even the good card

    code, out, _ = run(capsys, "data", "import-text", str(path), "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and len(doc["errors"]) == 5
    assert {e["line"] for e in doc["errors"]} == {7, 10, 14, 17, 19}


def test_a_card_transcribed_before_needs_replace(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    path = tmp_path / "one.txt"
    path.write_text("Quick Step [aurel-t03]\nart: funambulism\nthreat: 1\n"
                    "Target: Self. Outcome: Step 1.\n", encoding="utf-8")
    assert run(capsys, "data", "import-text", str(path))[0] == 0
    code, _, err = run(capsys, "data", "import-text", str(path))
    assert code == 1
    assert "one.txt:1 [Quick Step]: 'aurel-t03' was already transcribed " \
           "(my-box/starting_tactics/aurel.transcribed.yaml:5); --replace overwrites it" in err
    path.write_text(path.read_text().replace("Step 1.", "Step 2."), encoding="utf-8")
    code, out, _ = run(capsys, "data", "import-text", str(path), "--replace")
    assert code == 0 and "replaces the transcribed card" in out
    card = load_catalog(overlay, use_cache=False).tactic("aurel-t03")
    assert card.effects[0].outcome == [m.Outcome(kind="step", n=2)]
    # the owner's hand-written file is never rewritten: that id is refused, naming the file
    hand = overlay / "starting_tactics" / "mine.yaml"
    hand.write_text(
        "- {id: aurel-t04, name: Mine, source: transcribed, kind: starting, trouper: aurel,\n"
        "   art: funambulism, threat: 1, effects: []}\n", encoding="utf-8")
    path.write_text("Other [aurel-t04]\nart: funambulism\nthreat: 1\n", encoding="utf-8")
    code, _, err = run(capsys, "data", "import-text", str(path), "--replace")
    assert code == 1 and "already in your own data (my-box/starting_tactics/mine.yaml:1)" in err


def test_import_text_usage_errors(overlay: Path, capsys: Any, tmp_path: Path) -> None:
    code, _, err = run(capsys, "data", "import-text", str(tmp_path / "missing.txt"))
    assert code == 2 and "no such file" in err
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    code, _, err = run(capsys, "data", "import-text", str(empty))
    assert code == 1 and "no cards found" in err
    nokind = tmp_path / "nokind.txt"
    nokind.write_text("A Card\nthreat: 1\n", encoding="utf-8")
    code, _, err = run(capsys, "data", "import-text", str(nokind))
    assert code == 1 and "nokind.txt:1 [A Card]: which kind of card is this?" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- the loop


def transcribe(monkeypatch: pytest.MonkeyPatch, capsys: Any, answers: list[str],
               *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    return run(capsys, "data", "transcribe", *args)


def test_transcribe_a_card_with_wrong_answers_undo_and_free_text(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = [
        "Ricochet",            # name
        "jugling",             # art: refused, with a suggestion
        "juggling",
        "9",                   # threat: refused (0 to 6)
        "3",
        "yes",                 # cascade
        "",                    # block: Enter keeps "no"
        "Target: Enemy (Distanse 0-2). Outcome: Wound",   # refused at the word
        "Target: Enemy (Distance 0-2). Outcome: Physical Attack (Dexterity)",
        "",                    # yes, that is what the card says
        "Swap places with Aurel",                          # cannot be read...
        "free",                # ...kept as free text
        "y",
        "undo",                # takes back the "y"
        "undo",                # and the free text
        "Target: Self. Outcome: Step 1.",
        "",
        "",                    # no more Effects
        "",                    # write it
        "quit",
    ]
    code, out, err = transcribe(monkeypatch, capsys, answers, "starting_tactics", "aurel-t01")
    assert code == 0, err
    assert "art: 'jugling' is not one of the choices" in out and "did you mean 'juggling'?" in out
    assert "Input should be less than or equal to 6" in out
    assert "found 'Distanse' at column 16; did you mean 'Distance'?" in out
    assert "  Read as: Free text: Swap places with Aurel" in out
    assert "Ricochet [aurel-t01] written to my-box/starting_tactics/aurel.transcribed.yaml" in out
    card = load_catalog(overlay, use_cache=False).tactic("aurel-t01")
    assert card.name == "Ricochet" and card.art == "juggling" and card.threat == 3
    assert card.cascade and not card.block and card.source == "transcribed"
    assert [render_effect(e) for e in card.effects] == [
        "Target: Enemy (Distance 0-2). Outcome: Physical Attack (Dexterity).",
        "Target: Self. Outcome: Step 1.",
    ]
    # quit at the next card's first question: nothing typed there, so no draft is left
    assert "Stopped: 1 card(s) written this time" in out
    assert not (overlay / ".transcribe-draft.json").exists()


def test_quit_and_interrupt_keep_every_answer(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = transcribe(monkeypatch, capsys, ["Bat Swoop", "", "quit"],
                              "reactions", "lucilla-r01")
    assert code == 0 and "your 2 answer(s) for lucilla-r01 are kept" in out
    draft = json.loads((overlay / ".transcribe-draft.json").read_text())
    assert draft == {"kind": "reactions", "id": "lucilla-r01", "answers": ["Bat Swoop", ""]}

    # Ctrl-C in the middle of the next answers: what was answered stays in the draft
    feed = iter(["{physical: 2}"])

    def typed() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise KeyboardInterrupt from None

    real_input = builtins.input
    monkeypatch.setattr("builtins.input", typed)
    code, out, _ = run(capsys, "data", "transcribe", "reactions")
    assert code == 130
    assert "Resuming lucilla-r01: 2 answer(s) kept." in out
    assert "every answer you gave is kept" in out
    draft = json.loads((overlay / ".transcribe-draft.json").read_text())
    assert draft["answers"] == ["Bat Swoop", "", "{physical: 2}"]

    # resume: the same card, at the next question, then finish it
    monkeypatch.setattr("builtins.input", real_input)
    rest = ["", "", "Target: Trouper (any distance; closest). Outcome: Fly.", "", "",
            "", "quit"]
    code, out, err = transcribe(monkeypatch, capsys, rest, "reactions")
    assert code == 0, err
    assert "Bat Swoop [lucilla-r01] written to my-box/reactions/lucilla.transcribed.yaml" in out
    card = load_catalog(overlay, use_cache=False).get("reactions", "lucilla-r01")
    assert card.fatigue == m.Fatigue(physical=2) and card.source == "transcribed"
    assert [render_effect(e) for e in card.effects] == [
        "Target: Trouper (any distance; closest). Outcome: Fly."
    ]


def test_undo_at_a_cards_first_question_reopens_the_last_card(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    card_one = ["Drop In", "keep", "keep", "", "", "Target: Self. Outcome: Step 1.", "", "", ""]
    answers = [*card_one, "undo", "undo", "", "quit"]
    code, out, err = transcribe(monkeypatch, capsys, answers, "starting_tactics", "zora-t01",
                                "--deck", "zora")
    assert code == 0, err
    assert "Reopened zora-t01; it is not written any more." in out
    # the second undo took back the "no more Effects": the Effect prompt is asked again, and
    # the empty answer ends the list again... then quit with the card unwritten
    assert load_catalog(overlay, use_cache=False).tactic("zora-t01").source == "placeholder"
    draft = json.loads((overlay / ".transcribe-draft.json").read_text())
    assert draft["id"] == "zora-t01" and draft["answers"][-1] == ""


def test_the_campaigns_troupers_and_nemeses_come_first(
    overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay.mkdir()
    assert run(capsys, "campaign", "new", "eve", "--troupers", "zora,petru", "--seed", "2")[0] == 0
    code, out, _ = transcribe(monkeypatch, capsys, ["quit"])
    assert code == 0
    assert "Card 1 of 282 · troupers · " in out and "[zora]" in out.split("Card 1 of")[1]


def test_transcribe_usage(overlay: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = transcribe(monkeypatch, capsys, [], "starting_tactics", "nobody-t01")
    assert code == 2 and "no card with id 'nobody-t01'" in err
    code, _, err = transcribe(monkeypatch, capsys, [], "cards")
    assert code == 2 and "unknown kind 'cards'" in err


def test_progress_in_words(overlay: Path, capsys: Any) -> None:
    code, out, _ = run(capsys, "data", "progress")
    assert code == 0
    assert "Transcribed so far" in out and "starting_tactics" in out and "aurel" in out
    assert "Next: `blood data transcribe`" in out


def test_status_stops_naming_a_card_once_transcribed(
    overlay: Path, capsys: Any, tmp_path: Path
) -> None:
    overlay.mkdir()
    assert run(capsys, "campaign", "new", "eve", "--troupers", "aurel", "--seed", "2")[0] == 0
    code, out, _ = run(capsys, "status")
    assert code == 0 and "Placeholder content: Troupers" in " ".join(out.split())
    run(capsys, "status")  # now from the fast path's cache
    path = tmp_path / "aurel.txt"
    assert run(capsys, "data", "export-text", "troupers", "--out", str(path))[0] == 0
    assert run(capsys, "data", "import-text", str(path))[0] == 0
    from blood_companion.cli import session

    session._catalog_for.cache_clear()  # a new process would load the catalog afresh
    code, out, _ = run(capsys, "status")  # the status cache knows the owner's cards changed
    assert code == 0 and "Placeholder content: dice" in " ".join(out.split()), out
    assert "Troupers" not in out.split("Placeholder content:")[1]
