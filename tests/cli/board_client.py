"""A client of the served board's contract (docs/board-api.md) for the tests and bench/board.py:
`blood board --serve --json` in its own process, its seats, and the requests of the contract
spoken with the standard library."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import select
import signal
import subprocess
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

from tests.cli.conftest import blood_exe


def env(**more: str) -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", **more}


def _sigint_as_usual() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Served:
    """A running `blood board --serve --json` and what its one line says."""

    def __init__(self, proc: subprocess.Popen[str], doc: dict[str, Any]) -> None:
        self.proc, self.doc = proc, doc
        parts = urllib.parse.urlsplit(doc["url"])
        self.host, self.port = parts.hostname or "127.0.0.1", int(parts.port or 80)
        self.watch = token_of(doc["watch"])
        self.tokens = {t: token_of(u) for t, u in doc["seats"].items()}

    def conn(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
        c = self.conn()
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, r.headers, r.read()
        finally:
            c.close()

    def get_json(self, path: str, token: str | None = None) -> tuple[int, Any]:
        sep = "&" if "?" in path else "?"
        full = path + (f"{sep}seat={token}" if token else "")
        status, _, body = self.request("GET", full)
        return status, json.loads(body) if body.startswith(b"{") else body.decode()

    def question(self, token: str) -> dict[str, Any]:
        status, doc = self.get_json("/api/question", token)
        assert status == 200, doc
        return dict(doc)

    def answer(self, token: str, step: int, qid: str, lines: list[str],
               tap: str | None = None, conn: http.client.HTTPConnection | None = None
               ) -> tuple[int, dict[str, Any]]:
        body: dict[str, Any] = {"seat": token, "step": step, "question_id": qid,
                                "lines": lines}
        if tap is not None:
            body["tap"] = tap
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if conn is None:
            status, _, raw = self.request("POST", "/api/answer", data, headers)
        else:
            conn.request("POST", "/api/answer", body=data, headers=headers)
            r = conn.getresponse()
            status, raw = r.status, r.read()
        return status, json.loads(raw)


def token_of(url: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["seat"][0]


@contextlib.contextmanager
def running(*args: str, port: int = 0, extra_env: dict[str, str] | None = None
            ) -> Iterator[subprocess.Popen[str]]:
    """`blood board --serve --port PORT ARGS` in its own process until the block ends
    (SIGINT, as Ctrl-C)."""
    p = subprocess.Popen(
        [*blood_exe(), "board", "--serve", "--port", str(port), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env(**(extra_env or {})), preexec_fn=_sigint_as_usual,
    )
    try:
        yield p
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=20)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
            for f in (p.stdout, p.stderr):
                if f is not None:
                    f.close()


@contextlib.contextmanager
def serving(*args: str, port: int = 0, extra_env: dict[str, str] | None = None
            ) -> Iterator[Served]:
    """`blood board --serve --json` in its own process until the block ends."""
    with running("--json", *args, port=port, extra_env=extra_env) as p:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.startswith("{"), (line, p.stderr.read() if p.stderr else "")
        yield Served(p, json.loads(line))


def read_until(p: subprocess.Popen[Any], done: Callable[[bytes], bool],
               timeout: float = 60) -> bytes:
    """What ``p`` wrote to its stdout (a pipe, read unbuffered) once ``done`` of it, or when
    ``timeout`` s passed or the pipe closed."""
    assert p.stdout is not None
    got = b""
    deadline = time.monotonic() + timeout
    while not done(got) and time.monotonic() < deadline:
        ready, _, _ = select.select([p.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            got += chunk
    return got


class Stream:
    """An event stream (GET /events) read event by event, as EventSource reads it."""

    def __init__(self, served: Served, token: str | None, last_id: str | None = None) -> None:
        self.conn = served.conn()
        headers = {"Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = last_id
        self.conn.request("GET", "/events" + (f"?seat={token}" if token else ""),
                          headers=headers)
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200, self.resp.read()
        assert self.resp.headers["Content-Type"].startswith("text/event-stream")
        self.retry: int | None = None
        self.comments = 0

    def next(self, timeout: float) -> tuple[str, dict[str, Any]]:
        """The next event's id and document (TimeoutError after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        ident, data = "", []
        sock = self.conn.sock
        assert sock is not None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no event in time")
            sock.settimeout(left)
            try:
                raw = self.resp.readline()
            except TimeoutError:
                raise TimeoutError("no event in time") from None
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith(":"):
                self.comments += 1
            elif line.startswith("retry:"):
                self.retry = int(line[6:].strip())
            elif line.startswith("id:"):
                ident = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
            elif line == "" and data:
                return ident, json.loads("\n".join(data))

    def idle(self, seconds: float) -> int:
        """Read for ``seconds`` while nothing happens (heartbeats come more often than every
        10 s): the comment lines read; an event meanwhile is an AssertionError."""
        deadline = time.monotonic() + seconds
        sock = self.conn.sock
        assert sock is not None
        sock.settimeout(10)
        seen = 0
        while time.monotonic() < deadline:
            line = self.resp.readline().decode("utf-8").rstrip("\n")
            assert not line.startswith(("data:", "id:")), line
            seen += line.startswith(":")
        self.comments += seen
        return seen

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.close()
