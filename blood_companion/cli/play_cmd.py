"""`blood play`: the guided table companion, a whole evening in one loop.

Each turn opens the campaign, asks the engine what comes next (``cli/play_menu.py``), shows the
question with numbered answers and a default, reads one line and records the chosen Action
through the store (the very actions `blood day`, `night` and `end` record): killing it and
running `blood play` again asks the same question. Answers come line by line from standard
input, so a script drives it; end of input quits (saved). :data:`HELP` lists the commands
taken at any prompt. A card drawn from a deck the players hold (engine/table.py) is asked
before the step is recorded with it.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from typing import Any, cast

import typer

from blood_companion.cli import dice_run, rules_cmd, session, views
from blood_companion.cli.campaign_cmd import check_start
from blood_companion.cli.campaign_cmd import new as new_campaign
from blood_companion.cli.common import (
    add_command,
    hint_of,
    print_json,
    run_typer,
    stdout,
    typed_number,
)
from blood_companion.cli.decks import ask_holders
from blood_companion.cli.end_cmd import show_summary
from blood_companion.cli.flags import Opt, Values
from blood_companion.cli.play_menu import Again, Confirm, Done, Walk, excerpt
from blood_companion.cli.render import (
    _fit,
    print_view,
    reaction_cards,
    render,
    why_view,
    width,
    without_commands,
)
from blood_companion.cli.settings import GLOBAL_OPTIONS, argument_problem, current
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.view_docs import refresh, status_doc, why_doc
from blood_companion.display import Styled, styled
from blood_companion.engine import why
from blood_companion.engine.board_view import Board
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import board_view, whose_turn
from blood_companion.engine.table import DrawNeeded, done_so_far
from blood_companion.engine.words import (
    counted_all,
    decks_lines,
    drawn_lines,
    entry_lines,
    hand_lines,
    percent,
    sentence,
    show_lines,
)
from blood_companion.errors import BloodError
from blood_companion.store import seats
from blood_companion.store.errors import HeadMoved

HELP = """\
Answer with the key of a choice (a number or letters) or its name; Enter takes the default
[in brackets]. Several choices: keys or names separated by spaces or commas.
At any prompt:
  status            the board at a glance (blood status)
  undo [N]          take back the last step(s), saying what they were
  redo [N]          bring back what undo took back
  back              drop the choice in progress and go back to the first question
  list              every choice, also those not possible now (with the reason)
  odds [POOL --target T]   the odds of the Test being asked, or of any pool
  rules QUERY       look up a rule
  show CARD         a card's text (any card, by name or id; `show --ids CARD` adds its id)
  hand [TROUPER]    the cards in hand (or, for cards the app does not see, what they can be)
  cards             the Reaction Line with each card's text
  why               why the app decided as it did for the Nemesis side (a Target by its
                    Priorities, a tie, the Leader's Rule, a Summon's space, an order)
  decks             who holds each deck (change it with `blood campaign decks`)
  help              this text
  quit              stop here (everything is saved; `blood play` resumes)"""


HIDE_CLOSED = 4  # more choices than this not possible now are summed up in one line


def register(app: typer.Typer) -> None:
    add_command(app, "play", PLAY, _play, short_help=SUMMARIES["play"])


# The `blood` commands a player may type at the prompt: `odds ...` and `rules ...` (its help).
PROMPT = typer.Typer(pretty_exceptions_enable=False, rich_markup_mode="rich")
dice_run.register(PROMPT)
rules_cmd.register(PROMPT)


# The options of `blood play`, declared once (cli/flags.py): its typer command is made of them.
PLAY = (
    Opt("new", "--new", help="Start a new campaign with this name."),
    Opt("troupers", "--troupers", help='With --new: Trouper ids, A,B[,C,D] ("random" draws one).'),
    Opt("players", "--players", kind="int",
        help="With --new: how many players; unnamed Troupers are drawn."),
    Opt("mode", "--mode", default="roguelite", help="With --new: roguelite or single."),
    Opt("seed", "--seed", kind="int", help="With --new: the random seed."),
    Opt("colours", "--colours", help='With --new: colours in seat order, or "random".'),
    Opt("leader", "--leader", help='With --new: the Leader: seat, Trouper or "random".'),
    Opt("decks", "--decks", help="With --new: who holds the decks: app, table, or "
        "DECK=table,... [asked; Enter: the app holds every deck]."),
    Opt("steps", "--steps", kind="int", default=0,
        help="Stop after this many recorded steps [no limit]."),
    Opt("as_json", "--json", kind="flag", default=False,
        help="Print the question waiting now (with its choices) and exit."),
    Opt("answer", "--answer", kind="list", help="One line typed at the prompt (repeat it for "
        'several: a follow-up\'s answers, `y` at "Take it anyway?"); then exit.'),
)


def _play(given: Values) -> None:
    """The guided companion: shows the board, asks what happens now, plays the Nemesis and
    the Minions, saves every answer. Resumes where you left off."""
    new, decks, as_json = given.new, given.decks, given.as_json
    if new is not None:
        start = {k: given[k] for k in ("troupers", "players", "mode", "seed", "colours", "leader")}
        if decks is None and not as_json:
            check_start(new, *start.values())
            decks = ask_holders()
            if decks is None:
                say("No campaign started.", "dim")
                return
        # with --json one document in all: the question, after a quiet start
        with contextlib.redirect_stdout(io.StringIO()) if as_json else contextlib.nullcontext():
            new_campaign(name=new, **start, decks=decks, as_json=as_json)
    name = new or session.campaign_name()
    if given.answer or as_json:  # no --answer: the loop at the keyboard
        answered(name, given.answer or [], given.steps, as_json)
        return
    Loop(name=name, max_steps=given.steps).run()


def answered(name: str, answers: list[str], steps: int, as_json: bool) -> None:
    """`--answer`: the very loop `blood play` runs, reading ``answers`` instead of the keyboard.
    With ``--json``: one document, the question waiting then (inside a choice: with the
    ``answers`` that led there), what was said and how many steps recorded."""
    loop = Scripted(name, answers, steps)
    if not as_json:
        loop.run()
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        loop.run()
    with session.open_session(name) as store:
        walk = loop.walk if loop.walk is not None and loop.digest == store.state_hash else (
            Walk.start(store.state, store.catalog, store.head))
        doc = walk.screen().to_json()
        inside = walk is loop.walk and (walk.asked or walk.draw or loop.confirm)
        doc.update(campaign=store.name, log_length=store.head, state_hash=store.state_hash,
                   recorded=loop.recorded, answers=loop.pending if inside else [],
                   confirm=loop.confirm,
                   said=[ln.strip() for ln in out.getvalue().splitlines() if ln.strip()])
    print_json(doc)


def say(text: str, style: str = "") -> None:
    stdout.print(styled(text, style=style))


def refused(exc: BloodError) -> None:
    """A refusal as the prompt says it: the message, and the hint when there is one."""
    stdout.print(Styled(("Refused: ", "bold red"), str(exc.message)))
    if hint := hint_of(exc):
        say("Hint: " + hint, "yellow")


def saved() -> None:
    say("Saved. `blood play` resumes here.", "dim")


CHANGED = "The campaign changed meanwhile; asking again."
# An answer typed at a question another seat (a phone) or command answered first (issue 42)
ANSWERED = "Already answered by {by}: nothing was recorded for this answer. The question now:"
DATA_CHANGED = ("Your data changed since this question was asked (a card edited or "
                "transcribed): asking again with the new cards; nothing recorded is changed.")


def shown_choices(screen: Any, every: bool = False) -> tuple[list[tuple[Any, str, str]], int]:
    """The choices a question shows, each with its line and mark (" *": the default), and how
    many not possible now are summed up in one line instead (over ``HIDE_CLOSED``)."""
    closed = sum(not c.enabled for c in screen.choices)
    hide = not every and closed > HIDE_CLOSED
    rows = [(c, f"  {c.key:>3}. {c.label}" + ("" if c.enabled else f" [{c.why or 'not now'}]"),
             " *" if c.key == screen.default else "")
            for c in screen.choices if c.enabled or not hide]
    return rows, closed if hide else 0


# Answers in a row that `blood play` could not use (refused lines, answers the question does not
# take, refused commands) before it stops, when its input is not a terminal: a script or a pipe
# that went wrong would otherwise be answered line after line, the question re-printed each time.
UNUSABLE_IN_A_ROW = 20


class Loop:
    """The interactive loop: show the question, read one answer, record or ask again."""

    def __init__(self, name: str, max_steps: int = 0) -> None:
        self.name = name
        self.max_steps = max_steps
        self.recorded = 0
        self.echo = not sys.stdin.isatty()
        self.last_turn: tuple[int, int] | None = None
        self.walk: Any = None  # play_menu.Walk: where the menus are
        self.digest = ""
        self.at_head = 0  # the head the question waiting was built at (with ``digest``)
        self.data_fp = ""  # the data pack the question waiting was built from
        self.pending: list[str] = []  # the lines typed since the last step recorded
        self.unusable = 0  # answers in a row that could not be used (UNUSABLE_IN_A_ROW)

    def open(self) -> Any:
        return session.open_session(self.name)

    # ------------------------------------------------------------------ input
    def ask(self, prompt: str) -> str | None:
        """One line from the players (None at the end of input); a line no command could take
        (not UTF-8, control characters, too long) is refused and asked again."""
        while True:
            try:
                line = input(prompt)
            except EOFError:
                return None
            except UnicodeDecodeError:
                say("That line is not UTF-8 text; type it again.", "red")
                self.not_used()
                continue
            why = argument_problem(line)
            if self.echo:
                shown = line if len(line) <= 80 else excerpt(line)
                say(shown, "bold")
            if why is None:
                return line
            say(f"That line {why}; type it again.", "red")
            self.not_used()

    def not_used(self) -> None:
        """One more answer in a row that could not be used (UNUSABLE_IN_A_ROW: exit 1)."""
        self.unusable += 1
        if self.echo and self.unusable >= UNUSABLE_IN_A_ROW:
            raise BloodError(
                f"stopped after {self.unusable} answers in a row that could not be used (the "
                "input is not a terminal); nothing was recorded for them",
                hint="check the script's answers; `blood play` resumes at this question",
            )

    # ------------------------------------------------------------------ screens
    def show_status(self, store: Any = None) -> None:
        """The board (`blood status` without its commands) of ``store`` (else opened here)."""
        if store is None:
            with self.open() as store:
                self.show_status(store)
            return
        doc = views.stored(store) or status_doc(store)
        print_view(without_commands(render(cast("Board", doc), width())))

    def show_why(self) -> None:
        """`why`: the decision records of the latest step that made any (``why_doc``)."""
        with self.open() as store:
            doc = why_doc(store)
        stdout.print()
        print_view(why_view(doc, width()))

    def show(self, screen: Any, every: bool = False) -> None:
        stdout.print()
        say(screen.title, "bold")
        room = max(20, stdout.width - 1)
        for line in screen.info:
            say(_fit("  " + line, room), "dim")
        say(screen.question, "green")
        rows, hidden = shown_choices(screen, every)
        for c, label, mark in rows:
            label = _fit(label, max(20, stdout.width - len(mark) - 1))
            # (rich's console.print wraps a Text whatever its no_wrap: the label is cut to fit)
            stdout.print(styled(label + mark, "" if c.enabled else "dim"))
        if hidden:
            say(f"       ({hidden} more not possible now: `list` shows them with the reason)",
                "dim")
        if screen.free_hint:
            say(_fit(f"       (or type {screen.free_hint})", room), "dim")

    def prompt_text(self, screen: Any) -> str:
        if screen.default == "*":
            return "[Enter = all] > "
        return f"[{screen.default}] > " if screen.default else "> "

    # ------------------------------------------------------------------ commands
    def command(self, line: str) -> bool | None:
        """Run a prompt command; True when handled, None to quit, False when not a command."""
        words = line.split()
        if not words or len(line) > 200:
            return False
        head = words[0].lower()
        if len(words) == 1 and head in ("quit", "exit", "q"):
            return None
        if len(words) == 1 and head in ("help", "?", "status", "list", "back", "why"):
            if head in ("help", "?"):
                stdout.print(HELP, markup=False)
            elif head == "status":
                self.show_status()
            elif head == "why":
                self.show_why()
            elif self.walk is not None and head == "list":
                self.show(self.walk.screen(), every=True)
            elif self.walk is not None:  # back
                self.walk = self.walk.top
            return True
        if head in ("undo", "redo") and len(words) <= 2:
            k = typed_number(words[1]) if len(words) == 2 else 1
            if k is None or k < 1:
                say(f"{head} takes a number of steps, e.g. `{head} 2`.", "red")
                return True
            self.undo_redo(head, k)
            return True
        if head == "odds":
            if len(words) == 1:
                self.test_odds()
                return True
            return self.run_command([head, *words[1:]])
        if head == "rules":
            return self.run_command([head, *words[1:]])
        if head == "show" or (head in ("cards", "decks", "hand") and len(words) == 1):
            self.table_command(head, words[1:])
            return True
        if head == "hand" and self.walk is not None:
            try:  # `hand TROUPER`; other words starting with "hand" go on as an answer
                self.walk.state.trouper_index(" ".join(words[1:]))
            except BloodError:
                return False
            self.table_command(head, words[1:])
            return True
        return False

    def table_command(self, head: str, args: list[str]) -> None:
        """`show CARD`, `hand [TROUPER]`, `cards`, `decks` at the prompt (nothing recorded)."""
        with self.open() as store:
            state, cat = store.state, store.catalog
        try:
            if head == "show":
                ids = "--ids" in args
                text = " ".join(a for a in args if a != "--ids")
                if not text:
                    say("show takes a card's name or id, e.g. `show Mist Walk`.", "red")
                    return
                lines = show_lines(cat, text, ids=ids, state=state)
            elif head == "hand":
                lines = hand_lines(state, cat, " ".join(args) or None)
            elif head == "cards":
                lines = reaction_cards(board_view(state, cat) if state.night is not None else None)
            else:
                lines = decks_lines(state)
        except BloodError as exc:
            refused(exc)
            return
        for line in lines:
            say(line)

    def run_command(self, argv: list[str]) -> bool:
        """A `blood` command typed at the prompt (odds, rules); the options fixed for the whole
        process (the save directory, the data pack) cannot change here."""
        fixed = [w for w in argv if w.partition("=")[0] in GLOBAL_OPTIONS]
        if fixed:
            say(f"{fixed[0].partition('=')[0]} cannot change inside `blood play`; quit "
                "and start `blood play` again with it.", "red")
            return True
        if argv[:1] == ["rules"] and not {"--help", "-h"} & set(argv):
            rules_cmd.main(argv[1:], current())  # as cli/entry.py answers it
        else:
            run_typer(PROMPT, argv, current())
        return True

    def undo_redo(self, what: str, k: int) -> None:
        try:
            with self.open() as store:
                text = undo_redo(store, what, k)
        except BloodError as exc:
            refused(exc)
            return
        say(text, "yellow")
        self.walk, self.pending = None, []

    def test_odds(self) -> None:
        walk = self.walk
        screen = walk.screen() if walk is not None else None
        test = screen.test if screen is not None else None
        if test:
            bonus = f" +{test['bonus_triumphs']} bonus" if test.get("bonus_triumphs") else ""
            again = f", {test['rerolls']} Re-roll(s)" if test.get("rerolls") else ""
            name = str(test["trait"]).capitalize() if str(test["trait"]).isalpha() else ""
            stdout.print(
                f"  {name + ': ' if name else ''}roll {test['pool']}{bonus}{again} -> "
                f"{percent(test['probability'], 1)} to reach {test['target']} "
                f"(exact {test['exact']})"
            )
            for note in test.get("notes", []):
                say(f"  {note}", "dim")
            return
        if screen is not None and screen.need == "trait":
            for c in screen.choices:
                stdout.print(f"  {c.label}")
            return
        if walk is not None and walk.state.night is not None and walk.state.night.pending:
            opts = whose_turn(walk.state, walk.catalog).get("test_options") or []
            for o in opts:
                stdout.print(f"  {str(o['trait']).capitalize()}: roll {o['pool']} -> "
                             f"{percent(o['probability'], 1)} to reach {o['target']}")
            if opts:
                return
        stdout.print("No Test is being asked here (choose an attack or a Test first; its "
                     "questions show the odds). `odds 2R B --target 3` for any pool.")

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        first = True
        while True:
            with self.open() as store:  # open while the question is built, not while asked
                if first:
                    self.show_status(store)
                    first = False
                state, cat, digest, head = (
                    store.state, store.catalog, store.state_hash, store.head)
                self.at_head = head
                data_fp = cat.fingerprint()
                data_changed = bool(self.data_fp) and data_fp != self.data_fp
                if self.walk is None or digest != self.digest or data_changed:
                    if self.walk is not None and digest != self.digest:
                        say(CHANGED, "yellow")
                    elif data_changed:
                        # a card transcribed (or any data edit) while the question waited
                        say(DATA_CHANGED, "yellow")
                    self.walk = Walk.start(state, cat, head)
                    self.digest, self.data_fp = digest, data_fp
                screen = self.walk.screen()
                if screen.end:
                    say(screen.question, "bold")
                    return
                turn = (state.game, state.night.turn) if state.night is not None else None
                if (state.night is not None and state.night.phase == "planning"
                        and turn != self.last_turn and screen.need is None):
                    self.last_turn = turn
                    self.show_status(store)
            self.show(screen)
            line = self.ask(self.prompt_text(screen))
            if line is None:
                saved()
                return
            try:
                handled = self.command(line)
            except BloodError as exc:  # a command typed at the prompt was refused: ask again
                refused(exc)
                self.not_used()
                continue
            if handled is None:
                saved()
                return
            if handled:
                self.unusable = 0
                if self.walk is not None and self.walk.asked is None:
                    self.walk = None  # the top menu is rebuilt (the state may have changed)
                continue
            result = self.walk.answer(line)
            if isinstance(result, Confirm):
                say("Careful: " + result.message, "yellow")
                sure = self.ask("Take it anyway? [y/N] > ")
                if sure is None:
                    saved()
                    return
                if sure.strip().lower() not in ("y", "yes"):
                    continue
                result = self.walk.answer(line, confirmed=True)
            if isinstance(result, Again):
                say(result.message, "red")
                self.not_used()
                continue
            self.unusable = 0
            if isinstance(result, Walk):
                self.walk = result
                continue
            if isinstance(result, Done) and self.record(result.action, digest):
                self.walk = None
                if self.max_steps and self.recorded >= self.max_steps:
                    saved()
                    return

    def already_answered(self, store: Any) -> None:
        """Say that the question was answered meanwhile, and by whom."""
        by = seats.recorded_by(store.saves_dir, store.name, store.drawn_from())
        if by == seats.COMMAND:  # a seat notes its step just after its transaction: look again
            time.sleep(0.05)
            by = seats.recorded_by(store.saves_dir, store.name, store.drawn_from())
        say(ANSWERED.format(by=by), "yellow")
        self.walk, self.pending = None, []

    def record(self, action: Any, digest: str) -> bool:
        """Record the action; False (the same question again, or the card drawn asked first)
        when not recorded."""
        try:
            self.commit(action, digest)
        except DataChanged:
            say(DATA_CHANGED, "yellow")
            self.walk, self.data_fp = None, ""  # said once; the walk is rebuilt
            return False
        except DrawNeeded as need:
            self.walk = self.drawing(action, need)
            return False
        except HeadMoved:
            with contextlib.suppress(BloodError), self.open() as store:
                self.already_answered(store)
            self.walk = None
            return False
        except (RuleError, BloodError) as exc:
            refused(exc)
            if self.walk is not None and self.walk.asked is not None:
                say("The same question again (`back` drops this choice):", "dim")
            return False
        return True

    def drawing(self, action: Any, need: DrawNeeded) -> Walk:
        """The question "which card came up?" for ``need``, where the walk is."""
        if self.walk is not None:
            return cast("Walk", self.walk.drawing_for(action, need))
        with self.open() as store:
            return Walk.start(store.state, store.catalog, store.head).drawing_for(action, need)

    def commit(self, action: Any, digest: str, by: str = seats.LAPTOP) -> None:
        """Record the action at the step the question was asked (``digest``, ``at_head``:
        checked inside the write transaction: of a phone's answer and this one, one only is
        recorded), noting ``by``, and tell the table what it did. Raises HeadMoved,
        DataChanged, DrawNeeded, RuleError, BloodError (nothing recorded)."""
        with self.open() as store:
            if store.state_hash != digest:
                raise HeadMoved(self.at_head, store.head, store.state_hash)
            if self.data_fp and store.catalog.fingerprint() != self.data_fp:
                raise DataChanged(DATA_CHANGED)
            before = store.state
            log_at = len(before.night.log) if before.night is not None else 0
            after = session.record(action, store, expect=(self.at_head, digest), by=by)
            cat = store.catalog
            summary = session.game_summary(store) if action.type == "finish_game" else None
        self.recorded += 1
        self.pending = []  # the lines that led to this step are spent
        say("✓ " + sentence(action, cat, before), "green")
        for line in drawn_lines(before, after, cat):
            say("  " + line)
        if after.night is not None and after.part == "night":
            start = 0 if before.night is None else log_at
            # told already, before the question naming the card the step drew (play_menu.py)
            asked = self.walk.draw if self.walk is not None else None
            start += len(done_so_far(asked, before)) if asked is not None else 0
            for entry in why.told(after.night.log[start:]):
                for text, style in entry_lines(entry, after, cat):
                    say("  " + text, style)
            # what the step changed on the board is told once, "At the table" below
        elif after.part == "day" and after.wagon != before.wagon and after.day is not None:
            stdout.print("  Wagon: " + counted_all(after.wagon.as_dict(), zeros=True))
        session.tell(before, after, cat, indent="  ")
        if summary is not None:
            show_summary(after, cat, summary)


def undo_redo(store: Any, what: str, k: int, expect: tuple[int, str] | None = None) -> str:
    """Take back (``undo``) or bring back (``redo``) ``k`` steps; what they were, in words."""
    before = store.head
    if what == "undo":
        entries = {e.step: e.sentence for e in store.log()}
        store.undo(k, expect=expect)
        steps, text = range(before, store.head, -1), "Took back: "
    else:
        store.redo(k, expect=expect)
        entries = {e.step: e.sentence for e in store.log()}
        steps, text = range(before + 1, store.head + 1), "Brought back: "
    refresh(store)
    return text + "; ".join(entries.get(s, f"step {s}") for s in steps)


class DataChanged(BloodError):
    """The data pack changed since the question was built (a card transcribed meanwhile)."""


class Scripted(Loop):
    """The loop answered by the lines given with `--answer`, then ended as by end of input."""

    def __init__(self, name: str, answers: list[str], max_steps: int = 0) -> None:
        super().__init__(name, max_steps)
        self.lines = list(answers)
        self.confirm: str | None = None  # "Take it anyway?" asked when the answers ran out

    def ask(self, prompt: str) -> str | None:
        if not self.lines:
            self.confirm = prompt.strip() if prompt.startswith("Take it anyway") else None
            return None
        line = self.lines.pop(0)
        say(prompt + line, "bold")
        self.pending.append(line)
        return line
