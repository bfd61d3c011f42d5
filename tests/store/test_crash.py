"""Crash test: SIGKILL a saving process at random moments, 200 times; every save still loads
and no acknowledged action is lost.

A driver process (crash_driver.py) forks a child per round that records, undoes and redoes
through the store API and prints an ``ack`` line after each committed operation.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from blood_companion.store import CampaignStore

ROUNDS = 200
ROUNDS_PER_CAMPAIGN = 25

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")


class Driver:
    def __init__(self) -> None:
        script = Path(__file__).with_name("crash_driver.py")
        self.proc = subprocess.Popen(
            [sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1,
        )
        assert self.readline() == "ready"

    def readline(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the crash driver stopped"
        return line.rstrip("\n")

    def send(self, **cmd: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        self.send(cmd="quit")
        self.proc.wait(timeout=10)


def test_sigkill_while_saving_loses_nothing(tmp_path: Path, catalog: Any) -> None:
    rng = random.Random(1234)
    driver = Driver()
    saves = tmp_path / "saves"
    saves.mkdir()
    acked: dict[int, str] = {}  # step -> state hash acknowledged at that head
    last: tuple[int, str] | None = None
    killed_mid_op = 0
    try:
        for rnd in range(ROUNDS):
            name = f"crash{rnd // ROUNDS_PER_CAMPAIGN}"
            if rnd % ROUNDS_PER_CAMPAIGN == 0:
                acked, last = {}, None
            driver.send(cmd="run", saves=str(saves), name=name, seed=rnd, ops=150)
            early = []  # the child may write before the driver reports its pid
            while not (line := driver.readline()).startswith("child "):
                early.append(line)
            pid = int(line.split()[1])
            time.sleep(rng.uniform(0.002, 0.02))
            os.kill(pid, signal.SIGKILL)
            driver.send(cmd="reap", pid=pid)
            pending: list[str] | None = None
            lines = early
            while (line := driver.readline()) != f"reaped {pid}":
                lines.append(line)
            for line in lines:
                parts = line.split()
                assert parts[0] in ("op", "ack", "done"), line
                if parts[0] == "op":
                    pending = parts[1:]
                elif parts[0] == "ack":
                    pending = None
                    head, digest = int(parts[2]), parts[3]
                    if parts[1] == "record":
                        acked = {s: h for s, h in acked.items() if s < head}
                    acked[head] = digest
                    last = (head, digest)
            killed_mid_op += pending is not None
            path = saves / f"{name}.blood.db"
            if last is None:  # killed before the campaign existed, or while creating it
                assert pending in (None, ["create"])
                if not path.exists():
                    continue
            # Every file loads directly; no acknowledged step is lost.
            with CampaignStore.open(saves, name, catalog) as store:
                rows = {e.step: e.state_hash for e in store.log()}
                if last is None:
                    assert store.head == 1
                    continue
                head, digest = last
                allowed = {head}
                if pending and pending[0] == "record":
                    allowed.add(head + 1)
                elif pending and pending[0] in ("undo", "redo"):
                    n = int(pending[1])
                    allowed.add(head - n if pending[0] == "undo" else head + n)
                assert store.head in allowed, (rnd, store.head, allowed, pending)
                if store.head == head:
                    assert store.state_hash == digest
                for step, h in acked.items():
                    if step <= head:
                        assert rows.get(step) == h, (rnd, step)
                if rnd % 10 == 9 or rnd == ROUNDS - 1:
                    assert store.verify().ok
                if store.head != head:  # the in-flight operation did commit: follow it
                    if pending and pending[0] == "record":
                        acked = {s: h for s, h in acked.items() if s <= head}
                    acked[store.head] = store.state_hash
                    last = (store.head, store.state_hash)
    finally:
        driver.close()
    print(f"{killed_mid_op} of {ROUNDS} kills hit an operation in progress")
    assert killed_mid_op > ROUNDS // 2  # the kills really hit operations in progress
