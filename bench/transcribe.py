"""Reading typed Effects: every Effect of the shipped pack, rendered to words beforehand, parsed
back by the Effect parser (and the whole pack read back from its text form), each as a ratio to
loading the catalog, measured in the same run.

Target (issue 18): all the shipped records' Effects parse in well under the time of loading the
catalog (ratio to the cold load well below 1).

    python bench/transcribe.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable

from blood_companion.content import models as m
from blood_companion.content.card_text import Known, deck_text, plan_import, read_cards
from blood_companion.content.effect_text import parse_effect
from blood_companion.content.loader import KINDS, load_layers, shipped_data_dir, validate_layers
from blood_companion.content.render import render_effect


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    os.environ["BLOOD_CACHE_DIR"] = tempfile.mkdtemp(prefix="blood-bench-")
    layers = [shipped_data_dir()]
    catalog = validate_layers(layers)
    records = [r for k in KINDS for r in catalog.all(k)]
    texts = [render_effect(e) for r in records for e in m.effects_in(r)]
    files = {k: deck_text(k, catalog.all(k)) for k in KINDS if catalog.all(k)}
    known = Known(catalog, lambda k, i: "", lambda k, i: None)

    def kind_of(record_id: str) -> str | None:
        return next((k for k in KINDS if catalog.get(k, record_id) is not None), None)

    def parse_all() -> None:
        for text in texts:
            parse_effect(text)

    def read_text_form() -> None:
        for kind, text in files.items():
            cards, _ = read_cards(text, f"{kind}.txt", kind_of)
            plan_import(cards, f"{kind}.txt", known, replace=True)

    def cold() -> None:
        validate_layers(layers)

    def cached() -> None:
        load_layers(layers)

    load_layers(layers)  # warm the cache file
    cold_min, cold_med = timed(cold, max(3, args.repeat // 3))
    cache_min, cache_med = timed(cached, args.repeat)
    parse_min, parse_med = timed(parse_all, args.repeat)
    text_min, text_med = timed(read_text_form, max(3, args.repeat // 3))
    ms = 1e3
    print(f"shipped pack: {len(records)} records, {len(texts)} Effects "
          f"({sum(r.source == 'placeholder' for r in records)} placeholder records)")
    rows = [
        ("baseline  catalog load, cold", cold_min, cold_med, ""),
        ("baseline  catalog load, cached", cache_min, cache_med, ""),
        ("parse     every shipped Effect", parse_min, parse_med,
         f"ratio to cold {parse_min / cold_min:5.3f} (target well < 1), to cached "
         f"{parse_min / cache_min:5.2f}; {parse_min / len(texts) * 1e6:5.1f} us per Effect"),
        ("read      the pack as typed text", text_min, text_med,
         f"ratio to cold {text_min / cold_min:5.3f}"),
    ]
    for label, lo, med, extra in rows:
        print(f"{label:34s}: min {lo * ms:7.2f} ms  median {med * ms:7.2f} ms  {extra}")


if __name__ == "__main__":
    main()
