"""Issue 26, Build 5: the end-of-game summary adds up. A whole scripted game through
`blood play` (the words script of test_play_words.py); the summary printed at its finish counts
every Resource and Trophy token the table won from the night's set-up on (Event rewards and
Weakness Trophies during the night, the End of the Night's loot and tokens): its totals are what
`blood campaign show` gained over the same span."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from test_play_words import Script

from blood_companion.cli import session
from blood_companion.cli.entry import main
from blood_companion.engine.state import RESOURCE_NAMES


class Greedy(Script):
    """The words script, but the table says each Weakness's Trophy was earned."""

    def ask(self, prompt: str) -> str | None:
        screen = self.walk.screen() if self.walk is not None else None
        if screen is not None and any("Trophy is earned" in c.label for c in screen.choices):
            return "y"
        return super().ask(prompt)


class UntilNight(Script):
    def ask(self, prompt: str) -> str | None:
        if self.walk is not None and self.walk.state.night is not None:
            return None  # the night is set up: stop here
        return super().ask(prompt)


def _show(capsys: Any) -> dict[str, Any]:
    import json

    capsys.readouterr()
    assert main(["campaign", "show", "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _held(doc: dict[str, Any]) -> dict[str, int]:
    held = {r: doc["wagon"][r] for r in RESOURCE_NAMES}
    for kind in ("location", "nemesis"):
        held |= {f"{kind}:{of}": n for of, n in doc[f"{kind}_trophies"].items()}
    return held


def test_the_summary_counts_what_the_night_gave(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, saves_dir: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["campaign", "new", "sum", "--troupers", "aurel,zora", "--seed", "3"]) == 0
    UntilNight("sum", limit=3000).run()
    before = _show(capsys)
    assert before["part"] == "night"
    Greedy("sum", limit=3000).run()
    out = capsys.readouterr().out
    after = _show(capsys)
    assert after["game"] == 2, "the scripted game did not finish"
    gained = {k: n - _held(before).get(k, 0) for k, n in _held(after).items()}
    gained = {k: n for k, n in gained.items() if n}
    with session.open_session("sum") as store:
        summary = session.game_summary(store)
        night_end = next(e.step for e in reversed(store.log()) if e.type == "end_night")
        during = _held({"wagon": store.state_at(night_end - 1).wagon.as_dict(),
                        **{f"{k}_trophies": getattr(store.state_at(night_end - 1),
                                                    f"{k}_trophies") for k in
                           ("location", "nemesis")}})
    # the night itself gave something (else this game could not tell the summaries apart)
    assert any(n > _held(before).get(k, 0) for k, n in during.items())
    assert {**summary["earned"], **summary["trophies"]} == gained
    won = re.search(r"Resources won / spent\s+(\d+) / (\d+)", out)
    assert won is not None and int(won.group(1)) == sum(summary["earned"].values())
