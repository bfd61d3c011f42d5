"""How fast a phone's answer reaches every phone at the table (issue 42), against `blood play
--answer` recording the same answer, measured side by side in one run.

Sets up a campaign of four Troupers in its first night in a temporary saves folder, starts
`blood board --serve --json` on 127.0.0.1 and opens one event stream (GET /events) per seat.
Each round, one seat answers the table's question (POST /api/answer, "n": none of them near
the Nemesis); timed:

    latency   from sending the POST to the step's event arriving on all four streams
    cpu       the server process's CPU time (every thread: /proc/PID/task/*/schedstat) from
              before the POST to the last stream's event: what one recorded answer costs it,
              the four streams' documents included

then the Leader's seat undoes it (not timed), so every round answers the same question. The
yardstick, in the same run, alternating with the rounds: the same answer recorded by `blood
play --answer n` (a whole process: its wall time and its CPU), then undone by `blood campaign
undo` (not timed).

Targets (issue 42): latency p95 at most 100 ms; the server's CPU per recorded answer, median,
at most 20 ms. Printed with their ratio to the yardstick. Linux only (/proc).

Usage: python bench/board.py [--rounds N] [--check]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

# The other yardstick: a bare Starlette app served by uvicorn in its own process (the framework
# and nothing of ours), whose POST /answer pushes a small event to every open GET /events
# stream: the round trip our server cannot go below.
ECHO_APP = r"""
import asyncio, json, socket, sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route
step = 0
changed = asyncio.Event()
async def events(request):
    async def gen():
        global changed
        seen = -1
        while True:
            if seen != step:
                seen = step
                yield f"id: {step}\ndata: {json.dumps({'step': step, 'board': {}})}\n\n".encode()
            ev = changed
            await ev.wait()
    return StreamingResponse(gen(), media_type="text/event-stream")
async def answer(request):
    global step, changed
    body = await request.json()
    step += 1
    ev, changed = changed, asyncio.Event()
    ev.set()
    return JSONResponse({"ok": True, "step": step, "recorded": 1, "seat": body.get("seat")})
app = Starlette(routes=[Route("/events", events), Route("/answer", answer, methods=["POST"])])
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(128)
print(sock.getsockname()[1], flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)).run(sockets=[sock])
"""

NIGHT = ["night", "setup", "--nemesis", "ilie", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]


def blood_command() -> list[str]:
    script = Path(sys.executable).with_name("blood")
    return [str(script)] if script.exists() else [sys.executable, "-m", "blood_companion"]


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    r = subprocess.run([*blood_command(), *args], capture_output=True, text=True, env=env,
                       timeout=300)
    if r.returncode != 0:
        raise SystemExit(f"blood {' '.join(args)} failed: {r.stderr}")
    return r


def process_cpu(pid: int) -> float:
    """Seconds of CPU every thread of ``pid`` has run (nanosecond counters of the scheduler)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Stream(threading.Thread):
    """One seat's event stream; the time each step's event arrived."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.conn.request("GET", f"/events?seat={token}")
        self.resp = self.conn.getresponse()
        self.arrived: dict[tuple[int, str], float] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        data: list[str] = []
        try:
            while True:
                raw = self.resp.readline()
                if not raw:
                    return
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("data:"):
                    data.append(line[5:].lstrip())
                elif line == "" and data:
                    doc = json.loads("\n".join(data))
                    data = []
                    key = (doc["step"], doc["board"].get("state_hash", ""))
                    with self.cond:
                        self.arrived[key] = time.perf_counter()
                        self.cond.notify_all()
        except OSError:
            return

    def wait_for(self, key: tuple[int, str], timeout: float = 30) -> float:
        with self.cond:
            self.cond.wait_for(lambda: key in self.arrived, timeout)
            return self.arrived.pop(key)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="blood-bench-board-") as tmp:
        env = {**os.environ, "BLOOD_SAVES_DIR": str(Path(tmp) / "saves"), "NO_COLOR": "1",
               "BLOOD_BOARD_RATE": "1000"}
        env.pop("BLOOD_CAMPAIGN", None)
        run(env, "campaign", "new", "bench", "--troupers", "aurel,ioana,petru,zora", "--seed",
            "1", "--mode", "single", "--decks", "app")
        run(env, *NIGHT)
        proc = subprocess.Popen([*blood_command(), "board", "--serve", "--port", "0", "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        try:
            assert proc.stdout is not None
            doc = json.loads(proc.stdout.readline())
            return measure(env, proc.pid, doc, args.rounds, args.check)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def echo_round_trips(rounds: int) -> tuple[list[float], list[float]]:
    """The bare Starlette app's round trips: latency to four streams, and its CPU."""
    proc = subprocess.Popen([sys.executable, "-c", ECHO_APP], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        streams = [Stream(port, str(i)) for i in range(4)]
        for st in streams:
            st.start()
        time.sleep(0.5)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        latency, cpu = [], []
        for n in range(rounds + 2):
            c0, t0 = process_cpu(proc.pid), time.perf_counter()
            conn.request("POST", "/answer", body=json.dumps({"seat": "x", "lines": ["n"]}),
                         headers={"Content-Type": "application/json"})
            reply = json.loads(conn.getresponse().read())
            last = max(st.wait_for((reply["step"], "")) for st in streams)
            c1 = process_cpu(proc.pid)
            if n >= 2:
                latency.append(last - t0)
                cpu.append(c1 - c0)
        return latency, cpu
    finally:
        proc.kill()  # (its streams open: no graceful end to wait for)
        proc.wait(timeout=30)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def measure(env: dict[str, str], pid: int, doc: dict[str, Any], rounds: int,
            check: bool) -> int:
    port = int(urllib.parse.urlsplit(doc["url"]).port or 0)
    tokens = {t: urllib.parse.parse_qs(urllib.parse.urlsplit(u).query)["seat"][0]
              for t, u in doc["seats"].items()}
    streams = [Stream(port, tok) for tok in tokens.values()]
    for s in streams:
        s.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        try:
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError):
            conn.close()  # the server closed the idle connection (keep-alive 5 s): again
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
        out: dict[str, Any] = json.loads(r.read())
        return out

    leader, seats = tokens["aurel"], list(tokens.values())
    latency, cpu, play_wall, play_cpu = [], [], [], []
    time.sleep(1.0)  # the streams' first events
    for s in streams:
        s.arrived.clear()
    for n in range(rounds + 2):  # the first two warm up (not counted)
        q = call("GET", f"/api/question?seat={leader}")
        seat = seats[n % 4]
        c0, t0 = process_cpu(pid), time.perf_counter()
        reply = call("POST", "/api/answer", {"seat": seat, "step": q["step"],
                                             "question_id": q["question_id"], "lines": ["n"]})
        assert reply.get("recorded") == 1, reply
        key = (reply["step"], reply["question"]["state_hash"])
        last = max(s.wait_for(key) for s in streams)
        c1 = process_cpu(pid)
        if n >= 2:
            latency.append(last - t0)
            cpu.append(c1 - c0)
        undo = call("POST", "/api/answer", {"seat": leader, "step": reply["step"],
                                            "question_id": reply["question"]["question_id"],
                                            "lines": ["undo"]})
        assert undo.get("ok"), undo
        back = (undo["step"], undo["question"]["state_hash"])
        for s in streams:
            s.wait_for(back)
        # the yardstick: the same answer through `blood play --answer`, then undone
        if n >= 2 and n % 2 == 0:
            w0, k0 = time.perf_counter(), children_cpu()
            run(env, "play", "--answer", "n", "--steps", "1")
            play_wall.append(time.perf_counter() - w0)
            play_cpu.append(children_cpu() - k0)
            run(env, "campaign", "undo")
            for s in streams:  # back where the round started; what came between passes
                s.wait_for((q["step"], q["state_hash"]))
                with s.cond:
                    s.arrived.clear()
    echo_latency, echo_cpu = echo_round_trips(rounds)
    ours_p95, med_cpu = p95(latency), statistics.median(cpu)
    yard_wall, yard_cpu = statistics.median(play_wall), statistics.median(play_cpu)
    e_p95, e_cpu = p95(echo_latency), statistics.median(echo_cpu)
    print(f"{len(latency)} answers from a phone, four event streams open (127.0.0.1)")
    print(f"{'':36}{'ours':>9}{'target':>8}{'bare Starlette':>16}{'blood play --answer':>21}")
    rows = [
        ("POST -> event on all 4 streams, p95", ours_p95, 100, e_p95, yard_wall),
        ("  the same, median", statistics.median(latency), None,
         statistics.median(echo_latency), yard_wall),
        ("server CPU per answer, median", med_cpu, 20, e_cpu, yard_cpu),
    ]
    for label, ours, target, echo, yard in rows:
        print(f"{label:36}{ours * 1000:7.1f}ms{target if target else '':>8}"
              f"{echo * 1000:8.1f}ms {ours / echo:4.1f}x{yard * 1000:11.0f}ms {ours / yard:5.3f}x")
    print("(bare Starlette: the same round trip through an app doing nothing; blood play "
          "--answer: a whole process, wall time or CPU)")
    p95_ours = ours_p95
    missed = p95_ours > 0.100 or med_cpu > 0.020
    return 1 if check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
