"""Issue 39, Build 3: told in table order, once.

A whole scripted Roguelite game through `blood play` with every deck at the table (the script
of tests/e2e/test_play_words.py), its output read as the table reads it:

* an outcome the step already had when it asked for a card the players drew (an attack's roll,
  a dodge, the Nemesis deck reshuffled) is printed before that question, and not again after;
* no physical instruction is printed twice in one step, and the night's deal (the deck
  shuffled, five cards to the hand) is told once per Trouper, not again in the Beginning of
  the Night's checklist; a Nemesis Trophy is one line.

And at the walker: the question naming a Reaction card revealed from an empty deck says first
that the discard pile was shuffled into it.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from test_play_words import Script

from blood_companion.cli import session
from blood_companion.cli.common import stdout
from blood_companion.cli.entry import main
from blood_companion.cli.play_menu import Walk
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import words
from blood_companion.engine.flow import apply
from blood_companion.engine.night import PlayCard, SetupNight
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import DrawNeeded, unseen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from night_bot import step  # noqa: E402
from test_physical_decks import MODES, NamingTable, _start  # noqa: E402

ASKED, RECORD, RECORDED = "<<asked>>", "<<record>>", "<<recorded>>"
DRAWN_KINDS = ("reveal", "reveal_interruption", "nemesis_wound", "summon")


class Marked(Script):
    """The script, marking in the output where a question is asked and where a step is
    recorded, and keeping each recorded step (before, action, after)."""

    def __init__(self, name: str, limit: int) -> None:
        super().__init__(name, limit)
        self.steps: list[tuple[Any, Any, Any]] = []

    def ask(self, prompt: str) -> str | None:
        stdout.print(ASKED)
        return super().ask(prompt)

    def record(self, action: Any, digest: str) -> bool:
        with self.open() as store:
            before = store.state
        stdout.print(RECORD)
        ok = super().record(action, digest)
        stdout.print(RECORDED)
        if ok:
            with self.open() as store:
                self.steps.append((before, store.actions()[store.head - 1], store.state))
        return ok


def _blocks(out: str) -> tuple[list[str], list[str]]:
    """The output of each recorded step (between its marks, refused ones dropped) and what was
    shown before each of them since the previous recorded step (the questions asked)."""
    results, asked, shown = [], [], []
    for part in out.split(RECORD)[1:]:
        block, _, after = part.partition(RECORDED)
        if "✓ " in block:
            results.append(block)
            asked.append("".join(shown))
            shown = []
        shown.append(after)
    return results, asked


def _bullets(block: str) -> list[str]:
    return [x.strip()[2:] for x in block.splitlines() if x.strip().startswith("• ")]


def _first_drawn(entries: list[Any], drawn: dict[str, list[str]]) -> int | None:
    """Where the step's log reaches the first card the players named."""
    names = {c for cards in drawn.values() for c in cards}
    for k, e in enumerate(entries):
        if e.kind in DRAWN_KINDS and names & {str(v) for v in e.args.values()}:
            return k
    return None


def test_a_table_game_is_told_in_table_order_and_once(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, saves_dir: Path, catalog: Any
) -> None:
    monkeypatch.setenv("COLUMNS", "2000")  # one line a sentence
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["campaign", "new", "order", "--troupers", "aurel,zora", "--seed", "3",
                 "--decks", "table"]) == 0
    capsys.readouterr()
    script = Marked("order", limit=3000)
    script.run()
    out = capsys.readouterr().out
    with session.open_session("order") as store:
        assert store.state.game == 2, "the scripted game did not finish"
    results, asked = _blocks(out)
    assert len(results) == len(script.steps) > 30
    told_before = 0
    for (before, action, after), result, questions in zip(script.steps, results, asked,
                                                          strict=True):
        bullets = _bullets(result)
        assert len(bullets) == len(set(bullets)), f"told twice: {bullets}"
        assert not re.search(r"\bdraw \d+ cards\b", questions), "the deal told in a checklist"
        if after.night is None or not action.drawn:
            continue
        start = len(before.night.log) if before.night is not None else 0
        entries = after.night.log[start:]
        k = _first_drawn(entries, action.drawn)
        if not k:
            continue
        for e in entries[:k]:  # what the step did before it needed the card
            line = words.render(e, catalog)
            assert line in questions, f"{line!r} not told before the question on it"
            assert line not in result.partition("✓ ")[2], f"{line!r} told again after it"
            told_before += 1
    assert told_before >= 3  # the attacks' rolls before the Wound cards named
    # the night's deal: once per Trouper, as the deck shuffled and five cards to the hand
    deal = next(r for r in results if "Shuffle Aurel's deck" in r)
    assert len([b for b in _bullets(deal) if b.endswith("→ Aurel's hand")]) == 1
    assert "draw 5 cards" not in out
    # an Advanced Tactic card taken is its instruction only; no second summary of the moves
    taken = [r for r in results if "Advanced Tactic deck →" in r]
    assert taken and not [r for r in taken if "into the Personal Reserve" in r]
    assert "What changed:" not in out
    # a Nemesis Trophy won is one line
    trophy = [b for r in results for b in _bullets(r) if "Trophy" in b]
    assert not [b for b in trophy if "Weakness Trophy" in b]


def test_the_reshuffle_of_an_empty_nemesis_deck_is_told_before_the_card_is_named(
    catalog: Any
) -> None:
    table = NamingTable(catalog, CampaignState())
    _start(table, MODES["table"], 2, 3)
    loc = catalog.locations_in("graveyard")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1))
    while table.night.phase != "planning" or table.night.pending:
        step(table)
    night = table.night
    alert = min(a for a in catalog.board.threat_track.alert_spaces if a > night.threat)
    state = fx.with_night(table.state, reaction_deck=[], threat=alert - 1,
                          reaction_discard=list(night.reaction_deck))
    who = night.to_play
    assert who is not None
    t = state.troupers[who]
    card = next(c for c in unseen(state, who) if catalog.tactic(c).threat >= 1)
    play = PlayCard(trouper=t.trouper, card=card)
    with pytest.raises(DrawNeeded) as need:
        apply(state, play, catalog, len(table.log))
    screen = Walk.start(state, catalog, len(table.log)).drawing_for(play, need.value).screen()
    lines = screen.question.splitlines()
    shuffled = words.render(next(e for e in need.value.state.night.log
                                   if e.kind == "nemesis_reshuffle"), catalog)
    assert shuffled in lines and lines.index(shuffled) < len(lines) - 1
    assert lines[-1] == need.value.prompt  # the question comes last
    assert need.value.deck == "reactions"
