"""How fast the store records an action and resumes a campaign, as the log grows.

For campaigns of 10, 1,000 and 10,000 actions (built in a temporary saves folder), measures

    record   CampaignStore.record(one action): apply + one SQLite transaction (synchronous=FULL)
    resume   CampaignStore.open(...) and its state at the head (what every command does first)

and prints each median next to its ratio to the baseline measured in the same run: serialising
the same head snapshot with ``json.dumps`` (absolute times vary by machine; ratios should not).
Targets: recording does not grow with the log (10,000-action record time within 2x of the
10-action one) and resuming a 10,000-action campaign stays interactive (< 100 ms). `--check` exits 1
when a target is missed.

Usage: python bench/store.py [--rounds N] [--sizes 10,1000,10000] [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from blood_companion.content.loader import load_catalog
from blood_companion.engine.actions import apply
from blood_companion.engine.campaign import AdjustWagon, Seat, StartCampaign
from blood_companion.engine.state import CampaignState, canonical_json
from blood_companion.store import CampaignStore, schema
from blood_companion.store.campaign_store import Entry, build_file

RESUME_LIMIT = 0.100  # seconds
GROWTH_LIMIT = 2.0


def action(i: int) -> AdjustWagon:
    kind = ("coins", "jewels", "trinkets", "scrolls")[i % 4]
    return AdjustWagon(**{kind: 1}, reason=f"bench {i}")  # type: ignore[arg-type]


def build(saves: Path, name: str, n: int, catalog: Any) -> None:
    """A campaign of `n` actions, written in bulk (as import does)."""
    start = StartCampaign(name=name, seed=11, seats=[Seat(trouper=t) for t in
                                                       ("aurel", "ioana", "petru", "zora")])
    actions = [start, *(action(i) for i in range(n - 1))]
    state = CampaignState()
    entries, snaps = [], {}
    text = ""
    for step, a in enumerate(actions, start=1):
        state = apply(state, a, catalog, step - 1)
        text = canonical_json(state)
        digest = hashlib.sha256(text.encode()).hexdigest()
        entries.append(Entry(a, digest))
        if step % schema.SNAPSHOT_EVERY == 0:
            snaps[step] = (text, digest)
    build_file(saves, name, entries, head=n, final_state=(state, text), states=snaps)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--sizes", default="10,1000,10000")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    catalog = load_catalog()
    sizes = [int(s) for s in args.sizes.split(",")]
    ok = True
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        for n in sizes:
            name = f"bench{n}"
            build(saves, name, n, catalog)
            with CampaignStore.open(saves, name, catalog) as store:
                doc = store.state.model_dump(mode="json")
                size = len(json.dumps(doc))
                base_t, rec_t, res_t = [], [], []
                # Interleaved rounds, so the baseline runs under the same machine conditions.
                for r in range(args.rounds + 3):
                    t0 = time.perf_counter()
                    for _ in range(10):
                        json.dumps(doc)
                    t1 = time.perf_counter()
                    store.record(action(r))
                    t2 = time.perf_counter()
                    with CampaignStore.open(saves, name, catalog) as again:
                        again.state  # noqa: B018
                    t3 = time.perf_counter()
                    if r >= 3:  # warm-up rounds are not counted
                        base_t.append((t1 - t0) / 10)
                        rec_t.append(t2 - t1)
                        res_t.append(t3 - t2)
            baseline = statistics.median(base_t)
            record = statistics.median(rec_t)
            resume_t = statistics.median(res_t)
            rows.append((n, baseline, size, record, resume_t))
    print("store bench: median times; ratio = time / json.dumps of the same head snapshot")
    print(f"{'actions':>8} {'snapshot':>9} {'json.dumps':>11} {'record':>9} {'ratio':>7} "
          f"{'resume':>9} {'ratio':>7}")
    for n, base, size, rec, res in rows:
        print(f"{n:>8} {size / 1024:>7.1f}KB {base * 1e6:>9.1f}us {rec * 1e3:>7.2f}ms "
              f"{rec / base:>6.1f}x {res * 1e3:>7.2f}ms {res / base:>6.1f}x")
    first, last = rows[0], rows[-1]
    growth = last[3] / first[3]
    print(f"record time {first[0]} -> {last[0]} actions: {growth:.2f}x "
          f"(ratio {first[3] / first[1]:.1f}x -> {last[3] / last[1]:.1f}x; target: time grows "
          f"<= {GROWTH_LIMIT}x)")
    print(f"resume of {last[0]} actions: {last[4] * 1e3:.1f} ms "
          f"(target < {RESUME_LIMIT * 1e3:.0f} ms)")
    if growth > GROWTH_LIMIT or last[4] >= RESUME_LIMIT:
        ok = False
        print("TARGET MISSED")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
