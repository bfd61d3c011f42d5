"""The live board page of `blood board --serve` (issue 28): a small read-only web server.

Standard library only. ``/`` is the page (``board_page.html``, shipped in the package) with the
board document inlined; ``/board.json`` the document as `blood status --json` prints it;
``/events`` server-sent events: the document now, then one after every change of the save, and
a comment line every few seconds so a closed tab is dropped. The document comes from a given
``load`` function (never built here); a watcher thread reads the save's head every ``POLL``
seconds and pushes a new document to every open page. A page that reconnects gets the current
document first.

On 127.0.0.1 only requests naming this host are answered (no DNS rebinding); with ``lan=True``
the server listens on every address and each request must carry the URL's ``t`` token, else
403.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from blood_companion.store.peek import head_key

POLL = 0.25  # seconds between two looks at the save's head
HEARTBEAT = 5.0  # seconds between two comment lines on an idle event stream
RETRY_MS = 1000  # how soon a page reconnects after the stream broke
PAGE = "board_page.html"

Doc = dict[str, Any]


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


class Board:
    """The board document of the moment, and the pages waiting for the next one."""

    def __init__(self, load: Callable[[], Doc], head: Callable[[], Any]) -> None:
        self._load = load
        self._head = head
        self._cond = threading.Condition()
        self._doc: Doc | None = None
        self._version = 0  # bumped with every new document
        self._key: Any = None
        self.stopping = threading.Event()

    def refresh(self) -> bool:
        """Load the document anew when the save's head changed; True when it did."""
        key = self._head()
        if self._doc is not None and (key is None or key == self._key):
            return False
        try:
            doc = self._load()
        except Exception:  # noqa: BLE001 - the save is busy or broken: the last board stays
            return False  # and the next look tries again
        with self._cond:
            self._doc, self._key = doc, key
            self._version += 1
            self._cond.notify_all()
        return True

    def current(self) -> tuple[int, Doc | None]:
        with self._cond:
            return self._version, self._doc

    def wait_newer(self, version: int, timeout: float) -> tuple[int, Doc | None]:
        """The document once it is newer than ``version`` (or after ``timeout``, or when
        stopping)."""
        with self._cond:
            self._cond.wait_for(lambda: self._version != version or self.stopping.is_set(), timeout)
            return self._version, self._doc

    def stop(self) -> None:
        self.stopping.set()
        with self._cond:
            self._cond.notify_all()

    def watch(self) -> None:
        """The watcher thread: look at the head every POLL seconds until stopped."""
        while not self.stopping.wait(POLL):
            self.refresh()


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins every request thread: none is left behind
    block_on_close = True
    board: Board
    token: str | None
    hosts: frozenset[str]
    page: str
    live: set[socket.socket]  # the open connections, closed on the way out
    live_lock: threading.Lock


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    timeout = 5  # an idle connection does not hold a thread (nor the exit) for longer
    server_version = "BloodBoard"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        with self.server.live_lock:
            self.server.live.add(self.connection)

    def finish(self) -> None:
        with self.server.live_lock:
            self.server.live.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass  # the terminal shows the URL, not every request

    def _allowed(self, query: dict[str, list[str]]) -> bool:
        token = self.server.token
        if token is not None:
            given = (query.get("t") or [""])[0]
            return secrets.compare_digest(given.encode(), token.encode())
        host = (self.headers.get("Host") or "").lower()
        return host in self.server.hosts

    def _send(self, status: int, body: bytes, kind: str, extra: dict[str, str] | None = None
              ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self._common_headers(extra)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _common_headers(self, extra: dict[str, str] | None = None) -> None:
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")  # the URL may carry the token
        self.send_header("X-Frame-Options", "DENY")
        for k, v in (extra or {}).items():
            self.send_header(k, v)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if not self._allowed(query):
            self._send(HTTPStatus.FORBIDDEN, b"403: this board's address carries its token\n",
                       "text/plain; charset=utf-8")
            return
        if url.path in ("/", "/index.html"):
            self._page()
        elif url.path == "/board.json":
            _, doc = self.server.board.current()
            body = json.dumps({"ok": doc is not None, **(doc or {"error": "no board yet"})},
                              ensure_ascii=False).encode("utf-8", "surrogatepass")
            self._send(HTTPStatus.OK, body, "application/json; charset=utf-8")
        elif url.path == "/events":
            self._events()
        else:
            self._send(HTTPStatus.NOT_FOUND, b"404: not here\n", "text/plain; charset=utf-8")

    def _page(self) -> None:
        _, doc = self.server.board.current()
        body = self.server.page.replace("__BOARD_DOC__", inline_json(doc))
        csp = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
               "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")
        self._send(HTTPStatus.OK, body.encode("utf-8", "surrogatepass"),
                   "text/html; charset=utf-8", {"Content-Security-Policy": csp})

    def _events(self) -> None:
        board = self.server.board
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self._common_headers({"Connection": "close"})
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        version, doc = board.current()
        try:
            self._event(doc, first=True)
            while not board.stopping.is_set():
                newer, doc = board.wait_newer(version, HEARTBEAT)
                if board.stopping.is_set():
                    break
                if newer != version:
                    version = newer
                    self._event(doc)
                else:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
        except (OSError, ValueError):
            return  # the page went away (a closed tab, a sleeping phone): drop it quietly

    def _event(self, doc: Doc | None, first: bool = False) -> None:
        if doc is None:
            return
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        head = f"retry: {RETRY_MS}\n" if first else ""
        text = f"{head}id: {doc.get('step', 0)}\nevent: board\ndata: {data}\n\n"
        self.wfile.write(text.encode("utf-8", "surrogatepass"))
        self.wfile.flush()


class BoardServer:
    """The server, its watcher and its board; :meth:`serve` runs it until interrupted."""

    def __init__(self, board: Board, *, port: int, lan: bool = False,
                 token: str | None = None) -> None:
        self.board = board
        self.lan = lan
        host = "0.0.0.0" if lan else "127.0.0.1"
        try:
            self.httpd = _Server((host, port), _Handler)
        except OSError as exc:
            raise PortInUse(exc.errno, exc.strerror) from None
        self.port = int(self.httpd.server_address[1])
        self.token = (token or secrets.token_urlsafe(24)) if lan else None
        self.httpd.board = board
        self.httpd.token = self.token
        self.httpd.hosts = frozenset(f"{h}:{self.port}" for h in ("127.0.0.1", "localhost"))
        self.httpd.page = page_template()
        self.httpd.live, self.httpd.live_lock = set(), threading.Lock()
        self._watcher = threading.Thread(target=board.watch, name="board-watcher", daemon=True)

    @property
    def url(self) -> str:
        host = lan_address() if self.lan else "127.0.0.1"
        return f"http://{host}:{self.port}/" + (f"?t={self.token}" if self.token else "")

    def start_watching(self) -> None:
        self.board.refresh()
        self._watcher.start()

    def serve(self) -> None:
        """Serve until Ctrl-C (KeyboardInterrupt) or SIGTERM (SystemExit); then close every
        connection and thread before returning."""
        try:
            self.httpd.serve_forever(poll_interval=0.2)
        finally:
            self.close()

    def shutdown(self) -> None:
        """Stop :meth:`serve` from another thread (an embedding app, the tests)."""
        self.board.stop()
        self.httpd.shutdown()

    def close(self) -> None:
        self.board.stop()
        with self.httpd.live_lock:  # a connection idle before its request ends now
            for conn in self.httpd.live:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
        self.httpd.server_close()  # joins the request threads, which see `stopping`
        if self._watcher.is_alive():
            self._watcher.join(timeout=2)


def save_head(path: Path) -> Callable[[], Any]:
    """The head key of a save (state hash, revision), read without opening the store; None
    while the file is missing or the store would not open it as it is."""
    return lambda: head_key(path)
