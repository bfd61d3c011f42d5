"""`blood campaign ...`: start, show, log, undo/redo, marks, export/import, verify, recover.

Each command parses its options, calls the store (through ``cli.session``) and renders. With
``--json`` a command prints exactly one JSON document (``log --json``: one JSON line per step).
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from blood_companion.cli import session
from blood_companion.cli.common import JsonOpt, print_json, stderr, stdout
from blood_companion.display import json_text
from blood_companion.engine.campaign import (
    AddTrouper,
    AdjustTrophies,
    AdjustWagon,
    NextSingleGame,
    RetireTrouper,
    Seat,
    SetLeader,
    StartCampaign,
    table_setup,
)
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState
from blood_companion.errors import BloodError, UsageError
from blood_companion.fileio import check_file_path
from blood_companion.store import CampaignStore, StoreError, saves
from blood_companion.store.manage import delete_campaign, list_campaigns, recover_campaign
from blood_companion.store.names import check_campaign_name
from blood_companion.store.transfer import export_campaign, import_campaign

campaign_app = typer.Typer(
    help="Campaigns: start one, see it, undo/redo, marks, export/import, verify, recover.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(campaign_app, name="campaign")


# ---------------------------------------------------------------------- rendering


def summary(store: CampaignStore) -> dict[str, Any]:
    """The `show --json` document (also printed by commands that change the campaign)."""
    st = store.state
    return {
        "name": store.name,
        "mode": st.mode,
        "seed": st.seed,
        "game": st.game,
        "part": st.part,
        "phase": st.phase,
        "log_length": store.log_length,
        "head": store.head,
        "redo": store.redo_available,
        "state_hash": store.state_hash,
        "leader": st.troupers[st.leader].trouper if st.troupers else None,
        "troupers": [
            {
                "seat": t.seat + 1,
                "trouper": t.trouper,
                "colour": t.colour,
                "deck_size": len(t.deck),
                "bites": t.bites,
                "insanity": t.insanity,
                "items": [s.item + ("+" if s.advanced else "") for s in t.sleeves],
            }
            for t in st.troupers
        ],
        "set_aside": [
            {
                "trouper": t.trouper,
                "colour": t.colour,
                "deck_size": len(t.deck),
                "reserve_cards": len(t.reserve_cards),
                "reserve_items": len(t.reserve_items),
                "bites": t.bites,
                "items": [s.item + ("+" if s.advanced else "") for s in t.sleeves],
            }
            for t in st.set_aside
        ],
        "wagon": st.wagon.as_dict(),
        "location_trophies": st.location_trophies,
        "nemesis_trophies": st.nemesis_trophies,
        "games_played": len(st.history),
        "file": str(store.path),
    }


def _print_show(store: CampaignStore) -> None:
    doc = summary(store)
    st: CampaignState = store.state
    where = f"game {doc['game']}, {doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else "")
    stdout.print(Text.assemble(
        (store.name, "bold"), f"  {doc['mode']} · seed {doc['seed']} · {where}"
    ))
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    for col in ("seat", "trouper", "deck", "bites", "insanity", "items"):
        table.add_column(col, justify="right" if col in ("seat", "deck", "bites", "insanity")
                         else "left")
    from blood_companion.engine import narrate

    cat = store.catalog
    for i, t in enumerate(doc["troupers"]):
        who = narrate.trouper_name(cat, t["trouper"]) + (" (leader)" if i == st.leader else "")
        items = []
        for raw in t["items"]:
            item = cat.item(raw.rstrip("+"))
            side = item.advanced if item is not None and raw.endswith("+") else (
                item.starting if item is not None else None)
            items.append(side.name if side is not None else raw)
        table.add_row(str(t["seat"]), who, str(t["deck_size"]), str(t["bites"]),
                      str(t["insanity"]), ", ".join(items))
    stdout.print(table)
    if doc["set_aside"]:
        away = [
            f"{t['trouper']} ({t['colour']}, {t['deck_size']} cards, {t['reserve_cards']} in "
            f"the Reserve, {t['bites']} Bites)"
            for t in doc["set_aside"]
        ]
        stdout.print("Set aside (rejoin with add-trouper): " + "; ".join(away))
    wagon = ", ".join(f"{v} {k}" for k, v in doc["wagon"].items())
    stdout.print(f"Wagon: {wagon}")
    trophies = {**doc["location_trophies"], **doc["nemesis_trophies"]}
    if trophies:
        stdout.print("Trophies: " + ", ".join(f"{_named(k)} ×{v}" for k, v in trophies.items()))
    redo = f", {doc['redo']} undone (redo-able)" if doc["redo"] else ""
    stdout.print(Text(f"Log: {doc['log_length']} steps{redo}", style="dim"))


def _changed(store: CampaignStore, as_json: bool, message: str, **extra: Any) -> None:
    session.refresh_status(store)
    if as_json:
        print_json({"ok": True, **extra, **summary(store)})
    else:
        stdout.print(message)


# ---------------------------------------------------------------------- commands


def start_action(
    name: str,
    troupers: str | None,
    players: int | None,
    mode: str,
    seed: int | None,
    colours: str | None = None,
    leader: str | None = None,
    decks: str | None = None,
) -> StartCampaign:
    """The first action of a campaign from the options of `campaign new` / `play --new`.

    ``--troupers`` names the Troupers ("random" for a seat whose Trouper is drawn); ``--players
    N`` draws the Troupers nobody named; ``--colours`` names them in seat order or says
    "random"; ``--leader`` names a seat number, a named Trouper or "random" ("Player Setup")."""
    if mode not in ("roguelite", "single"):
        raise UsageError(f"unknown mode {mode!r}", hint="--mode roguelite or --mode single")
    name = check_campaign_name(name)
    ids = [t.strip().lower() for t in (troupers or "").split(",") if t.strip()]
    if players is not None:
        if players < 1:
            raise UsageError("--players needs at least 1")
        if len(ids) > players:
            raise UsageError(f"--troupers names {len(ids)} Troupers for {players} players")
        ids += ["random"] * (players - len(ids))
    if not ids:
        raise UsageError(
            "say who plays: --troupers A,B[,C,D], or --players N to draw the Troupers at random",
            hint="e.g. --troupers aurel,zora or --players 2",
        )
    seats = [Seat(trouper=None if t in ("random", "?") else t) for t in ids]
    random_colours = False
    if colours is not None:
        names = [c.strip().lower() for c in colours.split(",") if c.strip()]
        if names == ["random"]:
            random_colours = True
        else:
            if len(names) > len(seats):
                raise UsageError(f"--colours names {len(names)} colours for {len(seats)} seats")
            seats = [
                Seat(trouper=s.trouper, colour=names[i] if i < len(names) else None)
                for i, s in enumerate(seats)
            ]
    lead, random_leader = 0, False
    if leader is not None:
        key = leader.strip().lower()
        if key in ("random", "?"):
            random_leader = True
        elif key.isdigit() and 1 <= int(key) <= len(seats):
            lead = int(key) - 1
        elif key in ids:
            lead = ids.index(key)
        else:
            raise UsageError(
                f"--leader {leader!r} is neither a seat number (1 to {len(seats)}), a Trouper "
                "named by --troupers nor random"
            )
    if seed is None:
        seed = secrets.randbelow(10**9)
    from blood_companion.cli.decks import holders_from_text

    try:
        held = holders_from_text(decks)
    except BloodError as exc:
        raise UsageError(exc.message, hint="--decks app, --decks table or "
                         "--decks troupers=table,reactions=table") from None
    return StartCampaign(
        name=name,
        mode=mode,
        seed=seed,
        seats=seats,
        leader=lead,
        random_colours=random_colours,
        random_leader=random_leader,
        decks={k: v for k, v in held.items() if v == "table"} or None if held else None,
    )


def print_setup(plan: dict[str, Any]) -> None:
    """The physical Setup as a checklist, from the engine's :func:`table_setup`."""
    from blood_companion.cli.setup_view import checklist

    for title, lines in checklist(plan):
        stdout.print(Text(title, style="bold"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for line in lines:
            grid.add_row("  [ ]", Text(line))
        stdout.print(grid)


@campaign_app.command("new")
def new(
    name: str = typer.Argument(..., help="Campaign name (becomes the save file's name)."),
    troupers: str = typer.Option(
        None, "--troupers", help='Trouper ids, comma-separated: A,B[,C,D] ("random" draws one).'
    ),
    players: int = typer.Option(
        None, "--players", help="How many players; the Troupers not named are drawn at random."
    ),
    mode: str = typer.Option("roguelite", "--mode", help="roguelite or single."),
    seed: int = typer.Option(None, "--seed", help="Random seed [a new random one]."),
    colours: str = typer.Option(
        None, "--colours", help='Colours in seat order, or "random" [the first free ones].'
    ),
    leader: str = typer.Option(
        None, "--leader", help='Who takes the Leader token: seat, Trouper or "random" [seat 1].'
    ),
    decks: str = typer.Option(
        None, "--decks", help="Who holds the decks: app (the app shuffles, draws and names "
        "each card), table (you draw the real cards and tell the app), or DECK=table,... "
        "[asked on a terminal; else app]. `blood campaign decks` changes it later."
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Start a campaign: the table, the mode and the seed become step 1 of its log; then the
    physical Setup as a checklist."""
    if decks is None and not as_json and sys.stdin.isatty():
        from blood_companion.cli.decks import ask_holders

        decks = ask_holders() or "app"
    start = start_action(name, troupers, players, mode, seed, colours, leader, decks)
    folder = session.saves_dir()
    with CampaignStore.create(folder, start.name, start, session.catalog) as store:
        saves.write_last_used(folder, store.name)
        plan = table_setup(store.state, store.catalog)
        if as_json:
            print_json({"ok": True, **summary(store), "setup": plan})
            return
        from blood_companion.engine.table import holders_text
        from blood_companion.engine.words import sentence

        who = ", ".join(f"{s['name']} ({s['colour']})" for s in plan["seats"])
        stdout.print(Text(f"{sentence(start, store.catalog)}\nAt the table: {who}.",
                          style="green"))
        stdout.print(Text(holders_text(store.state) + " (`blood campaign decks` changes it.)"))
        print_setup(plan)
        stdout.print(Text(f"Saved in {store.path}", style="dim"))


@campaign_app.command("list")
def list_(as_json: bool = JsonOpt) -> None:
    """The campaigns in the saves folder (* = used last)."""
    folder = session.saves_dir()
    infos = list_campaigns(folder)
    last = saves.read_last_used(folder)
    if as_json:
        print_json({
            "saves_dir": str(folder),
            "last_used": last,
            "campaigns": [i.to_json() | {"last_used": i.name == last} for i in infos],
        })
        return
    if not infos:
        stdout.print(f"No campaigns in {folder}. `blood campaign new NAME --troupers A,B` "
                     "starts one.")
        return
    table = Table(box=None, pad_edge=False, header_style="dim")
    for col in ("", "name", "mode", "game", "part", "steps", "modified"):
        table.add_column(col)
    for i in infos:
        star = "*" if i.name == last else ""
        if i.error:
            table.add_row(star, i.name, Text(f"unreadable: {i.error}", style="red"), "", "", "",
                          i.modified)
        else:
            table.add_row(star, i.name, i.mode, str(i.game), i.part, str(i.log_length),
                          i.modified)
    stdout.print(table)


@campaign_app.command("show")
def show(as_json: bool = JsonOpt) -> None:
    """The campaign at a glance: table, Troupers, Wagon, trophies, log length, the history of
    its games and the totals (nights won and lost, Vlad cards weakened, Resources)."""
    from blood_companion.engine.history import campaign_totals, history_rows

    with session.open_session() as store:
        st = store.state
        rows = history_rows(st)
        totals = campaign_totals(st)
        if as_json:
            print_json({**summary(store), "history": rows, "totals": totals})
        else:
            _print_show(store)
            _print_history(rows, totals)


def _named(cid: str | None) -> str:
    """A card's name as printed ("-" for none)."""
    if not cid:
        return "-"
    from blood_companion.engine import narrate

    return narrate.record_name(session.catalog(), cid)


def _short(d: dict[str, int]) -> str:
    return " ".join(f"{n}{k[0].upper()}" for k, n in d.items() if n)


def _print_history(rows: list[dict[str, Any]], totals: dict[str, Any]) -> None:
    if not rows:
        return
    table = Table(box=None, pad_edge=False, header_style="dim", title="History",
                  title_justify="left", title_style="bold")
    for col in ("#", "P", "nemesis", "location", "lv", "result", "rewards"):
        table.add_column(col, justify="right" if col in ("#", "P", "lv") else "left")
    for r in rows:
        got = []
        if r["resources"]:
            got.append("+" + _short(r["resources"]))
        if r["spent"]:
            got.append(f"-{r['spent']}R")
        if r["trophies"]:
            got.append(f"{sum(r['trophies'].values())} troph.")
        if r["advanced_tactics"]:
            got.append(f"{len(r['advanced_tactics'])} tact.")
        if r["vlad_weakened"]:
            got.append(f"{len(r['vlad_weakened'])} Vlad")
        if r["box_reset"]:
            got.append("box reset")
        result = (r["result"] or "-") + (" …" if r["pending"] else "")
        style = "green" if r["result"] == "won" else "red" if r["result"] == "lost" else ""
        table.add_row(str(r["game"]), str(len(r["troupers"])), _named(r["nemesis"]),
                      _named(r["location"]), str(r["difficulty"] or "-"),
                      Text(result, style=style), ", ".join(got) or "-")
    stdout.print(table)
    per = ", ".join(f"{_named(n)} {c['won']}-{c['lost']}"
                    for n, c in totals["by_nemesis"].items())
    stdout.print(f"Nights won-lost: {totals['won']}-{totals['lost']} ({per})")
    stdout.print(
        f"Vlad cards weakened: {totals['vlad_cards_weakened']} in all, "
        f"{totals['vlad_weakened_now']} of {totals['vlad_cards']} now; "
        f"Vlad defeated {totals['vlad_defeats']}×"
    )
    stdout.print(f"Resources earned {totals['resources_earned']}, spent "
                 f"{totals['resources_spent']}; Advanced Tactic cards won "
                 f"{totals['advanced_tactics_won']}")


@campaign_app.command("log")
def log(
    as_json: bool = typer.Option(False, "--json", help="One JSON object per step (JSON lines)."),
    all_: bool = typer.Option(False, "--all", help="Also list abandoned (replaced) steps."),
) -> None:
    """The numbered log in sentences; undone steps are dimmed, the head is marked."""
    with session.open_session() as store:
        entries = store.log(include_abandoned=all_)
        head = store.head
        results = {} if as_json else store.step_results()
        cat = store.catalog
    if as_json:
        for e in entries:
            sys.stdout.write(json_text(e.to_json(), indent=None) + "\n")
        sys.stdout.flush()
        return
    width = len(str(max((e.step for e in entries), default=1)))
    for e in entries:
        marks = "".join(f"  [{m}]" for m in e.marks)
        if e.status == "abandoned":
            stdout.print(Text(f"  {'x':>{width}}  {e.sentence}  (abandoned)", style="dim strike"))
            continue
        pointer = "→" if e.step == head else " "
        line = Text(f"{pointer} {e.step:>{width}}. {e.sentence}")
        if marks:
            line.append(marks, style="cyan")
        if e.status == "undone":
            line.stylize("dim")
            line.append("  (undone)", style="dim italic")
        stdout.print(line, soft_wrap=True)
        if e.status == "done":
            from blood_companion.cli.log_words import result_lines

            for text in result_lines(results.get(e.step) or {}, cat, e.sentence):
                stdout.print(Text(f"  {'':>{width}}  {text}", style="dim"), highlight=False,
                             soft_wrap=True)


@campaign_app.command("undo")
def undo(
    n: int = typer.Argument(1, help="How many steps to take back."),
    to: str = typer.Option(None, "--to", help="Jump to a step number or a mark instead."),
    as_json: bool = JsonOpt,
) -> None:
    """Take back the last N steps (they stay redo-able until a new action replaces them)."""
    with session.open_session() as store:
        before = store.head
        if to is not None:
            store.undo_to(to)
        else:
            store.undo(n)
        _changed(store, as_json, f"Back to step {store.head} (was {before}); "
                 f"{store.redo_available} step(s) can be redone.", undone=before - store.head)


@campaign_app.command("redo")
def redo(
    n: int = typer.Argument(1, help="How many undone steps to re-apply."),
    as_json: bool = JsonOpt,
) -> None:
    """Re-apply N undone steps."""
    with session.open_session() as store:
        before = store.head
        store.redo(n)
        _changed(store, as_json, f"Redone to step {store.head} (was {before}).",
                 redone=store.head - before)


@campaign_app.command("mark")
def mark(
    name: str = typer.Argument(..., help='A save point name, e.g. "before Lucilla".'),
    move: bool = typer.Option(False, "--move", help="Move an existing mark to this step."),
    as_json: bool = JsonOpt,
) -> None:
    """Name the current step; `undo --to NAME` comes back to it."""
    with session.open_session() as store:
        step = store.mark(name, move=move)
        _changed(store, as_json, f"Marked step {step} as {name.strip()!r}.",
                 mark=name.strip(), step=step)


@campaign_app.command("export")
def export(
    file: Path = typer.Argument(..., help="JSON file to write."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing file."),
    as_json: bool = JsonOpt,
) -> None:
    """Write the whole campaign (log, marks, state) as readable JSON."""
    check_file_path(file, "the export file")
    with session.open_session() as store:
        export_campaign(store, file, force=force)
        _changed(store, as_json, f"Exported {store.name!r} ({store.log_length} steps) to {file}.",
                 exported=str(file))


@campaign_app.command("import")
def import_(
    file: Path = typer.Argument(..., help="A file written by `blood campaign export`."),
    name: str = typer.Option(None, "--name", help="Store it under this name [the file's]."),
    replace: bool = typer.Option(False, "--replace",
                                 help="Replace a campaign of that name (backed up first)."),
    as_json: bool = JsonOpt,
) -> None:
    """Check the whole file (every action replayed), then store it as a campaign."""
    check_file_path(file, "the file to import")
    folder = session.saves_dir()
    stored = import_campaign(folder, file, session.catalog(), name=name, replace=replace)
    with CampaignStore.open(folder, stored, session.catalog) as store:
        saves.write_last_used(folder, stored)
        _changed(store, as_json, f"Imported {file} as {stored!r} ({store.log_length} steps).",
                 imported=str(file))


@campaign_app.command("delete")
def delete(
    name: str = typer.Argument(..., help="The campaign to delete."),
    as_json: bool = JsonOpt,
) -> None:
    """Delete a campaign; a copy stays in the backups folder (`recover` brings it back)."""
    folder = session.saves_dir()
    kept = delete_campaign(folder, name)
    if as_json:
        print_json({"ok": True, "deleted": name, "kept_copy": str(kept)})
        return
    stdout.print(f"Deleted {name!r}. A copy is kept in {kept}; "
                 f"`blood campaign recover --campaign {name}` restores it.")


@campaign_app.command("verify")
def verify(as_json: bool = JsonOpt) -> None:
    """Check every recorded step; replay those recorded with this app and data pack."""
    with session.open_session() as store:
        report = store.verify()
    doc = {"ok": report.ok, "name": store.name, "steps": report.steps, "head": report.head,
           "state_hash": report.state_hash, "problems": report.problems,
           "replayed": report.replayed, "kept_as_recorded": report.kept}
    if not report.ok:
        err = StoreError(
            f"{store.path} does not verify: " + "; ".join(report.problems),
            hint="`blood campaign recover` restores the newest good backup",
        )
        if as_json:
            print_json(doc)
            stderr.print(Text.assemble(("Error: ", "bold red"), err.message))
            raise typer.Exit(1)
        raise err
    if as_json:
        print_json(doc)
        return
    stdout.print(
        f"{store.name}: all {report.steps} steps are stored intact; {report.replayed} recorded "
        "with this app and data pack replay to the same state."
    )
    for line in report.kept:
        stdout.print(f"  {line}", markup=False)


@campaign_app.command("recover")
def recover(
    name: str = typer.Argument(None, help="The campaign [--campaign / last used]."),
    force: bool = typer.Option(False, "--force", help="Restore even if the save is fine."),
    as_json: bool = JsonOpt,
) -> None:
    """Restore the newest good backup (a damaged save is kept beside the backups)."""
    folder = session.saves_dir()
    chosen = check_campaign_name(name or session.campaign_name())
    try:
        cat = session.catalog()
    except BloodError:  # a broken data pack must not stop a restore
        cat = None
    result = recover_campaign(folder, chosen, cat, force=force)
    doc = {"ok": True, "name": chosen, "restored_from": str(result.restored_from),
           "log_length": result.log_length, "salvaged": result.salvaged,
           "damaged_copy": str(result.damaged_copy) if result.damaged_copy else None}
    if as_json:
        print_json(doc)
        return
    salvaged = (f"; {result.salvaged} later step(s) re-applied from the damaged file"
                if result.salvaged else "")
    stdout.print(f"Restored {chosen!r} from {result.restored_from.name}{salvaged} "
                 f"({result.log_length} steps).")
    if result.damaged_copy:
        stdout.print(Text(f"The previous file is kept as {result.damaged_copy}", style="dim"))


# ---------------------------------------------------------------------- campaign-level actions


@campaign_app.command("decks")
def decks_(
    setting: list[str] = typer.Argument(
        None, help="Who holds which deck: app, table, all=table or DECK=app|table (decks: "
        "troupers, reactions, minions, events, locations, nemeses, advanced, loot). Without "
        "it: the setting now."
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Who holds each deck: the app (it shuffles, draws and names each card) or the players
    (real cards; they tell the app what came up). A change is a step of the log."""
    from blood_companion.cli.table_words import decks_lines
    from blood_companion.engine.table import SetDecks, holders, parse_holders

    text = ",".join(setting or [])
    if not text:
        with session.open_session() as store:
            st = store.state
            if as_json:
                print_json({"decks": holders(st)})
            else:
                for line in decks_lines(st):
                    stdout.print(line, highlight=False)
        return
    try:
        wanted = parse_holders(text)
    except BloodError as exc:
        raise UsageError(exc.message, hint=exc.hint) from None
    action = SetDecks(decks=wanted)
    with session.open_session() as store:
        session.record(action, store)
        if as_json:
            _changed(store, True, "", decks=holders(store.state))
            return
        session.refresh_status(store)
        for line in decks_lines(store.state):
            stdout.print(line, highlight=False)


def _act(action: Any, as_json: bool) -> None:
    with session.open_session() as store:
        before = store.state
        session.record(action, store)
        from blood_companion.engine.words import sentence

        _changed(store, as_json, f"{store.head}. {sentence(action, store.catalog, before)}",
                 recorded=action.model_dump(mode="json"))


@campaign_app.command("add-trouper")
def add_trouper(
    trouper: str = typer.Argument(..., help="Trouper id."),
    colour: str = typer.Option(None, "--colour", help="Player colour [the first free one]."),
    as_json: bool = JsonOpt,
) -> None:
    """A new player joins the table (between games, in the Day Part)."""
    _act(AddTrouper(trouper=trouper.strip().lower(), colour=colour), as_json)


@campaign_app.command("retire-trouper")
def retire_trouper(
    trouper: str = typer.Argument(..., help="Trouper id, colour or seat number."),
    as_json: bool = JsonOpt,
) -> None:
    """A player leaves the table (between games, in the Day Part)."""
    _act(RetireTrouper(trouper=trouper), as_json)


@campaign_app.command("leader")
def leader(
    trouper: str = typer.Argument(..., help="Trouper id, colour or seat number."),
    as_json: bool = JsonOpt,
) -> None:
    """Hand the Leader token to a Trouper."""
    _act(SetLeader(trouper=trouper), as_json)


@campaign_app.command("wagon")
def wagon(
    jewels: int = typer.Option(0, "--jewels", help="Add (or with a minus, remove) Jewels."),
    coins: int = typer.Option(0, "--coins"),
    trinkets: int = typer.Option(0, "--trinkets"),
    scrolls: int = typer.Option(0, "--scrolls"),
    reason: str = typer.Option("", "--reason", help="Why (shown in the log)."),
    as_json: bool = JsonOpt,
) -> None:
    """Correct the Wagon's Resources by hand (never below zero)."""
    change = {"jewels": jewels, "coins": coins, "trinkets": trinkets, "scrolls": scrolls}
    if not any(change.values()):
        raise UsageError("nothing to change", hint="e.g. `blood campaign wagon --coins 2`")
    assert set(change) == set(RESOURCE_NAMES)
    _act(AdjustWagon(**change, reason=reason), as_json)


@campaign_app.command("trophies")
def trophies(
    changes: list[str] = typer.Argument(
        ..., help="TOKEN=N with a sign: halls=+1, nemesis:lucilla=-1 (location:/nemesis: optional)."
    ),
    reason: str = typer.Option("", "--reason", help="Why (shown in the log)."),
    as_json: bool = JsonOpt,
) -> None:
    """Correct the Trophy tokens by hand (never below zero, never past what the box holds)."""
    parsed: dict[str, int] = {}
    for text in changes:
        key, sep, value = text.partition("=")
        try:
            n = int(value.strip())
        except ValueError:
            n = None
        if not sep or not key.strip() or n is None:
            raise UsageError(
                f"{text!r} is not TOKEN=N", hint="e.g. `blood campaign trophies halls=+1`"
            )
        parsed[key.strip().lower()] = parsed.get(key.strip().lower(), 0) + n
    _act(AdjustTrophies(changes=parsed, reason=reason), as_json)


@campaign_app.command("next-game")
def next_game(as_json: bool = JsonOpt) -> None:
    """Single Game mode: start another game, from the box's starting state, once one is over."""
    _act(NextSingleGame(), as_json)
