"""`blood roll` and `blood odds` in the typer app: their options, help and completion.

``cli.entry`` answers ``blood roll ...`` and ``blood odds ...`` through ``cli/dice_run.py``
without loading typer or pydantic; these commands (what ``blood --help``, ``blood odds --help``
and completion show, and what runs when the typer app is used directly) build the same
question and call the same code. The notation is documented in docs/dice-and-odds.md.
"""

from __future__ import annotations

from typing import Annotated

import typer

from blood_companion.cli import completion, dice_run
from blood_companion.cli.common import JsonOpt, settings
from blood_companion.cli.summaries import SUMMARIES

POOL_HELP = 'Dice such as "R G B", "2R B" or 3B (R Red, G Grey, B Black).'


def register(app: typer.Typer) -> None:
    app.command("roll", short_help=SUMMARIES["roll"])(roll)
    app.command("odds", short_help=SUMMARIES["odds"])(odds)


def _pool_arg(words: list[str] | None) -> str:
    return " ".join(words or []).strip()


def roll(
    pool_words: Annotated[list[str], typer.Argument(metavar="POOL", help=POOL_HELP)],
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed for a reproducible roll (default: a fresh seed, shown)."),
    ] = None,
    dice: Annotated[
        str | None,
        typer.Option(
            "--dice",
            help='The faces your physical dice show, one per die in order: "2 x 3" (x = a Defeat,'
            ' 1/1 = a Triumph and a Defeat), or by die: "B3 R2 Gx".',
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll a pool of dice (or type in your physical dice) and count the Triumphs."""
    ask = dice_run.RollAsk(pool=_pool_arg(pool_words), seed=seed, dice=dice, as_json=as_json)
    doc, lines = dice_run.roll(ask, settings())
    dice_run.show(doc, lines, as_json)


def odds(
    *,
    pool_words: Annotated[
        list[str] | None,
        typer.Argument(metavar="POOL", help=POOL_HELP + " Or use --trouper and --trait."),
    ] = None,
    target: Annotated[int, typer.Option("--target", "-t", help="Triumphs needed (0 or more).")],
    reroll: Annotated[
        int, typer.Option("--reroll", "-r", help="Re-rolls available, each of any dice you choose.")
    ] = 0,
    bonus_triumphs: Annotated[
        int, typer.Option("--bonus-triumphs", "-k", help="Bonus Triumphs.")
    ] = 0,
    bonus_dice: Annotated[
        list[str] | None,
        typer.Option(
            "--bonus-dice",
            help='Bonus Dice that may replace dice before the roll: G, B, or several ("G B").',
        ),
    ] = None,
    trouper: Annotated[
        str | None,
        typer.Option(
            "--trouper", help="A Trouper id, with --trait.", autocompletion=completion.trouper
        ),
    ] = None,
    trait: Annotated[
        str | None,
        typer.Option(
            "--trait", help="strength, dexterity, cunning or madness: the Trouper's dice."
        ),
    ] = None,
    exhausted: Annotated[bool, typer.Option("--exhausted", help="Exhausted: 3 Red dice.")] = False,
    knocked_out: Annotated[
        bool,
        typer.Option("--knocked-out", help="Knocked Out: 3 Red dice and no bonuses or Re-rolls."),
    ] = False,
    insanity: Annotated[
        int | None,
        typer.Option(
            "--insanity",
            help="The Insanity cube's space (0 = leftmost): its best bonus is used after the roll.",
        ),
    ] = None,
    insanity_reading: Annotated[
        str | None,
        typer.Option(
            "--insanity-reading",
            help='How "Re-roll 1" reads: any-dice or one-die (default: rules_config).',
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact chance that a roll or Test reaches --target, and the Triumphs' distribution.

    Re-rolls, Bonus Dice and the Insanity bonus are played as well as possible."""
    ask = dice_run.OddsAsk(
        pool=_pool_arg(pool_words),
        target=target,
        reroll=reroll,
        bonus_triumphs=bonus_triumphs,
        bonus_dice=[" ".join(bonus_dice)] if bonus_dice else None,
        trouper=trouper,
        trait=trait,
        exhausted=exhausted,
        knocked_out=knocked_out,
        insanity=insanity,
        insanity_reading=insanity_reading,
        as_json=as_json,
    )
    doc, lines = dice_run.odds(ask, settings())
    dice_run.show(doc, lines, as_json)
