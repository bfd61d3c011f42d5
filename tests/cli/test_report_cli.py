"""`blood report [NAME]`: one file for a bug report (issue 43, item 6).

The proof: on a campaign played with a data overlay (`--data-dir` holding a transcribed card)
the report names the changed file, imports back (`blood campaign import`) to the same state
hash, and holds no path of the machine: neither $HOME nor any absolute path. Bad inputs are
refused with a clear message and exit 1 (2 for usage), and nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from blood_companion.report import ABSOLUTE, places, redact, redact_text

CARD = """\
- id: aurel-t01
  name: Lunge from the High Wire
  source: transcribed
  kind: starting
  trouper: aurel
  art: funambulism
  threat: 2
  effects:
    - target: {kind: self}
      outcome: [{kind: step, n: 2}]
    - target: {kind: enemy, distance: "0"}
      outcome: [{kind: physical_attack}]
      test: {traits: [dexterity]}
"""


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder holding the saves, the overlay and the working folder, as on a laptop."""
    home = tmp_path / "home" / "ioana"
    (home / "mydata" / "starting_tactics").mkdir(parents=True)
    (home / "mydata" / "starting_tactics" / "aurel.yaml").write_text(CARD, encoding="utf-8")
    (home / "mydata" / "notes.txt").write_text("not data", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(home / ".cache"))
    monkeypatch.setenv("BLOOD_CAMPAIGN", "")
    monkeypatch.delenv("BLOOD_DATA_DIR", raising=False)
    monkeypatch.chdir(home)
    return home


def _args(home: Path, *more: str) -> list[str]:
    return ["--saves-dir", str(home / "saves"), "--data-dir", str(home / "mydata"), *more]


def _played(blood: Any, home: Path) -> str:
    for step in (["campaign", "new", "tuesday", "--troupers", "aurel,ioana", "--seed", "7"],
                 ["day", "recover"], ["day", "zone", "catacombs"]):
        r = blood(*_args(home, *step))
        assert r.code == 0, r.err
    show = blood(*_args(home, "campaign", "show", "--json")).json()
    assert show["log_length"] == 3
    return str(show["state_hash"])


def test_the_report_imports_back_to_the_same_state(blood: Any, home: Path) -> None:
    state_hash = _played(blood, home)
    r = blood(*_args(home, "report", "tuesday", "--json"))
    assert r.code == 0, r.err
    summary = r.json()
    assert summary["report"] == "blood-report-tuesday.json" and summary["log_lines"] == 3
    assert summary["overlay_files"] == [{"file": "starting_tactics/aurel.yaml",
                                         "status": "differs"}]
    file = home / "blood-report-tuesday.json"
    doc = json.loads(file.read_text(encoding="utf-8"))
    report = doc["report"]
    assert report["app"]["version"] == summary["app_version"]
    assert report["python"]["version"] and report["platform"]["system"]
    assert report["data"]["fingerprint"] == summary["data_fingerprint"]
    assert report["data"]["overlay_files"] == summary["overlay_files"]
    assert report["campaign"]["state_hash"] == state_hash
    assert report["log"][0].startswith("1. Started roguelite campaign 'tuesday'")
    assert report["log"][-1] == "3. Zone: The Catacombs"
    # The same document `campaign export` writes, besides the report and the export's time.
    exported = home / "export.json"
    assert blood(*_args(home, "campaign", "export", str(exported))).code == 0
    plain = json.loads(exported.read_text(encoding="utf-8"))
    del doc["report"]
    assert {k: v for k, v in doc.items() if k != "exported"} == {
        k: v for k, v in plain.items() if k != "exported"}
    # Imported into another saves folder, with the same overlay: the same state.
    r = blood("--saves-dir", str(home / "other"), "--data-dir", str(home / "mydata"),
              "campaign", "import", str(file), "--json")
    assert r.code == 0, r.err
    assert r.json()["state_hash"] == state_hash


def test_no_path_of_the_machine_is_in_the_report(blood: Any, home: Path) -> None:
    _played(blood, home)
    assert blood(*_args(home, "report", "--out", "bug.json")).code == 0
    text = (home / "bug.json").read_text(encoding="utf-8")
    assert str(home) not in text and "/home/" not in text
    assert str(home.parent.parent) not in text  # the temporary folder above it either
    assert not ABSOLUTE.findall(text), ABSOLUTE.findall(text)[:5]
    assert '"overlay": "<data-dir>"' in text


def test_the_report_follows_the_safe_write_rule(blood: Any, home: Path) -> None:
    _played(blood, home)
    existing = home / "bug.json"
    existing.write_text("my notes", encoding="utf-8")
    r = blood(*_args(home, "report", "--out", str(existing)))
    assert r.code == 1 and "already exists" in r.err and "--force" in r.err
    assert existing.read_text(encoding="utf-8") == "my notes"
    r = blood(*_args(home, "report", "--out", str(existing), "--force", "--json"))
    assert r.code == 0, r.err
    assert json.loads(existing.read_text(encoding="utf-8"))["name"] == "tuesday"
    r = blood(*_args(home, "report", "--out", str(home / "saves" / "bug.json")))
    assert r.code == 1 and "inside the saves folder" in r.err
    assert not (home / "saves" / "bug.json").exists()
    r = blood(*_args(home, "report", "--out", str(home / "mydata" / "notes.txt" / "r.json")))
    assert r.code == 1 and "cannot be written" in r.err and "Traceback" not in r.err
    r = blood(*_args(home, "report", "--out", str(home / "saves" / "tuesday.blood.db")))
    assert r.code == 1 and "Error:" in r.err


def test_bad_inputs_are_refused_with_clear_errors(blood: Any, home: Path) -> None:
    _played(blood, home)
    r = blood(*_args(home, "report", "nobody", "--json"))
    assert r.code == 1
    assert r.json() == {"ok": False, "error": r.json()["error"], "hint": r.json()["hint"]}
    assert "no campaign 'nobody'" in r.json()["error"] and "tuesday" in r.json()["hint"]
    assert not (home / "blood-report-nobody.json").exists()
    r = blood(*_args(home, "report", "--out"))
    assert r.code == 2
    r = blood(*_args(home, "report", "--bogus", "--json"))
    assert r.code == 2 and r.json()["ok"] is False


def test_without_an_overlay_no_file_is_listed(blood: Any, home: Path) -> None:
    r = blood("--saves-dir", str(home / "saves"), "campaign", "new", "solo", "--troupers",
              "petru", "--mode", "single", "--seed", "3")
    assert r.code == 0, r.err
    r = blood("--saves-dir", str(home / "saves"), "report", "--json")
    assert r.code == 0, r.err
    assert r.json()["overlay_files"] == [] and r.json()["campaign"] == "solo"
    doc = json.loads((home / "blood-report-solo.json").read_text(encoding="utf-8"))
    assert doc["report"]["data"]["overlay"] is None


def test_redaction_of_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/ioana")
    where = places(tmp_path / "saves", tmp_path / "shipped", tmp_path / "mine")
    assert redact_text(f"{tmp_path}/saves/tuesday.blood.db", where) == "<saves>/tuesday.blood.db"
    assert redact_text(f"read {tmp_path}/mine/x.yaml", where) == "read <data-dir>/x.yaml"
    assert redact_text("/home/ioana/notes and /etc/passwd", where) == "~/notes and <path>"
    # Not paths: fractions, slashes between words, a URL, a Test's options.
    for text in ("Threat 3/12", "Strength / Dexterity (4 / 5)", "R/G/B",
                 "https://example.org/blood", "2 x 1"):
        assert redact_text(text, where) == text
    doc, n = redact({"a": ["/home/ioana/x", 3, {"/etc/x": None}], "b": "ok"}, where)
    assert doc == {"a": ["~/x", 3, {"<path>": None}], "b": "ok"} and n == 2
    assert redact_text("at C:\\Users\\ioana\\x.json", where) == "at <path>"


def test_a_broken_data_folder_still_gets_its_report(blood: Any, home: Path) -> None:
    # The moment a report matters most: the owner's data no longer loads.
    _played(blood, home)
    card = home / "mydata" / "starting_tactics" / "aurel.yaml"
    card.write_text("- id: aurel-t01\n  name: [oops\n", encoding="utf-8")
    r = blood(*_args(home, "report", "--json"))
    assert r.code == 0, r.err
    assert r.json()["data_fingerprint"] is None
    text = (home / "blood-report-tuesday.json").read_text(encoding="utf-8")
    data = json.loads(text)["report"]["data"]
    assert data["error"].startswith("the data pack has 1 problem:")
    assert "starting_tactics/aurel.yaml:3: invalid YAML" in data["error"]
    assert str(home) not in text and not ABSOLUTE.findall(text)
    assert len(json.loads(text)["report"]["log"]) == 3
