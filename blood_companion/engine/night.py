"""The Night Part: Beginning of the Night, Game Turns (Start of Turn, Planning, Tactic,
Nemesis, Minions, Cleanup) and the end of the night, with the app playing the Nemesis.

Each change is one small :class:`Action`. The players report what they do at the table (a
card played, a Rest, an attack and its side, a Test's dice); the actions that advance the
automatic phases (:class:`NextPhase`) run the Nemesis, the Minions and the Cleanup
bookkeeping, stopping at a :class:`Question` when only the table knows the answer (who is in
range or closest on the Map, the Leader's Rule, a dodge Test, a card to discard).

Phases as a table (``PHASES``): what each allows and what follows. Rulebook sections are
cited by name; docs/rules-decisions.md ("Night Part") lists the readings this module makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from blood_companion.content import models as m
from blood_companion.content.render import render_effect
from blood_companion.engine import effects as fx
from blood_companion.engine import narrate
from blood_companion.engine import nemesis_ai as ai
from blood_companion.engine.actions import Action, Context
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import DiceBox, parse_faces, parse_pool
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_setup import setup_night
from blood_companion.engine.night_state import (
    Activation,
    Bonus,
    ChainSlot,
    EnemyJob,
    NightState,
)
from blood_companion.engine.odds import MAX_BONUS_TRIUMPHS
from blood_companion.engine.state import CampaignState
from blood_companion.engine.tests_procedure import (
    TestResult,
    TestSetup,
    advise_test,
    apply_insanity_after_test,
    attack_target,
    confirm_test,
    insanity_bonuses,
    odds_for_test,
    prepare_test,
    reroll_test,
    roll_test,
    trait_pool,
)

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

PHASE_NAMES = {
    "beginning_of_night": "Beginning of the Night",
    "start_of_turn": "Start of Turn",
    "planning": "Planning Phase",
    "tactic": "Tactic Phase",
    "nemesis": "Nemesis Phase",
    "minions": "Minions Phase",
    "cleanup": "Cleanup Phase",
    "over": "End of the Night",
}
# What `continue` does from each phase once it is finished ("Game Turns").
NEXT_PHASE = {
    "tactic": "nemesis",
    "nemesis": "minions",
    "minions": "cleanup",
    "cleanup": "start_of_turn",
}
ATTACKS = ("physical_attack", "mind_attack")
TEST_BONUS_KINDS = ("bonus_triumphs", "reroll", "bonus_die")


# --------------------------------------------------------------------------- helpers


def _night(state: CampaignState) -> NightState:
    return fx.night_of(state)


def _need_phase(state: CampaignState, *phases: str, what: str) -> NightState:
    night = _night(state)
    if night.phase == "over":
        raise RuleError(
            f"the night is over ({night.result}): "
            f"{narrate.REASONS.get(night.reason, night.reason)}"
        )
    if night.phase not in phases:
        wanted = " or ".join(PHASE_NAMES[p] for p in phases)
        raise RuleError(
            f"{what} belongs to the {wanted}; the table is in the {PHASE_NAMES[night.phase]}",
            hint="`blood night next` says what to do now",
        )
    return night


def _no_question(state: CampaignState) -> None:
    night = _night(state)
    if night.pending:
        raise RuleError(
            "a question is waiting: " + night.pending[0].prompt,
            hint="`blood night answer ...` or `blood night roll` first",
        )


def trouper_index(state: CampaignState, who: str | int) -> int:
    """A Trouper by index (int), or by id, colour or 1-based seat (str)."""
    if isinstance(who, int):
        if 0 <= who < len(state.troupers):
            return who
        raise RuleError(f"no Trouper number {who + 1}")
    return state.trouper_index(who)


def can_play(state: CampaignState, i: int) -> bool:
    t = state.troupers[i]
    return not t.knocked_out and bool(t.hand)


def card_name(catalog: Catalog, card: str) -> str:
    c = catalog.tactic(card) or catalog.get("events", card)
    return c.name if c is not None else card


def tactic_card(catalog: Catalog, card: str) -> m.TacticCard:
    c = catalog.tactic(card)
    if c is None:
        raise RuleError(f"unknown Tactic card {card!r}")
    return c


def item_card(catalog: Catalog, item: str) -> m.ItemCard:
    c = catalog.item(item)
    if c is None:
        raise RuleError(f"unknown Item card {item!r}")
    return c


def event_card(catalog: Catalog, event: str) -> m.Event:
    c: m.Event | None = catalog.get("events", event)
    if c is None:
        raise RuleError(f"unknown Event card {event!r}")
    return c


def minion_card(catalog: Catalog, minion: str) -> m.Minion:
    c: m.Minion | None = catalog.get("minions", minion)
    if c is None:
        raise RuleError(f"unknown Minion card {minion!r}")
    return c


def box_of(catalog: Catalog) -> DiceBox:
    return DiceBox.from_models(catalog.dice)


# --------------------------------------------------------------------------- Tests


def effect_test(
    state: CampaignState,
    catalog: Catalog,
    rng: Chance,
    t: int,
    test: m.EffectTest,
    trait: str | None,
    dice: Sequence[str],
    reroll: Sequence[str],
    label: str,
) -> tuple[CampaignState, bool]:
    """The Test printed on a Trouper's own Effect (a Tactic or Event card): its Traits or dice
    and its number. Returns the new state and whether it succeeded."""
    state, result = take_test(
        state,
        catalog,
        rng,
        t,
        traits=list(test.traits),
        fixed_dice=test.dice,
        target=test.target or 0,
        trait=trait,
        dice=dice,
        reroll=reroll,
        label=label,
    )
    return state, result.success


def take_test(
    state: CampaignState,
    catalog: Catalog,
    rng: Chance,
    t: int,
    *,
    traits: Sequence[str],
    fixed_dice: str | None,
    target: int,
    trait: str | None,
    dice: Sequence[str],
    reroll: Sequence[str],
    bonus_triumphs: int = 0,
    label: str,
) -> tuple[CampaignState, TestResult]:
    """One Trouper's Test, the seven steps of "Tests" (engine/tests_procedure.py).

    ``trait`` picks one of ``traits`` (the best odds when None); ``dice`` are the faces typed
    in from physical dice (the roll first, then one entry per Re-roll whose dice ``reroll``
    names, 1-based, e.g. "1,3"); without ``dice`` the app rolls and plays Re-rolls at best.
    Bonuses the Trouper gained for their next Test (Items, Supports) are spent here, and a
    Failure moves the Insanity cube ("Insanity"). Raises RuleError/DiceError.
    """
    box = box_of(catalog)
    tr = state.troupers[t]
    night = _night(state)
    spaces = catalog.insanity.spaces
    options = _test_setups(
        state,
        catalog,
        t,
        traits=traits,
        fixed_dice=fixed_dice,
        target=target,
        trait=trait,
        bonus_triumphs=bonus_triumphs,
        label=label,
    )
    setup = options[0][1]
    ts = prepare_test(setup, box)
    if dice:
        ts = roll_test(ts, box, faces=parse_faces(dice[0], ts.pool, box))
        if len(reroll) != len(dice) - 1:
            raise RuleError(
                "each Re-roll needs the dice it re-rolls (--reroll 1,3) and their faces "
                "(another --dice)"
            )
        for slots_text, faces_text in zip(reroll, dice[1:], strict=True):
            insanity_reroll = slots_text.lower().startswith("i")
            slots = _slots(slots_text.lstrip("iI:"), len(ts.pool))
            picked = tuple(ts.pool[s] for s in slots)
            ts = reroll_test(
                ts,
                box,
                slots,
                insanity=insanity_reroll,
                faces=parse_faces(faces_text, picked, box),
            )
    else:
        if reroll:
            raise RuleError("--reroll goes with physical dice (--dice); the app re-rolls at best")
        ts = roll_test(ts, box, rng=rng)
        while True:
            move = advise_test(ts, box)
            if move.action == "confirm":
                break
            ts = reroll_test(
                ts, box, move.slots, insanity=move.action == "insanity_reroll", rng=rng
            )
    result = confirm_test(ts)
    cube = apply_insanity_after_test(min(tr.insanity, len(spaces) - 1), result.success, len(spaces))
    state = fx.with_trouper(state, t, insanity=cube)
    bonuses = dict(night.bonuses)
    bonuses.pop(t, None)
    state = fx.with_night(state, bonuses=bonuses)
    faces = " ".join(f"{f.die}{f.triumphs}" + ("x" * f.defeats) for f in result.faces)
    state = fx.log(
        state,
        "test",
        who=fx.tid(state, t),
        label=label,
        trait=options[0][0],
        faces=faces,
        extra=result.bonus_triumphs + result.insanity_triumphs,
        total=result.total,
        target=result.target,
        success=result.success,
    )
    return state, result


def _test_setups(
    state: CampaignState,
    catalog: Catalog,
    t: int,
    *,
    traits: Sequence[str],
    fixed_dice: str | None,
    target: int,
    trait: str | None,
    bonus_triumphs: int = 0,
    label: str = "Test",
) -> list[tuple[str, TestSetup]]:
    """The ways Trouper ``t`` may take a Test (one per Trait, or the Test's own dice), best
    odds first; ``trait`` keeps only that one. Raises RuleError."""
    box = box_of(catalog)
    tr = state.troupers[t]
    card = catalog.trouper(tr.trouper)
    if card is None:
        raise RuleError(f"unknown Trouper card {tr.trouper!r}")
    night = _night(state)
    bonus = night.bonuses.get(t, Bonus())
    spaces = catalog.insanity.spaces
    insanity = insanity_bonuses(
        spaces, min(tr.insanity, len(spaces) - 1), catalog.config.insanity_reroll_reading
    )

    def setup_for(pool: tuple[Any, ...], name: str) -> TestSetup:
        return TestSetup(
            pool=pool,
            target=target,
            bonus_triumphs=min(MAX_BONUS_TRIUMPHS, bonus.triumphs + bonus_triumphs),
            bonus_dice=tuple(bonus.dice),
            rerolls=bonus.rerolls,
            exhausted=tr.exhausted,
            knocked_out=tr.knocked_out,
            insanity=insanity,
            defeats_cancel=catalog.config.defeats_cancel_triumphs,
            label=f"{label} ({name})",
        )

    options: list[tuple[str, TestSetup]] = []
    if trait is not None:
        key = trait.lower()
        if traits and key not in traits:
            raise RuleError(
                f"this Test is taken with {' or '.join(x.capitalize() for x in traits)}, "
                f"not {trait}"
            )
        if not traits and fixed_dice:
            raise RuleError(f"this Test rolls the dice {fixed_dice}, not a Trait")
        options.append((key, setup_for(trait_pool(_traits(card), key, box), key.capitalize())))
    else:
        for key in traits:
            options.append((key, setup_for(trait_pool(_traits(card), key, box), key.capitalize())))
        if fixed_dice:
            options.append((fixed_dice, setup_for(parse_pool(fixed_dice, box), fixed_dice)))
    if not options:
        raise RuleError("this Test names no Trait and no dice")
    if len(options) > 1:
        options.sort(key=lambda o: -odds_for_test(o[1], box).probability)
    return options


def test_options(
    state: CampaignState,
    catalog: Catalog,
    t: int,
    *,
    traits: Sequence[str],
    fixed_dice: str | None = None,
    target: int,
) -> list[dict[str, Any]]:
    """How Trouper ``t`` can take a Test, best odds first: the Trait (or dice), the dice to
    roll after Bonus Dice and Exhausted/Knocked Out, and the exact chance of Success (for a
    menu, and for players rolling physical dice). Raises RuleError."""
    box = box_of(catalog)
    out = []
    for key, setup in _test_setups(
        state, catalog, t, traits=traits, fixed_dice=fixed_dice, target=target, trait=None
    ):
        ts = prepare_test(setup, box)
        odds = odds_for_test(setup, box)
        out.append(
            {
                "trait": key,
                "pool": " ".join(str(d) for d in ts.pool),
                "target": target,
                "probability": float(odds.probability),
            }
        )
    return out


def _traits(card: m.Trouper) -> dict[str, str]:
    return {str(k): v for k, v in card.traits.items()}


def _slots(text: str, n: int) -> tuple[int, ...]:
    try:
        out = tuple(int(x) - 1 for x in text.replace(" ", "").split(",") if x)
    except ValueError:
        raise RuleError(f"cannot read the dice to re-roll {text!r}; write 1,3") from None
    if not out or any(not 0 <= s < n for s in out):
        raise RuleError(f"re-roll dice are numbered 1 to {n}")
    return out


# --------------------------------------------------------------------------- phase flow


def settle(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """Run queued Enemy cards, then whatever the phase does when its queue is empty."""
    for _ in range(1000):
        state = ai.run_queue(state, catalog, rng)
        night = _night(state)
        if night.pending or night.queue or night.result is not None:
            return state
        before = state
        state = _queue_empty(state, catalog, rng)
        if state is before:
            return state
    raise RuleError("the night did not settle")  # pragma: no cover


def _queue_empty(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    night = _night(state)
    if night.phase == "beginning_of_night":
        return start_turn(state, catalog, rng, first=True)
    if night.phase == "start_of_turn":
        return start_planning(state, catalog)
    if night.phase == "planning" and night.after_play is not None:
        return _after_play(state, catalog)
    if night.phase == "nemesis" and not night.phase_done:
        jobs = _unresolved_reactions(state, catalog)
        if jobs:
            return fx.with_night(state, queue=jobs)
        state = fx.with_night(state, phase_done=True)
        return fx.log(state, "nemesis_phase_over")
    if night.phase == "minions" and not night.phase_done:
        state = fx.with_night(state, phase_done=True)
        return fx.log(state, "minions_phase_over")
    return state


def begin_night(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """ "Beginning of the Night" after :func:`setup_night` dealt five cards each: the
    Nemesis's own Beginning-of-the-Night Skills resolve, the players' are listed for them to
    resolve in an agreed order; then Game Turn 1 starts. Also used by the Day Part."""
    state = fx.with_night(state, started=True, phase="beginning_of_night")
    state = fx.log(state, "beginning_of_night", n=catalog.config.hand_size)
    state = _list_player_timing(state, catalog, "beginning_of_night")
    nem = fx.nemesis_card(state, catalog)
    jobs = [
        EnemyJob(
            source="skill", card=nem.id, label=f"{nem.name}: {sk.name or 'Skill'}", effects=[k]
        )
        for k, sk in enumerate(nem.skills)
        if sk.timing == "beginning_of_night"
    ]
    state = fx.with_night(state, queue=jobs)
    return settle(state, catalog, rng)


def _list_player_timing(state: CampaignState, catalog: Catalog, timing: str) -> CampaignState:
    """Players' Effects with this timing (in hand or equipped) are listed for the table to
    resolve in an order they agree on."""
    found: list[list[str]] = []
    for t in state.troupers:
        for cid in t.hand:
            card = catalog.tactic(cid)
            if card is not None and any(e.timing == timing for e in card.effects):
                found.append([t.trouper, cid])
        for iid in t.equipped.values():
            item = catalog.item(iid)
            if item is not None and any(e.timing == timing for e in item.starting.effects):
                found.append([t.trouper, iid])
    if found:
        state = fx.log(state, "player_timing", found=found)
    return state


def start_turn(
    state: CampaignState, catalog: Catalog, rng: Chance, *, first: bool = False
) -> CampaignState:
    """ "Start of Turn": Beginning-of-the-Turn Effects, then the Planning Phase."""
    night = _night(state)
    turn = night.turn if first else night.turn + 1
    state = fx.with_night(state, phase="start_of_turn", turn=turn, phase_done=False)
    state = fx.log(state, "game_turn", turn=turn)
    state = _list_player_timing(state, catalog, "beginning_of_turn")
    nem = fx.nemesis_card(state, catalog)
    jobs = [
        EnemyJob(
            source="skill", card=nem.id, label=f"{nem.name}: {sk.name or 'Skill'}", effects=[k]
        )
        for k, sk in enumerate(nem.skills)
        if sk.timing == "beginning_of_turn"
    ]
    state = fx.with_night(state, queue=jobs)
    return state


def start_planning(state: CampaignState, catalog: Catalog) -> CampaignState:
    """ "Planning Phase": from the Leader clockwise; skipped by Troupers who cannot play."""
    state = fx.with_night(
        state, phase="planning", passed=[], cascade=False, after_play=None, phase_done=False
    )
    state = fx.log(state, "planning_phase")
    first = _next_player(state, state.leader, include_self=True)
    if first is None:
        return end_planning(state, catalog, "nobody_can_play_card")
    return fx.with_night(state, to_play=first)


def _next_player(state: CampaignState, after: int, *, include_self: bool = False) -> int | None:
    n = len(state.troupers)
    start = 0 if include_self else 1
    for k in range(start, n + start):
        i = (after + k) % n
        if can_play(state, i):
            return i
    return None


def _chain_full(night: NightState) -> bool:
    return len(night.chain) >= night.chain_spaces


def _after_play(state: CampaignState, catalog: Catalog) -> CampaignState:
    night = _night(state)
    what = night.after_play
    state = fx.with_night(state, after_play=None)
    if _chain_full(night):
        return end_planning(state, catalog, "chain_full")
    if what == "end":
        return end_planning(state, catalog, "block")
    player = night.to_play if night.to_play is not None else state.leader
    if what == "cascade" and can_play(state, player):
        return fx.with_night(state, cascade=True)
    nxt = _next_player(state, player)
    if nxt is None:
        return end_planning(state, catalog, "nobody_can_play_card")
    return fx.with_night(state, to_play=nxt, cascade=False)


def end_planning(state: CampaignState, catalog: Catalog, why: str) -> CampaignState:
    state = fx.log(state, "planning_ends", reason=why)
    state = fx.with_night(
        state, phase="tactic", to_play=None, cascade=False, after_play=None, phase_done=False
    )
    state = fx.log(state, "tactic_phase")
    return _activate_next(state, catalog)


def _activate_next(state: CampaignState, catalog: Catalog) -> CampaignState:
    """ "Tactic Phase": the owner of the leftmost Tactic card without a Resolved token is the
    Active Trouper."""
    night = _night(state)
    for k, slot in enumerate(night.chain):
        if slot.kind in ("tactic", "rest") and not slot.resolved and slot.owner is not None:
            state = fx.with_night(state, activation=Activation(slot=k, trouper=slot.owner))
            who = fx.tid(state, slot.owner)
            if slot.kind == "rest":
                return fx.log(state, "active_rest", who=who, space=k + 1)
            return fx.log(state, "active", who=who, card=slot.card, space=k + 1)
    state = fx.with_night(state, activation=None, phase_done=True)
    return fx.log(state, "chain_resolved")


def _unresolved_reactions(state: CampaignState, catalog: Catalog) -> list[EnemyJob]:
    """ "Nemesis Phase": cards without a Resolved token, rightmost first."""
    night = _night(state)
    jobs = []
    for k in range(len(night.reaction_line) - 1, -1, -1):
        slot = night.reaction_line[k]
        if not slot.resolved:
            face = fx.reaction_face(state, catalog, slot.card)
            jobs.append(EnemyJob(source="reaction", card=slot.card, label=face.name, slot=k))
    return jobs


def start_nemesis(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    state = fx.with_night(state, phase="nemesis", phase_done=False, activation=None)
    state = fx.log(state, "nemesis_phase")
    jobs = _unresolved_reactions(state, catalog)
    state = fx.with_night(state, queue=jobs)
    return settle(state, catalog, rng)


def start_minions(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """ "Minions Phase": Minion A, Minion B, then the other spaces in Flow order; each
    Miniature resolves its card top to bottom."""
    state = fx.with_night(state, phase="minions", phase_done=False)
    state = fx.log(state, "minions_phase")
    night = _night(state)
    order = {sp: k for k, sp in enumerate(catalog.board.minion_spaces)}
    jobs = []
    for slot in sorted(night.minions, key=lambda s: order.get(s.space, 99)):
        card = catalog.get("minions", slot.minion)
        name = card.name if card is not None else slot.minion
        for k in range(slot.alive):
            label = f"{name} ({slot.space}" + (
                f", Miniature {k + 1} of {slot.alive})" if slot.alive > 1 else ")"
            )
            jobs.append(
                EnemyJob(
                    source="minion",
                    card=slot.minion,
                    label=label,
                    space=slot.space,
                    miniature=k + 1,
                    miniatures=slot.alive,
                )
            )
    state = fx.with_night(state, queue=jobs)
    return settle(state, catalog, rng)


def cleanup(state: CampaignState, catalog: Catalog) -> CampaignState:
    """ "Cleanup Phase", every step in the rulebook's order."""
    state = fx.with_night(state, phase="cleanup", phase_done=False)
    state = fx.log(state, "cleanup_phase")
    state = _list_player_timing(state, catalog, "beginning_of_cleanup")
    night = _night(state)
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
    keep: list[ChainSlot] = []
    for slot in night.chain:
        if slot.kind == "event":
            if not slot.face_down:
                keep.append(slot.model_copy(update={"resolved": False, "supports_used": []}))
            continue
        assert slot.owner is not None
        t = troupers[slot.owner]
        if slot.sacrificed:
            troupers[slot.owner] = t.model_copy(update={"wounds": [*t.wounds, slot.card]})
        else:
            troupers[slot.owner] = t.model_copy(update={"discard": [*t.discard, slot.card]})
    discard = [*night.reaction_discard, *(s.card for s in night.reaction_line)]
    limit = catalog.config.knock_out_wounds
    for i, t in enumerate(troupers):
        update: dict[str, Any] = {
            "depleted_items": [],
            "exhausted": False,
            "rested_this_turn": False,
        }
        if not t.knocked_out and len(t.wounds) >= limit:
            update["knocked_out"] = True
        troupers[i] = t.model_copy(update=update)
    newly_out = [
        i for i, t in enumerate(troupers) if t.knocked_out and not state.troupers[i].knocked_out
    ]
    state = state.model_copy(update={"troupers": troupers})
    for i in newly_out:
        state = fx.log(state, "knocked_out", who=fx.tid(state, i), n=limit)
    state = fx.with_night(
        state,
        chain=keep,
        reaction_line=[],
        reaction_discard=discard,
        threat=0,
        activation=None,
        bonuses={},
        phase_done=True,
    )
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


# --------------------------------------------------------------------------- Trouper Effects


def _check_cost_and_condition(
    state: CampaignState,
    catalog: Catalog,
    t: int,
    eff: m.Effect,
    *,
    discard: Sequence[str],
    item: str | None = None,
) -> None:
    tr = state.troupers[t]
    c = eff.condition
    if c is not None and c.kind != "text":
        ok = {
            "bites_at_least": tr.bites >= c.n,
            "hand_below": len(tr.hand) < c.n,
            "wounds_at_least": len(tr.wounds) >= c.n,
            "exhausted": tr.exhausted,
            "insanity_at_least": tr.insanity >= c.n,
            "threat_at_least": _night(state).threat >= c.n,
        }.get(c.kind, True)
        if not ok:
            raise RuleError(f"the Condition is not met: {render_effect(eff)}")
    for cost in eff.cost:
        if cost.kind == "deplete_vigor":
            have = fx.usable_vigor(tr, catalog.config.vigor_tokens)
            if have < cost.n:
                raise RuleError(
                    f"{fx.name_of(state, catalog, t)} has {have} usable Vigor; the Cost is {cost.n}"
                )
        elif cost.kind == "discard_card":
            if len(discard) != cost.n:
                raise RuleError(f"name the {cost.n} card(s) to discard for the Cost (--discard)")
            for cid in discard:
                if cid not in tr.hand:
                    raise RuleError(f"{cid!r} is not in {fx.name_of(state, catalog, t)}'s hand")
        elif cost.kind == "discard_bite" and tr.bites < cost.n:
            raise RuleError(f"{fx.name_of(state, catalog, t)} has no Bite to discard")
        elif cost.kind == "deplete_item" and item is not None and item in tr.depleted_items:
            raise RuleError(f"{item} is already depleted")


def _pay(
    state: CampaignState,
    catalog: Catalog,
    t: int,
    eff: m.Effect,
    *,
    discard: Sequence[str],
    item: str | None = None,
    slot: int | None = None,
) -> CampaignState:
    for cost in eff.cost:
        tr = state.troupers[t]
        if cost.kind == "deplete_vigor":
            state = fx.with_trouper(state, t, vigor_depleted=tr.vigor_depleted + cost.n)
        elif cost.kind == "discard_card":
            state = fx.discard_cards(state, catalog, t, list(discard))
        elif cost.kind == "discard_bite":
            state = fx.with_trouper(state, t, bites=tr.bites - cost.n)
        elif cost.kind == "deplete_item" and item is not None:
            state = fx.with_trouper(state, t, depleted_items=[*tr.depleted_items, item])
        elif cost.kind == "sacrifice" and slot is not None:
            night = _night(state)
            chain = list(night.chain)
            chain[slot] = chain[slot].model_copy(update={"sacrificed": True})
            state = fx.with_night(state, chain=chain)
            state = fx.log(state, "sacrifice")
    return state


def _apply_own(
    state: CampaignState,
    catalog: Catalog,
    rng: Chance,
    t: int,
    outcome: Sequence[m.Outcome],
    *,
    heal_cards: Sequence[str] = (),
    discard_cards: Sequence[str] = (),
    skip_attacks: bool = True,
) -> CampaignState:
    """Apply a Trouper Effect's Elements to Trouper ``t`` (bookkeeping the app tracks;
    movements are for the players)."""
    whom = fx.tid(state, t)
    for o in outcome:
        k = o.kind
        if k in ATTACKS and skip_attacks:
            continue
        if k == "draw":
            state = fx.draw_cards(state, catalog, t, o.n, rng)
        elif k == "heal":
            state = fx.heal(state, catalog, t, o.n, list(heal_cards))
        elif k == "discard":
            hand = state.troupers[t].hand
            cards = list(discard_cards) or list(hand[: o.n])
            state = fx.discard_cards(state, catalog, t, cards[: o.n])
        elif k == "wound":
            state = fx.wound_trouper(state, catalog, t, rng, o.n)
        elif k == "bite":
            state = fx.bite_trouper(state, catalog, t, o.n)
        elif k == "exhausted" or k == "rest":
            state = fx.exhaust(state, catalog, t)
        elif k == "threat":
            state = fx.add_threat(state, catalog, o.n, rng)
        elif k in TEST_BONUS_KINDS:
            night = _night(state)
            b = night.bonuses.get(t, Bonus())
            if k == "bonus_triumphs":
                b = b.model_copy(update={"triumphs": b.triumphs + o.n})
            elif k == "reroll":
                b = b.model_copy(update={"rerolls": b.rerolls + o.n})
            else:
                b = b.model_copy(update={"dice": [*b.dice, o.die or "G"]})
            state = fx.with_night(state, bonuses={**night.bonuses, t: b})
            state = fx.log(state, "test_bonus", who=whom, outcome=ai._dump(o))
        elif k == "gain_resource":
            res = o.resource or "coins"
            wagon = state.wagon.model_copy(update={res: getattr(state.wagon, res) + o.n})
            state = state.model_copy(update={"wagon": wagon})
            state = fx.log(state, "wagon_gain", n=o.n, resource=res)
        elif k in fx.MOVES:
            state = fx.log(state, "move", who=whom, outcome=ai._dump(o))
        else:
            state = fx.log(state, "own_outcome", who=whom, outcome=ai._dump(o))
    return state


def _active(state: CampaignState, catalog: Catalog) -> tuple[NightState, Activation, ChainSlot]:
    night = _need_phase(state, "tactic", what="resolving a card")
    _no_question(state)
    act = night.activation
    if act is None:
        raise RuleError("every card on the Chain is resolved", hint="`blood night continue`")
    return night, act, night.chain[act.slot]


def _card_effect(
    catalog: Catalog, act: Activation, slot: ChainSlot, effect: int
) -> tuple[m.TacticCard, m.Effect, int]:
    if slot.kind == "rest":
        raise RuleError(
            "a Rest card is face down: its Effects are not resolved "
            "(`blood night redraw` or `blood night done`)"
        )
    card = catalog.tactic(slot.card)
    if card is None:
        raise RuleError(f"unknown Tactic card {slot.card!r}")
    k = effect - 1
    if not 0 <= k < len(card.effects):
        raise RuleError(f"{card.name} has Effects 1 to {len(card.effects)}")
    eff = card.effects[k]
    if eff.type == "support":
        raise RuleError("a Support Effect is used by another Trouper later on the Chain")
    if eff.type == "aura":
        raise RuleError("an Aura Effect is always active; there is nothing to resolve")
    if k < act.last:
        raise RuleError(
            f"{card.name}'s Effects resolve top to bottom: Effect {act.last + 1} "
            "is already resolved"
        )
    if act.done.get(k, 0) >= eff.repeat:
        raise RuleError(f"Effect {effect} of {card.name} is already resolved")
    return card, eff, k


def _mark_done(state: CampaignState, act: Activation, k: int) -> CampaignState:
    done = dict(act.done)
    done[k] = done.get(k, 0) + 1
    return fx.with_night(state, activation=act.model_copy(update={"done": done, "last": k}))


def _check_distance(eff: m.Effect, distance: int | None, what: str) -> None:
    """Refuse a target the players declared out of the Effect's reach."""
    if distance is None or eff.target is None:
        return
    d = eff.target.distance
    if d in ("any", "area"):
        return
    lo, _, hi = d.partition("-")
    low, high = int(lo), int(hi or lo)
    if not low <= distance <= high:
        raise RuleError(f"{what} is at Distance {distance}; this Effect reaches Distance {d}")


def attack_need(
    state: CampaignState, catalog: Catalog, eff: m.Effect, target: str, side: str | None
) -> tuple[str, int, str]:
    """What an attack Effect needs against a target ("Attacks and Defenses"): the attack kind
    (physical or mind), the Triumphs needed and the target's name. The Nemesis's Defense is
    lowered by the Fatigue on the Reaction Line and changed by the Weakness of the side hit; a
    Test printed with its own number uses that number. Raises RuleError for a bad target."""
    kinds = [o.kind for o in eff.outcome if o.kind in ATTACKS]
    if not kinds:
        raise RuleError("this Effect makes no attack", hint="use `blood night effect`")
    trait_kind = "physical" if kinds[0] == "physical_attack" else "mind"
    key = target.strip().lower()
    night = _night(state)
    if key in ("nemesis", "n", "boss"):
        if side is None or side not in m.SIDES:
            raise RuleError(
                "name the Nemesis side you hit: front, left or right "
                "(at an Intersection, either side next to it)"
            )
        nem = fx.nemesis_card(state, catalog)
        phys, mind = fx.fatigue(state, catalog)
        w = fx.weakness(state, catalog, side)
        mod = (w.physical_modifier if trait_kind == "physical" else w.mind_modifier) if w else 0
        defense = nem.defenses.physical if trait_kind == "physical" else nem.defenses.mind
        need = attack_target(defense, phys if trait_kind == "physical" else mind, mod)
        what = f"{nem.name} ({side})"
    else:
        space = key.removeprefix("minion:").upper()
        slot = next((s for s in night.minions if s.space == space), None)
        if slot is None or slot.alive <= 0:
            raise RuleError(
                f"no Minion stands on space {space}",
                hint="targets: nemesis, or a Minion space "
                + ", ".join(s.space for s in night.minions if s.alive > 0),
            )
        card = minion_card(catalog, slot.minion)
        if (
            eff.target is not None
            and eff.target.minion_type
            and card.type != eff.target.minion_type
        ):
            raise RuleError(
                f"this Effect targets a {eff.target.minion_type.capitalize()}; "
                f"{card.name} is a {card.type.capitalize()}"
            )
        need = attack_target(getattr(card.defenses, trait_kind))
        what = f"{card.name} ({space})"
    if eff.test is not None and eff.test.target is not None:
        need = eff.test.target
    return trait_kind, need, what


def _attack(
    state: CampaignState,
    catalog: Catalog,
    rng: Chance,
    t: int,
    eff: m.Effect,
    *,
    target: str,
    side: str | None,
    trait: str | None,
    dice: Sequence[str],
    reroll: Sequence[str],
    bonus_triumphs: int,
    distance: int | None,
    label: str,
) -> tuple[CampaignState, bool]:
    """A Trouper's attack ("Attacks and Defenses"): a Test against the target's Physical or
    Mind Defense (the Nemesis's lowered by the Fatigue on the Reaction Line and changed by the
    Weakness of the side hit); each attack Element of the Effect inflicts a Wound."""
    kinds = [o.kind for o in eff.outcome if o.kind in ATTACKS]
    if not kinds:
        raise RuleError("this Effect makes no attack", hint="use `blood night effect`")
    tk = eff.target.kind if eff.target is not None else "enemy"
    key = target.strip().lower()
    is_nemesis = key in ("nemesis", "n", "boss")
    if is_nemesis and tk == "minion":
        raise RuleError("this Effect targets a Minion, not the Nemesis")
    if not is_nemesis and tk == "nemesis":
        raise RuleError("this Effect targets the Nemesis")
    _check_distance(eff, distance, "the target")
    trait_kind, need, what = attack_need(state, catalog, eff, target, side)
    traits = list(eff.test.traits) if eff.test else []
    fixed = eff.test.dice if eff.test else None
    night = _night(state)
    if is_nemesis:
        foe, where = night.nemesis, side
    else:
        space = key.removeprefix("minion:").upper()
        foe = next(s.minion for s in night.minions if s.space == space)
        where = space
    state = fx.log(
        state,
        "attacks",
        who=fx.tid(state, t),
        card=foe,
        where=where,
        defense=trait_kind,
        need=need,
    )
    state, result = take_test(
        state,
        catalog,
        rng,
        t,
        traits=traits or list(m.TRAITS) if not fixed else traits,
        fixed_dice=fixed,
        target=need,
        trait=trait,
        dice=dice,
        reroll=reroll,
        bonus_triumphs=bonus_triumphs,
        label=label,
    )
    if not result.success:
        return state, False
    wounds = kinds.count(kinds[0])
    if is_nemesis:
        assert side is not None
        state = fx.wound_nemesis(state, catalog, side, wounds, rng)
    else:
        state = fx.wound_minion(state, catalog, key.removeprefix("minion:").upper(), wounds)
    return state, True


# --------------------------------------------------------------------------- actions


class NightAction(Action):
    parts = ("night",)


class SetupNight(Action):
    """Lay out a night (Single Game mode: every aspect chosen on the command line; also the
    way to play a night in Roguelite before the Day Part is done) and begin it."""

    type: Literal["night_setup"] = "night_setup"
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
                hint="`blood end night`",
            )
        state = setup_night(
            state,
            ctx.catalog,
            ctx.chance,
            nemesis=self.nemesis,
            location=self.location,
            minions=self.minions,
            difficulty=self.difficulty,
            events=self.events,
        )
        return begin_night(state, ctx.catalog, ctx.chance)

    def describe(self) -> str:
        return (
            f"Night set up: {self.nemesis} at {self.location}, level {self.difficulty}, "
            f"Minions {', '.join(self.minions)}"
        )


class BeginNight(NightAction):
    """Resolve the Beginning of the Night of a night laid out by the Day Part."""

    type: Literal["night_begin"] = "night_begin"

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        night = _night(state)
        if night.started:
            raise RuleError("the night has already begun")
        return begin_night(state, ctx.catalog, ctx.chance)


def _planner(
    state: CampaignState, catalog: Catalog, trouper: str, what: str
) -> tuple[NightState, int, str]:
    """The Planning Phase player acting now: (night, Trouper index, name). Raises RuleError
    out of phase, while a question waits, or out of turn."""
    night = _need_phase(state, "planning", what=what)
    _no_question(state)
    t = trouper_index(state, trouper)
    who = fx.name_of(state, catalog, t)
    if night.to_play != t:
        now = fx.name_of(state, catalog, night.to_play) if night.to_play is not None else "nobody"
        raise RuleError(f"it is {now}'s turn to play, not {who}'s")
    return night, t, who


class PlayCard(NightAction):
    """ "Planning Phase": a Tactic card from hand onto the leftmost free Chain space."""

    type: Literal["night_play"] = "night_play"
    trouper: str
    card: str

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, t, who = _planner(state, cat, self.trouper, "playing a card")
        if _chain_full(night):
            raise RuleError("the Chain is full")
        tr = state.troupers[t]
        if self.card not in tr.hand:
            raise RuleError(f"{self.card!r} is not in {who}'s hand")
        if len(tr.hand) == 1 and not tr.rested_this_turn:
            # "Rest": a player down to one card Rests with it, after a Cascade too (or passes
            # then), so no hand is ever emptied by playing (docs/rules-decisions.md).
            raise RuleError(
                f"{who} has one card in hand and must Rest"
                + (" (or pass after the Cascade)" if night.cascade else ""),
                hint=f"`blood night rest {tr.trouper} {self.card}`",
            )
        card = cat.tactic(self.card)
        if card is None:
            raise RuleError(f"unknown Tactic card {self.card!r}")
        hand = list(tr.hand)
        hand.remove(self.card)
        state = fx.with_trouper(state, t, hand=hand)
        slot = ChainSlot(kind="tactic", card=self.card, owner=t, threat=card.threat)
        state = fx.with_night(state, chain=[*night.chain, slot], rightmost_player=t)
        tags = (["Cascade"] if card.cascade else []) + (["Block"] if card.block else [])
        state = fx.log(
            state, "plays", who=tr.trouper, card=card.id, space=len(night.chain) + 1, tags=tags
        )
        after: Literal["next", "cascade", "end"] = (
            "end" if card.block else "cascade" if card.cascade else "next"
        )
        state = fx.with_night(state, after_play=after, cascade=False)
        state = fx.add_threat(state, cat, card.threat, ctx.chance)
        return settle(state, cat, ctx.chance)

    def describe(self) -> str:
        return f"{self.trouper} plays {self.card}"


class Rest(NightAction):
    """ "Rest": a face-down card on the Chain, 1 Threat, the Exhausted token; once a turn."""

    type: Literal["night_rest"] = "night_rest"
    trouper: str
    card: str

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, t, who = _planner(state, cat, self.trouper, "a Rest")
        tr = state.troupers[t]
        if tr.rested_this_turn:
            raise RuleError(f"{who} has already Rested this Game Turn")
        if _chain_full(night):
            raise RuleError("the Chain is full")
        if self.card not in tr.hand:
            raise RuleError(f"{self.card!r} is not in {who}'s hand")
        hand = list(tr.hand)
        hand.remove(self.card)
        state = fx.with_trouper(state, t, hand=hand, rested_this_turn=True)
        slot = ChainSlot(kind="rest", card=self.card, owner=t, threat=1, face_down=True)
        state = fx.with_night(
            state, chain=[*night.chain, slot], rightmost_player=t, after_play="next", cascade=False
        )
        state = fx.log(state, "rests", who=tr.trouper, space=len(night.chain) + 1)
        state = fx.exhaust(state, cat, t)
        state = fx.add_threat(state, cat, 1, ctx.chance)
        return settle(state, cat, ctx.chance)

    def describe(self) -> str:
        return f"{self.trouper} rests ({self.card})"


class PassCascade(NightAction):
    """Decline to play another card after a Cascade card."""

    type: Literal["night_pass"] = "night_pass"
    trouper: str

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        night = _need_phase(state, "planning", what="passing")
        _no_question(state)
        t = trouper_index(state, self.trouper)
        if night.to_play != t or not night.cascade:
            raise RuleError(
                "only a player who just played a Cascade card may pass",
                hint="everyone else plays a card or Rests",
            )
        state = fx.with_night(state, after_play="next", cascade=False)
        return settle(state, ctx.catalog, ctx.chance)


class Attack(NightAction):
    """The Active Trouper resolves an attack Effect of their card: target ``nemesis`` (with
    the side hit) or a Minion space; the Test's Trait and dice (typed in, or rolled)."""

    type: Literal["night_attack"] = "night_attack"
    effect: int
    target: str
    side: str | None = None
    trait: str | None = None
    dice: list[str] = []
    reroll: list[str] = []
    bonus_triumphs: int = 0
    distance: int | None = None
    discard: list[str] = []

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = _active(state, cat)
        card, eff, k = _card_effect(cat, act, slot, self.effect)
        if not any(o.kind in ATTACKS for o in eff.outcome):
            raise RuleError(
                f"Effect {self.effect} of {card.name} makes no attack",
                hint="`blood night effect` resolves it",
            )
        t = act.trouper
        _check_cost_and_condition(state, cat, t, eff, discard=self.discard)
        state = _pay(state, cat, t, eff, discard=self.discard, slot=act.slot)
        state = _mark_done(state, act, k)
        state, ok = _attack(
            state,
            cat,
            ctx.chance,
            t,
            eff,
            target=self.target,
            side=self.side,
            trait=self.trait,
            dice=self.dice,
            reroll=self.reroll,
            bonus_triumphs=self.bonus_triumphs,
            distance=self.distance,
            label=card.name,
        )
        if ok and _night(state).result is None:
            state = _apply_own(state, cat, ctx.chance, t, eff.outcome)
        return settle(state, cat, ctx.chance)

    def describe(self) -> str:
        side = f" ({self.side})" if self.side else ""
        return f"attack {self.target}{side} with Effect {self.effect}"


class ResolveEffect(NightAction):
    """The Active Trouper resolves a non-attack Effect of their card (Step, Heal, Draw, a
    Test for a bonus, ...): the app applies what it tracks and shows the movements."""

    type: Literal["night_effect"] = "night_effect"
    effect: int
    trait: str | None = None
    dice: list[str] = []
    reroll: list[str] = []
    recipient: str | None = None
    discard: list[str] = []
    heal: list[str] = []
    distance: int | None = None

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = _active(state, cat)
        card, eff, k = _card_effect(cat, act, slot, self.effect)
        if any(o.kind in ATTACKS for o in eff.outcome):
            raise RuleError(
                f"Effect {self.effect} of {card.name} is an attack",
                hint="`blood night attack` resolves it",
            )
        t = act.trouper
        who = t
        if eff.target is not None and eff.target.kind == "trouper" and self.recipient:
            who = trouper_index(state, self.recipient)
        _check_distance(eff, self.distance, "the target")
        _check_cost_and_condition(state, cat, t, eff, discard=self.discard)
        state = _pay(state, cat, t, eff, discard=self.discard, slot=act.slot)
        state = _mark_done(state, act, k)
        ok = True
        if eff.test is not None:
            state, ok = effect_test(
                state, cat, ctx.chance, t, eff.test, self.trait, self.dice, self.reroll, card.name
            )
        if ok:
            state = _apply_own(state, cat, ctx.chance, who, eff.outcome, heal_cards=self.heal)
        if eff.text:
            state = fx.log(state, "card_text", card=card.id, effect=k)
        return settle(state, cat, ctx.chance)

    def describe(self) -> str:
        return f"resolve Effect {self.effect}"


class UseSupport(NightAction):
    """The Active Trouper uses a Support Effect of another Trouper's card to the left on the
    Chain; a Cube marks it used for this turn ("Support Effect")."""

    type: Literal["night_support"] = "night_support"
    slot: int  # 1-based Chain space
    effect: int = 0  # 1-based; 0: the card's only Support Effect

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, _ = _active(state, cat)
        k = self.slot - 1
        if not 0 <= k < len(night.chain):
            raise RuleError(f"no card on Chain space {self.slot}")
        slot = night.chain[k]
        if k >= act.slot:
            raise RuleError("a Support is used from a card to the left of the Active card")
        if slot.kind != "tactic" or slot.owner == act.trouper:
            raise RuleError("a Support is used from another Trouper's Tactic card")
        card = tactic_card(cat, slot.card)
        supports = [j for j, e in enumerate(card.effects) if e.type == "support"]
        if not supports:
            raise RuleError(f"{card.name} has no Support Effect")
        j = supports[0] if self.effect == 0 else self.effect - 1
        if j not in supports:
            raise RuleError(f"Effect {self.effect} of {card.name} is not a Support")
        if j in slot.supports_used:
            raise RuleError("that Support already has a Cube on it this turn")
        chain = list(night.chain)
        chain[k] = slot.model_copy(update={"supports_used": [*slot.supports_used, j]})
        state = fx.with_night(state, chain=chain)
        state = fx.log(state, "support", who=fx.tid(state, act.trouper), card=card.id)
        state = _apply_own(state, cat, ctx.chance, act.trouper, card.effects[j].outcome)
        return settle(state, cat, ctx.chance)


class UseItem(NightAction):
    """An equipped Item's Effect ("Using an Item"); a Quick Item also outside the owner's
    activation, e.g. during a dodge Test. Depleted until the Cleanup Phase."""

    type: Literal["night_item"] = "night_item"
    trouper: str
    item: str
    discard: list[str] = []
    heal: list[str] = []

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night = _need_phase(
            state, "planning", "tactic", "nemesis", "minions", "start_of_turn", what="using an Item"
        )
        t = trouper_index(state, self.trouper)
        tr = state.troupers[t]
        who = fx.name_of(state, cat, t)
        iid = self.item
        if iid not in tr.equipped.values():
            matches = [v for v in tr.equipped.values() if v.startswith(iid)]
            if len(matches) != 1:
                raise RuleError(
                    f"{who} has no equipped Item {iid!r}",
                    hint="equipped: " + ", ".join(tr.equipped.values()),
                )
            iid = matches[0]
        item = item_card(cat, iid)
        advanced = any(s.item == iid and s.advanced for s in tr.sleeves)
        side = item.advanced if advanced and item.advanced is not None else item.starting
        if iid in tr.depleted_items:
            raise RuleError(f"{side.name} is depleted until the Cleanup Phase")
        active = night.activation.trouper if night.activation is not None else None
        if not side.quick and (night.phase != "tactic" or active != t or night.pending):
            raise RuleError(f"{side.name} is not Quick: use it during {who}'s activation")
        eff = side.effects[0]
        _check_cost_and_condition(state, cat, t, eff, discard=self.discard, item=iid)
        state = _pay(state, cat, t, eff, discard=self.discard, item=iid)
        if not any(c.kind == "deplete_item" for c in eff.cost):
            state = fx.with_trouper(
                state, t, depleted_items=[*state.troupers[t].depleted_items, iid]
            )
        state = fx.log(state, "uses_item", who=tr.trouper, item=iid)
        state = _apply_own(state, cat, ctx.chance, t, eff.outcome, heal_cards=self.heal)
        return state

    def describe(self) -> str:
        return f"{self.trouper} uses {self.item}"


class UseEvent(NightAction):
    """One Event Effect per activation ("Event Effects"): Cost, Test, then Success (the Event
    turns face down, its reward and Outcome apply) or Failure (``on_failure`` on the Active
    Trouper)."""

    type: Literal["night_event"] = "night_event"
    event: str  # card id, unique prefix, or 1-based Chain space
    effect: int = 1
    target: str | None = None  # a Minion space for attack Events
    trait: str | None = None
    dice: list[str] = []
    reroll: list[str] = []
    distance: int | None = None
    discard: list[str] = []

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, _ = _active(state, cat)
        if act.event_used:
            raise RuleError("one Event Effect per activation")
        k = _event_slot(night, self.event)
        slot = night.chain[k]
        ev = event_card(cat, slot.card)
        if not 0 <= self.effect - 1 < len(ev.effects):
            raise RuleError(f"{ev.name} has Effects 1 to {len(ev.effects)}")
        eff = ev.effects[self.effect - 1]
        t = act.trouper
        _check_distance(eff, self.distance, "the Event's target")
        _check_cost_and_condition(state, cat, t, eff, discard=self.discard)
        state = _pay(state, cat, t, eff, discard=self.discard)
        state = fx.with_night(state, activation=act.model_copy(update={"event_used": True}))
        state = fx.log(state, "attempts_event", who=fx.tid(state, t), event=ev.id)
        if any(o.kind in ATTACKS for o in eff.outcome):
            if self.target is None:
                raise RuleError("name the Minion space the Event's attack targets (--target)")
            state, ok = _attack(
                state,
                cat,
                ctx.chance,
                t,
                eff,
                target=self.target,
                side=None,
                trait=self.trait,
                dice=self.dice,
                reroll=self.reroll,
                bonus_triumphs=0,
                distance=None,
                label=ev.name,
            )
        elif eff.test is not None:
            state, ok = effect_test(
                state, cat, ctx.chance, t, eff.test, self.trait, self.dice, self.reroll, ev.name
            )
        else:
            ok = True
        if _night(state).result is not None:
            return state
        if ok:
            chain = list(_night(state).chain)
            chain[k] = chain[k].model_copy(update={"face_down": True, "resolved": True})
            r = ev.reward
            wagon = state.wagon.model_copy(
                update={
                    res: getattr(state.wagon, res) + getattr(r.resources, res)
                    for res in ("jewels", "coins", "trinkets", "scrolls")
                }
            )
            trophies = dict(state.location_trophies)
            if r.location_trophies:
                trophies[ev.zone] = trophies.get(ev.zone, 0) + r.location_trophies
            state = state.model_copy(update={"wagon": wagon, "location_trophies": trophies})
            state = fx.with_night(
                state, chain=chain, chain_spaces=_night(state).chain_spaces + r.chain_spaces
            )
            state = fx.log(state, "event_solved", event=ev.id)
            state = _apply_own(state, cat, ctx.chance, t, eff.outcome)
        else:
            state = _apply_own(state, cat, ctx.chance, t, eff.on_failure)
        return settle(state, cat, ctx.chance)


def _event_slot(night: NightState, key: str) -> int:
    events = [(k, s) for k, s in enumerate(night.chain) if s.kind == "event"]
    if key.isdigit():
        k = int(key) - 1
        if any(j == k for j, _ in events):
            slot = night.chain[k]
            if slot.face_down:
                raise RuleError("that Event is already resolved")
            return k
        raise RuleError(f"Chain space {key} holds no Event card")
    found = [(k, s) for k, s in events if s.card == key] or [
        (k, s) for k, s in events if s.card.startswith(key)
    ]
    if len(found) != 1:
        raise RuleError(
            f"no single Event {key!r} on the Chain",
            hint="Events: " + ", ".join(s.card for _, s in events),
        )
    if found[0][1].face_down:
        raise RuleError("that Event is already resolved")
    return found[0][0]


class RestRedraw(NightAction):
    """A Rest card's activation: discard any cards from hand, then draw up to five
    ("Rest")."""

    type: Literal["night_redraw"] = "night_redraw"
    discard: list[str] = []

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = _active(state, cat)
        if slot.kind != "rest":
            raise RuleError("only a Rest card's activation discards and draws up to five")
        if act.rest_drawn:
            raise RuleError("this Rest has already drawn")
        t = act.trouper
        if self.discard:
            state = fx.discard_cards(state, cat, t, list(self.discard))
        need = max(0, cat.config.hand_size - len(state.troupers[t].hand))
        state = fx.draw_cards(state, cat, t, need, ctx.chance)
        return fx.with_night(state, activation=act.model_copy(update={"rest_drawn": True}))


class FinishActivation(NightAction):
    """The Active Trouper is done: a Resolved token on the card; the next one activates."""

    type: Literal["night_done"] = "night_done"

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = _active(state, cat)
        chain = list(night.chain)
        chain[act.slot] = slot.model_copy(update={"resolved": True})
        state = fx.with_night(state, chain=chain, activation=None)
        state = fx.log(state, "resolved_token", space=act.slot + 1)
        return _activate_next(state, cat)


class AnswerQuestion(NightAction):
    """Answer the waiting question: Troupers (in range, closest, the Leader's pick; none is
    allowed for in range) or the cards to discard."""

    type: Literal["night_answer"] = "night_answer"
    troupers: list[str] = []
    cards: list[str] = []

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        q = ai.current_question(state)
        if q.kind == "discard":
            state = ai.answer_discard(state, cat, ctx.chance, list(self.cards))
        else:
            idx = [trouper_index(state, w) for w in self.troupers]
            state = ai.answer_targets(state, cat, ctx.chance, idx)
        return settle(state, cat, ctx.chance)

    def describe(self) -> str:
        return "answer " + (", ".join(self.troupers or self.cards) or "none")


class RollTest(NightAction):
    """The waiting dodge Test: the targeted Trouper rolls (or types in their dice); a
    Success cancels the Enemy Effect's Elements."""

    type: Literal["night_roll"] = "night_roll"
    trait: str | None = None
    dice: list[str] = []
    reroll: list[str] = []
    bonus_triumphs: int = 0

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        q = ai.current_question(state)
        if q.kind != "test" or q.trouper is None:
            raise RuleError("no Test is waiting", hint="`blood night next`")
        state, result = take_test(
            state,
            cat,
            ctx.chance,
            q.trouper,
            traits=q.traits,
            fixed_dice=q.dice,
            target=q.target or 0,
            trait=self.trait,
            dice=self.dice,
            reroll=self.reroll,
            bonus_triumphs=self.bonus_triumphs,
            label="dodge",
        )
        state = ai.answer_test(state, cat, ctx.chance, result.success)
        return settle(state, cat, ctx.chance)


class NextPhase(NightAction):
    """Move on when the current phase is finished: Tactic -> Nemesis -> Minions -> Cleanup ->
    next Game Turn. The Nemesis and Minion cards resolve inside, stopping at questions."""

    type: Literal["night_continue"] = "night_continue"

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night = _night(state)
        if night.phase == "over":
            raise RuleError(
            f"the night is over ({night.result}): "
            f"{narrate.REASONS.get(night.reason, night.reason)}"
        )
        _no_question(state)
        if night.phase == "beginning_of_night" and not night.started:
            return begin_night(state, cat, ctx.chance)
        if night.phase == "planning":
            raise RuleError(
                "the Planning Phase goes on while someone can play",
                hint="`blood night play TROUPER CARD` or `blood night rest TROUPER CARD`",
            )
        if night.phase == "tactic" and night.activation is not None:
            raise RuleError("the Active Trouper has not finished", hint="`blood night done`")
        if night.phase in ("nemesis", "minions") and not night.phase_done:
            return settle(state, cat, ctx.chance)
        nxt = NEXT_PHASE.get(night.phase)
        if nxt == "nemesis":
            return start_nemesis(state, cat, ctx.chance)
        if nxt == "minions":
            return start_minions(state, cat, ctx.chance)
        if nxt == "cleanup":
            return cleanup(state, cat)
        if nxt == "start_of_turn":
            state = start_turn(state, cat, ctx.chance)
            return settle(state, cat, ctx.chance)
        return settle(state, cat, ctx.chance)

    def describe(self) -> str:
        return "continue"


def _effect_entry(
    state: CampaignState, catalog: Catalog, t: int, eff: m.Effect, number: int
) -> dict[str, Any]:
    attack = next((o.kind for o in eff.outcome if o.kind in ATTACKS), None)
    target = eff.target
    return {
        "effect": number,
        "text": render_effect(eff),
        "type": eff.type,
        "attack": attack.removesuffix("_attack") if attack else None,
        "target": target.kind if target is not None else None,
        "distance": target.distance if target is not None else None,
        "minion_type": target.minion_type if target is not None else None,
        "traits": list(eff.test.traits) if eff.test is not None else [],
        "test_dice": eff.test.dice if eff.test is not None else None,
        "discard": sum(c.n for c in eff.cost if c.kind == "discard_card"),
        "heal": any(o.kind == "heal" for o in eff.outcome),
    }


def _targets(state: CampaignState, catalog: Catalog, eff: m.Effect) -> list[dict[str, Any]]:
    """Who an attack Effect may hit: the Nemesis (with the Wounds each side still needs) and
    the Minion spaces with Miniatures of the right type."""
    night = _night(state)
    kind = eff.target.kind if eff.target is not None else "enemy"
    out: list[dict[str, Any]] = []
    if kind != "minion":
        level = fx.nemesis_level(state, catalog)
        needs = {
            s: max(0, level.wounds.get(s, 0) - len(night.nemesis_wounds.get(s, [])))
            for s in m.SIDES
        }
        out.append(
            {
                "target": "nemesis",
                "name": fx.nemesis_card(state, catalog).name,
                "needs": needs,
                # Triumphs the attack needs on each side (Defense, Fatigue, Weakness)
                "defense": {
                    s: attack_need(state, catalog, eff, "nemesis", s)[1] for s in m.SIDES
                },
            }
        )
    if kind != "nemesis":
        want = eff.target.minion_type if eff.target is not None else None
        for ms in night.minions:
            mc = minion_card(catalog, ms.minion)
            if ms.alive > 0 and (want is None or mc.type == want):
                out.append(
                    {
                        "target": ms.space,
                        "name": mc.name,
                        "type": mc.type,
                        "alive": ms.alive,
                        "defense": attack_need(state, catalog, eff, ms.space, None)[1],
                    }
                )
    return out


def activation_options(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """The Active Trouper's legal moves as data (for menus such as `blood play`): the card's
    Effects with whether each can be resolved now (and why not), the targets of attacks, the
    Supports to the left, the equipped Items and the open Event Effects. Empty when nobody is
    Active. Pure: it only asks the checks the actions themselves make."""
    night = _night(state)
    act = night.activation
    if night.phase != "tactic" or act is None or night.pending or night.result is not None:
        return {}
    slot = night.chain[act.slot]
    t = act.trouper
    tr = state.troupers[t]
    out: dict[str, Any] = {
        "trouper": tr.trouper,
        "space": act.slot + 1,
        "rest": slot.kind == "rest",
        "rest_drawn": act.rest_drawn,
        "card": slot.card if slot.kind == "tactic" else None,
        "effects": [],
        "supports": [],
        "items": [],
        "events": [],
    }
    if slot.kind == "tactic":
        card = tactic_card(catalog, slot.card)
        out["card_name"] = card.name
        for k, eff in enumerate(card.effects):
            entry = _effect_entry(state, catalog, t, eff, k + 1)
            try:
                _card_effect(catalog, act, slot, k + 1)
                _check_cost_and_condition(
                    state, catalog, t, eff, discard=tr.hand[: entry["discard"]]
                )
                entry["open"], entry["why"] = True, ""
            except RuleError as exc:
                entry["open"], entry["why"] = False, exc.message
            if entry["attack"]:
                entry["targets"] = _targets(state, catalog, eff)
                if entry["open"] and not entry["targets"]:
                    entry["open"], entry["why"] = False, "no target on the board"
            out["effects"].append(entry)
    for k, s in enumerate(night.chain[: act.slot]):
        if s.kind != "tactic" or s.owner == t:
            continue
        other = tactic_card(catalog, s.card)
        for j, eff in enumerate(other.effects):
            if eff.type == "support" and j not in s.supports_used:
                out["supports"].append(
                    {
                        "space": k + 1,
                        "effect": j + 1,
                        "owner": state.troupers[s.owner or 0].trouper,
                        "name": other.name,
                        "text": render_effect(eff),
                    }
                )
    for iid in tr.equipped.values():
        item = item_card(catalog, iid)
        advanced = any(x.item == iid and x.advanced for x in tr.sleeves)
        side = item.advanced if advanced and item.advanced is not None else item.starting
        entry = {"item": iid, "name": side.name, "quick": side.quick, "open": True, "why": ""}
        entry["text"] = render_effect(side.effects[0]) if side.effects else ""
        if iid in tr.depleted_items:
            entry["open"], entry["why"] = False, "depleted until the Cleanup Phase"
        elif side.effects:
            eff = side.effects[0]
            n = sum(c.n for c in eff.cost if c.kind == "discard_card")
            try:
                _check_cost_and_condition(state, catalog, t, eff, discard=tr.hand[:n], item=iid)
            except RuleError as exc:
                entry["open"], entry["why"] = False, exc.message
        out["items"].append(entry)
    if not act.event_used:
        for k, s in enumerate(night.chain):
            if s.kind != "event" or s.face_down:
                continue
            ev = event_card(catalog, s.card)
            out["events"].append(
                {
                    "space": k + 1,
                    "event": s.card,
                    "name": ev.name,
                    "effects": [
                        _effect_entry(state, catalog, t, e, j + 1) for j, e in enumerate(ev.effects)
                    ],
                }
            )
    return out


# --------------------------------------------------------------------------- views


def whose_turn(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """What the table does now: phase, who acts, the prompt and the commands that fit."""
    night = _night(state)
    out: dict[str, Any] = {
        "turn": night.turn,
        "phase": night.phase,
        "phase_name": PHASE_NAMES[night.phase],
        "who": None,
        "question": None,
    }
    if night.phase == "over":
        out["prompt"] = (
            f"The night is {night.result}: {narrate.night_reason(night, catalog)}. "
            "End of the Night: clear the board and read the rewards."
        )
        out["commands"] = ["blood end night"]
        return out
    if night.pending:
        q = night.pending[0]
        out["question"] = q.model_dump()
        out["prompt"] = q.prompt
        if q.kind == "test":
            out["test_options"] = test_options(
                state,
                catalog,
                q.trouper or 0,
                traits=q.traits,
                fixed_dice=q.dice,
                target=q.target or 0,
            )
            who = fx.name_of(state, catalog, q.trouper or 0)
            opts = " or ".join(x.capitalize() for x in q.traits) or (q.dice or "")
            out["who"] = state.troupers[q.trouper or 0].trouper
            out["prompt"] += f". {who} takes a {opts} Test, {q.target}+ Triumphs."
            out["commands"] = ["blood night roll [--trait T] [--dice FACES]"]
        elif q.kind == "discard":
            out["who"] = state.troupers[q.trouper or 0].trouper
            out["commands"] = ["blood night answer CARD[,CARD]"]
        else:
            names = ", ".join(state.troupers[i].trouper for i in q.candidates)
            out["prompt"] += f" (candidates: {names})"
            out["commands"] = [
                "blood night answer TROUPER[,TROUPER]" + (" | none" if q.kind == "in_range" else "")
            ]
        return out
    if night.phase == "planning":
        t = night.to_play
        assert t is not None
        tr = state.troupers[t]
        who = fx.name_of(state, catalog, t)
        out["who"] = tr.trouper
        free = night.chain_spaces - len(night.chain)
        if night.cascade and len(tr.hand) == 1 and not tr.rested_this_turn:
            out["prompt"] = f"{who} has one card left: Rest with it, or pass after the Cascade."
            out["commands"] = [
                f"blood night rest {tr.trouper} {tr.hand[0]}",
                f"blood night pass {tr.trouper}",
            ]
        elif night.cascade:
            out["prompt"] = (
                f"{who} may play another card after the Cascade ({free} Chain "
                "spaces free), Rest, or pass."
            )
            out["commands"] = [
                f"blood night play {tr.trouper} CARD",
                *([] if tr.rested_this_turn else [f"blood night rest {tr.trouper} CARD"]),
                f"blood night pass {tr.trouper}",
            ]
        elif len(tr.hand) == 1 and not tr.rested_this_turn:
            out["prompt"] = f"{who} has one card left and must Rest."
            out["commands"] = [f"blood night rest {tr.trouper} {tr.hand[0]}"]
        else:
            out["prompt"] = f"{who} plays a Tactic card or Rests ({free} Chain spaces free)."
            out["commands"] = [f"blood night play {tr.trouper} CARD"] + (
                [] if tr.rested_this_turn else [f"blood night rest {tr.trouper} CARD"]
            )
        out["hand"] = list(tr.hand)
        out["can_pass"] = night.cascade
        out["must_rest"] = len(tr.hand) == 1 and not tr.rested_this_turn
        out["can_rest"] = not tr.rested_this_turn
        return out
    if night.phase == "tactic" and night.activation is not None:
        act = night.activation
        slot = night.chain[act.slot]
        who = fx.name_of(state, catalog, act.trouper)
        out["who"] = state.troupers[act.trouper].trouper
        if slot.kind == "rest":
            out["prompt"] = (
                f"{who} is Active with a Rest: discard any cards and draw up to "
                f"{catalog.config.hand_size}, then finish."
            )
            out["commands"] = ["blood night redraw [--discard CARD]", "blood night done"]
            out["options"] = activation_options(state, catalog)
            return out
        card = tactic_card(catalog, slot.card)
        lines = [f"{k + 1}. {render_effect(e)}" for k, e in enumerate(card.effects)]
        out["prompt"] = (
            f"{who} is Active with {card.name} (Chain space {act.slot + 1}). "
            "Resolve its Effects top to bottom, or skip them:"
        )
        out["effects"] = lines
        out["commands"] = [
            "blood night attack N nemesis --side front|left|right [--trait T] [--dice FACES]",
            "blood night attack N minion:A ...",
            "blood night effect N",
            "blood night support SPACE",
            "blood night item TROUPER ITEM",
            "blood night event EVENT",
            "blood night done",
        ]
        out["options"] = activation_options(state, catalog)
        return out
    waiting: dict[str, str] = {
        "tactic": "Every Chain card is resolved: the Nemesis Phase comes next.",
        "nemesis": "The Nemesis Phase is over: the Minions Phase comes next.",
        "minions": "The Minions Phase is over: the Cleanup Phase comes next.",
        "cleanup": "The Cleanup is done: the next Game Turn starts.",
        "beginning_of_night": "Begin the night.",
        "start_of_turn": "Start the Game Turn.",
    }
    out["prompt"] = waiting.get(str(night.phase), "")
    out["commands"] = ["blood night continue"]
    return out


def board_view(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """The Night Board as plain data (for `blood status --json` and the rich view)."""
    night = _night(state)
    nem = fx.nemesis_card(state, catalog)
    level = fx.nemesis_level(state, catalog)
    phys, mind = fx.fatigue(state, catalog)
    track = catalog.board.threat_track
    chain = []
    for k, s in enumerate(night.chain):
        if s.kind == "event":
            ev = catalog.get("events", s.card)
            name = ev.name if ev is not None else s.card
        elif s.kind == "rest":
            name = "Rest (face down)"
        else:
            name = card_name(catalog, s.card)
        chain.append(
            {
                "space": k + 1,
                "kind": s.kind,
                "card": s.card,
                "name": name,
                "owner": state.troupers[s.owner].trouper if s.owner is not None else None,
                "threat": s.threat,
                "resolved": s.resolved,
                "sacrificed": s.sacrificed,
                "face_down": s.face_down,
                "supports_used": s.supports_used,
                "active": night.activation is not None and night.activation.slot == k,
            }
        )
    line = []
    for k, r in enumerate(night.reaction_line):
        face = fx.reaction_face(state, catalog, r.card)
        line.append(
            {
                "space": k + 1,
                "card": r.card,
                "name": face.name,
                "resolved": r.resolved,
                "interruption": face.interruption,
                "check": face.check is not None,
                "fatigue": {"physical": face.fatigue.physical, "mind": face.fatigue.mind},
            }
        )
    minions = []
    for ms in night.minions:
        mc = minion_card(catalog, ms.minion)
        minions.append(
            {
                "space": ms.space,
                "minion": ms.minion,
                "name": mc.name,
                "type": mc.type,
                "summoned": ms.summoned,
                "alive": ms.alive,
                "defenses": {"physical": mc.defenses.physical, "mind": mc.defenses.mind},
            }
        )
    troupers = []
    tokens = catalog.config.vigor_tokens
    for i, t in enumerate(state.troupers):
        troupers.append(
            {
                "seat": t.seat + 1,
                "trouper": t.trouper,
                "name": fx.name_of(state, catalog, i),
                "colour": t.colour,
                "leader": i == state.leader,
                "hand": len(t.hand),
                "hand_cards": list(t.hand),
                "deck": len(t.draw_pile),
                "discard": len(t.discard),
                "wounds": len(t.wounds),
                "vigor": fx.usable_vigor(t, tokens),
                "vigor_depleted": t.vigor_depleted,
                "bites": t.bites,
                "insanity": t.insanity,
                "exhausted": t.exhausted,
                "knocked_out": t.knocked_out,
                "rested": t.rested_this_turn,
                "items": [
                    {
                        "category": c,
                        "item": iid,
                        "name": item_card(catalog, iid).name,
                        "depleted": iid in t.depleted_items,
                    }
                    for c, iid in sorted(t.equipped.items())
                ],
            }
        )
    return {
        "turn": night.turn,
        "phase": night.phase,
        "result": night.result,
        "reason": narrate.night_reason(night, catalog),
        "nemesis": {
            "id": nem.id,
            "name": nem.name,
            "difficulty": night.difficulty,
            "level": level.name,
            "defenses": {"physical": nem.defenses.physical, "mind": nem.defenses.mind},
            "fatigue": {"physical": sum(phys), "mind": sum(mind)},
            "wounds": {s: len(night.nemesis_wounds.get(s, [])) for s in m.SIDES},
            "wounds_needed": dict(level.wounds),
            "deck": len(night.reaction_deck),
            "discard": len(night.reaction_discard),
        },
        "location": night.location,
        "threat": {
            "value": night.threat,
            "length": track.length,
            "alerts": list(track.alert_spaces),
        },
        "chain": chain,
        "chain_spaces": night.chain_spaces,
        "reaction_line": line,
        "reaction_spaces": catalog.board.reaction_spaces,
        "minions": minions,
        "minion_spaces": list(catalog.board.minion_spaces),
        "troupers": troupers,
        "pending": [q.model_dump() for q in night.pending],
        "queue": [j.label for j in night.queue],
    }


__all__ = [
    "AnswerQuestion",
    "Attack",
    "BeginNight",
    "FinishActivation",
    "NextPhase",
    "PassCascade",
    "PlayCard",
    "ResolveEffect",
    "Rest",
    "RestRedraw",
    "RollTest",
    "SetupNight",
    "UseEvent",
    "UseItem",
    "UseSupport",
    "activation_options",
    "begin_night",
    "board_view",
    "test_options",
    "whose_turn",
]
