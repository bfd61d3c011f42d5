"""How fast `blood status` renders, as a whole process, against importing the CLI's libraries.

Sets up a campaign in the middle of a night (a temporary saves folder), then runs, interleaved
and several times each:

    baseline   python -c "import typer, rich, pydantic, yaml"
    status     blood status            (the save unchanged since the last status: cached view)
    rebuild    blood status            with no stored document (the full build; for information)

and prints each median wall time and its ratio to the baseline's median measured in the same
run. Output goes to a pipe, as in a script. Target (the rules lookup's): status <= 0.8.
`--check` exits 1 when the status ratio is over the target.

Usage: python bench/status.py [--rounds N] [--check] [--target 0.8]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 0.8


def blood_command() -> list[str]:
    found = shutil.which("blood", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "blood_companion"]


def run_once(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stderr.write(f"command failed ({proc.returncode}): {' '.join(cmd)}\n")
        sys.stderr.write(proc.stderr.decode(errors="replace"))
        raise SystemExit(2)
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--target", type=float, default=TARGET)
    args = ap.parse_args()

    blood = blood_command()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "BLOOD_SAVES_DIR": tmp, "COLUMNS": "80"}
        env.pop("BLOOD_CAMPAIGN", None)
        setup = [
            [
                "campaign", "new", "bench", "--mode", "single",
                "--troupers", "aurel,ioana,petru,zora", "--seed", "7",
            ],
            [
                "night",
                "setup",
                "--nemesis",
                "lucilla",
                "--location",
                "catacombs-ossuary-gallery",
                "--minions",
                "undead-bone-sentinel,ghoul-crypt-gnawer",
            ],
        ]
        for a in setup:
            run_once([*blood, *a], env)
        baseline = [sys.executable, "-c", "import typer, rich, pydantic, yaml"]
        status = [*blood, "status"]
        undo = [*blood, "campaign", "undo"]
        redo = [*blood, "campaign", "redo"]
        run_once(status, env)  # warm the catalog cache and the status view
        cache = Path(tmp) / ".cache" / "bench.status.json"
        times: dict[str, list[float]] = {"baseline": [], "status": [], "rebuild": []}
        for k in range(args.rounds):
            times["baseline"].append(run_once(baseline, env))
            times["status"].append(run_once(status, env))
            run_once(undo if k % 2 == 0 else redo, env)  # stores the new status document...
            cache.unlink(missing_ok=True)  # ...which the rebuild row must not use
            times["rebuild"].append(run_once(status, env))
        base = statistics.median(times["baseline"])
        print(
            f"{'baseline':<10} {base * 1000:8.1f} ms  (python -c 'import typer, rich, pydantic,"
            " yaml')"
        )
        worst = 0.0
        for name in ("status", "rebuild"):
            med = statistics.median(times[name])
            ratio = med / base
            note = f"target <= {args.target}" if name == "status" else "no stored view: full build"
            print(f"{name:<10} {med * 1000:8.1f} ms  ratio {ratio:5.2f}  ({note})")
            if name == "status":
                worst = ratio
    if args.check and worst > args.target:
        print(f"FAIL: status ratio {worst:.2f} > {args.target}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
