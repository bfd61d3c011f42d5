"""Answering the table's questions (targets, discards, dodge Tests) and moving on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine.actions import Bonus, Cli, Context, Dice, Items, Reroll, Trait
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import enemy as ai
from blood_companion.engine.night.core import NightAction, trouper_index
from blood_companion.engine.night.phases import PHASES, begin_night, enter, settle
from blood_companion.engine.rolls.night import take_test, use_test_items
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog



class AnswerQuestion(NightAction):
    """Answer the waiting question: Troupers (in range, closest, the Leader's pick; none is
    allowed for in range), the cards to discard, or in ``cards`` the sides a "bite" or
    "token" question asks for ("available"/"depleted", "intact"/"consumed")."""

    type: Literal["night_answer"] = "night_answer"
    command = "night answer"
    doing = "an answer"
    troupers: Annotated[list[str], Cli()] = []
    cards: list[str] = []
    yes: bool | None = None  # a "confirm" question

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        q = ai.current_question(state)
        if q.kind in ("discard", "wound"):
            state = ai.answer_cards(state, cat, ctx.chance, list(self.cards))
        elif q.kind == "order":
            state = ai.answer_order(state, cat, ctx.chance, list(self.cards))
        elif q.kind in ("bite", "token"):
            state = answer_side(state, cat, ctx.chance, list(self.cards))
        elif q.kind == "confirm":
            if self.yes is None:
                raise RuleError("answer yes or no", see=("night_answer",))
            state = ai.answer_confirm(state, cat, ctx.chance, self.yes)
        else:
            idx = [trouper_index(state, w) for w in self.troupers]
            state = ai.answer_targets(state, cat, ctx.chance, idx)
        return settle(state, cat, ctx.chance)

    def said(self, c: Any, s: Any) -> str:
        from blood_companion.engine.words.sentences import actor_name, names, who
        from blood_companion.engine.words.text import listing
        if self.yes is not None:
            return "The table answers " + ("yes" if self.yes else "no")
        n = s.night if s is not None else None
        q = n.pending[0] if n is not None and n.pending else None
        if self.cards:
            if q is not None and q.kind == "order":
                return "The players resolve, in this order: " + names(c, self.cards)
            doing = {"discard": "discards", "wound": "puts on the Wounds space"}.get(
                q.kind if q is not None else "", "names")
            actor = actor_name(s, c) or "The player"
            return f"{actor} {doing} {names(c, self.cards)}"
        if not self.troupers:
            return "Answer: nobody"
        return "Answer: " + listing(who(c, t) for t in self.troupers)


SIDES = {"bite": ("available", "depleted"), "token": ("intact", "consumed")}


def answer_side(
    state: CampaignState, catalog: Catalog, rng: Chance, sides: list[str]
) -> CampaignState:
    """A "bite" question (one Vigor side per Bite, "Bite") or a "token" question (the side of
    the token moved from the Map, "Placing a Trap or Whisper Token"), then the Enemy cards go
    on. Raises RuleError for an answer the board does not allow."""
    q = ai.current_question(state)
    assert q.trouper is not None
    allowed = SIDES[q.kind]
    sides = [x.strip().lower() for x in sides]
    if len(sides) != q.n or any(x not in allowed for x in sides):
        raise RuleError(f"name {q.n} side(s), each {' or '.join(allowed)}", see=("night_answer",))
    state = ai.answered(state)
    if q.kind == "bite":
        down = sides.count("depleted")
        state = fx.place_bites(state, catalog, q.trouper, down, len(sides) - down)
    else:
        state = interp.move_token(state, q.trouper, q.about, sides[0])
    return ai.run_queue(state, catalog, rng)


class RollTest(NightAction):
    """The waiting dodge Test: the targeted Trouper rolls (or types in their dice); a
    Success cancels the Enemy Effect's Elements."""

    type: Literal["night_roll"] = "night_roll"
    doing = "a dodge Test"
    command = "night roll"
    summary = "The waiting dodge Test: the app rolls, or type in your dice with --dice."
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    bonus_triumphs: Bonus = 0
    items: Items = []

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        q = ai.current_question(state)
        if q.kind != "test" or q.trouper is None:
            raise RuleError("no Test is waiting", see=("night_next",))
        state = use_test_items(state, cat, ctx.chance, q.trouper, self.items)
        state, result = take_test(
            state, cat, ctx.chance, q.trouper, traits=q.traits, fixed_dice=q.dice,
            target=q.target or 0, trait=self.trait, dice=self.dice, reroll=self.reroll,
            bonus_triumphs=self.bonus_triumphs, label="dodge")
        state = ai.answer_test(state, cat, ctx.chance, result.success)
        return settle(state, cat, ctx.chance)

    words = (
        "[{actor} takes the dodge Test|The dodge Test]{trait:trait}{dice:dice}"
        "[, +{bonus_triumphs} Bonus Triumph(s)][, using {items:items}]"
    )


class NextPhase(NightAction):
    """Move on when the current phase is finished: Tactic -> Nemesis -> Minions -> Cleanup ->
    next Game Turn. The Nemesis and Minion cards resolve inside, stopping at questions."""

    type: Literal["night_continue"] = "night_continue"
    doing = "moving on"
    command = "night continue"
    summary = "Move on to the next phase; the Nemesis, Minions and Cleanup resolve inside."

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night = night_of(state)
        spec = PHASES[night.phase]
        if night.phase == "beginning_of_night" and not night.started:
            return begin_night(state, cat, ctx.chance)
        if night.phase == "tactic" and night.activation is not None:
            raise RuleError("the Active Trouper has not finished", see=("night_done",))
        if not spec.done(night) or spec.next is None:
            return settle(state, cat, ctx.chance)  # the phase goes on resolving by itself
        return enter(state, cat, ctx.chance, spec.next)

    def said(self, c: Any, s: Any) -> str:
        return ("The night begins" if s is not None and s.night is not None and not s.night.started
                else "Continue")
