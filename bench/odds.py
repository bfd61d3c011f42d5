"""How fast the odds engine answers, against icepool on the same distributions, in one run.

For every pool of 3 dice (10 of them from R, G, B) it computes the exact distribution of the
Triumphs rolled (no Re-rolls) with

    engine     blood_companion.engine.odds.sum_distribution (memo caches cleared each time)
    icepool    Die(...) + Die(...) + Die(...), then its probabilities

doing the same work on both sides, twice: "scratch" (each side builds its dice from the face
lists inside the timed call) and "reuse" (each side builds its dice once; the timed call only
sums them). It prints the best-of-N time per call and the ratio icepool / engine (target: >= 3
on every pool and both ways). The four answers are compared exactly first.

Then it times full Test queries with 2 sequential Re-rolls (the optimal policy by dynamic
programming): cold (every cache cleared) and memoised (the same query again), against the
target of under a millisecond per query.

icepool is a benchmark-only dependency: `pip install ".[bench]"`.

Usage: python bench/odds.py [--repeat N] [--check]   (--check exits 1 when a target is missed)
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from blood_companion.content.loader import load_catalog
from blood_companion.engine import odds as engine
from blood_companion.engine.dice import DiceBox

RATIO_TARGET = 3.0
REROLL_TARGET_MS = 1.0


def best_time(fn: Callable[[], Any], repeat: int, number: int) -> float:
    """Seconds per call: the best of ``repeat`` rounds of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def dist_of(faces: list[int]) -> engine.Dist:
    """A die's (value, faces) table from its list of face values (what ``value_dist`` does
    from a die's model)."""
    counts: dict[int, int] = {}
    for v in faces:
        counts[v] = counts.get(v, 0) + 1
    return tuple(sorted(counts.items()))


def clear_caches() -> None:
    engine._convolve.cache_clear()
    engine._space.cache_clear()
    engine._solution.cache_clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    try:
        import icepool
    except ImportError:
        print("icepool is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2

    box = DiceBox.from_models(load_catalog().dice)
    faces = {s.letter: [f.triumphs for f in s.faces] for s in box.dice}
    pools = list(itertools.combinations_with_replacement("RGB", 3))
    ok = True

    print(f"No Re-rolls: full Triumph distribution of 3 dice (best of {args.repeat})")
    print("  scratch: both sides build each die from its face list inside the timed call")
    print("  reuse:   both sides build the dice once; the timed call only sums them")
    print(f"{'pool':6} {'':8} {'engine µs':>10} {'icepool µs':>11} {'ratio':>7}")
    ratios = []
    for pool in pools:

        def ours_scratch(pool: tuple[str, ...] = pool) -> dict[int, Fraction]:
            engine._convolve.cache_clear()
            return engine.sum_distribution(tuple(dist_of(faces[x]) for x in pool))

        def theirs_scratch(pool: tuple[str, ...] = pool) -> dict[int, Fraction]:
            die = icepool.Die(faces[pool[0]])
            for x in pool[1:]:
                die = die + icepool.Die(faces[x])
            return {int(k): Fraction(die.probability(k)) for k in die.outcomes()}

        dists = tuple(dist_of(faces[x]) for x in pool)
        dice = [icepool.Die(faces[x]) for x in pool]

        def ours_reuse(dists: tuple[engine.Dist, ...] = dists) -> dict[int, Fraction]:
            engine._convolve.cache_clear()
            return engine.sum_distribution(dists)

        def theirs_reuse(dice: list[Any] = dice) -> dict[int, Fraction]:
            die = dice[0]
            for other in dice[1:]:
                die = die + other
            return {int(k): Fraction(die.probability(k)) for k in die.outcomes()}

        if not (ours_scratch() == theirs_scratch() == ours_reuse() == theirs_reuse()):
            print(f"MISMATCH on {''.join(pool)}", file=sys.stderr)
            return 1
        for mode, ours, theirs in (
            ("scratch", ours_scratch, theirs_scratch),
            ("reuse", ours_reuse, theirs_reuse),
        ):
            t_ours = best_time(ours, args.repeat, 200)
            t_theirs = best_time(theirs, args.repeat, 50)
            ratio = t_theirs / t_ours
            ratios.append(ratio)
            print(
                f"{''.join(pool):6} {mode:8} {t_ours * 1e6:10.1f} {t_theirs * 1e6:11.1f} "
                f"{ratio:6.1f}x"
            )
    worst = min(ratios)
    print(f"worst ratio icepool/engine: {worst:.1f}x (target >= {RATIO_TARGET:.0f}x)")
    ok &= worst >= RATIO_TARGET

    print()
    print("2 sequential Re-rolls, optimal policy (odds() query, target 4)")
    print(f"{'pool':6} {'cold ms':>8} {'memo µs':>8}")
    colds = []
    for pool in pools:

        def cold(pool: tuple[str, ...] = pool) -> Fraction:
            clear_caches()
            return engine.odds(pool, box, 4, rerolls=2).probability

        def warm(pool: tuple[str, ...] = pool) -> Fraction:
            return engine.odds(pool, box, 4, rerolls=2).probability

        t_cold = best_time(cold, args.repeat, 5)
        warm()
        t_warm = best_time(warm, args.repeat, 200)
        colds.append(t_cold)
        print(f"{''.join(pool):6} {t_cold * 1e3:8.3f} {t_warm * 1e6:8.1f}")
    worst_cold = max(colds) * 1e3
    print(f"slowest cold query: {worst_cold:.3f} ms (target < {REROLL_TARGET_MS:.0f} ms)")
    ok &= worst_cold < REROLL_TARGET_MS

    # The solver alone across targets 0..10 (one solve per target, space shared): what a
    # table of odds for one pool costs.
    pool = ("R", "G", "B")
    dists = engine.pool_dists(pool, box)

    def sweep() -> list[Fraction]:
        clear_caches()
        return [engine.success_probability(dists, t, rerolls=2) for t in range(11)]

    print(
        f"targets 0..10 for R G B with 2 Re-rolls: {best_time(sweep, args.repeat, 3) * 1e3:.2f} ms"
    )
    if args.check and not ok:
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
