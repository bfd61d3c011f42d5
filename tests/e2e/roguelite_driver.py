"""Drive a whole Roguelite campaign through the real CLI (shared by the end-to-end test and the
seed finder, `python tests/e2e/find_seeds.py`).

* The Day Part, the End of the Night, the table changes and every check go through `blood`
  commands: in-process ``main()`` for speed, a separate process of the installed `blood` where
  the test must show that a fresh process resumes the saved campaign.
* Nights are played by the deterministic night bot (tests/engine/night_bot.py); each of its
  moves is recorded in the same save through the store, at the same log positions as a table
  typing `blood night ...` would, so the save holds one honest log.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

import typer.main  # noqa: E402
from night_bot import Table, step  # noqa: E402
from night_invariants import NightInvariants  # noqa: E402

from blood_companion.cli.entry import main  # noqa: E402
from blood_companion.engine import day as d  # noqa: E402
from blood_companion.engine.actions import Action  # noqa: E402
from blood_companion.engine.flow import apply  # noqa: E402
from blood_companion.engine.state import CampaignState  # noqa: E402
from blood_companion.store import CampaignStore  # noqa: E402

# In-process runs only: build the click command tree of the typer app once, not on every
# main() call (a process of `blood` builds it once anyway). Same commands, same code.
_get_command = typer.main.get_command
# The app registers only the command groups a command line needs, and builds a group with only
# the command it runs (cli/app.click_command), so the key names the groups and the commands each
# holds at that moment (two runs can hold as many, but other ones: `day wagon` then `day zone`);
# keeping the app in the value keeps its id from being reused.
_commands: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def _cached_command(app: Any) -> Any:
    key = (
        id(app),
        tuple(
            (id(group), tuple(id(c) for c in group.typer_instance.registered_commands))
            for group in app.registered_groups
        ),
        tuple(id(command) for command in app.registered_commands),
    )
    if key not in _commands:
        _commands[key] = (app, _get_command(app))
    return _commands[key][1]


@dataclass(frozen=True)
class GamePlan:
    """One game of the campaign: the table changes before it, the Day's choices, the night."""

    want: str  # "won" or "lost": the bot seed below gives this result (find_seeds.py)
    bot_seed: int
    zone: str
    difficulty: int = 1
    vlad: bool = False  # Last Assault
    join: tuple[str, ...] = ()  # `blood campaign add-trouper` before the Day
    leave: tuple[str, ...] = ()  # `blood campaign retire-trouper` before the Day
    physical_loot: bool = False  # type the dice faces of the loot rolls


CAMPAIGN_SEED = 7
START_TROUPERS = ("aurel", "zora")

# The campaign of the end-to-end test. Bot seeds found by `python tests/e2e/find_seeds.py`.
PLAN = (
    # 2 Troupers lose; the defeat roll is typed in (physical dice)
    GamePlan(want="lost", bot_seed=12, zone="graveyard", difficulty=3, physical_loot=True),
    # Petru joins: 3 Troupers win and weaken Vlad cards of the Garden
    GamePlan(want="won", bot_seed=0, zone="garden", difficulty=2, join=("petru",)),
    # Zora and Petru leave: Aurel alone wins in the Catacombs
    GamePlan(want="won", bot_seed=24, zone="catacombs", difficulty=1, leave=("zora", "petru")),
    # Ioana joins for the Last Assault: Vlad falls and the box resets
    GamePlan(want="won", bot_seed=10, zone="halls", difficulty=1, vlad=True, join=("ioana",)),
)


class CliError(AssertionError):
    pass


class IndexedTable(Table):
    """The night bot on a bare state: actions applied at log positions base, base+1, ... (what
    the store would do), for the seed search."""

    base: int = 0

    def do(self, action: Action) -> CampaignState:
        self.state = apply(self.state, action, self.catalog, self.base + len(self.log))
        self.log.append(action)
        return self.state


class StoreTable(Table):
    """The night bot recording each move in the campaign's save."""

    store: Any = None
    hash_before_last: str = ""

    def do(self, action: Action) -> CampaignState:
        before = self.store.state_hash
        self.state = self.store.record(action)
        self.hash_before_last = before
        self.log.append(action)
        return self.state


def bot_night(table: Table, max_actions: int = 1500) -> str:
    """Play the night out; "unfinished" when the bot is still at it after `max_actions`. The
    Enemy cards' invariant (night_invariants.py) is checked after every step."""
    invariants = NightInvariants(table.catalog)
    for _ in range(max_actions):
        if table.night.phase == "over":
            return str(table.night.result)
        step(table)
        invariants.check(table.state)
    return "unfinished"


def simulate_night(state: CampaignState, catalog: Any, base: int, bot_seed: int) -> str:
    table = IndexedTable(catalog, state, rng=random.Random(bot_seed))
    table.base = base
    return bot_night(table)


def blood_exe() -> list[str]:
    script = Path(sys.executable).with_name("blood")
    if script.exists():
        return [str(script)]
    found = shutil.which("blood")
    return [found] if found else [sys.executable, "-m", "blood_companion"]


@dataclass
class Campaign:
    """One campaign in a saves folder, driven command by command.

    ``verify`` (the test) checks every step: the command's state_hash is what `campaign show`
    reads back, `campaign undo` returns exactly the state before the step, and `campaign redo`
    returns the state after it.
    """

    saves_dir: Path
    catalog: Any
    name: str = "saga"
    verify: bool = True
    find_seeds: bool = False  # search the bot seed that gives each game's wanted result
    hashes: list[str] = field(default_factory=list)  # state_hash after each checked step
    processes: int = 0
    steps_checked: int = 0
    found: list[int] = field(default_factory=list)
    on_step: Callable[[str, dict[str, Any]], None] | None = None

    # ------------------------------------------------------------------ running blood

    def run(self, *args: str, ok: bool = True) -> tuple[int, str, str]:
        saved = os.environ.get("BLOOD_SAVES_DIR")
        os.environ["BLOOD_SAVES_DIR"] = str(self.saves_dir)
        out, err = io.StringIO(), io.StringIO()
        try:
            typer.main.get_command = _cached_command  # only while this run lasts
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(list(args))
        finally:
            typer.main.get_command = _get_command
            if saved is None:
                os.environ.pop("BLOOD_SAVES_DIR", None)
            else:
                os.environ["BLOOD_SAVES_DIR"] = saved
        if ok and code != 0:
            raise CliError(f"blood {' '.join(args)} -> {code}\n{out.getvalue()}{err.getvalue()}")
        return code, out.getvalue(), err.getvalue()

    def json(self, *args: str) -> dict[str, Any]:
        _, out, _ = self.run(*args, "--json")
        doc: dict[str, Any] = json.loads(out)
        return doc

    def proc(self, *args: str) -> dict[str, Any]:
        """`blood ARGS --json` in a new process of the installed command."""
        env = {**os.environ, "BLOOD_SAVES_DIR": str(self.saves_dir), "NO_COLOR": "1"}
        p = subprocess.run(
            [*blood_exe(), *args, "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        self.processes += 1
        if p.returncode != 0:
            raise CliError(f"blood {' '.join(args)} -> {p.returncode}\n{p.stdout}{p.stderr}")
        doc: dict[str, Any] = json.loads(p.stdout)
        return doc

    def show(self) -> dict[str, Any]:
        return self.json("campaign", "show")

    def state(self) -> CampaignState:
        with CampaignStore.open(self.saves_dir, self.name, self.catalog) as store:
            return store.state

    # ------------------------------------------------------------------ checked steps

    def step(self, *args: str, new_process: bool = False) -> dict[str, Any]:
        """Run one state-changing command and check it (see the class docstring)."""
        doc = self.json(*args)
        self.check_last(doc.get("state_hash"), new_process=new_process)
        if self.on_step is not None:
            self.on_step(" ".join(args), doc)
        return doc

    def check_last(self, expected: str | None = None, *, new_process: bool = False) -> str:
        """The step is saved: `campaign undo` gives back exactly the state before it and
        `campaign redo` the state after it (both read from the save). With `new_process`, a new
        process of the installed `blood` resumes the campaign to do the undo and the redo."""
        now = expected or self.show()["state_hash"]
        if self.verify:
            run = self.proc if new_process else self.json
            undone = run("campaign", "undo")
            if self.hashes:
                assert undone["state_hash"] == self.hashes[-1], "undo missed the step before"
            assert undone["state_hash"] != now and undone["redo"] == 1
            redone = run("campaign", "redo")
            assert redone["state_hash"] == now, "redo did not give back the step"
            assert redone["redo"] == 0 and redone["head"] == undone["head"] + 1
            self.steps_checked += 1
        self.hashes.append(now)
        return now

    # ------------------------------------------------------------------ the campaign

    def start(self) -> dict[str, Any]:
        doc = self.json(
            "campaign",
            "new",
            self.name,
            "--troupers",
            ",".join(START_TROUPERS),
            "--seed",
            str(CAMPAIGN_SEED),
        )
        self.hashes.append(doc["state_hash"])
        return doc

    def table_changes(self, plan: GamePlan) -> None:
        for who in plan.leave:
            self.step("campaign", "retire-trouper", who)
        for who in plan.join:
            self.step("campaign", "add-trouper", who)

    def purchases(self, state: CampaignState) -> None:
        """Spend what the Wagon allows: the first affordable Advanced Tactic card or Item
        upgrade, else the Alchemist's Laboratory (1 Resource) when the Wagon holds 2."""
        choices = self.json("day", "next")["choices"]  # what is on offer, with "affordable"
        for c in choices:
            if c["kind"] not in ("advanced_tactic", "upgrade") or not c["affordable"]:
                continue
            card = self.catalog.tactic(c["id"]) or self.catalog.item(c["id"])
            cost = card.cost if c["kind"] == "advanced_tactic" else card.upgrade_cost
            pay = d.pay_text(d.suggest_payment(state.wagon, cost) or {})
            who = state.troupers[0].trouper
            if c["kind"] == "advanced_tactic":
                self.step("day", "buy-tactic", who, "--art", c["art"], "--pay", pay)
            else:
                self.step("day", "upgrade", c["trouper"], c["id"], "--pay", pay)
            return
        wagon = state.wagon.as_dict()
        have = [r for r, n in wagon.items() if n]
        if state.wagon.total() >= 2 and have:
            give = max(have, key=lambda r: wagon[r])
            get = next(r for r in wagon if r != give)
            after = wagon[give] - 1
            if after >= 1:
                self.step(
                    "day",
                    "buy",
                    "alchemist",
                    "--pay",
                    f"{give}=1",
                    "--give",
                    f"{give}=1",
                    "--get",
                    get,
                )

    def swap_from_reserve(self) -> None:
        """Put a Personal Reserve card into a deck when the rules allow it (same Art and the
        Building rule), showing that the reserve carried over."""
        state = self.state()
        for t in state.troupers:
            starting = {x.id for x in self.catalog.starting_tactics_for(t.trouper)}
            for card in (c for c in t.reserve_cards if c not in starting):
                for out in t.deck:
                    action = d.SwapTactic(trouper=t.trouper, out=out, into=card)
                    try:
                        apply(state, action, self.catalog, 0)
                    except Exception:  # noqa: BLE001 - a refused swap: try the next pair
                        continue
                    self.step("day", "swap-tactic", t.trouper, out, card)
                    return

    def day(self, plan: GamePlan) -> dict[str, Any]:
        """The whole Day Part through `blood day ...`; returns the `day end` document."""
        self.step("day", "recover")
        state = self.state()
        self.purchases(state)
        self.swap_from_reserve()
        self.step("day", "zone", plan.zone)
        self.step("day", "location", "--roll")
        self.step("day", "minions", "--random")
        if plan.vlad:
            self.step("day", "last-assault", "--yes")
        else:
            self.step("day", "last-assault", "--no")
            self.step("day", "nemesis", "--random")
        self.step("day", "difficulty", str(plan.difficulty))
        self.step("day", "events")
        for t in self.state().troupers:
            items = [t.sleeves[k].item for k in (0, 2, 4)]
            self.step("day", "equip", t.trouper, ",".join(items))
        return self.step("day", "end")

    def night(self, plan: GamePlan) -> str:
        """The night, played by the bot into the save; the last move is undone and redone
        through `blood campaign undo/redo` like any other step."""
        seed = plan.bot_seed
        with CampaignStore.open(self.saves_dir, self.name, self.catalog) as store:
            if self.find_seeds:
                seed = next(
                    s
                    for s in range(seed, seed + 500)
                    if simulate_night(store.state, self.catalog, store.head, s) == plan.want
                )
                self.found.append(seed)
            table = StoreTable(self.catalog, store.state, rng=random.Random(seed))
            table.store = store
            result = bot_night(table, max_actions=4000)
        self.hashes.append(table.hash_before_last)
        self.check_last()
        return result

    def end_of_night(self, plan: GamePlan) -> dict[str, Any]:
        """`blood end night`, every reward through `blood end ...`, then `blood end finish`."""
        doc = self.step("end", "night", new_process=True)
        rw = doc["rewards"]
        if rw["vlad_cards"]:
            left = [c["id"] for c in doc["choices"]["vlad_cards"] if c["side"] == "enhanced"]
            self.step("end", "weaken", *left[: rw["vlad_cards"]])
        troupers = doc["choices"]["troupers"]
        for k in range(rw["advanced_tactics"]):
            arts = [a["art"] for a in self.json("end", "next")["choices"]["arts"] if a["left"]]
            self.step("end", "take", arts[k % len(arts)], troupers[k % len(troupers)])
        for roll in rw["loot"]:
            args = ["end", "loot"]
            if roll["resource"] == "any":
                args += ["--resource", "coins"]
            if plan.physical_loot:  # every die shows its "2" face
                n = sum(int(x[:-1] or 1) for x in roll["dice"].split())
                args += ["--dice", " ".join(["2"] * n)]
            self.step(*args)
        return self.step("end", "finish", new_process=True)

    def play(self, plan: GamePlan) -> dict[str, Any]:
        """One whole game; returns the `blood end finish` document."""
        self.table_changes(plan)
        self.day(plan)
        result = self.night(plan)
        if not self.find_seeds:
            assert result == plan.want, (
                f"the bot's night was {result}, not {plan.want}: if the engine changed how a "
                "night plays, run `python tests/e2e/find_seeds.py` and update PLAN's bot seeds"
            )
        return self.end_of_night(plan)
