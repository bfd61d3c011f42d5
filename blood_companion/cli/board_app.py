"""The HTTP side of the served board (docs/board-api.md): a Starlette app over a
:class:`~blood_companion.cli.board_serve.Table`, served by uvicorn. Every request passes
:class:`Guard` (the Host check on 127.0.0.1, the size caps), then its route's ``admit``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from blood_companion.cli.board_serve import (
    MAX_BODY,
    MAX_LINES,
    MAX_STREAMS,
    MAX_TARGET,
    RETRY_MS,
    Seat,
    Table,
    board_for,
    event_for,
    inline_json,
    page_template,
    question_for,
)

SECURITY = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the URL carries the seat's token
    "X-Frame-Options": "DENY",
}
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")


def _plain(status: int, text: str) -> Response:
    return Response(text + "\n", status, headers=SECURITY, media_type="text/plain; charset=utf-8")


def _json(status: int, doc: Any) -> Response:
    body = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass")
    return Response(body, status, headers=SECURITY, media_type="application/json")


class Guard:
    """ASGI middleware: on 127.0.0.1 only requests naming this host (no DNS rebinding); a
    request target over MAX_TARGET bytes (414) or a body over MAX_BODY bytes (413) refused
    before any route reads it."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts  # None: any host (--lan: every request needs its token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if self.hosts is not None and host not in self.hosts:
            await _plain(403, "403: this board answers requests for this computer only")(
                scope, receive, send)
            return
        target = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        if target > MAX_TARGET:
            await _plain(414, "414: the address is too long")(scope, receive, send)
            return
        try:
            length = int(headers.get(b"content-length", b"0") or b"0")
        except ValueError:
            length = MAX_BODY + 1
        if length > MAX_BODY:
            await _plain(413, f"413: a request body holds at most {MAX_BODY} bytes")(
                scope, receive, send)
            return
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise TooLarge
            return message

        try:
            await self.app(scope, capped, send)
        except TooLarge:
            with contextlib.suppress(Exception):
                await _plain(413, f"413: a request body holds at most {MAX_BODY} bytes")(
                    scope, receive, send)


class TooLarge(Exception):
    pass


def make_app(table: Table, hosts: frozenset[str] | None) -> ASGIApp:
    """The ASGI app of ``table``: the routes of docs/board-api.md behind :class:`Guard`."""
    page = page_template()

    def admit(request: Request, token: str | None = None, *, api: bool = True,
              need_view: bool = True) -> Seat | Response:
        """The request's seat (``token``: an answer's ``"seat"``, never the token-less watch
        seat), or its refusal: 403 no seat, 429 over the seat's rate cap, 503 no view yet."""
        seat = table.seat(request.query_params.get("seat") if token is None else token,
                          loopback_ok=hosts is not None and token is None)
        if seat is None:
            text = "this board's address carries a seat's token (?seat=...)"
            return _json(403, {"ok": False, "error": text}) if api else _plain(403, "403: " + text)
        client = request.client.host if request.client else "?"
        if not table.allowed(seat.token or f"watch:{client}"):
            r = _json(429, {"ok": False, "error": "too many requests from this seat: slow down"})
            r.headers["Retry-After"] = "1"
            return r
        if need_view and table.view is None:
            return _json(503, {"ok": False, "error": "no board yet"})
        return seat

    async def home(request: Request) -> Response:
        seat = admit(request, api=False, need_view=False)
        if isinstance(seat, Response):
            return seat
        view = table.view
        doc = None
        if view is not None:
            doc = {**board_for(view, seat), "question": question_for(view, seat)}
        body = page.replace("__BOARD_DOC__", inline_json(doc))
        return Response(body.encode("utf-8", "surrogatepass"), 200,
                        headers={**SECURITY, "Content-Security-Policy": CSP},
                        media_type="text/html; charset=utf-8")

    async def board(request: Request) -> Response:
        seat, view = admit(request), table.view
        if isinstance(seat, Response):
            return seat
        assert view is not None  # (admit: 503 without one)
        doc = board_for(view, seat)
        if request.url.path == "/board.json":  # the served document of issue 39
            doc["question"] = question_for(view, seat)
        return _json(200, doc)

    async def question(request: Request) -> Response:
        seat, view = admit(request), table.view
        if isinstance(seat, Response):
            return seat
        assert view is not None  # (admit: 503 without one)
        doc = question_for(view, seat)
        if doc is None:
            doc = {"end": True, "question": None, "choices": [], "step": view.step,
                   "question_id": "", "yours": False, "whose": None,
                   "seat": board_for(view, seat)["seat"]}
        return _json(200, {"ok": True, **doc})

    async def answer(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return _json(415, {"ok": False, "error": "send the answer as application/json"})
        try:
            raw = await request.body()
        except TooLarge:
            return _plain(413, f"413: a request body holds at most {MAX_BODY} bytes")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _json(400, {"ok": False, "error": "the body is not JSON"})
        if not isinstance(body, dict) or not isinstance(body.get("seat"), str):
            return _json(400, {"ok": False, "error": 'the body is a JSON object with "seat"'})
        seat = admit(request, body["seat"], need_view=False)
        if isinstance(seat, Response):
            return seat
        problem = malformed(body)
        if problem:
            return _json(400, {"ok": False, "error": problem})
        reply = await table.run_on_worker(table.answer, seat, body)
        return _json(reply.status, reply.body)

    async def events(request: Request) -> Response:
        seat = admit(request, need_view=False)
        if isinstance(seat, Response):
            return seat
        headers = {**SECURITY, "X-Accel-Buffering": "no"}
        if request.method == "HEAD":
            return Response(b"", 200, headers=headers, media_type="text/event-stream")
        if table.streams >= MAX_STREAMS:
            return _json(503, {"ok": False, "error": "too many pages open"})
        last = request.headers.get("last-event-id", "")
        since = int(last) if last.isdigit() and len(last) < 12 else None
        return StreamingResponse(stream(seat, since), headers=headers,
                                 media_type="text/event-stream; charset=utf-8")

    async def stream(seat: Seat, since: int | None) -> AsyncIterator[bytes]:
        table.streams += 1
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            first = True
            async for view in table.changes(0):
                if view is None:
                    yield b": still here\n\n"
                    continue
                doc = event_for(view, seat, since if first else None)
                first = False
                data = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
                yield f"id: {view.step}\nevent: step\ndata: {data}\n\n".encode(
                    "utf-8", "surrogatepass")
        finally:
            table.streams -= 1

    routes = [
        Route("/", home, methods=["GET"]),
        Route("/index.html", home, methods=["GET"]),
        Route("/api/board", board, methods=["GET"]),
        Route("/board.json", board, methods=["GET"]),
        Route("/api/question", question, methods=["GET"]),
        Route("/api/answer", answer, methods=["POST"]),
        Route("/events", events, methods=["GET"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await table.start()
        try:
            yield
        finally:
            await table.stop()

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _plain(405, "405: not allowed here")

    async def missing(request: Request, exc: Exception) -> Response:
        return _plain(404, "404: not here")

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: missing, 405: not_allowed})
    return Guard(app, hosts)


def malformed(body: dict[str, Any]) -> str | None:
    """Why an answer's body is not one (docs/board-api.md), or None."""
    step, qid, lines, tap = (body.get("step"), body.get("question_id"), body.get("lines"),
                             body.get("tap"))
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        return '"step" is the step the question was asked at (a number)'
    if not isinstance(qid, str) or len(qid) > 64:
        return '"question_id" is the question\'s id, as /api/question gave it'
    if (not isinstance(lines, list) or not 1 <= len(lines) <= MAX_LINES
            or not all(isinstance(x, str) and len(x) <= 400 for x in lines)):
        return f'"lines" is a list of 1 to {MAX_LINES} typed lines'
    if tap is not None and (not isinstance(tap, str) or not 1 <= len(tap) <= 64):
        return '"tap" is a short string (a tap id) or left out'
    return None


class Server(uvicorn.Server):
    """uvicorn's server, telling the table to end its streams when asked to exit."""

    def __init__(self, config: uvicorn.Config, table: Table) -> None:
        super().__init__(config)
        self.table = table

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.table.stopping.set()
        super().handle_exit(sig, frame)


def serve(table: Table, sock: Any, hosts: frozenset[str] | None) -> None:
    """Serve ``table`` on ``sock`` until Ctrl-C, SIGTERM or ``table.stopping``."""
    config = uvicorn.Config(make_app(table, hosts), log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=2, server_header=False,
                            date_header=False, limit_concurrency=256, timeout_keep_alive=5,
                            proxy_headers=False)
    server = Server(config, table)

    async def main() -> None:
        stopper = asyncio.create_task(_stop_when(table, server))
        try:
            await server.serve(sockets=[sock])
        finally:
            stopper.cancel()

    asyncio.run(main())


async def _stop_when(table: Table, server: Server) -> None:
    while not table.stopping.is_set():
        await asyncio.sleep(0.1)
    server.should_exit = True
