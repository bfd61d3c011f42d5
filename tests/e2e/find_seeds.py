"""Find the night-bot seeds that give each game of the end-to-end campaign its wanted result.

    python tests/e2e/find_seeds.py

Plays the campaign of roguelite_driver.PLAN through the CLI in a temporary folder; before each
night it simulates the bot from the saved state with seeds counted up from the plan's, keeps
the first that gives the wanted result and plays it. Paste the printed seeds into PLAN.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from roguelite_driver import PLAN, Campaign  # noqa: E402

from blood_companion.content.loader import load_catalog  # noqa: E402


def main() -> None:
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        c = Campaign(Path(tmp) / "saves", load_catalog(), verify=False, find_seeds=True)
        c.start()
        for plan in PLAN:
            c.play(plan)
            print(f"game {len(c.found)}: {plan.want} with bot_seed={c.found[-1]}", flush=True)
    print("seeds:", c.found, f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
