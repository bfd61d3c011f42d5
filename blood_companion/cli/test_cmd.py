"""`blood test`: a Trouper's seven-step Test inside a campaign, recorded on the log."""

from __future__ import annotations

import sys

import typer
from rich.table import Table

from blood_companion.cli import session
from blood_companion.cli.common import declare_command, print_json, stderr, stdout
from blood_companion.cli.flags import JSON, Opt
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import DiceBox, format_face, format_faces, format_pool, roll_pool
from blood_companion.engine.errors import DiceError, RuleError
from blood_companion.engine.legal import Ask
from blood_companion.engine.rolls.night import throws_ask
from blood_companion.engine.rolls.procedure import (
    APP_ROLLED,
    TestResult,
    TestState,
    confirm_test,
    odds_for_test,
    parse_reroll,
    prepare_test,
    replay_throws,
    reroll_test,
)
from blood_companion.engine.rolls.recorded import TakeTest, setup_for_test


def register(app: typer.Typer) -> None:
    declare_command(app, "test", *OPTIONS, short_help=SUMMARIES["test"])(test)


def _faces_prompt(q: Ask, dice: tuple[str, ...]) -> str:
    while True:
        text = typer.prompt(f"Faces of {format_pool(dice)} (e.g. 2 x 1)", err=True)
        try:
            return _checked(q, text)
        except DiceError as exc:
            stderr.print(f"[red]{exc.message}[/]")


def _checked(q: Ask, text: str) -> str:
    """Faces typed, as typed (a face label too), once the question's reader accepts them."""
    assert q.parse is not None
    q.parse(text)
    return text


def _show_faces(ts: TestState) -> None:
    shown = "  ".join(f"{i + 1}:{d}={f.triumphs}{'x' * f.defeats}"
                      for i, (d, f) in enumerate(zip(ts.pool, ts.faces, strict=True)))
    stderr.print(f"Dice: {shown}")


def run_interactive(ts: TestState, box: DiceBox, rng: Chance, *, auto: bool, physical: bool,
                    first_faces: str | None, reroll_faces: list[str], quiet: bool,
                    choices: list[str] | None = None) -> TestResult:
    """Steps 4-7 with the players, through the questions `blood play` asks of a Test
    (engine/rolls/night.py ``throws_ask``): the roll (or typed faces), Re-rolls chosen by them
    or by the optimal policy (--auto), then confirm."""
    answers: dict[str, list[str]] = {"dice": [], "reroll": []}
    queued = list(reroll_faces)
    picks = list(choices or [])
    while (q := throws_ask(ts, box, answers, key="", who="", target=ts.setup.target,
                           keep_at_best=False)) is not None:
        now = replay_throws(ts, box, answers["dice"], answers["reroll"])
        if q.need == "dice":  # a throw: the roll, or the dice of the Re-roll just chosen
            slots = answers["reroll"] and parse_reroll(answers["reroll"][-1], len(ts.pool))[0]
            dice = tuple(ts.pool[s] for s in slots) if slots else ts.pool
            text = first_faces if not slots else (queued.pop(0) if queued else None)
            if text is not None:
                text = _checked(q, text)
            elif physical or (slots and first_faces is not None):
                if slots:
                    if quiet:
                        raise RuleError("give the faces of each Re-roll with --reroll-dice")
                    stderr.print(f"Re-roll die {', '.join(str(s + 1) for s in slots)}.")
                text = _faces_prompt(q, dice)
            else:  # the app rolls; the faces by label, so the record keeps the very faces
                faces = roll_pool(dice, box, rng)
                text = f"{APP_ROLLED} " + " ".join(f.label or format_face(f) for f in faces)
            answers["dice"].append(text)
            continue
        if not quiet:
            _show_faces(now)
        best = next((p.value for p in q.picks if p.key == "b"), None)
        if choices is not None:
            if not picks:
                break
            text = picks.pop(0)
        elif auto:
            if best is None:
                break
            text = str(best)
        else:
            hint = str(best).replace("i:", "i ").replace(",", " ") if best else "confirm"
            left = f"{now.rerolls_left} Re-roll(s) left"
            if now.insanity is not None and now.insanity.reroll:
                left += ", Insanity Re-roll available (prefix i)"
            text = typer.prompt(f"Re-roll which dice? ({left}; Enter confirms; best: {hint})",
                default="", show_default=False, err=True)
            if not text.strip():
                break
        try:
            slots, insanity = parse_reroll(text, len(ts.pool))
        except DiceError as exc:
            if choices is not None:
                raise
            stderr.print(f"[red]{exc.message}[/]")
            continue
        # refused now (no such Re-roll left) as the Re-roll itself would be, before its dice
        reroll_test(now, box, slots, insanity=insanity, faces=[now.faces[s] for s in slots])
        answers["reroll"].append(text)
    return confirm_test(replay_throws(ts, box, answers["dice"], answers["reroll"]))


# `blood test`'s options, in the order its help lists them.
OPTIONS = (
    Opt("trouper", help="Trouper id, colour or seat number.", complete="trouper", required=True),
    Opt("trait", help="strength, dexterity, cunning or madness."),
    Opt("target", "--target", "-t", kind="int", help="Triumphs needed.", required=True),
    Opt("pool", "--pool", help='A given pool instead of a Trait, e.g. "2B R".'),
    Opt("bonus_triumphs", "--bonus-triumphs", kind="int", default=0,
        help="Bonus Triumphs from Effects."),
    Opt("bonus_dice", "--bonus-dice", kind="list", help="A Bonus Die (G or B); repeat."),
    Opt("rerolls", "--rerolls", kind="int", default=0, help="Re-rolls granted by Effects."),
    Opt("auto", "--auto", kind="flag", default=False, help="Play Re-rolls by the optimal policy."),
    Opt("physical", "--physical", kind="flag", default=False, help="Type in your physical dice."),
    Opt("dice", "--dice", help='Faces of the physical roll, e.g. "2 x 1".'),
    Opt("reroll", "--reroll", kind="list",
        help='Dice to re-roll, by number ("1 3"; "i 2" for the Insanity Re-roll); repeat for '
        "each Re-roll. Without it you are asked (or --auto chooses)."),
    Opt("reroll_dice", "--reroll-dice", kind="list",
        help="Faces of each physical Re-roll, in order; repeat."),
    JSON,
)


def test(
    *, trouper: str, trait: str | None, target: int, pool: str | None, bonus_triumphs: int,
    bonus_dice: list[str], rerolls: int, auto: bool, physical: bool, dice: str | None,
    reroll: list[str], reroll_dice: list[str], as_json: bool,
) -> None:
    """Take a Test (all seven steps): odds first, then the roll, Re-rolls and the result.

    The Insanity cube moves one space right after a Failure; undo restores it.
    """
    letters = [x for b in bonus_dice for x in b.upper().split()]
    with session.open_session() as store:
        state = store.state
        catalog = store.catalog
        box = DiceBox.from_models(catalog.dice)
        idx, setup = setup_for_test(state, catalog, trouper, target=target,
            trait=trait.lower() if trait else None, dice=pool, bonus_triumphs=bonus_triumphs,
            bonus_dice=tuple(letters), rerolls=rerolls)
        chance = odds_for_test(setup, box)
        quiet = as_json or not sys.stdin.isatty()
        ts = prepare_test(setup, box)
        if not as_json:
            name = state.troupers[idx].trouper
            p = chance.probability
            stdout.print(f"{name}: {setup.label} Test, {format_pool(chance.pool)} against "
                         f"{target} - chance {float(p):.1%} ({p})")
            for note in ts.notes:
                stdout.print(f"  note: {note}")
        result = run_interactive(ts, box, Chance.fresh(state.seed, store.head),
                                 auto=auto or as_json, physical=physical, first_faces=dice,
                                 reroll_faces=reroll_dice, quiet=quiet,
                                 choices=reroll or None)
        before = state.troupers[idx].insanity
        taken = TakeTest(trouper=state.troupers[idx].trouper,
                         trait=trait.lower() if trait else None, dice=pool, result=result)
        new_state = session.record(taken, store)
    after = new_state.troupers[idx].insanity
    if as_json:
        print_json({
            "trouper": new_state.troupers[idx].trouper,
            "label": setup.label,
            "pool": list(result.pool),
            "target": target,
            "probability": float(chance.probability),
            "exact": f"{chance.probability.numerator}/{chance.probability.denominator}",
            "rolls": [r.model_dump(mode="json") for r in result.rolls],
            "faces": [f._asdict() for f in result.faces],
            "dice_triumphs": result.dice_triumphs,
            "bonus_triumphs": result.bonus_triumphs + result.insanity_triumphs,
            "insanity_used": result.insanity_used,
            "total": result.total,
            "success": result.success,
            "insanity": {"before": before, "after": after},
            "instructions": session.told(state, new_state, catalog),
        })
        return
    table = Table(show_header=True, title="Test", title_justify="left")
    table.add_column("throw")
    table.add_column("dice")
    table.add_column("faces")
    for r in result.rolls:
        table.add_row(r.kind.replace("_", " "), " ".join(result.pool[s] for s in r.slots),
            format_faces(r.faces) + ("" if r.source == "digital" else " (typed)"))
    stdout.print(table)
    extra = result.bonus_triumphs + result.insanity_triumphs
    verdict = "[bold green]Success[/]" if result.success else "[bold red]Failure[/]"
    stdout.print(f"Triumphs: {result.dice_triumphs}" + (f" + {extra} bonus" if extra else "")
                 + f" = {result.total} against {target}: {verdict}")
    if after != before:
        stdout.print(f"Insanity cube moves right: space {before + 1} -> {after + 1}.")
    session.tell(state, new_state, catalog)
