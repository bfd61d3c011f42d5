"""The Enemy side: Reaction cards, Minion cards, Nemesis Skills and Weakness Effects resolved
top to bottom, with the Nemesis Target Priority and questions for what only the table knows.

Rulebook sections: "Resolving the Effects" (Reaction / Minion cards: mandatory, top to bottom,
an Effect without a valid target is skipped), "Reading the Elements of a Target" (Distance,
Nemesis Target Priority, Leader's Rule), "Reading an Effect" (a parenthesised Test passed by
the target cancels the Elements before it), "Repetition".

:func:`run_queue` resolves the :class:`EnemyJob` cursors of ``NightState.queue`` until a
:class:`Question` waits (the ``answer_*`` functions answer it and run the queue again); each
question names the job that asked it (:func:`number_jobs`). Distances are asked; the other
Target Priorities are applied here, the Leader asked only if still tied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.render import render_outcome
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine import leader, why
from blood_companion.engine.bookkeeping import item_side
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_state import EnemyJob, Question
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words.names import record_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def job_effects(state: CampaignState, catalog: Catalog, job: EnemyJob) -> list[m.Effect]:
    if job.source == "reaction":
        return list(fx.reaction_face(state, catalog, job.card).effects)
    if job.source == "minion":
        card = catalog.get("minions", job.card)
        return list(card.effects) if card is not None else []
    if job.source == "skill":
        return list(fx.nemesis_card(state, catalog).skills)
    if job.source in ("trouper", "event"):
        return effects_of_card(state, catalog, job.card, job.owner)
    w = catalog.get("weaknesses", job.card)
    return list(w.effects) if w is not None else []


def weakness_jobs(state: CampaignState, catalog: Catalog, timing: str) -> list[EnemyJob]:
    """The Nemesis's Weakness cards' Effects with this timing ("Nemesis Weaknesses": their
    Effects are active through the Night Part), one job per card, front side first."""
    jobs = []
    for side in m.SIDES:
        w = fx.weakness(state, catalog, side)
        timed = [k for k, e in enumerate(w.effects) if e.timing == timing] if w else []
        if w is not None and timed:
            jobs.append(EnemyJob(source="weakness", card=w.id, effects=timed,
                                 label=f"{w.name}: {w.effect_name}"))
    return jobs


def effects_of_card(
    state: CampaignState, catalog: Catalog, card_id: str, owner: int | None
) -> list[m.Effect]:
    """A Tactic card's, Event card's or Item's Effects (an Item on the side it shows)."""
    tactic = catalog.tactic(card_id)
    if tactic is not None:
        return list(tactic.effects)
    event = catalog.get("events", card_id)
    if event is not None:
        return list(event.effects)
    item = catalog.item(card_id)
    if item is None:
        return []
    side = item.starting if owner is None else item_side(state, catalog, owner, card_id)
    return list(side.effects)


def source_name(state: CampaignState, catalog: Catalog, job: EnemyJob) -> str:
    if job.source == "minion":
        card = catalog.get("minions", job.card)
        return card.name if card is not None else job.card
    return fx.nemesis_card(state, catalog).name


def source_id(state: CampaignState, job: EnemyJob) -> str:
    """Who acts for a card: the Minion, the Nemesis, or the Trouper resolving their own timed
    Effect (log events name it)."""
    if job.source in ("trouper", "event") and job.owner is not None:
        return fx.tid(state, job.owner)
    return job.card if job.source == "minion" else fx.night_of(state).nemesis


def _troupers_side(job: EnemyJob) -> bool:
    """A timed Effect of the players' (a Trouper's card or Item, an Event): it helps them."""
    return job.source in ("trouper", "event")


def _order(job: EnemyJob, effects: list[m.Effect]) -> list[int]:
    """The Effect indexes the job resolves, in order. Indexes the card no longer has (its text
    was transcribed anew while it lay on the table, docs/campaigns.md) are left out."""
    if job.effects is None:
        return list(range(len(effects)))
    return [k for k in job.effects if 0 <= k < len(effects)]


# Questions a queued job asks about its own Effect (answered with that job's cursor).
JOB_QUESTIONS = frozenset({"in_range", "closest", "farthest", "leader", "test", "confirm"})


def _asked_by_job(q: Question) -> bool:
    return q.kind in JOB_QUESTIONS and not q.about.startswith("weakness:")


def number_jobs(state: CampaignState) -> CampaignState:
    """Every queued job without an id gets the next free one, in queue order (the rules that
    queue jobs leave it at 0; so do saves from before ids). A job's question from such a save
    belongs to the front job, as it did then."""
    night = fx.night_of(state)
    if all(j.id for j in night.queue):
        return state
    top = max((j.id for j in night.queue), default=0)
    queue = []
    for j in night.queue:
        if not j.id:
            top += 1
            j = j.model_copy(update={"id": top})
        queue.append(j)
    pending = [
        q.model_copy(update={"job": queue[0].id})
        if not q.job and _asked_by_job(q) and not night.queue[0].id
        else q
        for q in night.pending]
    return fx.with_night(state, queue=queue, pending=pending)


def queued_job(state: CampaignState, job_id: int) -> EnemyJob | None:
    """The queued job with this id (None once it left the queue)."""
    return next((j for j in fx.night_of(state).queue if j.id == job_id), None)


def _set_job(state: CampaignState, job: EnemyJob) -> CampaignState:
    """The job's new cursor, in its own place in the queue (found by its id)."""
    queue = [job if j.id == job.id else j for j in fx.night_of(state).queue]
    return fx.with_night(state, queue=queue)


def _drop_job(state: CampaignState, job: EnemyJob) -> CampaignState:
    return fx.with_night(state, queue=[j for j in fx.night_of(state).queue if j.id != job.id])


def _ask(state: CampaignState, job: EnemyJob, kind: str, prompt: str, **fields: Any
         ) -> CampaignState:
    """``job`` asks the table a question about its current Effect."""
    return fx.ask(state, kind, prompt, job=job.id, **fields)


def _names(state: CampaignState, catalog: Catalog, idx: list[int]) -> str:
    return ", ".join(fx.name_of(state, catalog, i) for i in idx) or "nobody"


# --------------------------------------------------------------------------- the loop


def run_queue(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """Resolve queued Enemy cards until a question is pending, the queue is empty or the night
    ends."""
    for _ in range(10_000):  # a guard against a data loop, never reached by real cards
        state = number_jobs(state)
        night = fx.night_of(state)
        if night.pending or not night.queue or night.result is not None:
            return state
        state = _advance(state, catalog, rng)
    raise RuleError("the Enemy cards did not finish resolving")  # pragma: no cover


def _finish_job(state: CampaignState, job: EnemyJob) -> CampaignState:
    state = _drop_job(state, job)
    if job.source == "reaction" and job.slot is not None:
        line = list(fx.night_of(state).reaction_line)
        if job.slot < len(line):
            line[job.slot] = line[job.slot].model_copy(update={"resolved": True})
            state = fx.with_night(state, reaction_line=line)
        state = fx.log(state, "job_resolved", job=fx.job_arg(state, job))
    return state


def _next_effect(state: CampaignState, job: EnemyJob) -> CampaignState:
    return _set_job(state, job.model_copy(update={
        "effect": job.effect + 1, "rep": 0, "stage": "start", "candidates": [], "priority_at": 0,
        "targets": [], "confirmed": False}))


def _advance(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    night = fx.night_of(state)
    job = night.queue[0]
    if job.source == "reaction" and not job.check_done:
        face = fx.reaction_face(state, catalog, job.card)
        if face.check is not None:
            ref = fx.job_arg(state, job)
            if fx.check_rule_holds(state, catalog, face.check):
                state = fx.log(state, "check_holds", job=ref, check=True)
                return fx.end_night(state, "lost", "check_holds", job=ref)
            state = fx.log(state, "check_fails", job=ref, check=True)
        job = job.model_copy(update={"check_done": True})
        state = _set_job(state, job)
    if job.source == "minion":
        slot = next((s for s in night.minions if s.space == job.space), None)
        if slot is None or slot.minion != job.card or slot.alive <= 0:
            return _drop_job(state, job)
    effects = job_effects(state, catalog, job)
    order = _order(job, effects)
    if job.effect >= len(order):
        return _finish_job(state, job)
    eff = effects[order[job.effect]]
    src = source_name(state, catalog, job)
    if job.stage == "start" and eff.is_free_text:
        # words the app cannot read: the table resolves them as printed ("never guess")
        if not job.confirmed:
            return _ask(state, job, "confirm", f"{job.label} (Effect {order[job.effect] + 1}): "
                        "the app cannot read this Effect. Resolve it at the table as printed, "
                        f"then answer yes (no if it does not apply): {eff.free_text}",
                        about="free_text")
        state = fx.log(state, "free_text_resolved", job=fx.job_arg(state, job))
        return _next_effect(state, job)
    if job.stage == "start" and eff.condition is not None and not job.confirmed:
        holds = interp.enemy_condition(state, eff.condition)
        if holds is False:
            state = fx.log(state, "enemy_condition_fails", job=fx.job_arg(state, job))
            return _next_effect(state, job)
        if holds is None:
            return _ask(state, job, "confirm", f"{job.label} (Effect {order[job.effect] + 1}): "
                        f"does its Condition hold? {interp.condition_text(eff)}")
    if job.stage == "start" and _troupers_side(job):
        return _start_trouper_effect(state, catalog, rng, job, eff)
    if job.stage == "start":
        target = eff.target
        if target is None or interp.target_rule(eff).enemy == "none":
            state = _apply_global(state, catalog, rng, job, eff)
            # this job goes on, whatever its Elements queued in front of it (an Interruption
            # revealed by its Threat resolves first: "Game Turns")
            return _next_effect(state, job)
        everyone = list(range(len(state.troupers)))
        job = job.model_copy(update={"stage": "priorities", "candidates": everyone,
                                     "priority_at": 0})
        state = _set_job(state, job)
        if target.distance != "any":
            start = [why.step("everyone", "app", _tids(state, everyone))]
            state = _decided(state, job, order[job.effect], eff, start, asks="in_range")
            dist = "Special Area" if target.distance == "area" else f"Distance {target.distance}"
            return _ask(state, job, "in_range", f"{job.label} (Effect {order[job.effect] + 1}): "
                        f"which Troupers are at {dist} from {src}? "
                        f"({leader.in_doubt(state, catalog)})", candidates=everyone)
        return state
    if job.stage == "priorities":
        return _apply_priorities(state, catalog, job, eff, src, order[job.effect])
    return _resolve_targets(state, catalog, rng, job, eff)


def _start_trouper_effect(
    state: CampaignState, catalog: Catalog, rng: Chance, job: EnemyJob, eff: m.Effect
) -> CampaignState:
    """A player's timed Effect ("At the Beginning of the Night/Turn/Cleanup"): its owner
    resolves it on themself, on the Trouper the owner picks, or on every Trouper; an attack or
    an Effect whose Cost cannot be paid is left to the table (logged)."""
    owner = job.owner if job.owner is not None else state.leader
    rule = interp.target_rule(eff)
    try:
        interp.check_costs(state, catalog, owner, eff, interp.Payment(confirmed=job.confirmed))
    except RuleError:
        if interp.condition_holds(state, owner, eff.condition) is None and not job.confirmed:
            return _ask(state, job, "confirm",
                        f"{job.label}: does its Condition hold? {interp.condition_text(eff)}")
        state = fx.log(state, "timed_skipped", job=fx.job_arg(state, job))
        return _next_effect(state, job)
    if rule.trouper == "attack" or rule.trouper == "every" and any(
            o.kind in interp.ATTACKS for o in eff.outcome):
        state = fx.log(state, "timed_attack", job=fx.job_arg(state, job))
        return _next_effect(state, job)
    state = interp.pay_costs(state, catalog, owner, eff, interp.Payment(confirmed=True))
    if rule.trouper == "every":  # every Minion / every Enemy: each one in turn
        act = interp.Act(catalog, rng, source=fx.tid(state, owner), target=owner)
        act = interp.every_act(state, act, eff.target)
        return _next_effect(interp.apply_outcomes(state, act, eff.outcome), job)
    everyone = list(range(len(state.troupers)))
    if rule.trouper == "chosen" and len(everyone) > 1:
        job = job.model_copy(update={"stage": "priorities", "candidates": everyone,
                                     "priority_at": len(eff.target.priority) if eff.target
                                     else 0})
        state = _set_job(state, job)
        who = (leader.settles(state, catalog) if job.source == "event"
               else f"{fx.name_of(state, catalog, owner)} chooses")
        whose = "the Event's" if job.source == "event" else f"{fx.name_of(state, catalog, owner)}'s"
        return _ask(state, job, "leader", f"{job.label}: which Trouper does {whose} Effect target? "
                    f"({who})", candidates=everyone)
    targets = everyone if rule.trouper == "all" else [owner]
    job = job.model_copy(update={"stage": "tests", "targets": targets, "candidates": targets})
    return _set_job(state, job)


def _tids(state: CampaignState, idx: list[int]) -> list[str]:
    return [fx.tid(state, i) for i in idx]


def _decided(state: CampaignState, job: EnemyJob, k: int, eff: m.Effect,
             steps: list[dict[str, Any]], *, asks: str = "",
             chosen: list[int] | None = None) -> CampaignState:
    """Record the part of the Target decision of ``job``'s Effect ``k`` taken now
    (engine/why.py): the rules applied, in order, with the candidates each kept, and the
    question it waits for or the targets chosen. A player's own timed Effect is the players'
    decision: none is recorded."""
    if eff.target is None or _troupers_side(job):
        return state
    return fx.log(state, why.DECISION, **why.target_record(
        {**fx.job_arg(state, job), "id": job.id}, k, job.rep, eff.target.distance,
        list(eff.target.priority), interp.target_rule(eff).enemy, steps, asks=asks,
        chosen=None if chosen is None else _tids(state, chosen)))


def _first_steps(state: CampaignState, job: EnemyJob, k: int) -> list[dict[str, Any]]:
    """The steps a record of the Target decision begins with: the table's answer to the
    question its last record stopped at (the candidates the job now holds); with none of it
    recorded yet, the candidates (every Trouper before any rule; else those an older version,
    which kept no record, left in the running)."""
    last = why.open_decision(fx.night_of(state).log, why.target_key(job, k))
    if last is None:
        rule = "everyone" if job.priority_at == 0 else "from"
        return [why.step(rule, "app", _tids(state, list(job.candidates)))]
    asked = str(last.get("asks", ""))
    if not asked:
        return []
    by = "leader" if asked == "leader" else "table"
    return [why.step(asked, by, _tids(state, list(job.candidates)))]


def _apply_priorities(
    state: CampaignState, catalog: Catalog, job: EnemyJob, eff: m.Effect, src: str, k: int
) -> CampaignState:
    assert eff.target is not None
    cands = list(job.candidates)
    steps = _first_steps(state, job, k)

    def ask(kind: str, prompt: str) -> CampaignState:  # the table says, from the Priority `at`
        asking = job.model_copy(update={"candidates": cands, "priority_at": at})
        asked = _decided(_set_job(state, asking), asking, k, eff, steps, asks=kind)
        return _ask(asked, asking, kind, prompt, candidates=cands)

    if interp.target_rule(eff).enemy == "priority":
        prios = eff.target.priority
        at = job.priority_at
        while at < len(prios) and len(cands) > 1:
            p = prios[at]
            at += 1
            if p in interp.DISTANCE_PRIORITIES:
                return ask("closest" if p == "closest" else "farthest",
                           f"{job.label}: which of {_names(state, catalog, cands)} "
                           f"{'is' if len(cands) == 1 else 'are'} {p} to {src}? "
                           f"(name every one tied; {leader.in_doubt(state, catalog)})")
            values = priority_values(state, p, cands)
            cands = tie_break(state, p, cands)
            steps = [*steps, why.step(p, "app", _tids(state, cands), {
                fx.tid(state, i): v for i, v in values.items()})]
        if len(cands) > 1:
            return ask("leader", f"{job.label}: still tied between {_names(state, catalog, cands)} "
                       f"after its Target Priorities; which one is the target? "
                       f"({leader.decides(state, catalog)})")
    state = _decided(state, job, k, eff, steps, chosen=cands)
    if not cands:
        state = fx.log(state, "no_target", job=fx.job_arg(state, job))
    job = job.model_copy(update={"stage": "tests", "targets": cands, "candidates": cands})
    return _set_job(state, job)


# one place for the Target Priorities the app evaluates (engine/interpreter.py)
tie_break = interp.tie_break
priority_values = interp.priority_values


def _resolve_targets(state: CampaignState, catalog: Catalog, rng: Chance, job: EnemyJob,
                     eff: m.Effect) -> CampaignState:
    if not job.targets:
        if job.rep + 1 < eff.repeat:
            return _set_job(state, job.model_copy(update={
                "rep": job.rep + 1, "stage": "start", "candidates": [], "priority_at": 0}))
        return _next_effect(state, job)
    t = job.targets[0]
    if eff.test is not None:
        if _troupers_side(job):  # the owner's own Test
            t = job.owner if job.owner is not None else t
            what = "takes the Effect's Test (a Success applies it)"
        else:
            what = f"may dodge [{', '.join(render_outcome(o) for o in eff.outcome)}] with a Test"
        return _ask(state, job, "test", f"{job.label}: {fx.name_of(state, catalog, t)} {what}",
                    trouper=t, traits=list(eff.test.traits), dice=eff.test.dice,
                    target=eff.test.target or 0)
    state = _set_job(state, job.model_copy(update={"targets": job.targets[1:]}))
    return apply_to_trouper(state, catalog, rng, t, eff.outcome, source_id(state, job),
                            enemy=not _troupers_side(job))


def _apply_global(state: CampaignState, catalog: Catalog, rng: Chance, job: EnemyJob,
                  eff: m.Effect) -> CampaignState:
    """An Enemy Effect that targets no Trouper: its Elements through the interpreter (Threat,
    Summon, a movement of the Enemy, ...)."""
    tile = eff.target.distance if eff.target is not None and eff.target.kind == "tile" else None
    act = interp.Act(catalog, rng, source=source_id(state, job), enemy=True, tile=tile)
    state = interp.apply_outcomes(state, interp.every_act(state, act, eff.target), eff.outcome)
    if eff.text:
        effects = job_effects(state, catalog, job)
        state = fx.log(
            state, "enemy_text", job=fx.job_arg(state, job), effect=_order(job, effects)[job.effect]
        )
    return state


def apply_to_trouper(state: CampaignState, catalog: Catalog, rng: Chance, t: int,
                     outcome: list[m.Outcome], src: str, enemy: bool = True) -> CampaignState:
    """Apply an Enemy Effect's Elements (``enemy``; else a player's timed Effect) to one Trouper
    (engine/interpreter.py: the Elements the app tracks, and the movements as lines for the
    players to carry out)."""
    act = interp.Act(catalog, rng, source=src, enemy=enemy, target=t)
    return interp.apply_outcomes(state, act, outcome)


# --------------------------------------------------------------------------- answers


def current_question(state: CampaignState) -> Question:
    night = fx.night_of(state)
    if not night.pending:
        raise RuleError("no question is waiting for an answer")
    return night.pending[0]


def _asking(state: CampaignState) -> tuple[CampaignState, Question, EnemyJob]:
    """The waiting question and the queued job that asked it (found by its id; the queue
    numbered first, for saves from before ids). Raises RuleError."""
    state = number_jobs(state)
    q = current_question(state)
    job = queued_job(state, q.job)
    if job is None:
        raise RuleError("the Enemy card that asked this question is no longer being resolved")
    return state, q, job


def answer_targets(
    state: CampaignState, catalog: Catalog, rng: Chance, chosen: list[int]
) -> CampaignState:
    """Answer an in_range / closest / farthest / leader question with Trouper indexes."""
    q = current_question(state)
    if q.kind in ("test", "discard", "wound", "confirm", "order"):
        raise RuleError(
            "this question is answered with "
            + ("the dodge Test's roll" if q.kind == "test" else "the cards to discard"),
            see=("night_roll",) if q.kind == "test" else ("night_answer",))
    state, q, job = _asking(state)
    bad = [i for i in chosen if i not in q.candidates]
    if bad:
        raise RuleError(f"{_names(state, catalog, bad)} cannot be chosen here",
                        hint=f"choose among {_names(state, catalog, q.candidates)}")
    chosen = sorted(set(chosen))
    if q.kind in ("closest", "farthest", "leader") and not chosen:
        raise RuleError(f"name at least one of {_names(state, catalog, q.candidates)}")
    if q.kind == "leader" and len(chosen) != 1:
        raise RuleError("the Leader picks exactly one target")
    effects = job_effects(state, catalog, job)
    order = _order(job, effects)
    k = order[job.effect] if job.effect < len(order) else -1
    if job.stage == "priorities" and k >= 0 and not _troupers_side(job) and \
            why.open_decision(fx.night_of(state).log, why.target_key(job, k)) is None:
        # asked by an older version, which kept no record: the record begins with the answer
        by = "leader" if q.kind == "leader" else "table"
        steps = [*_first_steps(state, job, k), why.step(q.kind, by, _tids(state, chosen))]
        state = _decided(state, job, k, effects[k], steps)
    job = job.model_copy(update={"candidates": chosen})
    state = answered(state)
    state = _set_job(state, job)
    state = fx.log(state, "answer", whos=[fx.tid(state, i) for i in chosen])
    return run_queue(state, catalog, rng)


def answer_cards(state: CampaignState, catalog: Catalog, rng: Chance, cards: list[str]
                 ) -> CampaignState:
    """The hand cards a "discard" question (an Enemy Effect made a Trouper discard) or a
    "wound" question (the hand cards that take Wounds when no deck is left) asks for, as many
    as it asks. Raises RuleError."""
    q = current_question(state)
    if q.kind not in ("discard", "wound") or q.trouper is None:
        raise RuleError("the waiting question is not a discard or a Wound from the hand")
    if len(cards) != q.n:
        raise RuleError(f"discard exactly {q.n} card(s)" if q.kind == "discard"
                        else f"name exactly {q.n} card(s) of the hand")
    if q.kind == "discard":
        state = fx.discard_cards(state, catalog, q.trouper, cards)
    else:
        state = fx.wound_from_hand(state, q.trouper, cards)
    return run_queue(answered(state), catalog, rng)


def answered(state: CampaignState, **more: Any) -> CampaignState:
    """The waiting question is answered: it leaves the pending list (with ``more`` changes)."""
    return fx.with_night(state, pending=list(fx.night_of(state).pending[1:]), **more)


def answer_confirm(state: CampaignState, catalog: Catalog, rng: Chance, yes: bool) -> CampaignState:
    """The table's yes or no to a Condition only it can see: the Enemy Effect goes on or is
    skipped."""
    q = current_question(state)
    if q.kind != "confirm":
        raise RuleError("the waiting question is not a yes or no")
    if q.about.startswith("weakness:"):
        state = answered(state)
        return run_queue(fx.weakness_trophy(state, catalog, q.about[9:], yes), catalog, rng)
    state, q, job = _asking(state)
    state = answered(state)
    if yes:
        state = _set_job(state, job.model_copy(update={"confirmed": True}))
    else:
        kind = "free_text_skipped" if q.about == "free_text" else "enemy_condition_fails"
        state = fx.log(state, kind, job=fx.job_arg(state, job))
        state = _next_effect(state, job)
    return run_queue(state, catalog, rng)


def waiting_name(state: CampaignState, catalog: Catalog, card: str) -> str:
    """A card of an order question as the players call it: the Nemesis by its Skills of the
    moment ("Lucilla: The Colony Feeds"), any other card by its name."""
    night = fx.night_of(state)
    if card == night.nemesis:
        labels = [j.label for j in night.queue if j.source == "skill" and j.card == card]
        if labels:
            return ", ".join(dict.fromkeys(labels))
    return record_name(catalog, card)


def ask_order(state: CampaignState, catalog: Catalog, jobs: list[EnemyJob]) -> CampaignState:
    """With the Effects of several cards waiting at one moment (``jobs``, the Nemesis's Skills
    among them), the players choose the order ("Beginning of the Night", "Start of Turn"); the
    question lists the cards as queued (the Nemesis's first), the order kept if they agree."""
    cards = list(dict.fromkeys(j.card for j in jobs))
    if len(cards) < 2:
        return state
    return fx.ask(state, "order", "In which order are these Effects resolved? "
                  + "; ".join(waiting_name(state, catalog, c) for c in cards)
                  + f" ({leader.settles(state, catalog)})", cards=cards)


def answer_order(
    state: CampaignState, catalog: Catalog, rng: Chance, cards: list[str]
) -> CampaignState:
    """The order the players chose for the Effects waiting at this moment (every card named
    once; the Nemesis's card among them)."""
    q = current_question(state)
    if q.kind != "order":
        raise RuleError("the waiting question is not an order")
    if sorted(cards) != sorted(q.cards):
        raise RuleError("name every card once, in the order they resolve: " + ", ".join(q.cards))
    night = fx.night_of(state)
    timed = [
        k for k, j in enumerate(night.queue)
        if j.card in q.cards and (_troupers_side(j) or j.source in ("skill", "weakness"))]
    ordered = iter(sorted((night.queue[k] for k in timed), key=lambda j: cards.index(j.card)))
    # the waiting Effects take their places in the queue in the order chosen
    queue = [next(ordered) if k in timed else j for k, j in enumerate(night.queue)]
    state = answered(state, queue=queue)
    return run_queue(state, catalog, rng)


def answer_test(
    state: CampaignState, catalog: Catalog, rng: Chance, success: bool
) -> CampaignState:
    """The dodge Test of the current target is done: a Success cancels the Elements."""
    q = current_question(state)
    if q.kind != "test" or q.trouper is None:
        raise RuleError("the waiting question is not a Test")
    state, _, job = _asking(state)
    effects = job_effects(state, catalog, job)
    order = _order(job, effects)
    state = answered(state)
    state = _set_job(state, job.model_copy(update={"targets": job.targets[1:]}))
    if job.effect >= len(order):  # the card's text changed under the question: it ends here
        return run_queue(state, catalog, rng)
    eff = effects[order[job.effect]]
    if _troupers_side(job):  # the players' own Test: a Success applies the Effect
        t = job.targets[0] if job.targets else q.trouper
        outcome = eff.outcome if success else eff.on_failure
        state = apply_to_trouper(state, catalog, rng, t, list(outcome), source_id(state, job),
                                 enemy=False)
    elif success:
        state = fx.log(state, "dodges", who=fx.tid(state, q.trouper))
    else:
        state = apply_to_trouper(state, catalog, rng, q.trouper, eff.outcome, source_id(state, job))
    return run_queue(state, catalog, rng)
