"""A whole Roguelite game through `blood play` with a random (seeded) answerer: mostly the
defaults and legal picks, but also bad answers of every kind (out-of-range numbers, letters,
unicode, 3,000 characters, blank lines where a choice is needed), prompt commands (status, odds,
help, list, back, rules, undo, redo) and end of input now and then (Ctrl-D: the next
`blood play` resumes). After every answer the log holds exactly the steps the answers recorded:
a bad answer or a command records nothing, a finished answer exactly one step, the very action
the answers built."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli import session
from blood_companion.cli.entry import main
from blood_companion.cli.play_cmd import Loop
from blood_companion.engine.dice import DiceBox, format_face

BAD = ["0", "999", "-1", "zz", "?!", "ünïcödé 漢字", "x" * 3000, "1 2 3 4 5 6 7 8 9",
       "nonsense words here", "🎲", "i9", "k k", "\x1b[A"]
COMMANDS = ["status", "help", "odds", "list", "back", "rules push", "odds 2R B --target 3"]
SAME = ("status", "help", "odds", "list", "rules push", "odds 2R B --target 3")


class RandomPlayer(Loop):
    """`blood play`'s loop with a random answerer instead of a person at the keyboard."""

    def __init__(self, name: str, rng: random.Random, box: DiceBox, expected: int) -> None:
        super().__init__(name)
        self.rng = rng
        self.box = box
        self.expected = expected  # the log length the answers so far account for
        self.answers = 0
        self.counts = {"bad": 0, "command": 0, "pick": 0, "enter": 0, "free": 0, "eof": 0,
                       "recorded": 0, "refused": 0, "undo": 0, "redo": 0}
        self.last: tuple[str, Any] | None = None  # the last answer and the question it met
        self.typed: str | None = None

    def head(self) -> int:
        with self.open() as store:
            return int(store.head)

    def ask(self, prompt: str) -> str | None:
        assert self.head() == self.expected, "the log changed without an answer recording it"
        if self.walk is not None and self.walk.state.game >= 2:
            return None  # the game is finished: stop here
        self.answers += 1
        rng = self.rng
        if prompt.startswith("Take it anyway"):
            return rng.choice(["y", "n", ""])
        seen = self._seen()
        if self.last is not None and self.last[0] in ("bad", *SAME):
            # a bad answer or a command: the same question, with the same default
            assert seen == self.last[1], (self.last[0], seen, self.last[1])
        answer = self._answer()
        kind = answer if answer in SAME else ("bad" if answer in BAD else "other")
        self.last = (kind, seen)
        self.typed = answer
        return answer

    def _seen(self) -> Any:
        screen = self.walk.screen()
        return (screen.title, screen.question, screen.need, screen.default,
                [c.key for c in screen.choices])

    def _answer(self) -> str | None:
        rng = self.rng
        r = rng.random()
        if r < 0.004:
            self.counts["eof"] += 1
            return None  # Ctrl-D: saved; the test runs `blood play` again
        if r < 0.10:
            self.counts["bad"] += 1
            return rng.choice(BAD)
        if r < 0.14:
            self.counts["command"] += 1
            return rng.choice(COMMANDS)
        if r < 0.150 and self.head() > 3:
            self.counts["undo"] += 1
            return "undo"
        if r < 0.156:
            self.counts["redo"] += 1
            return "redo"
        screen = self.walk.screen()
        choices = [c for c in screen.choices if c.enabled]
        if screen.default is None and "Look at the Map: type a name" in screen.question:
            # only the Map answers (no default, issue 26): the table says who, by name too
            self.counts["pick"] += 1
            return rng.choice(["all", "all", rng.choice(choices).label.split(",")[0],
                               rng.choice(choices).key])
        if screen.default is not None and r < 0.75:
            self.counts["enter"] += 1
            return ""
        night = self.walk.state.night
        if (r < 0.75 and screen.need is None and night is not None and night.pending
                and night.pending[0].kind == "leader"):
            # a Leader question (a free choice, no Enter default: issue 26): the first
            # candidate, which Enter chose before
            self.counts["enter"] += 1
            return "1"
        if screen.test is not None and screen.need == "dice" and r < 0.85:
            self.counts["free"] += 1
            return " ".join(format_face(rng.choice(self.box.die(d).faces))
                            for d in screen.test["pool"].split())
        if screen.many is not None and choices:
            least, most = screen.many
            k = rng.randint(least, min(most, len(choices)))
            self.counts["pick"] += 1
            return " ".join(c.key for c in rng.sample(choices, k)) or "none"
        if choices:
            self.counts["pick"] += 1
            return rng.choice(choices).key
        self.counts["enter"] += 1
        return ""

    def undo_redo(self, what: str, k: int) -> None:
        before = self.head()
        super().undo_redo(what, k)
        moved = self.head() - before
        assert moved in ((-k, 0) if what == "undo" else (k, 0))
        self.expected += moved

    def record(self, action: Any, digest: str) -> bool:
        before = self.head()
        ok = super().record(action, digest)
        with self.open() as store:
            head = store.head
            last = store.actions()[head - 1]
        if ok:
            assert head == before + 1 and last == action  # exactly the action answered
            self.expected += 1
            self.counts["recorded"] += 1
        else:
            assert head == before
            assert self.typed != "", "Enter (the default) was refused"
            self.counts["refused"] += 1
        return ok


@pytest.mark.parametrize(("seed", "troupers"), [(16, "aurel,ioana"), (29, "petru,zora,ioana")])
def test_a_whole_roguelite_game_through_blood_play_with_a_random_answerer(
    saves_dir: Path, capsys: Any, catalog: Any, seed: int, troupers: str,
) -> None:
    assert main(["campaign", "new", "rnd", "--troupers", troupers, "--seed", str(seed)]) == 0
    capsys.readouterr()
    rng = random.Random(seed)
    box = DiceBox.from_models(catalog.dice)
    with session.open_session("rnd") as store:
        expected = store.head
    totals: dict[str, int] = {}
    outs = []
    for _ in range(40):  # each run ends at end of input (Ctrl-D) or with the game
        player = RandomPlayer("rnd", rng, box, expected)
        player.run()
        outs.append(capsys.readouterr().out)
        expected = player.expected
        for k, v in player.counts.items():
            totals[k] = totals.get(k, 0) + v
        with session.open_session("rnd") as store:
            state = store.state
            assert store.head == expected
        if state.game >= 2:
            break
    assert state.history and state.history[0].result in ("won", "lost")
    assert state.game == 2 and state.part == "day"
    out = "".join(outs)
    # after "Finish the game": the game's summary, as `blood end finish` prints it
    assert "Game 1 is over:" in out and "Next: game 2 begins with the Day Part" in out
    assert "Traceback" not in out
    assert totals["bad"] > 20 and totals["command"] > 5 and totals["recorded"] > 100
    assert main(["campaign", "verify", "--json"]) == 0
    assert '"ok": true' in capsys.readouterr().out
