"""A saving process to kill: the crash test's helper (not a test module).

Started once by tests/store/test_crash.py; it preloads the package and the catalog, then for
each `run` command on stdin forks a child that opens (or creates) a campaign and performs
random operations through the store API, printing ``op ...`` before and ``ack HEAD HASH``
after each one has been committed. The test kills the child with SIGKILL at a random moment
and asks the driver to `reap` it; ``reaped PID`` then follows every line the child wrote.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())  # one write: a killed child never leaves half a line


def child(cmd: dict, catalog: object) -> None:
    from blood_companion.engine.campaign import AdjustWagon, Seat, StartCampaign
    from blood_companion.store import CampaignStore, NothingToRedo, NothingToUndo

    saves, name = Path(cmd["saves"]), cmd["name"]
    rng = random.Random(cmd["seed"])
    if not (saves / f"{name}.blood.db").exists():
        say("op create")
        start = StartCampaign(name=name, seed=cmd["seed"], seats=[Seat(trouper="aurel")])
        store = CampaignStore.create(saves, name, start, catalog)  # type: ignore[arg-type]
    else:
        store = CampaignStore.open(saves, name, catalog)  # type: ignore[arg-type]
    say(f"ack open {store.head} {store.state_hash}")
    for i in range(cmd["ops"]):
        roll = rng.random()
        try:
            if roll < 0.75:
                say("op record")
                kind = rng.choice(("coins", "jewels", "scrolls"))
                store.record(AdjustWagon(**{kind: rng.randint(1, 3)}))  # type: ignore[arg-type]
                say(f"ack record {store.head} {store.state_hash}")
            elif roll < 0.85:
                n = rng.randint(1, 3)
                say(f"op undo {n}")
                store.undo(n)
                say(f"ack undo {store.head} {store.state_hash}")
            elif roll < 0.95:
                n = rng.randint(1, 3)
                say(f"op redo {n}")
                store.redo(n)
                say(f"ack redo {store.head} {store.state_hash}")
            else:
                say("op backup")
                store.backup(f"crash test {i}")
                say(f"ack backup {store.head} {store.state_hash}")
        except (NothingToUndo, NothingToRedo):
            say(f"ack none {store.head} {store.state_hash}")
    store.close()
    say("done")


def main() -> None:
    import gc

    from blood_companion.content.loader import load_catalog
    from blood_companion.engine import campaign  # noqa: F401  (preload: children start fast)
    from blood_companion.engine.flow import action_adapter
    from blood_companion.store import CampaignStore  # noqa: F401

    catalog = load_catalog()
    action_adapter()
    gc.freeze()  # fewer copy-on-write page faults in the forked children
    say("ready")
    for raw in sys.stdin:
        cmd = json.loads(raw)
        if cmd["cmd"] == "run":
            pid = os.fork()
            if pid == 0:
                try:
                    child(cmd, catalog)
                except BaseException as exc:  # report, never hang the test
                    say(f"error {type(exc).__name__}: {exc}")
                finally:
                    os._exit(0)
            say(f"child {pid}")
        elif cmd["cmd"] == "reap":
            os.waitpid(cmd["pid"], 0)
            say(f"reaped {cmd['pid']}")
        else:
            break


if __name__ == "__main__":
    main()
