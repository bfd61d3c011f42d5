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
0.5 (issue 29: `--help` and `data validate` too), every other command at most 1.0 (issue 29:
of the naive app, below, for the commands that record or rebuild). `--check` exits 1 when a
ratio is over its target.

The yardstick of the commands that record, undo, redo, rebuild a view or start `blood play`
(issue 29) is a naive typer + pydantic app doing a recorded step's work (bench/naive_app.py:
three nested models read from SQLite, validated and written back with a full sync). Its row is
"naive app"; those commands (on the Day campaign and on the mid-night one) are run right after
the baseline and the naive app, and print their ratio to each ("naive" column), target 1.0x the
naive app. Besides `campaign wagon`, two rows record a step of the Part itself on copies of
the campaigns: `night play` (the first card of the hand of whoever plays now) and `day recover`,
the step recorded by the run before undone first (not timed). `--cpu` measures the processes'
CPU time (user + system) instead of wall time: steadier on a loaded machine.

Two "floor" rows, for information, time what no command using typer and pydantic models can
go below: importing typer with pydantic's BaseModel, and the engine's state models.

The package's bytecode is compiled first (an editable checkout with PYTHONDONTWRITEBYTECODE
would otherwise recompile every module on every run); the figures in the README come from a
non-editable install (`pip install .`).

Usage: python bench/cli.py [--rounds N] [--cpu] [--check] [--only NAME,...]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = [sys.executable, "-c", "import typer, rich, pydantic, yaml"]
NAIVE_APP = str(Path(__file__).with_name("naive_app.py"))
NIGHT = [
    "night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
    "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer",
]


def blood_command() -> list[str]:
    """The installed `blood` script next to this interpreter, else `python -m blood_companion`."""
    found = shutil.which("blood", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "blood_companion"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


CPU = False  # --cpu: time the child's CPU (user + system), not the wall clock


def run_once(cmd: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,)) -> float:
    start, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run(cmd, capture_output=True, check=False, env=env)
    elapsed = (_children_cpu() - cpu) if CPU else (time.perf_counter() - start)
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


def first_card(blood: list[str], where: list[str], env: dict[str, str]) -> str:
    """The first card of the hand of the Trouper who plays now (`blood night next --json`)."""
    import json

    out = subprocess.run([*blood, *where, "night", "next", "--json"], capture_output=True,
                         check=True, env=env, text=True).stdout
    card: str = json.loads(out)["hand_cards"][0]["name"]
    return card


def main(argv: list[str] | None = None) -> int:
    global CPU
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15, help="runs of each command [15]")
    ap.add_argument("--cpu", action="store_true", help="time CPU (user+system), not wall time")
    ap.add_argument("--check", action="store_true", help="exit 1 if a ratio is over target")
    ap.add_argument("--only", default="", help="comma-separated command names to run")
    args = ap.parse_args(argv)
    CPU = args.cpu

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
        # the mid-night campaign that records, undoes and redoes: a copy, so that the views of
        # the one the table commands read stay unchanged (stored)
        shutil.copytree(folder / "night", folder / "night-rec")
        # and copies recording a step of the Part itself, undone before each run (not timed)
        shutil.copytree(folder / "night", folder / "night-step")
        shutil.copytree(folder / "day", folder / "day-step")
        night = ["--saves-dir", str(folder / "night")]
        night_rec = ["--saves-dir", str(folder / "night-rec")]
        day = ["--saves-dir", str(folder / "day")]
        naive = [sys.executable, NAIVE_APP, "wagon", str(folder / "naive.db")]
        subprocess.run([sys.executable, NAIVE_APP, "init", str(folder / "naive.db")], check=True)
        status_cache = {
            "night": folder / "night" / ".cache" / "bench.status.json",
            "day": folder / "day" / ".cache" / "daybench.status.json",
        }

        def rebuild(which: str) -> object:  # the next status has no stored document: a rebuild
            return lambda: status_cache[which].unlink(missing_ok=True)

        def undo_last(where: list[str]) -> object:  # the step recorded by the run before, undone
            recorded: list[bool] = []

            def prepare() -> None:
                if recorded:
                    subprocess.run([*blood, *where, "campaign", "undo"], capture_output=True,
                                   check=True, env=env)
                recorded.append(True)

            return prepare

        night_step = ["--saves-dir", str(folder / "night-step")]
        day_step = ["--saves-dir", str(folder / "day-step")]
        card = first_card(blood, night_step, env)

        # name -> (command, target, prepare-before-each-run or None); a target of the commands
        # in NAIVE_ROWS is a ratio to the naive app, of the others a ratio to the baseline.
        table = 0.5
        other = 1.0
        commands: dict[str, tuple[list[str], float | None, object]] = {
            "naive app": (naive, None, None),
            "status": ([*blood, *night, "status"], table, None),
            "night next": ([*blood, *night, "night", "next"], table, None),
            "day next": ([*blood, *day, "day", "next"], table, None),
            "odds": ([*blood, "odds", "R G B", "--target", "2"], table, None),
            "roll": ([*blood, "roll", "R G B"], table, None),
            "rules": ([*blood, "rules", "exhausted test"], table, None),
            "campaign show": ([*blood, *night, "campaign", "show"], table, None),
            "campaign log": ([*blood, *night, "campaign", "log"], table, None),
            "status --json": ([*blood, *night, "status", "--json"], other, None),
            "status rebuild": ([*blood, *night, "status"], other, rebuild("night")),
            "status rebuild (day)": ([*blood, *day, "status"], other, rebuild("day")),
            "record (wagon)": ([*blood, *day, "campaign", "wagon", "--coins", "1"], other, None),
            "undo": ([*blood, *day, "campaign", "undo"], other, None),
            "redo": ([*blood, *day, "campaign", "redo"], other, None),
            "record (night)": (
                [*blood, *night_rec, "campaign", "wagon", "--coins", "1"], other, None
            ),
            "undo (night)": ([*blood, *night_rec, "campaign", "undo"], other, None),
            "redo (night)": ([*blood, *night_rec, "campaign", "redo"], other, None),
            "record (night play)": (
                [*blood, *night_step, "night", "play", "aurel", card], other,
                undo_last(night_step)
            ),
            "record (day recover)": (
                [*blood, *day_step, "day", "recover"], other, undo_last(day_step)
            ),
            "--help": ([*blood, "--help"], table, None),
            "data validate": ([*blood, "data", "validate"], table, None),
            "play --json": ([*blood, *day, "play", "--json"], other, None),
            "play --json (night)": ([*blood, *night_rec, "play", "--json"], other, None),
            "floor: typer+BaseModel": (
                [sys.executable, "-c", "import typer; from pydantic import BaseModel"], None, None
            ),
            "floor: state models": (
                [sys.executable, "-c", "import blood_companion.engine.state"], None, None
            ),
        }
        naive_rows = {
            name for name in commands
            if name.startswith(("status rebuild", "record", "undo", "redo", "play"))
        }
        if args.only:
            wanted = {w.strip() for w in args.only.split(",")}
            commands = {k: v for k, v in commands.items() if k in wanted}
        for cmd, _, prep in commands.values():  # warm up: disk caches, the stored views
            if callable(prep):
                prep()
            run_once(cmd, env)
        run_once(BASELINE, env)
        run_once(naive, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        ratios: dict[str, list[float]] = {name: [] for name in commands}
        to_naive: dict[str, list[float]] = {name: [] for name in commands}
        base_times: list[float] = []
        for _ in range(args.rounds):
            for name, (cmd, _, prep) in commands.items():
                base = run_once(BASELINE, env)
                # the naive app right before the command too, for the commands measured by it
                yard = run_once(naive, env) if name in naive_rows else None
                if callable(prep):
                    prep()
                took = run_once(cmd, env)
                base_times.append(base)
                times[name].append(took)
                ratios[name].append(took / base)
                if yard is not None:
                    to_naive[name].append(took / yard)

    base = statistics.median(base_times)
    print(
        f"blood: {' '.join(blood)}  ({args.rounds} rounds; {'CPU' if CPU else 'wall'} time; "
        "each run paired with the baseline run just before it, and with the naive app for "
        "the commands in the naive column; medians)"
    )
    print(f"{'baseline':<24} {base * 1000:7.1f} ms          python -c 'import typer, rich, "
          "pydantic, yaml'")
    worst_over = []
    for name, (_, target, _) in commands.items():
        med = statistics.median(times[name]) * 1000
        ratio = statistics.median(ratios[name])
        naive_ratio = statistics.median(to_naive[name]) if to_naive[name] else None
        judged = naive_ratio if name in naive_rows else ratio
        yardstick = "naive" if name in naive_rows else "base"
        if target is None or judged is None:
            verdict = "(information)"
        elif judged <= target:
            verdict = f"<= {target:.1f}x {yardstick} ok"
        else:
            verdict = f"<= {target:.1f}x {yardstick} OVER"
            worst_over.append(name)
        naive_text = f"naive {naive_ratio:5.2f}" if naive_ratio is not None else " " * 11
        print(f"{name:<24} {med:7.1f} ms  ratio {ratio:5.2f}  {naive_text}  {verdict}")
    print("over target: " + (", ".join(worst_over) if worst_over else "none"))
    return 1 if args.check and worst_over else 0


if __name__ == "__main__":
    raise SystemExit(main())
