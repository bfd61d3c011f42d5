"""`blood roll` and `blood odds`: roll (or type in) dice, and the exact odds of a Test.

Parse, call the engine (``engine.dice``, ``engine.odds``, ``engine.tests_procedure``), render.
The notation is documented in docs/dice-and-odds.md.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from blood_companion.cli.common import JsonOpt, print_json, stdout
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import (
    DIE_NAMES,
    DiceBox,
    Face,
    Pool,
    format_pool,
    parse_faces,
    parse_pool,
    roll_pool,
    triumph_total,
)
from blood_companion.engine.odds import OddsResult, check_odds_inputs
from blood_companion.engine.tests_procedure import (
    TestSetup,
    effective_setup,
    insanity_bonuses,
    odds_for_test,
    trait_pool,
)
from blood_companion.errors import BloodError, UsageError

POOL_HELP = 'Dice such as "R G B", "2R B" or 3B (R Red, G Grey, B Black).'
BAR_WIDTH = 32
PLACEHOLDER_NOTE = (
    "These dice faces are placeholder content; transcribe your own dice (README, "
    "'Transcribing your box')."
)


def register(app: typer.Typer) -> None:
    app.command("roll")(roll)
    app.command("odds")(odds)


# --------------------------------------------------------------------------- data


def _catalog() -> Any:
    from blood_companion.cli import session

    return session.catalog()


def dice_box(catalog: Any | None = None) -> DiceBox:
    """The box's dice from the data pack (shipped pack plus --data-dir)."""
    cat = catalog if catalog is not None else _catalog()
    return DiceBox.from_models(cat.dice)


def _placeholder(catalog: Any, pool: Pool) -> bool:
    return any(d.source == "placeholder" for d in catalog.dice if d.letter in set(pool))


def _pool_arg(words: list[str] | None) -> str:
    return " ".join(words or []).strip()


# --------------------------------------------------------------------------- roll


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
    catalog = _catalog()
    box = dice_box(catalog)
    pool = parse_pool(_pool_arg(pool_words), box)
    if dice is not None and seed is not None:
        raise UsageError("give either --seed (digital dice) or --dice (your physical dice)")
    if dice is not None:
        faces = parse_faces(dice, pool, box)
        source = "physical"
    else:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        faces = roll_pool(pool, box, Chance.fresh(seed, 0))
        source = "digital"
    cancel = catalog.config.defeats_cancel_triumphs
    total = triumph_total(faces, defeats_cancel=cancel)
    placeholder = _placeholder(catalog, pool)
    if as_json:
        print_json(
            {
                "pool": list(pool),
                "seed": seed,
                "source": source,
                "faces": [_face_json(f) for f in faces],
                "triumphs": total,
                "defeats": sum(f.defeats for f in faces),
                "defeats_cancel_triumphs": cancel,
                "placeholder": placeholder,
            }
        )
        return
    head = f"Rolled {format_pool(pool)}" + (
        f" (seed {seed})" if source == "digital" else " (your dice)"
    )
    table = Table(title=head, title_justify="left", show_edge=False)
    table.add_column("die")
    table.add_column("face")
    table.add_column("Triumphs", justify="right")
    table.add_column("Defeats", justify="right")
    for f in faces:
        table.add_row(DIE_NAMES[f.die], f.label or "", str(f.triumphs), str(f.defeats or ""))
    stdout.print(table)
    stdout.print(
        Text.assemble(
            ("Triumphs: ", "bold"),
            (str(total), "bold green"),
            "  (Defeats cancel Triumphs)" if cancel else "",
        )
    )
    if placeholder:
        stdout.print(Text(PLACEHOLDER_NOTE, style="dim"))


def _face_json(face: Face) -> dict[str, Any]:
    return {
        "die": face.die,
        "triumphs": face.triumphs,
        "defeats": face.defeats,
        "label": face.label,
    }


# --------------------------------------------------------------------------- odds


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
        str | None, typer.Option("--trouper", help="A Trouper id, with --trait.")
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
    catalog = _catalog()
    box = dice_box(catalog)
    text = _pool_arg(pool_words)
    if trouper is not None or trait is not None:
        if text:
            raise UsageError("give a POOL or --trouper with --trait, not both")
        if trouper is None or trait is None:
            raise UsageError("--trouper and --trait go together")
        found = catalog.trouper(trouper)
        if found is None:
            ids = ", ".join(t.id for t in catalog.all("troupers"))
            raise BloodError(f"no Trouper {trouper!r}", hint=f"Troupers: {ids}")
        pool = trait_pool(found.traits, trait, box)
    elif text:
        pool = parse_pool(text, box)
    else:
        raise UsageError('give a POOL (e.g. "R G B") or --trouper ID --trait TRAIT')
    bonus = parse_pool(" ".join(bonus_dice), box) if bonus_dice else ()
    check_odds_inputs(pool, box, target, reroll, bonus_triumphs, bonus)
    setup = TestSetup.model_validate(
        {
            "pool": pool,
            "target": target,
            "bonus_triumphs": bonus_triumphs,
            "bonus_dice": bonus,
            "rerolls": reroll,
            "exhausted": exhausted,
            "knocked_out": knocked_out,
            "insanity": _insanity(catalog, insanity, insanity_reading),
            "defeats_cancel": catalog.config.defeats_cancel_triumphs,
            "label": f"{trouper} {trait.lower()}" if trouper and trait else None,
        }
    )
    result = odds_for_test(setup, box)
    placeholder = _placeholder(catalog, (*pool, *bonus, *result.pool))
    if as_json:
        print_json(odds_json(setup, result, placeholder))
        return
    _render_odds(setup, result, placeholder)


def _insanity(catalog: Any, cube: int | None, reading: str | None) -> Any:
    if cube is None:
        if reading is not None:
            raise UsageError("--insanity-reading goes with --insanity N")
        return None
    chosen = reading or catalog.config.insanity_reroll_reading
    chosen = chosen.replace("-", "_")
    if chosen == "any_dice":
        return insanity_bonuses(catalog.insanity.spaces, cube, "any_dice")
    if chosen == "one_die":
        return insanity_bonuses(catalog.insanity.spaces, cube, "one_die")
    raise UsageError(f"--insanity-reading is any-dice or one-die, not {reading!r}")


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def odds_json(setup: TestSetup, result: OddsResult, placeholder: bool) -> dict[str, Any]:
    """The `blood odds --json` document (DESIGN.md section 5 names the first five keys)."""
    return {
        "pool": list(setup.pool),
        "target": setup.target,
        "reroll": setup.rerolls,
        "probability": float(result.probability),
        "exact": _exact(result.probability),
        "rolled_pool": list(result.pool),
        "bonus_triumphs": result.bonus_triumphs,
        "bonus_dice": list(setup.bonus_dice),
        "substitutions": [s.model_dump() for s in result.substitutions],
        "rerolls_used": result.rerolls,
        "insanity": result.insanity.model_dump() if result.insanity else None,
        "exhausted": setup.exhausted,
        "knocked_out": setup.knocked_out,
        "trouper": setup.label,
        "defeats_cancel_triumphs": result.defeats_cancel,
        "distribution": [
            {"triumphs": t, "probability": float(p), "exact": _exact(p)}
            for t, p in result.distribution
        ],
        "placeholder": placeholder,
    }


def _render_odds(setup: TestSetup, result: OddsResult, placeholder: bool) -> None:
    p = result.probability
    asked = format_pool(setup.pool)
    if setup.label:
        asked = f"{setup.label} ({asked})"
    extras = []
    if result.rerolls:
        extras.append(f"{result.rerolls} Re-roll{'s' if result.rerolls != 1 else ''}")
    if result.bonus_triumphs:
        extras.append(f"+{result.bonus_triumphs} Triumph{'s' if result.bonus_triumphs > 1 else ''}")
    if result.insanity:
        extras.append("Insanity: " + _insanity_words(result))
    stdout.print(
        Text.assemble(
            (asked, "bold"),
            f", target {setup.target}",
            (", " + ", ".join(extras)) if extras else "",
            ": ",
            (f"{float(p):.2%}", "bold green" if p >= Fraction(1, 2) else "bold yellow"),
            f"  (exactly {_exact(p)})",
        )
    )
    for note in effective_setup(setup)[1]:
        stdout.print(note)
    if result.substitutions:
        moves = ", ".join(
            f"{s.bonus} replaces {s.replaced} (die {s.slot + 1})" for s in result.substitutions
        )
        stdout.print(f"Best Bonus Dice: {moves} → roll {format_pool(result.pool)}")
    elif setup.bonus_dice and not setup.knocked_out:
        stdout.print("Best Bonus Dice: keep the dice as they are (no replacement helps).")
    if result.rerolls or (result.insanity and result.insanity.reroll):
        stdout.print(
            Text(
                "Re-rolls assume the best choice after each roll (see each die, re-roll the ones"
                " that raise the chance most).",
                style="dim",
            )
        )
    top = max((q for _, q in result.distribution), default=Fraction(0))
    table = Table(show_header=True, show_edge=False, box=None, pad_edge=False)
    table.add_column("Triumphs", justify="right")
    table.add_column("")
    table.add_column("exactly", justify="right")
    table.add_column("at least", justify="right")
    for t, q in result.distribution:
        bar = "█" * round(BAR_WIDTH * q / top) if top else ""
        style = "green" if t >= setup.target else "red"
        table.add_row(
            str(t), Text(bar, style=style), f"{float(q):6.2%}", f"{float(result.at_least(t)):6.2%}"
        )
    stdout.print(table)
    if placeholder:
        stdout.print(Text(PLACEHOLDER_NOTE, style="dim"))


def _insanity_words(result: OddsResult) -> str:
    ins = result.insanity
    assert ins is not None
    bits = []
    if ins.reroll:
        bits.append(
            "Re-roll" if ins.reroll_max_dice is None else f"Re-roll {ins.reroll_max_dice} die"
        )
    if ins.triumphs:
        bits.append(f"+{ins.triumphs} Triumph{'s' if ins.triumphs > 1 else ''}")
    return " or ".join(bits)
