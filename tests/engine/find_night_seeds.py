"""Find the seeds of the whole-night scenarios in test_night_e2e.py: for each scenario, the
first seed whose night (campaign seed = bot seed) ends the way the test needs.

    python tests/engine/find_night_seeds.py

Run it when a change to the engine changes how nights play (the seeds in the tests then no
longer lead to their scenario); copy the printed seeds into test_night_e2e.py.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from night_bot import Table, new_table, play_night  # noqa: E402

from blood_companion.content.loader import load_catalog  # noqa: E402
from blood_companion.engine import words  # noqa: E402


def text(table: Table) -> str:
    return "\n".join(words.render(e, table.catalog) for e in table.night.log)


def search(
    catalog: Any, players: int, nemesis: str, want: Callable[[Table], bool], difficulty: int = 1
) -> int | None:
    for seed in range(300):
        table = new_table(
            catalog, players, seed=seed, bot_seed=seed, nemesis=nemesis, difficulty=difficulty
        )
        try:
            play_night(table)
        except AssertionError:
            continue
        if want(table):
            return seed
    return None


def main() -> int:
    catalog = load_catalog()
    patient = catalog.__class__(
        records={
            **catalog.records,
            "rules_config": [
                catalog.config.model_copy(update={"lose_when_nobody_can_play": False})
            ],
        }
    )
    won = lambda t: t.night.result == "won"  # noqa: E731
    check = lambda t: t.night.result == "lost" and "condition holds" in text(t)  # noqa: E731
    for players in (1, 2, 3, 4):
        print("WON", players, search(catalog, players, "lucilla", won))
    for players, nemesis in ((1, "saskia"), (2, "saskia"), (3, "saskia"), (4, "vlad")):
        print("CHECK", players, nemesis, search(catalog, players, nemesis, check, 3))
    print(
        "KNOCKED_OUT",
        search(
            catalog,
            4,
            "corvin",
            lambda t: any(x.knocked_out for x in t.state.troupers),
            3,
        ),
    )
    print(
        "EVERYONE_OUT",
        search(patient, 1, "lucilla", lambda t: t.night.reason == "all_knocked_out"),
    )
    print(
        "NOBODY_CAN_PLAY",
        search(catalog, 1, "lucilla", lambda t: t.night.reason == "nobody_can_play"),
    )
    print(
        "SUMMON_NO_SPACE",
        search(catalog, 2, "mirela", lambda t: "no Minion space is free" in text(t)),
    )
    print(
        "RESHUFFLE", search(catalog, 2, "mirela", lambda t: "discard pile is shuffled" in text(t))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
