"""A Trouper's Test asked throw by throw ("Tests", "Re-rolling the Dice", "Bonus Dice"), for
the menus of engine/legal.py.

Before the roll: the pool the Trouper really rolls (the Trait's dice, 3 Red dice when Exhausted
or Knocked Out, Bonus Dice placed at best), the Triumphs needed and the exact odds; Quick
Items that help a Test may be used first. After each throw that can still be re-rolled (a
Re-roll gained from an Effect, the Insanity Re-roll, a Quick Item granting one): which dice to
re-roll, the best choice as the default (engine/odds.py), or keep the result. The answers are
the action's own fields: ``dice`` (each throw, typed in or rolled by the app, marked
:data:`~blood_companion.engine.night.trouper_tests.APP_ROLLED`), ``reroll`` (the dice of each
Re-roll, 1-based; ``i:`` for the Insanity Re-roll) and ``items`` (Quick Items used).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from blood_companion.content.render import render_effect
from blood_companion.engine import effects as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import (
    DiceBox,
    format_face,
    format_faces,
    parse_faces,
    roll_pool,
    triumph_total,
)
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import ROLL, Ask, Pick
from blood_companion.engine.night.core import box_of, reroll_slots
from blood_companion.engine.night.resolve import weakness_on_attack
from blood_companion.engine.night.trouper_tests import (
    APP_ROLLED,
    item_side,
    read_throw,
    test_item_owner,
    test_setups,
    use_test_items,
)
from blood_companion.engine.plain import percent
from blood_companion.engine.state import CampaignState
from blood_companion.engine.tests_procedure import (
    TestSetup,
    TestState,
    advise_test,
    confirm_test,
    odds_for_test,
    prepare_test,
    reroll_test,
    roll_test,
)

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


@dataclass(frozen=True)
class TestSpec:
    """The Test an option takes: who, with which Traits or dice, how many Triumphs."""

    __test__ = False

    t: int
    traits: tuple[str, ...]
    fixed: str | None
    target: int
    label: str
    against_enemy: bool = False  # a dodge Test: Items "against an Enemy Effect" apply
    side: str | None = None  # an attack on the Nemesis: the side hit (its Weakness helps)
    weakness: bool | None = None  # the table's word on that Weakness's Condition


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
    key, setup = test_setups(
        state, catalog, spec.t, traits=spec.traits, fixed_dice=spec.fixed, target=spec.target,
        trait=trait, label=spec.label,
    )[0]
    return key, setup


def replay(setup: TestSetup, box: DiceBox, dice: Sequence[str], reroll: Sequence[str]
           ) -> TestState:
    """The Test after the throws answered so far. Raises RuleError/DiceError."""
    ts = prepare_test(setup, box)
    if not dice:
        return ts
    ts = roll_test(ts, box, faces=parse_faces(read_throw(dice[0])[0], ts.pool, box))
    for slots_text, faces_text in zip(reroll, dice[1:], strict=False):
        insanity = slots_text.lower().startswith("i")
        slots = reroll_slots(slots_text.lstrip("iI:"), len(ts.pool))
        picked = tuple(ts.pool[s] for s in slots)
        ts = reroll_test(ts, box, slots, insanity=insanity,
                         faces=parse_faces(read_throw(faces_text)[0], picked, box))
    return ts


def usable_items(
    state: CampaignState, catalog: Catalog, spec: TestSpec, used: Sequence[str], *,
    after_roll: bool,
) -> list[tuple[str, str]]:
    """Quick Items that may help this Test now: (item id, what it does). Before the roll, any
    Test bonus; after it, only Re-rolls ("Re-rolling the Dice"). Items "against an Enemy
    Effect" only for a dodge Test."""
    out = []
    for owner, tr in enumerate(state.troupers):
        for iid in tr.equipped.values():
            if iid in used:
                continue
            try:
                _, eff = test_item_owner(state, catalog, spec.t, iid)
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
                interp.check_costs(state, catalog, owner, eff,
                                   interp.Payment((), iid, confirmed=True))
            except RuleError:
                continue  # its Cost cannot be paid
            side = item_side(state, catalog, owner, iid)
            whose = "" if owner == spec.t else f"{fx.name_of(state, catalog, owner)}'s "
            out.append((iid, f"{whose}{side.name}: {render_effect(eff)}"))
    return out


def _faces_reader(pool: Sequence[str], box: DiceBox) -> Any:
    def parse(text: str) -> str:
        return format_faces(parse_faces(text, pool, box))
    return parse


def _describe(ts: TestState) -> str:
    return " ".join(f"{f.die}{format_face(f)}" for f in ts.faces)


def test_info(setup: TestSetup, box: DiceBox, key: str, ts: TestState) -> dict[str, Any]:
    odds = odds_for_test(setup, box)
    return {
        "trait": key,
        "pool": " ".join(ts.pool),
        "target": setup.target,
        "bonus_triumphs": ts.bonus_triumphs,
        "rerolls": ts.rerolls_left,
        "probability": float(odds.probability),
        "exact": f"{odds.probability.numerator}/{odds.probability.denominator}",
        "notes": list(ts.notes),
    }


def throw_ask(
    state: CampaignState, catalog: Catalog, spec: TestSpec, answers: Mapping[str, Any]
) -> Ask | None:
    """The next question of the Test's throws (None once the result is kept)."""
    if answers.get("_kept"):
        return None
    box = box_of(catalog)
    trait = answers.get("trait")
    items = list(answers.get("items") or [])
    dice = list(answers.get("dice") or [])
    rr = list(answers.get("reroll") or [])
    key, setup = setup_of(state, catalog, spec, trait, items)
    who = fx.name_of(state, catalog, spec.t)
    what = key.capitalize() if key.isalpha() else key
    if not dice:
        ts = prepare_test(setup, box)
        info = test_info(setup, box, key, ts)
        pool = info["pool"]
        notes = "".join(f" ({n})" for n in ts.notes)
        bonus = f", +{ts.bonus_triumphs} bonus" if ts.bonus_triumphs else ""
        again = f", {ts.rerolls_left} Re-roll(s)" if ts.rerolls_left else ""
        picks = [Pick("r", "The app rolls (digital dice)", ROLL)]
        for n, (iid, text) in enumerate(usable_items(state, catalog, spec, items,
                                                     after_roll=False)):
            picks.append(Pick(f"i{n + 1}", f"First use {text}", iid, need="items"))
        dice_pool = ts.pool
        return Ask(
            "dice",
            f"{who} rolls {pool} for {what}{notes}: {spec.target} Triumph(s) needed{bonus}"
            f"{again}; {percent(info['probability'])} to succeed.",
            tuple(picks), default="r",
            free=f"the faces of your own dice ({pool}, in this order), e.g. \"2 x 1\"",
            parse=_faces_reader(dice_pool, box), append=True,
            roll=lambda ch: f"{APP_ROLLED} {format_faces(roll_pool(dice_pool, box, ch))}",
            test=info,
        )
    ts = replay(setup, box, dice, rr)
    digital = read_throw(dice[0])[1] == "digital"
    if len(rr) == len(dice):  # the dice of the last Re-roll are to be thrown
        slots = reroll_slots(rr[-1].lstrip("iI:"), len(ts.pool))
        picked = tuple(ts.pool[s] for s in slots)
        return Ask(
            "dice", f"{who} re-rolls {' '.join(picked)} (die "
            + ", ".join(str(s + 1) for s in slots) + ").",
            (Pick("r", "The app rolls them", ROLL),), default="r",
            free=f"the faces of the re-rolled dice ({' '.join(picked)}, in this order)",
            parse=_faces_reader(picked, box), append=True,
            roll=lambda ch: f"{APP_ROLLED} {format_faces(roll_pool(picked, box, ch))}",
            auto=digital,
        )
    result = confirm_test(ts)
    after = usable_items(state, catalog, spec, items, after_roll=True)
    insanity = ts.insanity is not None and ts.insanity.reroll
    if not (ts.rerolls_left or insanity or after):
        return None
    advice = advise_test(ts, box)
    if result.success and advice.action == "confirm":
        return None
    shown = triumph_total(ts.faces, defeats_cancel=setup.defeats_cancel)
    extra = result.total - shown
    verdict = "a Success" if result.success else "a Failure"
    left = []
    if ts.rerolls_left:
        left.append(f"{ts.rerolls_left} Re-roll(s)")
    if insanity:
        left.append("the Insanity Re-roll")
    total = f"{shown} + {extra} bonus = {result.total}" if extra else f"{shown}"
    prompt = (f"{who} rolled {_describe(ts)}: {total} of {spec.target} needed, {verdict}. "
              + (f"Left: {', '.join(left)}. " if left else "") + "Re-roll which dice?")
    picks = [Pick("k", f"Keep it ({verdict})", True, need="_kept")]
    default = "k"
    if advice.action != "confirm":
        mark = "i:" if advice.action == "insanity_reroll" else ""
        text = ",".join(str(s + 1) for s in advice.slots)
        dice_named = " ".join(ts.pool[s] for s in advice.slots)
        how = " with the Insanity Re-roll" if mark else ""
        picks.append(Pick("b", f"Re-roll die {text} ({dice_named}){how}: best odds, "
                          f"{percent(advice.probability)}", mark + text))
        default = "b"
    for n, (iid, text) in enumerate(after):
        picks.append(Pick(f"i{n + 1}", f"Use {text}", iid, need="items"))

    def parse(answer: str) -> str:
        words = answer.replace(",", " ").split()
        mark = ""
        if words and words[0].lower() in ("i", "insanity"):
            mark, words = "i:", words[1:]
        elif words and words[0].lower().startswith("i") and words[0][1:].isdigit():
            mark, words = "i:", [words[0][1:], *words[1:]]
        if not words or not all(w.isdigit() for w in words):
            raise ValueError("type the positions of the dice to re-roll, e.g. 1 3")
        slots = sorted({int(w) for w in words})
        if any(not 1 <= s <= len(ts.pool) for s in slots):
            raise ValueError(f"the dice are numbered 1 to {len(ts.pool)}")
        if mark and not insanity:
            raise ValueError("the Insanity Re-roll is not available for this Test")
        if not mark and not ts.rerolls_left:
            if not insanity:
                raise ValueError("no Re-roll is left: use an Item first, or keep the result")
            mark = "i:"
        limit = ts.insanity.reroll_max_dice if mark and ts.insanity is not None else None
        if limit is not None and len(slots) > limit:
            raise ValueError(f"the Insanity Re-roll re-rolls at most {limit} die")
        return mark + ",".join(str(s) for s in slots)

    return Ask(
        "reroll", prompt, tuple(picks), default=default,
        free="the dice to re-roll by position, e.g. 1 3 (\"i 1 3\": the Insanity Re-roll)",
        parse=parse, append=True,
        info=("Dice: " + "  ".join(f"{k + 1}={ts.pool[k]}" for k in range(len(ts.pool))),),
        test=test_info(setup, box, key, ts),
    )
