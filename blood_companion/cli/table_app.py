"""The full-screen table view of `blood table` (issue 28), built with Textual.

The panels read the status document; the question comes from `blood play`'s own ``Loop``, run
in a worker thread whose ``ask`` waits for the Input and whose ``show`` fills the question
panel, so every answer is recorded as `blood play` records it. A watcher reads the save's head
every ``POLL`` seconds: a step recorded elsewhere redraws the board and asks again.

The question panel comes first (on the left, or on top in a small terminal) and scrolls on its
own (PageUp/PageDown): what the last step told the table, the question with every option
(labels wrap, never cut), then what a prompt command answered. The board's panels scroll
beside or below it and give up their room first (issue 39).
"""

from __future__ import annotations

import contextlib
import io
import queue
import re
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Static

from blood_companion.cli import session
from blood_companion.cli.common import stdout
from blood_companion.cli.play_cmd import Loop, shown_choices
from blood_companion.cli.render import SIDES, plain, render, track, why_view, without_commands
from blood_companion.cli.session import saves_dir
from blood_companion.cli.settings import Settings, argument_problem, current, using
from blood_companion.cli.view_docs import status_doc, why_doc
from blood_companion.engine.board_view import Board, NightBoard
from blood_companion.store.peek import head_key
from blood_companion.store.saves import save_path

POLL = 0.25  # seconds between two looks at the save's head
WIDE = (100, 30)  # from this size up the question and the board sit side by side
ROOMY = 150  # from this width up the board has two columns
SMALLEST = (60, 16)  # below this the view says the terminal is too small
LOG_LINES = 6
REFRESH = object()  # put in the answer queue: the save changed, ask again
UNFOLDED = 1000  # the shared console's width while the loop prints into the panel
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
    """Each panel's text; outside the night one panel holds the status view."""
    n = doc["night"]
    head = f"{doc['name']} · game {doc['game']} · step {doc['step']}\n"
    if not n:
        day = plain(without_commands(render(doc, width)), width)
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


def hanging(text: str, style: str = "") -> RenderableType:
    """Lines of text whose wrapped continuation starts under the first word (after the indent
    and bullet), not at the panel's edge."""
    parts: list[RenderableType] = []
    for line in text.splitlines():
        m = re.match(r"(\s*(?:[•✓] |\w{1,3}\. |\d+ )?)(.*)", line)
        head, rest = (m.group(1), m.group(2)) if m else ("", line)
        if not head:
            parts.append(Text(line, style=style))
            continue
        row = Table.grid()
        row.add_column(no_wrap=True)
        row.add_column(ratio=1, overflow="fold")
        row.add_row(Text(head, style=style), Text(rest, style=style))
        parts.append(row)
    return Group(*parts)


def question_view(screen: Any, every: bool = False) -> RenderableType:
    """The same question drawn for the panel: each label wraps under itself, never cut."""
    rows, hidden = shown_choices(screen, every)
    options = Table.grid(padding=(0, 1))
    options.add_column(justify="right", no_wrap=True)
    options.add_column(ratio=1, overflow="fold")
    for c, _, mark in rows:
        label = c.label + ("" if c.enabled else f" [{c.why or 'not now'}]") + mark
        options.add_row(f"  {c.key:>3}.", Text(label, style="" if c.enabled else "dim"))
    parts: list[RenderableType] = [Text(screen.title, style="bold")]
    parts += [hanging("  " + line, "dim") for line in screen.info]
    parts += [Text(screen.question, style="bold"), options]
    if hidden:
        parts.append(Text(f"       ({hidden} more not possible now: `list` shows them)",
                          style="dim"))
    if screen.free_hint:
        parts.append(Text(f"       (or type {screen.free_hint})", style="dim"))
    return Group(*parts)


# --------------------------------------------------------------------------- the loop


class TableLoop(Loop):
    """`blood play`'s loop with the view's input and panels in place of the terminal's."""

    def __init__(self, app: TableApp, name: str) -> None:
        super().__init__(name=name)
        self.app, self.echo = app, False

    def ask(self, prompt: str) -> str | None:

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
        if every:  # `list`: every choice, below the question (which is shown again next)
            self.app.feed.write(question_text(screen, every) + "\n")
            return
        self.app.call_from_thread(self.app.show_question, question_text(screen, every),
                                  question_view(screen, every), self.app.feed.take())

    def record(self, action: Any, digest: str) -> bool:
        """Record as `blood play` does; what the step told the table heads the question panel
        until the next step."""
        done = super().record(action, digest)
        if done:
            self.app.call_from_thread(self.app.tell, self.app.feed.take())
        return done

    def show_status(self, store: Any = None) -> None:
        """Redraw the panels; the `status` command (no ``store``) also prints the whole board
        below the question (the board's panels may be scrolled away)."""
        self.app.call_from_thread(self.app.reload)
        if store is None:
            with self.open() as opened:
                doc = status_doc(opened)
            width = max(40, self.app.question_width())
            self.app.feed.write(plain(without_commands(render(cast("Board", doc), width)), width))

    def show_why(self) -> None:
        """`why`, as `blood play` prints it, below the question."""
        with self.open() as store:
            doc = why_doc(store)
        width = max(40, self.app.question_width())
        self.app.feed.write(plain(why_view(doc, width), width))


class _Feed(io.StringIO):
    """What the loop prints, kept for the messages panel until the next question (one redraw,
    not one per line)."""

    def take(self) -> str:
        text = self.getvalue()
        self.seek(0)
        self.truncate()
        return re.sub(r"\x1b\[[0-9;]*m", "", text).strip()


CSS = """
.panel { padding: 0 1; height: auto; text-wrap: wrap; }
#top { height: 1fr; layout: horizontal; }
#question-box { width: 1fr; height: 100%; }
#board { width: 1fr; height: 100%; }
#columns { height: auto; layout: vertical; }
#left, #right { width: 1fr; height: auto; }
#told { color: $text; }
#question { color: $success; }
#messages { color: $warning; }
#answer { border: none; height: 1; padding: 0 1; }
#small { display: none; }
.roomy #question-box { width: 2fr; }
.roomy #board { width: 3fr; }
.roomy #columns { layout: horizontal; }
.stacked #top { layout: vertical; }
.stacked #question-box { width: 100%; height: auto; max-height: 75%; }
.stacked #board { width: 100%; height: 1fr; min-height: 3; }
.tiny #top, .tiny #answer { display: none; }
.tiny #small { display: block; }
"""


class TableApp(App[None]):
    """The table view: the board's panels, the log, and the question with its Input."""

    CSS = CSS
    TITLE = "blood table"
    BINDINGS = [  # the Input has the focus: these keys scroll the panels meanwhile
        Binding("pageup", "scroll_panel('question-box', -1)", "question up", show=False,
                priority=True),
        Binding("pagedown", "scroll_panel('question-box', 1)", "question down", show=False,
                priority=True),
        Binding("ctrl+pageup", "scroll_panel('board', -1)", "board up", show=False,
                priority=True),
        Binding("ctrl+pagedown", "scroll_panel('board', 1)", "board down", show=False,
                priority=True),
    ]

    def __init__(self, name: str, settings: Settings | None = None) -> None:
        super().__init__()
        self.campaign = name
        # the global options of the command (--saves-dir, --data-dir): the loop's thread and
        # the watcher read the campaign with them, not with the environment's
        self.settings = settings if settings is not None else current()
        self.answers: queue.Queue[Any] = queue.Queue()
        self.loop = TableLoop(self, name)
        self.doc: dict[str, Any] = {}
        self.texts: dict[str, str] = {}  # each panel's text now (the tests read it)
        self.head: Any = None
        self.waiting = False  # the loop waits for an answer
        self.feed = _Feed()

    def compose(self) -> ComposeResult:
        with Container(id="top"):
            with VerticalScroll(id="question-box"):
                yield Static(id="told", classes="panel")  # the last step: "At the table"
                yield Static(id="question", classes="panel")
                yield Static(id="messages", classes="panel")  # below: `help` may be long
            with VerticalScroll(id="board"), Horizontal(id="columns"):
                with Vertical(id="left"):
                    yield Static(id="threat", classes="panel")
                    yield Static(id="chain", classes="panel")
                    yield Static(id="reaction", classes="panel")
                    yield Static(id="nemesis", classes="panel")
                with Vertical(id="right"):
                    yield Static(id="troupers", classes="panel")
                    yield Static(id="log", classes="panel")
        yield Input(id="answer", placeholder="your answer (Enter: the default)")
        yield Static(id="small")

    def on_mount(self) -> None:
        self.layout_for(self.size.width, self.size.height)
        for panel in ("told", "messages"):
            self.show(panel, "")
        self.reload()
        self.set_interval(POLL, self.watch_head)
        self.run_worker(self.play, thread=True, exit_on_error=True)

    def play(self) -> None:
        old, old_width = stdout._file, stdout._width  # None, None unless set
        stdout.file = self.feed
        stdout.width = UNFOLDED  # the panel folds what it prints, each line under its indent
        try:
            with using(self.settings):  # a thread of its own: the command's options again
                self.loop.run()
        finally:
            stdout._file, stdout._width = old, old_width
        with contextlib.suppress(RuntimeError):  # the app may be closing already
            self.call_from_thread(self.exit)

    # ------------------------------------------------------------------ the layout
    def on_resize(self, event: Any) -> None:
        self.layout_for(event.size.width, event.size.height)

    def layout_for(self, width: int, height: int) -> None:
        stacked = width < WIDE[0] or height < WIDE[1]
        self.screen.set_class(stacked, "stacked")
        self.screen.set_class(not stacked and width >= ROOMY, "roomy")
        tiny = width < SMALLEST[0] or height < SMALLEST[1]
        self.screen.set_class(tiny, "tiny")
        self.query_one("#small", Static).update(
            f"The terminal is too small ({width}×{height}): `blood table` needs at least "
            f"{SMALLEST[0]}×{SMALLEST[1]} (side by side from {WIDE[0]}×{WIDE[1]}). Make it "
            "larger, or use `blood play`.")

    def question_width(self) -> int:
        """The columns of text the question panel holds (its width less padding and bar)."""
        width = self.size.width
        if "stacked" not in self.screen.classes:
            width = width * 2 // 5 if "roomy" in self.screen.classes else width // 2
        return width - 4

    def board_width(self) -> int:
        """The columns of text one board panel holds."""
        width = self.size.width
        if "roomy" in self.screen.classes:
            return width * 3 // 10 - 4
        return (width if "stacked" in self.screen.classes else width // 2) - 4

    def action_scroll_panel(self, panel: str, direction: int) -> None:
        box = self.query_one("#" + panel, VerticalScroll)
        if direction < 0:
            box.scroll_page_up(animate=False)
        else:
            box.scroll_page_down(animate=False)

    # ------------------------------------------------------------------ the board
    def show(self, panel: str, text: str) -> None:
        if self.texts.get(panel) == text:
            return  # unchanged: no new layout
        self.texts[panel] = text
        self.query_one("#" + panel, Static).update(hanging(text))
        self.query_one("#" + panel).display = bool(text)  # an empty panel takes no room

    def reload(self) -> None:
        """Read the board document anew and redraw the panels."""
        with using(self.settings), session.open_session(self.campaign) as store:
            self.doc = status_doc(store)
        self.head = self.head_now()
        for panel, text in panels(cast("Board", self.doc), max(40, self.board_width())).items():
            self.show(panel, text)

    def head_now(self) -> Any:
        with using(self.settings):
            return head_key(save_path(saves_dir(), self.campaign))

    def watch_head(self) -> None:
        """The save changed: redraw, and ask again if the step came from elsewhere."""
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

    def show_question(self, text: str, view: RenderableType | None = None, said: str = ""
                      ) -> None:
        """The question (``text`` as `blood play` prints it; ``view`` drawn for the panel) and
        below it what was said since the last question."""
        new = self.texts.get("question") != text
        if new:
            self.texts["question"] = text
            self.query_one("#question", Static).update(view if view is not None else Text(text))
        self.show("messages", "")
        self.say(said)
        box = self.query_one("#question-box", VerticalScroll)
        if said:  # the answer to what was just typed: brought into view
            self.call_after_refresh(box.scroll_to_widget, self.query_one("#messages"),
                                    animate=False, top=True)
        elif new:
            self.call_after_refresh(box.scroll_home, animate=False)

    def tell(self, text: str) -> None:
        """What the step just recorded told the table, above the next question."""
        self.show("told", text)
        self.query_one("#question-box", VerticalScroll).scroll_home(animate=False)

    def say(self, text: str) -> None:
        old = self.texts.get("messages", "")
        self.show("messages", "\n".join([*old.splitlines(), *text.splitlines()][-200:]))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.waiting = False
        self.answers.put(event.value)
        event.input.value = ""

    def on_unmount(self) -> None:
        self.answers.put(None)  # the loop ends (everything is saved already)

