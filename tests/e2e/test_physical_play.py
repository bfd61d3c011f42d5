"""Issue 26, Build 1, over a whole game through `blood play` with the random answerer of
tests/e2e/test_play_random.py: after every recorded step, every changed board field has its
instruction (engine/physical.py) and the printed "At the table:" lines show no id and no
Python repr."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

from test_play_random import RandomPlayer

from blood_companion.cli import session
from blood_companion.cli.entry import main
from blood_companion.engine import physical as ph
from blood_companion.engine.dice import DiceBox

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from test_physical import ID, REPR, clean, told  # noqa: E402


class Checked(RandomPlayer):
    """The random player, checking each step it records."""

    steps = 0

    def record(self, action: Any, digest: str) -> bool:
        with self.open() as store:
            before = store.state
        ok = super().record(action, digest)
        if ok:
            with self.open() as store:
                after, cat = store.state, store.catalog
            items = ph.instructions(before, after, cat)
            told(before, after, items)
            clean(items)
            Checked.steps += 1
        return ok


def table_lines(out: str) -> list[str]:
    """The bullets right under each "At the table:" heading."""
    found, inside = [], False
    for line in out.splitlines():
        text = line.strip()
        inside = text == "At the table:" or (inside and text.startswith("• "))
        if inside and text.startswith("• "):
            found.append(text[2:])
    return found


def test_every_step_of_a_random_game_through_blood_play_is_told(
    saves_dir: Path, capsys: Any, catalog: Any
) -> None:
    assert main(["campaign", "new", "rnd", "--troupers", "aurel,zora", "--seed", "16"]) == 0
    capsys.readouterr()
    rng, box = random.Random(16), DiceBox.from_models(catalog.dice)
    with session.open_session("rnd") as store:
        expected = store.head
    lines: list[str] = []
    for _ in range(40):
        player = Checked("rnd", rng, box, expected)
        player.run()
        lines += table_lines(capsys.readouterr().out)
        expected = player.expected
        with session.open_session("rnd") as store:
            if store.state.game >= 2:
                break
    assert Checked.steps > 100 and len(lines) > 100
    bad = [x for x in lines if ID.search(x) or REPR.search(re.sub(r"None Leave the Pit", "", x))]
    assert bad == []
