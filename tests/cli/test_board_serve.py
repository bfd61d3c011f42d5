"""`blood board --serve`: the live board page (issue 28, Build 2).

HTTP-level tests talk to a real server process (`blood board --serve`) with urllib; the
browser tests load the page in Debian's headless ``chromium`` (skipped only where none is
installed; ``.ci/run`` installs it) and read the DOM it built.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.board_serve import scrub_hands
from tests.browser import CHROMIUM, FLAGS, Page
from tests.cli import board_client
from tests.cli.board_client import env, read_until, running
from tests.cli.conftest import blood_exe

NIGHT = ["night", "setup", "--nemesis", "ilie", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]
TROUPERS = ("Aurel, the Thread-Walker", "Ioana of the Seven Veils")


@pytest.fixture()
def night(blood: Any, saves_dir: Path) -> Path:
    """A campaign in its first night (Father Ilie), in the test's own saves folder."""
    r = blood("campaign", "new", "table", "--troupers", "aurel,ioana", "--seed", "1",
              "--mode", "single")
    assert r.code == 0, r.err
    r = blood(*NIGHT)
    assert r.code == 0, r.err
    return saves_dir


@contextlib.contextmanager
def serving(*args: str, port: int = 0) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`blood board --serve` (its words, not --json); yields it and the URL it printed."""
    with running(*args, port=port) as p:
        url = ""
        assert p.stdout is not None
        for _ in range(20):
            line = p.stdout.readline()
            if not line:
                break
            if "http://" in line:
                url = line.strip()
                break
        assert url, p.stderr.read() if p.stderr else ""
        yield p, url


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
    """Status, headers (looked up in any case) and body of a GET."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def with_path(url: str, path: str) -> str:
    """The URL of another path of the board, keeping its token (if any)."""
    base, _, query = url.partition("?")
    base = base.rstrip("/") + "/" + path
    return base + ("?" + query if query else "")


class Events:
    """The page's event stream, read as a browser's EventSource does (event by event)."""

    def __init__(self, url: str) -> None:
        self.resp = urllib.request.urlopen(with_path(url, "events"), timeout=10)
        assert self.resp.headers["Content-Type"].startswith("text/event-stream")

    def next_board(self, timeout: float) -> dict[str, Any]:
        """The next `step` event's board, with its question (as the page renders them; raises
        TimeoutError after `timeout` s)."""
        data = self.next_event(timeout)
        return {**data["board"], "question": data["question"]}

    def next_event(self, timeout: float) -> dict[str, Any]:
        """The next `step` event's document (raises TimeoutError after `timeout` s)."""
        deadline = time.monotonic() + timeout
        event, data = "", []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no board event in time")
            self.resp.fp.raw._sock.settimeout(left)  # type: ignore[union-attr]
            line = self.resp.readline().decode("utf-8")
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
            elif line == "" and data:
                if event == "step":
                    doc: dict[str, Any] = json.loads("\n".join(data))
                    return doc
                event, data = "", []

    def close(self) -> None:
        self.resp.close()


def record_wagon(coins: str = "1") -> None:
    r = subprocess.run([*blood_exe(), "campaign", "wagon", "--coins", coins],
                       capture_output=True, text=True, env=env(), timeout=120)
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------------- the document


def test_the_status_document_carries_what_the_board_page_shows(blood: Any, night: Path) -> None:
    doc = blood("status", "--json").json()
    assert [e["step"] for e in doc["log"]] == [1, 2]
    assert "Father Ilie" in doc["log"][-1]["sentence"]
    t = doc["night"]["troupers"][0]
    assert {i["side"] for i in t["items"]} == {"starting"}
    assert all(i["side_name"] for i in t["items"])
    assert t["vigor_tokens_by_side"] == {"available": 6, "available_bitten": 0, "depleted": 0,
                                         "depleted_bitten": 0}


def test_the_inlined_document_cannot_end_its_script_element() -> None:
    from blood_companion.cli.board_serve import inline_json

    doc = {"name": "</script><script>alert(1)</script><!-- & \u2028"}
    text = inline_json(doc)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == doc


# ---------------------------------------------------------------------- over HTTP


def test_the_page_and_its_document_are_the_status_document(blood: Any, night: Path) -> None:
    status = blood("status", "--json").json()
    with serving() as (_, url):
        assert url.startswith("http://127.0.0.1:")
        code, headers, body = get(url)
        assert code == 200 and headers["Content-Type"].startswith("text/html")
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        page = body.decode("utf-8")
        assert "__BOARD_DOC__" not in page and "Father Ilie" in page
        code, _, body = get(with_path(url, "board.json"))
        doc = json.loads(body)
        question = doc.pop("question")  # and the question waiting now (issue 39)
        seat = doc.pop("seat")  # (the watch view: every hand counted, issue 42)
        assert code == 200 and doc == scrub_hands(status, None)
        assert seat == {"id": None, "name": "Watch", "role": "watch"}
        assert question["question"] and question["choices"]
        events = Events(url)
        try:
            assert events.next_board(5) == {**{k: v for k, v in doc.items() if k != "ok"},
                                            "ok": True, "seat": seat, "question": question}
        finally:
            events.close()


def test_a_step_recorded_by_another_command_reaches_the_stream_within_two_seconds(
    night: Path,
) -> None:
    with serving() as (_, url):
        events = Events(url)
        try:
            first = events.next_board(5)
            assert first["step"] == 2 and first["wagon"]["coins"] == 0
            record_wagon("1")
            recorded = time.monotonic()
            doc = events.next_board(2)
            assert time.monotonic() - recorded < 2
            assert doc["step"] == 3 and doc["wagon"]["coins"] == 1
            assert doc["log"][-1]["step"] == 3
        finally:
            events.close()


def test_a_page_reconnecting_after_a_restart_gets_the_current_board(night: Path) -> None:
    with serving() as (_, url):
        port = _port(url)
    record_wagon("2")  # while no server runs
    with serving(port=port) as (_, again):
        assert again == url
        events = Events(again)  # what EventSource does by itself after `retry` ms
        try:
            doc = events.next_board(5)
        finally:
            events.close()
        assert doc["step"] == 3 and doc["wagon"]["coins"] == 2


def test_lan_needs_the_token_of_the_printed_url(night: Path) -> None:
    with serving("--lan") as (_, url):  # the first address printed: the watch seat's
        base, _, query = url.partition("?")
        assert query.startswith("seat=") and len(query) > 30
        port = base.split(":")[2].rstrip("/")
        local = f"http://127.0.0.1:{port}/"
        for path in ("", "board.json", "events"):
            assert get(local + path)[0] == 403
            assert get(local + path + "?t=wrong")[0] == 403
        assert get(local + "?" + query)[0] == 200
        code, _, body = get(local + "board.json?" + query)  # the watch seat's view
        assert code == 200 and json.loads(body)["night"]["nemesis"]["name"] == "Father Ilie"


def test_without_lan_only_requests_naming_this_computer_are_answered(night: Path) -> None:
    with serving() as (_, url):
        port = url.split(":")[2].rstrip("/")
        assert get(url)[0] == 200
        assert get(f"http://localhost:{port}/board.json")[0] == 200
        # a page of another site reaching the board through a DNS name of its own
        assert get(url, {"Host": f"evil.example:{port}"})[0] == 403
        assert get(with_path(url, "nothing-here"))[0] == 404
        head = urllib.request.Request(with_path(url, "events"), method="HEAD")
        with urllib.request.urlopen(head, timeout=10) as r:  # headers only, no endless stream
            assert r.status == 200 and r.read() == b""


def test_a_port_in_use_is_one_clear_error(blood_proc: Any, night: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = blood_proc("board", "--serve", "--port", str(port))
    assert r.code == 1
    assert f"port {port} cannot be used" in r.err and "--port 0" in r.err
    assert "Traceback" not in r.err and r.out == ""


def test_a_campaign_that_does_not_exist(blood_proc: Any, night: Path) -> None:
    r = blood_proc("--campaign", "nope", "board", "--serve", "--port", "0")
    assert r.code == 1 and "no campaign 'nope'" in r.err and "Traceback" not in r.err


def test_lan_without_serve_is_a_usage_error(blood: Any, night: Path) -> None:
    r = blood("board", "--lan")
    assert r.code == 2 and "--serve" in r.err


def test_board_without_serve_is_the_status_view(blood: Any, night: Path) -> None:
    r = blood("board", "--json")
    assert r.code == 0 and r.json()["night"]["nemesis"]["name"] == "Father Ilie"


def test_ctrl_c_stops_the_server_cleanly_with_a_page_open(night: Path) -> None:
    with serving() as (p, url):
        events = Events(url)
        try:
            events.next_board(5)
            p.send_signal(signal.SIGINT)
            p.wait(timeout=10)
        finally:
            events.close()
        assert p.returncode == 0
        assert p.stderr is not None
        err = p.stderr.read()
        assert "Stopped serving the board." in err and "Traceback" not in err


def test_a_closed_tab_is_dropped_and_no_thread_is_left(
    night: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from blood_companion.cli.board_app import serve
    from blood_companion.cli.board_serve import Table, listen
    from blood_companion.cli.settings import current
    from blood_companion.store.seats import seat_tokens

    monkeypatch.setenv("BLOOD_BOARD_HEARTBEAT", "0.1")
    before = set(threading.enumerate())
    table = Table(night, "table", current(), seat_tokens(night, "table", ["aurel", "ioana"]))
    table.first_view()
    sock = listen(0, False)
    port = sock.getsockname()[1]
    hosts = frozenset({f"127.0.0.1:{port}"})
    runner = threading.Thread(target=serve, args=(table, sock, hosts))
    runner.start()
    try:
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 10
        while get(url)[0] != 200:  # (listening already; the app starting)
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for _ in range(3):  # tabs opened and closed without a word
            events = Events(url)
            assert events.next_board(5)["name"] == "table"
            events.close()
        deadline = time.monotonic() + 5
        while table.streams and time.monotonic() < deadline:  # each stream noticed
            time.sleep(0.05)
        assert table.streams == 0
        assert get(url)[0] == 200  # and the server still serves
    finally:
        table.stopping.set()
        runner.join(timeout=10)
        table.close()
        sock.close()
    assert not runner.is_alive()
    deadline = time.monotonic() + 5
    while not set(threading.enumerate()) <= before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(threading.enumerate()) <= before


# ---------------------------------------------------------------------- in a real browser

LIVE = "document.getElementById('conn').className === 'live'"
LOST = "document.getElementById('conn').className === 'lost'"
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")


def chromium(tmp_path: Path, *args: str) -> str:
    assert CHROMIUM is not None
    r = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'chromium-profile'}", *args],
        capture_output=True, text=True, timeout=90,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def page_text(dom: str) -> str:
    """The text a reader sees: the DOM without the page's style and scripts."""
    import html
    import re

    body = dom.split("<body", 1)[1]
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@needs_browser
def test_the_browser_shows_the_board_and_a_fresh_load_the_next_step(
    night: Path, tmp_path: Path,
) -> None:
    with serving() as (_, url):
        text = page_text(chromium(tmp_path, "--dump-dom", url))
        assert "Father Ilie" in text and all(name in text for name in TROUPERS)
        assert "Threat 0 / 12" in text and "Reaction Line 0 / 5" in text
        assert "Space A: Bone Sentinel" in text and "Starting side" in text
        assert "step 2" in text and "0 Coins" in text
        assert "Step 2 Night set up: Father Ilie" in text
        assert "bone-sentinel" not in text and "aurel-i0" not in text  # words, never ids
        record_wagon("3")
        time.sleep(0.6)  # the watcher's next look (every 0.25 s)
        text = page_text(chromium(tmp_path, "--dump-dom", url))
        assert "step 3" in text and "3 Coins" in text


@needs_browser
def test_an_open_page_follows_a_step_recorded_by_another_command_within_two_seconds(
    night: Path, tmp_path: Path,
) -> None:
    with serving() as (_, url):
        page = Page(tmp_path / "profile", url)
        try:
            page.wait("document.body.dataset.step === '2'", "the page never showed the board")
            page.wait(LIVE, "the page never connected")
            record_wagon("7")
            page.wait("document.body.dataset.step === '3'", "the page did not follow", 2)
            text = page.evaluate("document.getElementById('status').textContent")
            assert "7 Coins" in text
        finally:
            page.close()


@needs_browser
def test_the_page_reloaded_after_the_server_restarts_shows_the_current_board(
    night: Path, tmp_path: Path,
) -> None:
    with serving() as (_, url):
        assert "step 2" in page_text(chromium(tmp_path, "--dump-dom", url))
    record_wagon("4")
    port = _port(url)
    with serving(port=port) as (_, again):
        text = page_text(chromium(tmp_path, "--dump-dom", again))
    assert "step 3" in text and "4 Coins" in text and "Father Ilie" in text


@needs_browser
def test_the_browser_shows_the_day_part(blood: Any, saves_dir: Path, tmp_path: Path) -> None:
    assert blood("campaign", "new", "day", "--troupers", "aurel,ioana", "--seed", "2").code == 0
    with serving() as (_, url):
        record_wagon("5")
        time.sleep(0.6)
        text = page_text(chromium(tmp_path, "--dump-dom", url))
    assert "Day Part · Show 1: Recovery" in text and "5 Coins" in text
    assert "Affordable now:" in text
    assert "Upgrade: Padded Doublet (Aurel, the Thread-Walker)" in text
    assert "Step 2 Wagon adjusted: +5 coins" in text and all(name in text for name in TROUPERS)


@needs_browser
def test_a_phone_screenshot_of_the_page(night: Path, tmp_path: Path) -> None:
    shot = tmp_path / "phone.png"
    with serving() as (_, url):
        chromium(tmp_path, "--window-size=412,915",
                 f"--screenshot={shot}", url)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (412, 915)
    if os.environ.get("BLOOD_KEEP_SCREENSHOT"):  # to look at it: BLOOD_KEEP_SCREENSHOT=DIR
        shutil.copy(shot, Path(os.environ["BLOOD_KEEP_SCREENSHOT"]) / "board-phone.png")


# ---------------------------------------------------------------------- the QR code

# A --lan URL with its token (version 4 at level M, an alignment pattern).
LAN_URL = "http://192.168.1.23:8765/?t=0123456789abcdefghijABCDEFGHIJ_-"


LIGHT = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def drawn_modules(lines: list[str]) -> list[list[bool]]:
    """The light (True) and dark modules of a QR code drawn in half blocks."""
    grid = []
    for line in lines:
        grid += [[LIGHT[c][0] for c in line], [LIGHT[c][1] for c in line]]
    return grid


def test_the_terminal_qr_code_draws_every_module() -> None:
    from blood_companion.cli.qr import encode, lines

    url = LAN_URL
    grid = drawn_modules(lines(url, quiet=2))
    m = encode(url)
    assert [[not v for v in row[2:-2]] for row in grid[2:2 + len(m)]] == m
    assert all(all(row) for row in grid[:2])  # the quiet zone is light


def test_too_long_for_a_qr_code_is_a_clear_error() -> None:
    from blood_companion.cli.qr import encode

    assert len(encode("z" * 213)) == 57  # version 10, the largest drawn: 61 columns with margins
    with pytest.raises(ValueError, match="do not fit"):
        encode("x" * 214)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg installed")
def test_a_qr_scanner_reads_the_code_printed_with_lan(night: Path, tmp_path: Path) -> None:
    import struct
    import zlib

    with serving("--lan") as (p, url):
        assert p.stdout is not None
        printed = []
        for _ in range(80):
            line = p.stdout.readline()
            if "Ctrl-C" in line:
                break
            if line.strip() and set(line.strip()) <= set(LIGHT):
                printed.append(line.rstrip("\n").removeprefix("    "))
    grid = drawn_modules(printed)
    scale, quiet = 4, 4
    n = len(grid[0]) + 2 * quiet
    rows = []
    for y in range(len(grid) + 2 * quiet):
        row = [True] * n
        if quiet <= y < len(grid) + quiet:
            row[quiet:quiet + len(grid[0])] = grid[y - quiet]
        rows += [b"\0" + bytes(255 if v else 0 for v in row for _ in range(scale))] * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    width, height = n * scale, len(rows)
    png = tmp_path / "qr.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n"
                    + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
    r = subprocess.run(["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True,
                       timeout=60)
    assert r.stdout.strip() == url


@needs_browser
def test_an_open_page_reconnects_to_a_restarted_server_and_shows_the_current_board(
    night: Path, tmp_path: Path,
) -> None:
    page: Page | None = None
    try:
        with serving() as (_, url):
            page = Page(tmp_path / "profile", url)
            page.wait(LIVE, "the page never connected")
        page.wait(LOST, "the page never noticed the server went away")
        record_wagon("6")  # while no server runs
        with serving(port=_port(url)):
            page.wait("document.body.dataset.step === '3'", "the page did not reconnect", 15)
            assert "6 Coins" in page.evaluate("document.getElementById('status').textContent")
            assert page.evaluate("document.getElementById('conn').className") == "live"
    finally:
        if page is not None:
            page.close()


def test_serve_with_json_prints_one_document_with_the_url(night: Path) -> None:
    with board_client.serving() as s:  # one line (issue 42)
        doc = s.doc
        assert doc["ok"] is True and doc["campaign"] == "table" and doc["lan"] is False
        assert doc["url"] == f"http://127.0.0.1:{doc['port']}/"
        assert get(doc["url"])[0] == 200


# ---------------------------------------------------------------------- issue 39

PHONE = (390, 844)
TACTIC = [w for _ in range(60) for w in ("--answer", "", "--answer", "all", "--answer", "1")]


def tactic_question(blood: Any) -> dict[str, Any]:
    """Play the night on to a Tactic Phase question with long options (the Active card's
    Effects, the Items, an Event: "…or skip them:"); `blood play`'s view of it."""
    for _ in range(20):
        q: dict[str, Any] = blood("play", "--json").json()
        if q["title"].endswith("Tactic Phase") and len(q["choices"]) >= 6:
            return q
        r = blood("play", "--steps", "2", *TACTIC)
        assert r.code == 0, r.err
    raise AssertionError("no Tactic Phase question with 6 options or more")


def seat_url(url: str, saves_dir: Path, trouper: str) -> str:
    """``url`` opened as ``trouper``'s seat (its token as kept in the saves folder)."""
    token = json.loads((saves_dir / ".seats" / "table.json").read_text())["seats"][trouper]
    base, _, _ = url.partition("?")
    return f"{base}?seat={token}"


def _port(url: str) -> int:
    return int(url.split(":")[2].split("/")[0])


def _local(url: str) -> str:
    """A --lan URL on this computer's own address (the same port and token)."""
    base, _, query = url.partition("?")
    return f"http://127.0.0.1:{_port(base)}/?{query}"


def test_the_served_document_carries_the_question_and_its_options(
    blood: Any, night: Path
) -> None:
    q = tactic_question(blood)
    mine = q["who"] or "aurel"
    with serving() as (_, url):
        doc = json.loads(get(seat_url(with_path(url, "board.json"), night, mine))[2])
        watched = json.loads(get(with_path(url, "board.json"))[2])["question"]
    if q["who"] is not None:  # another Trouper's question: its options are its player's
        assert watched["choices"] == [] and watched["hidden_choices"] == len(q["choices"])
    served = doc["question"]
    assert served["title"] == q["title"] and served["question"] == q["question"]
    assert served["question"].endswith("or skip them:")
    shown = [(c["key"], c["label"], c["enabled"]) for c in served["choices"]]
    assert shown == [(c["key"], c["label"], c["enabled"]) for c in q["choices"]]
    assert [c["default"] for c in served["choices"]] == [c["key"] == q["default"]
                                                        for c in q["choices"]]


def test_the_url_line_arrives_on_a_pipe_before_the_server_exits(night: Path) -> None:
    for args in ((), ("--lan",)):
        with running(*args) as p:
            got = read_until(p, lambda got: b"http://" in got, 30)
            assert b"http://" in got, (args, got)
            assert p.poll() is None  # still serving: the line was flushed at the start


def test_lan_keeps_its_tokens_per_campaign_and_new_tokens_replaces_them(
    blood: Any, night: Path
) -> None:
    kept = night / ".seats" / "table.json"
    with serving("--lan") as (_, url):
        token = url.partition("?seat=")[2]
        assert len(token) >= 32
    assert json.loads(kept.read_text())["watch"] == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # the owner's only
    with serving("--lan") as (_, again):  # a restart: the same address for every phone
        assert again.partition("?seat=")[2] == token
        assert get(_local(again))[0] == 200
    with serving("--lan", "--new-tokens") as (_, fresh):
        new = fresh.partition("?seat=")[2]
        assert new != token and len(new) >= 32
        assert get(_local(fresh).replace(new, token))[0] == 403  # the old address: refused
        assert get(_local(fresh))[0] == 200
    assert json.loads(kept.read_text())["watch"] == new
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    kept.chmod(0o644)  # made readable by others meanwhile: made private again, same token
    with serving("--lan") as (_, again):
        assert again.partition("?seat=")[2] == new
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    r = blood("board", "--new-tokens")
    assert r.code == 2 and "--new-tokens goes with --serve" in r.err
    assert blood("campaign", "delete", "table").code == 0
    assert not kept.exists()  # the secrets go with their campaign


@needs_browser
@pytest.mark.parametrize("troupers", ["aurel,ioana", "aurel,ioana,petru,zora"])
def test_a_phone_shows_the_question_and_its_options_first_and_all_within_two_screens(
    blood: Any, saves_dir: Path, tmp_path: Path, troupers: str
) -> None:
    r = blood("campaign", "new", "table", "--troupers", troupers, "--seed", "1", "--mode",
              "single", "--decks", "app")
    assert r.code == 0, r.err
    assert blood(*NIGHT).code == 0
    q = tactic_question(blood)
    mine = q["who"] or "ioana"  # the seat whose question it is (its options: its own)
    with serving() as (_, url):
        page = Page(tmp_path / "profile", seat_url(url, saves_dir, mine) + f"&trouper={mine}",
                    size=PHONE)  # a phone held upright
        try:
            page.call("Page.reload", {})
            page.wait(f"window.innerWidth === {PHONE[0]}", "not a phone's width")
            page.wait(f"document.body.dataset.step === '{q['log_length']}'", "no board")
            page.wait(f"document.body.dataset.questionStep === '{q['log_length']}'",
                      "no question")
            seen = page.evaluate("""(function () {
              var q = document.getElementById('question');
              var opts = Array.prototype.map.call(q.querySelectorAll('button.opt'), function (b) {
                return [b.getAttribute('data-key'), b.querySelector('.label').textContent,
                        b.disabled, b.getBoundingClientRect().bottom]; });
              var parts = Array.prototype.map.call(document.querySelectorAll('main > *'),
                function (e) { return e.id || e.dataset.part; });
              return {width: window.innerWidth, height: window.innerHeight,
                      question: q.querySelector('.q').textContent,
                      whose: q.querySelector('.whose').textContent,
                      bottom: q.getBoundingClientRect().bottom, options: opts, parts: parts,
                      mine: document.querySelector('[data-part="trouper-MINE"]').open,
                      page: document.documentElement.scrollHeight,
                      wide: document.documentElement.scrollWidth,
                      next: document.getElementById('next').textContent};
            })()""".replace("MINE", mine))
        finally:
            page.close()
    assert (seen["width"], seen["height"]) == PHONE
    assert seen["question"] == q["question"]
    assert seen["whose"] == "Your question"
    assert len(seen["options"]) == len(q["choices"])
    for (key, label, disabled, bottom), c in zip(seen["options"], q["choices"], strict=True):
        # the keys and labels of `blood play`; one not possible now: greyed, with its reason
        assert key == c["key"] and label.startswith(c["label"]), (key, label)
        assert disabled is not c["enabled"]
        if not c["enabled"]:
            assert label.endswith(c["why"] or "not possible now"), label
        assert bottom <= 2 * PHONE[1], (label, bottom)  # every option within two screens
    assert seen["options"][0][3] <= PHONE[1]  # the first on the first screen
    assert seen["parts"][:2] == [f"trouper-{mine}", "threat"]  # under the question: mine first
    assert seen["mine"] is True
    assert seen["wide"] <= PHONE[0]  # no sideways scrolling
    assert seen["next"] == ""  # the question says it, with its options


@needs_browser
def test_a_lan_page_open_across_a_restart_is_live_again_with_the_same_token(
    night: Path, tmp_path: Path
) -> None:
    page: Page | None = None
    try:
        with serving("--lan") as (_, url):
            page = Page(tmp_path / "profile", _local(url))
            page.wait(LIVE, "never live")
        page.wait(LOST, "never noticed")
        record_wagon("8")  # while no server runs
        with serving("--lan", port=_port(url)) as (_, again):
            assert again == url  # the same address: no new scan
            page.wait("document.body.dataset.step === '3'", "the page did not come back", 15)
            assert page.evaluate("document.getElementById('conn').className") == "live"
            assert "8 Coins" in page.evaluate("document.getElementById('status').textContent")
    finally:
        if page is not None:
            page.close()
