"""Issue "Nothing a user types or a file contains can crash, hang, or lose a step": the save
store's part (numbers are the issue's items)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.entry import main
from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore, ImportRefused, StoreError
from blood_companion.store.manage import recover_campaign
from blood_companion.store.transfer import export_campaign, import_campaign


def blood(saves: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--saves-dir", str(saves), *args])
    return code, out.getvalue(), err.getvalue()


def test_1_recover_keeps_every_acknowledged_step_after_a_damaged_hash(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    store = new_store("c3")
    for i in range(249):  # backups at step 1 and 200
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
    store.close()
    path = saves_dir / "c3.blood.db"
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE actions SET state_hash=CAST(X'FF'||CAST(substr(state_hash,2) AS BLOB) AS TEXT) "
        "WHERE step=245"
    )
    conn.commit()
    conn.close()
    code, _, err = blood(saves_dir, "--campaign", "c3", "campaign", "wagon", "--coins", "1")
    assert code == 0, err  # step 251
    code, out, err = blood(saves_dir, "--campaign", "c3", "campaign", "verify", "--json")
    assert code == 1 and "Traceback" not in err
    problems = json.loads(out)["problems"]
    assert problems and problems[0].startswith("step 245")
    result = recover_campaign(saves_dir, "c3", catalog)
    assert result.log_length == 251 and result.salvaged == 51
    with CampaignStore.open(saves_dir, "c3", catalog) as again:
        assert again.state.wagon.coins == 250 and again.verify().ok


def test_1_random_damage_loses_no_step_whose_change_is_intact(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    store = new_store("c4")
    for i in range(249):
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
    store.close()
    path = saves_dir / "c4.blood.db"
    conn = sqlite3.connect(path)
    for step in (210, 220, 233):  # damage the recorded time and hash text of a few rows
        conn.execute("UPDATE actions SET recorded = CAST(X'FFFE' AS TEXT), "
                     "state_hash = 'x' || substr(state_hash, 2) WHERE step = ?", (step,))
    conn.commit()
    conn.close()
    result = recover_campaign(saves_dir, "c4", catalog)
    assert result.log_length == 250
    with CampaignStore.open(saves_dir, "c4", catalog) as again:
        assert again.state.wagon.coins == 249


def test_2_export_onto_the_live_save_is_refused(new_store: Any, saves_dir: Path) -> None:
    new_store("dayc").close()
    before = (saves_dir / "dayc.blood.db").read_bytes()
    for target in ("dayc.blood.db", ".last-campaign", "sub/x.json"):
        code, _, err = blood(saves_dir, "--campaign", "dayc", "campaign", "export",
                             str(saves_dir / target), "--force")
        assert code == 1 and "inside the saves folder" in err, target
    assert (saves_dir / "dayc.blood.db").read_bytes() == before


def test_6_sqlite_errors_are_messages(tmp_path: Path) -> None:
    code, _, err = blood(Path("/proc"), "campaign", "new", "x", "--troupers", "aurel")
    assert code == 1 and "Traceback" not in err and "Error" in err


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE")
def test_6_full_disk_says_the_saves_are_intact(tmp_path: Path, new_store: Any,
                                               saves_dir: Path) -> None:
    store = new_store("big")
    out = tmp_path / "big.json"
    export_campaign(store, out)
    store.close()
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (36 * 512, 36 * 512))\n"
        "from blood_companion.cli.entry import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    for args in (["campaign", "new", "x", "--troupers", "aurel,ioana,petru,zora"],
                 ["campaign", "import", str(out), "--name", "y"]):
        p = subprocess.run(
            [sys.executable, "-c", script, "--saves-dir", str(saves_dir), *args],
            capture_output=True, text=True, timeout=120,
            env={**os.environ, "BLOOD_CACHE_DIR": str(tmp_path / "cache")},
        )
        assert p.returncode == 1, p.stderr
        assert "disk is full" in p.stderr and "intact" in p.stderr and "Traceback" not in p.stderr
    assert sorted(f.name for f in saves_dir.glob("*.blood.db")) == ["big.blood.db"]


def test_7_recover_when_the_save_is_a_folder(saves_dir: Path, catalog: Any) -> None:
    (saves_dir / "odd.blood.db").mkdir(parents=True)
    with pytest.raises(StoreError, match="not a save file"):
        recover_campaign(saves_dir, "odd", catalog)


def test_7_import_of_deeply_nested_json(tmp_path: Path, saves_dir: Path, catalog: Any) -> None:
    bad = tmp_path / "deep.json"
    bad.write_text('{"format": "blood-companion-campaign", "format_version": 2, "x": '
                   + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ImportRefused):
        import_campaign(saves_dir, bad, catalog)


def test_9_import_reads_regular_files_only(saves_dir: Path, catalog: Any,
                                           tmp_path: Path) -> None:
    for special in (Path("/dev/zero"), tmp_path):
        t0 = time.monotonic()
        with pytest.raises(ImportRefused, match="not a regular file"):
            import_campaign(saves_dir, special, catalog)
        assert time.monotonic() - t0 < 5
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ImportRefused, match="not a regular file"):
        import_campaign(saves_dir, fifo, catalog)


def test_11_import_is_bounded(saves_dir: Path, catalog: Any, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    from blood_companion.store import transfer

    monkeypatch.setattr(transfer, "MAX_IMPORT_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"format": "blood-companion-campaign", "pad": "x" * 2000}))
    with pytest.raises(ImportRefused, match="at most"):
        import_campaign(saves_dir, big, catalog)


def test_16_a_killed_recover_leaves_nothing_behind(new_store: Any, saves_dir: Path,
                                                   catalog: Any) -> None:
    new_store("left").close()
    folder = saves_dir / ".backups" / "left"
    stale = folder / ".check-999999999"
    stale.mkdir()
    (stale / "x.blood.db").write_bytes(b"copy")
    old_tmp = folder / "20200101T000000-x.blood.db.tmp"
    old_tmp.write_bytes(b"half")
    os.utime(old_tmp, (time.time() - 3600, time.time() - 3600))
    recover_campaign(saves_dir, "left", catalog, force=True)
    assert not stale.exists() and not old_tmp.exists()


@pytest.mark.parametrize("edit", ["version-true", "version-negative", "step-string",
                                  "abandoned-bad"])
def test_17_import_types_are_strict(edit: str, new_store: Any, saves_dir: Path, catalog: Any,
                                    tmp_path: Path) -> None:
    store = new_store("src")
    store.record(AdjustWagon(coins=1))
    store.record(AdjustWagon(coins=1))
    store.undo(1)
    store.record(AdjustWagon(jewels=1))
    doc = store.export_doc()
    if edit == "version-true":
        doc["format_version"] = True
    elif edit == "version-negative":
        doc["format_version"] = -5
    elif edit == "step-string":
        doc["actions"][1]["step"] = "2"
    else:
        doc["abandoned"][0]["action"] = {"type": "summon_dragon"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ImportRefused):
        import_campaign(saves_dir, bad, catalog, name="dst")
    assert not (saves_dir / "dst.blood.db").exists()
