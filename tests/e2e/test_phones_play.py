"""Every phone at the table plays (issue 42, Proof): four headless chromium pages, one per
seat of a four-Trouper campaign, play a night by tapping the page's buttons; the log and the
state hashes equal those of the same answers typed into `blood play --answer` on a copy made
the same way. Also: a page shows who answered first (409), the watch page has no buttons, undo
and redo sit on the Leader's page only.

The pages are driven through the DevTools protocol (tests/browser.py); skipped only where no
chromium is installed (`.ci/run` installs it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, Page
from tests.cli.board_client import running
from tests.cli.conftest import blood_exe

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")]

TROUPERS = ("aurel", "ioana", "petru", "zora")
NIGHT = ["night", "setup", "--nemesis", "ilie", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]
PHONE = (390, 844)
RECORD = 30  # steps recorded from the phones


def _env(saves: Path) -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "BLOOD_SAVES_DIR": str(saves)}


def run(saves: Path, *args: str) -> str:
    r = subprocess.run([*blood_exe(), *args], capture_output=True, text=True, env=_env(saves),
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def new_night(saves: Path) -> None:
    """A four-Trouper campaign (seed 1, the app's decks) in its first night."""
    run(saves, "campaign", "new", "night", "--troupers", ",".join(TROUPERS), "--seed", "1",
        "--mode", "single", "--decks", "app")
    run(saves, *NIGHT)


def log_of(saves: Path) -> list[dict[str, Any]]:
    """`blood campaign log --json`, each step without the time it was recorded at."""
    out = run(saves, "campaign", "log", "--json")
    steps = [json.loads(line) for line in out.splitlines() if line.strip()]
    for s in steps:
        s.pop("recorded", None)
    return steps


@contextlib.contextmanager
def serving(saves: Path, port: int = 0) -> Iterator[dict[str, Any]]:
    """`blood board --serve --port PORT --json` in its own process; yields the line it
    printed."""
    with running("--json", port=port, extra_env={"BLOOD_SAVES_DIR": str(saves)}) as p:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line, p.stderr.read() if p.stderr else ""
        yield json.loads(line)


def question(url: str) -> dict[str, Any]:
    """GET /api/question for the seat of ``url``."""
    base, _, query = url.partition("?")
    with urllib.request.urlopen(base.rstrip("/") + "/api/question?" + query, timeout=30) as r:
        doc: dict[str, Any] = json.loads(r.read())
    return doc


@contextlib.contextmanager
def pages(tmp_path: Path, urls: dict[str, str]) -> Iterator[dict[str, Page]]:
    opened: dict[str, Page] = {}
    try:
        for who, url in urls.items():
            opened[who] = Page(tmp_path / f"profile-{who}", url, size=PHONE)
        for who, page in opened.items():
            page.wait("document.body && document.body.dataset.step", f"{who}: no board")
            page.wait("document.getElementById('conn').className === 'live'",
                      f"{who}: never live")
        yield opened
    finally:
        for page in opened.values():
            page.close()


SHOWN = """(function () {
  var q = document.getElementById('question');
  if (!q) return null;
  function keys(sel) { return Array.prototype.map.call(q.querySelectorAll(sel),
    function (b) { return b.getAttribute('data-key'); }); }
  var d = q.querySelector('button.opt.default:not(:disabled)');
  return {text: q.innerText, enabled: keys('button.opt:not(:disabled)'),
          dflt: d ? d.getAttribute('data-key') : null, enter: !!q.querySelector('#default'),
          confirm: !!q.querySelector('#confirm'), depth: document.body.dataset.depth,
          free: q.querySelector('#free') ? q.querySelector('#free').placeholder : null};
})()"""


def tap_answer(page: Page, step: int, dice: list[str]) -> list[str]:
    """Answer the question on ``page`` (at ``step``) by tapping, follow-ups and all, as a
    player would who takes the default where there is one; the lines the taps typed."""
    lines: list[str] = []
    picked_several = False
    for _ in range(12):
        seen = page.evaluate(SHOWN)
        assert seen is not None, "no question on the page"
        typed = re.search(r'e\.g\. "([^"]+)"', seen["free"] or "")
        if typed and "dice" in seen["free"]:  # dice of the table's own, typed in
            line = typed.group(1)
            page.type_into("#free", line)
            page.click("#question form.free button")
            dice.append(line)
        elif seen["dflt"]:
            line = seen["dflt"]
            page.click(f'#question button.opt[data-key="{line}"]')
        elif seen["enter"]:
            line = ""
            page.click("#default")
        elif seen["confirm"]:  # several at once: the first two
            chosen = seen["enabled"][:2]
            for key in chosen:
                page.click(f'#question button.opt[data-key="{key}"]')
            line = " ".join(chosen) or "none"
            page.click("#confirm")
        elif "s" in seen["enabled"] and not picked_several:  # "several of them": name them
            line, picked_several = "s", True
            page.click('#question button.opt[data-key="s"]')
        else:
            line = seen["enabled"][0]
            page.click(f'#question button.opt[data-key="{line}"]')
        lines.append(line)
        done = page.wait(f"""(function () {{
            if (document.body.dataset.questionStep !== "{step}") return "recorded";
            if (document.body.dataset.busy) return "";
            var q = document.getElementById('question');
            if (document.body.dataset.depth !== {json.dumps(seen["depth"])} ||
                (q && q.innerText !== {json.dumps(seen["text"])})) return "follow-up";
            return ""; }})()""", f"the page never moved on after {lines}", timeout=60)
        if done == "recorded":
            return lines
    raise AssertionError(f"no step recorded after {lines}")


def test_four_phones_play_a_night_as_blood_play_does(tmp_path: Path) -> None:
    served, typed = tmp_path / "served", tmp_path / "typed"
    new_night(served)
    new_night(typed)
    lines: list[str] = []
    answered: dict[str, int] = {}
    dice: list[str] = []  # dice typed in (free text) instead of the app's
    own: set[str] = set()  # the Troupers who answered a question of their own
    table: set[str] = set()  # the phones that answered a question of the table's
    with serving(served) as doc, pages(tmp_path, doc["seats"]) as phones:
        turn = 0
        for _ in range(RECORD):
            q = question(doc["seats"]["aurel"])
            if q.get("end"):
                break
            whose = q["whose"]
            if whose is not None:
                own.add(whose)
            else:  # the table's question: each phone in turn
                whose = TROUPERS[turn % len(TROUPERS)]
                turn += 1
                table.add(whose)
            page = phones[whose]
            page.wait(f"document.body.dataset.questionStep === '{q['step']}'",
                      f"{whose}'s page never showed step {q['step']}")
            assert page.evaluate("document.querySelectorAll('#question button.opt').length")
            for other, p in phones.items():  # another's question: named, no buttons
                if q["whose"] is not None and other != q["whose"]:
                    p.wait(f"document.body.dataset.questionStep === '{q['step']}'",
                           f"{other} not live")
                    assert p.evaluate("document.querySelectorAll('#question button.opt').length"
                                      ) == 0
            lines += tap_answer(page, q["step"], dice)
            answered[whose] = answered.get(whose, 0) + 1
        final = question(doc["seats"]["aurel"])
    assert sum(answered.values()) == RECORD
    assert own == set(TROUPERS) and len(table) >= 2, (own, table)  # every phone played
    assert dice  # dice of the table's own typed on a phone, as well as the app's
    run(typed, "play", *[a for line in lines for a in ("--answer", line)])
    assert log_of(served) == log_of(typed)
    ours = json.loads(run(typed, "play", "--json"))
    assert ours["log_length"] == final["step"] and ours["state_hash"] == final["state_hash"]


def test_a_page_shows_who_answered_first_and_the_new_question(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    new_night(saves)
    with serving(saves) as doc, pages(tmp_path, {"ioana": doc["seats"]["ioana"]}) as phones:
        page = phones["ioana"]
        q = question(doc["seats"]["aurel"])
        assert q["whose"] is None and "n" in [c["key"] for c in q["choices"]]  # the table's
        page.wait(f"document.body.dataset.questionStep === '{q['step']}'", "not shown")
        # Aurel's phone answers first; Ioana taps a moment later, her page still at that step
        body = json.dumps({"seat": doc["seats"]["aurel"].split("seat=")[1], "step": q["step"],
                           "question_id": q["question_id"], "lines": ["n"], "tap": "first"})
        result = page.evaluate(f"""(function () {{
            var x = new XMLHttpRequest();
            x.open("POST", "/api/answer", false);
            x.setRequestHeader("Content-Type", "application/json");
            x.send({json.dumps(body)});
            document.querySelector('#question button.opt[data-key="a"]').click();
            return x.status; }})()""")
        assert result == 200
        text = page.wait("""(function () {
            var n = document.querySelector('#question .notice');
            return n && n.textContent.indexOf('Already answered by') === 0 && n.textContent;
          })()""", "no 'Already answered by'")
        assert text == "Already answered by Aurel, the Thread-Walker."
        page.wait(f"document.body.dataset.questionStep === '{q['step'] + 1}'",
                  "the new question is not shown")
    log = log_of(saves)
    assert len(log) == q["step"] + 1  # Aurel's answer only: Ioana's tap was refused


def test_the_watch_page_has_no_buttons_and_undo_is_the_leaders_tap(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    new_night(saves)
    with serving(saves) as doc, pages(tmp_path, {"watch": doc["watch"],
                                                 "aurel": doc["seats"]["aurel"],
                                                 "zora": doc["seats"]["zora"]}) as phones:
        watch = phones["watch"]
        assert watch.evaluate("document.querySelectorAll('button').length") == 0
        assert "Father Ilie" in watch.evaluate("document.body.innerText")
        assert watch.evaluate("document.getElementById('panel').hidden") is True
        aurel, zora = phones["aurel"], phones["zora"]
        assert aurel.evaluate("!!document.getElementById('undo')") is True  # the Leader
        assert zora.evaluate("!!document.getElementById('undo')") is False
        width = zora.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE[0]  # no sideways scrolling on a phone
        q = question(doc["seats"]["aurel"])  # the table's: Aurel answers, then takes it back
        aurel.click('#question button.opt[data-key="n"]')
        aurel.wait(f"document.body.dataset.questionStep === '{q['step'] + 1}'", "no answer")
        zora.wait(f"document.body.dataset.questionStep === '{q['step'] + 1}'", "zora not live")
        aurel.wait("!document.body.dataset.busy", "busy")
        aurel.click("#undo")
        said = aurel.wait("""(function () { var n = document.querySelector('#question .notice');
            return !document.body.dataset.busy && n && n.textContent; })()""", "no undo")
        assert said.startswith("Took back"), said
        assert aurel.evaluate("document.querySelector('#question .q').textContent") == \
            q["question"]  # the question again, on every page
        asked = json.dumps(q["question"])
        zora.wait(f"document.querySelector('#question .q').textContent === {asked}",
                  "zora did not follow the undo")
        tokens = [u.split("seat=")[1] for u in [doc["watch"], *doc["seats"].values()]]
        for page in phones.values():  # no token on any page (its own is in its address only)
            html = page.evaluate("document.documentElement.outerHTML")
            assert not [t for t in tokens if t in html]


BANNER = """(function () { var b = document.getElementById('error');
  return b.offsetParent !== null ? b.textContent : ''; })()"""


def test_a_page_says_when_the_laptop_cannot_be_reached_and_comes_back_by_itself(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    new_night(saves)
    page: Page | None = None
    try:
        with serving(saves) as doc:
            page = Page(tmp_path / "profile", doc["seats"]["zora"], size=PHONE)
            page.wait("document.getElementById('conn').className === 'live'", "never live")
            assert page.evaluate(BANNER) == ""
            step = int(page.evaluate("document.body.dataset.questionStep"))
        # the server stops (the laptop closed, the phone out of the network's reach)
        assert page.wait(BANNER, "no banner") == "Can't reach the laptop — retrying"
        run(saves, "play", "--answer", "n")  # meanwhile the laptop answers the table's question
        with serving(saves, port=doc["port"]) as again:
            assert again["seats"]["zora"] == doc["seats"]["zora"]  # the same address: no scan
            page.wait(f"document.body.dataset.questionStep === '{step + 1}'",
                      "the page did not come back by itself", timeout=20)
            page.wait(f"{BANNER} === ''", "the banner stayed")
            assert page.evaluate("document.getElementById('conn').className") == "live"
            # it came back from its last event (Last-Event-ID): it says what it missed
            said = page.wait("""(function () { var n = document.querySelector('#question .notice');
                return n && n.textContent; })()""", "nothing said of the missed step")
            assert said.startswith(f"While this page was away:\nStep {step + 1}:"), said
    finally:
        if page is not None:
            page.close()


def test_typed_dice_a_refused_line_and_back_on_a_phone(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    new_night(saves)
    run(saves, "play", "--answer", "s", "--answer", "1 2")  # the table's first question
    with serving(saves) as doc, pages(tmp_path, {"aurel": doc["seats"]["aurel"]}) as phones:
        page = phones["aurel"]
        q = question(doc["seats"]["aurel"])
        assert q["whose"] == "aurel" and q["default"] == "r"
        page.wait(f"document.body.dataset.questionStep === '{q['step']}'", "not shown")
        page.click('#question button.opt[data-key="r"]')
        page.wait("!!document.getElementById('free')", "no box for the dice")
        assert page.evaluate("document.body.dataset.depth") == "1"
        page.click("#back")  # back to the first question, nothing sent
        page.wait("!document.getElementById('free') && document.body.dataset.depth === '0'",
                  "Back did not go back")
        page.click('#question button.opt[data-key="r"]')
        page.wait("document.getElementById('free') && !document.body.dataset.busy", "no box")
        page.type_into("#free", "zz")
        page.click("#question form.free button")
        refused = page.wait("""(function () {
            var n = document.querySelector('#question .notice.warn');
            return !document.body.dataset.busy && n && n.textContent; })()""", "no refusal")
        assert "zz" in refused  # the walker's message, the question kept
        assert page.evaluate("document.body.dataset.questionStep") == str(q["step"])
        assert page.evaluate("!!document.getElementById('free')") is True
        hint = page.evaluate("document.getElementById('free').placeholder")
        dice = re.search(r'e\.g\. "([^"]+)"', hint)
        assert dice, hint
        page.type_into("#free", dice.group(1))
        page.click("#question form.free button")
        page.wait(f"document.body.dataset.questionStep === '{q['step'] + 1}'", "not recorded")
    log = log_of(saves)
    assert len(log) == q["step"] + 1
    assert log[-1]["action"]["dice"] == [dice.group(1)]  # the faces typed on the phone



def test_a_probable_slip_asks_take_it_anyway_on_the_phone(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    run(saves, "campaign", "new", "day", "--troupers", "aurel,ioana", "--seed", "2")
    run(saves, "campaign", "wagon", "--coins", "5")
    run(saves, "play", "--answer", "")  # Recovery: on to the purchases
    with serving(saves) as doc, pages(tmp_path, {"ioana": doc["seats"]["ioana"]}) as phones:
        page = phones["ioana"]
        q = question(doc["seats"]["ioana"])
        page.wait(f"document.body.dataset.questionStep === '{q['step']}'", "not shown")
        page.click('#question button.opt[data-key="a1"]')  # a funambulism card…
        page.wait("document.body.dataset.depth === '1' && !document.body.dataset.busy",
                  "no follow-up")
        page.click('#question button.opt[data-key="2"]')  # …for Ioana, whose deck has no use
        text = page.wait("""(function () { var q = document.getElementById('question');
            return !document.body.dataset.busy && q.innerText.indexOf('Take it anyway?') >= 0
                   && q.innerText; })()""", "no 'Take it anyway?'")
        assert "could never be swapped into it" in text
        page.click("#question .row button.plain")  # No: the follow-up again, nothing sent
        page.wait("document.body.dataset.depth === '1' && "
                  "!!document.querySelector('#question button.opt[data-key=\"2\"]')",
                  "No did not go back to the follow-up")
        assert len(log_of(saves)) == q["step"]
        page.click('#question button.opt[data-key="2"]')
        page.wait("""(function () { var q = document.getElementById('question');
            return !document.body.dataset.busy && q.innerText.indexOf('Take it anyway?') >= 0;
            })()""", "no 'Take it anyway?' again")
        page.click("#question .row button.act:not(.plain)")  # Yes, take it
        page.wait(f"document.body.dataset.questionStep === '{q['step'] + 1}'", "not recorded")
    log = log_of(saves)
    assert len(log) == q["step"] + 1
    assert "Ioana" in log[-1]["sentence"], log[-1]["sentence"]


def test_a_tap_on_a_question_taken_back_meanwhile_says_so(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    new_night(saves)
    run(saves, "play", "--answer", "n")  # the table's first question
    with serving(saves) as doc, pages(tmp_path, {"aurel": doc["seats"]["aurel"]}) as phones:
        page = phones["aurel"]
        q = question(doc["seats"]["aurel"])
        assert q["whose"] == "aurel"
        page.wait(f"document.body.dataset.questionStep === '{q['step']}'", "not shown")
        # the Leader's Undo from elsewhere lands just before Aurel's tap on his own question
        body = json.dumps({"seat": doc["seats"]["aurel"].split("seat=")[1], "step": q["step"],
                           "question_id": q["question_id"], "lines": ["undo"], "tap": "u"})
        key = next(c["key"] for c in q["choices"] if c["enabled"])
        status = page.evaluate(f"""(function () {{
            var x = new XMLHttpRequest();
            x.open("POST", "/api/answer", false);
            x.setRequestHeader("Content-Type", "application/json");
            x.send({json.dumps(body)});
            document.querySelector('#question button.opt[data-key="{key}"]').click();
            return x.status; }})()""")
        assert status == 200
        text = page.wait("""(function () { var n = document.querySelector('#question .notice');
            return !document.body.dataset.busy && n && n.textContent; })()""", "no message")
        assert text.startswith("Taken back since: the campaign is at step"), text
        now = question(doc["seats"]["aurel"])  # the table's question again, nothing recorded
        assert now["whose"] is None and now["step"] < q["step"]
        assert page.evaluate("document.body.dataset.questionStep") == str(now["step"])
        assert page.evaluate("document.querySelector('#question .q').textContent") == \
            now["question"]
