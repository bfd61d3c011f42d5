"""Actions of the night's set-up and of the Planning Phase."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine.actions import Action, Cli, Context
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.box import require_single_game_setup
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Option
from blood_companion.engine.night.core import NightAction, card_label, tactic_card, trouper_index
from blood_companion.engine.night.hands import actor, from_hand, hand_picks
from blood_companion.engine.night.phases import begin_night, chain_full, settle
from blood_companion.engine.night_setup import setup_night
from blood_companion.engine.night_state import ChainSlot, NightState
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import hidden_hand, take_from_hand

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class SetupNight(Action):
    """Lay out a night (Single Game mode: every aspect chosen on the command line; also the
    way to play a night in Roguelite before the Day Part is done) and begin it."""

    type: Literal["night_setup"] = "night_setup"
    command = "night setup"
    nemesis: str
    location: str
    minions: list[str]
    difficulty: int
    events: list[str] | None = None
    parts = ("day", "night", "over")

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        if state.part == "night" and state.night is not None:
            if state.night.result is None:
                raise RuleError("a night is being played", hint="finish it first")
            # A finished night is closed by the End of the Night (history, rewards) first.
            raise RuleError(
                f"the night was {state.night.result}: close it before setting up another",
                see=("end_night",))
        state = require_single_game_setup(state, ctx.catalog)
        state = setup_night(state, ctx.catalog, ctx.chance, nemesis=self.nemesis,
                            location=self.location, minions=self.minions,
                            difficulty=self.difficulty, events=self.events)
        return begin_night(state, ctx.catalog, ctx.chance)

    words = (
        "Night set up: {nemesis:name} at {location:name}, level {difficulty}, Minions "
        "{minions:names}"
    )


class BeginNight(NightAction):
    """Resolve the Beginning of the Night of a night laid out by the Day Part."""

    type: Literal["night_begin"] = "night_begin"
    command = "night continue"
    doing = "beginning the night"

    words = "The night begins"

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        night = night_of(state)
        if night.started:
            raise RuleError("the night has already begun")
        return begin_night(state, ctx.catalog, ctx.chance)


def planner(state: CampaignState, catalog: Catalog, trouper: str) -> tuple[NightState, int, str]:
    """The Planning Phase player acting now: (night, Trouper index, name). Raises RuleError
    out of turn (the phase itself is checked by the phase table)."""
    night = night_of(state)
    t = trouper_index(state, trouper)
    who = fx.name_of(state, catalog, t)
    if night.to_play != t:
        now = fx.name_of(state, catalog, night.to_play) if night.to_play is not None else "nobody"
        raise RuleError(f"it is {now}'s turn to play, not {who}'s")
    return night, t, who


def planning_turn(state: CampaignState) -> int | None:
    """The seat of the Planning Phase player choosing now (None: not the Planning Phase's
    choice, or a question waits)."""
    night = state.night
    if night is None or night.pending or night.phase != "planning":
        return None
    return night.to_play


class PlayCard(NightAction):
    """ "Planning Phase": a Tactic card from hand onto the leftmost free Chain space."""

    type: Literal["night_play"] = "night_play"
    doing = "playing a card"
    command = "night play"
    summary = "Planning Phase: play a Tactic card on the leftmost free Chain space."
    trouper: Annotated[str, Cli(help="Trouper id, colour or seat.", names="trouper")]
    card: Annotated[str, Cli(help="Card id, id prefix or name.", names="hand")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The cards of the Planning Phase player's hand (a hand the app does not see: the card
        asked), shown but refused when only a Rest is left."""
        t = planning_turn(state)
        if t is None:
            return ()
        tr = state.troupers[t]
        must_rest = len(tr.hand) == 1 and not tr.rested_this_turn
        why = f"{fx.name_of(state, catalog, t)} has one card left and must Rest" if must_rest \
            else ""
        if hidden_hand(state, t):
            return (Option("1", "Play a card from the hand (say which)", "night_play",
                           {"trouper": tr.trouper}, needs=("card",), enabled=not must_rest,
                           why=why, group="play"),)
        return tuple(Option(str(i + 1), f"Play {card_label(catalog, c)}"
                            + ("" if catalog.tactic(c) else " ()"), "night_play",
                            {"trouper": tr.trouper, "card": c}, enabled=not must_rest, why=why,
                            group="play") for i, c in enumerate(tr.hand))

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "card":
            return None
        t = actor(state, option)  # a hand the app does not see
        return Ask("card", f"Which card does {fx.name_of(state, catalog, t)} play? (the cards "
                   "that can be in the hand; type its number or name)",
                   hand_picks(state, catalog, t))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, t, who = planner(state, cat, self.trouper)
        if chain_full(night):
            raise RuleError("the Chain is full")
        tr = state.troupers[t]
        hand = take_from_hand(state, cat, t, [self.card])  # engine/table.py: a hidden hand too
        if len(tr.hand) == 1 and not tr.rested_this_turn:
            # "Rest": a player down to one card Rests with it, after a Cascade too (or passes
            # then), so no hand is ever emptied by playing (docs/rules-decisions.md).
            raise RuleError(
                f"{who} has one card in hand and must Rest"
                + (" (or pass after the Cascade)" if night.cascade else ""),
                see=("night_rest",))
        card = tactic_card(cat, self.card)
        state = fx.with_trouper(state, t, hand=hand)
        slot = ChainSlot(kind="tactic", card=self.card, owner=t, threat=card.threat)
        tags = (["Cascade"] if card.cascade else []) + (["Block"] if card.block else [])
        return _on_chain(state, ctx, slot, "plays", {"card": card.id, "tags": tags},
                         after_play="end" if card.block else "cascade" if card.cascade else "next")

    words = "{trouper:who} plays {card:name}"


class Rest(NightAction):
    """ "Rest": a face-down card on the Chain, 1 Threat, the Exhausted token; once a turn."""

    type: Literal["night_rest"] = "night_rest"
    doing = "a Rest"
    command = "night rest"
    summary = "Planning Phase: Rest (a face-down card, 1 Threat, Exhausted); once a Game Turn."
    trouper: Annotated[str, Cli(help="Trouper id, colour or seat.", names="trouper")]
    card: Annotated[str, Cli(help="The card placed face down.", names="hand")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """A Rest, once a Game Turn."""
        t = planning_turn(state)
        if t is None or state.troupers[t].rested_this_turn:
            return ()
        return (Option("r", "Rest (a card face down, 1 Threat, Exhausted)", "night_rest",
                       {"trouper": state.troupers[t].trouper}, needs=("card",), group="rest"),)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "card":
            return None
        t = actor(state, option)  # the card a Rest puts face down
        return from_hand(state, catalog, t, "card", f"{fx.name_of(state, catalog, t)} Rests: "
                         "which card goes face down?"
                         + (" (the cards that can be in the hand)" if hidden_hand(state, t)
                            else ""))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, t, who = planner(state, cat, self.trouper)
        tr = state.troupers[t]
        if tr.rested_this_turn:
            raise RuleError(f"{who} has already Rested this Game Turn")
        if chain_full(night):
            raise RuleError("the Chain is full")
        hand = take_from_hand(state, cat, t, [self.card])  # engine/table.py: a hidden hand too
        state = fx.with_trouper(state, t, hand=hand, rested_this_turn=True)
        slot = ChainSlot(kind="rest", card=self.card, owner=t, threat=1, face_down=True)
        # "Rest": the card, then 1 Threat (its Interruptions resolve), then the Exhausted token.
        return _on_chain(state, ctx, slot, "rests", {}, after_play="next", rest_exhaust=t)

    words = "{trouper:who} Rests ({card:name} face down)"


def _on_chain(state: CampaignState, ctx: Context, slot: ChainSlot, said: str,
              logged: dict[str, Any], **night: Any) -> CampaignState:
    """A card played or Rested on the leftmost free Chain space: logged (``said``), the
    ``night`` fields set (how the Planning Phase goes on), then its Threat added (its
    Interruptions resolve)."""
    assert slot.owner is not None
    chain, k = ch.place(night_of(state).chain, slot)
    state = fx.with_night(state, chain=chain, rightmost_player=slot.owner)
    state = fx.log(state, said, who=fx.tid(state, slot.owner), **logged, space=ch.number(chain, k))
    state = fx.with_night(state, cascade=False, **night)
    state = fx.add_threat(state, ctx.catalog, slot.threat, ctx.chance)
    return settle(state, ctx.catalog, ctx.chance)


class PassCascade(NightAction):
    """Decline to play another card after a Cascade card."""

    type: Literal["night_pass"] = "night_pass"
    doing = "passing after a Cascade"
    command = "night pass"
    summary = "Planning Phase: play no more cards after a Cascade."
    trouper: Annotated[str, Cli(help="The player who just played a Cascade card.", names="trouper")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """A pass, after a Cascade."""
        t = planning_turn(state)
        night = state.night
        if t is None or night is None or not night.cascade:
            return ()
        return (Option("p", "Pass (no more cards after the Cascade)", "night_pass",
                       {"trouper": state.troupers[t].trouper}, group="pass"),)

    words = "{trouper:who} passes after the Cascade"

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        night = night_of(state)
        t = trouper_index(state, self.trouper)
        if night.to_play != t or not night.cascade:
            raise RuleError("only a player who just played a Cascade card may pass",
                            hint="everyone else plays a card or Rests")
        state = fx.with_night(state, after_play="next", cascade=False)
        return settle(state, ctx.catalog, ctx.chance)
