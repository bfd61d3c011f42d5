"""Loading the whole data pack in-process: cold, and from the validated-catalog cache.

Each is printed as a ratio to parsing the same YAML files with the fastest safe loader
available (PyYAML's CSafeLoader when built with libyaml), measured in the same run.
Target: the cached load is faster than parsing the YAML at all (ratio < 1).

Then the cost of refusing hostile overlays (issue 14), as ratios to a normal cold load of the
pack with a small valid overlay: an alias bomb (nine levels of nine aliases, about 4.4 billion
values once expanded) and a 50 MB overlay file. Target: both at most about 1 (refusing costs no more
than loading; before the bounds they took 55-120 s and 150 s).

    python bench/load.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from blood_companion.content.errors import ContentError
from blood_companion.content.loader import KINDS, kind_files, load_catalog, shipped_data_dir

try:
    from yaml import CSafeLoader as FastSafe

    LOADER = "CSafeLoader"
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as FastSafe  # type: ignore[assignment]

    LOADER = "SafeLoader"


def best_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    os.environ["BLOOD_CACHE_DIR"] = tempfile.mkdtemp(prefix="blood-bench-")
    root = shipped_data_dir()
    files = [p for k in KINDS for p in kind_files(root, k)]

    def parse_yaml() -> None:
        for p in files:
            yaml.load(p.read_text(encoding="utf-8"), Loader=FastSafe)  # noqa: S506 - safe loader

    def cold() -> None:
        load_catalog(use_cache=False)

    def cached() -> None:
        load_catalog()

    load_catalog()  # warm the cache file
    base_min, base_med = best_of(parse_yaml, args.repeat)
    cold_min, cold_med = best_of(cold, max(3, args.repeat // 3))
    cache_min, cache_med = best_of(cached, args.repeat)
    ms = 1e3
    print(f"data pack: {len(files)} files in {root}")
    rows = [
        (f"baseline  parse YAML ({LOADER})", base_min, base_med, ""),
        ("cold      load+validate+checks", cold_min, cold_med, f"ratio {cold_min / base_min:5.2f}"),
        (
            "cached    validated catalog",
            cache_min,
            cache_med,
            f"ratio {cache_min / base_min:5.2f}  (target < 1)",
        ),
    ]
    for label, lo, med, extra in rows:
        print(f"{label:32s}: min {lo * ms:7.2f} ms  median {med * ms:7.2f} ms  {extra}")
    hostile_overlays(max(3, args.repeat // 3))


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "- id: bomb\n  name: Bomb\n  extra:\n" + "".join(f"    {ln}\n" for ln in lines)


def hostile_overlays(repeat: int) -> None:
    """Refusing an alias bomb and a 50 MB file, as ratios to loading a valid overlay."""
    tmp = Path(tempfile.mkdtemp(prefix="blood-bench-overlays-"))
    normal, bomb, huge = tmp / "normal", tmp / "bomb", tmp / "huge"
    for folder in (normal, bomb, huge):
        (folder / "minions").mkdir(parents=True)
    minion = kind_files(shipped_data_dir(), "minions")[0]  # a valid overlay: ids replaced
    (normal / "minions" / minion.name).write_text(minion.read_text(encoding="utf-8"))
    (bomb / "minions" / "bomb.yaml").write_text(alias_bomb())
    record = "- id: filler\n  name: Filler\n  source: placeholder\n"
    with (huge / "minions" / "huge.yaml").open("w") as fh:
        fh.write(record * ((50 << 20) // len(record)))

    def load(folder: Path, refused: bool) -> Callable[[], None]:
        def run() -> None:
            try:
                load_catalog(folder, use_cache=False)
            except ContentError:
                assert refused, f"{folder} was refused"
            else:
                assert not refused, f"{folder} was not refused"

        return run

    base, _ = best_of(load(normal, False), repeat)
    print("hostile overlays (ratios to a cold load of the pack with a valid overlay):")
    print(f"{'baseline  valid overlay':32s}: min {base * 1e3:7.2f} ms")
    cases = (("refuse    alias-bomb overlay", bomb), ("refuse    50 MB overlay", huge))
    for label, folder in cases:
        lo, _ = best_of(load(folder, True), repeat)
        print(f"{label:32s}: min {lo * 1e3:7.2f} ms  ratio {lo / base:5.2f}  (target <= 1)")


if __name__ == "__main__":
    main()
