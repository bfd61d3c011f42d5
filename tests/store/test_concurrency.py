"""Two processes acting on one campaign lose no action; a held lock gives a clear message."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore, SaveInUse

N = 100
WORKER = """
import sys, time
from pathlib import Path
from blood_companion.content.loader import load_catalog
from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore

saves, kind, n, go = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
catalog = load_catalog()
store = CampaignStore.open(saves, "shared", catalog)
print("ready", flush=True)
while not go.exists():
    time.sleep(0.001)
for i in range(n):
    store.record(AdjustWagon(**{kind: 1}))
store.close()
print("done", flush=True)
"""


def test_two_processes_lose_no_action(new_store: Any, saves_dir: Path, catalog: Any,
                                      tmp_path: Path) -> None:
    new_store("shared").close()
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(saves_dir), kind, str(N), str(go)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for kind in ("coins", "jewels")
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    go.touch()
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        assert out.strip() == "done"
    with CampaignStore.open(saves_dir, "shared", catalog) as store:
        assert store.head == 1 + 2 * N and store.redo_available == 0
        assert (store.state.wagon.coins, store.state.wagon.jewels) == (N, N)
        assert store.verify().ok
        assert all(e.status == "done" for e in store.log(include_abandoned=True))


def test_held_lock_gives_a_clear_in_use_message(new_store: Any, saves_dir: Path,
                                                catalog: Any) -> None:
    new_store("busy").close()
    blocker = sqlite3.connect(saves_dir / "busy.blood.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with CampaignStore.open(saves_dir, "busy", catalog, timeout=0.2) as store:
            before = store.path.read_bytes()
            t = time.perf_counter()
            with pytest.raises(SaveInUse, match="in use by another blood process") as info:
                store.record(AdjustWagon(coins=1))
            assert time.perf_counter() - t >= 0.15  # it waited briefly first
            assert "try again" in (info.value.hint or "")
            assert store.path.read_bytes() == before
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    with CampaignStore.open(saves_dir, "busy", catalog) as store:
        assert store.record(AdjustWagon(coins=1)).wagon.coins == 1
