"""Issue 39, "Every multi-choice answer can be given": the Rest's discard answered by names, by
numbers and by Enter (none), never more than the hand, whoever holds the Trouper decks; the
trail of what was chosen names cards, not ids; and every question kind the engine declares (the
follow-ups of every option kind, every question the night waits on) answered to completion in
`blood play`'s menus, the action recorded by the engine."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any, get_args

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))

from night_bot import Table, new_table  # noqa: E402
from play_driver import Driver, activate, night_table  # noqa: E402
from test_rule_enemy_queue import timed_catalog  # noqa: E402
from test_rule_tokens import active  # noqa: E402

from blood_companion.cli.entry import main  # noqa: E402
from blood_companion.cli.play_menu import Again, Done, Walk  # noqa: E402
from blood_companion.content import models as m  # noqa: E402
from blood_companion.engine import bookkeeping as fx  # noqa: E402
from blood_companion.engine import flow, legal  # noqa: E402
from blood_companion.engine.campaign import Seat, StartCampaign  # noqa: E402
from blood_companion.engine.errors import RuleError  # noqa: E402
from blood_companion.engine.flow import apply  # noqa: E402
from blood_companion.engine.night import (  # noqa: E402
    PassCascade,
    PlayCard,
    ResolveEffect,
    Rest,
    RestRedraw,
    SetupNight,
)
from blood_companion.engine.night.asks import NEEDS  # noqa: E402
from blood_companion.engine.night_state import Question  # noqa: E402
from blood_companion.engine.state import CampaignState, Tokens  # noqa: E402
from blood_companion.engine.table import UNKNOWN, DrawNeeded, hand_choices  # noqa: E402


def _rest_active(catalog: Any, decks: str = "app", seed: int = 11) -> Table:
    """Aurel's Rest card Active in the Tactic Phase of Game Turn 1 (Aurel and Zora; the
    Trouper decks held by ``decks``)."""
    table = Table(catalog, CampaignState())
    held = {"troupers": "table"} if decks == "table" else None
    table.do(StartCampaign(name="t", mode="single", seed=seed, decks=held,  # type: ignore[arg-type]
                           seats=[Seat(trouper="aurel"), Seat(trouper="zora")]))
    table.do(SetupNight(nemesis="lucilla", location=catalog.locations_in("catacombs")[0].id,
                        minions=[m.id for m in catalog.all("minions")[:2]], difficulty=1))
    drv = Driver(table)
    drv.enter_until(lambda s: s.night.phase == "planning" and not s.night.pending)
    _plan(table)  # each Rests first
    drv = Driver(table)
    drv.enter_until(lambda s: s.night.phase == "tactic" and s.night.activation is not None
                    and not s.night.pending)
    activate(table, owner=0)
    night = table.state.night
    assert night.chain[night.activation.slot].kind == "rest"
    return table


def _plan(table: Table) -> None:
    """The Planning Phase: each Trouper Rests first, then plays a card (named from what can be
    in a hand the app does not see), until the Chain is full or everyone has passed."""
    for _ in range(20):
        night = table.state.night
        if night.phase != "planning" or night.pending:
            break
        i = night.to_play
        who = table.state.troupers[i]
        cards = hand_choices(table.state, i)
        if night.cascade:
            table.do(PassCascade(trouper=who.trouper))
        elif not who.rested_this_turn and len(who.hand) > 1:
            table.do(Rest(trouper=who.trouper, card=cards[-1]))
        else:
            assert any(table.try_do(PlayCard(trouper=who.trouper, card=c))
                       for c in reversed(cards))
        Driver(table).enter_until(lambda s: not s.night.pending)


def _at_discard(table: Table) -> Driver:
    drv = Driver(table)
    assert "Active with a Rest" in drv.screen().question
    assert isinstance(drv.type("x"), Walk)
    assert drv.screen().need == "discard"
    return drv


def test_the_rest_discard_by_names(catalog: Any) -> None:
    table = _rest_active(catalog)
    hand = list(table.state.troupers[0].hand)
    assert len(hand) >= 2
    drv = _at_discard(table)
    names = [catalog.tactic(c).name for c in hand[:2]]
    drv.type(", ".join(n.lower() for n in names))
    assert isinstance(drv.recorded[0], RestRedraw)
    assert drv.recorded[0].discard == hand[:2]
    assert table.state.troupers[0].discard[-2:] == hand[:2]
    assert len(table.state.troupers[0].hand) == catalog.config.hand_size


def test_the_rest_discard_by_numbers_spaced(catalog: Any) -> None:
    table = _rest_active(catalog)
    hand = list(table.state.troupers[0].hand)
    drv = _at_discard(table)
    screen = drv.screen()
    assert screen.many == (0, len(hand)) and screen.default == "none"
    assert not any(c in line for line in (screen.question, *screen.info) for c in hand)
    drv.type("2 1")
    assert drv.recorded[0].discard == [hand[1], hand[0]]


def test_the_rest_discard_enter_is_none(catalog: Any) -> None:
    table = _rest_active(catalog)
    drv = _at_discard(table)
    drv.type("", literal=True)
    assert drv.recorded == [RestRedraw(discard=[])]
    assert table.state.night.activation.rest_drawn


def test_the_rest_discard_refuses_more_than_the_hand(catalog: Any) -> None:
    table = _rest_active(catalog)
    hand = list(table.state.troupers[0].hand)
    drv = _at_discard(table)
    typed = " ".join(str(i + 1) for i in range(len(hand))) + " 1"
    result = drv.type(typed)
    assert isinstance(result, Again)
    assert "too many" in result.message or "named twice" in result.message
    assert drv.screen().need == "discard" and not drv.recorded  # asked again, nothing lost
    drv.type("1")
    assert drv.recorded[0].discard == hand[:1]


def test_the_rest_discard_with_the_trouper_decks_at_the_table(catalog: Any) -> None:
    table = _rest_active(catalog, decks="table")
    tr = table.state.troupers[0]
    assert UNKNOWN in tr.hand
    held = len(tr.hand)
    drv = _at_discard(table)
    screen = drv.screen()
    assert screen.many == (0, held) and screen.default == "none"
    assert len(screen.choices) > held  # the cards that can be in the hand
    too_many = " ".join(c.key for c in screen.choices[: held + 1])
    result = drv.type(too_many)
    assert isinstance(result, Again) and "too many" in result.message
    assert f"holds {held} card" in result.message
    assert drv.screen().need == "discard" and not drv.recorded
    picks = drv.walk.asked.picks[:held]  # the first by its name, the others by number
    drv.type(", ".join([picks[0].label.split(" (")[0], *(p.key for p in picks[1:])]))
    assert drv.recorded == [RestRedraw(discard=[p.value for p in picks])]
    assert len(table.state.troupers[0].hand) == catalog.config.hand_size
    assert table.state.troupers[0].discard[-held:] == [p.value for p in picks]


# --------------------------------------------------------------------------- every question kind


def _declared() -> set[str]:
    """Every question kind the engine declares: each option kind with follow-up questions (its
    asker, engine/flow.py) and each question a night waits on (``Question.kind``)."""
    kinds = set(flow.askers())
    kinds |= {f"question:{k}" for k in get_args(Question.model_fields["kind"].annotation)}
    kinds |= {f"need:{n}" for n in NEEDS}  # every follow-up an Effect's option may ask
    return kinds


def _free_value(q: legal.Ask) -> str:
    """Something a player types where free text is read (a die's face)."""
    assert q.parse is not None, q
    for text in ("2", "1", "3", "x", "0", "2 1", "B2 R1"):
        try:
            q.parse(text)
        except Exception:  # noqa: BLE001, S112 - the next sample
            continue
        return text
    raise AssertionError(f"no sample answer for {q.prompt!r}")


def _name(p: legal.Pick) -> str:
    return p.label.split(" (")[0]


def _check_many(walk: Walk, q: legal.Ask, keys: list[str]) -> None:
    """A question of several choices: the same answer by names as by numbers; Enter is its
    default or asks again; one more than it takes is refused as too many."""
    least, most = q.many or (1, 1)
    enabled = [p for p in q.picks if p.enabled]
    by_key = walk.answer(" ".join(keys), confirmed=True)
    chosen = [next(p for p in enabled if p.key == k) for k in keys]
    names = [_name(p) for p in chosen]
    if len(set(names)) == len(names) and all(
            sum(_name(p).lower() == n.lower() for p in enabled) == 1 for n in names):
        by_name = walk.answer(", ".join(names), confirmed=True)
        assert type(by_name) is type(by_key), (q.prompt, names, by_name)
        if isinstance(by_key, Done):
            assert by_name == by_key
        elif isinstance(by_key, Walk):
            assert by_name.answers[q.need] == by_key.answers[q.need]
    enter = walk.answer("")
    if q.default is None:
        assert isinstance(enter, Again), (q.prompt, enter)
    if most < len(enabled):
        over = walk.answer(" ".join(p.key for p in enabled[: most + 1]), confirmed=True)
        assert isinstance(over, Again) and "too many" in over.message, (q.prompt, over)


def _typed(walk: Walk, q: legal.Ask, check: bool = False, variant: int = 0) -> str:
    """What a player types at a follow-up: its default, else the first choices possible, else
    a value read as free text. ``check``: a question of several choices is also answered by
    names, by Enter and by too many (:func:`_check_many`)."""
    enabled = [p for p in q.picks if p.enabled]
    if q.many is not None:
        least, most = q.many
        ways = list(combinations([p.key for p in enabled], max(least, min(1, most))))
        keys = list(ways[variant % len(ways)]) if ways else []
        if check:
            _check_many(walk, q, keys)
        return " ".join(keys) if keys else "none"
    if q.default is not None and any(p.key == q.default for p in enabled) and not variant:
        return q.default
    if enabled:
        return enabled[variant % len(enabled)].key
    return _free_value(q)


def _answer_to_done(walk: Walk, option_key: str, seen: set[str], variant: int = 0) -> Any:
    """Choose ``option_key`` at the top menu and answer each follow-up as a player would (the
    default, else the first choices possible, else a typed value) until the action is done."""
    result: Any = walk.answer(option_key, confirmed=True)
    for asked in range(60):
        if isinstance(result, Done):
            return result.action
        assert isinstance(result, Walk), (option_key, result)
        walk = result
        q = walk.asked
        assert q is not None
        seen |= {f"{walk.option.kind}.{q.need}", f"need:{q.need}"}
        context = walk.context()
        for value in walk.answers.values():  # the trail names choices, never card ids
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and walk.catalog.tactic(v) is not None:
                    assert v not in context, context
        for wrong in ("zzqx", "99", "1 zzqx"):  # wrong answers: the same question again
            if wrong == "99" and (q.parse is not None or any(p.key == "99" for p in q.picks)):
                continue
            again = walk.answer(wrong, confirmed=True)
            assert isinstance(again, Again), (q.prompt, wrong, again)
        # the way of answering each question: ``variant`` read in base 3, a digit a question
        # (0: the default, else the first choices possible; 1, 2: the next ones)
        text = _typed(walk, q, check=True, variant=variant // 3 ** asked)
        result = walk.answer(text, confirmed=True)
        assert not isinstance(result, Again), (q.prompt, text, result)
    raise AssertionError(f"option {option_key!r} never finished: {walk.screen().question}")


def _recorded(table: Table, walk: Walk, action: Any) -> Any:
    """The state after the action, as `blood play` records it: a card drawn from a deck the
    players hold is named first (the first card it can be)."""
    state = table.state
    for _ in range(10):
        try:
            return apply(state, action, table.catalog, len(table.log))
        except DrawNeeded as need:
            done = walk.drawing_for(action, need).answer("1")
            assert isinstance(done, Done), done
            action = done.action
    raise AssertionError("too many cards to name")


def _complete(table: Table, walk: Walk, key: str, seen: set[str], also: int = 0) -> None:
    """Option ``key`` answered to completion and applied by the engine: the first choices
    possible, else other combinations of them where the rules refuse (one Item per category);
    then ``also`` other combinations (other choices at each question) as far as they go."""
    refused: list[str] = []
    for variant in range(81):
        action = _answer_to_done(walk, key, seen, variant)
        try:
            _recorded(table, walk, action)
        except RuleError as exc:
            refused.append(exc.message)
            continue
        break
    else:
        raise AssertionError(f"{key!r} never recorded: {refused[:3]}")
    for other in range(variant + 1, variant + 1 + also):
        _answer_to_done(walk, key, seen, other)


def _explore(table: Table, seen: set[str], steps: int,
             tweak: Callable[[CampaignState], CampaignState] | None = None,
             also: int = 0) -> None:
    """Play ``steps`` answers with Enter (the table's answer where only it knows); at every
    top menu, each option with follow-ups not yet seen is answered to completion and
    applied by the engine (and ``also`` other ways, :func:`_complete`). ``tweak``: the state
    changed before each step (a building owned)."""
    drv = Driver(table)
    for _ in range(steps):
        if tweak is not None and (changed := tweak(table.state)) != table.state:
            table.state = changed
            drv.restart()
        state = table.state
        if state.part == "over":
            return
        walk = drv.walk
        if walk.asked is None and walk.draw is None:
            night = state.night
            pending = night.pending[0].kind if night is not None and night.pending else None
            assert isinstance(walk.answer("zzqx"), Again), walk.screen().question
            for option in walk.nxt.options:
                if not option.enabled:
                    continue
                sig = f"{option.kind}({','.join(option.needs)})"
                fresh = also or sig not in seen or (
                    pending and f"question:{pending}" not in seen)
                if not fresh:
                    continue
                _complete(table, walk, option.key, seen, also)
                seen |= {sig, option.kind}
                if pending is not None:
                    seen.add(f"question:{pending}")
        text = drv.table_says()
        if walk.asked is not None and walk.draw is None and walk.asked.default is None:
            text = _typed(walk, walk.asked)
        elif walk.draw is not None:
            text = "1"
        result = drv.walk.answer(text, confirmed=True)
        if isinstance(result, Done):
            action = result.action
            table.state = _recorded(table, drv.walk, action)
            table.log.append(action)
            drv.restart()
        elif isinstance(result, Walk):
            drv.walk = result
        else:
            raise AssertionError((drv.screen().question, text, result))


HELD = {"troupers": "table", "events": "table", "minions": "table", "reactions": "table"}


def _campaign(catalog: Any, troupers: list[str], seed: int,
              decks: dict[str, str] | None = None) -> Table:
    table = Table(catalog, CampaignState())
    table.do(StartCampaign(name="t", mode="roguelite", seed=seed, decks=decks,  # type: ignore[arg-type]
                           seats=[Seat(trouper=t) for t in troupers]))
    return table


def _buildings(catalog: Any) -> Callable[[CampaignState], CampaignState]:
    """Every Day: the Cartographer's Office, the Hunting House and the Asylum owned, and an
    Item in the first Trouper's Personal Reserve (the swaps and choices they offer)."""
    def tweak(state: CampaignState) -> CampaignState:
        day = state.day
        if day is not None and not day.asylum:
            state = state.model_copy(update={"day": day.model_copy(update={
                "cartographer": True, "hunting_house": True, "asylum": True})})
        t = state.troupers[0]
        if not t.reserve_items and t.sleeves:
            kind = catalog.item(t.sleeves[0].item).category
            spare = next(i.id for i in catalog.all("trouper_items") if i.category == kind
                         and i.id not in {s.item for s in t.sleeves})
            state = fx.with_trouper(state, 0, reserve_items=[spare])
        return state
    return tweak


def _order_question(catalog: Any) -> Table:
    """Two Items and the Nemesis's Skill wait at the Beginning of the Turn: the players order
    them (the question ``order``)."""
    table = new_table(timed_catalog(catalog), 2, seed=3, nemesis="lucilla")
    assert table.night.pending[0].kind == "order"
    return table


def _token_question(catalog: Any) -> Table:
    """Aurel's Reserve has no Trap left, one Intact and seven Consumed on the Map: placing one
    asks which moves (the question ``token``)."""
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    table.state = fx.with_trouper(table.state, 0, traps=Tokens(supply=0, intact=1, consumed=7))
    active(table, "aurel-t09", 0)  # Caltrop Scatter places a Trap
    table.do(ResolveEffect(effect=1))
    assert table.night.pending[0].kind == "token"
    return table


def _weakness_question(catalog: Any) -> Table:
    """Aurel's attack on Corvin's Left side, whose Weakness helps if the table says a Condition
    in words holds (the follow-up ``weakness``)."""
    strike = m.Effect(target=m.Target(kind="nemesis", distance="0-1"),
                      outcome=[m.Outcome(kind="physical_attack")],
                      test=m.EffectTest(traits=["strength"]))
    card = catalog.tactic("aurel-t01").model_copy(update={"effects": [strike], "cascade": False})
    behind = m.Effect(outcome=[m.Outcome(kind="bonus_triumphs", n=2)],
                      condition=m.Condition(kind="text", text="you attack from behind a Tomb"))
    left = catalog.get("weaknesses", "corvin-w-left").model_copy(update={"effects": [behind]})
    records = dict(catalog.records)
    records["starting_tactics"] = [*(c for c in records["starting_tactics"] if c.id != card.id),
                                   card]
    records["weaknesses"] = [*(w for w in records["weaknesses"] if w.id != left.id), left]
    table = night_table(dataclasses.replace(catalog, records=records), ["aurel", "ioana"],
                        seed=3, nemesis="corvin")
    active(table, card.id, 0)
    return table


def test_every_question_kind_is_answered_to_completion_in_blood_play(catalog: Any) -> None:
    """Whole campaigns in every deck mode (the app's, the players', mixed), and the states
    that ask the rarer questions: at each question, each kind of answer possible is typed to
    completion and recorded by the engine; every kind the engine declares is met."""
    seen: set[str] = set()
    _explore(_campaign(catalog, ["aurel", "zora"], 11), seen, 2000)
    _explore(_campaign(catalog, ["aurel", "ioana", "petru"], 3, HELD), seen, 2000)
    _explore(_campaign(catalog, ["zora", "petru", "ioana", "aurel"], 5,
                       {"troupers": "table", "minions": "table"}), seen, 1500)
    _explore(_campaign(catalog, ["petru", "zora"], 7), seen, 400, _buildings(catalog))
    _explore(_order_question(catalog), seen, 5)
    _explore(_token_question(catalog), seen, 5)
    _explore(_weakness_question(catalog), seen, 2, also=4)  # the Left side: its Weakness
    missing = _declared() - seen
    assert not missing, f"question kinds never answered in blood play: {sorted(missing)}"


@pytest.mark.parametrize("decks", ["app", "table"])
def test_the_rest_discard_at_the_blood_play_prompt(
    catalog: Any, saves_dir: Path, capsys: Any, decks: str,
) -> None:
    """`blood play` itself (the lines typed at its prompt): the Rest's discard refuses more
    cards than the hand holds and asks again, then takes names and numbers; the trail and the
    messages name cards, never ids."""
    from save_files import write_today

    table = _rest_active(catalog, decks=decks)
    write_today(saves_dir, "t", table.log, catalog)
    held = len(table.state.troupers[0].hand)
    picks = flow.ask(table.state, catalog, legal.Option("x", "", "night_redraw",
                                                         needs=("discard",)), {})
    assert picks is not None
    name = picks.picks[0].label.split(" (")[0]
    too_many = ", ".join(str(i + 1) for i in range(held + 1))
    named = ", ".join([name, *(str(i + 1) for i in range(1, held))])
    code = main(["--campaign", "t", "play", "--answer", "x", "--answer", too_many,
                 "--answer", named])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"too many: {held + 1} named, at most {held} here" in out
    assert "Which cards does Aurel, the Thread-Walker discard before drawing up to 5?" in out
    assert "discards " + name in out  # recorded: the log sentence names the cards
    assert "aurel-t" not in out


def test_blood_night_redraw_takes_names_and_positions_and_refuses_more_than_the_hand(
    catalog: Any, saves_dir: Path, capsys: Any,
) -> None:
    """The one-shot command takes what the prompt takes: `--discard` names the cards of the
    paying Trouper's hand by position, name or id; more than the hand is refused."""
    from save_files import write_today

    table = _rest_active(catalog)
    write_today(saves_dir, "t", table.log, catalog)
    hand = list(table.state.troupers[0].hand)
    held = len(hand)
    too_many = ",".join(str(i + 1) for i in range(held)) + "," + catalog.tactic(hand[0]).name
    assert main(["--campaign", "t", "night", "redraw", "--discard", too_many]) == 1
    err = capsys.readouterr().err
    assert f"{held + 1} cards to discard, but Aurel, the Thread-Walker holds {held}" in err
    name = catalog.tactic(hand[0]).name.lower()
    assert main(["--campaign", "t", "night", "redraw", "--discard", f"{name},2"]) == 0
    out = capsys.readouterr().out
    assert "discards 2" in out
    assert main(["--campaign", "t", "campaign", "log", "--last", "1"]) == 0
    assert catalog.tactic(hand[1]).name in capsys.readouterr().out
