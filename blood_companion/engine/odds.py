"""Exact odds of a roll or a Test, with the best Re-roll policy and Bonus Dice placement.

Each die becomes a table of values (Triumphs, less Defeats with ``defeats_cancel``) and how many
faces show each; probabilities stay integer numerators until the final ``Fraction``.
"Re-rolling the Dice" is solved by dynamic programming over (dice showing, Re-rolls left,
Insanity bonus unused), taking the best of confirming and every subset to re-roll; "Insanity"
adds one bonus before confirming: a Re-roll (``rules_config.insanity_reroll_reading``) or
bonus Triumphs.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from math import prod
from typing import Any, Literal, NamedTuple, cast

from blood_companion.engine.dice import (
    LETTERS,
    TEST_DICE,
    DiceBox,
    DieLetter,
    DieSpec,
    Face,
    Pool,
    check_pool,
    in_models,
    parse_pool,
)
from blood_companion.engine.errors import DiceError, RuleError

# One die as (value, number of faces showing it), values ascending.
Dist = tuple[tuple[int, int], ...]

# Sanity caps for input that no card gives; they keep a typo from asking for a huge search.
MAX_REROLLS = 10
MAX_BONUS_TRIUMPHS = 20
MAX_BONUS_DICE = 6
MAX_TARGET = 99


@in_models
class InsanityBonuses(NamedTuple):
    """What the Insanity track offers at (or before) the cube, the Trouper taking one of them
    (``reroll_max_dice``: None re-rolls any dice, the ``any_dice`` reading of "Re-roll 1")."""

    triumphs: int = 0
    reroll: bool = False
    reroll_max_dice: int | None = None

    @property
    def any(self) -> bool:
        return self.reroll or self.triumphs > 0

    def _check(self) -> None:
        if not (isinstance(self.triumphs, int) and 0 <= self.triumphs <= MAX_BONUS_TRIUMPHS):
            raise ValueError(f"Insanity bonus Triumphs are 0 to {MAX_BONUS_TRIUMPHS}")
        limit = self.reroll_max_dice
        if limit is not None and not (isinstance(limit, int) and limit >= 1):
            raise ValueError("an Insanity Re-roll re-rolls 1 die or more")


@in_models
class Substitution(NamedTuple):
    """A Bonus Die that replaces the die in ``slot`` of the pool ("Bonus Dice")."""

    bonus: DieLetter
    slot: int
    replaced: DieLetter

    def _check(self) -> None:
        if self.bonus not in LETTERS or self.replaced not in LETTERS:
            raise ValueError("a die is R, G or B")
        if not (isinstance(self.slot, int) and self.slot >= 0):
            raise ValueError("a die's slot is 0 or more")


class Decision(NamedTuple):
    """The best next move of a Test in progress, and the chance of success it keeps."""

    action: Literal["confirm", "reroll", "insanity_reroll"]
    probability: Fraction
    slots: tuple[int, ...] = ()  # the dice to re-roll, by position in the pool
    use_insanity_triumphs: bool = False  # at confirm: take the Insanity bonus Triumphs


class OddsResult(NamedTuple):
    """The exact chance of reaching ``target`` and the final results' distribution under the
    best play (``pool``: after the best Bonus Dice placement)."""

    given_pool: Pool
    pool: Pool
    target: int
    rerolls: int
    bonus_triumphs: int
    probability: Fraction
    distribution: tuple[tuple[int, Fraction], ...]
    bonus_dice: tuple[DieLetter, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    insanity: InsanityBonuses | None = None
    defeats_cancel: bool = False

    def at_least(self, n: int) -> Fraction:
        return sum((p for t, p in self.distribution if t >= n), Fraction(0))


# --------------------------------------------------------------------------- die tables


def value_dist(spec: DieSpec, *, defeats_cancel: bool = False) -> Dist:
    """The die as (value, faces) pairs: what the odds engine works on."""
    return tuple(sorted(Counter(face_value(f, defeats_cancel=defeats_cancel)
                                for f in spec.faces).items()))


def face_value(face: Face, *, defeats_cancel: bool = False) -> int:
    return face.triumphs - face.defeats if defeats_cancel else face.triumphs


def pool_dists(pool: Sequence[str], box: DiceBox, *, defeats_cancel: bool = False
               ) -> tuple[Dist, ...]:
    return tuple(value_dist(box.die(x), defeats_cancel=defeats_cancel) for x in pool)


def sum_distribution(dists: Sequence[Dist]) -> dict[int, Fraction]:
    """Distribution of the sum of one roll of every die (no Re-rolls): integer convolution."""
    counts = _convolve(tuple(dists))
    total = prod(sum(w for _, w in d) for d in dists)
    return {v: Fraction(c, total) for v, c in counts}


@lru_cache(maxsize=1024)
def _convolve(dists: tuple[Dist, ...]) -> tuple[tuple[int, int], ...]:
    acc: dict[int, int] = {0: 1}
    for d in dists:
        nxt: dict[int, int] = {}
        for s, c in acc.items():
            for v, w in d:
                nxt[s + v] = nxt.get(s + v, 0) + c * w
        acc = nxt
    return tuple(sorted(acc.items()))


# --------------------------------------------------------------------------- the solver


class _Space:
    """Every way the dice of one pool can show, numbered in mixed radix, and for every subset
    to re-roll the "bases" (kept dice showing, re-rolled at their first value) and the weighted
    offsets the re-rolled dice add to a base."""

    def __init__(self, dists: tuple[Dist, ...]) -> None:
        self.dists = dists
        n = len(dists)
        self.n = n
        self.face_totals = [sum(w for _, w in d) for d in dists]
        self.W = prod(self.face_totals)
        self.strides = [prod(len(d) for d in dists[:k]) for k in range(n)]
        self.size = prod(len(d) for d in dists)
        self.totals = [0] * self.size
        self.weights = [1] * self.size
        for sid, digits in enumerate(itertools.product(*(range(len(d)) for d in reversed(dists)))):
            # itertools.product varies the last factor fastest: die 0 is the least significant.
            for k, dig in enumerate(reversed(digits)):
                v, w = dists[k][dig]
                self.totals[sid] += v
                self.weights[sid] *= w
        # Masks by number of dice, so ties go to re-rolling fewer dice.
        self.masks = sorted(range(1, 1 << n), key=lambda m: (bin(m).count("1"), m))
        self.bases: dict[int, list[int]] = {}
        self.base_of: dict[int, list[int]] = {}  # per mask: each state's base
        self.offsets: dict[int, list[tuple[int, int]]] = {}
        self.scale: dict[int, int] = {}
        self.rerolled_total: dict[int, int] = {}
        for mask in self.masks:
            rolled = [k for k in range(n) if mask >> k & 1]
            kept = [k for k in range(n) if not mask >> k & 1]
            self.bases[mask] = [off for off, _ in self._combos(kept)]
            self.offsets[mask] = self._combos(rolled)
            base_of = [0] * self.size
            for base in self.bases[mask]:
                for off, _ in self.offsets[mask]:
                    base_of[base + off] = base
            self.base_of[mask] = base_of
            self.scale[mask] = prod(self.face_totals[k] for k in kept)
            self.rerolled_total[mask] = prod(self.face_totals[k] for k in rolled)

    def _combos(self, dice: list[int]) -> list[tuple[int, int]]:
        """Every way ``dice`` can show: what it adds to a state id, and in how many ways."""
        out = [(0, 1)]
        for k in dice:
            out = [(o + d * self.strides[k], w * dw)
                   for o, w in out for d, (_, dw) in enumerate(self.dists[k])]
        return out

    def state_id(self, digits: Sequence[int]) -> int:
        return sum(d * s for d, s in zip(digits, self.strides, strict=True))


@lru_cache(maxsize=256)
def _space(dists: tuple[Dist, ...]) -> _Space:
    return _Space(dists)


# (kind, mask): kind 0 confirm, 1 Re-roll from an Effect, 2 the Insanity Re-roll.
_Choice = tuple[int, int]
_Key = tuple[int, int]  # (Re-rolls left, Insanity bonus still unused 0/1)


class _Solution:
    """Values (integer numerators over W ** moves) and best choices of every decision point."""

    def __init__(self, space: _Space, need: int, rerolls: int, ins_triumphs: int,
                 ins_reroll: int | None) -> None:
        # ins_reroll: -1 no Insanity bonus at all, 0 an Insanity bonus without a Re-roll,
        # None a Re-roll of any dice, k >= 1 a Re-roll of at most k dice.
        self.space = space
        self.need = need
        self.has_insanity = ins_reroll != -1
        self.ins_triumphs = ins_triumphs if self.has_insanity else 0
        self.ins_reroll_masks: list[int] = []
        if self.has_insanity and ins_reroll != 0:
            limit = space.n if ins_reroll is None else ins_reroll
            self.ins_reroll_masks = [m for m in space.masks if bin(m).count("1") <= limit]
        self.values: dict[_Key, list[int]] = {}
        self.choices: dict[_Key, list[_Choice]] = {}
        self._distributions: dict[tuple[_Key, int], dict[int, Fraction]] = {}
        for r in range(rerolls + 1):
            for a in (0, 1) if self.has_insanity else (0,):
                self._solve(r, a)

    def moves(self, key: _Key) -> int:
        r, a = key
        return r + (1 if a and self.ins_reroll_masks else 0)

    def _solve(self, r: int, a: int) -> None:
        sp = self.space
        key = (r, a)
        top = sp.W ** self.moves(key)
        need = self.need - (self.ins_triumphs if a else 0)
        best = [top if max(0, t) >= need else 0 for t in sp.totals]
        choice: list[_Choice] = [(0, 0)] * sp.size
        options: list[tuple[int, list[int], list[int]]] = []
        if r > 0:
            options.append((1, self.values[(r - 1, a)], sp.masks))
        if a and self.ins_reroll_masks:
            options.append((2, self.values[(r, 0)], self.ins_reroll_masks))
        for kind, child, masks in options:
            for mask in masks:
                scale = sp.scale[mask]
                offsets = sp.offsets[mask]
                for base in sp.bases[mask]:
                    # The chance after re-rolling these dice is the same for every state that
                    # shares the kept dice, i.e. for every base + offset.
                    v = sum(w * child[base + off] for off, w in offsets) * scale
                    for off, _ in offsets:
                        s = base + off
                        if v > best[s]:
                            best[s] = v
                            choice[s] = (kind, mask)
        self.values[key] = best
        self.choices[key] = choice

    def probability(self, key: _Key) -> Fraction:
        sp = self.space
        num = sum(w * v for w, v in zip(sp.weights, self.values[key], strict=True))
        return Fraction(num, sp.W ** (self.moves(key) + 1))

    def distribution(self, key: _Key, bonus: int) -> dict[int, Fraction]:
        """Final results under the best play (ties: confirm, then fewer dice re-rolled)."""
        cached = self._distributions.get((key, bonus))
        if cached is None:
            cached = self._distributions[(key, bonus)] = self._forward(key, bonus)
        return dict(cached)

    def _forward(self, key: _Key, bonus: int) -> dict[int, Fraction]:
        # Push the probability mass of every state through the best choices, as integers over
        # W ** (moves + 1): a Re-roll of dice that can fall P ways divides a mass that still
        # holds a factor W ** moves-left, so every share stays a whole number.
        sp = self.space
        m0 = self.moves(key)
        layer: dict[_Key, list[int]] = {key: [w * sp.W**m0 for w in sp.weights]}
        final: dict[int, int] = {}
        # Every move uses one Re-roll or the Insanity bonus, so moves-left strictly falls.
        for m in range(m0, -1, -1):
            for k in [k for k in layer if self.moves(k) == m]:
                r, a = k
                extra = bonus + (self.ins_triumphs if a else 0)
                choices = self.choices[k]
                # States that re-roll the same dice and keep the same ones share one spread.
                spread: dict[tuple[int, int, int], int] = {}
                for s, mass in enumerate(layer.pop(k)):
                    if not mass:
                        continue
                    kind, mask = choices[s]
                    if kind == 0:
                        result = max(0, sp.totals[s]) + extra
                        final[result] = final.get(result, 0) + mass
                        continue
                    group = (kind, mask, sp.base_of[mask][s])
                    spread[group] = spread.get(group, 0) + mass
                for (kind, mask, base), mass in spread.items():
                    child_key = (r - 1, a) if kind == 1 else (r, 0)
                    bucket = layer.get(child_key)
                    if bucket is None:
                        bucket = layer[child_key] = [0] * sp.size
                    unit = mass // sp.rerolled_total[mask]
                    for off, w in sp.offsets[mask]:
                        bucket[base + off] += unit * w
        denom = sp.W ** (m0 + 1)
        return {t: Fraction(c, denom) for t, c in sorted(final.items())}


@lru_cache(maxsize=4096)
def _solution(dists: tuple[Dist, ...], need: int, rerolls: int, ins_triumphs: int,
              ins_reroll: int | None) -> _Solution:
    return _Solution(_space(dists), need, rerolls, ins_triumphs, ins_reroll)


def _ins_args(insanity: InsanityBonuses | None) -> tuple[int, int | None]:
    if insanity is None or not insanity.any:
        return 0, -1
    if not insanity.reroll:
        return insanity.triumphs, 0
    return insanity.triumphs, insanity.reroll_max_dice


def success_probability(dists: Sequence[Dist], need: int, *, rerolls: int = 0,
                        insanity: InsanityBonuses | None = None) -> Fraction:
    """Chance that the dice reach ``need`` Triumphs, Re-rolls and Insanity played best."""
    if need <= 0:
        return Fraction(1)
    canon = tuple(sorted(dists))  # the order of the dice does not change the odds
    if rerolls == 0 and (insanity is None or not insanity.any):
        return sum((p for v, p in sum_distribution(canon).items() if v >= need), Fraction(0))
    ins_t, ins_r = _ins_args(insanity)
    sol = _solution(canon, need, rerolls, ins_t, ins_r)
    return sol.probability((rerolls, 1 if sol.has_insanity else 0))


def result_distribution(dists: Sequence[Dist], need: int, *, bonus: int = 0, rerolls: int = 0,
                        insanity: InsanityBonuses | None = None) -> dict[int, Fraction]:
    """Distribution of the final result (with every bonus), playing for ``need`` Triumphs."""
    canon = tuple(sorted(dists))
    if rerolls == 0 and (insanity is None or not insanity.any):
        out: dict[int, Fraction] = {}
        for v, p in sum_distribution(canon).items():
            out[max(0, v) + bonus] = out.get(max(0, v) + bonus, Fraction(0)) + p
        return out
    ins_t, ins_r = _ins_args(insanity)
    sol = _solution(canon, max(need, 0), rerolls, ins_t, ins_r)
    return sol.distribution((rerolls, 1 if sol.has_insanity else 0), bonus)


def advise(dists: Sequence[Dist], showing: Sequence[int], need: int, *, rerolls_left: int,
           insanity: InsanityBonuses | None = None) -> Decision:
    """The best next move for dice in pool order showing the values ``showing``."""
    ordered = tuple(dists)
    if len(showing) != len(ordered):
        raise DiceError(f"{len(showing)} values for {len(ordered)} dice")
    ins_t, ins_r = _ins_args(insanity)
    sol = _solution(ordered, max(need, 0), rerolls_left, ins_t, ins_r)
    sp = sol.space
    try:
        digits = [[v for v, _ in d].index(x) for d, x in zip(ordered, showing, strict=True)]
    except ValueError as exc:
        raise DiceError(f"a die cannot show the values {list(showing)}") from exc
    sid = sp.state_id(digits)
    key = (rerolls_left, 1 if sol.has_insanity else 0)
    kind, mask = sol.choices[key][sid]
    prob = Fraction(sol.values[key][sid], sp.W ** sol.moves(key))
    if kind == 0:
        # Taking the Insanity bonus Triumphs costs nothing once no Re-roll is wanted.
        use = bool(key[1] and sol.ins_triumphs)
        return Decision(action="confirm", use_insanity_triumphs=use, probability=prob)
    slots = tuple(k for k in range(sp.n) if mask >> k & 1)
    return Decision(action="reroll" if kind == 1 else "insanity_reroll", slots=slots,
                    probability=prob)


# --------------------------------------------------------------------------- Bonus Dice


def apply_substitutions(pool: Sequence[str], subs: Sequence[Substitution]) -> Pool:
    """The pool after each Bonus Die replaced its slot."""
    out = list(pool)
    used: set[int] = set()
    for s in subs:
        if s.slot >= len(out):
            raise DiceError(f"there is no die {s.slot + 1} in a pool of {len(out)} dice")
        if s.slot in used:
            raise DiceError(f"die {s.slot + 1} is replaced by two Bonus Dice")
        if pool[s.slot] != s.replaced:
            raise DiceError(f"die {s.slot + 1} is {pool[s.slot]}, not {s.replaced}")
        used.add(s.slot)
        out[s.slot] = s.bonus
    return cast(Pool, tuple(out))


def substitution_options(pool: Sequence[str], bonus_dice: Sequence[str]
                         ) -> list[tuple[Substitution, ...]]:
    """Every distinct way to use some of the Bonus Dice, fewest first (none is the first)."""
    seen: set[tuple[str, ...]] = set()
    found: list[tuple[Substitution, ...]] = []
    n = len(pool)
    for used in range(min(len(bonus_dice), n) + 1):
        for bonus_idx in itertools.combinations(range(len(bonus_dice)), used):
            for slots in itertools.permutations(range(n), used):
                subs = tuple(Substitution(bonus=cast(DieLetter, bonus_dice[b]), slot=s,
                                          replaced=cast(DieLetter, pool[s]))
                             for b, s in zip(bonus_idx, slots, strict=True))
                key = tuple(sorted(apply_substitutions(pool, subs)))
                if key in seen:
                    continue
                seen.add(key)
                found.append(tuple(sorted(subs, key=lambda x: x.slot)))
    return found


# --------------------------------------------------------------------------- the query


def odds(pool: Sequence[str], box: DiceBox, target: int, *, rerolls: int = 0,
         bonus_triumphs: int = 0, bonus_dice: Sequence[str] = (),
         insanity: InsanityBonuses | None = None, defeats_cancel: bool = False) -> OddsResult:
    """Exact chance that ``pool`` reaches ``target``, Bonus Dice, Re-rolls and Insanity at best."""
    check_odds_inputs(pool, box, target, rerolls, bonus_triumphs, bonus_dice, insanity)
    need = target - bonus_triumphs

    def chance_with(subs: tuple[Substitution, ...]) -> Fraction:
        dists = pool_dists(apply_substitutions(pool, subs), box, defeats_cancel=defeats_cancel)
        return success_probability(dists, need, rerolls=rerolls, insanity=insanity)

    scored = [(chance_with(subs), subs) for subs in substitution_options(pool, bonus_dice)]
    prob, subs = max(scored, key=lambda ps: ps[0])  # ties: the first option, fewest Bonus Dice
    rolled = apply_substitutions(pool, subs)
    dist = result_distribution(pool_dists(rolled, box, defeats_cancel=defeats_cancel), need,
                               bonus=bonus_triumphs, rerolls=rerolls, insanity=insanity)
    return OddsResult(given_pool=cast(Pool, tuple(pool)), pool=rolled, target=target,
                      rerolls=rerolls, bonus_triumphs=bonus_triumphs,
                      bonus_dice=cast(Pool, tuple(bonus_dice)), substitutions=subs,
                      insanity=insanity if insanity is not None and insanity.any else None,
                      defeats_cancel=defeats_cancel, probability=prob,
                      distribution=tuple(dist.items()))


def check_odds_inputs(pool: Sequence[str], box: DiceBox, target: int, rerolls: int = 0,
                      bonus_triumphs: int = 0, bonus_dice: Sequence[str] = (),
                      insanity: InsanityBonuses | None = None) -> None:
    """Refuse what no Test can ask for. Raises DiceError."""
    check_pool(pool, box)
    if target < 0:
        raise DiceError(f"the target {target} is below 0: a Test needs 0 or more Triumphs")
    if target > MAX_TARGET:
        raise DiceError(f"the target {target} is far beyond any Test (at most {MAX_TARGET})")
    if not 0 <= rerolls <= MAX_REROLLS:
        raise DiceError(f"{rerolls} Re-rolls: give 0 to {MAX_REROLLS}")
    if not 0 <= bonus_triumphs <= MAX_BONUS_TRIUMPHS:
        raise DiceError(f"{bonus_triumphs} bonus Triumphs: give 0 to {MAX_BONUS_TRIUMPHS}")
    if len(bonus_dice) > MAX_BONUS_DICE:
        raise DiceError(f"{len(bonus_dice)} Bonus Dice: give at most {MAX_BONUS_DICE}")
    for b in bonus_dice:
        box.die(b)
    test_options = rerolls or bonus_dice or (insanity is not None and insanity.reroll)
    if test_options and len(pool) > TEST_DICE:
        raise DiceError(f"Re-rolls, Bonus Dice and Insanity belong to Tests, which roll "
                        f"{TEST_DICE} dice; this pool has {len(pool)}")


# --------------------------------------------------------------------------- conditions, Insanity

KNOCKED_OUT_NOTE = ("Knocked Out: no Bonus Dice, bonus Triumphs, Re-rolls or Insanity bonus; "
                    "3 Red dice")
EXHAUSTED_NOTE = "Exhausted: the Test uses 3 Red dice"
CONDITION_POOL: Pool = ("R", "R", "R")


def apply_conditions(*, exhausted: bool, knocked_out: bool
                     ) -> tuple[dict[str, Any], tuple[str, ...]]:
    """What Exhausted or Knocked Out changes in a Test ("Exhausted and Knocked Out"): the setup
    fields to replace, and why (Bonus Dice may still replace an Exhausted Trouper's dice)."""
    if knocked_out:
        update: dict[str, Any] = {"pool": CONDITION_POOL, "bonus_dice": (), "bonus_triumphs": 0,
                                  "rerolls": 0, "insanity": None}
        return update, (KNOCKED_OUT_NOTE,)
    if exhausted:
        return {"pool": CONDITION_POOL}, (EXHAUSTED_NOTE,)
    return {}, ()


def insanity_bonuses(spaces: Sequence[Any], cube: int,
                     reading: Literal["any_dice", "one_die"] = "any_dice") -> InsanityBonuses:
    """The bonuses at the cube (space ``cube``, 0 = leftmost) or to its left ("Insanity");
    ``spaces``: the track's spaces, models or dicts."""
    if not 0 <= cube < len(spaces):
        raise RuleError(f"the Insanity cube is on spaces 0 to {len(spaces) - 1}, not {cube}")
    bonuses = [dict(dict(space).get("bonus") or {}) for space in spaces[: cube + 1]]
    triumphs = max((int(b.get("n", 1)) for b in bonuses if b.get("kind") == "bonus_triumphs"),
                   default=0)
    rerolls = [int(b.get("n", 1)) for b in bonuses if b.get("kind") == "reroll"]
    return InsanityBonuses(triumphs=triumphs, reroll=bool(rerolls), reroll_max_dice=max(
        rerolls) if rerolls and reading == "one_die" else None)


def trait_pool(traits: Mapping[str, str], trait: str, box: DiceBox | None = None) -> Pool:
    """The dice a Trouper's Trait gives (the Trouper card)."""
    key = trait.lower()
    if key not in traits:
        raise RuleError(f"no Trait {trait!r}", hint="Traits are " + ", ".join(sorted(traits)))
    return parse_pool(traits[key], box, max_dice=TEST_DICE)
