"""What the decision records of `why` (engine/why.py) cost a night, measured in one run.

Plays random nights (the test bot, tests/engine/night_bot.py: 3 players, each Nemesis) and
prints, for the final state of each: the decision records, the size of the canonical state
with them and with them stripped (the same state otherwise), and the CPU time of the state
hash every recorded step computes, with and without them, as a ratio.

Usage: python bench/why.py [--nights N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))

from night_bot import new_table, play_night  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from blood_companion.content.loader import load_catalog  # noqa: E402
from blood_companion.engine import bookkeeping as fx  # noqa: E402
from blood_companion.engine import why  # noqa: E402
from blood_companion.engine.state import canonical_json, state_hash  # noqa: E402

NEMESES = ["lucilla", "corvin", "ilie", "mirela", "saskia"]


def cpu_ms(f: Callable[[BaseModel], object], state: BaseModel, n: int = 200) -> float:
    start = time.process_time()
    for _ in range(n):
        f(state)
    return (time.process_time() - start) / n * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=6)
    nights = parser.parse_args().nights
    catalog = load_catalog()
    print("nemesis   steps records   state KiB  without  ratio   hash ms  without  ratio")
    for k in range(nights):
        nemesis = NEMESES[k % len(NEMESES)]
        table = new_table(catalog, 3, seed=k + 1, nemesis=nemesis, bot_seed=k + 1)
        play_night(table)
        state = table.state
        assert state.night is not None
        bare = fx.with_night(state, log=why.told(state.night.log))
        records = sum(e.kind == why.DECISION for e in state.night.log)
        size, size0 = len(canonical_json(state)), len(canonical_json(bare))
        hashed, hashed0 = cpu_ms(state_hash, state), cpu_ms(state_hash, bare)
        print(f"{nemesis:8} {len(table.log):6} {records:7} {size / 1024:11.1f} "
              f"{size0 / 1024:8.1f} {size / size0:6.2f} {hashed:9.2f} {hashed0:8.2f} "
              f"{hashed / hashed0:6.2f}")


if __name__ == "__main__":
    main()
