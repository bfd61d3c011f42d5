"""Loading the whole data pack in-process: cold, and from the validated-catalog cache.

Each is printed as a ratio to parsing the same YAML files with the fastest safe loader
available (PyYAML's CSafeLoader when built with libyaml), measured in the same run.
Target: the cached load is faster than parsing the YAML at all (ratio < 1).

    python bench/load.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable

import yaml

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


if __name__ == "__main__":
    main()
