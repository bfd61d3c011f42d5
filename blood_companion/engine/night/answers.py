"""Answering the table's questions (targets, discards, dodge Tests) and moving on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine import vigor
from blood_companion.engine.actions import Bonus, Cli, Context, Dice, Items, Reroll, Trait
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.night import enemy as ai
from blood_companion.engine.night.asks import trait_name
from blood_companion.engine.night.core import NightAction, trouper_index
from blood_companion.engine.night.hands import from_hand
from blood_companion.engine.night.phases import PHASES, begin_night, enter, settle
from blood_companion.engine.rolls.night import (
    TestSpec,
    take_test,
    test_options,
    throw_ask,
    use_test_items,
)
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words.checklists import checklist_ask
from blood_companion.engine.words.sentences import actor_name, names, who
from blood_companion.engine.words.templates import SETUP
from blood_companion.engine.words.text import listing, percent

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.night_state import Question


def _map_options(state: CampaignState, q: Question, names: Mapping[int, str]
                 ) -> tuple[Option, ...]:
    """A question only the Map answers (who is in range, closest, farthest): by name, with
    `all` and `none` spelled out."""
    out = [Option(str(k + 1), names[i], "night_answer", {"troupers": [state.troupers[i].trouper]})
           for k, i in enumerate(q.candidates)]
    if len(q.candidates) > 2:
        out.append(Option("s", "Several of them: name them", "night_answer",
                          needs=("troupers",)))
    if q.candidates:  # `all` means the same with one candidate as with four
        out.append(Option(
            "a", "All of them: " + ", ".join(names[i] for i in q.candidates), "night_answer",
            {"troupers": [state.troupers[i].trouper for i in q.candidates]}))
    if q.kind == "in_range":
        out.append(Option("n", "None of them", "night_answer", {"troupers": []}))
    return tuple(out)


def _side_options(state: CampaignState, catalog: Catalog, q: Question) -> tuple[Option, ...]:
    """Where new Bites lie ("Bite"), or which token moves from the Map ("Placing a Trap or
    Whisper Token"): one option per way the board allows."""
    t = q.trouper or 0
    if q.kind == "token":
        word = "Trap" if q.about == "traps" else "Whisper"
        return (Option("c", f"A Consumed {word} (it turns Intact on the new Tile)",
                       "night_answer", {"cards": ["consumed"]}),
                Option("i", f"An Intact {word}", "night_answer", {"cards": ["intact"]}))
    choices: list[Option] = []
    for down in reversed(vigor.bite_options(state.troupers[t], catalog.config.vigor_tokens, q.n)):
        up = q.n - down
        label = "On " + " and ".join(
            (("an " if side[0] == "A" else "a ") + f"{side} token") if k == 1
            else f"{k} {side} tokens"
            for k, side in ((down, "Depleted"), (up, "Available")) if k)
        choices.append(Option(str(len(choices) + 1), label, "night_answer",
                              {"cards": ["depleted"] * down + ["available"] * up}))
    return tuple(choices)


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

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The answers of the question waiting (a Test aside: :class:`RollTest`)."""
        night = state.night
        if night is None or not night.pending or night.phase == "over":
            return ()
        q = night.pending[0]
        if q.kind == "test":
            return ()
        names = {i: fx.name_of(state, catalog, i) for i in range(len(state.troupers))}
        if q.kind in ("discard", "wound"):
            what = "to discard" if q.kind == "discard" else "that take the Wounds"
            return (Option("1", f"Choose {q.n} card(s) {what}", "night_answer",
                           needs=("cards",)),)
        if q.kind == "confirm":
            trophy = q.about.startswith("weakness:")
            words = q.about == "free_text"
            yes = ": the Trophy is earned" if trophy else (
                ": resolved at the table" if words else ": it holds")
            no = ": not earned" if trophy else (": it does not apply" if words else
                                                ": it does not hold")
            return (Option("y", "Yes" + yes, "night_answer", {"yes": True}),
                    Option("n", "No" + no, "night_answer", {"yes": False}))
        if q.kind == "order":
            shown = ", ".join(ai.waiting_name(state, catalog, c) for c in q.cards)
            return (Option("1", f"In this order: {shown}", "night_answer",
                           {"cards": list(q.cards)}),
                    Option("o", "Another order", "night_answer", needs=("cards",)))
        if q.kind in ("bite", "token"):
            return _side_options(state, catalog, q)
        if q.kind == "leader":  # a free choice among several
            return tuple(Option(str(k + 1), names[i], "night_answer",
                                {"troupers": [state.troupers[i].trouper]})
                         for k, i in enumerate(q.candidates))
        return _map_options(state, q, names)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        """The cards (their order; those discarded or taking the Wounds), or the Troupers only
        the Map shows."""
        q = night_of(state).pending[0]
        if need == "cards" and q.kind == "order":
            picks = tuple(Pick(str(i + 1), ai.waiting_name(state, catalog, c), c)
                          for i, c in enumerate(q.cards))
            return Ask("cards", "Type the cards in the order their Effects resolve, e.g. "
                       + " ".join(p.key for p in reversed(picks)), picks,
                       many=(len(picks), len(picks)), default=" ".join(p.key for p in picks))
        if need == "cards":  # the discard question, or the cards that take the Wounds
            n = min(q.n, len(state.troupers[q.trouper or 0].hand))
            return from_hand(state, catalog, q.trouper or 0, "cards",
                             f"{q.prompt}: type {n} number(s)", n)
        if need != "troupers":
            raise KeyError(need)  # pragma: no cover - every need above
        picks = tuple(
            Pick(str(k + 1), fx.name_of(state, catalog, i), state.troupers[i].trouper)
            for k, i in enumerate(q.candidates))
        least = 0 if q.kind == "in_range" else 1
        spelled = "`all`" + (" or `none`" if least == 0 else "")
        return Ask("troupers", q.prompt, picks, many=(least, len(picks)),
                   info=(f"Look at the Map. Type the names or numbers (e.g. 1 2), {spelled}; "
                         "Enter says nothing here.",))

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

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Test waiting: rolled with the best Trait, or with each Trait there is a choice of."""
        night = state.night
        if night is None or not night.pending or night.phase == "over":
            return ()
        q = night.pending[0]
        if q.kind != "test":
            return ()
        t = q.trouper or 0
        who = fx.name_of(state, catalog, t)
        opts = test_options(state, catalog, t, traits=q.traits, fixed_dice=q.dice,
                            target=q.target or 0)
        best = opts[0] if opts else None

        def roll(key: str, label: str, o: Mapping[str, Any] | None) -> Option:
            trait = str(o["trait"]) if o is not None and q.traits else None
            return Option(key, label, "night_roll", {"trait": trait}, needs=("dice",),
                          repeat=("dice",))

        options = [roll("r", f"Roll for {who}: {trait_name(best['trait'])}, {best['pool']}, "
                        f"{percent(best['probability'])} to succeed" if best
                        else f"Roll for {who}", best)]
        if len(opts) > 1:
            options += [roll(str(i + 1), f"{trait_name(o['trait'])}: roll {o['pool']}, "
                             f"{percent(o['probability'])} to reach {o['target']}", o)
                        for i, o in enumerate(opts)]
        return tuple(options)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        """Each throw of the dodge Test (its Trait is chosen with the option)."""
        if need != "dice":
            return None
        q = night_of(state).pending[0]
        spec = TestSpec(q.trouper or 0, tuple(q.traits), q.dice, q.target or 0, "dodge",
                        against_enemy=True)
        return throw_ask(state, catalog, spec, {**option.fields, **answers})

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
    asks = {SETUP: lambda state, catalog, option, answers: checklist_ask(
        state, catalog, "night", "Beginning of the Night", answers)}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """Moving on, in a phase without a player's choice (the Beginning of the Night's
        set-up: a checklist)."""
        night = state.night
        if night is None or night.pending or night.phase in ("over", "planning") or (
                night.phase == "tactic" and night.activation is not None):
            return ()
        if night.phase == "beginning_of_night" and not night.started:
            # "Beginning of the Night": the physical set-up, a line to tick each
            return (Option("1", "Begin the night: set up the table (a checklist, Enter ticks "
                           "each line)", "night_continue", needs=(SETUP,), repeat=(SETUP,)),)
        return (Option("1", "Continue", "night_continue"),)

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
