"""How fast `blood rules` answers, as a whole process, against importing the CLI's libraries.

Runs, interleaved and several times each:

    baseline   python -c "import typer, rich, pydantic, yaml"
    keyword    blood rules keyword push
    search     blood rules "exhausted test"

and prints each median wall time and its ratio to the baseline's median measured in the same
run (absolute times vary by machine; the ratio should not). Output goes to a pipe, as in a
script. Target: every ratio <= 0.8, i.e. a lookup costs less than merely importing what the
rest of the CLI uses. `--check` exits 1 when a ratio is over the target.

A fourth line times the lookup printed as a rich panel on a pseudo-terminal, for information.

Usage: python bench/cli.py [--rounds N] [--check] [--target 0.8] [--no-tty]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

TARGET = 0.8


def blood_command() -> list[str]:
    """The installed `blood` script next to this interpreter, else `python -m blood_companion`."""
    found = shutil.which("blood", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "blood_companion"]


def run_once(cmd: list[str], tty: bool = False) -> float:
    """Wall time of one run; with tty, stdout is a pseudo-terminal (the rich panel path)."""
    if tty:
        import pty

        master, slave = pty.openpty()
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=slave, stderr=subprocess.PIPE, check=False)
        elapsed = time.perf_counter() - start
        os.close(slave)
        while True:  # drain what the command printed
            try:
                if not os.read(master, 65536):
                    break
            except OSError:
                break
        os.close(master)
    else:
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, check=False)
        elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stderr.write(f"command failed ({proc.returncode}): {' '.join(cmd)}\n")
        sys.stderr.write(proc.stderr.decode(errors="replace"))
        raise SystemExit(2)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs of each command [15]")
    parser.add_argument("--target", type=float, default=TARGET, help="ratio to stay under")
    parser.add_argument("--check", action="store_true", help="exit 1 if a ratio is over target")
    parser.add_argument("--no-tty", action="store_true", help="skip the terminal measurement")
    args = parser.parse_args(argv)

    blood = blood_command()
    commands = {
        "baseline": [sys.executable, "-c", "import typer, rich, pydantic, yaml"],
        "keyword": [*blood, "rules", "keyword", "push"],
        "search": [*blood, "rules", "exhausted test"],
    }
    tty = sys.platform != "win32" and not args.no_tty
    if tty:  # the same lookup printed as a rich panel on a terminal (informative only)
        commands["terminal"] = commands["keyword"]
    for name, cmd in commands.items():  # warm up: disk caches, .pyc files, the index cache
        run_once(cmd, tty=name == "terminal")
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, cmd in commands.items():
            times[name].append(run_once(cmd, tty=name == "terminal"))

    base = statistics.median(times["baseline"])
    print(f"blood command: {' '.join(blood)}  ({args.rounds} rounds, medians)")
    print(f"{'baseline':<9} {base * 1000:7.1f} ms   python -c 'import typer, rich, pydantic, yaml'")
    worst = 0.0
    for name in ("keyword", "search"):
        med = statistics.median(times[name])
        ratio = med / base
        worst = max(worst, ratio)
        shown = " ".join(commands[name][len(blood) :])
        print(f"{name:<9} {med * 1000:7.1f} ms   ratio {ratio:.2f}   blood {shown}")
    if tty:
        med = statistics.median(times["terminal"])
        print(
            f"{'terminal':<9} {med * 1000:7.1f} ms   ratio {med / base:.2f}   "
            "blood rules keyword push, on a pseudo-terminal (rich panel; not in the target)"
        )
    verdict = "ok" if worst <= args.target else "OVER TARGET"
    print(f"worst ratio {worst:.2f} (target <= {args.target:.2f}): {verdict}")
    return 1 if args.check and worst > args.target else 0


if __name__ == "__main__":
    raise SystemExit(main())
