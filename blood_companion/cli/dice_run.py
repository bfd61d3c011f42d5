"""`blood roll` and `blood odds`: the engine's dice and odds over the data pack. :func:`register`
makes the typer commands of the options tables :data:`ROLL` / :data:`ODDS`, which call
:func:`roll` and :func:`odds`. The notation: docs/dice-and-odds.md."""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from typing import Any

from rich.text import Text

from blood_companion.cli.common import add_command
from blood_companion.cli.flags import JSON, Opt, Values
from blood_companion.cli.render import View, _wrap, grid, print_view, width
from blood_companion.cli.settings import Settings, current
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.views import print_doc
from blood_companion.content.loader import load_catalog
from blood_companion.display import clean
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import (
    DIE_NAMES,
    DiceBox,
    Pool,
    format_pool,
    parse_faces,
    parse_pool,
    roll_pool,
    triumph_total,
)
from blood_companion.engine.odds import (
    OddsResult,
    apply_conditions,
    check_odds_inputs,
    insanity_bonuses,
    trait_pool,
)
from blood_companion.engine.odds import odds as solve
from blood_companion.errors import BloodError, UsageError
from blood_companion.matching import did_you_mean, find

BAR_WIDTH = 32
PLACEHOLDER_NOTE = (
    "These dice faces are placeholder content; transcribe your own dice (README, "
    "'Transcribing your box')."
)


POOL_HELP = 'Dice such as "R G B", "2R B" or 3B (R Red, G Grey, B Black).'
# What `blood roll` and `blood odds` take: their typer commands are made of these
# (:func:`register`), which give :func:`roll` and :func:`odds` their values.
ROLL = (
    Opt("pool_words", kind="words", metavar="POOL", help=POOL_HELP, required=True),
    Opt("seed", "--seed", kind="int",
        help="Seed for a reproducible roll (default: a fresh seed, shown)."),
    Opt("dice", "--dice", help='The faces your physical dice show, one per die in order: "2 x 3"'
        ' (x = a Defeat, 1/1 = a Triumph and a Defeat), or by die: "B3 R2 Gx".'),
    JSON,
)
ODDS = (
    Opt("pool_words", kind="words", metavar="POOL",
        help=POOL_HELP + " Or use --trouper and --trait."),
    Opt("target", "--target", "-t", kind="int", required=True,
        help="Triumphs needed (0 or more)."),
    Opt("reroll", "--reroll", "-r", kind="int", default=0,
        help="Re-rolls available, each of any dice you choose."),
    Opt("bonus_triumphs", "--bonus-triumphs", "-k", kind="int", default=0, help="Bonus Triumphs."),
    Opt("bonus_dice", "--bonus-dice", kind="list",
        help='Bonus Dice that may replace dice before the roll: G, B, or several ("G B").'),
    Opt("trouper", "--trouper", help="A Trouper id, with --trait.", complete="trouper"),
    Opt("trait", "--trait", help="strength, dexterity, cunning or madness: the Trouper's dice."),
    Opt("exhausted", "--exhausted", kind="flag", default=False, help="Exhausted: 3 Red dice."),
    Opt("knocked_out", "--knocked-out", kind="flag", default=False,
        help="Knocked Out: 3 Red dice and no bonuses or Re-rolls."),
    Opt("insanity", "--insanity", kind="int", help="The Insanity cube's space (0 = leftmost):"
        " its best bonus is used after the roll."),
    Opt("insanity_reading", "--insanity-reading",
        help='How "Re-roll 1" reads: any-dice or one-die (default: rules_config).'),
    JSON,
)


def _pool(ask: Values) -> str:
    return " ".join(ask.pool_words).strip()


# --------------------------------------------------------------------------- the data


class Pack:
    """What the dice commands read from the data pack (the validated catalog: shipped pack plus
    the overlay, whose files that belong to no kind are named on stderr): the dice, the rules
    options, the Insanity track and the Troupers' traits."""

    def __init__(self, settings: Settings) -> None:
        catalog = load_catalog(settings.data_dir)
        for p in catalog.warnings:
            sys.stderr.write(clean(f"Warning: {p}") + "\n")
        self.box = DiceBox.from_models(catalog.dice)
        self.placeholder = {d.letter for d in catalog.dice if d.source == "placeholder"}
        self.defeats_cancel = catalog.config.defeats_cancel_triumphs
        self.insanity_reading = catalog.config.insanity_reroll_reading
        self.insanity_spaces = catalog.insanity.spaces
        self.troupers = {t.id: dict(t.traits) for t in catalog.all("troupers")}


# --------------------------------------------------------------------------- roll


def roll(ask: Values, settings: Settings) -> tuple[dict[str, Any], View]:
    """Roll the pool (or read the physical dice): the JSON document and the lines to show.
    Raises BloodError (a DiceError for a bad pool or face, a UsageError for bad options)."""
    data = Pack(settings)
    pool = parse_pool(_pool(ask), data.box)
    if ask.dice is not None and ask.seed is not None:
        raise UsageError("give either --seed (digital dice) or --dice (your physical dice)")
    seed = ask.seed
    if ask.dice is not None:
        faces = parse_faces(ask.dice, pool, data.box)
        source = "physical"
    else:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        faces = roll_pool(pool, data.box, Chance.fresh(seed, 0))
        source = "digital"
    cancel = data.defeats_cancel
    total = triumph_total(faces, defeats_cancel=cancel)
    placeholder = bool(set(pool) & data.placeholder)
    doc = {
        "pool": list(pool),
        "seed": seed,
        "source": source,
        "faces": [f._asdict() for f in faces],
        "triumphs": total,
        "defeats": sum(f.defeats for f in faces),
        "defeats_cancel_triumphs": cancel,
        "placeholder": placeholder,
    }
    head = f"Rolled {format_pool(pool)}" + (f" (seed {seed})" if source == "digital"
                                            else " (your dice)")
    lines: View = [Text(head, "italic")]
    rows = [[DIE_NAMES[f.die], f.label or "", str(f.triumphs), str(f.defeats or "")] for f in faces]
    lines += grid(["die", "face", "Triumphs", "Defeats"], rows, right=(2, 3), header_style="bold")
    lines.append(Text(f"Triumphs: {total}" + ("  (Defeats cancel Triumphs)" if cancel else ""),
                  "bold green"))
    if placeholder:
        lines += _wrapped(PLACEHOLDER_NOTE, "dim")
    return doc, lines


def _wrapped(text: str, style: str) -> View:
    return [Text(t, style) for t in _wrap(text, width())]


# --------------------------------------------------------------------------- odds


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def odds(ask: Values, settings: Settings) -> tuple[dict[str, Any], View]:
    """The exact odds asked: the JSON document and the lines to show. Raises BloodError."""
    data = Pack(settings)
    box = data.box
    text = _pool(ask)
    label = None
    if ask.trouper is not None or ask.trait is not None:
        if text:
            raise UsageError("give a POOL or --trouper with --trait, not both")
        if ask.trouper is None or ask.trait is None:
            raise UsageError("--trouper and --trait go together")
        traits = data.troupers.get(ask.trouper)
        if traits is None:
            found = find(ask.trouper, [(t, t) for t in data.troupers])
            close = did_you_mean(list(found.ambiguous or found.close))
            ids = ", ".join(data.troupers)
            raise BloodError(f"no Trouper {ask.trouper!r}",
                hint="; ".join(h for h in (close, f"Troupers: {ids}") if h))
        pool: Pool = trait_pool(traits, ask.trait, box)
        label = f"{ask.trouper} {ask.trait.lower()}"
    elif text:
        pool = parse_pool(text, box)
    else:
        raise UsageError('give a POOL (e.g. "R G B") or --trouper ID --trait TRAIT')
    bonus: Pool = parse_pool(" ".join(ask.bonus_dice), box) if ask.bonus_dice else ()
    check_odds_inputs(pool, box, ask.target, ask.reroll, ask.bonus_triumphs, bonus)
    given = {"pool": pool, "bonus_dice": bonus, "bonus_triumphs": ask.bonus_triumphs,
             "rerolls": ask.reroll, "insanity": _insanity(data, ask.insanity, ask.insanity_reading)}
    update, notes = apply_conditions(exhausted=ask.exhausted, knocked_out=ask.knocked_out)
    used = {**given, **update}
    result = solve(used.pop("pool"), box, ask.target, **used, defeats_cancel=data.defeats_cancel)
    placeholder = bool(set((*pool, *bonus, *result.pool)) & data.placeholder)
    doc = {
        "pool": list(pool),
        "target": ask.target,
        "reroll": ask.reroll,
        "probability": float(result.probability),
        "exact": _exact(result.probability),
        "rolled_pool": list(result.pool),
        "bonus_triumphs": result.bonus_triumphs,
        "bonus_dice": list(bonus),
        "substitutions": [s._asdict() for s in result.substitutions],
        "rerolls_used": result.rerolls,
        "insanity": None if result.insanity is None else result.insanity._asdict(),
        "exhausted": ask.exhausted,
        "knocked_out": ask.knocked_out,
        "trouper": label,
        "defeats_cancel_triumphs": result.defeats_cancel,
        "distribution": [
            {"triumphs": t, "probability": float(p), "exact": _exact(p)}
            for t, p in result.distribution
        ],
        "placeholder": placeholder,
    }
    return doc, _odds_lines(pool, ask, label, bonus, result, notes, placeholder)


def _insanity(data: Pack, cube: int | None, reading: str | None) -> Any:
    if cube is None:
        if reading is not None:
            raise UsageError("--insanity-reading goes with --insanity N")
        return None
    chosen = (reading or data.insanity_reading).replace("-", "_")
    if chosen in ("any_dice", "one_die"):
        return insanity_bonuses(data.insanity_spaces, cube, chosen)  # type: ignore[arg-type]
    raise UsageError(f"--insanity-reading is any-dice or one-die, not {reading!r}")


def _insanity_words(result: OddsResult) -> str:
    ins = result.insanity
    assert ins is not None
    bits = []
    if ins.reroll:
        bits.append("Re-roll" if ins.reroll_max_dice is None
                    else f"Re-roll {ins.reroll_max_dice} die")
    if ins.triumphs:
        bits.append(f"+{ins.triumphs} Triumph{'s' if ins.triumphs > 1 else ''}")
    return " or ".join(bits)


def _odds_lines(pool: Pool, ask: Values, label: str | None, bonus: Pool, result: OddsResult,
                notes: tuple[str, ...], placeholder: bool) -> View:
    p = result.probability
    asked = format_pool(pool)
    if label:
        asked = f"{label} ({asked})"
    extras = []
    if result.rerolls:
        extras.append(f"{result.rerolls} Re-roll{'s' if result.rerolls != 1 else ''}")
    if result.bonus_triumphs:
        extras.append(f"+{result.bonus_triumphs} Triumph{'s' if result.bonus_triumphs > 1 else ''}")
    if result.insanity:
        extras.append("Insanity: " + _insanity_words(result))
    head = (f"{asked}, target {ask.target}" + ((", " + ", ".join(extras)) if extras else "")
            + f": {float(p):.2%}  (exactly {_exact(p)})")
    lines: View = _wrapped(head, "bold green" if p >= Fraction(1, 2) else "bold yellow")
    for note in notes:
        lines += _wrapped(note, "")
    if result.substitutions:
        moves = ", ".join(f"{s.bonus} replaces {s.replaced} (die {s.slot + 1})"
                          for s in result.substitutions)
        lines += _wrapped(f"Best Bonus Dice: {moves} → roll {format_pool(result.pool)}", "")
    elif bonus and not ask.knocked_out:
        lines += _wrapped("Best Bonus Dice: keep the dice as they are (no replacement helps).", "")
    if result.rerolls or (result.insanity and result.insanity.reroll):
        lines += _wrapped("Re-rolls assume the best choice after each roll (see each die, "
                          "re-roll the ones that raise the chance most).", "dim")
    top = max((q for _, q in result.distribution), default=Fraction(0))
    rows, styles = [], []
    for t, q in result.distribution:
        bar = "█" * round(BAR_WIDTH * q / top) if top else ""
        rows.append([str(t), bar, f"{float(q):6.2%}", f"{float(result.at_least(t)):6.2%}"])
        styles.append("green" if t >= (ask.target or 0) else "red")
    lines += grid(
        ["Triumphs", "", "exactly", "at least"], rows, right=(0, 2, 3), styles=styles, width=100
    )
    if placeholder:
        lines += _wrapped(PLACEHOLDER_NOTE, "dim")
    return lines


# --------------------------------------------------------------------------- the command line


def show(doc: dict[str, Any], lines: View, as_json: bool) -> None:
    """Print a dice answer: its JSON document (``ok`` first) or its lines."""
    if as_json:
        print_doc(doc)
    else:
        print_view(lines)


def register(app: Any) -> None:
    """`blood roll` and `blood odds` in the typer app, made of :data:`ROLL` and :data:`ODDS`."""
    odds_help = (SUMMARIES["odds"] + "\n\nRe-rolls, Bonus Dice and the Insanity bonus are played "
                 "as well as possible.")
    for name, table, text in (("roll", ROLL, SUMMARIES["roll"]), ("odds", ODDS, odds_help)):
        def run(ask: Values, name: str = name) -> None:
            doc, lines = (roll if name == "roll" else odds)(ask, current())
            show(doc, lines, ask.as_json)

        add_command(app, name, table, run, help=text, short_help=SUMMARIES[name])
