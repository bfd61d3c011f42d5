"""Every phone at the table plays (issue 42): the served board's contract (docs/board-api.md)
against a real `blood board --serve` process: seats and their tokens, the question for each
seat, answers (200/400/403/409/413/415), taps never applied twice, hands kept to their seat,
the watch seat read-only, the Host check; four seats (and `blood play` on the laptop) racing
for one question; a restart; a page asleep."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.board_serve import scrub_hands
from tests.cli.board_client import Served, Stream, env, read_until, running, serving
from tests.cli.conftest import blood_exe

NIGHT = ["night", "setup", "--nemesis", "ilie", "--location", "catacombs-ossuary-gallery",
         "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer"]
FOUR = ("aurel", "ioana", "petru", "zora")


@pytest.fixture()
def night(blood: Any, saves_dir: Path) -> Path:
    """A campaign of four Troupers in its first night (Aurel leads); its first question (step
    2) is the table's: which Troupers are near Father Ilie."""
    r = blood("campaign", "new", "table", "--troupers", ",".join(FOUR), "--seed", "1",
              "--mode", "single", "--decks", "app")
    assert r.code == 0, r.err
    r = blood(*NIGHT)
    assert r.code == 0, r.err
    return saves_dir


def names(served: Served) -> dict[str, str]:
    return {t: served.question(tok)["seat"]["name"] for t, tok in served.tokens.items()}


# ---------------------------------------------------------------------- seats


def test_one_seat_per_trouper_and_a_watch_seat_kept_private_and_reused(night: Path) -> None:
    kept = night / ".seats" / "table.json"
    with serving() as s:
        assert set(s.doc) >= {"url", "watch", "seats"}
        assert set(s.tokens) == set(FOUR)
        assert s.doc["url"] == f"http://127.0.0.1:{s.port}/"
        for url in [s.doc["watch"], *s.doc["seats"].values()]:
            assert url.startswith(s.doc["url"] + "?seat=")
        tokens = {s.watch, *s.tokens.values()}
        assert len(tokens) == 5 and all(len(t) >= 32 for t in tokens)
        first = dict(s.tokens)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    with serving() as again:  # a restart: the same addresses
        assert again.tokens == first
        assert again.question(first["ioana"])["seat"]["id"] == "ioana"
    kept.chmod(0o644)  # opened to others meanwhile: private again, the same tokens
    with serving("--new-tokens") as fresh:
        assert set(fresh.tokens.values()).isdisjoint(first.values())
        assert fresh.get_json("/api/question", first["ioana"])[0] == 403
        assert fresh.question(fresh.tokens["ioana"])["seat"]["id"] == "ioana"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_the_json_line_comes_first_and_alone(night: Path) -> None:
    with running("--json") as p:
        got = read_until(p, lambda got: b"\n" in got)
        line, _, rest = got.partition(b"\n")
        doc = json.loads(line)
        assert rest == b"" and p.poll() is None  # flushed at start, the server runs on
        assert set(doc["seats"]) == set(FOUR)


# ---------------------------------------------------------------------- reading


def test_each_seat_sees_its_own_hand_and_counts_of_the_others(night: Path, blood: Any) -> None:
    status = blood("status", "--json").json()
    hands = {t["trouper"]: t["hand_cards"] for t in status["night"]["troupers"]}
    assert all(hands.values())
    with serving() as s:
        for trouper, token in s.tokens.items():
            code, doc = s.get_json("/api/board", token)
            assert code == 200
            seen = {t["trouper"]: t for t in doc["night"]["troupers"]}
            assert seen[trouper]["hand_cards"] == hands[trouper]
            shown = seen[trouper]["hand_names"]  # the page shows names, never ids
            assert len(shown) == 5 and not any(n in hands[trouper] for n in shown)
            text = json.dumps(doc)
            for other, cards in hands.items():
                if other != trouper:
                    assert "hand_cards" not in seen[other] and seen[other]["hand"] == 5
                    assert "hand_names" not in seen[other]
                    assert seen[other]["hand_hidden"] is True
                    assert not any(c in text for c in cards)  # no card id of theirs at all
            assert doc["seat"]["id"] == trouper
            # the page inlines the same, and no other seat's token
            code, _, page = s.request("GET", f"/?seat={token}")
            assert code == 200
            assert all(t.encode() not in page for t in [s.watch, *s.tokens.values()]
                       if t != token)
        code, doc = s.get_json("/api/board", s.watch)
        assert code == 200 and doc["seat"] == {"id": None, "name": "Watch", "role": "watch"}
        assert all("hand_cards" not in t for t in doc["night"]["troupers"])
        assert {k: v for k, v in doc.items() if k != "seat"} == scrub_hands(status, None)


def test_the_question_for_each_seat(night: Path, blood: Any) -> None:
    played = blood("play", "--json").json()
    with serving() as s:
        docs = {t: s.question(tok) for t, tok in s.tokens.items()}
        watch = s.question(s.watch)
        code, bare = s.get_json("/api/question")  # no token, on this computer: watching
    assert code == 200 and bare["seat"]["role"] == "watch" and bare["yours"] is False
    for t, q in docs.items():
        assert q["step"] == played["log_length"] == 2 and q["whose"] is None
        assert q["yours"] is True  # the table's question: anyone's
        assert q["question"] == played["question"]
        assert [c["key"] for c in q["choices"]] == [c["key"] for c in played["choices"]]
        assert q["stage"] == played["step"] and q["question_id"] == docs["aurel"]["question_id"]
        assert q["seat"]["id"] == t
    assert docs["aurel"]["seat"]["role"] == "leader" and docs["ioana"]["seat"]["role"] == "trouper"
    assert watch["yours"] is False and watch["seat"]["role"] == "watch"


# ---------------------------------------------------------------------- answering


def test_answers_follow_ups_and_refusals(night: Path, blood: Any) -> None:
    with serving() as s:
        a, i = s.tokens["aurel"], s.tokens["ioana"]
        q = s.question(i)
        step, qid = q["step"], q["question_id"]
        # malformed
        for body in ({"seat": i}, {"seat": i, "step": "2", "question_id": qid, "lines": ["1"]},
                     {"seat": i, "step": step, "question_id": qid, "lines": []},
                     {"seat": i, "step": step, "question_id": qid, "lines": [3]},
                     {"seat": i, "step": step, "question_id": qid, "lines": ["1"], "tap": 7}):
            code, _, raw = s.request("POST", "/api/answer", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
            assert code == 400 and json.loads(raw)["ok"] is False, body
        code, _, _ = s.request("POST", "/api/answer", b"{not json",
                               {"Content-Type": "application/json"})
        assert code == 400
        code, _, _ = s.request("POST", "/api/answer", b'{"seat": "x"}',
                               {"Content-Type": "text/plain"})
        assert code == 415
        assert s.answer("not-a-token", step, qid, ["1"])[0] == 403
        # the watch seat never answers
        code, doc = s.answer(s.watch, step, qid, ["1"])
        assert code == 403 and "watch" in doc["error"]
        # a line the walker refuses: its message, nothing recorded
        code, doc = s.answer(i, step, qid, ["9"])
        assert code == 400 and "not one of the choices" in doc["error"] and doc["at"] == 0
        assert s.answer(i, step, qid, ["status"])[0] == 400  # the laptop's prompt commands
        # the table's question, answered by Ioana: Aurel is near Father Ilie
        code, doc = s.answer(i, step, qid, ["1"], tap="tap-1")
        assert code == 200 and doc["ok"] is True and doc["recorded"] == 1
        assert doc["step"] == step + 1 and doc["said"][0].startswith("✓")
        assert doc["question"]["whose"] == "aurel" and doc["question"]["yours"] is False
        assert doc["question"]["choices"] == [] and doc["question"]["hidden_choices"] == 3
        # the same tap again: the first reply, applied once
        assert s.answer(i, step, qid, ["1"], tap="tap-1") == (code, doc)
        # another tap at the old step: refused, saying who answered
        code, moved = s.answer(s.tokens["zora"], step, qid, ["n"], tap="tap-2")
        assert code == 409 and moved["by"] == "Ioana of the Seven Veils"
        assert moved["step"] == step + 1 and "already answered" in moved["error"]
        # Aurel's own question now: not Ioana's
        q = s.question(a)
        assert q["whose"] == "aurel" and q["yours"] is True and q["choices"]
        code, doc = s.answer(i, q["step"], q["question_id"], ["2"])
        assert code == 403 and "Aurel, the Thread-Walker" in doc["error"]
        assert doc["whose"] == "aurel"
        # a follow-up: nothing recorded, the follow-up's question (the lines so far)
        code, doc = s.answer(a, q["step"], q["question_id"], ["2"])
        assert code == 200 and doc["recorded"] == 0 and doc["step"] == q["step"]
        follow = doc["question"]
        assert follow["need"] == "dice" and follow["answers"] == ["2"]
        assert follow["question_id"] == q["question_id"] and follow["yours"] is True
        code, doc = s.answer(a, q["step"], q["question_id"], ["2", ""], tap="t3")
        assert code == 200 and doc["recorded"] == 1 and doc["step"] == q["step"] + 1
        # a wrong question id at the right step: the question moved
        now = s.question(a)
        code, doc = s.answer(a, now["step"], "0" * 20, ["1"])
        assert code == 409 and doc["step"] == now["step"]
    # step 2's answer and Aurel's: nothing else
    assert blood("status", "--json").json()["step"] == q["step"] + 1


def test_undo_and_redo_are_the_leaders_only(night: Path) -> None:
    with serving() as s:
        a, i = s.tokens["aurel"], s.tokens["ioana"]
        q = s.question(i)
        assert s.answer(i, q["step"], q["question_id"], ["n"])[0] == 200
        q = s.question(i)
        code, doc = s.answer(i, q["step"], q["question_id"], ["undo"])
        assert code == 403 and "Leader" in doc["error"]
        code, doc = s.answer(s.watch, q["step"], q["question_id"], ["undo"])
        assert code == 403
        code, doc = s.answer(a, q["step"], q["question_id"], ["undo"])
        assert code == 200 and doc["step"] == q["step"] - 1
        assert doc["said"][0].startswith("Took back")
        q2 = s.question(a)
        code, doc = s.answer(a, q2["step"], q2["question_id"], ["redo"])
        assert code == 200 and doc["step"] == q["step"]


def test_host_check_size_cap_and_rate_cap(night: Path) -> None:
    with serving(extra_env={"BLOOD_BOARD_RATE": "5"}) as s:
        i = s.tokens["ioana"]
        code, _, _ = s.request("GET", f"/api/question?seat={i}",
                               headers={"Host": f"evil.example:{s.port}"})
        assert code == 403
        code, _, _ = s.request("GET", f"/api/question?seat={i}",
                               headers={"Host": f"localhost:{s.port}"})
        assert code == 200
        code, _, _ = s.request("POST", "/api/answer", b"x" * 20000,
                               {"Content-Type": "application/json"})
        assert code == 413
        code, _, _ = s.request("GET", "/api/question?seat=" + "a" * 3000)
        assert code == 414
        assert s.request("GET", "/nothing-here")[0] == 404
        seen = [s.request("GET", f"/api/board?seat={i}")[0] for _ in range(30)]
        assert 429 in seen  # 5 a second, 10 at once
        assert s.request("GET", f"/api/board?seat={s.tokens['zora']}")[0] == 200  # per seat


def test_lan_refuses_every_request_without_a_token(night: Path) -> None:
    with serving("--lan") as s:
        assert s.doc["lan"] is True
        for path in ("/", "/api/board", "/api/question", "/events", "/board.json"):
            assert s.request("GET", path)[0] == 403
            assert s.request("GET", path + "?seat=wrong")[0] == 403
        assert s.request("GET", f"/api/board?seat={s.watch}")[0] == 200
        assert s.request("GET", f"/?seat={s.tokens['petru']}")[0] == 200


# ---------------------------------------------------------------------- live


def test_every_seat_gets_each_step_with_its_own_view(night: Path, blood: Any) -> None:
    with serving() as s:
        streams = {t: Stream(s, tok) for t, tok in s.tokens.items()}
        try:
            for t, st in streams.items():
                ident, doc = st.next(10)
                assert ident == "2" and doc["step"] == 2 and st.retry == 1000
                assert doc["board"]["seat"]["id"] == t and doc["question"]["seat"]["id"] == t
            q = s.question(s.tokens["petru"])
            assert s.answer(s.tokens["petru"], 2, q["question_id"], ["1"])[0] == 200
            for t, st in streams.items():
                ident, doc = st.next(5)
                assert ident == "3" and doc["by"] == "Petru" or doc["by"].startswith("Petru")
                assert doc["said"] and doc["said"][0].startswith("✓")
                assert doc["question"]["yours"] is (t == "aurel")
            r = subprocess.run([*blood_exe(), "campaign", "wagon", "--coins", "1"],
                               capture_output=True, text=True, env=env(), timeout=120)
            assert r.returncode == 0, r.stderr
            for st in streams.values():
                ident, doc = st.next(5)
                assert ident == "4" and doc["by"] == "a blood command"
        finally:
            for st in streams.values():
                st.close()


@pytest.mark.slow
def test_a_restart_keeps_the_seats_and_a_stream_resumes_from_its_last_event(
    night: Path,
) -> None:
    with serving() as s:
        port, tokens = s.port, dict(s.tokens)
        st = Stream(s, tokens["zora"])
        ident, _ = st.next(10)
        q = s.question(tokens["zora"])
        assert s.answer(tokens["zora"], q["step"], q["question_id"], ["n"])[0] == 200
        ident, _ = st.next(5)
        st.close()
    assert ident == "3"
    r = subprocess.run([*blood_exe(), "campaign", "wagon", "--coins", "2"],
                       capture_output=True, text=True, env=env(), timeout=120)
    assert r.returncode == 0  # while no server runs
    with serving(port=port) as again:
        assert again.tokens == tokens  # the same seat URLs, no new scan
        st = Stream(again, tokens["zora"], last_id=ident)
        try:
            new, doc = st.next(10)  # at once: the head moved while the page slept
            assert new == "4" and doc["since"] == 3
            assert [e["step"] for e in doc["missed"]] == [4]
            assert "coins" in doc["missed"][0]["sentence"].lower()
        finally:
            st.close()


@pytest.mark.slow
def test_a_page_idle_for_long_gets_heartbeats_and_the_next_step(night: Path) -> None:
    idle = float(os.environ.get("BLOOD_TEST_IDLE", "6"))  # 60 for the minute
    with serving(extra_env={"BLOOD_BOARD_HEARTBEAT": "0.5"}) as s:
        st = Stream(s, s.tokens["ioana"])
        try:
            st.next(10)
            beats = st.idle(idle)  # nothing happens: heartbeats only
            assert beats >= int(idle / 0.5) - 2
            q = s.question(s.tokens["aurel"])
            assert s.answer(s.tokens["aurel"], q["step"], q["question_id"], ["n"])[0] == 200
            ident, doc = st.next(5)
            assert ident == "3" and doc["by"] == "Aurel, the Thread-Walker"
        finally:
            st.close()


# ---------------------------------------------------------------------- races

ROUNDS = int(os.environ.get("BLOOD_TEST_ROUNDS", "100"))


def _race(s: Served, step: int, qid: str, tag: str) -> list[tuple[str, int, dict[str, Any]]]:
    """Every seat sends the same answer to one question at the same moment."""
    conns = {t: s.conn() for t in s.tokens}
    for c in conns.values():
        c.connect()
    barrier = threading.Barrier(len(conns))
    replies: list[tuple[str, int, dict[str, Any]]] = []
    lock = threading.Lock()

    def tap(t: str) -> None:
        barrier.wait()
        code, doc = s.answer(s.tokens[t], step, qid, ["n"], tap=f"{tag}-{t}", conn=conns[t])
        with lock:
            replies.append((t, code, doc))

    threads = [threading.Thread(target=tap, args=(t,)) for t in conns]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    for c in conns.values():
        c.close()
    return replies


@pytest.mark.slow
def test_four_seats_tap_the_same_answer_at_once_exactly_one_is_recorded(
    night: Path, blood: Any,
) -> None:
    with serving(extra_env={"BLOOD_BOARD_RATE": "1000"}) as s:
        who = names(s)
        leader = s.tokens["aurel"]
        applied = lost = 0
        for n in range(ROUNDS):
            q = s.question(leader)
            assert q["step"] == 2 and q["whose"] is None
            replies = _race(s, 2, q["question_id"], f"r{n}")
            ok = [(t, d) for t, c, d in replies if c == 200]
            refused = [d for t, c, d in replies if c == 409]
            assert len(replies) == 4
            assert len(ok) == 1 and ok[0][1]["recorded"] == 1 and len(refused) == 3, replies
            winner = who[ok[0][0]]
            # every other tap refused, naming the one who answered
            assert all(r["by"] == winner and r["step"] == 3 for r in refused), (winner, refused)
            applied += 1
            now = s.question(leader)
            assert now["step"] == 3  # applied once: not 4
            code, doc = s.answer(leader, 3, now["question_id"], ["undo"], tap=f"undo{n}")
            assert code == 200 and doc["step"] == 2
        lost = ROUNDS - applied
    assert (applied, lost) == (ROUNDS, 0)
    assert blood("status", "--json").json()["step"] == 2  # each round undone by the Leader


def _laptop_at_prompt() -> subprocess.Popen[bytes]:
    """`blood play` at the keyboard (its input a pipe), waiting at its first prompt."""
    p = subprocess.Popen([*blood_exe(), "play"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    got = read_until(p, lambda got: got.rstrip().endswith(b">"))
    assert got.rstrip().endswith(b">"), got[-500:]
    return p


def _phone(s: Served, t: str, qid: str, tag: str, go: threading.Event,
           replies: list[tuple[str, int, dict[str, Any]]]) -> None:
    """A seat's tap at step 2, sent when ``go`` is set."""
    c = s.conn()
    c.connect()
    go.wait()
    code, doc = s.answer(s.tokens[t], 2, qid, ["n"], tap=f"{tag}-{t}", conn=c)
    replies.append((t, code, doc))
    c.close()


@pytest.mark.slow
def test_the_laptop_racing_the_phones_records_one_answer_and_says_who_was_first(
    night: Path,
) -> None:
    rounds = int(os.environ.get("BLOOD_TEST_LAPTOP_ROUNDS", "12"))
    laptop_won = phones_won = 0
    with serving(extra_env={"BLOOD_BOARD_RATE": "1000"}) as s:
        who = names(s)
        leader = s.tokens["aurel"]
        for n in range(rounds):
            q = s.question(leader)
            assert q["step"] == 2
            p = _laptop_at_prompt()  # its question built at step 2, waiting
            assert p.stdin is not None
            go = threading.Event()
            replies: list[tuple[str, int, dict[str, Any]]] = []

            threads = [threading.Thread(target=_phone, args=(s, t, q["question_id"], f"p{n}",
                                                            go, replies)) for t in s.tokens]
            for th in threads:
                th.start()
            go.set()
            p.stdin.write(b"n\n")
            p.stdin.flush()
            for th in threads:
                th.join(timeout=60)
            out, err = p.communicate(timeout=60)  # (its input ends: it stops, saved)
            text = out.decode()
            ok = [t for t, c, d in replies if c == 200]
            refused = [d for t, c, d in replies if c == 409]
            laptop = text.count("✓ ")
            assert len(ok) + laptop == 1, (replies, text[-2000:])  # exactly one recorded
            assert len(refused) == 4 - len(ok)
            if laptop:
                laptop_won += 1
                assert all(r["by"] == "the laptop" for r in refused), refused
            else:
                phones_won += 1
                winner = who[ok[0]]
                assert f"Already answered by {winner}" in text, text[-2000:]
                assert all(r["by"] == winner for r in refused), (winner, refused)
            now = s.question(leader)
            assert now["step"] == 3, now
            code, doc = s.answer(leader, 3, now["question_id"], ["undo"], tap=f"u{n}")
            assert code == 200, doc
    assert laptop_won + phones_won == rounds


@pytest.mark.slow
def test_blood_play_answer_processes_racing_the_phones_never_record_twice(night: Path) -> None:
    """`blood play --answer n` started as the phones tap, at moments spread over its start:
    whoever is first, the table's question at step 2 is answered once (step 3), and a phone
    refused names who was first."""
    rounds = int(os.environ.get("BLOOD_TEST_ANSWER_ROUNDS", "8"))
    outcomes = []
    with serving(extra_env={"BLOOD_BOARD_RATE": "1000"}) as s:
        who = names(s)
        leader = s.tokens["aurel"]
        for n in range(rounds):
            q = s.question(leader)
            assert q["step"] == 2
            p = subprocess.Popen([*blood_exe(), "play", "--answer", "n", "--steps", "1"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
            time.sleep(0.15 * n)  # from "at once" to "once it has surely asked"
            go = threading.Event()
            replies: list[tuple[str, int, dict[str, Any]]] = []
            threads = [threading.Thread(target=_phone, args=(s, t, q["question_id"], f"a{n}",
                                                            go, replies)) for t in s.tokens]
            for th in threads:
                th.start()
            go.set()
            for th in threads:
                th.join(timeout=60)
            out, _ = p.communicate(timeout=120)
            text = out.decode()
            ok = [t for t, c, d in replies if c == 200]
            refused = [d for t, c, d in replies if c == 409]
            process = text.count("✓ ")
            assert len(ok) + process == 1, (replies, text[-1500:])
            assert len(refused) == 4 - len(ok)
            first = "the laptop" if process else who[ok[0]]
            assert all(r["by"] == first for r in refused), (first, refused)
            if ok and "Already answered by" in text:
                assert f"Already answered by {first}" in text
            outcomes.append(first)
            now = s.question(leader)
            assert now["step"] == 3, now  # one step: never two, never none
            code, doc = s.answer(leader, 3, now["question_id"], ["undo"], tap=f"ua{n}")
            assert code == 200, doc
    assert len(outcomes) == rounds


@pytest.mark.slow
def test_the_laptop_answering_a_question_a_phone_answered_is_refused_and_asked_anew(
    night: Path,
) -> None:
    with serving() as s:
        p = _laptop_at_prompt()  # `blood play` asks the table's question of step 2
        q = s.question(s.tokens["ioana"])
        code, doc = s.answer(s.tokens["ioana"], 2, q["question_id"], ["1"])
        assert code == 200 and doc["step"] == 3
        out, _ = p.communicate(b"n\n", timeout=120)  # typed at the old question
    text = out.decode()
    assert "Already answered by Ioana of the Seven Veils" in text, text[-1500:]
    assert "✓" not in text  # nothing recorded for it
    after = text.split("Already answered by", 1)[1]
    assert "Aurel, the Thread-Walker may dodge" in after  # the question now, shown
