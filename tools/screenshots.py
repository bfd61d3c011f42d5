"""Write the README's screenshots: docs/images/table.svg, seat-phone.png, seat-phone-waiting.png,
board-phone.png, board-tablet.png.

A seeded demo campaign (Aurel and Ioana, seed 1, the app holding the decks) is made in a
temporary saves folder and played through `blood table` itself, with Textual's test harness
answering the default at every question, into the first night's Tactic Phase (a few cards on
the Chain, the Reaction Line out). Then:

* the table view is drawn at 110×32 and saved as Textual's SVG screenshot;
* `blood board --serve --port 0 --json` serves that save (a seat per Trouper), and Debian's
  headless ``chromium`` takes the phone of the seat whose question it is, held upright (390×844:
  the question and its buttons; and 390×1688, two screens of the whole page), the phone of
  another seat waiting for it (390×844), and the watch view on a tablet on its side
  (1180×820); then the server stops. Each page is served with its board and question inlined,
  so ``--screenshot`` needs no script to finish first.

Run from anywhere (needs the `test` extra's Textual and a ``chromium`` on the PATH):

    python tools/screenshots.py              # rewrite the three images
    python tools/screenshots.py --step 24    # stop at another step of the demo night

"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
TABLE_SIZE = (110, 32)
PHONE = (390, 1688)  # two screens of a phone held upright (its parts folded)
SEAT_PHONE = (390, 844)  # one screen of a phone held upright: a seat's question and buttons
TABLET = (1180, 820)
CAMPAIGN = "demo"


def blood_exe() -> list[str]:
    script = Path(sys.executable).with_name("blood")
    if script.exists():
        return [str(script)]
    found = shutil.which("blood")
    return [found] if found else [sys.executable, "-m", "blood_companion"]


def new_campaign() -> None:
    from blood_companion.cli.entry import main

    with contextlib.redirect_stdout(io.StringIO()):  # the Setup checklist: not wanted here
        code = main(["campaign", "new", CAMPAIGN, "--troupers", "aurel,ioana", "--seed", "1",
                     "--decks", "app"])
    if code != 0:
        sys.exit(f"blood campaign new failed ({code})")


async def drive(app: Any, lines: list[str], size: tuple[int, int], seen: Callable[[Any], Any],
                until_step: int = 0, free_choice: str = "") -> Any:
    """Type each line into the table view's Input (Textual's harness) once the loop waits for
    it, up to ``until_step`` (with ``free_choice``, an Enter at a Leader's free choice, which
    has no default, types that instead); then ``seen(app)`` while it runs. Also the driver of
    tests/cli/test_table_view.py."""
    async with app.run_test(size=size) as pilot:
        for line in lines:
            for _ in range(500):
                if app.waiting or not app.is_running:
                    break
                await pilot.pause(0.01)
            if not app.is_running or (until_step and app.doc.get("step", 0) >= until_step):
                break
            if free_choice and not line and "A free choice" in app.texts.get("question", ""):
                line = free_choice
            app.query_one("#answer").value = line
            await pilot.press("enter")
        for _ in range(200):
            if app.waiting:
                break
            await pilot.pause(0.01)
        await pilot.pause(0.3)  # the watcher's last look
        seen(app)
    return app


async def table_shot(step: int) -> tuple[str, dict]:
    """Play the demo through the table view up to `step`; its screen (SVG) and board doc."""
    from blood_companion.cli.table_app import TableApp

    # Enter (the default); `all` where the Map asks; where a target has no default (the Map
    # says, issue 26), the Nemesis (`n`), else the first Minion (`a`)
    shots: list[str] = []
    app = await drive(TableApp(CAMPAIGN), ["", "all", "n", "a"] * 200, TABLE_SIZE,
                      until_step=step,
                      seen=lambda a: shots.append(a.export_screenshot(title="blood table")),
                      free_choice="1")  # a Leader's free choice (a tie): the first one
    return shots[0], app.doc


def _sigint_as_usual() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def board_shots(chromium: str, work: Path) -> list[Path]:
    """Serve the save, photograph its pages, stop the server: the phone of the seat whose
    question it is (390×844, its buttons; and two screens, the whole page), a phone waiting
    for that seat, and the watch view on a tablet on its side (1180×820)."""
    server = subprocess.Popen(
        [*blood_exe(), "board", "--serve", "--port", "0", "--json"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "NO_COLOR": "1"},
        preexec_fn=_sigint_as_usual,
    )
    written: list[Path] = []
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        try:
            urls = json.loads(line)
        except ValueError:
            sys.exit("blood board --serve printed no address: "
                     + (server.stderr.read() if server.stderr else ""))
        seats = urls["seats"]
        first = next(iter(seats.values()))
        base, _, query = first.partition("?")
        with urllib.request.urlopen(f"{base.rstrip('/')}/api/question?{query}",
                                    timeout=60) as r:
            question = json.loads(r.read())
        asked = question.get("whose") or ("ioana" if "ioana" in seats else next(iter(seats)))
        waiting = next(t for t in seats if t != asked)
        print(f"step {question.get('step')}: {asked}'s phone asked "
              f"({question.get('question', '')[:60]}…), {waiting}'s waiting")
        for name, (width, height), page in (
            ("seat-phone.png", SEAT_PHONE, seats[asked]),
            ("seat-phone-waiting.png", SEAT_PHONE, seats[waiting]),
            ("board-phone.png", PHONE, seats[asked]),
            ("board-tablet.png", TABLET, urls["watch"]),
        ):
            out = IMAGES / name
            r2 = subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 f"--user-data-dir={work / 'chromium-profile'}",
                 f"--window-size={width},{height}", f"--screenshot={out}", page],
                capture_output=True, text=True, timeout=90,
            )
            if r2.returncode != 0 or not out.exists():
                sys.exit(f"chromium failed: {r2.stderr[-2000:]}")
            written.append(out)
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl-C, as at the table
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        for f in (server.stdout, server.stderr):
            if f is not None:
                f.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=37,
                        help="the demo's step to photograph (default 37: the Tactic Phase, "
                        "three Chain cards resolved)")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("no chromium on the PATH (Debian: apt-get install chromium)")
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="blood-shots-") as tmp:
        work = Path(tmp)
        os.environ["BLOOD_SAVES_DIR"] = str(work / "saves")
        os.environ["COLUMNS"] = str(TABLE_SIZE[0])
        new_campaign()
        svg, doc = asyncio.run(table_shot(args.step))
        night = doc.get("night") or {}
        print(f"step {doc.get('step')}: {len(night.get('chain', []))} on the Chain, "
              f"{len(night.get('reaction_line', []))} on the Reaction Line")
        (IMAGES / "table.svg").write_text(svg, encoding="utf-8")
        board_shots(chromium, work)
    for name in ("table.svg", "seat-phone.png", "seat-phone-waiting.png", "board-phone.png",
                 "board-tablet.png"):
        path = IMAGES / name
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
