"""Files written, read and left behind under attack (issue 24, items 4, 8, 9 and 10).

Each test carries the issue's reproduction for one item; each failed on main before the fix (a
save overwritten, a hang, a traceback, a slow command, raw escape codes, a stray file).
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blood_companion.cli import session
from blood_companion.cli.entry import main
from blood_companion.content import loader
from blood_companion.content.loader import load_catalog

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A saves folder, an owner's data folder and a temporary folder of this test; a read that
    blocks fails the test instead of hanging it."""
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path / "saves"))
    monkeypatch.setenv("BLOOD_DATA_DIR", str(tmp_path / "my-box"))
    monkeypatch.delenv("BLOOD_CAMPAIGN", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tmp").mkdir()
    (tmp_path / "my-box").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    session._catalog_for.cache_clear()

    def fail(*_: object) -> None:
        raise TimeoutError("blocked")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)
    session._catalog_for.cache_clear()


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err


@pytest.fixture()
def blood(capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*args: str) -> Run:
        code = main(list(args))
        cap = capsys.readouterr()
        return Run(code, cap.out, cap.err)

    return run


def clean_refusal(r: Run, *words: str) -> None:
    assert r.code == 1, (r.out, r.err)
    assert "Traceback" not in r.err and "unexpected" not in r.err, r.err
    for word in words:
        assert word in r.err, r.err


def new_campaign(blood: Any, name: str = "demo") -> Path:
    r = blood("campaign", "new", name, "--troupers", "aurel,ioana", "--seed", "1")
    assert r.code == 0, r.err
    return Path("saves") / f"{name}.blood.db"


EXPORT = ("data", "export-text", "starting_tactics", "--deck", "aurel")


# --------------------------------------------------------------------------- 4: writes


def test_4_export_text_never_writes_over_a_save(blood: Any) -> None:
    save = new_campaign(blood)
    before = save.read_bytes()
    for target in (save, Path("saves") / "notes.txt", Path("saves") / ".last-campaign"):
        r = blood(*EXPORT, "--out", str(target), "--force")
        clean_refusal(r, "inside the saves folder")
    assert save.read_bytes() == before
    elsewhere = Path("copy-of-save.db")
    elsewhere.write_bytes(before)
    clean_refusal(blood(*EXPORT, "--out", str(elsewhere), "--force"), "SQLite database")
    assert elsewhere.read_bytes() == before
    assert blood("campaign", "show").code == 0


def test_4_export_text_asks_force_and_refuses_links_and_fifos(blood: Any) -> None:
    out = Path("cards.txt")
    assert blood(*EXPORT, "--out", str(out)).code == 0
    first = out.read_text()
    out.write_text("my own notes\n")
    clean_refusal(blood(*EXPORT, "--out", str(out)), "already exists", "--force")
    assert out.read_text() == "my own notes\n"
    assert blood(*EXPORT, "--out", str(out), "--force").code == 0
    assert out.read_text() == first
    victim = Path("victim.txt")
    victim.write_text("precious")
    Path("soft.txt").symlink_to(victim)
    os.link(victim, "hard.txt")
    os.mkfifo("pipe")
    clean_refusal(blood(*EXPORT, "--out", "soft.txt", "--force"), "symlink")
    clean_refusal(blood(*EXPORT, "--out", "hard.txt", "--force"), "hard links")
    clean_refusal(blood(*EXPORT, "--out", "pipe", "--force"), "named pipe")
    assert victim.read_text() == "precious"
    assert not [p for p in Path().iterdir() if p.name.endswith(".tmp")]
    # nor where the loader would read it as YAML cards (every command would refuse the pack)
    clean_refusal(blood(*EXPORT, "--out", "my-box/starting_tactics/aurel.transcribed.yaml"),
                  "read as YAML cards")
    assert blood("data", "validate").code == 0


def test_4_schema_and_campaign_export_go_through_the_same_writer(blood: Any) -> None:
    new_campaign(blood)
    assert blood("data", "schema", "--out", "schemas").code == 0
    assert blood("data", "schema", "--out", "schemas").code == 0  # the same files: no change
    one = Path("schemas") / "reactions.schema.json"
    one.write_text("{}")
    clean_refusal(blood("data", "schema", "--out", "schemas"), "already exists", "--force")
    assert one.read_text() == "{}"
    assert blood("data", "schema", "--out", "schemas", "--force").code == 0
    assert one.read_text() != "{}"
    clean_refusal(blood("data", "schema", "--out", "saves/schemas"), "inside the saves folder")
    Path("victim.json").write_text("precious")
    Path("export.json").symlink_to("victim.json")
    clean_refusal(blood("campaign", "export", "export.json", "--force"), "symlink")
    assert Path("victim.json").read_text() == "precious"


# --------------------------------------------------------------------------- 8: tracebacks


def test_8_a_data_dir_that_is_a_symlink_loop_or_a_file(blood: Any, tmp_path: Path) -> None:
    new_campaign(blood)
    Path("loop").symlink_to("loop")
    Path("plain-file").write_text("x")
    for folder, why in (("loop", "loop of symlinks"), ("plain-file", "is a file, not a folder")):
        for command in (["status"], ["campaign", "show"], ["data", "show", "dice"],
                        ["data", "validate"], ["data", "progress"], ["data", "transcribe"],
                        ["data", "export-text", "troupers"]):
            clean_refusal(blood("--data-dir", folder, *command), why)


def transcribe(blood: Any, monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> Run:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    return blood("data", "transcribe", "starting_tactics")


def test_8_bytes_that_are_not_utf8_are_asked_again(
    blood: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed = os.fsdecode(b"Lunge \xff\xfe")  # what Python makes of such bytes on stdin
    r = transcribe(blood, monkeypatch, [typed, "Lunge again", "quit"])
    assert r.code == 0, r.err
    assert "not UTF-8 text; type it again" in r.out
    draft = json.loads((tmp_path / "my-box" / ".transcribe-draft.json").read_text())
    assert draft["answers"] == ["Lunge again"]


@pytest.mark.parametrize("draft", [
    "[" * 100_000,  # nested: RecursionError in json.loads
    json.dumps({"kind": "troupers", "id": "aurel", "answers": ["", "", "1" * 5000]}),
    json.dumps({"kind": "troupers", "id": "aurel", "answers": ["", "", "", "9" * 5000]}),
])
def test_8_a_hostile_draft_is_no_draft(
    blood: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, draft: str
) -> None:
    (tmp_path / "my-box" / ".transcribe-draft.json").write_text(draft)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    r = blood("data", "transcribe")
    assert r.code == 0 and "Traceback" not in r.err and "unexpected" not in r.err, r.err


def test_8_five_thousand_digits_typed_at_a_yaml_field(
    blood: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n" + "1" * 5000 + "\nquit\n"))
    r = blood("data", "transcribe", "troupers", "aurel")
    assert r.code == 0 and "Traceback" not in r.err and "unexpected" not in r.err, r.err
    assert "5,000 characters long" in r.out


def test_8_and_9_a_draft_that_is_a_folder_a_fifo_or_a_device(
    blood: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    box = tmp_path / "my-box"
    draft = box / ".transcribe-draft.json"
    for make, why in ((draft.mkdir, "is a folder"), (lambda: os.mkfifo(draft), "named pipe"),
                      (lambda: draft.symlink_to("/dev/zero"), "symlink")):
        make()
        clean_refusal(transcribe(blood, monkeypatch, ["quit"]), why, "remove it")
        clean_refusal(blood("data", "transcribe", "starting_tactics", "aurel-t01"), why)
        draft.rmdir() if draft.is_dir() and not draft.is_symlink() else draft.unlink()


# --------------------------------------------------------------------------- 9: hangs


def test_9_a_broken_overlay_is_read_once_by_campaign_log(
    blood: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    new_campaign(blood)
    for i in range(30):
        assert blood("campaign", "wagon", "--coins", "1", "--reason", f"r{i}").code == 0
    (tmp_path / "my-box" / "minions").mkdir()
    (tmp_path / "my-box" / "minions" / "bad.yaml").write_text("- {id: x\n")
    calls = []
    real = loader.load_layers

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(loader, "load_layers", counted)
    session._catalog_for.cache_clear()
    r = blood("campaign", "log", "--last", "0")
    clean_refusal(r, "bad.yaml")
    assert len(calls) == 1
    clean_refusal(blood("campaign", "log"), "bad.yaml")  # the same process: not read again
    assert len(calls) == 1
    calls.clear()
    session._catalog_for.cache_clear()
    session._failed.clear()  # as a new process
    clean_refusal(blood("campaign", "log", "--json"), "bad.yaml")
    assert len(calls) == 1
    (tmp_path / "my-box" / "minions" / "bad.yaml").unlink()  # fixed: read again, and it works
    assert blood("campaign", "log").code == 0


def card_file(path: Path, lines: list[str]) -> Path:
    head = ["kind: starting_tactics", "trouper: aurel", "", "Lunge from the Wire [aurel-t01]",
            "art: funambulism", "threat: 2"]
    path.write_text("\n".join(head + lines) + "\n")
    return path


def test_9_a_megabyte_of_elements_or_free_text_is_refused_at_once(
    blood: Any, tmp_path: Path
) -> None:
    n = 1 << 20
    elements = "Target: Self. Outcome: " + ", ".join(["Wound"] * (n // 7)) + "."
    free = "Free text: " + " ".join(["word"] * (n // 5))
    box = tmp_path / "my-box"
    for lines, why in (([elements], "at most 256 KB"), ([free], "at most 256 KB"),
                       ([elements[:200_000]], "at most 2,000"), ([free[:5000]], "at most 2,000"),
                       ([elements[:1990]] * 140, "at most 256 KB"),
                       ([elements[:1990].rsplit(",", 1)[0] + "."] * 8, "items; at most 64")):
        r = blood("data", "import-text", str(card_file(tmp_path / "big.txt", lines)))
        clean_refusal(r, why)
        assert not list(box.rglob("*.yaml"))
    assert blood("data", "validate").code == 0


def test_9_no_overlay_file_is_written_that_the_loader_would_refuse(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from blood_companion.content import overlay
    from blood_companion.content.errors import ContentError

    record = load_catalog().get("starting_tactics", "aurel-t01")
    assert record is not None
    monkeypatch.setattr(overlay, "MAX_DATA_FILE", 500)
    with pytest.raises(ContentError, match="a data file is at most 500 bytes"):
        overlay.write_records(tmp_path / "box", "starting_tactics", "aurel", [record])
    assert not list((tmp_path).rglob("*.yaml"))


# --------------------------------------------------------------------------- 10: leaks


def overlay_name(tmp_path: Path, name: str) -> None:
    record = load_catalog().get("starting_tactics", "aurel-t01")
    assert record is not None
    doc = record.model_dump(mode="json", exclude_defaults=True)
    doc["name"] = name
    folder = tmp_path / "my-box" / "starting_tactics"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "aurel.yaml").write_text(yaml.safe_dump([doc], allow_unicode=True))


HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\r\b\u202e\u2066\x85"
CONTROLS = {c for c in HOSTILE if not c.isprintable()}


def test_10_export_text_on_the_screen_prints_no_control_characters(
    blood: Any, tmp_path: Path
) -> None:
    overlay_name(tmp_path, f"Lunge{HOSTILE}Wire")
    session._catalog_for.cache_clear()
    r = blood(*EXPORT)
    assert r.code == 0, r.err
    assert "Lunge]0;pwned[2J31mWire [aurel-t01]" in r.out
    assert not CONTROLS & set(r.out)
    r = blood(*EXPORT, "--out", "cards.txt")  # the file keeps the name as typed, to read back
    assert r.code == 0 and f"Lunge{HOSTILE}Wire" in Path("cards.txt").read_bytes().decode()


@settings(max_examples=8, **SETTINGS)  # type: ignore[arg-type]
@given(st.text(st.sampled_from(HOSTILE + "ab ")))
def test_10_any_control_character_in_a_name_stays_off_the_screen(
    blood: Any, tmp_path: Path, text: str
) -> None:
    overlay_name(tmp_path, f"N{text}N")
    session._catalog_for.cache_clear()
    r = blood(*EXPORT)
    if r.code == 0:
        assert not CONTROLS & set(r.out)
    assert "Traceback" not in r.err


def test_10_an_overlay_linked_to_a_system_file_is_not_echoed(
    blood: Any, tmp_path: Path
) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin\n")
    (tmp_path / "my-box" / "minions").mkdir()
    (tmp_path / "my-box" / "minions" / "x.yaml").symlink_to(secret)
    r = blood("data", "validate")
    clean_refusal(r, "x.yaml", "expected a list of records")
    assert "root" not in r.err and "/bin/bash" not in r.err


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_10_check_folders_of_killed_runs_are_removed(blood: Any, tmp_path: Path) -> None:
    stale = tmp_path / "tmp" / f"blood-check-{_dead_pid()}-abc"
    (stale / "minions").mkdir(parents=True)
    live = tmp_path / "tmp" / f"blood-check-{os.getppid()}-abc"
    live.mkdir()
    r = blood("data", "import-text", str(card_file(tmp_path / "one.txt", [
        "Target: Self. Outcome: Step 2."])), "--dry-run")
    assert r.code == 0, r.err
    assert not stale.exists() and live.exists()
    assert sorted(p.name for p in (tmp_path / "tmp").iterdir()) == [live.name]


def test_10_temporary_saves_of_killed_runs_are_removed(blood: Any) -> None:
    new_campaign(blood, "first")
    dead = _dead_pid()
    stale = Path("saves") / f".ghost.{dead}.tmp"
    stale.write_bytes(b"half a save")
    journal = Path("saves") / f".ghost.{dead}.tmp-journal"
    journal.write_bytes(b"its SQLite journal")
    mine = Path("saves") / f".other.{os.getppid()}.tmp"
    mine.write_bytes(b"someone else's, still running")
    new_campaign(blood, "second")
    assert not stale.exists() and not journal.exists() and mine.exists()


def test_10_import_refuses_a_name_that_differs_only_by_case(blood: Any) -> None:
    new_campaign(blood, "dup")
    assert blood("campaign", "export", "dup.json").code == 0
    clean_refusal(blood("campaign", "new", "DUP", "--troupers", "aurel"), "differ only by case")
    for extra in ([], ["--replace"]):
        r = blood("campaign", "import", "dup.json", "--name", "DUP", *extra)
        clean_refusal(r, "differ only by case")
    assert sorted(p.name for p in Path("saves").glob("*.blood.db")) == ["dup.blood.db"]
