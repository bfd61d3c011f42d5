"""Issue 17 through the subcommands: who holds the decks (`campaign new --decks`, `campaign
decks`), cards named by the players (`--draw`, typo-tolerant, refused with what to draw),
card text on demand (`blood card show/hand`, `blood status --cards`) and readable logs."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import termios
import time
from pathlib import Path
from typing import Any

from tests.cli.conftest import blood_exe

RAW_ID = re.compile(r"[a-z]+-[a-z]?\d\d")


def _single(blood: Any, decks: str = "table") -> None:
    r = blood("campaign", "new", "t", "--troupers", "aurel,zora", "--mode", "single",
              "--seed", "4", "--decks", decks)
    assert r.code == 0, r.err


def test_who_holds_the_decks_is_asked_and_changed_later(blood: Any, saves_dir: Path) -> None:
    r = blood("campaign", "new", "a", "--troupers", "aurel", "--seed", "1")
    assert r.code == 0 and "The app shuffles and draws every deck" in r.out
    r = blood("campaign", "decks", "--json")
    assert r.json()["decks"] == dict.fromkeys(
        ["troupers", "reactions", "minions", "events", "locations", "nemeses", "advanced",
         "loot"], "app")
    r = blood("campaign", "decks", "reactions=table", "minion=table")
    assert r.code == 0 and "the players (real cards)" in r.out
    r = blood("campaign", "decks", "--json")
    held = r.json()["decks"]
    assert held["reactions"] == "table" and held["minions"] == "table"
    assert held["troupers"] == "app"
    r = blood("campaign", "log")
    assert "Who holds the decks: the Nemesis Reaction deck: the players" in r.out
    r = blood("campaign", "decks", "reactons=app")  # a typo is forgiven
    assert r.code == 0 and blood("campaign", "decks", "--json").json()["decks"][
        "reactions"] == "app"
    r = blood("campaign", "decks", "monsters=table")
    assert r.code == 2 and "no deck is called 'monsters'" in r.err and "minions" in r.err
    r = blood("campaign", "decks", "troupers=maybe")
    assert r.code == 2 and "app or table" in r.err
    r = blood("campaign", "new", "b", "--troupers", "aurel", "--decks", "everything")
    assert r.code == 2 and "app or table" in r.err


def test_a_table_night_through_the_subcommands(blood: Any, saves_dir: Path) -> None:
    _single(blood)
    setup = ["night", "setup", "--nemesis", "lucilla", "--location",
             "catacombs-ossuary-gallery", "--minions", "beast-castle-wolf,undead-bone-sentinel"]
    r = blood(*setup)
    # the players hold the Event cards: the step waits for the card they drew
    assert r.code == 1 and "Draw an Event card of The Catacombs" in r.err
    assert "--draw" in r.err and "Light the Old Lamps" in r.err
    r = blood(*setup, "--draw", "Ligth the Old Lamps")  # a typo is forgiven
    assert r.code == 0, r.err
    # told once, as the table does it: the deck shuffled, then five cards from it
    assert "Shuffle Aurel's deck" in r.out and "5 cards: Aurel's deck → Aurel's hand" in r.out
    assert "draw 5 cards" not in r.out
    r = blood("card", "hand", "aurel")
    assert "holds 5 card(s) the app does not see" in r.out and "Knife Volley" in r.out
    r = blood("card", "hand", "aurel", "--json")
    hand = r.json()["hands"][0]
    assert hand["hidden"] and hand["cards"] == 5 and len(hand["can_be"]) == 12
    revealed = 0
    for _ in range(80):
        nxt = blood("night", "next", "--json").json()
        q = nxt.get("question")
        if q:  # the Nemesis's questions: nobody in range, the app rolls the dodges
            words = {"in_range": ["answer", "none"], "test": ["roll"],
                     "confirm": ["answer", "yes"]}.get(q["kind"], ["answer", "1"])
            r = blood("night", *words)
            assert r.code == 0, r.err
            continue
        if nxt["phase"] != "planning":
            break
        who = nxt["who"]
        r = blood("night", "play", who, "1")
        if r.code == 1 and "Alert" in r.err:
            # an Alert: the Reaction card the players revealed, named with a typo
            name = re.search(r"it can be: ([^,)]+)", r.err)
            assert name is not None
            typo = name.group(1).strip()[:-1]
            r = blood("night", "play", who, "1", "--draw", typo)
            assert r.code == 0, r.err
            # the card's face is shown (a Fatigue line only when it prints one: issue 27)
            assert "Alert: the Nemesis reveals" in r.out and "Outcome:" in r.out
            revealed += 1
        elif r.code == 1 and "must Rest" in r.err:
            r = blood("night", "rest", who, "1")
        assert r.code == 0, r.err
    assert revealed >= 1
    r = blood("status", "--cards")
    assert r.code == 0 and "Reaction Line (left to right):" in r.out and "Outcome:" in r.out
    assert "Physical 0, Mind 0" not in r.out
    r = blood("status", "--cards", "--json")
    cards = r.json()["reaction_cards"]["cards"]
    assert cards and cards[0]["text"]
    # a card that cannot be in the hand is refused where it lies
    st = blood("campaign", "show", "--json").json()
    assert st["log_length"] > 3
    r = blood("night", "play", "aurel", "Zzzz Qqq")
    assert r.code == 1


def test_card_show_by_name_or_id(blood: Any, saves_dir: Path) -> None:
    r = blood("card", "show", "Mist", "Walk")
    assert r.code == 0 and "Mist Walk — Reaction card of Mirela" in r.out
    assert not RAW_ID.search(r.out)
    r = blood("card", "show", "knife", "volly", "--ids")  # typo, and its id asked for
    assert r.code == 0 and "[aurel-" in r.out and "Threat 2" in r.out
    r = blood("card", "show", "Ossuary", "Gallery")
    assert "Legend: N Nemesis start" in r.out and "Map: - T . A -" in r.out
    r = blood("card", "show", "Crown", "of", "Bats", "--json")
    doc = r.json()
    assert doc["kind"] == "vlad_reactions" and doc["lines"]
    r = blood("card", "show", "Qwerty", "Zxcv")
    assert r.code == 1 and "no card is called" in r.err


def test_logs_read_as_sentences(blood: Any, saves_dir: Path) -> None:
    _single(blood, "app")
    blood("night", "setup", "--nemesis", "lucilla", "--location", "catacombs-ossuary-gallery",
          "--minions", "beast-castle-wolf,undead-bone-sentinel")
    for _ in range(6):
        nxt = blood("night", "next", "--json").json()
        if nxt.get("question") or nxt["phase"] != "planning":
            break
        r = blood("night", "play", nxt["who"], "1")
        if r.code != 0:
            blood("night", "rest", nxt["who"], "1")
    r = blood("campaign", "log")
    assert r.code == 0
    assert "'s hand: " in r.out and "(the app drew them)" in r.out
    assert not RAW_ID.search(r.out), r.out
    assert "=[" not in r.out and "=None" not in r.out
    r = blood("campaign", "log", "--json")
    first = json.loads(r.out.splitlines()[1])
    assert first["action"]["type"] == "night_setup"  # ids stay in --json


# --------------------------------------------------------------------------- issue 39
# `blood table` with the global options, in a real terminal (a pseudo-terminal of 80×24): the
# view's own thread reads the campaign with them (it used to look in ./saves).


def _in_a_terminal(argv: list[str], cwd: Path, until: str, keys: bytes = b"",
                   timeout: float = 60) -> tuple[int, str]:
    """Run ``blood ARGV`` in an 80×24 pseudo-terminal until ``until`` is drawn (then type
    ``keys``) and it ends; its exit code and everything it drew, escapes removed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLOOD_")}
    env.update(TERM="xterm-256color", COLUMNS="80", LINES="24")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the terminal's program
        os.chdir(cwd)
        os.execvpe(blood_exe()[0], [*blood_exe(), *argv], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out, typed, end = b"", False, time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", out).decode("utf-8", "replace")
        if not typed and until in text.replace("\n", "").replace("\r", ""):
            time.sleep(0.5)
            os.write(fd, keys)
            typed = True
    else:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", out).decode("utf-8", "replace")
    return os.waitstatus_to_exitcode(status), text


def test_table_honours_every_global_option_in_a_terminal(blood: Any, tmp_path: Path) -> None:
    saves, elsewhere, data = tmp_path / "my saves", tmp_path / "elsewhere", tmp_path / "data"
    elsewhere.mkdir()
    data.mkdir()
    r = blood("--saves-dir", str(saves), "campaign", "new", "eve", "--troupers", "aurel,ioana",
              "--seed", "1", "--decks", "app")
    assert r.code == 0, r.err
    r = blood("--saves-dir", str(saves), "campaign", "new", "other", "--troupers", "zora",
              "--seed", "2", "--decks", "app")  # the one used last: --campaign must win
    assert r.code == 0, r.err
    card = blood("data", "show", "troupers", "aurel", "--json").json()
    card.pop("ok")
    card["name"] = "Aurel the Transcribed"
    (data / "troupers.yaml").write_text(json.dumps([card]))  # an overlay (--data-dir)
    code, drawn = _in_a_terminal(
        ["--saves-dir", str(saves), "--data-dir", str(data), "--campaign", "eve", "table"],
        elsewhere, until="Recovery", keys=b"quit\r")
    assert code == 0, drawn[-2000:]
    assert "Traceback" not in drawn and "CampaignNotFound" not in drawn
    assert "eve · game 1" in drawn and "Aurel the Transcribed" in drawn
    assert "Saved." in drawn  # the loop's last words, after the screen is gone
    assert not (elsewhere / "saves").exists()


def test_table_without_the_campaign_is_one_clear_error(blood: Any, tmp_path: Path) -> None:
    saves, elsewhere = tmp_path / "saves", tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert blood("--saves-dir", str(saves), "campaign", "new", "eve", "--troupers", "aurel",
                 "--seed", "1", "--decks", "app").code == 0
    for argv, said in ((["--saves-dir", str(saves), "--campaign", "nope", "table"],
                        "no campaign 'nope'"),
                       (["--saves-dir", str(tmp_path / "empty"), "table"], "no campaign")):
        code, drawn = _in_a_terminal(argv, elsewhere, until="\x00never")
        assert code == 1, drawn
        assert said in drawn and "Traceback" not in drawn
