"""`blood data ...` as a person and a script use it."""

from __future__ import annotations

import json
from pathlib import Path


def test_validate_json_counts(blood) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "validate", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["ok"] is True
    c = doc["counts"]
    assert (c["nemeses"], c["reaction_cards"], c["vlad_reaction_cards"]) == (6, 60, 12)
    assert (c["weakness_cards"], c["minions"], c["zones"], c["events"]) == (18, 8, 4, 24)
    assert (c["troupers"], c["starting_tactic_cards"], c["trouper_items"]) == (4, 48, 24)
    assert (c["village_buildings"], c["dice"]) == (5, 3)
    assert c["locations"] == 16 and c["advanced_tactic_cards"] >= 36


def test_validate_bad_dir_json_errors(blood, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "minions.yaml").write_text("- id: x\n  name: [\n")
    r = blood("data", "validate", str(tmp_path), "--json")
    assert r.code == 1
    doc = r.json()
    assert doc["ok"] is False
    (err,) = doc["errors"]
    assert set(err) == {"file", "line", "field", "message"}
    assert err["file"].endswith("minions.yaml") and err["line"] == 3


def test_validate_bad_dir_human(blood_proc, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "minions.yaml").write_text("- !!python/object:os.system {}\n")
    r = blood_proc("data", "validate", str(tmp_path))
    assert r.code == 1
    assert "Traceback" not in r.err
    assert "minions.yaml:1" in r.err and "tag not allowed" in r.err


def test_show_dice_contract(blood) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "show", "dice", "--json")
    assert r.code == 0
    dice = r.json()["dice"]
    assert [d["letter"] for d in dice] == ["R", "G", "B"]
    for d in dice:
        assert {"id", "name", "source", "letter", "faces"} <= set(d)
        assert all({"triumphs", "defeats"} <= set(f) for f in d["faces"])


def test_show_kinds_have_id_name_source(blood) -> None:  # type: ignore[no-untyped-def]
    for kind in ("troupers", "nemeses", "minions", "locations", "events", "village"):
        r = blood("data", "show", kind, "--json")
        assert r.code == 0, (kind, r.err)
        records = r.json()[kind]
        assert records
        for rec in records:
            assert {"id", "name", "source"} <= set(rec)


def test_show_one_record_in_words(blood) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "show", "nemeses", "lucilla")
    assert r.code == 0
    assert "Lucilla" in r.out
    r = blood("data", "show", "reactions", "lucilla-r01")
    assert "Target: Trouper" in r.out and "Outcome: Fly" in r.out


def test_show_unknown(blood) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "show", "nemeses", "dracula")
    assert r.code == 1 and "no nemeses record with id 'dracula'" in r.err
    r = blood("data", "show", "spaceships")
    assert r.code == 2 and "unknown kind" in r.err


def test_overlay_changes_a_card(blood, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "show", "nemeses", "lucilla", "--json")
    card = r.json()
    assert card.pop("ok") is True  # every --json document says ok; the record is the rest
    card["name"] = "Lucilla, Transcribed"
    card["source"] = "rulebook"
    (tmp_path / "nemeses.yaml").write_text(json.dumps([card]))  # JSON is valid YAML
    r = blood("--data-dir", str(tmp_path), "data", "show", "nemeses", "lucilla", "--json")
    assert r.code == 0, r.err
    assert r.json()["name"] == "Lucilla, Transcribed"
    r = blood("data", "show", "nemeses", "--json", "--data-dir", str(tmp_path))
    assert len(r.json()["nemeses"]) == 6


def test_schema_out(blood, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "schema", "--out", str(tmp_path / "schemas"))
    assert r.code == 0
    sch = json.loads((tmp_path / "schemas" / "reactions.schema.json").read_text())
    # a list of records, or the defaults: + records: form
    assert [form["type"] for form in sch["anyOf"]] == ["array", "object"]
    assert "$defs" in sch


def test_version_and_help(blood_proc) -> None:  # type: ignore[no-untyped-def]
    r = blood_proc("--version")
    assert r.code == 0 and r.out.startswith("blood-companion ")
    r = blood_proc("data", "--help")
    assert r.code == 0 and "validate" in r.out


def test_validate_checks_the_rules_reference(blood, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "validate", "--json")
    assert r.json()["counts"]["rules_entries"] > 100
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.yaml").write_text("- id: push\n  title: 5\n")
    r = blood("data", "validate", str(tmp_path), "--json")
    assert r.code == 1
    errs = r.json()["errors"]
    assert errs and all(e["file"].endswith("mine.yaml") and e["line"] == 1 for e in errs)


def test_show_title_keeps_the_id(blood) -> None:  # type: ignore[no-untyped-def]
    r = blood("data", "show", "reactions", "lucilla-r01")
    assert r.code == 0 and "Wingbeat Descent [lucilla-r01]" in r.out  # not eaten as markup


def _stray_overlay(blood, folder: Path) -> None:  # type: ignore[no-untyped-def]
    card = blood("data", "show", "minions", "undead-bone-sentinel", "--json").json()
    card.pop("ok")
    card["name"] = "Zzyzx Overlay Card"
    folder.mkdir()
    (folder / "my-minions.yaml").write_text(json.dumps([card]))  # belongs to no kind
    (folder / "minions.yml").write_text(json.dumps([card]))  # .yml is for kind folders
    (folder / "cards").mkdir()
    (folder / "cards" / "x.yaml").write_text(json.dumps([card]))
    (folder / "notes.txt").write_text("not YAML: not a data file")


def test_a_file_of_no_kind_is_named_not_loaded(blood, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    overlay = tmp_path / "box"
    _stray_overlay(blood, overlay)
    r = blood("--data-dir", str(overlay), "data", "validate", "--json")
    assert r.code == 0, r.err
    warned = {Path(w["file"]).name: w["message"] for w in r.json()["warnings"]}
    assert set(warned) == {"my-minions.yaml", "minions.yml", "cards"}
    assert "did you mean minions.yaml" in warned["my-minions.yaml"]
    r = blood("--data-dir", str(overlay), "data", "validate")
    assert r.code == 0 and "Not loaded:" in r.out and "my-minions.yaml" in r.out
    # an error with --strict
    r = blood("--data-dir", str(overlay), "data", "validate", "--strict", "--json")
    assert r.code == 1 and r.json()["ok"] is False
    assert any("my-minions.yaml" in e["file"] for e in r.json()["errors"])
    # and a warning on every load, on stderr (the output stays the command's)
    r = blood("--data-dir", str(overlay), "roll", "R G B", "--seed", "1", "--json")
    assert r.code == 0 and r.json()["ok"] is True
    assert "my-minions.yaml" in r.err and "not loaded" in r.err
    r = blood("--data-dir", str(overlay), "data", "show", "minions", "undead-bone-sentinel")
    assert "Zzyzx" not in r.out and "my-minions.yaml" in r.err
