"""Headless chromium pages driven through the DevTools protocol (issue 42): open a page, read its
DOM, tap its buttons, photograph it. Spoken with the standard library only (a websocket to
chromium's ``--remote-debugging-port``), so a test needs nothing but Debian's ``chromium``.

Used by the browser tests (tests/e2e/test_phones_play.py)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")


def _drain(stream: Any) -> None:
    with contextlib.suppress(OSError, ValueError):
        for _ in stream:
            pass


class Page:
    """One chromium with one page open at ``url``, asked through the DevTools protocol; the page
    stays open (and live) until :meth:`close`."""

    def __init__(self, profile: Path, url: str, *args: str,
                 size: tuple[int, int] | None = None) -> None:
        if CHROMIUM is None:
            raise RuntimeError("no chromium installed")
        extra = [f"--window-size={size[0]},{size[1]}"] if size else []
        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
             "--remote-allow-origins=*", *extra, *args, url],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        self.sock: socket.socket | None = None
        self.ids = 0
        try:
            self._connect(url)
            if size:
                self.call("Emulation.setDeviceMetricsOverride", {
                    "width": size[0], "height": size[1], "deviceScaleFactor": 1,
                    "mobile": size[0] < 700})
        except BaseException:
            self.close()  # no browser is left running
            raise

    def _connect(self, url: str) -> None:
        assert self.proc.stderr is not None
        found = None
        for _ in range(200):
            line = self.proc.stderr.readline()
            found = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
            if found or not line:
                break
        if not found:
            raise RuntimeError("chromium printed no DevTools address")
        # the rest of chromium's chatter is read and dropped: a full pipe would stall it
        threading.Thread(target=_drain, args=(self.proc.stderr,), daemon=True).start()
        port = int(found.group(1))
        deadline = time.monotonic() + 30
        ws = ""
        while not ws and time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                targets = json.loads(r.read())
            ws = next((t["webSocketDebuggerUrl"] for t in targets
                       if t.get("type") == "page" and t.get("url", "").startswith(url)), "")
            if not ws:
                time.sleep(0.1)
        if not ws:
            raise RuntimeError("chromium opened no page")
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        path = ws.split(str(port), 1)[1]
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"no websocket: {head[:80]!r}")

    def _recv_exact(self, n: int) -> bytes:
        assert self.sock is not None
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data

    def _recv_message(self) -> dict[str, Any]:
        payload = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(self._recv_exact(2), "big")
            elif n == 127:
                n = int.from_bytes(self._recv_exact(8), "big")
            payload += self._recv_exact(n)
            if b0 & 0x80:  # the last frame of the message
                doc: dict[str, Any] = json.loads(payload)
                return doc

    def call(self, method: str, params: dict[str, Any]) -> Any:
        """A DevTools protocol method's result (events in between are dropped)."""
        self.ids += 1
        data = json.dumps({"id": self.ids, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            size = bytes([0x80 | n])
        elif n < 65536:
            size = bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            size = bytes([0x80 | 127]) + n.to_bytes(8, "big")
        assert self.sock is not None
        self.sock.sendall(b"\x81" + size + mask + bytes(c ^ mask[i % 4]
                                                         for i, c in enumerate(data)))
        while True:
            msg = self._recv_message()
            if msg.get("id") == self.ids:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a thrown error: RuntimeError)."""
        result = self.call("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression: str, what: str, timeout: float = 30) -> Any:
        """The value of ``expression`` once it is truthy (AssertionError naming ``what`` after
        ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except RuntimeError:  # the page is still loading (no body yet)
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} (after {timeout} s)")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """Tap the element ``selector`` names (as a finger does: it must be enabled)."""
        done = self.evaluate(f"""(function () {{
          var e = document.querySelector({json.dumps(selector)});
          if (!e) return "missing";
          if (e.disabled) return "disabled";
          e.click(); return "ok"; }})()""")
        if done != "ok":
            raise AssertionError(f"cannot tap {selector}: {done}")

    def type_into(self, selector: str, text: str) -> None:
        """Type ``text`` into the input ``selector`` names."""
        self.evaluate(f"""(function () {{
          var e = document.querySelector({json.dumps(selector)});
          e.value = {json.dumps(text)}; e.dispatchEvent(new Event("input")); }})()""")

    def screenshot(self, path: Path, full: bool = False) -> None:
        """The page as a PNG (``full``: the whole page, not only the screen)."""
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full}
        if full:
            size = self.evaluate("[document.documentElement.scrollWidth, "
                                 "document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.call("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=20)
