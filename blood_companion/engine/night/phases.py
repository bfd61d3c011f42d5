"""The night's phase machine as a table ("Game Turns", "Night Part").

:data:`PHASES` holds every phase of a night, in order: its actions (and, while a question
waits, its ``questions``), its ``enter`` and ``settled`` steps, when ``continue`` may leave it
(``done``) and what follows (``next``); its view is night/options.py's (``PHASE_VIEWS``).
:func:`check_phase` is the one legality check of the night, :func:`advance` the one path from
a phase to the next and ``bookkeeping.goto`` the one writer of ``phase``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, NoReturn

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine import why
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import enemy as ai
from blood_companion.engine.night.core import can_play
from blood_companion.engine.night_state import Activation, EnemyJob, MinionSlot, NightState
from blood_companion.engine.state import CampaignState, Tokens
from blood_companion.engine.table import UNKNOWN
from blood_companion.engine.words.names import record_name
from blood_companion.engine.words.templates import REASONS

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

Step = Callable[[CampaignState, "Catalog", "Chance | None"], CampaignState]

ANSWERS = frozenset({"night_answer", "night_roll", "night_item"})
# what a waiting question allows in a phase with Tactic cards on the Chain (Quick Effects)
ON_CHAIN = ANSWERS | {"night_quick"}
QUESTION_ACTIONS = ON_CHAIN


class Phase(NamedTuple):
    key: str
    title: str
    section: str
    actions: frozenset[str]
    enter: Step  # run by the machine once it has entered the phase
    settled: Step | None = None
    next: str | None = None
    done: Callable[[NightState], bool] = lambda night: night.phase_done  # `continue` may leave
    questions: frozenset[str] = ANSWERS  # also allowed while a question waits
    done_text: str = ""  # what the table hears once the phase is done
    refuse: Mapping[str, str] = {}  # own words for actions it refuses (read only)


def settle(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """Run queued Enemy cards, then whatever the phase does when its queue is empty."""
    for _ in range(1000):
        state = ai.run_queue(state, catalog, rng)
        night = night_of(state)
        if night.pending or night.queue or night.result is not None:
            return state
        spec = PHASES[night.phase]
        if spec.settled is None:
            return state
        before = state
        state = spec.settled(state, catalog, rng)
        if state is before:
            return state
    raise RuleError("the night did not settle")  # pragma: no cover


def advance(state: CampaignState, catalog: Catalog, rng: Chance | None,
            phase: str | None = None) -> CampaignState:
    """The machine: leave the current phase for `phase` (default: its ``next``) and run that
    phase's ``enter``. The Cleanup leading to the Start of Turn begins a Game Turn."""
    night = night_of(state)
    to = phase or PHASES[night.phase].next
    assert to is not None
    turn = night.turn + 1 if (night.phase, to) == ("cleanup", "start_of_turn") else night.turn
    return PHASES[to].enter(fx.goto(state, to, turn=turn), catalog, rng)


def enter(state: CampaignState, catalog: Catalog, rng: Chance, phase: str) -> CampaignState:
    """Enter `phase` and settle what it starts."""
    return settle(advance(state, catalog, rng, phase), catalog, rng)


def begin_night(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """ "Beginning of the Night" of a night laid out (by the Day Part or a Single Game's set-up),
    settled: the Nemesis's Skills resolve and Game Turn 1 begins."""
    return enter(state, catalog, rng, "beginning_of_night")


def _begin(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    """ "Beginning of the Night" after :func:`setup_night` dealt five cards each: the
    Nemesis's own Beginning-of-the-Night Skills resolve, the players' are listed for them to
    resolve in an agreed order; then Game Turn 1 starts. Also used by the Day Part."""
    state = fx.with_night(state, started=True)
    state = fx.log(state, "beginning_of_night", n=catalog.config.hand_size)
    for t in state.troupers:  # what each player takes (engine/table.py: who holds the decks)
        if UNKNOWN in t.hand:
            state = fx.log(state, "hand_drawn", who=t.trouper, n=len(t.hand))
        else:
            state = fx.log(state, "hand_dealt", who=t.trouper, cards=list(t.hand))
    return queue_timed(state, catalog, "beginning_of_night")


def queue_timed(state: CampaignState, catalog: Catalog, timing: str) -> CampaignState:
    """Queue every Effect of this moment ("At the Beginning of the Night / Turn / Cleanup"):
    the Nemesis's Skills and Weakness cards with this timing first, then the players' (cards in
    hand, equipped Items, the face-up Tactic cards and Event cards on the Chain). With several
    cards the players say in which order, the queued order kept if they agree; the Nemesis's
    cards are among them ("Beginning of the Night", "Start of Turn"), except at the Beginning
    of Cleanup, where the Nemesis's go first ("Cleanup Phase")."""
    skills = [*fx.timed_skills(state, catalog, timing), *ai.weakness_jobs(state, catalog, timing)]
    # (source, card, whose Effects: the side of an Item shown, owner): a face-up Tactic card's
    # owner resolves it, an Event's Effects the Leader
    cards: list[tuple[Literal["trouper", "event"], str, int | None, int]] = [
        ("trouper", cid, i, i) for i, t in enumerate(state.troupers)
        for cid in [*t.hand, *t.equipped.values()]]
    for slot in night_of(state).chain:
        if slot.kind == "tactic" and slot.owner is not None:
            cards.append(("trouper", slot.card, slot.owner, slot.owner))
        if slot.kind == "event" and not slot.face_down:
            cards.append(("event", slot.card, None, state.leader))
    jobs = [EnemyJob(source=source, card=cid, owner=owner, effects=[k],
                     label=record_name(catalog, cid))
            for source, cid, side_of, owner in cards
            for k, e in enumerate(ai.effects_of_card(state, catalog, cid, side_of))
            if e.timing == timing]
    if jobs:
        state = fx.log(state, "player_timing", found=[[fx.tid(state, j.owner or 0), j.card]
                                                      for j in jobs])
    # the Nemesis's own first, then the players', until the players choose another order
    state = fx.with_night(state, queue=[*skills, *night_of(state).queue, *jobs])
    return ai.ask_order(state, catalog,
                        jobs if timing == "beginning_of_cleanup" else [*skills, *jobs])


def start_turn(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    """ "Start of Turn": Beginning-of-the-Turn Effects, then the Planning Phase."""
    state = fx.with_night(state, phase_done=False)
    state = fx.log(state, "game_turn", turn=night_of(state).turn)
    return queue_timed(state, catalog, "beginning_of_turn")


def start_planning(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    """ "Planning Phase": from the Leader clockwise; skipped by Troupers who cannot play."""
    state = fx.with_night(state, passed=[], cascade=False, after_play=None, phase_done=False)
    state = fx.log(state, "planning_phase")
    first = next_player(state, state.leader, include_self=True)
    if first is None:
        return end_planning(state, catalog, "nobody_can_play_card", rng)
    return fx.with_night(state, to_play=first)


def next_player(state: CampaignState, after: int, *, include_self: bool = False) -> int | None:
    n = len(state.troupers)
    start = 0 if include_self else 1
    for k in range(start, n + start):
        i = (after + k) % n
        if can_play(state, i):
            return i
    return None


def chain_full(night: NightState) -> bool:
    return len(night.chain) >= night.chain_spaces


def after_play(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    """The Planning Phase once a played card's Interruptions are resolved: the same player again
    after a Cascade, else the next player who can play; the phase ends when the Chain is full,
    after a Block, or when nobody can play."""
    rester = night_of(state).rest_exhaust
    if rester is not None:  # a Rest's Exhausted token comes after its Threat ("Rest")
        state = fx.with_night(state, rest_exhaust=None)
        state = fx.exhaust(state, catalog, rester)
    if night_of(state).after_play is None:
        return state
    night = night_of(state)
    what = night.after_play
    state = fx.with_night(state, after_play=None)
    if chain_full(night):
        return end_planning(state, catalog, "chain_full", rng)
    if what == "end":
        return end_planning(state, catalog, "block", rng)
    player = night.to_play if night.to_play is not None else state.leader
    if what == "cascade" and can_play(state, player):
        return fx.with_night(state, cascade=True)
    nxt = next_player(state, player)
    if nxt is None:
        return end_planning(state, catalog, "nobody_can_play_card", rng)
    return fx.with_night(state, to_play=nxt, cascade=False)


def end_planning(state: CampaignState, catalog: Catalog, why: str, rng: Chance | None = None
                 ) -> CampaignState:
    state = fx.log(state, "planning_ends", reason=why)
    return advance(state, catalog, rng)


def enter_tactic(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    state = fx.with_night(state, to_play=None, cascade=False, after_play=None, phase_done=False)
    state = fx.log(state, "tactic_phase")
    return activate_next(state)


def activate_next(state: CampaignState) -> CampaignState:
    """ "Tactic Phase": the owner of the leftmost Tactic card without a Resolved token is the
    Active Trouper."""
    night = night_of(state)
    for k, slot in enumerate(night.chain):
        if slot.kind in ("tactic", "rest") and not slot.resolved and slot.owner is not None:
            state = fx.with_night(state, activation=Activation(slot=k, trouper=slot.owner))
            who = fx.tid(state, slot.owner)
            space = ch.number(night.chain, k)
            if slot.kind == "rest":
                return fx.log(state, "active_rest", who=who, space=space)
            return fx.log(state, "active", who=who, card=slot.card, space=space)
    state = fx.with_night(state, activation=None, phase_done=True)
    return fx.log(state, "chain_resolved")


def unresolved_reactions(state: CampaignState, catalog: Catalog) -> list[EnemyJob]:
    """ "Nemesis Phase": cards without a Resolved token, rightmost first."""
    night = night_of(state)
    jobs = []
    for k in range(len(night.reaction_line) - 1, -1, -1):
        slot = night.reaction_line[k]
        if not slot.resolved:
            face = fx.reaction_face(state, catalog, slot.card)
            jobs.append(EnemyJob(source="reaction", card=slot.card, label=face.name, slot=k))
    return jobs


def _reaction_order(state: CampaignState, jobs: list[EnemyJob]) -> CampaignState:
    """The order the Reaction cards resolve in, recorded for `why` (engine/why.py) when two
    or more wait."""
    if len(jobs) < 2:
        return state
    return fx.log(state, why.DECISION, about="order", during="nemesis",
                  cards=[[j.card, j.slot] for j in jobs])


def start_nemesis(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    state = fx.with_night(state, phase_done=False, activation=None)
    state = fx.log(state, "nemesis_phase")
    jobs = unresolved_reactions(state, catalog)
    return fx.with_night(_reaction_order(state, jobs), queue=jobs)


def _unless_done(step: Callable[[CampaignState, Catalog], CampaignState]) -> Step:
    """A phase's ``settled``: ``step`` until the phase is done."""
    return lambda state, catalog, rng: state if night_of(state).phase_done else step(state, catalog)


def _nemesis_settled(state: CampaignState, catalog: Catalog) -> CampaignState:
    """Reaction cards revealed during the phase resolve too; then the phase is done."""
    jobs = unresolved_reactions(state, catalog)
    if jobs:
        return fx.with_night(_reaction_order(state, jobs), queue=jobs)
    state = fx.with_night(state, phase_done=True)
    return fx.log(state, "nemesis_phase_over")


def start_minions(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    """ "Minions Phase": Minion A, Minion B, then the other spaces in Flow order; each
    Miniature resolves its card top to bottom, one at a time, the players choosing which of a
    space's Miniatures acts next. Spaces are taken one at a time, so a Minion summoned during
    the phase activates too when its space's turn comes."""
    state = fx.with_night(state, phase_done=False, activated=[])
    state = fx.log(state, "minions_phase")
    ordered = [s for s in _by_flow(night_of(state), catalog) if s.alive > 0]
    if len(ordered) > 1:  # the order the spaces activate in, for `why` (engine/why.py)
        state = fx.log(state, why.DECISION, about="order", during="minions",
                       spaces=[[s.space, s.minion] for s in ordered])
    return _next_minion_space(state, catalog)


def _by_flow(night: NightState, catalog: Catalog) -> list[MinionSlot]:
    """The Minion cards in the order their spaces activate: A, B, then the Flow Arrow's."""
    order = {sp: k for k, sp in enumerate(catalog.board.minion_spaces)}
    return sorted(night.minions, key=lambda s: order.get(s.space, 99))


def _next_minion_space(state: CampaignState, catalog: Catalog) -> CampaignState:
    """Queue the Miniatures of the next Minion space (Flow order) not activated this phase;
    the phase is done when none is left."""
    night = night_of(state)
    waiting = [
        s for s in _by_flow(night, catalog) if s.space not in night.activated and s.alive > 0]
    if not waiting:
        state = fx.with_night(state, phase_done=True)
        return fx.log(state, "minions_phase_over")
    slot = waiting[0]
    card = catalog.get("minions", slot.minion)
    name = card.name if card is not None else slot.minion
    jobs = []
    for k in range(slot.alive):
        label = f"{name} ({slot.space}" + (
            f", Miniature {k + 1} of {slot.alive})" if slot.alive > 1 else ")")
        jobs.append(EnemyJob(
            source="minion", card=slot.minion, label=label, space=slot.space, miniature=k + 1,
            miniatures=slot.alive))
    if slot.alive > 1:
        state = fx.log(state, "minions_order", minion=slot.minion, space=slot.space, n=slot.alive,
                       leader=fx.tid(state, state.leader))
    return fx.with_night(state, queue=jobs, activated=[*night.activated, slot.space])


def cleanup(state: CampaignState, catalog: Catalog, rng: Chance | None = None) -> CampaignState:
    """ "Cleanup Phase", in the printed order: first every Effect "at the beginning of the
    Cleanup Phase" is queued (the Nemesis's Skills, the players' Items, cards in hand and cards
    on the Chain); only once they are all resolved, their questions answered, do the other
    steps follow (:func:`cleanup_steps`, run here when nothing waits, else when the queue has
    settled)."""
    state = fx.with_night(state, phase_done=False)
    state = fx.log(state, "cleanup_phase")
    state = queue_timed(state, catalog, "beginning_of_cleanup")
    night = night_of(state)
    if night.queue or night.pending:
        return state
    return cleanup_steps(state, catalog)


def cleanup_steps(state: CampaignState, catalog: Catalog) -> CampaignState:
    """ "Cleanup Phase" after its beginning-of-Cleanup Effects: the Leader token, the tokens,
    the cards off the Night Board, Knock Out, Items and Exhausted tokens, Threat back to the
    first space; then the checks that may end the night."""
    night = night_of(state)
    # The Leader token passes to the player after whoever placed the rightmost card.
    owners = [s.owner for s in night.chain if s.owner is not None]
    if owners:
        last = owners[-1]
        leader = (last + 1) % len(state.troupers)
        state = state.model_copy(update={"leader": leader})
        state = fx.log(state, "leader_passes", leader=fx.tid(state, leader))
    state = fx.log(state, "tokens_cleanup")
    # Resolved tokens off; Tactic cards to their owners' discard piles (or Wounds when
    # Sacrificed); Reaction cards to the Nemesis discard pile.
    troupers = list(state.troupers)
    # an Event card left on the Chain stays on its space ("Cleanup Phase" takes only the solved)
    kept: list[int] = []
    chain = list(night.chain)
    for k, slot in enumerate(night.chain):
        if slot.kind == "event":
            if not slot.face_down:
                kept.append(k)
                chain[k] = slot.model_copy(update={"resolved": False, "supports_used": []})
            continue
        assert slot.owner is not None
        t = troupers[slot.owner]
        if slot.sacrificed:
            troupers[slot.owner] = t.model_copy(update={"wounds": [*t.wounds, slot.card]})
        else:
            troupers[slot.owner] = t.model_copy(update={"discard": [*t.discard, slot.card]})
    keep = ch.keep(chain, kept)
    discard = [*night.reaction_discard, *(s.card for s in night.reaction_line)]
    limit = catalog.config.knock_out_wounds
    for i, t in enumerate(troupers):
        update: dict[str, Any] = {
            "depleted_items": [],
            # Consumed Trap and Whisper tokens leave the Map; Intact ones turn Consumed
            "traps": _tokens_cleanup(t.traps),
            "whispers": _tokens_cleanup(t.whispers),
            "exhausted": False,
            "rested_this_turn": False}
        if not t.knocked_out and fx.wound_count(t) >= limit:
            update["knocked_out"] = True
        troupers[i] = t.model_copy(update=update)
    newly_out = [
        i for i, t in enumerate(troupers) if t.knocked_out and not state.troupers[i].knocked_out]
    state = state.model_copy(update={"troupers": troupers})
    for i in newly_out:
        state = fx.log(state, "knocked_out", who=fx.tid(state, i), n=limit)
    state = fx.with_night(
        state, chain=keep, reaction_line=[], reaction_discard=discard, threat=0, activation=None,
        bonuses={}, phase_done=True)
    state = fx.log(state, "cleanup_done")
    if catalog.config.lose_when_all_knocked_out and all(t.knocked_out for t in troupers):
        state = fx.end_night(state, "lost", "all_knocked_out")
    elif catalog.config.lose_when_nobody_can_play and not any(
        can_play(state, i) for i in range(len(troupers))
    ):
        # No printed rule covers it: with no card in any hand nobody can play, Rest or raise
        # Threat, so the night could never end (docs/rules-decisions.md).
        state = fx.end_night(state, "lost", "nobody_can_play")
    return state


def _tokens_cleanup(tok: Tokens) -> Tokens:
    """ "Cleanup Phase": the Consumed tokens go back to the player, the Intact ones turn."""
    return Tokens(supply=tok.supply + tok.consumed, intact=0, consumed=tok.intact)


def _by_itself(night: NightState) -> bool:
    """The end of a phase that goes on by itself once settled (``continue`` only settles)."""
    return False


def _over(state: CampaignState, catalog: Catalog, rng: Chance | None) -> CampaignState:
    return state


PHASES: dict[str, Phase] = {
    p.key: p
    for p in (
        Phase(
            "beginning_of_night", "Beginning of the Night", "Beginning of the Night",
            frozenset({"night_begin", "night_continue"}), _begin, advance, "start_of_turn",
            done=_by_itself, done_text="Begin the night."),
        Phase(
            "start_of_turn", "Start of Turn", "Game Turns",
            frozenset({"night_continue", "night_item"}), start_turn, advance, "planning",
            done=_by_itself, done_text="Start the Game Turn."),
        Phase(
            "planning", "Planning Phase", "Planning Phase",
            frozenset({"night_play", "night_rest", "night_pass", "night_item", "night_quick"}),
            start_planning, after_play, "tactic", done=_by_itself, questions=ON_CHAIN,
            refuse={"night_continue": "the Planning Phase goes on while someone can play"}),
        Phase(
            "tactic", "Tactic Phase", "Tactic Phase",
            frozenset({"night_attack", "night_effect", "night_support", "night_event",
                       "night_redraw", "night_done", "night_item", "night_quick",
                       "night_continue"}),
            enter_tactic, None, "nemesis", done=lambda night: night.activation is None,
            questions=ON_CHAIN,
            done_text="Every Chain card is resolved: the Nemesis Phase comes next."),
        Phase(
            "nemesis", "Nemesis Phase", "Nemesis Phase",
            frozenset({"night_continue", "night_item", "night_quick"}), start_nemesis,
            _unless_done(_nemesis_settled), "minions", questions=ON_CHAIN,
            done_text="The Nemesis Phase is over: the Minions Phase comes next."),
        Phase(
            "minions", "Minions Phase", "Minions Phase",
            frozenset({"night_continue", "night_item", "night_quick"}), start_minions,
            _unless_done(_next_minion_space), "cleanup", questions=ON_CHAIN,
            done_text="The Minions Phase is over: the Cleanup Phase comes next."),
        Phase(  # the beginning-of-Cleanup Effects resolve with the Tactic cards still placed
            "cleanup", "Cleanup Phase", "Cleanup Phase", frozenset({"night_continue"}), cleanup,
            _unless_done(cleanup_steps), "start_of_turn", questions=ON_CHAIN,
            done_text="The Cleanup is done: the next Game Turn starts."),
        Phase("over", "End of the Night", "End of the Night", frozenset(), _over,
              done=_by_itself))}
PHASE_NAMES = {k: p.title for k, p in PHASES.items()}

# Every action the night's table governs (others, like setting a night up, check themselves).
NIGHT_ACTIONS = frozenset().union(*(p.actions for p in PHASES.values())) | QUESTION_ACTIONS


def check_phase(state: CampaignState, action: Any, catalog: Any = None) -> None:
    """The one legality check of the night (called by ``engine.flow.apply``): the action
    must be one the current phase allows, or an answer to the question waiting. Refuses with the
    phase's own words; the state is untouched."""
    if action.type not in NIGHT_ACTIONS or state.night is None:
        return
    night = state.night
    if night.phase == "over":
        raise RuleError(
            f"the night is over ({night.result}): "
            f"{REASONS.get(night.reason, night.reason)}",
            see=("end_night",))
    spec = PHASES[night.phase]
    if action.type not in spec.actions and action.type not in QUESTION_ACTIONS:
        if action.type in spec.refuse:
            raise RuleError(spec.refuse[action.type], see=("night_next",))
        _elsewhere(spec, action)
    if night.pending:
        if action.type in spec.questions:
            return
        if action.type in QUESTION_ACTIONS:  # a Quick Effect without Tactic cards placed
            _elsewhere(spec, action)
        raise RuleError(
            "a question is waiting: " + night.pending[0].prompt, see=("night_answer", "night_roll"))
    if action.type in ("night_answer", "night_roll"):
        raise RuleError("no question is waiting for an answer", see=("night_next",))
    if action.type == "night_item" and action.type not in spec.actions:
        raise RuleError(f"Items are not used in the {spec.title}", see=("night_next",))
    if action.type not in spec.actions:
        _elsewhere(spec, action)


def _elsewhere(spec: Phase, action: Any) -> NoReturn:
    doing = getattr(action, "doing", "") or action.type.replace("_", " ")
    wanted = " or ".join(p.title for p in PHASES.values() if action.type in p.actions)
    raise RuleError(
        f"{doing} belongs to the {wanted}; the table is in the {spec.title}", see=("night_next",))
