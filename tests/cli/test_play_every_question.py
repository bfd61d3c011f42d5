"""Issue 39, "Every multi-choice answer can be given": the Rest's discard answered by names, by
numbers and by Enter (none), never more than the hand, whoever holds the Trouper decks; the
trail of what was chosen names cards, not ids; and every question kind the engine declares (the
follow-ups of every option kind, every question the night waits on) answered to completion in
`blood play`'s menus, the action recorded by the engine."""

from __future__ import annotations

from typing import Any

from night_bot import Table
from play_driver import Driver, activate

from blood_companion.cli.play_menu import Again, Walk
from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.engine.night import PassCascade, PlayCard, Rest, RestRedraw, SetupNight
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import UNKNOWN, hand_choices


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


def test_the_rest_discard_by_numbers_spaced_and_the_trail_names_cards(catalog: Any) -> None:
    table = _rest_active(catalog)
    hand = list(table.state.troupers[0].hand)
    drv = _at_discard(table)
    screen = drv.screen()
    assert screen.many == (0, len(hand)) and screen.default == "none"
    # the trail of what is chosen names cards, never ids (a Rest's "card" before, here none)
    assert not any(c in line for line in screen.info for c in hand)
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
