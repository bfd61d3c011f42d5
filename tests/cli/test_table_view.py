"""`blood table` (issue 28): Textual's own harness (``App.run_test`` and its pilot) plays a
night through the table view and it records exactly what `blood play` records with the same
answers; the panels show the board at 100×30 (side by side) and 80×24 (stacked); a terminal
too small says so; a campaign that does not exist is refused like everywhere else; a step
recorded by another `blood` command is followed."""

from __future__ import annotations

import asyncio
import html
import io
import json
import random
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.containers import VerticalScroll  # noqa: E402
from textual.widgets import Input  # noqa: E402

from blood_companion.cli.entry import main  # noqa: E402
from blood_companion.cli.table_app import TableApp  # noqa: E402

DRIVE = runpy.run_path(str(Path(__file__).resolve().parents[2] / "tools/screenshots.py"))["drive"]


def new_campaign(capsys: Any) -> None:
    code = main(["campaign", "new", "eve", "--troupers", "aurel,ioana", "--seed", "1",
                 "--decks", "app", "--json"])
    capsys.readouterr()
    assert code == 0


def answers(n: int, seed: int = 7) -> list[str]:
    """A seeded answerer: mostly Enter (the default), `all` (where only the Map answers),
    `1` (where the Leader chooses freely: no Enter default there), `y` (a position or a
    Condition only the Map shows) and `n` or `a` (the Nemesis or Minion A, an attack target
    limited by a Distance: no default there either, issue 39), with prompt commands,
    `undo`/`redo` and a wrong answer sprinkled in."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(n):
        out += ["", "all", "1", "y", "n", "a"]
        if rng.random() < 0.08:
            out.append(rng.choice(["undo", "redo", "undo 2", "help", "zzz", "cards", "list"]))
    return out


def log(capsys: Any) -> list[tuple[Any, ...]]:
    capsys.readouterr()
    assert main(["campaign", "log", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [(r["step"], r["status"], json.dumps(r["action"], sort_keys=True), r["state_hash"])
            for r in rows]


def screen_lines(svg: str) -> list[str]:
    """The screen's text, row by row, from ``App.export_screenshot``'s SVG."""
    rows: dict[int, list[tuple[float, str]]] = {}
    for x, row, body in re.findall(
            r'<text[^>]*? x="([\d.]+)"[^>]*?clip-path="url\(#[\w-]+-line-(\d+)\)"[^>]*>(.*?)'
            r"</text>", svg):
        rows.setdefault(int(row), []).append((float(x), html.unescape(body).replace("\xa0", " ")))
    return ["".join(b for _, b in sorted(rows[r])) for r in sorted(rows)]


def _seen(app: Any) -> None:  # what the tests read of the screen at the end
    app.shot = app.export_screenshot()
    app.lines = screen_lines(app.shot)
    app.scroll_room = app.query_one("#question-box").max_scroll_y
    app.classes_now = set(app.screen.classes)


def drive(app: TableApp, lines: list[str], size: tuple[int, int], **kw: Any) -> Any:
    return DRIVE(app, lines, size, _seen, **kw)  # the driver of tools/screenshots.py


def test_table_plays_a_night_recording_exactly_what_play_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    script = answers(300)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path / "play"))
    new_campaign(capsys)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in script)))
    assert main(["play"]) == 0
    played = log(capsys)

    night_end = next(r[0] for r in played if json.loads(r[2])["type"] == "end_night")

    monkeypatch.setenv("BLOOD_SAVES_DIR", str(tmp_path / "table"))
    new_campaign(capsys)  # the same answers up to the end of the first night
    app = asyncio.run(drive(TableApp("eve"), script, (100, 30), until_step=night_end))
    tabled = log(capsys)
    types = {json.loads(r[2])["type"] for r in tabled}
    assert {"day_recover", "night_play", "night_continue", "end_night"} <= types
    assert len(tabled) == night_end > 60
    assert tabled == played[:night_end]  # the same steps, actions and state hashes
    assert app.texts["log"].splitlines()[-1].startswith(f"{night_end:>4} ")


def test_the_panels_at_100x30_side_by_side_and_80x24_stacked(
    saves_dir: Path, capsys: Any
) -> None:
    new_campaign(capsys)
    app = asyncio.run(drive(TableApp("eve"), ["", "all"] * 40, (100, 30), until_step=24,
                            free_choice="1"))
    night = app.doc["night"]
    assert night is not None and night["chain"] and night["reaction_line"]
    screen = "\n".join(app.lines)  # type: ignore[attr-defined]
    assert app.scroll_room == 0  # type: ignore[attr-defined]  # the question fits: no scrolling
    assert "stacked" not in app.classes_now  # type: ignore[attr-defined]
    for text in ("Threat ", "Alerts (!) 3,6,9,12 ● token", "Chain ", "Reaction Line ",
                 f"Nemesis {night['nemesis']['name']}", "Front Wounds 0/1", "> (Enter"):
        assert text in screen, text
    first = night["chain"][0]
    assert f"{first['space']:>2} {'down' if first['face_down'] else 'up'}" in screen
    assert night["reaction_line"][0]["name"][:10] in screen
    question = app.texts["question"].splitlines()[0]
    assert question in screen
    # the board's lower panels scroll into view (test_every_option_... scrolls them)
    for text in ("1. Leader Aurel", "Vigor 6/6 Bites 0", "Insanity "):
        assert text in app.texts["troupers"], text
    assert "Minions (" in app.texts["nemesis"]
    assert app.texts["log"].splitlines()[-1].startswith(f"{app.doc['step']:>4} ")
    # each panel holds the whole of its lines
    assert "Items: Lucky Ribbon" in app.texts["troupers"]
    assert f"{night['reaction_line'][0]['name']}: " in app.texts["reaction"]
    assert night["reaction_line"][0]["text"][0] in app.texts["reaction"]

    small = asyncio.run(drive(TableApp("eve"), ["help"], (80, 24)))  # a prompt command
    assert {"stacked"} == small.classes_now - {"-dark-mode"}  # type: ignore[attr-defined]
    stacked = "\n".join(small.lines)  # type: ignore[attr-defined]
    for text in ("Threat ", "Chain ", "> (Enter"):
        assert text in stacked, text
    assert "undo [N]" in stacked  # what `help` says is brought into view (the question: above)
    assert "undo [N]" in small.texts["messages"] and "quit" in small.texts["messages"]
    assert small.doc["step"] == app.doc["step"]  # nothing recorded by `help`
    for panel in ("threat", "chain", "reaction", "nemesis", "troupers", "log"):
        assert small.texts[panel] and small.texts[panel] == app.texts[panel], panel


def test_the_day_part_shows_the_wagon_the_purchases_and_the_step(
    saves_dir: Path, capsys: Any
) -> None:
    new_campaign(capsys)
    app = asyncio.run(drive(TableApp("eve"), [""], (100, 30), until_step=2))
    assert app.doc["part"] == "day" and app.doc["night"] is None
    screen = "\n".join(app.lines)  # type: ignore[attr-defined]
    for text in ("eve · game 1 · step 2", "Day Part · Show 2-3: Purchases", "Wagon: 0 jewels",
                 "Affordable now", "nothing: the Wagon cannot pay any purchase",
                 "Reserve: empty", "Buy something, or finish buying?"):
        assert text in screen, text
    assert "$ blood" not in screen  # the prompt's keys say what to do, not shell commands


def test_a_terminal_too_small_says_so(saves_dir: Path, capsys: Any) -> None:
    new_campaign(capsys)
    app = asyncio.run(drive(TableApp("eve"), [], (50, 12)))
    screen = "\n".join(app.lines)  # type: ignore[attr-defined]
    assert "The terminal is too small (50×12)" in screen
    assert "Threat" not in screen


def test_the_view_follows_a_step_recorded_by_another_command(
    saves_dir: Path, capsys: Any
) -> None:
    new_campaign(capsys)

    async def run() -> tuple[int, int, str]:
        app = TableApp("eve")
        async with app.run_test(size=(100, 30)) as pilot:
            while not app.waiting:
                await pilot.pause(0.02)
            before = app.doc["step"]
            code = await asyncio.to_thread(main, ["day", "recover"])  # another command
            for _ in range(200):
                await pilot.pause(0.02)
                if app.doc["step"] > before and app.waiting and "Recovery" not in \
                        app.texts["question"].splitlines()[0]:
                    break
            assert code == 0
            return before, app.doc["step"], app.texts["question"]

    before, after, question = asyncio.run(run())
    assert after == before + 1
    assert "Show 1: Recovery" not in question.splitlines()[0]


def test_a_campaign_that_does_not_exist_is_refused(saves_dir: Path, capsys: Any) -> None:
    assert main(["--campaign", "nope", "table"]) == 1
    err = capsys.readouterr().err
    assert "no campaign 'nope'" in err


def test_without_a_terminal_table_is_refused_and_ends(saves_dir: Path) -> None:
    # a pipe (a script, the fuzz test) has no screen: the view must not wait forever on it
    made = subprocess.run([sys.executable, "-m", "blood_companion", "--saves-dir", str(saves_dir),
                           "campaign", "new", "piped", "--troupers", "aurel,ioana", "--seed", "1",
                           "--decks", "app"], capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    run = subprocess.run([sys.executable, "-m", "blood_companion", "--saves-dir", str(saves_dir),
                          "table"], capture_output=True, text=True, check=False, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 2
    assert "needs a terminal" in run.stderr and "blood play" in run.stderr


def test_other_commands_do_not_import_textual() -> None:
    code = ("import sys; from blood_companion.cli.entry import main; "
            "[main(a) for a in (['--help'], ['rules', 'Chain'], ['roll', '2R'], "
            "['odds', '2R', '--target', '1'], ['status'])]; "
            "print(any(m.startswith('textual') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False).stdout
    assert out.strip().splitlines()[-1] == "False"


# --------------------------------------------------------------------------- issue 39
# Mid-night questions with 12+ options: the players hold the decks (`--decks table`), so the
# card Aurel plays from his hidden hand is asked among the 12 his deck can hold, and an Alert
# asks which of the 12 Reaction cards came up.

TO_PLANNING = ["1", "z", "1", "c", "1", "t", "1 2", "n", "t", "1", "1", "t", "1", "1", "1", "1",
               *["ok"] * 8, "1", *["ok"] * 5, "1", "r", "r"]  # Day, Dusk, the first Bites
CHAR = 12.2  # the width of one cell in Textual's SVG screenshot (rich's export_svg)


def table_campaign(capsys: Any) -> None:
    """A `--decks table` campaign in the first night's Planning Phase (step 15)."""
    code = main(["campaign", "new", "eve", "--troupers", "aurel,ioana", "--seed", "1",
                 "--decks", "table", "--json"])
    assert code == 0
    answers = [w for a in TO_PLANNING for w in ("--answer", a)]
    capsys.readouterr()
    assert main(["play", *answers, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["log_length"] == 15 and "plays a Tactic card or Rests" in doc["question"]


def grid(svg: str, width: int) -> list[str]:
    """The screen as rows of exactly ``width`` cells (each text placed at its column)."""
    rows: dict[int, list[str]] = {}
    for x, row, body in re.findall(
            r'<text[^>]*? x="([\d.]+)"[^>]*?clip-path="url\(#[\w-]+-line-(\d+)\)"[^>]*>(.*?)'
            r"</text>", svg):
        cells = rows.setdefault(int(row), [" "] * width)
        text = html.unescape(body).replace("\xa0", " ")
        col = round(float(x) / CHAR)
        cells[col:col + len(text)] = list(text)
    return ["".join(rows.get(r, [" "] * width))[:width] for r in range(max(rows) + 1)]


def region_text(app: TableApp, widget: str) -> list[str]:
    """The lines of the screen inside one widget's region, as drawn now."""
    r = app.query_one(widget).region
    lines = grid(app.export_screenshot(), app.size.width)
    return [ln[r.x:r.x + r.width].rstrip() for ln in lines[r.y:r.y + r.height]]


async def until_waiting(app: TableApp, pilot: Any) -> None:
    for _ in range(500):
        if app.waiting:
            break
        await pilot.pause(0.01)
    await pilot.pause(0.1)


async def answer(app: TableApp, pilot: Any, line: str) -> None:
    await until_waiting(app, pilot)
    app.waiting = False
    app.query_one("#answer", Input).value = line
    await pilot.press("enter")
    await until_waiting(app, pilot)


async def read_scrolling(app: TableApp, pilot: Any, widget: str, keys: str = "") -> list[str]:
    """Every line of a panel, as seen on screen from its top to its end, scrolled a page at a
    time by ``keys`` (PageDown: as the players would), else by the panel itself."""
    box = app.query_one(widget, VerticalScroll)
    box.scroll_home(animate=False)
    await pilot.pause(0.05)
    seen = region_text(app, widget)
    for _ in range(40):
        if box.scroll_y >= box.max_scroll_y:
            break
        if keys:
            await pilot.press(keys)
        else:
            box.scroll_page_down(animate=False)
        await pilot.pause(0.05)
        seen += region_text(app, widget)
    return seen


def option_lines(app: TableApp) -> list[tuple[str, str]]:
    """The question's options (key, label) as `blood play` prints them."""
    out = []
    for line in app.texts["question"].splitlines():
        m = re.match(r"\s+(\w+)\. (.+?)( \*)?$", line)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


SIZES = [(80, 24), (100, 30), (160, 45)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_option_of_a_mid_night_question_is_on_screen_or_a_page_down_away(
    saves_dir: Path, capsys: Any, size: tuple[int, int]
) -> None:
    table_campaign(capsys)

    async def run() -> dict[str, Any]:
        app = TableApp("eve")
        got: dict[str, Any] = {}
        async with app.run_test(size=size) as pilot:
            await answer(app, pilot, "1")  # play a card: which one (12 it can be)?
            got["hand"] = (option_lines(app), await read_scrolling(app, pilot, "#question-box",
                                                                    "pagedown"))
            got["first_screen"] = region_text(app, "#question-box")
            got["rows"] = (app.query_one("#question-box").region.height,
                           app.query_one("#board").region.height)
            await answer(app, pilot, "7")  # Knife Volley: recorded; then Ioana's turn
            got["told"] = app.texts["told"]
            await answer(app, pilot, "1")
            await answer(app, pilot, "1")  # her card brings the Threat to an Alert space
            got["alert"] = (option_lines(app), await read_scrolling(app, pilot,
                                                                     "#question-box"))
            got["board"] = await read_scrolling(app, pilot, "#board", "ctrl+pagedown")
            got["screen"] = grid(app.export_screenshot(), size[0])
            got["step"] = app.doc["step"]
        return got

    got = asyncio.run(run())
    assert got["step"] == 16
    for name in ("hand", "alert"):
        options, seen = got[name]
        assert len(options) >= 12, name
        text = "\n".join(seen)
        flat = " ".join(" ".join(seen).split())
        for key, label in options:
            # the key on screen, and its whole label after it (wrapped under itself if long)
            assert re.search(rf"(^|\s){re.escape(key)}\. ", text), (name, key)
            assert f"{key}. {label}" in flat, (name, key, label)
    assert "Which card does Aurel" in " ".join(" ".join(got["first_screen"]).split())
    assert "At the table:" in got["told"] and "Knife Volley" in got["told"]
    # the board is all there too, scrolled in its own panel
    board = " ".join(" ".join(got["board"]).split())
    for text in ("Threat ", "Chain ", "Reaction Line ", "Nemesis Lucilla", "Minions (",
                 "1. Leader Aurel", "2. Ioana", "Items: ", "Log"):
        assert text in board, text
    if size != (80, 24):
        assert "…" not in "\n".join(got["screen"])  # nothing cut, options or panels
    else:  # stacked: the board gives up its room first, down to a few lines
        question_rows, board_rows = got["rows"]
        assert question_rows >= 16 and 3 <= board_rows <= 24 - 1 - question_rows


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
def test_help_status_and_why_answer_in_the_question_panel(
    saves_dir: Path, capsys: Any, size: tuple[int, int]
) -> None:
    table_campaign(capsys)

    async def run() -> dict[str, Any]:
        app = TableApp("eve")
        got: dict[str, Any] = {}
        async with app.run_test(size=size) as pilot:
            for word in ("help", "status", "why", "list"):
                await answer(app, pilot, word)
                await pilot.pause(0.2)
                got[word] = " ".join(" ".join(region_text(app, "#question-box")).split())
                got[word + " all"] = " ".join(" ".join(
                    await read_scrolling(app, pilot, "#question-box")).split())
                got[word + " said"] = app.texts["messages"]
            got["step"] = app.doc["step"]
        return got

    got = asyncio.run(run())
    assert "undo [N]" in got["help"] and "take back the last step" in got["help"]
    assert "quit" in got["help all"]
    assert "Defense Physical 4-0 = 4" in got["status"]  # the whole board, in the panel
    assert "Troupers" in got["status all"] and "Aurel, the Thread-Walker" in got["status all"]
    # `why` shows the decision trace `blood play` shows (cli/view_docs.py why_doc)
    from blood_companion.cli.view_docs import why_doc
    from blood_companion.content.loader import load_catalog
    from blood_companion.store.campaign_store import CampaignStore

    with CampaignStore.open(saves_dir, "eve", load_catalog()) as store:
        traced = why_doc(store)
    assert traced["lines"] and " ".join(traced["lines"][0].split())[:40] in got["why all"]
    if traced["step"] is not None:
        assert f"Why: step {traced['step']}" in got["why all"]
    assert "plays a Tactic card or Rests" in got["why all"]  # the question is still there
    assert "r. Rest (a card face down" in got["list said"]  # every choice, under the question
    assert "plays a Tactic card or Rests" in got["list all"]
    assert got["step"] == 15  # nothing recorded
