"""The golden saves: campaigns written by released versions of the app (tests/fixtures/saves/).

Every later version must open each of them, show it, undo to step 1, redo to the end, record a
new action, export and re-import it. A change that breaks one of these breaks the campaigns of
real players: fix the change, never the saves.
"""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.entry import main

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "saves"
SAVES = sorted(
    (folder.name, f.name.removesuffix(".blood.db"))
    for folder in GOLDEN.iterdir()
    if folder.is_dir()
    for f in folder.glob("*.blood.db")
)


def run(saves: Path, name: str, *args: str, ok: bool = True) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--saves-dir", str(saves), "--campaign", name, *args])
    if ok:
        assert code == 0, f"blood {' '.join(args)} -> {code}\n{out.getvalue()}{err.getvalue()}"
    return code, out.getvalue()


def doc(saves: Path, name: str, *args: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(run(saves, name, *args, "--json")[1])
    return result


def test_there_are_golden_saves_of_every_kind() -> None:
    versions = {v for v, _ in SAVES}
    assert "v0.1.0" in versions
    for v in versions:
        assert {n for w, n in SAVES if w == v} >= {"day", "night", "vlad"}, v


@pytest.mark.parametrize("version,name", SAVES)
def test_golden_save_opens_undoes_redoes_records_and_travels(
    version: str, name: str, tmp_path: Path
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    original = GOLDEN / version / f"{name}.blood.db"
    shutil.copy(original, saves / original.name)

    shown = doc(saves, name, "campaign", "show")
    head, head_hash = shown["log_length"], shown["state_hash"]
    redo = shown.get("redo", 0)
    assert head > 1
    run(saves, name, "status")
    run(saves, name, "campaign", "log")
    assert doc(saves, name, "campaign", "verify")["ok"]

    first = doc(saves, name, "campaign", "undo", "--to", "1")
    assert first["log_length"] == 1 and first["part"] == "day" and first["game"] == 1
    run(saves, name, "status")
    back = doc(saves, name, "campaign", "redo", str(head - 1))
    assert (back["log_length"], back["state_hash"]) == (head, head_hash)
    if redo:
        ahead = doc(saves, name, "campaign", "redo", str(redo))
        assert ahead["log_length"] == head + redo
        doc(saves, name, "campaign", "undo", str(redo))

    after = doc(saves, name, "campaign", "wagon", "--coins", "1", "--reason", "golden test")
    assert after["log_length"] == head + 1 and after["state_hash"] != head_hash
    again = doc(saves, name, "campaign", "undo")
    assert again["state_hash"] == head_hash
    doc(saves, name, "campaign", "redo")
    report = doc(saves, name, "campaign", "verify")
    assert report["ok"] and report["replayed"] >= 1

    export = tmp_path / f"{name}.json"
    run(saves, name, "campaign", "export", str(export))
    run(saves, name, "campaign", "import", str(export), "--name", f"{name}-copy")
    copy = doc(saves, f"{name}-copy", "campaign", "show")
    assert (copy["log_length"], copy["state_hash"]) == (head + 1, after["state_hash"])
    assert doc(saves, f"{name}-copy", "campaign", "undo", "--to", "1")["log_length"] == 1
    # the golden file itself is never touched by the test
    assert original.read_bytes() == (GOLDEN / version / original.name).read_bytes()
