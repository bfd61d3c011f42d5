"""The night's legal actions as typed options (engine/legal.py), one per thing the table may
do now: the question waiting, the Planning Phase player's cards, the Active Trouper's Effects,
Supports, Items and Events, the Quick Effects usable now, or moving on: each action in
:data:`MENU` offers its own options and asks its own questions (``options``, ``question``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from blood_companion.content.render import render_effect
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import vigor
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.endgame import EndNight
from blood_companion.engine.legal import Next, Option, gathered
from blood_companion.engine.night.answers import AnswerQuestion, NextPhase, RollTest
from blood_companion.engine.night.asks import trait_name
from blood_companion.engine.night.phases import PHASES
from blood_companion.engine.night.planning import PassCascade, PlayCard, Rest
from blood_companion.engine.night.quick import UseQuick
from blood_companion.engine.night.tactic import (
    Attack,
    FinishActivation,
    ResolveEffect,
    RestRedraw,
    UseEvent,
    UseItem,
    UseSupport,
)
from blood_companion.engine.night.views import activation_options, board_view
from blood_companion.engine.rolls.night import test_options
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import hand_choices, hidden_hand
from blood_companion.engine.words.sentences import night_reason

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.board_view import PartBoard


def night_view(state: CampaignState, catalog: Catalog) -> Next:
    """What the table does now: the question waiting, else the phase's view (:data:`PHASE_VIEWS`,
    else the common one), each with the options :data:`MENU` offers; the Quick Effects usable
    now ("Quick Effects") follow, never the default."""
    night = night_of(state)
    title = f"Turn {night.turn} · {PHASES[night.phase].title}"
    offered = gathered(MENU, state, catalog)
    # the Active card's Effects by number, an attack or not
    effects = iter(sorted((o for o in offered if o.group == "effect"),
                          key=lambda o: int(o.fields["effect"])))
    options = tuple(next(effects) if o.group == "effect" else o
                    for o in offered if o.group != "quick")
    view = _question_view if night.pending else PHASE_VIEWS.get(night.phase, _phase_view)
    nxt = view(state, catalog, title, options)
    taken = {o.key for o in options}
    quick = tuple(o for o in offered if o.group == "quick" and o.key not in taken)
    return nxt._replace(options=(*nxt.options, *quick)) if quick else nxt


def _phase_view(state: CampaignState, catalog: Catalog, title: str,
                options: tuple[Option, ...]) -> Next:
    """A phase without a player's choice: the End of the Night, the set-up of the Beginning of
    the Night, or ``continue`` (the Nemesis, the Minions and the Cleanup resolve inside)."""
    night = night_of(state)
    spec = PHASES[night.phase]
    if night.phase == "over":
        return Next(
            "night", "over", "End of the Night",
            f"The night is {night.result}: {night_reason(night, catalog)}. "
            "End of the Night: clear the board and read the rewards.",
            options=options, default="1")
    if night.phase == "beginning_of_night" and not night.started:
        return Next(
            "night", night.phase, title, "Set up the table for the night, then begin it.",
            options=options, default="1")
    return Next("night", night.phase, title, spec.done_text or f"The {spec.title} resolves.",
                options=options, default="1")


def whose_turn(state: CampaignState, catalog: Catalog, nxt: Next | None = None) -> dict[str, Any]:
    """What the table does now, as plain data (`blood night next --json`, `blood status`):
    phase, who acts, the prompt, the question waiting, the hand or the activation. The choices
    themselves are :func:`night_view`'s options (``nxt`` when already built)."""
    nxt = night_view(state, catalog) if nxt is None else nxt
    night = night_of(state)
    out: dict[str, Any] = {
        "turn": night.turn, "phase": night.phase, "phase_name": PHASES[night.phase].title,
        "who": nxt.who, "question": None, "prompt": nxt.prompt}
    if night.pending:
        q = night.pending[0]
        out["question"] = q.model_dump()
        if q.kind == "test":
            out["test_options"] = test_options(state, catalog, q.trouper or 0, traits=q.traits,
                                               fixed_dice=q.dice, target=q.target or 0)
        return out
    if night.phase == "planning":
        out.update(nxt.details)
    elif "activation" in nxt.details:
        out["options"] = nxt.details["activation"]
        out["effects"] = list(nxt.info)
    return out


# --------------------------------------------------------------------------- questions


def _question_view(state: CampaignState, catalog: Catalog, title: str,
                   options: tuple[Option, ...]) -> Next:
    """The question waiting: its answers (:class:`AnswerQuestion`, :class:`RollTest`), its
    prompt, who answers and what Enter means."""
    night = night_of(state)
    q = night.pending[0]
    t = q.trouper or 0
    if q.kind == "test":
        opts_text = " or ".join(trait_name(x) for x in q.traits) or (q.dice or "")
        return Next(
            "night", night.phase, title,
            f"{q.prompt}. {fx.name_of(state, catalog, t)} takes a {opts_text} Test, "
            f"{q.target}+ Triumphs.", who=state.troupers[t].trouper, options=options,
            default="r")
    if q.kind in ("discard", "wound", "order", "token", "bite"):
        prompt = q.prompt
        if q.kind == "bite":
            lay = vigor.layout(state.troupers[t], catalog.config.vigor_tokens)
            prompt += (f" ({lay.available} Available and {lay.depleted} Depleted Vigor token(s) "
                       "without a Bite; a Bite on an Available token stops it paying)")
        return Next("night", night.phase, title, prompt,
                    who=None if q.kind == "order" else state.troupers[t].trouper,
                    options=options, default="c" if q.kind == "token" else "1")
    if q.kind == "confirm":
        # A Condition of an Enemy card the app cannot judge (only the Map shows it, or the
        # table judges it: issues 39 and 43) has no default: the table says; words the app
        # cannot read are resolved at the table, Enter once done; a Weakness's Trophy asked
        # defaults to what the app's state says of it (``n=1``: every clause it can judge
        # holds; engine/trophy.py).
        trophy = q.about.startswith("weakness:")
        words = q.about == "free_text"
        return Next(
            "night", night.phase, title, q.prompt, options=options,
            default=("y" if q.n else "n") if trophy else "y" if words else None,
            info=() if trophy or words else (
                "Look at the Map: type y or n (Enter says nothing here).",))
    if q.kind == "leader":  # a free choice among several: no Enter default (issue 26)
        return Next("night", night.phase, title, q.prompt, options=options, default=None,
                    info=("A free choice: type a name or number (Enter says nothing here).",))
    # A question only the Map answers: no default, Enter never says where a miniature stands
    # ("The app asks what only the table knows").
    spelled = " or ".join(x for x in ("`all`" if q.candidates else "",
                                      "`none`" if q.kind == "in_range" else "") if x)
    return Next(
        "night", night.phase, title,
        q.prompt + " Look at the Map: type a name" + (f", {spelled}" if spelled else "")
        + (" (`s` names several)" if len(q.candidates) > 2 else "") + ".",
        options=options, default=None)


# --------------------------------------------------------------------------- Planning


def _planning_view(state: CampaignState, catalog: Catalog, title: str,
                   options: tuple[Option, ...]) -> Next:
    """The Planning Phase player's choices; a hand the app does not see (the Trouper decks at
    the table) plays the card the player names."""
    night = night_of(state)
    t = night.to_play
    assert t is not None
    tr = state.troupers[t]
    who = fx.name_of(state, catalog, t)
    free = night.chain_spaces - len(night.chain)
    must_rest = len(tr.hand) == 1 and not tr.rested_this_turn
    can_rest = not tr.rested_this_turn
    hidden = hidden_hand(state, t)
    if hidden:
        info: tuple[str, ...] = ("The app does not see this hand: it asks which card.",)
    else:
        info = tuple(f"{i + 1}. {card.name}: " + "; ".join(render_effect(e) for e in card.effects)
                     for i, c in enumerate(tr.hand) if (card := catalog.tactic(c)) is not None)
    details: dict[str, Any] = {"hand": list(tr.hand), "can_pass": night.cascade,
                               "must_rest": must_rest, "can_rest": can_rest}
    if hidden:
        what = "may play another card after the Cascade, Rest, or pass" if night.cascade else (
            "has one card left and must Rest" if must_rest else "plays a Tactic card or Rests")
        prompt = f"{who} {what} ({free} Chain spaces free; {len(tr.hand)} cards in hand)."
        default: str | None = "r" if must_rest and can_rest else (
            "p" if night.cascade and must_rest else "1")
        if not any(o.key == default and o.enabled for o in options):
            default = next((o.key for o in options if o.enabled), "1")
        details |= {"hand_hidden": True, "can_be": hand_choices(state, t)}
    else:
        if night.cascade and must_rest:
            prompt = f"{who} has one card left: Rest with it, or pass after the Cascade."
        elif night.cascade:
            prompt = (f"{who} may play another card after the Cascade ({free} Chain spaces "
                      "free), Rest, or pass.")
        elif must_rest:
            prompt = f"{who} has one card left and must Rest."
        else:
            prompt = f"{who} plays a Tactic card or Rests ({free} Chain spaces free)."
        default = _planning_default(state, catalog, t, options)
    return Next("night", "planning", title, prompt, who=tr.trouper, options=options,
                default=default, info=info, details=details)


def _planning_default(
    state: CampaignState, catalog: Catalog, t: int, options: tuple[Option, ...]
) -> str | None:
    """What Enter does in the Planning Phase: the choice that keeps a hand. Cards come back
    only through a Rest's draw (and Draw Effects), and a night with no card in any hand at the
    Cleanup is lost ("Rest"; docs/rules-decisions.md). So a Trouper who has not Rested this
    turn Rests once their hand is down to two cards, when the last Chain space is left, or
    before a Block card would end the Planning Phase; after a Cascade they pass; otherwise
    they play their first card that does not end the Planning Phase."""
    night = night_of(state)
    tr = state.troupers[t]
    enabled = [o.key for o in options if o.enabled]
    plays = [o for o in options if o.group == "play" and o.enabled]
    free = night.chain_spaces - len(night.chain)
    can_rest = "r" in enabled
    if night.cascade and "p" in enabled and (len(tr.hand) > 2 or not can_rest):
        return "p"
    if can_rest and (len(tr.hand) <= 2 or free <= 1 or not plays):
        return "r"
    if night.cascade and "p" in enabled:
        return "p"
    open_ended = [o.key for o in plays if not _blocks(catalog, o)]
    if can_rest and not open_ended:
        return "r"  # only Block cards left: Rest before one ends the Planning Phase
    return next((k for k in (*open_ended, *(o.key for o in plays), "r", "p") if k in enabled), None)


def _blocks(catalog: Catalog, option: Option) -> bool:
    card = catalog.tactic(str(option.fields.get("card")))
    return card is not None and card.block


# --------------------------------------------------------------------------- Tactic Phase


def _tactic_view(state: CampaignState, catalog: Catalog, title: str,
                 options: tuple[Option, ...]) -> Next:
    """The Active Trouper's Effects, Supports, Items and Events; once every Chain card is
    resolved, ``continue``."""
    if night_of(state).activation is None:
        return _phase_view(state, catalog, title, options)
    opt = activation_options(state, catalog)
    who = fx.name_of(state, catalog, state.trouper_index(opt["trouper"]))
    if opt["rest"]:
        prompt = (f"{who} is Active with a Rest: discard any cards and draw up to "
                  f"{catalog.config.hand_size}, then finish.")
    else:
        prompt = (f"{who} is Active with {opt.get('card_name')} (Chain space {opt['space']}). "
                  "Resolve its Effects top to bottom, or skip them:")
    info = tuple(f"{e['effect']}. {e['text']}" + ("" if e["open"] else f"  [{e['why']}]")
                 for e in opt["effects"])
    # a Special Area Effect already resolved on a target is offered again, never the default
    again = {str(e["effect"]) for e in opt["effects"] if e.get("again")}
    preferred = [o.key for o in options
                 if o.group == "effect" and o.enabled and o.key not in again] + ["d"]
    if opt["rest"] and not opt["rest_drawn"]:
        preferred = ["1"]
    default = next((k for k in preferred if any(o.key == k and o.enabled for o in options)), "d")
    return Next("night", "tactic", title, prompt, who=opt["trouper"], options=options,
                default=default, info=info, details={"activation": opt})


# The night's actions whose options its views gather, in the order the menus show them (each
# offers them when it may be played): the Planning Phase player's, the answers of the question
# waiting, moving on, closing the night, the Active Trouper's, the Quick Effects (last).
MENU = (PlayCard, Rest, PassCascade, RollTest, AnswerQuestion, NextPhase, EndNight, RestRedraw,
        Attack, ResolveEffect, UseSupport, UseQuick, UseItem, UseEvent, FinishActivation)

# The night's phases with a view of their own (the others: ``_phase_view``).
PHASE_VIEWS: dict[str, Callable[[CampaignState, Catalog, str, tuple[Option, ...]], Next]] = {
    "planning": _planning_view, "tactic": _tactic_view}


def night_board(state: CampaignState, catalog: Catalog, view: Next | None,
                commands: Callable[[Next | None], list[str]]) -> PartBoard:
    """The night's section of the board (``flow.board``): the Night Board and whose turn it is
    (``view``: the view of now when already built)."""
    turn = whose_turn(state, catalog, view)
    title = f"Turn {turn['turn']} · {turn['phase_name']}"
    return "night", board_view(state, catalog), {
        **turn, "title": title, "commands": commands(view)}  # type: ignore[typeddict-item]
