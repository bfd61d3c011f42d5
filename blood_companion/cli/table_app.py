"""The full-screen table view of `blood table` (issue 28), built with Textual.

Imported only by `blood table`, so no other command loads Textual. The panels read the board
document (``view_docs.status_doc``, as `blood status --json` prints it); the question comes
from `blood play`'s own ``Loop``, run in a worker thread whose ``ask`` waits for the Input and
whose ``show`` fills the question panel, so every answer is recorded as `blood play` records
it. A watcher reads the save's head every ``POLL`` seconds: a step recorded elsewhere redraws
the board and asks the question again.
"""

from __future__ import annotations

import contextlib
import io
import queue
import re
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Static

from blood_companion.cli.play_cmd import Loop, shown_choices
from blood_companion.cli.status_view import SIDES, plain, render, track, without_commands

if TYPE_CHECKING:
    from blood_companion.engine.board_view import Board, NightBoard

POLL = 0.25  # seconds between two looks at the save's head
WIDE = (100, 30)  # from this size up the panels sit side by side
SMALLEST = (60, 16)  # below this the view says the terminal is too small
LOG_LINES = 6
REFRESH = object()  # put in the answer queue: the save changed, ask again


# --------------------------------------------------------------------------- the panels


def _yes(on: bool, word: str) -> str:
    return word if on else ""


def threat_text(n: NightBoard) -> str:
    th = n["threat"]
    head = f"Night · Turn {n['turn']} · {n['phase_name']}"
    if n["result"]:
        head += f" · night {n['result'].upper()}: {n['reason']}"
    dots = track(th["value"], th["length"], th["alerts"], sep="")
    return (f"{head}\nThreat {th['value']}/{th['length']} {dots}\n"
            f"Alerts (!) {','.join(str(a) for a in th['alerts'])} ● token")


def chain_text(n: NightBoard) -> str:
    out = [f"Chain {len(n['chain'])}/{n['chain_spaces']}"]
    for s in n["chain"]:
        marks = ["down" if s["face_down"] else "up", s["owner"] or "event",
                 _yes(s["active"], "ACTIVE"), _yes(s["resolved"], "Resolved"),
                 _yes(s["sacrificed"], "Sacrifice"),
                 f"thr {s['threat']}" if s["kind"] != "event" else ""]
        out.append(f" {s['space']:>2} {' '.join(m for m in marks if m)} · {s['name']}")
    return "\n".join(out if n["chain"] else [*out, "  (empty)"])


def reaction_text(n: NightBoard) -> str:
    f = n["nemesis"]["fatigue"]
    out = [f"Reaction Line {len(n['reaction_line'])}/{n['reaction_spaces']} · "
           f"Fatigue P{f['physical']} M{f['mind']}"]
    for r in n["reaction_line"]:
        marks = [f"P{r['fatigue']['physical']}M{r['fatigue']['mind']}",
                 _yes(r["interruption"], "Interruption"), _yes(r["check"], "CHECK"),
                 _yes(r["resolved"], "Resolved")]
        out.append(f" {r['space']:>2} {' '.join(m for m in marks if m)} {r['name']}: "
                   + " ".join(r["text"]))
    return "\n".join(out if n["reaction_line"] else [*out, "  (empty)"])


def nemesis_text(n: NightBoard) -> str:
    nem = n["nemesis"]
    d, now = nem["defenses"], nem["defense_after_fatigue"]
    out = [f"Nemesis {nem['name']} · level {nem['difficulty']} ({nem['level']})",
           f"Defense P{d['physical']}→{now['physical']} M{d['mind']}→{now['mind']}"
           f" · deck {nem['deck']}, discard {nem['discard']}"]
    sides = {w["side"]: w for w in nem["weaknesses"]}
    for s in SIDES:
        w = sides.get(s)
        won = "✓" if nem["wounds"][s] >= nem["wounds_needed"][s] else ""
        wd = f" P{w['defense']['physical']} M{w['defense']['mind']} {w['name']}" if w else ""
        out.append(f" {s.capitalize():<5} Wounds {nem['wounds'][s]}/"
                   f"{nem['wounds_needed'][s]}{won}{wd}")
    out.append(f"Minions ({len(n['minion_spaces'] or n['minions'])} spaces)")
    for mn in n["minions"]:
        alive = f"{mn['alive']} left" if mn["alive"] else "defeated"
        md = mn["defenses"]
        out.append(f" {mn['space']:>2} {alive} P{md['physical']} M{md['mind']} {mn['name']}"
                   f" ({mn['type']})")
    return "\n".join(out)


def troupers_text(n: NightBoard) -> str:
    out = []
    for t in n["troupers"]:
        flags = [_yes(t["knocked_out"], "KNOCKED OUT"), _yes(t["exhausted"], "EXHAUSTED"),
                 _yes(t["rested"], "rested"), _yes(t["leader"], "Leader")]
        out.append(f"{t['seat']}. {' '.join(f for f in flags if f)} {t['name']}".replace(
            ".  ", ". "))
        v = t["vigor_tokens_by_side"]
        ins = track(t["insanity"], t["insanity_max"], sep="")
        out.append(f"  Vigor {t['vigor']}/{t['vigor_tokens']} Bites {t['bites']} "
                   f"(up {v['available']}+{v['available_bitten']} bitten, "
                   f"down {v['depleted']}+{v['depleted_bitten']} bitten)")
        out.append(f"  Wounds {t['wounds']}/{t['knock_out_at']} hand {t['hand']}"
                   f" Insanity {ins}")
        out.append("  Items: " + ", ".join(
            i["side_name"] + (" (advanced)" if i["side"] == "advanced" else "")
            + (" (depleted)" if i["depleted"] else "")
            for i in t["items"]))
    return "\n".join(out)


def log_text(doc: Board, last: int = LOG_LINES) -> str:
    rows = [f"{e['step']:>4} {e['sentence']}" + ("" if e["status"] == "done" else
                                                 f" ({e['status']})")
            for e in doc["log"][-last:]]
    return "\n".join(["Log", *rows])


def panels(doc: Board, width: int) -> dict[str, str]:
    """Each panel's text, from the typed board. Outside the night one panel holds the status
    view (the Day Part: the Wagon, the purchases, the step)."""
    n = doc["night"]
    head = f"{doc['name']} · game {doc['game']} · step {doc['step']}\n"
    if not n:
        day = plain(without_commands(render(doc, width)))
        return {"threat": head, "chain": day.split("\n", 1)[-1],
                "reaction": "", "nemesis": "", "troupers": "", "log": log_text(doc)}
    return {"threat": head + threat_text(n), "chain": chain_text(n),
            "reaction": reaction_text(n), "nemesis": nemesis_text(n),
            "troupers": troupers_text(n), "log": log_text(doc)}


def question_text(screen: Any, every: bool = False) -> str:
    """The question of the walker's screen, as `blood play` shows it (cli/play_cmd.Loop.show)."""
    rows, hidden = shown_choices(screen, every)
    out = [screen.title, *("  " + line for line in screen.info), screen.question,
           *(label + mark for _, label, mark in rows)]
    if hidden:
        out.append(f"       ({hidden} more not possible now: `list` shows them)")
    if screen.free_hint:
        out.append(f"       (or type {screen.free_hint})")
    return "\n".join(out)


# --------------------------------------------------------------------------- the loop


class TableLoop(Loop):
    """`blood play`'s loop with the view's input and panels in place of the terminal's."""

    def __init__(self, app: TableApp, name: str) -> None:
        super().__init__(name=name)
        self.app, self.echo = app, False

    def ask(self, prompt: str) -> str | None:
        from blood_companion.cli.entry import argument_problem

        self.app.call_from_thread(self.app.prompt_for, prompt)
        while True:
            line = self.app.answers.get()
            if line is REFRESH:
                return "status"  # a prompt command: the loop reopens the save and asks again
            if line is None or not isinstance(line, str):
                return None
            why = argument_problem(line)
            if why is None:
                return line
            self.app.call_from_thread(self.app.say, f"That line {why}; type it again.")

    def show(self, screen: Any, every: bool = False) -> None:
        self.app.call_from_thread(self.app.show_question, question_text(screen, every))

    def show_status(self, store: Any = None) -> None:
        self.app.call_from_thread(self.app.reload)


class _Feed(io.StringIO):
    """A file for the shared console: what the loop prints is kept for the messages panel,
    shown with the next question (one redraw, not one per line)."""

    def take(self) -> str:
        text = self.getvalue()
        self.seek(0)
        self.truncate()
        return re.sub(r"\x1b\[[0-9;]*m", "", text).strip()


CSS = """
.panel { padding: 0 1; height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
#main { height: auto; max-height: 100%; }
#board { height: auto; }
#left, #mid, #troupers { width: 1fr; height: auto; }
#bottom { height: 1fr; }
#log { width: 2fr; }
#question-box { width: 3fr; }
#messages { color: $warning; text-wrap: wrap; }
#question { color: $success; text-wrap: wrap; }
#answer { border: none; height: 1; padding: 0 1; }
#small { display: none; }
.stacked #board, .stacked #bottom { layout: vertical; }
.stacked #main { height: 1fr; }
.stacked #left, .stacked #mid, .stacked #troupers, .stacked #question-box { width: 1fr; }
.stacked #bottom { height: auto; max-height: 10; }
.stacked #log { display: none; }
.tiny #main, .tiny #bottom, .tiny #answer { display: none; }
.tiny #small { display: block; }
"""


class TableApp(App[None]):
    """The table view: the board's panels, the log, and the question with its Input."""

    CSS = CSS
    TITLE = "blood table"

    def __init__(self, name: str) -> None:
        super().__init__()
        self.campaign = name
        self.answers: queue.Queue[Any] = queue.Queue()
        self.loop = TableLoop(self, name)
        self.doc: dict[str, Any] = {}
        self.texts: dict[str, str] = {}  # each panel's text now (the tests read it)
        self.head: Any = None
        self.waiting = False  # the loop waits for an answer
        self.feed = _Feed()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="main"), Horizontal(id="board"):
            with Vertical(id="left"):
                yield Static(id="threat", classes="panel")
                yield Static(id="chain", classes="panel")
            with Vertical(id="mid"):
                yield Static(id="reaction", classes="panel")
                yield Static(id="nemesis", classes="panel")
            yield Static(id="troupers", classes="panel")
        with Horizontal(id="bottom"):
            yield Static(id="log", classes="panel")
            with VerticalScroll(id="question-box"):
                yield Static(id="question", classes="panel")
                yield Static(id="messages", classes="panel")  # below: `help` may be long
        yield Input(id="answer", placeholder="your answer (Enter: the default)")
        yield Static(id="small")

    def on_mount(self) -> None:
        self.layout_for(self.size.width, self.size.height)
        self.reload()
        self.set_interval(POLL, self.watch_head)
        self.run_worker(self.play, thread=True, exit_on_error=True)

    def play(self) -> None:
        from blood_companion.cli.common import stdout

        old = stdout._file  # None (the sys.stdout of the moment) unless a file was set
        stdout.file = self.feed
        try:
            self.loop.run()
        finally:
            stdout._file = old
        with contextlib.suppress(RuntimeError):  # the app may be closing already
            self.call_from_thread(self.exit)

    # ------------------------------------------------------------------ the layout
    def on_resize(self, event: Any) -> None:
        self.layout_for(event.size.width, event.size.height)

    def layout_for(self, width: int, height: int) -> None:
        self.screen.set_class(width < WIDE[0] or height < WIDE[1], "stacked")
        tiny = width < SMALLEST[0] or height < SMALLEST[1]
        self.screen.set_class(tiny, "tiny")
        self.query_one("#small", Static).update(
            f"The terminal is too small ({width}×{height}): `blood table` needs at least "
            f"{SMALLEST[0]}×{SMALLEST[1]} (side by side from {WIDE[0]}×{WIDE[1]}). Make it "
            "larger, or use `blood play`.")

    # ------------------------------------------------------------------ the board
    def show(self, panel: str, text: str) -> None:
        if self.texts.get(panel) == text:
            return  # unchanged: no new layout
        self.texts[panel] = text
        self.query_one("#" + panel, Static).update(Text(text))
        self.query_one("#" + panel).display = bool(text)  # an empty panel takes no room

    def reload(self) -> None:
        """Read the board document anew and redraw the panels."""
        from blood_companion.cli import session
        from blood_companion.cli.view_docs import status_doc

        with session.open_session(self.campaign) as store:
            self.doc = status_doc(store)
        self.head = self.head_now()
        for panel, text in panels(cast("Board", self.doc), max(40, self.size.width - 4)).items():
            self.show(panel, text)
        self.query_one("#mid").display = bool(self.doc.get("night"))  # by day: full width

    def head_now(self) -> Any:
        from blood_companion.cli.session import saves_dir
        from blood_companion.cli.views import save_path
        from blood_companion.store.peek import head_key

        return head_key(save_path(saves_dir(), self.campaign))

    def watch_head(self) -> None:
        """The save changed (this view's step, or another `blood` command's): redraw, and
        ask the question again if it came from elsewhere."""
        key = self.head_now()
        if key is None or key == self.head:
            return
        self.reload()
        if self.waiting and self.doc.get("state_hash") != self.loop.digest:
            self.answers.put(REFRESH)

    # ------------------------------------------------------------------ the question
    def prompt_for(self, prompt: str) -> None:
        self.watch_head()  # the board of the step just recorded, before the question waits
        self.waiting = True
        self.say(self.feed.take())
        self.query_one("#answer", Input).placeholder = prompt.strip() + " (Enter: the default)"
        self.query_one("#answer", Input).focus()

    def show_question(self, text: str) -> None:
        self.show("question", text)
        self.show("messages", "")
        self.say(self.feed.take())

    def say(self, text: str) -> None:
        old = self.texts.get("messages", "")
        self.show("messages", "\n".join([*old.splitlines(), *text.splitlines()][-60:]))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.waiting = False
        self.answers.put(event.value)
        event.input.value = ""

    def on_unmount(self) -> None:
        self.answers.put(None)  # the loop ends (everything is saved already)

