"""`blood end ...`: the End of the Night (rewards) and the step into the next game."""

from __future__ import annotations

import typer
from rich.table import Table

from blood_companion.cli import session
from blood_companion.cli.common import JSON_HELP, print_json, stdout
from blood_companion.engine.actions import Action
from blood_companion.engine.endgame import (
    EndNight,
    FinishGame,
    RollLoot,
    TakeAdvancedTactic,
    WeakenVlad,
    rewards_next,
)
from blood_companion.engine.state import CampaignState

end_app = typer.Typer(
    help="End of the Night: clear the board, take the rewards, start the next game.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(end_app, name="end")


def rewards_json(state: CampaignState) -> dict[str, object]:
    rw = state.rewards
    return {
        "part": state.part,
        "phase": state.phase,
        "game": state.game,
        "wagon": state.wagon.as_dict(),
        "rewards": rw.model_dump(mode="json") if rw else None,
        "next": rewards_next(state) or _after(state),
    }


def _after(state: CampaignState) -> str:
    if state.part == "day":
        return f"Game {state.game} begins with the Day Part (blood day next)."
    if state.part == "over":
        return "The game is over."
    return ""


def show_rewards(state: CampaignState, before: CampaignState | None = None) -> None:
    rw = state.rewards
    if rw is None:
        stdout.print(_after(state))
        return
    title = "Victory" if rw.result == "won" else "Defeat"
    table = Table(title=f"End of the Night: {title} against {rw.nemesis}", title_justify="left")
    table.add_column("reward")
    table.add_column("still to take / taken")
    if rw.result == "won":
        table.add_row(
            "Vlad cards to weaken", f"{rw.vlad_cards} (done: {', '.join(rw.weakened) or '-'})"
        )
        table.add_row(
            "Trophy tokens", ", ".join(f"{k} x{v}" for k, v in rw.trophies.items()) or "-"
        )
        table.add_row(
            "Advanced Tactic cards", f"{rw.advanced_tactics} (taken: {len(rw.tactics_taken)})"
        )
    loot = ", ".join(f"{p.dice} for {p.resource}" for p in rw.loot) or "-"
    table.add_row("Loot rolls", loot)
    table.add_row("Gained", ", ".join(f"{v} {k}" for k, v in rw.gained.items()) or "-")
    stdout.print(table)
    if before is not None and before.wagon != state.wagon:
        diff = {
            k: state.wagon.as_dict()[k] - before.wagon.as_dict()[k] for k in state.wagon.as_dict()
        }
        stdout.print(
            "Wagon: "
            + ", ".join(f"{v:+d} {k}" for k, v in diff.items() if v)
            + f"  (now {state.wagon.total()} Resources)"
        )
    stdout.print(f"[bold]Next:[/] {rewards_next(state)}")


def _do(action: Action, as_json: bool) -> None:
    with session.open_session() as store:
        before = store.state
        state = session.record(action, store)
    if as_json:
        print_json(rewards_json(state))
    else:
        show_rewards(state, before)


@end_app.command("night")
def end_night(as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Close a won or lost night: clear the board and read the Location card's rewards."""
    _do(EndNight(), as_json)


@end_app.command("next")
def end_next(as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """What the table does now at the End of the Night."""
    with session.open_session() as store:
        state = store.state
    if as_json:
        print_json(rewards_json(state))
    else:
        show_rewards(state)


@end_app.command("weaken")
def weaken(
    cards: list[str] = typer.Argument(..., help="Vlad Reaction card ids of the night's Zone."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Turn Vlad Reaction cards of the night's Zone to their Weakened side."""
    _do(WeakenVlad(cards=cards), as_json)


@end_app.command("take")
def take(
    art: str = typer.Argument(..., help="The Art deck to take the top card of."),
    trouper: str = typer.Argument(..., help="Who gets it (Trouper id, colour or seat)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Take the top Advanced Tactic card of an Art into a Trouper's Personal Reserve."""
    _do(TakeAdvancedTactic(art=art.lower(), trouper=trouper), as_json)


@end_app.command("loot")
def loot(
    dice: str = typer.Option(
        None, "--dice", help='Physical dice as you see them, e.g. "2 x 1" (else rolled here).'
    ),
    resource: str = typer.Option(None, "--resource", help="Your choice when the roll gives any."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Make the next loot roll (or the defeat roll) into the Wagon."""
    _do(RollLoot(faces=dice, resource=resource.lower() if resource else None), as_json)


@end_app.command("finish")
def finish(
    forfeit: bool = typer.Option(False, "--forfeit", help="Leave untaken rewards behind."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Finish the game: record it in the history and start the next Day (Roguelite)."""
    _do(FinishGame(forfeit=forfeit), as_json)
