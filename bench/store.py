"""How the store's costs grow with the log: record, undo, undo --to 1, resume, bytes per step.

For campaigns of 10, 1,000 and 10,000 steps, each in the middle of a real night (four Troupers
against Lucilla; the steps are the night bot's moves, padded with Wagon corrections made during
that night so the big logs build in seconds), it measures on real night moves:

    record   CampaignStore.record(the bot's next night move): engine + delta + one transaction
    undo 1   CampaignStore.undo(1): the recorded state before it (snapshot + deltas, no engine)
    undo --to 1   back to the campaign's first step, then redo to the head
    resume   CampaignStore.open(...) and its head state (what every command does first)
    bytes/step   what a real night step adds to the save: its row (action, chance, delta, hash)
                 plus its share of the whole-state snapshots kept every 50 steps

    verify   CampaignStore.verify() per step (every step rebuilt and checked, the steps of this
             app and data pack replayed by the rules), in a child process after a first verify
             of the 10-step campaign, with its ratio to one json.dumps of the head state in
             that child, and the peak memory verify allocates (tracemalloc, another run)

    import   `campaign import` of the campaign's export per step, in a child process after a first
             import of the 10-step export, with the child's whole peak memory (the process,
             catalog included: VmHWM) and the peak of what the import allocates
             (tracemalloc, another run)

Each time is a median, printed with its ratio to a baseline measured in the same rounds: one
``json.dumps`` of the same head state (absolute times vary by machine; ratios should not).
Targets: every operation within 2x between the 10-step and the 10,000-step campaign (flat in
the log's length), a night step under 4 KB, verify at most 0.3 ms a step at 10,000 steps (issue
40; 0.5 in issue 29) with its peak memory flat in the log's length (at 10,000 steps at most twice
the 1,000-step peak plus 4 MB), import at most 2 ms a step (issue 40) with the process's peak
under 200 MB at 10,000 steps and what it allocates growing at most 8 KB a step between the
1,000- and the 10,000-step campaign (the export document it reads and the rows it writes: the
states are patched in place, one at a time; 280 KB a step before). `--check` exits 1 when one is
missed.

Usage: python bench/store.py [--rounds N] [--sizes 10,1000,3000,10000] [--check]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))

from night_bot import Table, step  # noqa: E402

from blood_companion import __version__  # noqa: E402
from blood_companion.content.loader import load_catalog  # noqa: E402
from blood_companion.engine.actions import seed_for  # noqa: E402
from blood_companion.engine.campaign import AdjustWagon, Seat, StartCampaign  # noqa: E402
from blood_companion.engine.chance import Chance  # noqa: E402
from blood_companion.engine.flow import apply
from blood_companion.engine.night import SetupNight  # noqa: E402
from blood_companion.engine.state import CampaignState  # noqa: E402
from blood_companion.engine.upcast import ACTION_SCHEMA  # noqa: E402
from blood_companion.store import CampaignStore  # noqa: E402
from blood_companion.store.docs import StepSource, canon, chain_rows, state_doc  # noqa: E402
from blood_companion.store.files import build_file  # noqa: E402

GROWTH_LIMIT = 2.0
BACKUP_SPACE_LIMIT = 1.0  # every backup kept, together, at most the save file's size
GAME_STEPS = 1250  # steps per game in the backup model (8 games in 10,000 steps)
STEP_BYTES_LIMIT = 4096
VERIFY_STEP_LIMIT = 0.3e-3  # seconds a step at 10,000 steps (issue 40; 0.5 ms in issue 29)
IMPORT_STEP_LIMIT = 2e-3  # seconds a step of `campaign import` (issue 40; 14.6 ms before)
IMPORT_PEAK_LIMIT = 200 << 20  # the importing process's peak memory at 10,000 steps
IMPORT_GROWTH_LIMIT = 8 << 10  # bytes a step the import's allocations may grow by
VERIFY_MEMORY_SLACK = 4 << 20  # bytes verify may take beyond twice its 1,000-step peak
# The child that verifies (argv: saves folder, campaign, "time" or "memory"). It first verifies
# the 10-step campaign (the imports and lazy builds of a first verify are not counted). "time"
# prints the seconds verify took and the median seconds of one json.dumps of the head state
# timed around it (the baseline); "memory" prints the peak of the memory verify allocates
# (tracemalloc, which slows it: not timed).
VERIFY_CHILD = """
import json, statistics, sys, time, tracemalloc
from pathlib import Path
from blood_companion.content.loader import load_catalog
from blood_companion.store import CampaignStore
saves, catalog = Path(sys.argv[1]), load_catalog()
with CampaignStore.open(saves, "bench10", catalog) as warm:
    assert warm.verify().ok
store = CampaignStore.open(saves, sys.argv[2], catalog)
doc = json.loads(store._text)
def base():
    out = []
    for _ in range(20):
        t = time.perf_counter()
        json.dumps(doc)
        out.append(time.perf_counter() - t)
    return out
if sys.argv[3] == "memory":
    tracemalloc.start()
    ok = store.verify().ok
    print(ok, tracemalloc.get_traced_memory()[1])
else:
    before = base()
    t = time.perf_counter()
    ok = store.verify().ok
    took = time.perf_counter() - t
    print(ok, took, statistics.median(before + base()))
"""
# The child that imports (argv: the export, the 10-step export, "time" or "memory") into a
# saves folder of its own, after a first import of the 10-step export (not counted): "time"
# prints the seconds the import took and the process's peak memory in bytes (VmHWM);
# "memory" the peak of what the import allocates (tracemalloc, which slows it: not timed).
IMPORT_CHILD = """
import resource, sys, tempfile, time, tracemalloc
from pathlib import Path
from blood_companion.content.loader import load_catalog
from blood_companion.store.transfer import import_campaign
catalog = load_catalog()
with tempfile.TemporaryDirectory() as tmp:
    import_campaign(Path(tmp), Path(sys.argv[2]), catalog, name="warm")
    if sys.argv[3] == "memory":
        tracemalloc.start()
        import_campaign(Path(tmp), Path(sys.argv[1]), catalog, name="imported")
        print(tracemalloc.get_traced_memory()[1])
    else:
        t = time.perf_counter()
        import_campaign(Path(tmp), Path(sys.argv[1]), catalog, name="imported")
        took = time.perf_counter() - t
        try:  # the peak of this process (ru_maxrss on Linux keeps the parent's across exec)
            status = Path("/proc/self/status").read_text()
            peak = int(status.split("VmHWM:")[1].split()[0]) * 1024
        except (OSError, IndexError):
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(took, peak)
"""
BOT_PREFIX = 40  # real night moves before the padding


class Recorder(Table):
    """The night bot recording into a store."""

    store: Any = None

    def do(self, action: Any) -> CampaignState:
        self.state = self.store.record(action)
        self.log.append(action)
        return self.state


def build(saves: Path, name: str, n: int, catalog: Any) -> None:
    """A campaign of `n` steps, mid-night, written in bulk (as import does)."""
    start = StartCampaign(name=name, mode="single", seed=11,
                          seats=[Seat(trouper=t) for t in ("aurel", "ioana", "petru", "zora")])
    table = Table(catalog, CampaignState(), rng=random.Random(5))
    table.do(start)
    loc = catalog.locations_in("catacombs")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1))
    while len(table.log) < min(n, BOT_PREFIX):
        step(table)
    actions = list(table.log)
    k = 0
    while len(actions) < n:
        kind = ("coins", "jewels", "trinkets", "scrolls")[k % 4]
        actions.append(AdjustWagon(**{kind: 1}, reason=f"bench {k}"))  # type: ignore[arg-type]
        k += 1
    state = CampaignState()
    sources, docs = [], []
    for i, a in enumerate(actions):
        chance = Chance.fresh(seed_for(state, a), i)
        state = apply(state, a, catalog, i, chance)
        sources.append(StepSource(a.type, a.model_dump_json(), ACTION_SCHEMA,
                                  canon(chance.outcomes) if chance.outcomes else None,
                                  __version__, catalog.fingerprint(), ""))
        docs.append(state_doc(state))
    rows, snaps = chain_rows(sources, docs, head=n)
    build_file(saves, name, rows, head=n, snapshots=snaps,
               meta={"mode": "single", "seed": "11", "data_fp": catalog.fingerprint()})


def build_played(saves: Path, name: str, n: int, catalog: Any) -> None:
    """A Single Game campaign of `n` steps that are all real night moves (the night bot plays
    night after night), for import and verify on played steps rather than padding."""
    from blood_companion.engine.campaign import NextSingleGame
    from blood_companion.engine.endgame import EndNight

    table = Table(catalog, CampaignState(), rng=random.Random(5))
    table.do(StartCampaign(name=name, mode="single", seed=11,
                           seats=[Seat(trouper=t) for t in ("aurel", "ioana", "petru", "zora")]))
    loc = catalog.locations_in("catacombs")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    while len(table.log) < n:
        table.do(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1))
        while table.state.night.phase != "over" and len(table.log) < n:
            step(table)
        if len(table.log) < n:
            table.do(EndNight())
            table.do(NextSingleGame())
    state = CampaignState()
    sources, docs = [], []
    for i, a in enumerate(table.log[:n]):
        chance = Chance.fresh(seed_for(state, a), i)
        state = apply(state, a, catalog, i, chance)
        sources.append(StepSource(a.type, a.model_dump_json(), ACTION_SCHEMA,
                                  canon(chance.outcomes) if chance.outcomes else None,
                                  __version__, catalog.fingerprint(), ""))
        docs.append(state_doc(state))
    rows, snaps = chain_rows(sources, docs, head=len(docs))
    build_file(saves, name, rows, head=len(docs), snapshots=snaps,
               meta={"mode": "single", "seed": "11", "data_fp": catalog.fingerprint()})


def measure(saves: Path, name: str, rounds: int, catalog: Any) -> dict[str, float]:
    store = CampaignStore.open(saves, name, catalog)
    bot = Recorder(catalog, store.state, rng=random.Random(9))
    bot.store = store
    first_head = store.head
    doc = json.loads(store._text)
    times: dict[str, list[float]] = {k: [] for k in ("base", "record", "undo", "to1", "resume")}
    for r in range(rounds + 3):
        t0 = time.perf_counter()
        for _ in range(10):
            json.dumps(doc)
        t1 = time.perf_counter()
        head = store.head
        while store.head == head:  # one real night move (a refused bot move records nothing)
            step(bot)
        t2 = time.perf_counter()
        store.undo(1)
        t3 = time.perf_counter()
        store.redo(1)
        t4 = time.perf_counter()
        store.undo_to(1)
        t5 = time.perf_counter()
        bot.state = store.redo(store.redo_available)
        t6 = time.perf_counter()
        with CampaignStore.open(saves, name, catalog) as again:
            again.state  # noqa: B018
        t7 = time.perf_counter()
        if r >= 3:  # warm-up rounds are not counted
            times["base"].append((t1 - t0) / 10)
            times["record"].append(t2 - t1)
            times["undo"].append(t3 - t2)
            times["to1"].append(t5 - t4)
            times["resume"].append(t7 - t6)
    real = store.head - first_head
    row_bytes = store._conn.execute(
        "SELECT sum(length(data) + coalesce(length(chance), 0) + length(delta) + "
        "length(state_hash) + length(app) + length(data_fp) + length(recorded) + 16) "
        "FROM actions WHERE step > ?", (first_head,)
    ).fetchone()[0]
    state_bytes = len(store._text)
    store.close()
    out = {k: statistics.median(v) for k, v in times.items()}
    out["bytes"] = row_bytes / max(1, real) + state_bytes / 50
    out["state"] = state_bytes
    with CampaignStore.open(saves, name, catalog) as store:
        out["file_bytes"] = store.path.stat().st_size
        t0 = time.perf_counter()
        backup = store.backup("bench")
        out["backup_s"] = time.perf_counter() - t0
        out["backup_bytes"] = backup.stat().st_size
    return out


def measure_verify(saves: Path, name: str, n: int, rounds: int) -> dict[str, float]:
    """Verify of the campaign in a child process: the median seconds a step over ``rounds``
    runs (at least one), its ratio to the child's json.dumps of the head state, and the peak
    memory verify allocates."""
    import subprocess

    def child(what: str) -> list[float]:
        out = subprocess.run([sys.executable, "-c", VERIFY_CHILD, str(saves), name, what],
                             capture_output=True, text=True, check=True).stdout.split()
        if out[0] != "True":
            raise SystemExit(f"verify of the {n}-step bench campaign failed")
        return [float(x) for x in out[1:]]

    runs = [child("time") for _ in range(max(1, rounds))]
    return {"verify": statistics.median(t for t, _ in runs) / n,
            "verify_ratio": statistics.median(t / n / b for t, b in runs),
            "verify_mem": child("memory")[0]}


def measure_import(saves: Path, name: str, n: int, rounds: int, catalog: Any
                   ) -> dict[str, float]:
    """`campaign import` of the campaign's export in a child process: the median seconds a
    step over ``rounds`` runs, the child's peak memory, and the peak the import allocates."""
    import subprocess

    from blood_companion.store.transfer import export_campaign

    for which in {"bench10", name}:
        with CampaignStore.open(saves, which, catalog) as store:
            export_campaign(store, saves.parent / f"{which}.export.json", force=True)

    def child(what: str) -> list[float]:
        out = subprocess.run([sys.executable, "-c", IMPORT_CHILD,
                              str(saves.parent / f"{name}.export.json"),
                              str(saves.parent / "bench10.export.json"), what],
                             capture_output=True, text=True, check=True).stdout.split()
        return [float(x) for x in out]

    runs = [child("time") for _ in range(max(1, rounds))]
    return {"import": statistics.median(t for t, _ in runs) / n,
            "import_rss": max(r for _, r in runs), "import_mem": child("memory")[0]}


def backups_report(steps: int, m: dict[str, float]) -> bool:
    """The backup space of a whole campaign of `steps` steps: a real compressed backup of the
    built campaign gives the bytes per step of a backup; the campaign's backup history (one
    every BACKUP_EVERY steps plus three per game, a game every GAME_STEPS steps, as the store
    takes them) is thinned by the store's own rule (saves.backups_to_keep) and the kept copies
    summed. The old rule (the newest 30 plain copies) is printed beside it."""
    from blood_companion.store import saves as sv
    from blood_companion.store.campaign_store import BACKUP_EVERY

    file_per_step = m["file_bytes"] / steps
    backup_per_step = m["backup_bytes"] / steps
    events = sorted({*range(BACKUP_EVERY, steps + 1, BACKUP_EVERY),
                     *(g + k for g in range(GAME_STEPS, steps + 1, GAME_STEPS)
                       for k in (-GAME_STEPS // 2, -GAME_STEPS // 4, 0))})
    names = [Path(f"20260101T{i:012d}-g{i + 1:06d}-auto.blood.db.gz")
             for i, _ in enumerate(events)]
    kept = sv.backups_to_keep(names)
    at = dict(zip(names, events, strict=True))
    new_total = sum(at[p] * backup_per_step for p in kept)
    old_total = sum(e * file_per_step for e in events[-30:])
    save = steps * file_per_step
    limit = BACKUP_SPACE_LIMIT * save
    print(f"backups of a {steps}-step campaign ({len(events)} taken): {len(kept)} kept, "
          f"{new_total / 1e6:.2f} MB beside a {save / 1e6:.2f} MB save "
          f"(x{new_total / save:.2f}; the old rule kept 30 plain copies: "
          f"{old_total / 1e6:.1f} MB, x{old_total / save:.1f}); one backup "
          f"{m['backup_s'] * 1e3:.0f} ms = x{m['backup_s'] / m['resume']:.1f} a resume "
          f"(target: space <= x{BACKUP_SPACE_LIMIT} the save)")
    return new_total <= limit


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--sizes", default="10,1000,3000,10000")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--verify-rounds", type=int, default=3, help="verify runs per size [3]")
    ap.add_argument("--import-rounds", type=int, default=3, help="import runs per size [3]")
    ap.add_argument("--played", type=int, default=1000,
                    help="steps of the played campaign (real nights only; 0: none) [1000]")
    args = ap.parse_args()
    catalog = load_catalog()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp) / "saves"
        build(saves, "bench10", 10, catalog)
        for n in sizes:
            if n != 10:
                build(saves, f"bench{n}", n, catalog)
            m = measure(saves, f"bench{n}", args.rounds, catalog)
            results.append((n, {**m, **measure_verify(saves, f"bench{n}", n,
                                                      args.verify_rounds),
                                **measure_import(saves, f"bench{n}", n, args.import_rounds,
                                                 catalog)}))
        played: dict[str, float] = {}
        if args.played:
            build_played(saves, "played", args.played, catalog)
            played = {**measure_verify(saves, "played", args.played, args.verify_rounds),
                      **measure_import(saves, "played", args.played, args.import_rounds,
                                       catalog)}
    print("store bench, mid-night campaigns: median ms (ratio = time / one json.dumps of the "
          "head state in the same rounds)")
    head = f"{'steps':>6} {'state':>7} {'json.dumps':>10}"
    for label in ("record", "undo 1", "undo --to 1", "resume"):
        head += f" {label:>17}"
    print(head + f" {'bytes/step':>10}")
    for n, m in results:
        line = f"{n:>6} {m['state'] / 1024:>5.1f}KB {m['base'] * 1e3:>8.3f}ms"
        for key in ("record", "undo", "to1", "resume"):
            line += f" {m[key] * 1e3:>7.2f}ms {m[key] / m['base']:>6.1f}x"
        print(line + f" {m['bytes']:>10.0f}")
    first, last = results[0][1], results[-1][1]
    ok = True
    for key, label in (("record", "record"), ("undo", "undo 1"), ("to1", "undo --to 1"),
                       ("resume", "resume")):
        growth = (last[key] / last["base"]) / (first[key] / first["base"])
        flag = "" if growth <= GROWTH_LIMIT else "  <- grows"
        ok &= growth <= GROWTH_LIMIT
        print(f"{label:>12}: ratio {results[0][0]} -> {results[-1][0]} steps: x{growth:.2f}{flag}")
    worst = max(m["bytes"] for _, m in results)
    ok &= worst <= STEP_BYTES_LIMIT
    print(f"bytes per night step: at most {worst:.0f} (target <= {STEP_BYTES_LIMIT})")
    print("verify (a child process): ms a step (ratio to one json.dumps of the head state in "
          "the same process), peak memory verify allocates")
    for n, m in results:
        print(f"{n:>6} steps: {m['verify'] * 1e3:7.3f} ms/step {m['verify_ratio']:6.1f}x"
              f"  {m['verify_mem'] / 2**20:6.2f} MB")
    by_size = dict(results)
    big = by_size.get(10000, last)
    mid = by_size.get(1000, first)
    ok &= big["verify"] <= VERIFY_STEP_LIMIT
    ok &= big["verify_mem"] <= 2 * mid["verify_mem"] + VERIFY_MEMORY_SLACK
    print(f"verify at {results[-1][0]} steps: {big['verify'] * 1e3:.3f} ms a step (target <= "
          f"{VERIFY_STEP_LIMIT * 1e3:.1f}), peak {big['verify_mem'] / 2**20:.2f} MB (target <= 2x "
          f"the 1,000-step peak + {VERIFY_MEMORY_SLACK >> 20} MB)")
    print("import (a child process): ms a step, the process's peak memory, the peak the import "
          "allocates")
    for n, m in results:
        print(f"{n:>6} steps: {m['import'] * 1e3:7.3f} ms/step  {m['import_rss'] / 2**20:7.1f} MB "
              f"process  {m['import_mem'] / 2**20:7.2f} MB allocated")
    big_n = 10000 if 10000 in by_size else results[-1][0]
    mid_n = 1000 if 1000 in by_size else results[0][0]
    growth = (big["import_mem"] - mid["import_mem"]) / max(1, big_n - mid_n)
    ok &= big["import"] <= IMPORT_STEP_LIMIT and big["import_rss"] <= IMPORT_PEAK_LIMIT
    ok &= growth <= IMPORT_GROWTH_LIMIT
    print(f"import at {big_n} steps: {big['import'] * 1e3:.3f} ms a step (target <= "
          f"{IMPORT_STEP_LIMIT * 1e3:.1f}), process peak {big['import_rss'] / 2**20:.0f} MB "
          f"(target < {IMPORT_PEAK_LIMIT >> 20}), allocations growing {growth / 1024:.1f} KB a "
          f"step from {mid_n} steps (target <= {IMPORT_GROWTH_LIMIT >> 10})")
    if played:
        print(f"played nights ({args.played} steps, every one a real night move; not a target): "
              f"verify {played['verify'] * 1e3:.3f} ms a step, import "
              f"{played['import'] * 1e3:.3f} ms a step, peak {played['import_rss'] / 2**20:.0f} MB")
    ok &= backups_report(results[-1][0], results[-1][1])
    if not ok:
        print("TARGET MISSED")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
