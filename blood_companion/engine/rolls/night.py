"""A Trouper's Tests during the night ("Tests"): the Test printed on an Effect, attacks' and
dodges' Tests, with bonuses, Re-rolls and the Insanity cube; the ways a Test can be taken, best
odds first; and the same Test asked throw by throw for the menus of engine/legal.py, its
answers the action's own fields ``dice``, ``reroll`` and ``items`` (engine/rolls/procedure.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from blood_companion.content import models as m
from blood_companion.content.render import render_effect
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine.bookkeeping import item_side, night_of
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import (
    DiceBox,
    format_face,
    format_faces,
    parse_faces,
    parse_pool,
    roll_pool,
)
from blood_companion.engine.errors import RuleError
from blood_companion.engine.interpreter import helps_test, weakness_on_attack
from blood_companion.engine.legal import ROLL, Ask, Pick
from blood_companion.engine.night_state import Bonus
from blood_companion.engine.odds import MAX_BONUS_TRIUMPHS, trait_pool
from blood_companion.engine.rolls.procedure import (
    APP_ROLLED,
    TestResult,
    TestSetup,
    TestState,
    advise_test,
    confirm_test,
    cube_after_test,
    format_reroll,
    odds_for_test,
    parse_reroll,
    prepare_test,
    read_throw,
    replay_throws,
    reroll_at_best,
    roll_test,
    trouper_setup,
)
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words.names import record_name
from blood_companion.engine.words.text import percent

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

# engine/night imports this module, so it imports nothing of engine/night at the top.


def find_item(state: CampaignState, catalog: Catalog, key: str, owner: int | None = None) -> str:
    """An Item equipped by Trouper ``owner`` (by any Trouper when None), by id, unique id
    prefix or name (case-insensitive). Raises RuleError."""
    held = [(i, iid) for i, tr in enumerate(state.troupers) if owner in (None, i)
            for iid in tr.equipped.values()]
    ids = [iid for _, iid in held]
    if key in ids:
        return key
    low = key.strip().lower()
    hits = [iid for iid in ids if iid.startswith(low)]
    if len(hits) != 1:
        hits = [iid for i, iid in held if low in {
            item_side(state, catalog, i, iid).name.lower(),
            *([card.name.lower()] if (card := catalog.item(iid)) is not None else [])}]
    if len(hits) != 1:
        who = "no single" if owner is None else f"{fx.name_of(state, catalog, owner)} has no"
        raise RuleError(f"{who} equipped Item {key!r}", hint="equipped: " + ", ".join(ids))
    return hits[0]


def test_item_owner(
    state: CampaignState, catalog: Catalog, t: int, iid: str
) -> tuple[int, m.Effect]:
    """Who holds ``iid``, an equipped Quick Item whose Effect only helps a Test (Bonus
    Triumphs, a Re-roll, a Bonus die: "Re-rolling the Dice", "Bonus Dice" make those Quick),
    and its Effect, for Trouper ``t``'s Test. Raises RuleError when it cannot help now."""
    owners = [i for i, tr in enumerate(state.troupers) if iid in tr.equipped.values()]
    if not owners:
        raise RuleError(f"nobody has the Item {iid!r} equipped")
    owner = owners[0]
    side = item_side(state, catalog, owner, iid)
    if iid in state.troupers[owner].depleted_items:
        raise RuleError(f"{side.name} is depleted until the Cleanup Phase")
    eff = side.effects[0] if side.effects else None
    if eff is None or not helps_test(eff):
        raise RuleError(f"{side.name} does not help a Test")
    if not side.quick and not any(o.kind in ("reroll", "bonus_die") for o in eff.outcome):
        raise RuleError(f"{side.name} is not Quick")
    own_only = eff.target is None or eff.target.kind == "self"
    if own_only and owner != t:
        raise RuleError(f"{side.name} helps only its owner's Tests")
    return owner, eff


def use_test_items(
    state: CampaignState, catalog: Catalog, rng: Chance, t: int, items: Sequence[str]
) -> CampaignState:
    """Quick Items used during Trouper ``t``'s Test (recorded with the Test): each one's Cost
    is paid and its Bonus Triumphs, Re-rolls or Bonus die go to this Test. Raises RuleError."""
    for key in items:
        iid = find_item(state, catalog, key)
        owner, eff = test_item_owner(state, catalog, t, iid)
        # naming it at this Test is the table's word that its Condition holds
        interp.check_costs(state, catalog, owner, eff, interp.Payment((), iid, confirmed=True))
        state = interp.pay_costs(state, catalog, owner, eff, interp.Payment((), iid))
        if not any(c.kind == "deplete_item" for c in eff.cost):
            tr = state.troupers[owner]
            state = fx.with_trouper(state, owner, depleted_items=[*tr.depleted_items, iid])
        state = fx.log(state, "uses_item", who=fx.tid(state, owner), item=iid)
        act = interp.Act(catalog, rng, source=fx.tid(state, owner), target=t)
        state = interp.apply_outcomes(state, act, eff.outcome)
    return state


def effect_test(
    state: CampaignState, catalog: Catalog, rng: Chance, t: int, test: m.EffectTest,
    trait: str | None, dice: Sequence[str], reroll: Sequence[str], label: str,
) -> tuple[CampaignState, bool]:
    """The Test printed on a Trouper's own Effect (a Tactic or Event card): its Traits or dice
    and its number. Returns the new state and whether it succeeded."""
    state, result = take_test(
        state, catalog, rng, t, traits=list(test.traits), fixed_dice=test.dice,
        target=test.target or 0, trait=trait, dice=dice, reroll=reroll, label=label)
    return state, result.success


def take_test(
    state: CampaignState, catalog: Catalog, rng: Chance, t: int, *, traits: Sequence[str],
    fixed_dice: str | None, target: int, trait: str | None, dice: Sequence[str],
    reroll: Sequence[str], bonus_triumphs: int = 0, label: str,
) -> tuple[CampaignState, TestResult]:
    """One Trouper's Test, the seven steps of "Tests": ``trait`` one of ``traits`` (the best
    odds when None); ``dice`` and ``reroll`` the throws as text (engine/rolls/procedure.py),
    else the app rolls and re-rolls at best. Bonuses for the next Test are spent, and a Failure
    moves the Insanity cube ("Insanity"). Raises RuleError/DiceError."""
    box = DiceBox.from_models(catalog.dice)
    tr = state.troupers[t]
    night = night_of(state)
    key, setup = test_setups(
        state, catalog, t, traits=traits, fixed_dice=fixed_dice, target=target, trait=trait,
        bonus_triumphs=bonus_triumphs, label=label,
    )[0]
    ts = prepare_test(setup, box)
    if dice:
        ts = replay_throws(ts, box, dice, reroll, whole=True)
    else:
        if reroll:
            raise RuleError("--reroll goes with physical dice (--dice); the app re-rolls at best")
        ts = reroll_at_best(roll_test(ts, box, rng=rng), box, rng)
    result = confirm_test(ts)
    cube = cube_after_test(catalog, tr.insanity, result.success)
    state = fx.with_trouper(state, t, insanity=cube)
    bonuses = dict(night.bonuses)
    bonuses.pop(t, None)
    state = fx.with_night(state, bonuses=bonuses)
    faces = " ".join(f"{f.die}{f.triumphs}" + ("x" * f.defeats) for f in result.faces)
    state = fx.log(
        state, "test", who=fx.tid(state, t), label=label, trait=key, faces=faces,
        extra=result.bonus_triumphs + result.insanity_triumphs, total=result.total,
        target=result.target, success=result.success)
    return state, result


def test_setups(
    state: CampaignState, catalog: Catalog, t: int, *, traits: Sequence[str],
    fixed_dice: str | None, target: int, trait: str | None, bonus_triumphs: int = 0,
    label: str = "Test",
) -> list[tuple[str, TestSetup]]:
    """The ways Trouper ``t`` may take a Test (one per Trait, or the Test's own dice), best
    odds first; ``trait`` keeps only that one. Raises RuleError."""
    box = DiceBox.from_models(catalog.dice)
    tr = state.troupers[t]
    card = catalog.trouper(tr.trouper)
    if card is None:
        raise RuleError(f"unknown Trouper card {tr.trouper!r}")
    night = night_of(state)
    bonus = night.bonuses.get(t, Bonus())
    card_traits = {str(k): v for k, v in card.traits.items()}

    # the label names the card or Event the Test belongs to (an id) or what it is ("dodge")
    shown = record_name(catalog, label) if catalog.find(label) is not None else label
    def setup_for(pool: tuple[Any, ...], name: str) -> TestSetup:
        return trouper_setup(
            catalog, tr, pool, target, f"{shown} ({name})", rerolls=bonus.rerolls,
            bonus_triumphs=min(MAX_BONUS_TRIUMPHS, bonus.triumphs + bonus_triumphs),
            bonus_dice=tuple(bonus.dice))

    if trait is not None:
        if traits and trait.lower() not in traits:
            raise RuleError(
                f"this Test is taken with {' or '.join(x.capitalize() for x in traits)}, "
                f"not {trait}")
        if not traits and fixed_dice:
            raise RuleError(f"this Test rolls the dice {fixed_dice}, not a Trait")
        traits, fixed_dice = [trait.lower()], None
    options = [(key, setup_for(trait_pool(card_traits, key, box), key.capitalize()))
               for key in traits]
    if fixed_dice:
        options.append((fixed_dice, setup_for(parse_pool(fixed_dice, box), fixed_dice)))
    if not options:
        raise RuleError("this Test names no Trait and no dice")
    if len(options) > 1:
        options.sort(key=lambda o: -odds_for_test(o[1], box).probability)
    return options


def test_options(
    state: CampaignState, catalog: Catalog, t: int, *, traits: Sequence[str],
    fixed_dice: str | None = None, target: int,
) -> list[dict[str, Any]]:
    """How Trouper ``t`` can take a Test, best odds first: the Trait (or dice), the dice to
    roll after Bonus Dice and Exhausted/Knocked Out, and the exact chance of Success (for a
    menu, and for players rolling physical dice). Raises RuleError."""
    box = DiceBox.from_models(catalog.dice)
    setups = test_setups(
        state, catalog, t, traits=traits, fixed_dice=fixed_dice, target=target, trait=None)
    keep = ("trait", "pool", "target", "probability")
    infos = [test_info(setup, box, key) for key, setup in setups]
    return [{k: info[k] for k in keep} for info in infos]


def test_info(
    setup: TestSetup, box: DiceBox, key: str, ts: TestState | None = None
) -> dict[str, Any]:
    """A Test as data for the menus: the Trait (or dice) ``key``, the dice rolled, the target,
    the bonuses and the exact odds; ``ts`` the Test in progress (default: before the roll)."""
    ts = prepare_test(setup, box) if ts is None else ts
    odds = odds_for_test(setup, box)
    return {
        "trait": key,
        "pool": " ".join(ts.pool),
        "target": setup.target,
        "bonus_triumphs": ts.bonus_triumphs,
        "rerolls": ts.rerolls_left,
        "probability": float(odds.probability),
        "exact": f"{odds.probability.numerator}/{odds.probability.denominator}",
        "notes": list(ts.notes)}


class TestSpec(NamedTuple):
    """The Test an option takes: who, with which Traits or dice, how many Triumphs."""

    t: int
    traits: tuple[str, ...]
    fixed: str | None
    target: int
    label: str
    against_enemy: bool = False  # a dodge Test: Items "against an Enemy Effect" apply
    side: str | None = None  # an attack on the Nemesis: the side hit (its Weakness helps)
    weakness: bool | None = None  # the table's word on that Weakness's Condition


TestSpec.__test__ = False  # type: ignore[attr-defined]  # pytest: no test class (named Test)


def setup_of(
    state: CampaignState, catalog: Catalog, spec: TestSpec, trait: str | None,
    items: Sequence[str] = (),
) -> tuple[str, TestSetup]:
    """The Trait (or dice) and the setup of the Test once ``items`` are used, as the action
    will take it. Raises RuleError."""
    if items:
        state = use_test_items(state, catalog, Chance.fresh(0, 0), spec.t, items)
    if spec.side is not None:
        # a Condition not answered yet (RuleError): the Test without the Weakness's help
        with contextlib.suppress(RuleError):
            state = weakness_on_attack(state, catalog, Chance.fresh(0, 0), spec.t, spec.side,
                                       spec.weakness)
    return test_setups(
        state, catalog, spec.t, traits=spec.traits, fixed_dice=spec.fixed, target=spec.target,
        trait=trait, label=spec.label,
    )[0]


def usable_items(
    state: CampaignState, catalog: Catalog, spec: TestSpec, used: Sequence[str], *,
    after_roll: bool, spent: bool = False,
) -> list[tuple[str, str]]:
    """Quick Items that may help this Test now: (item id, what it does). Before the roll, any
    Test bonus; after it, only Re-rolls ("Re-rolling the Dice"). Items "against an Enemy
    Effect" only for a dodge Test. ``spent``: instead, those that would help but are depleted
    until the Cleanup Phase (shown disabled, never offered and then refused)."""
    out = []
    for owner, tr in enumerate(state.troupers):
        for iid in tr.equipped.values():
            if iid in used or (iid in tr.depleted_items) != spent:
                continue
            seen = fx.with_trouper(state, owner, depleted_items=[
                x for x in tr.depleted_items if x != iid]) if spent else state
            try:
                _, eff = test_item_owner(seen, catalog, spec.t, iid)
            except RuleError:
                continue
            cond = eff.condition
            enemy_only = (cond is not None and cond.kind == "text"
                          and "enemy" in (cond.text or "").lower())
            if enemy_only and not spec.against_enemy:
                continue
            if after_roll and not any(o.kind == "reroll" for o in eff.outcome):
                continue
            try:
                # naming it at this Test is the table's word that its Condition holds
                interp.check_costs(seen, catalog, owner, eff,
                                   interp.Payment((), iid, confirmed=True))
            except RuleError:
                continue  # its Cost cannot be paid
            side = item_side(state, catalog, owner, iid)
            whose = "" if owner == spec.t else f"{fx.name_of(state, catalog, owner)}'s "
            out.append((iid, f"{whose}{side.name}: {render_effect(eff)}"))
    return out


def _throw_ask(prompt: str, picks: Sequence[Pick], dice: Sequence[str], box: DiceBox, free: str,
               **more: Any) -> Ask:
    """The faces of a throw of ``dice``: typed in (``free``), or rolled by the app."""
    return Ask("dice", prompt, tuple(picks), default="r", free=free, append=True,
               parse=lambda text: format_faces(parse_faces(text, dice, box)),
               roll=lambda ch: f"{APP_ROLLED} {format_faces(roll_pool(dice, box, ch))}", **more)


def _describe(ts: TestState) -> str:
    return " ".join(f"{f.die}{format_face(f)}" for f in ts.faces)


def throw_ask(
    state: CampaignState, catalog: Catalog, spec: TestSpec, answers: Mapping[str, Any]
) -> Ask | None:
    """The next question of a night Test's throws (None once the result is kept): the Test
    :func:`throws_ask` asks, with the Quick Items that may help it."""
    if answers.get("_kept"):
        return None
    box = DiceBox.from_models(catalog.dice)
    items = list(answers.get("items") or [])
    key, setup = setup_of(state, catalog, spec, answers.get("trait"), items)
    return throws_ask(
        prepare_test(setup, box), box, answers, key=key, who=fx.name_of(state, catalog, spec.t),
        target=spec.target,
        items=lambda after: usable_items(state, catalog, spec, items, after_roll=after),
        spent=lambda after: usable_items(state, catalog, spec, items, after_roll=after,
                                         spent=True))


def _spent_picks(spent: list[tuple[str, str]], after: int) -> list[Pick]:
    """The Items that would help but are depleted: shown, disabled, with why."""
    return [Pick(f"i{after + n + 1}", f"Use {text}", iid, enabled=False,
                 why="depleted until the Cleanup Phase", need="items")
            for n, (iid, text) in enumerate(spent)]


def throws_ask(
    ts0: TestState, box: DiceBox, answers: Mapping[str, Any], *, key: str, who: str,
    target: int, items: Callable[[bool], list[tuple[str, str]]] = lambda after: [],
    keep_at_best: bool = True, spent: Callable[[bool], list[tuple[str, str]]] = lambda after: [],
) -> Ask | None:
    """The next question of a Test's throws from ``ts0`` (the Test before the roll), given the
    answers so far (``dice``, ``reroll``: the module docstring): the roll, the faces of each
    Re-roll, then which dice to re-roll, the best choice as the default (None once nothing can
    change the result, or, with ``keep_at_best``, once it is a Success the best play keeps).
    ``items(after_roll)``: the Quick Items that may help now (id, what it does). `blood play`
    asks a night's Tests with it (:func:`throw_ask`), `blood test` a Test of the campaign."""
    if answers.get("_kept"):
        return None
    setup = ts0.setup
    dice = list(answers.get("dice") or [])
    rr = list(answers.get("reroll") or [])
    what = key.capitalize() if key.isalpha() else key
    if not dice:
        info = test_info(setup, box, key, ts0)
        pool = info["pool"]
        notes = "".join(f" ({n})" for n in ts0.notes)
        bonus = f", +{ts0.bonus_triumphs} bonus" if ts0.bonus_triumphs else ""
        again = f", {ts0.rerolls_left} Re-roll(s)" if ts0.rerolls_left else ""
        picks = [Pick("r", "The app rolls (digital dice)", ROLL)] + [
            Pick(f"i{n + 1}", f"First use {text}", iid, need="items")
            for n, (iid, text) in enumerate(items(False))]
        picks += _spent_picks(spent(False), len(picks) - 1)
        return _throw_ask(
            f"{who} rolls {pool} for {what}{notes}: {target} Triumph(s) needed{bonus}"
            f"{again}; {percent(info['probability'])} to succeed.", picks, ts0.pool, box,
            f"the faces of your own dice ({pool}, in this order), e.g. \"2 x 1\"", test=info)
    ts = replay_throws(ts0, box, dice, rr)
    digital = read_throw(dice[0])[1] == "digital"
    if len(rr) == len(dice):  # the dice of the last Re-roll are to be thrown
        slots = parse_reroll(rr[-1], len(ts.pool))[0]
        picked = tuple(ts.pool[s] for s in slots)
        return _throw_ask(
            f"{who} re-rolls {' '.join(picked)} (die " + ", ".join(str(s + 1) for s in slots)
            + ").", [Pick("r", "The app rolls them", ROLL)], picked, box,
            f"the faces of the re-rolled dice ({' '.join(picked)}, in this order)", auto=digital)
    result = confirm_test(ts)
    after = items(True)
    insanity = ts.insanity is not None and ts.insanity.reroll
    if not (ts.rerolls_left or insanity or after):
        return None
    advice = advise_test(ts, box)
    if keep_at_best and result.success and advice.action == "confirm":
        return None
    shown = result.dice_triumphs
    extra = result.total - shown
    verdict = "a Success" if result.success else "a Failure"
    left = []
    if ts.rerolls_left:
        left.append(f"{ts.rerolls_left} Re-roll(s)")
    if insanity:
        left.append("the Insanity Re-roll")
    total = f"{shown} + {extra} bonus = {result.total}" if extra else f"{shown}"
    prompt = (f"{who} rolled {_describe(ts)}: {total} of {target} needed, {verdict}. "
              + (f"Left: {', '.join(left)}. " if left else "") + "Re-roll which dice?")
    picks = [Pick("k", f"Keep it ({verdict})", True, need="_kept")]
    default = "k"
    if advice.action != "confirm":
        mad = advice.action == "insanity_reroll"
        dice_named = " ".join(ts.pool[s] for s in advice.slots)
        how = " with the Insanity Re-roll" if mad else ""
        picks.append(Pick("b", f"Re-roll die {format_reroll(advice.slots)} ({dice_named}){how}: "
                          f"best odds, {percent(advice.probability)}",
                          format_reroll(advice.slots, mad)))
        default = "b"
    for n, (iid, text) in enumerate(after):
        picks.append(Pick(f"i{n + 1}", f"Use {text}", iid, need="items"))
    picks += _spent_picks(spent(True), len(after))

    def parse(answer: str) -> str:
        named, mad = parse_reroll(answer, len(ts.pool))
        slots = sorted(set(named))
        if mad and not insanity:
            raise ValueError("the Insanity Re-roll is not available for this Test")
        if not mad and not ts.rerolls_left:
            if not insanity:
                raise ValueError("no Re-roll is left: use an Item first, or keep the result")
            mad = True
        limit = ts.insanity.reroll_max_dice if mad and ts.insanity is not None else None
        if limit is not None and len(slots) > limit:
            raise ValueError(f"the Insanity Re-roll re-rolls at most {limit} die")
        return format_reroll(slots, mad)

    return Ask(
        "reroll", prompt, tuple(picks), default=default,
        free="the dice to re-roll by position, e.g. 1 3 (\"i 1 3\": the Insanity Re-roll)",
        parse=parse, append=True,
        info=("Dice: " + "  ".join(f"{k + 1}={ts.pool[k]}" for k in range(len(ts.pool))),),
        test=test_info(setup, box, key, ts))
