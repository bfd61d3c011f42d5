"""A Trouper's Test recorded in the campaign ("Tests", "Insanity"): the CLI records the whole
:class:`TestResult`; applying it checks the record against the Trouper now (Trait dice,
Exhausted, Knocked Out, Insanity bonuses), replays it, and moves the cube after a Failure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from blood_companion.engine.actions import Action, Context
from blood_companion.engine.dice import DiceBox, format_pool, parse_pool
from blood_companion.engine.errors import RuleError
from blood_companion.engine.odds import trait_pool
from blood_companion.engine.rolls.procedure import (
    TestResult,
    TestSetup,
    cube_after_test,
    replay_test,
    trouper_setup,
)
from blood_companion.engine.state import CampaignState, TrouperState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def setup_for_test(
    state: CampaignState, catalog: Catalog, trouper: str, *, target: int, trait: str | None = None,
    dice: str | None = None, bonus_triumphs: int = 0, bonus_dice: tuple[str, ...] = (),
    rerolls: int = 0,
) -> tuple[int, TestSetup]:
    """The Test a Trouper faces now: its Trait's dice (or a given pool), its Exhausted and
    Knocked Out state and the Insanity bonuses at its cube. Returns (trouper index, setup).
    Raises RuleError for an unknown Trouper or Trait, DiceError for a bad pool."""
    idx = state.trouper_index(trouper)
    t: TrouperState = state.troupers[idx]
    card = catalog.trouper(t.trouper)
    if card is None:
        raise RuleError(f"Trouper card {t.trouper!r} is missing from the data pack")
    box = DiceBox.from_models(catalog.dice)
    if (trait is None) == (dice is None):
        raise RuleError("a Test uses a Trait or a given dice pool (one of them)")
    traits: dict[str, str] = {str(k): v for k, v in card.traits.items()}
    pool = trait_pool(traits, trait, box) if trait else parse_pool(dice or "", box)
    label = trait.capitalize() if trait else f"Dice {format_pool(pool)}"
    return idx, trouper_setup(catalog, t, pool, target, label, bonus_triumphs=bonus_triumphs,
                              bonus_dice=tuple(bonus_dice), rerolls=rerolls)


class TakeTest(Action):
    """A Test a Trouper took, with every throw recorded (digital or physical)."""

    type: Literal["take_test"] = "take_test"
    trouper: str
    trait: str | None = None
    dice: str | None = None
    result: TestResult

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        if not state.started or not state.troupers:
            raise RuleError("start a campaign before taking Tests")
        s = self.result.setup
        idx, expected = setup_for_test(
            state, ctx.catalog, self.trouper, target=s.target, trait=self.trait, dice=self.dice,
            bonus_triumphs=s.bonus_triumphs, bonus_dice=tuple(s.bonus_dice), rerolls=s.rerolls)
        if expected != s:
            raise RuleError(
                "this Test record does not match the Trouper's situation now "
                "(dice, Exhausted, Knocked Out or Insanity changed)")
        box = DiceBox.from_models(ctx.catalog.dice)
        replayed = replay_test(self.result, box)
        if replayed != self.result:
            raise RuleError("this Test record is not consistent: its totals do not replay")
        t = state.troupers[idx]
        cube = cube_after_test(ctx.catalog, t.insanity, self.result.success)
        troupers = list(state.troupers)
        troupers[idx] = t.model_copy(update={"insanity": cube})
        return state.model_copy(update={"troupers": troupers})

    words = (
        "{trouper:who} takes a [{trait:cap}|{dice}] Test against {result.target}: "
        "{result.total} Triumph(s), [{result.success:when}Success|Failure]"
    )
