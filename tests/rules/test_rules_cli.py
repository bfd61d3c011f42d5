"""`blood rules` from the command line: output modes, exit codes, overlays and the cache.

Most tests call ``blood_companion.cli.entry.main`` in-process (the same path the console
script takes); a few run a real subprocess to check what the fast path imports.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from blood_companion.cli.entry import main


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(cache))
    monkeypatch.delenv("BLOOD_DATA_DIR", raising=False)
    return cache


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["rules", *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code, out, _ = run(capsys, *args, "--json")
    return code, json.loads(out)


# ------------------------------------------------------------------------- JSON


def test_search_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "how does push work")
    assert code == 0
    assert doc["query"] == "how does push work"
    assert doc["results"][0]["id"] == "push"
    for result in doc["results"]:
        assert {"id", "title", "section", "text"} <= result.keys()
        assert all(isinstance(result[k], str) and result[k] for k in ("title", "section", "text"))
    scores = [r["score"] for r in doc["results"]]
    assert scores == sorted(scores, reverse=True)


def test_query_words_may_be_separate_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    _, joined = run_json(capsys, "exhausted test")
    _, split = run_json(capsys, "exhausted", "test")
    assert joined["results"] == split["results"]
    assert joined["results"][0]["id"] == "exhausted"


def test_limit(capsys: pytest.CaptureFixture[str]) -> None:
    _, doc = run_json(capsys, "nemesis", "--limit", "2")
    assert len(doc["results"]) == 2
    _, doc = run_json(capsys, "nemesis", "-n=7")
    assert len(doc["results"]) == 7


def test_keyword_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "keyword", "push")
    assert code == 0
    assert doc["mode"] == "keyword"
    assert [r["id"] for r in doc["results"]] == ["push"]


@pytest.mark.parametrize("name", ["Push", "pushing", "psuh", "push n"])
def test_keyword_forgives_forms_and_typos(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, doc = run_json(capsys, "keyword", name)
    assert code == 0 and doc["results"][0]["id"] == "push"


def test_phase_json_has_ordered_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "phase", "cleanup")
    assert code == 0
    entry = doc["results"][0]
    assert entry["id"] == "cleanup-phase"
    assert len(entry["steps"]) == 10
    assert "Leader Token" in entry["steps"][1]
    assert "Threat Token" in entry["steps"][-1]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("nemesis", "nemesis-phase"), ("planning", "planning-phase"), ("dusk", "dusk-phase"),
     ("show", "show-phase"), ("turn", "game-turn"), ("clenup", "cleanup-phase")],
)  # fmt: skip
def test_phase_names(capsys: pytest.CaptureFixture[str], name: str, expected: str) -> None:
    code, doc = run_json(capsys, "phase", name)
    assert code == 0 and doc["results"][0]["id"] == expected


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "list")
    assert code == 0 and doc["mode"] == "list"
    ids = [r["id"] for r in doc["results"]]
    assert len(ids) == len(set(ids)) > 100
    _, doc = run_json(capsys, "list", "keyword")
    assert {r["kind"] for r in doc["results"]} == {"keyword"}
    _, doc = run_json(capsys, "list", "--kind", "gap")
    assert {r["kind"] for r in doc["results"]} == {"gap"}


def test_keyword_without_name_lists_keywords(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "keyword")
    assert code == 0
    assert {"push", "summon", "bite"} <= {r["id"] for r in doc["results"]}


# ------------------------------------------------------------------------- text


def test_plain_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "phase", "cleanup", "--plain")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "Cleanup Phase"
    assert "Section: Cleanup Phase (rulebook)" in lines
    numbers = [m.group(1) for m in map(re.compile(r"^(\d+)\. ").match, lines) if m]
    assert numbers == [str(n) for n in range(1, 11)]
    assert out.isascii() and "\x1b" not in out


def test_pipe_output_is_plain_and_lists_other_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "exausted")  # capsys is not a terminal: plain text
    assert code == 0
    assert out.splitlines()[0] == "Exhausted"
    assert "Also matching:" in out
    assert "\x1b" not in out


def test_empty_query_lists_everything(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    assert "keyword:" in out and "  push: Push N" in out and "gap:" in out


# ------------------------------------------------------------------------- errors


def test_no_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "qqqzx")
    assert code == 1 and not out
    assert err.startswith("Error: no rules entry matches 'qqqzx'")
    assert "Hint:" in err
    code, out, _ = run(capsys, "qqqzx", "--json")
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "error": "no rules entry matches 'qqqzx'",
        "hint": json.loads(out)["hint"],
    }


def test_unknown_keyword_suggests_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "keyword", "trampoline")
    assert code == 1
    assert "no keyword named 'trampoline'" in err and "push" in err


def test_a_name_of_another_kind_opens_its_entry(capsys: pytest.CaptureFixture[str]) -> None:
    # "keyword cleanup" names the Cleanup Phase (an alias): it opens, it is not refused.
    code, doc = run_json(capsys, "keyword", "cleanup")
    assert code == 0 and doc["results"][0]["id"] == "cleanup-phase"
    code, doc = run_json(capsys, "keyword", "winning-and-losing")
    assert code == 0 and doc["results"][0]["id"] == "winning-and-losing"


@pytest.mark.parametrize(
    "args",
    [["--bogus", "push"], ["push", "--limit"], ["push", "--limit", "x"], ["push", "--limit", "0"],
     ["push", "--kind", "spell"], ["list", "spell"]],
)  # fmt: skip
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and not out
    assert "Usage: blood rules" in err and "Error:" in err
    code, out, _ = run(capsys, *args, "--json")
    assert code == 2 and json.loads(out)["ok"] is False


def test_double_dash_allows_words_starting_with_dash(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", "--", "-push", "--plain")
    doc = json.loads(out)
    assert code == 0 and doc["results"][0]["id"] == "push"


def test_help_goes_to_typer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "keyword push" in out and "--json" in out


def test_typer_command_runs_the_same_lookup(capsys: pytest.CaptureFixture[str]) -> None:
    from blood_companion.cli.app import run as run_app

    code = run_app(["rules", "keyword", "push", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["results"][0]["id"] == "push"


# ------------------------------------------------------------------------- data layers


def write_overlay(root: Path, text: str) -> Path:
    (root / "rules").mkdir(parents=True, exist_ok=True)
    path = root / "rules" / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


HOUSE = """\
- id: push
  title: Push N
  kind: keyword
  section: Push N
  text: House rule - a pushed miniature stops at the first Minion in the way.
  related: [move]
- id: house-coffee
  title: Coffee Break
  kind: concept
  section: Rules Compendium
  text: Our table pauses for coffee after every third Game Turn.
  related: [game-turn]
"""


def test_overlay_replaces_and_adds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay = tmp_path / "mine"
    path = write_overlay(overlay, HOUSE)
    monkeypatch.setenv("BLOOD_DATA_DIR", str(overlay))
    _, doc = run_json(capsys, "keyword", "push")
    assert doc["results"][0]["text"].startswith("House rule")
    _, doc = run_json(capsys, "cofee break")
    assert doc["results"][0]["id"] == "house-coffee"
    # Editing the overlay is seen at once (the cache is keyed by file size and mtime).
    path.write_text(HOUSE.replace("every third", "every second"), encoding="utf-8")
    os.utime(path, ns=(1, 1))
    _, doc = run_json(capsys, "coffee")
    assert "every second" in doc["results"][0]["text"]


def test_broken_overlay_is_reported_with_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay = tmp_path / "mine"
    write_overlay(overlay, HOUSE.replace("  kind: concept\n", "  kind: [oops\n"))
    monkeypatch.setenv("BLOOD_DATA_DIR", str(overlay))
    code, out, err = run(capsys, "push")
    assert code == 1 and not out
    assert "house.yaml:" in err and "Traceback" not in err
    write_overlay(overlay, HOUSE.replace("  kind: concept\n", "  kind: spell\n"))
    code, out, err = run(capsys, "push", "--json")
    assert code == 1
    doc = json.loads(out)
    assert doc["ok"] is False and "house.yaml:7" in doc["error"] and "kind" in doc["error"]


def test_bad_related_id_is_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay = tmp_path / "mine"
    write_overlay(overlay, HOUSE.replace("related: [game-turn]", "related: [no-such-entry]"))
    monkeypatch.setenv("BLOOD_DATA_DIR", str(overlay))
    code, _, err = run(capsys, "push")
    assert code == 1 and "no-such-entry" in err


def test_a_decision_is_shown_apart_and_needs_its_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay = tmp_path / "mine"
    decided = HOUSE.replace(
        "  related: [game-turn]\n",
        "  related: [game-turn]\n  decision: We chose coffee.\n"
        "  decision_link: docs/rules-decisions.md#night-part\n")
    write_overlay(overlay, decided)
    monkeypatch.setenv("BLOOD_DATA_DIR", str(overlay))
    code, doc = run_json(capsys, "keyword", "house-coffee")
    entry = doc["results"][0]
    assert code == 0 and "chose" not in entry["text"]
    assert (entry["decision"], entry["decision_link"]) == (
        "We chose coffee.", "docs/rules-decisions.md#night-part")
    code, out, _ = run(capsys, "keyword", "house-coffee", "--plain")
    assert ("The app's choice, not the rulebook's: We chose coffee. "
            "(see docs/rules-decisions.md#night-part)") in out
    write_overlay(overlay, decided.replace("  decision_link: docs/rules-decisions.md#night-part\n",
                                           ""))
    code, _, err = run(capsys, "coffee")
    assert code == 1 and "'decision' and 'decision_link' go together" in err
    write_overlay(overlay, decided.replace("docs/rules-decisions.md#night-part",
                                           "https://example.org"))
    code, _, err = run(capsys, "coffee")
    assert code == 1 and "decision_link must be docs/rules-decisions.md#a-heading" in err


def test_corrupt_cache_is_rebuilt(capsys: pytest.CaptureFixture[str], private_cache: Path) -> None:
    assert run(capsys, "push")[0] == 0
    files = list(private_cache.glob("rules-*.marshal"))
    assert len(files) == 1
    files[0].write_bytes(b"not a marshal file")
    code, doc = run_json(capsys, "keyword", "push")
    assert code == 0 and doc["results"][0]["id"] == "push"


def test_unwritable_cache_is_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(blocker / "cache"))
    code, doc = run_json(capsys, "keyword", "push")
    assert code == 0 and doc["results"][0]["id"] == "push"


# ------------------------------------------------------------------------- the fast path


PROBE = """
import sys
from blood_companion.cli.entry import main
code = main(["rules", *sys.argv[1:]])
heavy = sorted(m for m in ("typer", "pydantic", "yaml", "rich", "click") if m in sys.modules)
sys.stderr.write("IMPORTED=" + ",".join(heavy) + "\\n")
raise SystemExit(code)
"""


def probe(*args: str) -> tuple[int, str, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=False
    )
    line = [x for x in proc.stderr.splitlines() if x.startswith("IMPORTED=")][-1]
    return proc.returncode, proc.stdout, [m for m in line[9:].split(",") if m]


def test_fast_path_imports_nothing_heavy(private_cache: Path) -> None:
    probe("keyword", "push")  # builds the cache (this run may read YAML)
    code, out, imported = probe("keyword", "push")
    assert code == 0 and out.startswith("Push N")
    assert imported == []
    code, out, imported = probe("exhausted test", "--json")
    assert code == 0 and json.loads(out)["results"][0]["id"] == "exhausted"
    assert imported == []


def test_console_module_runs(private_cache: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "blood_companion", "rules", "phase", "tactic", "--plain"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "Tactic Phase"
