"""The served board of `blood board --serve` (issues 28, 39, 42): the table, its seats and
their documents, behind the HTTP app of cli/board_app.py; the contract is docs/board-api.md.

An answer is applied by `blood play`'s own walker and recorder (cli/play_cmd.py
``Loop.commit``) in one write transaction that checks the step it was made at. One writer:
every use of the save runs on one worker thread; another process (`blood play` on the laptop)
is kept out by the save's write transaction, where the head is checked (store/writer.py
``record(expect=)``). Safe by default: 127.0.0.1 unless ``lan``; seat tokens compared in
constant time (store/seats.py); size and per-seat rate caps; nothing a request carries
reaches a file path; no access log (the URLs carry tokens); a page never holds another seat's
token or hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import os
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from blood_companion.cli import session, views
from blood_companion.cli.common import stdout, typed_number
from blood_companion.cli.play_cmd import DataChanged, Loop, undo_redo
from blood_companion.cli.play_menu import Again, Confirm, Done, Walk
from blood_companion.cli.settings import using
from blood_companion.cli.view_docs import status_doc
from blood_companion.content.face import trouper_name
from blood_companion.engine.errors import RuleError
from blood_companion.engine.table import DrawNeeded
from blood_companion.engine.words import record_name
from blood_companion.errors import BloodError
from blood_companion.store import CampaignStore, seats
from blood_companion.store.errors import HeadMoved
from blood_companion.store.peek import head_key
from blood_companion.store.saves import save_path

POLL = 0.1  # seconds between two looks at the save's head (steps recorded elsewhere)
RETRY_MS = 1000  # how soon a page reconnects after the stream broke
MAX_BODY = 16 * 1024  # bytes of a request body
MAX_TARGET = 2048  # bytes of a request's path and query
MAX_LINES = 64  # lines in one answer
MAX_TAPS = 4096  # tap ids remembered (the newest)
MAX_STREAMS = 64  # event streams open at once
PAGE = "board_page.html"
WATCH = ""  # the watch seat's id (a Trouper seat's id is its Trouper's id)
# prompt commands of `blood play` a seat does not send (undo and redo are the Leader's)
PROMPT_ONLY = frozenset({"status", "list", "back", "why", "help", "?", "quit", "exit", "q",
                         "odds", "rules", "show", "cards", "decks"})

Doc = dict[str, Any]
T = TypeVar("T")


def _setting(name: str, default: float, low: float, high: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return min(max(value, low), high)


def heartbeat() -> float:
    """Seconds between two comment lines on an idle event stream (``BLOOD_BOARD_HEARTBEAT``,
    default 15: under the idle timeouts of proxies and phones)."""
    return _setting("BLOOD_BOARD_HEARTBEAT", 15.0, 0.05, 60.0)


def rate() -> float:
    """Requests per second a seat may make, sustained (``BLOOD_BOARD_RATE``, default 50; twice
    as many at once)."""
    return _setting("BLOOD_BOARD_RATE", 50.0, 1.0, 10000.0)


class PortInUse(OSError):
    """The port cannot be listened on (in use, or not allowed)."""


def page_template() -> str:
    """The page as shipped in the package (``cli/board_page.html``)."""
    return resources.files("blood_companion.cli").joinpath(PAGE).read_text(encoding="utf-8")


def inline_json(doc: Any) -> str:
    """A document as JSON safe inside a ``<script type="application/json">`` element: no
    ``<``, ``>`` or ``&`` is left that could end the element or open a comment."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def lan_address() -> str:
    """This machine's address on the local network (the route out; nothing is sent), or
    127.0.0.1 when there is none."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.254.254.254", 9))
        address = s.getsockname()[0]
        if isinstance(address, str) and address:
            return address
    return "127.0.0.1"


def listen(port: int, lan: bool) -> socket.socket:
    """The listening socket (127.0.0.1, or every address with ``lan``). Raises PortInUse."""
    host = "0.0.0.0" if lan else "127.0.0.1"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise PortInUse(exc.errno, exc.strerror) from None
    sock.set_inheritable(True)
    return sock


# --------------------------------------------------------------------------- seats


class Seat(NamedTuple):
    """Who a request comes from: a Trouper's seat (``id`` its Trouper id) or the watch seat."""

    id: str  # WATCH for the watch seat
    token: str  # "" for the watch view on 127.0.0.1 without a token

    @property
    def watch(self) -> bool:
        return self.id == WATCH


# --------------------------------------------------------------------------- the view


class View(NamedTuple):
    """The campaign at one head, as every seat sees it (built once per step, on the worker)."""

    step: int
    state_hash: str
    board: Doc  # the status document (`blood status --json`)
    question: Doc | None  # the question waiting (`blood play --json`'s keys), None at the end
    question_id: str
    whose: str | None  # the Trouper id whose question it is (None: the table's)
    names: dict[str, str]  # Trouper id -> name
    leader: str | None  # the Leader's Trouper id
    by: str  # who recorded the head step ("" unknown)
    said: list[str]  # what recording it said (a seat's answer), else the step's sentence
    written: Any = None  # the store's drawn_from() (state hash, revision, head)


def question_id(state_hash: str, fingerprint: str, screen: Any) -> str:
    """The question asked at a head: the state, the data pack and the question itself."""
    text = "|".join([state_hash, fingerprint, str(screen.need or ""), screen.question])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def screen_doc(screen: Any, campaign: str, step: int, state_hash: str,
               answers: list[str]) -> Doc:
    """A walker's screen as `blood play --json` prints it (its ``step`` kept as ``stage``: the
    served documents' ``step`` is the head), each choice marked ``default`` or not."""
    doc = screen.to_json()
    doc["stage"] = doc.pop("step")
    for c in doc["choices"]:
        c["default"] = c["key"] == screen.default
    doc.update(campaign=campaign, log_length=step, state_hash=state_hash, answers=answers,
               confirm=None)
    return doc


def scrub_hands(doc: Any, mine: str | None) -> Any:
    """``doc`` with every hand but ``mine``'s reduced to its count: a dict naming another
    Trouper (``trouper`` or ``who``) loses its cards' names and ``commands`` (which name them),
    its ``hand`` list becoming a number. Copies what it changes."""
    if isinstance(doc, list):
        return [scrub_hands(v, mine) for v in doc]
    if not isinstance(doc, dict):
        return doc
    owner = doc.get("trouper") if isinstance(doc.get("trouper"), str) else doc.get("who")
    hides = ("hand_cards" in doc or isinstance(doc.get("hand"), list)) and owner != mine
    out = {}
    for k, v in doc.items():
        if hides and k in ("hand_cards", "hand_names", "commands", "options"):
            continue
        if hides and k == "hand" and isinstance(v, list):
            out[k] = len(v)
            continue
        out[k] = scrub_hands(v, mine) if isinstance(v, (dict, list)) else v
    if hides:
        out["hand_hidden"] = True
    return out


def with_hand_names(doc: Any, cat: Any) -> Any:
    """``doc`` with ``hand_names`` (the cards' names) beside each ``hand_cards`` list of ids,
    for the page (:func:`scrub_hands` drops the other seats')."""
    if isinstance(doc, list):
        return [with_hand_names(v, cat) for v in doc]
    if not isinstance(doc, dict):
        return doc
    out = {k: with_hand_names(v, cat) if isinstance(v, (dict, list)) else v
           for k, v in doc.items()}
    cards = doc.get("hand_cards")
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        out["hand_names"] = [record_name(cat, c) for c in cards]
    return out


def seat_doc(view: View, seat: Seat) -> Doc:
    """The ``seat`` object of the documents: its id, its Trouper's name, its role."""
    if seat.watch:
        return {"id": None, "name": "Watch", "role": "watch"}
    role = "leader" if seat.id == view.leader else "trouper"
    return {"id": seat.id, "name": view.names.get(seat.id, seat.id), "role": role}


def yours(view: View, seat: Seat) -> bool:
    """May ``seat`` answer the question waiting: its own Trouper's, or the table's."""
    if seat.watch or view.question is None:
        return False
    return view.whose is None or view.whose == seat.id


def question_for(view: View, seat: Seat, extra: Doc | None = None) -> Doc | None:
    """The question document for ``seat`` (docs/board-api.md): another Trouper's question
    shows its title and question but not its choices (they may name that player's cards)."""
    if view.question is None:
        return None
    doc = dict(view.question)
    mine = yours(view, seat)
    if view.whose is not None and view.whose != seat.id:
        doc["hidden_choices"] = len(doc.get("choices") or [])
        doc["choices"], doc["info"], doc["default"] = [], [], None
    doc.update(step=view.step, question_id=view.question_id, yours=mine, whose=view.whose,
               whose_name=view.names.get(view.whose) if view.whose else None,
               seat=seat_doc(view, seat))
    if extra:
        doc.update(extra)
    return doc


def board_for(view: View, seat: Seat) -> Doc:
    """The status document for ``seat``: its own Trouper's hand named, every other counted."""
    doc: Doc = {"ok": True, **scrub_hands(view.board, None if seat.watch else seat.id)}
    doc["seat"] = seat_doc(view, seat)
    return doc


def event_for(view: View, seat: Seat, since: int | None = None) -> Doc:
    """One server-sent event's document for ``seat``, with the steps missed ``since`` the
    page's Last-Event-ID."""
    doc: Doc = {"step": view.step, "question": question_for(view, seat),
                "board": board_for(view, seat), "by": view.by, "said": view.said}
    if since is not None:
        doc["since"] = since
        doc["missed"] = [e for e in view.board.get("log") or []
                         if isinstance(e, dict) and isinstance(e.get("step"), int)
                         and e["step"] > since]
    return doc


# --------------------------------------------------------------------------- answers


class Reply(NamedTuple):
    status: int
    body: Doc


def refuse(status: int, error: str, **more: Any) -> Reply:
    return Reply(status, {"ok": False, "error": error, **more})


class Bucket:
    """A seat's rate cap: ``rate()`` requests a second, twice as many at once."""

    def __init__(self) -> None:
        self.per_second = rate()
        self.tokens = 2 * self.per_second
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(2 * self.per_second, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Table:
    """The served campaign: its seats, the view of its head, the answers and the streams."""

    def __init__(self, saves_dir: Path, name: str, settings: Any, seat_tokens: Any, *,
                 lan: bool = False) -> None:
        self.saves_dir, self.name, self.settings = saves_dir, name, settings
        self.seats = seat_tokens  # store/seats.py Seats
        self.lan = lan
        self.view: View | None = None
        self.version = 0
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-save")
        self.stopping = threading.Event()
        self.streams = 0
        self._store: Any = None
        self._taps: OrderedDict[tuple[str, str], Reply] = OrderedDict()
        self._by: dict[Any, tuple[str, list[str]]] = {}  # the writes seats made
        self._buckets: dict[str, Bucket] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._watcher: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ seats
    def seat(self, token: str | None, *, loopback_ok: bool) -> Seat | None:
        """The seat a token opens (None: refused). No token: the watch view, on 127.0.0.1."""
        if not token:
            return Seat(WATCH, "") if loopback_ok and not self.lan else None
        if len(token) > 256:
            return None
        found = self.seats.find(token)
        return None if found is None else Seat(found, token)

    def allowed(self, key: str) -> bool:
        """The rate cap of a seat (``key``: its token, or the client's address)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 1024:
                self._buckets.clear()
            bucket = self._buckets[key] = Bucket()
        return bucket.take()

    # ------------------------------------------------------------------ on the worker
    def _open(self) -> Any:
        """The campaign's store, kept open on the worker thread (synced with the file)."""
        if self._store is None:
            self._store = CampaignStore.open(self.saves_dir, self.name, session.catalog)
        else:
            self._store.refresh()
        return self._store

    def _close(self) -> None:
        if self._store is not None:
            with contextlib.suppress(Exception):
                self._store.close()
            self._store = None

    def _build(self, store: Any, said: list[str] | None = None) -> View:
        """The view of the store's head (on the worker)."""
        state, cat = store.state, store.catalog
        board = with_hand_names(views.stored(store) or status_doc(store), cat)
        question: Doc | None
        try:
            screen = Walk.start(state, cat, store.head).screen()
        except BloodError:
            screen = None
        if screen is None or screen.end:
            question, qid, whose = None, "", None
        else:
            question = screen_doc(screen, store.name, store.head, store.state_hash, [])
            qid = question_id(store.state_hash, cat.fingerprint(), screen)
            whose = screen.who
        names = {t.trouper: trouper_name(cat, t.trouper) for t in state.troupers}
        leader = state.troupers[state.leader].trouper if state.troupers else None
        written = store.drawn_from()
        by, told = self._by.get(written, ("", []))
        if not by:
            by = seats.recorded_by(self.saves_dir, self.name, written)
        if said is None:
            said = told or [str(e.get("sentence", "")) for e in board.get("log") or []
                            if isinstance(e, dict) and e.get("step") == store.head]
        return View(store.head, store.state_hash, board, question, qid, whose, names, leader,
                    by, said, written)

    def _look(self) -> View | None:
        """The watcher's look (on the worker): a new view when the save's head changed."""
        key = head_key(save_path(self.saves_dir, self.name))
        view = self.view
        if key is None or (view is not None and (key[2], key[0]) == (view.step,
                                                                    view.state_hash)):
            return None
        with using(self.settings):
            try:
                return self._build(self._open())
            except Exception:  # noqa: BLE001 - busy or broken now: the last view stays
                self._close()
                return None

    def first_view(self) -> View:
        """The view at the start (before serving: raises what opening the campaign raises)."""
        def build() -> View:
            with using(self.settings):
                return self._build(self._open())

        view = self.worker.submit(build).result()
        self.view, self.version = view, self.version + 1
        return view

    def answer(self, seat: Seat, body: Doc) -> Reply:
        """POST /api/answer (on the worker); a tap id's first reply is given again."""
        tap = body.get("tap")
        tap_key = (seat.id, str(tap)) if tap is not None else None
        if tap_key is not None and tap_key in self._taps:
            return self._taps[tap_key]  # the first reply, never applied twice
        with using(self.settings):
            reply = self._answer(seat, body)
        if tap_key is not None:
            self._taps[tap_key] = reply
            while len(self._taps) > MAX_TAPS:
                self._taps.popitem(last=False)
        return reply

    def _answer(self, seat: Seat, body: Doc) -> Reply:
        step, qid, lines = body["step"], body["question_id"], body["lines"]
        try:
            store = self._open()
        except BloodError as exc:
            self._close()
            return refuse(503, f"the campaign cannot be opened now: {exc.message}")
        view = self.view
        if view is None or (view.step, view.state_hash) != (store.head, store.state_hash):
            view = self._publish(self._build(store))
        if step != view.step or qid != view.question_id:
            return self._moved(view, seat, step)
        if seat.watch:
            return refuse(403, "the watch seat cannot answer", step=view.step)
        words = lines[0].split() if lines else []
        if words and words[0].lower() in ("undo", "redo") and len(words) <= 2:
            return self._undo_redo(store, view, seat, words, lines)
        if not yours(view, seat):
            if view.question is None:
                return refuse(409, "nothing is left to play", by=view.by, step=view.step)
            whose = view.names.get(view.whose or "", view.whose)
            return refuse(403, f"this question is {whose}'s to answer", whose=view.whose,
                          whose_name=whose, step=view.step)
        return self._play(store, view, seat, lines)

    def _moved(self, view: View, seat: Seat, step: int) -> Reply:
        """409: the campaign is no longer at ``step`` (or its question moved)."""
        by = view.by
        if not by or by == "a blood command":  # the laptop notes its step just after it

            time.sleep(0.05)
            by = seats.recorded_by(self.saves_dir, self.name, view.written)
        if step > view.step:  # (an answer from a page of a later step: an undo since)
            error = f"the campaign is at step {view.step} now, not {step}"
        elif step < view.step:
            error = f"already answered by {by}: the campaign is at step {view.step} now"
        else:
            error = "the question moved: it is asked anew"
        return Reply(409, {"ok": False, "error": error, "by": by, "step": view.step,
                           "question": question_for(view, seat)})

    def _undo_redo(self, store: Any, view: View, seat: Seat, words: list[str],
                   lines: list[str]) -> Reply:
        what = words[0].lower()
        if seat.id != view.leader:
            leader = view.names.get(view.leader or "", "the Leader")
            return refuse(403, f"{what} is the Leader's ({leader}) and the laptop's",
                          step=view.step)
        if len(lines) != 1:
            return refuse(400, f"{what} is sent alone, as one line", step=view.step)
        k = typed_number(words[1]) if len(words) == 2 else 1
        if k is None or k < 1:
            return refuse(400, f"{what} takes a number of steps, e.g. `{what} 2`",
                          step=view.step)
        try:
            said = [undo_redo(store, what, k, expect=(view.step, view.state_hash))]
        except HeadMoved:
            return self._moved(self._publish(self._build(self._open())), seat, view.step)
        except BloodError as exc:
            return refuse(400, exc.message, step=view.step)
        seats.note_by(self.saves_dir, self.name, store.drawn_from(),
                      view.names.get(seat.id, seat.id))
        return self._done(store, view, seat, said, 0)

    def _play(self, store: Any, view: View, seat: Seat, lines: list[str]) -> Reply:
        """The lines through the walker from the view's top menu; the action they finish
        recorded by `blood play`'s recorder (``Loop.commit``)."""
        loop = Seated(self, store)
        loop.at_head, loop.digest = view.step, view.state_hash
        walk = Walk.start(store.state, store.catalog, store.head)
        loop.walk = walk
        careful: str | None = None  # "Take it anyway?" asked for the line before
        held = ""
        used: list[str] = []
        out = io.StringIO()
        for n, line in enumerate(lines):
            used.append(line)
            if careful is not None:
                if line.strip().lower() not in ("y", "yes"):
                    careful = None  # not taken: the same question again
                    continue
                result = walk.answer(held, confirmed=True)
                careful = None
            else:
                low = line.strip().lower()
                if low.split()[:1] and low.split()[0] in PROMPT_ONLY and len(low.split()) == 1:
                    return refuse(400, f"{line.strip()!r} is a command of the laptop's prompt, "
                                  "not an answer", step=view.step, at=n)
                result = walk.answer(line)
            if isinstance(result, Confirm):
                careful, held = result.message, line
                continue
            if isinstance(result, Again):
                return refuse(400, result.message, step=view.step, at=n,
                              question=self._follow_up(view, seat, walk, used[:-1]))
            if isinstance(result, Walk):
                walk = loop.walk = result
                continue
            assert isinstance(result, Done)
            try:
                with said_into(out):
                    loop.commit(result.action, view.state_hash, by=view.names.get(seat.id,
                                                                                   seat.id))
            except DrawNeeded as need:
                walk = loop.walk = walk.drawing_for(result.action, need)
                continue
            except (HeadMoved, DataChanged):
                return self._moved(self._publish(self._build(self._open())), seat, view.step)
            except (RuleError, BloodError) as exc:
                return refuse(400, getattr(exc, "message", str(exc)), step=view.step, at=n)
            said = [ln.strip() for ln in out.getvalue().splitlines() if ln.strip()]
            return self._done(store, view, seat, said, 1, unused=lines[n + 1:])
        # the lines stop inside a follow-up (or at "Take it anyway?"): nothing recorded
        extra = {"confirm": careful}
        return Reply(200, {"ok": True, "step": view.step, "recorded": 0, "said": [],
                           "question": self._follow_up(view, seat, walk, used, extra)})

    def _done(self, store: Any, view: View, seat: Seat, said: list[str], recorded: int,
              **more: Any) -> Reply:
        """200: the step ``seat`` recorded (or took back) published, with what it said."""
        self._by[store.drawn_from()] = (view.names.get(seat.id, seat.id), said)
        if len(self._by) > 512:
            self._by.pop(next(iter(self._by)))
        new = self._publish(self._build(store, said))
        return Reply(200, {"ok": True, "step": new.step, "recorded": recorded, "said": said,
                           **more, "question": question_for(new, seat)})

    def _follow_up(self, view: View, seat: Seat, walk: Any, answers: list[str],
                   extra: Doc | None = None) -> Doc | None:
        """The question the lines so far lead to (the top one when none), for ``seat``."""
        if not answers and not extra:
            return question_for(view, seat)
        doc = screen_doc(walk.screen(), self.name, view.step, view.state_hash, list(answers))
        return question_for(view._replace(question=doc), seat, extra)

    # ------------------------------------------------------------------ publishing
    def _publish(self, view: View) -> View:
        """Make ``view`` the current one and wake every stream (from the worker)."""
        if self.view is None or (self.view.step, self.view.state_hash, self.view.by) != (
                view.step, view.state_hash, view.by) or view.said != self.view.said:
            self.view = view
            self.version += 1
            loop, changed = self._loop, self._changed
            if loop is not None and changed is not None:
                with contextlib.suppress(RuntimeError):  # the loop closed: nobody listens
                    loop.call_soon_threadsafe(self._wake)
        return self.view

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    async def run_on_worker(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, fn, *args)

    async def start(self) -> None:
        """In the server's loop: the watcher of the save's head."""
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._watcher = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while not self.stopping.is_set():
            await asyncio.sleep(POLL)
            with contextlib.suppress(Exception):
                view = await self.run_on_worker(self._look)
                if view is not None:
                    await self.run_on_worker(self._publish, view)

    async def stop(self) -> None:
        self.stopping.set()
        self._wake()
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watcher

    def close(self) -> None:
        self.stopping.set()
        with contextlib.suppress(Exception):
            self.worker.submit(self._close).result(timeout=5)
        self.worker.shutdown(wait=True)

    async def changes(self, since_version: int) -> AsyncIterator[View | None]:
        """The view each time it changes after ``since_version`` (None: a heartbeat is due),
        until the server stops."""
        version = since_version
        beat = heartbeat()
        while not self.stopping.is_set():
            if self.version != version and self.view is not None:
                version = self.version
                yield self.view
                continue
            changed = self._changed
            if changed is None:
                return
            try:
                await asyncio.wait_for(changed.wait(), timeout=min(beat, 0.5))
            except TimeoutError:
                beat -= min(beat, 0.5)
                if beat <= 0:
                    beat = heartbeat()
                    yield None
                continue
            beat = heartbeat()


@contextlib.contextmanager
def said_into(out: io.StringIO) -> Any:
    """What `blood play` says while recording, into ``out``, unwrapped."""
    width = stdout.width
    stdout.width = 10_000
    try:
        with contextlib.redirect_stdout(out):
            yield out
    finally:
        stdout.width = width


class Seated(Loop):
    """`blood play`'s loop for one answer of a seat, on the server's open store."""

    def __init__(self, table: Table, store: Any) -> None:
        super().__init__(table.name)
        self._opened = store
        self.echo = False

    def open(self) -> Any:
        return contextlib.nullcontext(self._opened)
