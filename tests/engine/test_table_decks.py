"""Issue 17, proof 1: a night played with every deck held at the table, each draw entered by
name, is the same night as with the app's decks and the same cards.

The app night is played through `blood play`'s menus (the walker, every default taken, the
dice written into the actions). The same actions are then applied to a campaign whose players
hold every deck: hands stay hidden (the players name each card they play), and each card a
step draws (a Reaction card at an Alert or under a Wound, a Minion summoned, the Event cards)
is named as the app drew it. After every step the two states must look the same to the table
(``table_view``: hidden hands and deck orders as counts), and the log, the Chain,
the Reaction Line, the Wounds, the Minions and the result are equal.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from play_driver import Driver  # noqa: E402

from blood_companion.engine.actions import Action  # noqa: E402
from blood_companion.engine.campaign import Seat, SetDecks, StartCampaign  # noqa: E402
from blood_companion.engine.errors import RuleError  # noqa: E402
from blood_companion.engine.flow import apply  # noqa: E402
from blood_companion.engine.night import SetupNight  # noqa: E402
from blood_companion.engine.state import CampaignState  # noqa: E402
from blood_companion.engine.table import (  # noqa: E402
    DECKS,
    UNKNOWN,
    DrawNeeded,
    hand_choices,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from night_bot import Table  # noqa: E402

ALL_TABLE = dict.fromkeys(DECKS, "table")


def _start(catalog: Any, seed: int, troupers: list[str], decks: dict[str, str] | None,
           nemesis: str, difficulty: int) -> list[Action]:
    loc = catalog.locations_in("graveyard")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    return [
        StartCampaign(name="t", mode="single", seed=seed,
                      seats=[Seat(trouper=t) for t in troupers],
                      decks=decks),  # type: ignore[arg-type]
        SetupNight(nemesis=nemesis, location=loc, minions=mins, difficulty=difficulty),
    ]


def _app_night(catalog: Any, seed: int, troupers: list[str], nemesis: str, difficulty: int,
               limit: int = 900) -> tuple[list[Action], list[CampaignState]]:
    """The night with the app's decks, every default taken in `blood play`'s menus."""
    table = Table(catalog, CampaignState())
    states = []
    for a in _start(catalog, seed, troupers, None, nemesis, difficulty):
        states.append(table.do(a))
    drv = Driver(table)
    for _ in range(limit):
        if table.state.night is None or table.state.night.result is not None:
            break
        before = len(table.log)
        drv.type("")
        if len(table.log) > before:
            states.append(table.state)
    assert table.state.night is not None and table.state.night.result is not None
    return list(table.log), states


def _draws(before: CampaignState, after: CampaignState) -> dict[str, list[str]]:
    """The cards one app step drew from its decks, in order, read from what it logged and laid
    out (the Reaction cards revealed or put under a Wound, the Minions summoned, the Events)."""
    out: dict[str, list[str]] = {}
    if after.night is not None and (before.night is None or not before.night.chain):
        events = [s.card for s in after.night.chain if s.kind == "event"]
        if events:
            out["events"] = events
    start = len(before.night.log) if before.night is not None else 0
    for e in after.night.log[start:] if after.night is not None else []:
        if e.kind in ("reveal", "reveal_interruption") or (
            e.kind == "nemesis_wound" and e.args.get("card")
        ):
            out.setdefault("reactions", []).append(str(e.args["card"]))
        elif e.kind == "summon":
            out.setdefault("minions", []).append(str(e.args["minion"]))
    return out


def table_view(state: CampaignState) -> dict[str, Any]:
    """The campaign as the table sees it, what is hidden reduced to counts: two states the
    table cannot tell apart give equal views (table decks and app decks play the same night)."""
    doc: dict[str, Any] = state.model_dump(mode="json")
    doc.pop("decks", None)
    for t in [*doc.get("troupers", []), *doc.get("set_aside", [])]:
        for key in ("hand", "draw_pile", "wounds", "discard"):
            t[key] = len(t.get(key) or [])
    night = doc.get("night")
    if night:
        night["reaction_deck"] = sorted(night.get("reaction_deck") or [])
        for entry in night.get("log", []):  # the cards an app deck names, as a table sees them
            args = entry["args"]
            if entry["kind"] == "hand_dealt":
                entry["kind"] = "hand_drawn"
                entry["args"] = {"who": args.get("who"), "n": len(args.get("cards") or [])}
            elif entry["kind"] == "draws":
                args.pop("cards", None)
            elif entry["kind"] == "wound":
                args.pop("card", None)
    doc["advanced_decks"] = {k: sorted(v) for k, v in (doc.get("advanced_decks") or {}).items()}
    return doc


def _same_for_the_table(app: CampaignState, table: CampaignState) -> None:
    a, t = table_view(app), table_view(table)
    assert a == t
    for ta, tt in zip(app.troupers, table.troupers, strict=True):
        # what the table-deck campaign knows is true of the app's cards
        for zone in ("discard", "wounds"):
            known = Counter(c for c in getattr(tt, zone) if c != UNKNOWN)
            assert not known - Counter(getattr(ta, zone)), zone
        assert tt.hand == [UNKNOWN] * len(ta.hand)


@pytest.mark.parametrize(
    ("seed", "troupers", "nemesis", "difficulty"),
    [(3, ["aurel", "zora"], "lucilla", 1), (11, ["petru", "ioana", "zora"], "corvin", 2)],
)
def test_a_night_with_every_deck_at_the_table_is_the_app_night(
    catalog: Any, seed: int, troupers: list[str], nemesis: str, difficulty: int
) -> None:
    actions, app_states = _app_night(catalog, seed, troupers, nemesis, difficulty)
    assert len(actions) > 30
    state = CampaignState()
    named = Counter[str]()
    for k, action in enumerate(actions):
        if k == 0:
            action = action.model_copy(update={"decks": ALL_TABLE})
        before_app = app_states[k - 1] if k else CampaignState()
        drawn = _draws(before_app, app_states[k])
        if drawn:
            # without the names the step is refused: the table must say what came up
            with pytest.raises(DrawNeeded):
                apply(state, action, catalog, k)
            action = action.model_copy(update={"drawn": drawn})
            named.update({d: len(c) for d, c in drawn.items()})
        state = apply(state, action, catalog, k)
        if k >= 1:
            _same_for_the_table(app_states[k], state)
    assert state.night is not None and state.night.result == app_states[-1].night.result
    assert named["reactions"] >= 3 and named["events"] >= 1
    assert all(UNKNOWN in t.hand or not t.hand for t in state.troupers)


def test_a_hidden_hand_names_only_cards_it_can_hold(catalog: Any) -> None:
    table = Table(catalog, CampaignState())
    for a in _start(catalog, 3, ["aurel", "zora"], ALL_TABLE, "lucilla", 1):
        if isinstance(a, SetupNight):
            a = a.model_copy(update={"drawn": {"events": [
                catalog.events_in("graveyard")[0].id]}})
        table.do(a)
    st = table.state
    aurel = st.troupers[0]
    assert aurel.hand == [UNKNOWN] * 5 and aurel.draw_pile == [UNKNOWN] * 7
    assert sorted(hand_choices(st, 0)) == sorted(aurel.deck)
    # a card of another Trouper's deck cannot be in Aurel's hand
    drv = Driver(table)
    drv.enter_until(lambda s: s.night.phase == "planning" and not s.night.pending)
    st = table.state
    who = st.night.to_play
    assert who is not None
    mine = st.troupers[who]
    other = st.troupers[1 - who]
    from blood_companion.engine.night import PlayCard

    with pytest.raises(RuleError, match="not in"):
        table.do(PlayCard(trouper=mine.trouper, card=other.deck[0]))
    card = mine.deck[3]
    table.do(PlayCard(trouper=mine.trouper, card=card))
    st = table.state
    assert st.troupers[who].hand.count(UNKNOWN) == 4
    assert card not in hand_choices(st, who)  # now on the Chain
    with pytest.raises(RuleError, match="on the Chain"):
        apply(st, PlayCard(trouper=mine.trouper, card=card), catalog, len(table.log))


def test_who_holds_the_decks_is_a_step_and_old_campaigns_keep_the_app(catalog: Any) -> None:
    table = Table(catalog, CampaignState())
    for a in _start(catalog, 5, ["aurel"], None, "lucilla", 1)[:1]:
        table.do(a)
    assert table.state.decks == {} and "decks" not in table.state.model_dump()
    table.do(SetDecks(decks={"minions": "table", "events": "table"}))
    assert table.state.decks == {"minions": "table", "events": "table"}
    table.do(SetDecks(decks={"minions": "app"}))
    assert table.state.decks == {"events": "table"}
    # mid-night the Trouper decks and the Reaction deck stay with whoever holds them
    loc = catalog.locations_in("graveyard")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    ev = catalog.events_in("graveyard")[0].id
    table.do(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1,
                        drawn={"events": [ev]}))
    with pytest.raises(RuleError, match="in play tonight"):
        table.do(SetDecks(decks={"troupers": "table"}))
    table.do(SetDecks(decks={"loot": "table"}))
    assert table.state.decks == {"events": "table", "loot": "table"}


def test_named_draws_are_typo_tolerant_and_refuse_cards_not_in_the_deck(catalog: Any) -> None:
    from blood_companion.engine.day import DrawNemesis

    table = Table(catalog, CampaignState())
    table.do(StartCampaign(name="t", mode="roguelite", seed=2, seats=[Seat(trouper="aurel")],
                           decks={"nemeses": "table"}))
    from blood_companion.engine.day import ChooseZone, DrawMinions, LastAssault, Recover

    for a in (Recover(), ChooseZone(zone="halls")):
        table.do(a)
    from blood_companion.engine.day import RollLocation

    table.do(RollLocation())
    table.do(DrawMinions())
    table.do(LastAssault(face_vlad=False))
    st = table.state
    with pytest.raises(DrawNeeded) as need:
        apply(st, DrawNemesis(), catalog, 9)
    assert need.value.deck == "nemeses" and "Lucilla" in need.value.names
    typo = apply(st, DrawNemesis(drawn={"nemeses": ["Lucila"]}), catalog, 9)
    assert typo.day is not None and typo.day.nemesis == "lucilla"
    with pytest.raises(RuleError) as refused:
        apply(st, DrawNemesis(drawn={"nemeses": ["Korvn"]}), catalog, 9)
    assert "did you mean Corvin the Gravewarden" in str(refused.value.hint)
    with pytest.raises(RuleError, match="draws no"):
        apply(st, DrawNemesis(drawn={"nemeses": ["lucilla", "corvin"]}), catalog, 9)
