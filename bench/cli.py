"""How fast every kind of `blood` command answers, as a whole process, against importing the
CLI's libraries, all measured side by side in one run.

Sets up two campaigns in a temporary saves folder (a Single game in the middle of a night, 60
steps long, and a Roguelite campaign at the Day Part), then runs, round after round, each
command right after the baseline

    baseline   python -c "import typer, rich, pydantic, yaml"

and prints each command's median wall time and the median of its per-round ratios to the
baseline run just before it (absolute times vary by machine and load; the ratio much less).
Output goes to a pipe, as in a script. Targets (issue 19): the table commands (status, night
next, day next, odds, roll, rules, campaign show, campaign log of the last 50 steps) at most
0.5, every other command at most 1.0. `--check` exits 1 when a ratio is over its target.

Two "floor" rows, for information, time what no command using typer and pydantic models can
go below: importing typer with pydantic's BaseModel, and the engine's state models.

The package's bytecode is compiled first (an editable checkout with PYTHONDONTWRITEBYTECODE
would otherwise recompile every module on every run); the figures in the README come from a
non-editable install (`pip install .`).

Usage: python bench/cli.py [--rounds N] [--check] [--only NAME,...]
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = [sys.executable, "-c", "import typer, rich, pydantic, yaml"]
NIGHT = [
    "night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
    "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer",
]


def blood_command() -> list[str]:
    """The installed `blood` script next to this interpreter, else `python -m blood_companion`."""
    found = shutil.which("blood", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "blood_companion"]


def run_once(cmd: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        sys.stderr.write(f"command failed ({proc.returncode}): {' '.join(cmd)}\n")
        sys.stderr.write(proc.stderr.decode(errors="replace")[-2000:])
        raise SystemExit(2)
    return elapsed


def setup(folder: Path) -> None:
    """The two campaigns, built in this process (the library, not 60 processes)."""
    from blood_companion.cli.entry import main

    night, day = str(folder / "night"), str(folder / "day")

    def blood(*args: str) -> None:
        if main(list(args)) != 0:
            raise SystemExit(f"setup failed: blood {' '.join(args)}")

    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        blood("--saves-dir", night, "campaign", "new", "bench", "--mode", "single",
              "--troupers", "aurel,ioana,petru,zora", "--seed", "7")
        for k in range(57):  # a log longer than the 50 steps `campaign log` shows
            blood("--saves-dir", night, "campaign", "wagon", "--coins", "1" if k % 2 else "2")
        blood("--saves-dir", night, *NIGHT)
        blood("--saves-dir", night, "night", "answer", "none")
        blood("--saves-dir", day, "campaign", "new", "daybench", "--troupers", "aurel,zora",
              "--seed", "3")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15, help="runs of each command [15]")
    ap.add_argument("--check", action="store_true", help="exit 1 if a ratio is over target")
    ap.add_argument("--only", default="", help="comma-separated command names to run")
    args = ap.parse_args(argv)

    import blood_companion

    package = Path(blood_companion.__file__).parent
    compileall.compile_dir(str(package), quiet=1)
    blood = blood_command()
    with tempfile.TemporaryDirectory(prefix="blood-bench-") as tmp:
        folder = Path(tmp)
        env = {**os.environ, "COLUMNS": "80", "BLOOD_CACHE_DIR": str(folder / "cache")}
        for key in ("BLOOD_SAVES_DIR", "BLOOD_CAMPAIGN", "BLOOD_DATA_DIR", "NO_COLOR"):
            env.pop(key, None)
        env["BLOOD_CACHE_DIR"] = str(folder / "cache")
        os.environ["BLOOD_CACHE_DIR"] = env["BLOOD_CACHE_DIR"]  # the setup's catalog cache too
        setup(folder)
        night = ["--saves-dir", str(folder / "night")]
        day = ["--saves-dir", str(folder / "day")]
        status_cache = folder / "night" / ".cache" / "bench.status.json"

        def rebuild() -> None:  # the next status has no stored document: a real rebuild
            status_cache.unlink(missing_ok=True)

        # name -> (command, target, prepare-before-each-run or None)
        table = 0.5
        other = 1.0
        commands: dict[str, tuple[list[str], float | None, object]] = {
            "status": ([*blood, *night, "status"], table, None),
            "night next": ([*blood, *night, "night", "next"], table, None),
            "day next": ([*blood, *day, "day", "next"], table, None),
            "odds": ([*blood, "odds", "R G B", "--target", "2"], table, None),
            "roll": ([*blood, "roll", "R G B"], table, None),
            "rules": ([*blood, "rules", "exhausted test"], table, None),
            "campaign show": ([*blood, *night, "campaign", "show"], table, None),
            "campaign log": ([*blood, *night, "campaign", "log"], table, None),
            "status --json": ([*blood, *night, "status", "--json"], other, None),
            "status rebuild": ([*blood, *night, "status"], other, rebuild),
            "record (wagon)": ([*blood, *day, "campaign", "wagon", "--coins", "1"], other, None),
            "undo": ([*blood, *day, "campaign", "undo"], other, None),
            "redo": ([*blood, *day, "campaign", "redo"], other, None),
            "--help": ([*blood, "--help"], other, None),
            "data validate": ([*blood, "data", "validate"], other, None),
            "play --json": ([*blood, *day, "play", "--json"], other, None),
            "floor: typer+BaseModel": (
                [sys.executable, "-c", "import typer; from pydantic import BaseModel"], None, None
            ),
            "floor: state models": (
                [sys.executable, "-c", "import blood_companion.engine.state"], None, None
            ),
        }
        if args.only:
            wanted = {w.strip() for w in args.only.split(",")}
            commands = {k: v for k, v in commands.items() if k in wanted}
        for cmd, _, prep in commands.values():  # warm up: disk caches, the stored views
            if callable(prep):
                prep()
            run_once(cmd, env)
        run_once(BASELINE, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        ratios: dict[str, list[float]] = {name: [] for name in commands}
        base_times: list[float] = []
        for _ in range(args.rounds):
            for name, (cmd, _, prep) in commands.items():
                base = run_once(BASELINE, env)
                if callable(prep):
                    prep()
                took = run_once(cmd, env)
                base_times.append(base)
                times[name].append(took)
                ratios[name].append(took / base)

    base = statistics.median(base_times)
    print(
        f"blood: {' '.join(blood)}  ({args.rounds} rounds; each run paired with the baseline "
        "run just before it; medians)"
    )
    print(f"{'baseline':<24} {base * 1000:7.1f} ms          python -c 'import typer, rich, "
          "pydantic, yaml'")
    worst_over = []
    for name, (_, target, _) in commands.items():
        med = statistics.median(times[name]) * 1000
        ratio = statistics.median(ratios[name])
        if target is None:
            verdict = "(information)"
        elif ratio <= target:
            verdict = f"<= {target:.1f} ok"
        else:
            verdict = f"<= {target:.1f} OVER"
            worst_over.append(name)
        print(f"{name:<24} {med:7.1f} ms  ratio {ratio:5.2f}  {verdict}")
    print("over target: " + (", ".join(worst_over) if worst_over else "none"))
    return 1 if args.check and worst_over else 0


if __name__ == "__main__":
    raise SystemExit(main())
