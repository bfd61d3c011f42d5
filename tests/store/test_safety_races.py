"""Issue 24: nothing lost, nothing stale when several `blood` processes act on one campaign.

Parallel writers on an old (app 0.1.0) save and on a new one, `campaign delete` racing a
writer, and the stored views after parallel writers. Real processes (the installed CLI), a few
rounds of a few processes each, so the suite runs in seconds on two cores.

Figures (run ``pytest tests/store/test_safety_races.py -q``): acknowledged steps lost 0, stale
views 0, tracebacks 0.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "saves"
WRITERS = 6


def _env(saves: Path) -> dict[str, str]:
    import os

    env = dict(os.environ)
    env.pop("BLOOD_CAMPAIGN", None)
    env["BLOOD_SAVES_DIR"] = str(saves)
    env["COLUMNS"] = "100"
    return env


def _spawn(saves: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "blood_companion", *args], env=_env(saves),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _run(saves: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blood_companion", *args], env=_env(saves),
                          capture_output=True, text=True, timeout=120)


def _finish(procs: list[subprocess.Popen[str]]) -> list[tuple[int, str, str]]:
    out = []
    for p in procs:
        o, e = p.communicate(timeout=300)
        assert "unexpected" not in e, e  # a traceback in words (cli/failures.py)
        out.append((p.returncode, o, e))
    return out


def _reasons(path: Path) -> list[str]:
    """The wagon reasons of the steps in a save file (done, undone and abandoned)."""
    conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT data FROM actions UNION ALL SELECT data FROM abandoned")
        return [json.loads(d).get("reason", "") for (d,) in rows]
    finally:
        conn.close()


def _wagon_round(saves: Path, name: str, tag: str, n: int = WRITERS) -> set[str]:
    procs = [_spawn(saves, "--campaign", name, "campaign", "wagon", "--coins", "1",
                    "--reason", f"{tag}-{i}") for i in range(n)]
    results = _finish(procs)
    return {f"{tag}-{i}" for i, (code, _, _) in enumerate(results) if code == 0}


@pytest.mark.parametrize("old", ["v0.1.0/day", "v0.2.0/night"])
def test_24_1_parallel_writers_on_an_old_save_lose_no_acknowledged_step(
    old: str, tmp_path: Path
) -> None:
    """Six processes write to a save of an older release at once: the save is upgraded once,
    the others wait and reopen it, and every step a process acknowledged (exit 0) is in the
    save. Before the fix each process upgraded the 0.1.0 file by itself and later upgrades
    overwrote the steps recorded on the earlier ones."""
    lost = 0
    for rnd in range(2):
        saves = tmp_path / f"saves{rnd}"
        saves.mkdir()
        version, name = old.split("/")
        shutil.copy(GOLDEN / version / f"{name}.blood.db", saves / f"{name}.blood.db")
        acked = _wagon_round(saves, name, f"M{rnd}")
        assert acked, "no writer got through"
        kept = set(_reasons(saves / f"{name}.blood.db"))
        lost += len(acked - kept)
        assert _run(saves, "--campaign", name, "campaign", "verify").returncode == 0
        backups = saves / ".backups" / name
        upgrades = [p for p in backups.iterdir() if "before-migration" in p.name] if (
            backups.is_dir()) else []
        assert len(upgrades) <= 1, upgrades  # one upgrade per save
    assert lost == 0


def test_24_5_delete_racing_writers_loses_no_committed_step(tmp_path: Path) -> None:
    """`campaign delete` while writers record: every acknowledged step is in the deleted copy
    (delete takes the campaign's lock; a writer that waited finds the file gone and records
    nothing). Before, delete copied the file and then unlinked it, so a step committed in
    between was in no file."""
    lost = 0
    for rnd in range(3):
        saves = tmp_path / f"saves{rnd}"
        assert _run(saves, "campaign", "new", "demo", "--troupers", "aurel,zora").returncode == 0
        writers = [_spawn(saves, "--campaign", "demo", "campaign", "wagon", "--coins", "1",
                          "--reason", f"D{rnd}-{i}") for i in range(4)]
        time.sleep(0.05 * rnd)
        deleter = _spawn(saves, "campaign", "delete", "demo", "--json")
        results = _finish(writers)
        (dcode, dout, derr), = _finish([deleter])
        acked = {f"D{rnd}-{i}" for i, (code, _, _) in enumerate(results) if code == 0}
        kept: set[str] = set()
        if dcode == 0:
            kept |= set(_reasons(Path(json.loads(dout)["kept_copy"])))
        if (saves / "demo.blood.db").exists():  # a writer may have recreated nothing
            kept |= set(_reasons(saves / "demo.blood.db"))
        lost += len(acked - kept)
    assert lost == 0


def _views_agree(saves: Path, name: str) -> tuple[int, dict[str, Any]]:
    """(stale views, the rows' facts): `show --json` and `status --json` against the save."""
    conn = sqlite3.connect((saves / f"{name}.blood.db").resolve().as_uri() + "?mode=ro",
                           uri=True)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        head = int(meta["head"])
        digest = conn.execute("SELECT state_hash FROM actions WHERE step = ?",
                              (head,)).fetchone()[0]
        state = json.loads(conn.execute("SELECT state FROM snapshots WHERE step = ?",
                                        (head,)).fetchone()[0])
    finally:
        conn.close()
    truth = {"head": head, "state_hash": digest, "coins": state["wagon"]["coins"]}
    stale = 0
    for _ in range(2):  # the first look may build the view; the second is the stored one
        show = json.loads(_run(saves, "--campaign", name, "campaign", "show", "--json").stdout)
        status = json.loads(_run(saves, "--campaign", name, "status", "--json").stdout)
        if (show["log_length"], show["state_hash"], show["wagon"]["coins"]) != (
            truth["head"], truth["state_hash"], truth["coins"]
        ):
            stale += 1
        if status.get("step") != head or status["wagon"]["coins"] != truth["coins"] or status.get(
            "state_hash") != digest:
            stale += 1
    return stale, truth


def test_24_6_stored_views_never_lag_the_save_after_parallel_writers(tmp_path: Path) -> None:
    """Parallel `campaign wagon --coins 1`: afterwards `show --json` and `status --json` give
    the save's head, hash and coins. Before the fix a view drawn from an older step was filed
    under the newest head's key."""
    saves = tmp_path / "saves"
    assert _run(saves, "campaign", "new", "demo", "--troupers", "aurel,zora").returncode == 0
    stale = 0
    total = 0
    for rnd in range(3):
        total += len(_wagon_round(saves, "demo", f"V{rnd}", n=8))
        found, truth = _views_agree(saves, "demo")
        stale += found
        assert truth["coins"] == total and truth["head"] == 1 + total
    assert stale == 0


# ---------------------------------------------------------------------- the same, step by step
# The races above in real processes; below, the one interleaving that loses (or stales) each
# time, forced in one process, so a fix cannot pass by luck of timing.


def test_24_5_a_step_committed_while_delete_copies_the_file_is_never_lost(
    new_store: Any, saves_dir: Path, catalog: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from blood_companion.engine.campaign import AdjustWagon
    from blood_companion.store import CampaignStore, StoreError, saves
    from blood_companion.store.manage import delete_campaign

    new_store("demo").close()
    acked: list[str] = []
    real = saves.write_backup

    def racing_writer() -> None:
        try:
            with CampaignStore.open(saves_dir, "demo", catalog, timeout=5.0) as other:
                other.record(AdjustWagon(coins=1, reason="racer"))
                acked.append("racer")
        except StoreError:
            pass  # refused: not acknowledged, so not owed

    def copy_then_let_a_writer_in(conn: Any, target: Path) -> None:
        real(conn, target)
        if "deleted" in target.name:
            t = threading.Thread(target=racing_writer)
            t.start()
            t.join(1.0)  # the writer commits now unless delete holds the lock
            threads.append(t)

    threads: list[threading.Thread] = []
    monkeypatch.setattr(saves, "write_backup", copy_then_let_a_writer_in)
    kept = delete_campaign(saves_dir, "demo")
    for t in threads:
        t.join(30)
    found = set(_reasons(kept))
    if (saves_dir / "demo.blood.db").exists():
        found |= set(_reasons(saves_dir / "demo.blood.db"))
    assert set(acked) <= found


def test_24_6_a_view_drawn_before_another_write_is_never_shown_for_the_new_head(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    from blood_companion.cli import views
    from blood_companion.cli.settings import Settings, using
    from blood_companion.cli.view_docs import refresh
    from blood_companion.engine.campaign import AdjustWagon
    from blood_companion.store import CampaignStore

    new_store("demo").close()
    settings = Settings(saves_dir, None, "demo")
    with using(settings), CampaignStore.open(saves_dir, "demo", catalog) as a, \
            CampaignStore.open(saves_dir, "demo", catalog) as b:
        a.record(AdjustWagon(coins=1, reason="a"))
        b.record(AdjustWagon(coins=1, reason="b"))  # b syncs to a's step, then writes
        refresh(b)
        refresh(a)  # late: a's board is of step 2, the file's head is step 3
        with CampaignStore.open(saves_dir, "demo", catalog) as c:  # the next look
            doc = views.stored(c)
        if doc is not None:
            assert doc["state_hash"] == b.state_hash
            assert doc["wagon"]["coins"] == 2
