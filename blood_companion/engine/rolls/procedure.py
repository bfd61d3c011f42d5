"""The Test procedure ("Tests"), the Insanity track, Exhausted, Knocked Out and Attack targets.

A Test runs the rulebook's seven steps, each a pure function from one :class:`TestState` to the
next: 1. bonus Triumphs activated; 2. the dice taken (the Trait's or the Test's own; 3 Red dice
when "Exhausted and Knocked Out"); 3. "Bonus Dice" placed before any roll; 4. the roll; 5. Re-rolls
("Re-rolling the Dice") and the "Insanity" bonus; 6. "Bonus Triumphs" added; 7. Success when the
target is reached. A Knocked Out Trouper uses no Bonus Dice, bonus Triumphs or Re-rolls, so no
Insanity bonus either. Every throw is a :class:`RollRecord` (digital or physical), so a recorded
Test replays exactly (:func:`replay_test`).

The night and `blood play` keep the throws as text: faces (``"2 x 1"``, :data:`APP_ROLLED` when
the app rolled them) and Re-rolls by position (``"1,3"``; ``"i:1,3"``: the Insanity Re-roll),
read by :func:`parse_reroll` and replayed by :func:`replay_throws`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import (
    TEST_DICE,
    DiceBox,
    DieLetter,
    Face,
    Pool,
    check_pool,
    format_pool,
    parse_faces,
    roll_pool,
    triumph_total,
)
from blood_companion.engine.errors import DiceError, RuleError

# The pure pieces `blood odds` uses without pydantic live in engine/odds.py.
from blood_companion.engine.odds import (
    MAX_BONUS_TRIUMPHS,
    MAX_REROLLS,
    MAX_TARGET,
    Decision,
    InsanityBonuses,
    OddsResult,
    Substitution,
    advise,
    apply_conditions,
    apply_substitutions,
    check_odds_inputs,
    face_value,
    insanity_bonuses,
    odds,
    pool_dists,
)

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.state import TrouperState


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class TestSetup(_Model):
    """Everything known before a Test's dice are taken: what the players and Effects bring."""

    __test__ = False  # not a pytest test class, despite the name

    pool: Pool  # the Trait's dice or the Test's given dice
    target: Annotated[int, Field(ge=0, le=MAX_TARGET)]
    bonus_triumphs: Annotated[int, Field(ge=0, le=MAX_BONUS_TRIUMPHS)] = 0
    bonus_dice: tuple[DieLetter, ...] = ()
    rerolls: Annotated[int, Field(ge=0, le=MAX_REROLLS)] = 0
    exhausted: bool = False
    knocked_out: bool = False
    insanity: InsanityBonuses | None = None  # the bonuses reachable at the cube
    defeats_cancel: bool = False
    label: str | None = None  # what the Test is for, e.g. "Strength" or "Physical Attack"


class RollRecord(_Model):
    """One throw during a Test: which dice (by position) and what they showed."""

    kind: Literal["roll", "reroll", "insanity_reroll"]
    slots: tuple[int, ...]
    faces: tuple[Face, ...]
    source: Literal["digital", "physical"] = "digital"


class TestState(_Model):
    """A Test in progress (steps 1-5 done as far as ``faces`` and ``rolls`` show)."""

    __test__ = False

    setup: TestSetup
    pool: Pool  # the dice rolled: after Exhausted/Knocked Out and the Bonus Dice
    substitutions: tuple[Substitution, ...] = ()
    bonus_triumphs: int  # what step 6 adds (0 when Knocked Out)
    rerolls_left: int
    insanity: InsanityBonuses | None  # None once taken, or when there is none to take
    insanity_used: Literal["reroll", "triumphs"] | None = None
    faces: tuple[Face, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def rolled(self) -> bool:
        return bool(self.rolls)


class TestResult(_Model):
    """A confirmed Test (step 7), with every roll recorded so it replays exactly."""

    __test__ = False

    setup: TestSetup
    pool: Pool
    substitutions: tuple[Substitution, ...]
    rolls: tuple[RollRecord, ...]
    faces: tuple[Face, ...]
    dice_triumphs: int
    bonus_triumphs: int
    insanity_used: Literal["reroll", "triumphs"] | None
    insanity_triumphs: int
    total: int
    target: int
    success: bool
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- steps 1-3


def odds_for_test(setup: TestSetup, box: DiceBox) -> OddsResult:
    """Exact odds of a Test before it is taken, with Exhausted/Knocked Out applied and the best
    Bonus Dice placement, Re-roll policy and Insanity bonus. Raises DiceError for bad input."""
    eff = setup.model_copy(update=apply_conditions(
        exhausted=setup.exhausted, knocked_out=setup.knocked_out)[0])
    return odds(
        eff.pool, box, eff.target, rerolls=eff.rerolls, bonus_triumphs=eff.bonus_triumphs,
        bonus_dice=eff.bonus_dice, insanity=eff.insanity, defeats_cancel=eff.defeats_cancel)


def prepare_test(
    setup: TestSetup, box: DiceBox, substitutions: Sequence[Substitution] | None = None,
) -> TestState:
    """Steps 1-3: bonus Triumphs, the dice, and the Bonus Dice placed before the roll.

    ``substitutions=None`` places the Bonus Dice where they give the best chance of success;
    an explicit list is checked against the Bonus Dice the setup grants. Raises DiceError when
    the pool is not 3 dice of the box, or for a substitution the setup does not allow.
    """
    update, notes = apply_conditions(exhausted=setup.exhausted, knocked_out=setup.knocked_out)
    eff = setup.model_copy(update=update)
    check_pool(eff.pool, box, max_dice=TEST_DICE)
    if len(eff.pool) != TEST_DICE:
        raise DiceError(
            f"a Test rolls {TEST_DICE} dice; {format_pool(eff.pool)!r} is {len(eff.pool)}")
    check_odds_inputs(
        eff.pool, box, eff.target, eff.rerolls, eff.bonus_triumphs, eff.bonus_dice, eff.insanity)
    if substitutions is None:
        subs = odds_for_test(eff, box).substitutions
    else:
        subs = tuple(substitutions)
        granted = Counter(eff.bonus_dice)
        wanted = Counter(s.bonus for s in subs)
        for letter, n in wanted.items():
            if n > granted[letter]:
                raise RuleError(
                    f"{n} {letter} Bonus Dice placed; the Test grants {granted[letter]}"
                    + (" (Knocked Out)" if setup.knocked_out else ""))
    pool = apply_substitutions(eff.pool, subs)
    insanity = eff.insanity if eff.insanity is not None and eff.insanity.any else None
    return TestState(
        setup=setup, pool=pool, substitutions=subs, bonus_triumphs=eff.bonus_triumphs,
        rerolls_left=eff.rerolls, insanity=insanity, notes=notes)


# --------------------------------------------------------------------------- steps 4-5


def roll_test(
    state: TestState, box: DiceBox, *, rng: Chance | None = None,
    faces: Sequence[Face] | None = None, source: Literal["digital", "physical"] = "physical",
) -> TestState:
    """Step 4: roll the dice with ``rng``, or record the ``faces`` typed in from physical dice
    (``source="digital"``: faces the app rolled before the step was recorded, e.g. while
    `blood play` asked about the Re-rolls). Raises RuleError when the dice were already rolled,
    DiceError for a face a die lacks."""
    if state.rolled:
        raise RuleError("the dice of this Test are already rolled")
    slots = tuple(range(len(state.pool)))
    record = _throw("roll", state, box, slots, rng, faces, source)
    return state.model_copy(update={"faces": record.faces, "rolls": (record,)})


def reroll_test(
    state: TestState, box: DiceBox, slots: Sequence[int], *, insanity: bool = False,
    rng: Chance | None = None, faces: Sequence[Face] | None = None,
    source: Literal["digital", "physical"] = "physical",
) -> TestState:
    """Step 5: a Re-roll of the chosen dice (by position in the pool, from 0), from an Effect
    or, with ``insanity``, the Insanity track's Re-roll bonus. Raises RuleError when no such
    Re-roll is left, DiceError for bad positions or faces."""
    if not state.rolled:
        raise RuleError("roll the dice before re-rolling them")
    chosen = tuple(sorted(set(slots)))
    if len(chosen) != len(slots):
        raise DiceError("a die is named twice in the Re-roll")
    if not chosen:
        raise DiceError("name at least one die to re-roll")
    for s in chosen:
        if not 0 <= s < len(state.pool):
            raise DiceError(f"there is no die {s + 1}: the Test rolls {len(state.pool)} dice")
    update: dict[str, Any]
    if insanity:
        bonus = state.insanity
        if bonus is None or not bonus.reroll:
            raise RuleError("no Insanity Re-roll is available for this Test")
        if bonus.reroll_max_dice is not None and len(chosen) > bonus.reroll_max_dice:
            raise RuleError(
                f"the Insanity Re-roll re-rolls at most {bonus.reroll_max_dice} die"
                " (rules_config insanity_reroll_reading: one_die)")
        update = {"insanity": None, "insanity_used": "reroll"}
        kind: Literal["reroll", "insanity_reroll"] = "insanity_reroll"
    else:
        if state.rerolls_left <= 0:
            why = " (Knocked Out)" if state.setup.knocked_out else ""
            raise RuleError("no Re-roll is left for this Test" + why)
        update = {"rerolls_left": state.rerolls_left - 1}
        kind = "reroll"
    record = _throw(kind, state, box, chosen, rng, faces, source)
    new_faces = list(state.faces)
    for s, f in zip(chosen, record.faces, strict=True):
        new_faces[s] = f
    update |= {"faces": tuple(new_faces), "rolls": (*state.rolls, record)}
    return state.model_copy(update=update)


def _throw(
    kind: Literal["roll", "reroll", "insanity_reroll"], state: TestState, box: DiceBox,
    slots: tuple[int, ...], rng: Chance | None, faces: Sequence[Face] | None,
    source: Literal["digital", "physical"] = "physical",
) -> RollRecord:
    dice = tuple(state.pool[s] for s in slots)
    if (rng is None) == (faces is None):
        raise RuleError("a throw needs either a random generator or the faces typed in")
    if faces is None:
        assert rng is not None
        return RollRecord(kind=kind, slots=slots, faces=roll_pool(dice, box, rng))
    check_faces(faces, dice, box)
    return RollRecord(kind=kind, slots=slots, faces=tuple(faces), source=source)


def check_faces(faces: Sequence[Face], dice: Sequence[str], box: DiceBox) -> None:
    """Refuse typed-in faces that do not match the dice thrown. Raises DiceError."""
    if len(faces) != len(dice):
        raise DiceError(f"{len(faces)} face(s) given for {len(dice)} dice ({format_pool(dice)})")
    for f, letter in zip(faces, dice, strict=True):
        if f.die != letter:
            raise DiceError(f"a {f.die} face was given for a {letter} die")
        if all(g.counts != f.counts for g in box.die(letter).faces):
            raise DiceError(
                f"the {box.die(letter).name} has no face with {f.triumphs} Triumph(s) and "
                f"{f.defeats} Defeat(s)")


def advise_test(state: TestState, box: DiceBox) -> Decision:
    """The move that keeps the best chance of success from here (Re-roll which dice, take the
    Insanity bonus, or confirm). Raises RuleError before the roll."""
    if not state.rolled:
        raise RuleError("roll the dice first")
    defeats_cancel = state.setup.defeats_cancel
    return advise(
        pool_dists(state.pool, box, defeats_cancel=defeats_cancel),
        [face_value(f, defeats_cancel=defeats_cancel) for f in state.faces],
        state.setup.target - state.bonus_triumphs, rerolls_left=state.rerolls_left,
        insanity=state.insanity)


# --------------------------------------------------------------------------- steps 6-7


def confirm_test(state: TestState, *, use_insanity_triumphs: bool | None = None) -> TestResult:
    """Steps 6-7: add the bonus Triumphs (and the Insanity bonus Triumphs when taken; by
    default whenever the Insanity bonus is still unused) and decide Success or Failure.
    Raises RuleError before the roll or for an Insanity bonus that is not there."""
    if not state.rolled:
        raise RuleError("roll the dice before confirming the Test")
    bonus = state.insanity
    can_take = bonus is not None and bonus.triumphs > 0
    take = can_take if use_insanity_triumphs is None else use_insanity_triumphs
    if take and not can_take:
        raise RuleError("no Insanity bonus Triumphs are available for this Test")
    ins_triumphs = bonus.triumphs if take and bonus is not None else 0
    dice = triumph_total(state.faces, defeats_cancel=state.setup.defeats_cancel)
    total = dice + state.bonus_triumphs + ins_triumphs
    return TestResult(
        setup=state.setup, pool=state.pool, substitutions=state.substitutions,
        rolls=state.rolls, faces=state.faces, dice_triumphs=dice,
        bonus_triumphs=state.bonus_triumphs,
        insanity_used="triumphs" if take else state.insanity_used,
        insanity_triumphs=ins_triumphs, total=total, target=state.setup.target,
        success=total >= state.setup.target, notes=state.notes)


# --------------------------------------------------------------------------- whole Tests


def reroll_at_best(
    state: TestState, box: DiceBox, rng: Chance | None,
    faces: Callable[[], Sequence[Face] | None] = lambda: None,
) -> TestState:
    """The Re-rolls (and the Insanity Re-roll) played by the best policy until confirming is
    best, each thrown with ``rng`` or given by ``faces()``."""
    while (move := advise_test(state, box)).action != "confirm":
        insanity = move.action == "insanity_reroll"
        state = reroll_test(state, box, move.slots, insanity=insanity, rng=rng, faces=faces())
    return state


def replay_test(result: TestResult, box: DiceBox) -> TestResult:
    """Rebuild a recorded Test from its setup, substitutions and rolls; equal to ``result``
    when the record is honest. Raises RuleError/DiceError when it is not consistent."""
    state = prepare_test(result.setup, box, result.substitutions)
    for rec in result.rolls:
        if rec.kind == "roll":
            state = roll_test(state, box, faces=rec.faces)
        else:
            state = reroll_test(
                state, box, rec.slots, insanity=rec.kind == "insanity_reroll", faces=rec.faces)
    replayed = confirm_test(state, use_insanity_triumphs=result.insanity_used == "triumphs")
    # The source of each throw (digital or physical) is part of the record, not of the rules.
    return replayed.model_copy(update={"rolls": result.rolls})


# --------------------------------------------------------------------------- Insanity track


def trouper_setup(
    catalog: Catalog, trouper: TrouperState, pool: Pool, target: int, label: str, **bonus: Any
) -> TestSetup:
    """A Test of ``trouper`` as they stand now: Exhausted, Knocked Out and the Insanity bonuses
    at their cube (with the table's ``insanity_reroll_reading``), with the ``bonus`` Effects
    give (bonus_triumphs, bonus_dice, rerolls)."""
    spaces = catalog.insanity.spaces
    insanity = insanity_bonuses(spaces, min(trouper.insanity, len(spaces) - 1),
                                catalog.config.insanity_reroll_reading)
    return TestSetup(
        pool=pool, target=target, exhausted=trouper.exhausted, knocked_out=trouper.knocked_out,
        insanity=insanity, label=label,
        defeats_cancel=catalog.config.defeats_cancel_triumphs, **bonus)


def cube_after_test(catalog: Catalog, cube: int, success: bool) -> int:
    """Where a Trouper's Insanity cube stands after their Test: one space right after a Failure,
    never past the last space of the campaign's track ("Insanity")."""
    last = len(catalog.insanity.spaces) - 1
    return min(cube, last) if success else min(cube + 1, last)


# --------------------------------------------------------------------------- throws as text

# A throw the app rolled before the step was recorded (`blood play` asks about Re-rolls between
# throws): "app: 2 x 1". Without the mark, the faces were typed in from physical dice.
APP_ROLLED = "app:"


def read_throw(text: str) -> tuple[str, Literal["digital", "physical"]]:
    """The faces of one throw and who rolled it (the :data:`APP_ROLLED` mark)."""
    if text.strip().lower().startswith(APP_ROLLED):
        return text.strip()[len(APP_ROLLED):].strip(), "digital"
    return text, "physical"


def parse_reroll(text: str, n: int) -> tuple[tuple[int, ...], bool]:
    """The dice one Re-roll names, by position from 1 (commas or spaces: "1,3", "1 3"), as
    positions from 0 in the order given, and whether it is the Insanity Re-roll: marked by a
    leading "i", "i:" or "insanity" ("i:1,3", "i1 3", "insanity 2"). The one reader of the
    notation, for recorded actions and typed answers alike. Raises DiceError."""
    words = text.replace(",", " ").split()
    insanity = bool(words) and words[0].lower().startswith("i")
    if insanity:
        head = words[0].lower()
        rest = "" if head == "insanity" else head.lstrip("i:")
        words = [rest, *words[1:]] if rest else words[1:]
    try:
        slots = tuple(int(w) - 1 for w in words)
    except ValueError:
        raise DiceError(
            f"cannot read the dice to re-roll {text!r}: name them by position, e.g. 1 3"
        ) from None
    if not slots:
        raise DiceError("name the dice to re-roll by position, e.g. 1 3 (Insanity Re-roll: i 2)")
    for s in slots:
        if not 0 <= s < n:
            raise DiceError(f"there is no die {s + 1}: the dice are numbered 1 to {n}")
    return slots, insanity


def format_reroll(slots: Sequence[int], insanity: bool = False) -> str:
    """One Re-roll as recorded, the notation :func:`parse_reroll` reads: the dice by position
    from 1 ("1,3"), marked "i:" for the Insanity Re-roll ("i:1,3")."""
    return ("i:" if insanity else "") + ",".join(str(s + 1) for s in slots)


def replay_throws(
    state: TestState, box: DiceBox, dice: Sequence[str], reroll: Sequence[str], *,
    whole: bool = False,
) -> TestState:
    """The Test after the throws given as text: ``dice`` the faces of the roll, then of each
    Re-roll whose dice ``reroll`` names (:func:`parse_reroll`). A Re-roll named whose faces are
    not given yet is left out, unless ``whole`` (a recorded Test: every Re-roll has its faces).
    Raises RuleError/DiceError."""
    if not dice:
        return state
    text, source = read_throw(dice[0])
    state = roll_test(state, box, faces=parse_faces(text, state.pool, box), source=source)
    if whole and len(reroll) != len(dice) - 1:
        raise RuleError(
            "each Re-roll needs the dice it re-rolls (--reroll 1,3) and their faces "
            "(another --dice)")
    for slots_text, faces_text in zip(reroll, dice[1:], strict=False):
        slots, insanity = parse_reroll(slots_text, len(state.pool))
        text, source = read_throw(faces_text)
        picked = tuple(state.pool[s] for s in slots)
        state = reroll_test(state, box, slots, insanity=insanity,
                            faces=parse_faces(text, picked, box), source=source)
    return state
