"""`blood play`: the guided table companion, a whole evening in one loop.

Each turn of the loop opens the campaign, asks the engine what comes next (through
``cli/play_menu.py``), shows the question with numbered answers and a default, reads one line,
and records the chosen Action through the store (the very actions `blood day`, `blood night`
and `blood end` record). Nothing lives only in this process: every answer is saved at once, so
killing it and running `blood play` again asks the same question. Answers come line by line
from standard input, so a script of answers drives it; end of input quits (saved).

At any prompt: ``undo``, ``status``, ``odds [POOL --target T]``, ``rules QUERY``, ``help``,
``quit``.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.text import Text

from blood_companion.cli import session
from blood_companion.cli.common import hint_of, stdout, typed_number
from blood_companion.engine import narrate
from blood_companion.errors import BloodError

HELP = """\
Answer with the number (or letter) of a choice; Enter takes the default [in brackets].
At any prompt:
  status            the board at a glance (blood status)
  undo [N]          take back the last step(s)
  odds [POOL --target T]   the odds of the Test waiting, or of any pool
  rules QUERY       look up a rule
  help              this text
  quit              stop here (everything is saved; `blood play` resumes)"""


def register(app: typer.Typer) -> None:
    app.command("play")(play)


def play(
    new: str = typer.Option(None, "--new", help="Start a new campaign with this name."),
    troupers: str = typer.Option(
        None, "--troupers", help='With --new: Trouper ids, A,B[,C,D] ("random" draws one).'
    ),
    players: int = typer.Option(
        None, "--players", help="With --new: how many players; unnamed Troupers are drawn."
    ),
    mode: str = typer.Option("roguelite", "--mode", help="With --new: roguelite or single."),
    seed: int = typer.Option(None, "--seed", help="With --new: the random seed."),
    colours: str = typer.Option(
        None, "--colours", help='With --new: colours in seat order, or "random".'
    ),
    leader: str = typer.Option(
        None, "--leader", help='With --new: the Leader: seat, Trouper or "random".'
    ),
    steps: int = typer.Option(0, "--steps", help="Stop after this many recorded steps [no limit]."),
    as_json: bool = typer.Option(
        False, "--json", help="Print the question waiting now (with its choices) and exit."
    ),
) -> None:
    """The guided companion: shows the board, asks what happens now, plays the Nemesis and
    the Minions, saves every answer. Resumes where you left off."""
    if new is not None:
        from blood_companion.cli.campaign_cmd import new as new_campaign

        options: dict[str, Any] = {
            "name": new,
            "troupers": troupers,
            "players": players,
            "mode": mode,
            "seed": seed,
            "colours": colours,
            "leader": leader,
        }
        if as_json:  # one JSON document in all: the question, after a quiet start
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()):
                new_campaign(**options, as_json=True)
        else:
            new_campaign(**options, as_json=False)
    if as_json:
        from blood_companion.cli.common import print_json
        from blood_companion.cli.play_menu import build_menu

        with session.open_session() as store:
            doc = build_menu(store.state, store.catalog).to_json()
            doc.update(campaign=store.name, log_length=store.head, state_hash=store.state_hash)
        print_json(doc)
        return
    Loop(name=new or session.campaign_name(), max_steps=steps).run()


class Loop:
    def __init__(self, name: str, max_steps: int = 0) -> None:
        self.name = name
        self.max_steps = max_steps
        self.recorded = 0
        self.echo = not sys.stdin.isatty()
        self.last_turn: tuple[int, int] | None = None

    def open(self) -> Any:
        return session.open_session(self.name)

    # ------------------------------------------------------------------ input
    def ask(self, prompt: str) -> str | None:
        """One line from the players (None at the end of input). A line no command could take
        (not UTF-8, control characters, thousands of characters) is answered and asked again."""
        from blood_companion.cli.entry import argument_problem

        while True:
            try:
                line = input(prompt)
            except EOFError:
                return None
            except UnicodeDecodeError:
                stdout.print(Text("That line is not UTF-8 text; type it again.", style="red"))
                continue
            why = argument_problem(line)
            if self.echo:
                shown = line if len(line) <= 200 else line[:80] + "…"
                stdout.print(Text(shown, style="bold"), markup=False, highlight=False)
            if why is None:
                return line
            stdout.print(Text(f"That line {why}; type it again.", style="red"))

    # ------------------------------------------------------------------ screens
    def show_status(self) -> None:
        from blood_companion.cli.status_cmd import status_doc
        from blood_companion.cli.status_fast import print_lines, width
        from blood_companion.cli.status_view import render

        with self.open() as store:
            doc = status_doc(store)
        print_lines(render(doc, width()))

    def show_menu(self, menu: Any) -> None:
        stdout.print()
        stdout.print(Text(menu.title, style="bold"))
        room = max(20, stdout.width - 1)
        for line in menu.info:
            text = "  " + line
            stdout.print(Text(text if len(text) <= room else text[: room - 1] + "…", style="dim"))
        stdout.print(Text(menu.question, style="green"))
        for c in menu.choices:
            mark = " *" if c.key == menu.default else ""
            label = f"  {c.key:>3}. {c.label}"
            room = max(20, stdout.width - len(mark) - 1)
            if len(label) > room:
                label = label[: room - 1] + "…"
            stdout.print(Text(label + mark, no_wrap=True))
        if menu.free_hint:
            stdout.print(Text(f"       ({menu.free_hint})", style="dim"))

    def prompt_text(self, menu: Any) -> str:
        if menu.default == "*":
            return "[Enter = all] > "
        return f"[{menu.default}] > " if menu.default else "> "

    # ------------------------------------------------------------------ commands
    def command(self, line: str) -> bool | None:
        """Run a global command; True when handled, None to quit, False when not a command."""
        words = line.split()
        if not words:
            return False
        head = words[0].lower()
        if head in ("quit", "exit", "q"):
            return None
        if head in ("help", "?"):
            stdout.print(HELP, markup=False)
            return True
        if head == "status":
            self.show_status()
            return True
        if head == "undo":
            k = typed_number(words[1]) if len(words) > 1 else 1
            if k is None or k < 1 or len(words) > 2:
                stdout.print(Text("undo takes a number of steps, e.g. `undo 2`.", style="red"))
                return True
            with self.open() as store:
                store.undo(k)  # NothingToUndo is answered by the loop, which asks again
                session.refresh_status(store)
                stdout.print(
                    Text(f"Undone {k} step(s); back to step {store.head}.", style="yellow")
                )
            return True
        if head in ("odds", "rules"):
            if head == "odds" and len(words) == 1:
                self.test_odds()
                return True
            from blood_companion.cli.entry import GLOBAL_OPTIONS, dispatch

            fixed = [w for w in words if w.partition("=")[0] in GLOBAL_OPTIONS]
            if fixed:
                stdout.print(Text(
                    f"{fixed[0].partition('=')[0]} cannot change inside `blood play`; quit "
                    "and start `blood play` again with it.", style="red",
                ))
                return True
            dispatch([head, *words[1:]])
            return True
        return False

    def test_odds(self) -> None:
        from blood_companion.engine.night import whose_turn

        with self.open() as store:
            st = store.state
            if st.night is None or st.part != "night":
                stdout.print("No Test is waiting: `odds 2R B --target 3` for any pool.")
                return
            nxt = whose_turn(st, store.catalog)
        opts = nxt.get("test_options") or []
        if not opts:
            stdout.print("No Test is waiting: `odds 2R B --target 3` for any pool.")
        for o in opts:
            stdout.print(
                f"  {o['trait']}: {o['pool']} -> {o['probability']:.1%} to reach {o['target']}"
            )

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        from blood_companion.cli.play_menu import MenuError, build_menu, changes, resolve
        from blood_companion.engine.errors import RuleError

        self.show_status()
        refused: dict[str, set[str]] = {}
        while True:
            with self.open() as store:
                state, cat, digest = store.state, store.catalog, store.state_hash
            avoid = refused.setdefault(digest, set())
            menu = build_menu(state, cat, avoid)
            if menu.end:
                stdout.print(Text(menu.question, style="bold"))
                return
            turn = (state.game, state.night.turn) if state.night is not None else None
            if (
                state.night is not None
                and state.night.phase == "planning"
                and turn != self.last_turn
            ):
                self.last_turn = turn
                self.show_status()
            top = menu
            while True:
                self.show_menu(menu)
                line = self.ask(self.prompt_text(menu))
                if line is None:
                    stdout.print(Text("Saved. `blood play` resumes here.", style="dim"))
                    return
                try:
                    handled = self.command(line)
                except BloodError as exc:  # e.g. `undo 99999`: answer it and ask again
                    stdout.print(Text.assemble(("Refused: ", "bold red"), str(exc.message)))
                    if exc.hint:
                        stdout.print(Text("Hint: " + exc.hint, style="yellow"))
                    break
                if handled is None:
                    stdout.print(Text("Saved. `blood play` resumes here.", style="dim"))
                    return
                if handled:
                    break  # the state may have changed (undo): ask again from the top
                try:
                    picked = resolve(menu, line)
                except MenuError as exc:
                    stdout.print(Text(str(exc), style="red"))
                    if menu is not top:
                        menu = top
                    continue
                except (BloodError, ValueError) as exc:
                    stdout.print(Text(f"{exc}", style="red"))
                    menu = top
                    continue
                if hasattr(picked, "choices"):
                    menu = picked  # a follow-up question
                    continue
                answer_key = line.strip() or (menu.default or "")
                try:
                    self.record(picked, digest, changes)
                except (RuleError, BloodError) as exc:
                    stdout.print(Text.assemble(("Refused: ", "bold red"), str(exc.message)))
                    hint = hint_of(exc)
                    if hint:
                        stdout.print(Text("Hint: " + hint, style="yellow"))
                    if menu is top:
                        avoid.add(answer_key)
                    else:
                        avoid.add(top.default or "")
                break
            if self.max_steps and self.recorded >= self.max_steps:
                stdout.print(Text("Saved. `blood play` resumes here.", style="dim"))
                return

    def record(self, action: Any, digest: str, changes: Any) -> None:
        with self.open() as store:
            if store.state_hash != digest:
                stdout.print(Text("The campaign changed meanwhile; asking again.", style="yellow"))
                return
            before = store.state
            log_at = len(before.night.log) if before.night is not None else 0
            after = session.record(action, store)  # also refreshes `blood status`'s cache
            cat = store.catalog
        self.recorded += 1
        stdout.print(Text("✓ " + action.describe(), style="green"))
        if after.night is not None and after.part == "night":
            start = 0 if before.night is None else log_at
            for entry in after.night.log[start:]:
                text = narrate.render(entry, cat)
                style = (
                    "cyan"
                    if text.startswith("MOVE")
                    else ("yellow" if text.startswith("TEST") else "")
                )
                stdout.print(Text("  " + text, style=style))
            phase_before = before.night.phase if before.night is not None else None
            if action.type in ("night_continue", "night_answer", "night_roll") or (
                phase_before != after.night.phase
            ):
                diff = changes(before, after, cat)
                if diff:
                    stdout.print(Text("What changed:", style="bold"))
                    for line in diff:
                        stdout.print(Text("  • " + line))
        elif after.part == "day" and after.wagon != before.wagon and after.day is not None:
            stdout.print(
                "  Wagon: " + ", ".join(f"{v} {k}" for k, v in after.wagon.as_dict().items())
            )
