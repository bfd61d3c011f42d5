"""Issue 26, Build 1: every change to the board is a physical instruction, derived from the
state before and after each step (engine/physical.py).

Over whole random nights (the night bot of the e2e tests), after every step:

* every changed field of the state is in the instruction table or named as not on the board
  (a field that changes without a sentence fails with its path);
* every changed board field is told by at least one instruction;
* a "physical board" that knows only the instructions' structured form, moved by them from the
  empty table, holds what the app holds: Threat, Insanity, Vigor and Bites, Exhausted, Wounds
  and hand counts, the Chain, the Reaction Line, the Minions, the Wagon;
* no line shows an id or a Python repr.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from night_bot import new_table, step
from table_fields import changed, unmapped

from blood_companion.content.loader import Catalog
from blood_companion.engine import physical as ph
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import UNKNOWN, at_table
from blood_companion.store import CampaignStore

ID = re.compile(r"\b[a-z]+-[a-z]*\d+\b|\b[a-z]+_[a-z_]+\b")
REPR = re.compile(r"None|True|False|[\[\]{}]|\(\)|'\w+':")


HIDDEN = "?"  # a card in the model the instructions did not name


class PhysicalBoard:
    """The table as the players keep it: counters and card piles, moved only by
    instructions, checking each one starts where the piece lies. A card the instructions did
    not name is a hidden card of its pile (a hand or a deck the players hold): a move by count
    takes hidden cards; a card named out of a pile of hidden ones is one of them turning up;
    a deck shuffled at the table hides its cards."""

    def __init__(self) -> None:
        self.counters: dict[tuple[str, str, str], Any] = {}
        self.zones: dict[str, Counter[str]] = {}
        self.boxed: list[str] = []  # the lines that put a card back in the box

    def apply(self, ins: ph.Instruction) -> None:
        if ins.component == "cards":
            moved = list(ins.cards) or [HIDDEN] * ins.count
            assert len(moved) == ins.count, ins.text
            if ins.frm != ph.BOX and ins.frm not in ph.OFF_BOARD.values():
                pile = self.zones.setdefault(ins.frm, Counter())
                for card in moved:
                    if card == HIDDEN:  # a card nobody named: one the table cannot see
                        assert pile[HIDDEN] > 0, (ins.text, pile)
                        pile[HIDDEN] -= 1
                    elif pile[card] > 0:
                        pile[card] -= 1
                    else:  # named as it leaves a pile of hidden cards
                        assert pile[HIDDEN] > 0, (ins.text, pile)
                        pile[HIDDEN] -= 1
                self.zones[ins.frm] = +pile
            if ins.to != ph.BOX:
                self.zones.setdefault(ins.to, Counter()).update(moved)
            else:
                self.boxed.append(ins.text)
        elif ins.component == "shuffle":
            if ins.hidden:  # shuffled at the table: nobody knows its cards now
                pile = self.zones.get(ins.frm, Counter())
                self.zones[ins.frm] = Counter({HIDDEN: sum(pile.values())})
        elif ins.component in ("track", "tokens", "flag", "resource"):
            key = (ins.component, ins.what, ins.trouper)
            assert self.counters.get(key, type(ins.frm)()) == ins.frm, ins.text
            self.counters[key] = ins.to

    def count(self, component: str, what: str, trouper: str = "") -> int:
        return int(self.counters.get((component, what, trouper), 0))

    def pile(self, label: str) -> Counter[str]:
        return +self.zones.get(label, Counter())


def same_pile(board: PhysicalBoard, label: str, cards: list[str], ctx: ph.Ctx) -> None:
    """The model's pile holds as many cards as the app's, and every card the model names is
    one the app holds there (a card the app cannot see is no name: the model hides it too)."""
    pile = board.pile(label)
    assert sum(pile.values()) == len(cards), (label, pile, cards)
    app = Counter(ctx.card(c) for c in cards if c != UNKNOWN)
    named = pile - Counter({HIDDEN: pile[HIDDEN]})
    assert not named - app, (label, "named by the model, not held by the app", named - app)


def check_same(board: PhysicalBoard, state: CampaignState, cat: Any) -> None:
    ctx = ph.Ctx(state, state, cat)
    for res, n in state.wagon.as_dict().items():
        assert board.count("resource", f"Wagon {res.capitalize()}") == n
    for i, t in enumerate(state.troupers):
        who = ctx.who(t.trouper)
        assert board.pile(f"{who}'s Reserve") == Counter(ctx.card(c) for c in t.reserve_cards)
        same_pile(board, f"{who}'s deck", ph.deck_space(state, i), ctx)
        for label, cards in ((f"{who}'s hand", t.hand), (f"{who}'s discard pile", t.discard),
                             (f"{who}'s Wounds space", t.wounds)):
            same_pile(board, label, cards, ctx)
        if not at_table(state, "troupers"):  # the app's decks: every card is named
            for label in ("deck", "hand", "discard pile", "Wounds space"):
                assert not board.pile(f"{who}'s {label}")[HIDDEN], (who, label)
    night = state.night
    if night is None:
        return
    assert board.count("track", "Threat token") == night.threat
    for t in state.troupers:
        who = ctx.who(t.trouper)
        assert board.count("track", "Insanity cube", who) == t.insanity, who
        assert board.count("tokens", "Vigor token", who) == t.vigor_depleted, who
        assert board.count("tokens", "Bite token", who) == t.bites, who
        assert board.count("flag", "Exhausted token", who) == t.exhausted, who
    for k, slot in enumerate(night.chain):
        space = (slot.space if slot.space is not None else k) + 1
        assert board.pile(f"Chain space {space}") == Counter([ctx.card(slot.card)])
    for k, r in enumerate(night.reaction_line):
        assert board.pile(f"Reaction Line space {k + 1}") == Counter([ctx.card(r.card)])
    assert sum(n for z, p in board.zones.items() if z.startswith("Chain space")
               for n in p.values()) == len(night.chain)
    assert sum(n for z, p in board.zones.items() if z.startswith("Reaction Line")
               for n in p.values()) == len(night.reaction_line)
    for ms in night.minions:
        assert board.pile(f"Minion space {ms.space}") == Counter([ctx.card(ms.minion)])
        assert board.count("tokens", f"Minion miniatures on space {ms.space}") == ms.alive
    assert board.pile("the Reaction deck") == Counter(ctx.card(c) for c in night.reaction_deck)
    assert board.pile("the Nemesis discard pile") == Counter(
        ctx.card(c) for c in night.reaction_discard)


def wrong_box_lines(before: CampaignState, after: CampaignState, items: list[ph.Instruction],
                    catalog: Any) -> list[str]:
    """The lines sending a card back to the box that the rules do not: a card of a Trouper at
    the table (no rule takes one out of the game), a card nobody named, or a Nemesis's card
    before the End of the Night puts the Nemesis's components away ("End of the Night"); and
    the lines taking out of the box a card a Trouper already held or a card nobody named."""
    ctx = ph.Ctx(before, after, catalog)
    # the cards of the Troupers at the table (one set aside by the players, leaving the
    # campaign, has its material put away in the box, to come back as it was)
    seated = {t.trouper for t in after.troupers}
    mine = {ctx.card(c) for s in (before, after) for t in s.troupers if t.trouper in seated
            for c in (*t.deck, *t.reserve_cards)}
    night_over = after.night is None
    # a card a Trouper already held never comes out of the box either (a card bought, taken or
    # a new Trouper's deck does)
    held = {ctx.card(c) for t in before.troupers for c in (*t.deck, *t.reserve_cards)}
    out = []
    for i in items:
        if i.component != "cards":
            continue
        boxed = i.to == ph.BOX and (not i.cards or set(i.cards) & mine or not night_over)
        unboxed = i.frm == ph.BOX and (not i.cards or set(i.cards) & held)
        if boxed or unboxed:
            out.append(i.text)
    return out


def told(before: CampaignState, after: CampaignState, items: list[ph.Instruction]) -> None:
    """Every changed board field has an instruction naming its table row."""
    missing = unmapped(before, after)
    assert not missing, f"changed without a sentence: {missing}"
    fields = {f for i in items for f in i.field.split(">") if f}
    a, b = ph.leaves(before), ph.leaves(after)
    for path in changed(before, after):
        row = ph._row(path)
        if row is None:
            continue
        pattern, _ = row
        kind = ph.TABLE[pattern]
        # an unordered pile (a hand, a discard pile): a new order is no move
        if isinstance(kind, tuple) and not kind[2] and (
            Counter(ph._cards(a.get(path))) == Counter(ph._cards(b.get(path)))
        ):
            continue
        assert ".".join(pattern) in fields, f"{'.'.join(path)} changed, no instruction"


def clean(items: list[ph.Instruction]) -> None:
    for i in items:
        text = i.text
        for name in i.cards:  # a card's printed name is no repr ("None Leave the Pit")
            text = text.replace(name, "")
        assert not ID.search(text), f"an id in {i.text!r}"
        assert not REPR.search(text), f"a Python repr in {i.text!r}"


@pytest.mark.parametrize(
    "players,nemesis,seed", [(1, "lucilla", 0), (2, "lucilla", 1), (3, "saskia", 2),
                             (4, "vlad", 1), (4, "corvin", 251)])
def test_every_board_change_of_a_whole_night_is_an_instruction(
    catalog: Any, players: int, nemesis: str, seed: int
) -> None:
    table = new_table(catalog, players, seed=seed, bot_seed=seed, nemesis=nemesis,
                      difficulty=3 if nemesis != "lucilla" else 1)
    board = PhysicalBoard()
    empty = CampaignState()
    items = ph.instructions(empty, table.state, catalog)
    told(empty, table.state, items)
    for i in items:
        board.apply(i)
    check_same(board, table.state, catalog)
    lines = 0
    for _ in range(3000):
        if table.night.phase == "over":
            break
        before = table.state
        step(table)
        items = ph.instructions(before, table.state, catalog)
        told(before, table.state, items)
        clean(items)
        for i in items:
            board.apply(i)
        check_same(board, table.state, catalog)
        lines += len(items)
    assert table.night.phase == "over"
    assert lines > 50


def test_a_field_without_a_sentence_is_reported_by_its_path(catalog: Any) -> None:
    table = new_table(catalog, 1)
    after = table.state.model_copy(update={"troupers": [
        table.state.troupers[0].model_copy(update={"insanity": 2})]})
    assert unmapped(table.state, after) == []
    saved = ph.TABLE.pop(("troupers", "{t}", "insanity"))
    try:
        assert unmapped(table.state, after) == ["troupers.aurel.insanity"]
    finally:
        ph.TABLE[("troupers", "{t}", "insanity")] = saved
    assert ph.lines(table.state, after, catalog) == [
        "Aurel: move your Insanity cube to space 3 (from 1)"]


def test_a_wound_with_the_deck_is_a_card_to_the_wounds_space(catalog: Any) -> None:
    table = new_table(catalog, 1)
    t = table.state.troupers[0]
    top = t.draw_pile[0]
    hurt = t.model_copy(update={"draw_pile": t.draw_pile[1:], "wounds": [top]})
    after = table.state.model_copy(update={"troupers": [hurt]})
    name = ph.Ctx(after, after, catalog).card(top)
    assert ph.lines(table.state, after, catalog) == [f"{name}: Aurel's deck → Aurel's Wounds space"]


GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "saves"


@pytest.mark.parametrize("version,name", [
    ("v0.1.0", "day"), ("v0.2.0", "night"), ("v0.2.0", "table"),
    pytest.param("v0.2.0", "vlad", marks=pytest.mark.slow)])  # several games, a Trouper leaving
def test_every_step_of_a_golden_campaign_is_told_in_words(
    catalog: Catalog, version: str, name: str, tmp_path: Path
) -> None:
    """Whole recorded games (Day Parts, nights, the End of the Night): every step's changes
    are told, without an id or a repr, and the physical board follows them."""
    shutil.copy(GOLDEN / version / f"{name}.blood.db", tmp_path)
    board, before = PhysicalBoard(), CampaignState()
    with CampaignStore.open(tmp_path, name, lambda: catalog) as store:
        for step_no in range(1, store.log_length + 1):
            after = store.state_at(step_no)
            items = ph.instructions(before, after, catalog)
            told(before, after, items)
            clean(items)
            assert wrong_box_lines(before, after, items, catalog) == []
            for i in items:
                board.apply(i)
            check_same(board, after, catalog)
            before = after
