"""`blood campaign ...`: start, show, log, undo/redo, marks, export/import, verify, recover, and the
campaign-level actions it records (wagon, trophies, Troupers, decks). With ``--json`` a command
prints exactly one JSON document (``log --json``: one per step)."""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from blood_companion.cli import render, session, view_docs, views
from blood_companion.cli.common import (
    add_recorder,
    command_group,
    declare_command,
    print_json,
    settings,
    stderr,
    stdout,
)
from blood_companion.cli.decks import ask_holders
from blood_companion.cli.flags import JSON, Opt
from blood_companion.cli.render import print_view, why_view, width
from blood_companion.cli.view_docs import (
    LOG_LAST,
    log_doc,
    log_entries,
    show_doc,
    summary,
    why_doc,
)
from blood_companion.display import json_text
from blood_companion.engine.actions import seed_for
from blood_companion.engine.box import table_setup
from blood_companion.engine.campaign import (
    AddTrouper,
    AdjustTrophies,
    AdjustWagon,
    NextSingleGame,
    RetireTrouper,
    Seat,
    SetDecks,
    SetLeader,
    StartCampaign,
)
from blood_companion.engine.chance import Chance
from blood_companion.engine.flow import apply
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState
from blood_companion.engine.table import holders, holders_text, parse_holders
from blood_companion.engine.words import decks_lines, sentence
from blood_companion.errors import BloodError, UsageError
from blood_companion.fileio import check_file_path
from blood_companion.store import CampaignStore, StoreError, saves
from blood_companion.store.files import refuse_existing
from blood_companion.store.manage import delete_campaign, list_campaigns, recover_campaign
from blood_companion.store.names import check_campaign_name
from blood_companion.store.transfer import export_campaign, import_campaign


def _changed(
    store: CampaignStore, as_json: bool, message: str, *, refresh: bool = True, **extra: Any
) -> None:
    if refresh:  # the views of the campaign as it is now (session.record stores them itself)
        view_docs.refresh(store)
    if as_json:
        print_json({"ok": True, **extra, **summary(store)})
    else:
        stdout.print(message)


def _nothing_to_change(store: CampaignStore, action: Any, as_json: bool) -> Any:
    if isinstance(action, AdjustWagon) and not any(getattr(action, r) for r in RESOURCE_NAMES):
        raise UsageError("nothing to change", hint="e.g. `blood campaign wagon --coins 2`")
    return action


def _act_show(step: session.Step) -> None:
    stdout.print(f"{step.store.head}. {step.done()}")
    step.tell()


_act = session.recorder(
    lambda step: {"ok": True, "recorded": step.action.model_dump(mode="json"),
                  "instructions": step.told(), **summary(step.store)},
    _act_show, prepare=_nothing_to_change, draws=False)


def _decks_lines(state: Any) -> None:
    for line in decks_lines(state):
        stdout.print(line, highlight=False)


def _decks_now(as_json: bool) -> None:
    with session.open_session() as store:
        if as_json:
            print_json({"ok": True, "decks": holders(store.state)})
        else:
            _decks_lines(store.state)


def _decks_doc(step: session.Step) -> dict[str, Any]:
    return {"ok": True, "decks": holders(step.after), **summary(step.store)}


def _holders(words: list[str], hint: str | None = None) -> dict[str, str]:
    """Who holds the decks, as `--decks` or `campaign decks` say it (engine/table.py)."""
    try:
        return parse_holders(",".join(words))
    except BloodError as exc:
        raise UsageError(exc.message, hint=hint or exc.hint) from None


def _trophies(changes: list[str]) -> dict[str, int]:
    """``halls=+1 nemesis:lucilla=-1`` -> {token: signed count}."""
    parsed: dict[str, int] = {}
    for text in changes:
        key, sep, value = text.partition("=")
        try:
            n = int(value.strip())
        except ValueError:
            n = None
        if not sep or not key.strip() or n is None:
            raise UsageError(f"{text!r} is not TOKEN=N",
                             hint="e.g. `blood campaign trophies halls=+1`")
        parsed[key.strip().lower()] = parsed.get(key.strip().lower(), 0) + n
    return parsed


# Words the campaign commands' fields name (engine/actions.py ``Cli``).
RESOLVE: dict[str, Any] = {
    "id": lambda store, word, _: word.strip().lower(),
    "trophies": lambda store, words, _: _trophies(words),
    "holders": lambda store, words, _: _holders(words),
}
campaign_app, register = command_group("campaign")


def start_action(name: str, troupers: str | None, players: int | None, mode: str,
                 seed: int | None, colours: str | None = None, leader: str | None = None,
                 decks: str | None = None) -> StartCampaign:
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
        raise UsageError("say who plays: --troupers A,B[,C,D], or --players N to draw the "
                         "Troupers at random", hint="e.g. --troupers aurel,zora or --players 2")
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
            raise UsageError(f"--leader {leader!r} is neither a seat number (1 to {len(seats)}), "
                             "a Trouper named by --troupers nor random")
    if seed is None:
        seed = secrets.randbelow(10**9)
    held = _holders([decks], "--decks app, --decks table or --decks troupers=table,"
                    "reactions=table") if decks is not None else None
    return StartCampaign(name=name, mode=mode, seed=seed, seats=seats, leader=lead,
        random_colours=random_colours, random_leader=random_leader,
        decks={k: v for k, v in held.items() if v == "table"} or None if held else None)


def check_start(*options: Any) -> None:
    """Refuse a campaign that could not start (its name taken, an unknown Trouper or colour,
    a colour twice, a Leader nobody plays) before the players are asked who holds the decks:
    the start (:func:`start_action`'s `options` up to the Leader) on an empty table."""
    name, troupers, players, mode, seed, *rest = options
    start = start_action(name, troupers, players, mode, seed or 0, *rest)
    folder = session.saves_dir()
    refuse_existing(folder, start.name, saves.save_path(folder, start.name))
    apply(CampaignState(), start, session.catalog(), 0,
          Chance.fresh(seed_for(CampaignState(), start), 0))


def checklist(plan: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The physical Setup of a new campaign (:func:`table_setup`'s `plan`) as a checklist in
    our own words, ``[(title, [line, ...]), ...]``, in the order of the rulebook's "Setup"
    ("Player Setup", then "Playing Area Setup")."""
    per = plan["per_colour"]
    sections: list[tuple[str, list[str]]] = []
    for s in plan["seats"]:
        colour = s["colour"]
        lines = [
            f"Trouper Board and Aid Card; the {s['vigor_tokens']} Vigor tokens on the Board, "
            "available side up.",
            f"All the {colour} material as your Personal Reserve: {per['tactic_sleeves']} Tactic "
            f"sleeves, {per['item_sleeves']} Item sleeves, {per['whisper_tokens']} Whisper, "
            f"{per['trap_tokens']} Trap and {per['event_tokens']} Event tokens, "
            f"{per['exhausted_tokens']} Exhausted token, the {colour} base.",
            f"{s['name']}'s Trouper card on the Board; the {s['starting_tactics']} Starting "
            f"Tactic cards in the {colour} sleeves, Effects showing, shuffled, on the deck space.",
            f"The {s['trouper_items']} Trouper Item cards in the {colour} Item sleeves, white "
            f"side showing; the miniature on the {colour} base.",
            "The Insanity cube on the leftmost space of the track.",
        ]
        lead = " (Leader)" if s["leader"] else ""
        sections.append((f"Seat {s['seat']}: {s['name']}, {colour}{lead}", lines))
    leader = next((s for s in plan["seats"] if s["leader"]), None)
    if leader is not None:
        line = f"The Leader token to {leader['name']} (seat {leader['seat']})."
        sections.append(("Leader", [line]))
    area: list[str] = []
    if plan["village"]:
        decks = plan["advanced_decks"]
        area += [
            f"Village Card to one side; the {len(decks)} Advanced Tactic decks sorted by Art "
            f"({sum(decks.values())} cards), each shuffled and face up on its space. "
            + ("When you take a top card, tell the app which it is."
               if plan.get("decks", {}).get("advanced") == "table" else
               "The app keeps its own order of them: take the card it names."),
            f"The Location and Nemesis Item cards ({plan['crafting']}) and the Location and "
            f"Nemesis Tactic cards ({plan['training']}) as two face-up decks on their spaces.",
        ]
    area += [
        "Night Board to one side, the Threat token on its starting space.",
        "Within everyone's reach: Bite and Trophy tokens, dice, Tiles, the Minion, Nemesis, "
        "Reaction, Weakness, Location, Event and Vlad cards, the miniatures and Scenic "
        "Elements.",
        "Resolved tokens and Cubes beside the Night Board, for the player who runs it.",
    ]
    if plan["village"]:
        area.append("The Wagon beside the Village Card, every disk at 0.")
    else:
        area.append("Single Game mode: Starting cards and Items only; the Village Card and the "
                    "Wagon stay in the box.")
    sections.append(("Playing area", area))
    return sections


def print_setup(plan: dict[str, Any]) -> None:
    """The physical Setup as a checklist, from the engine's :func:`table_setup`."""
    for title, lines in checklist(plan):
        stdout.print(Text(title, style="bold"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for line in lines:
            grid.add_row("  [ ]", Text(line))
        stdout.print(grid)


NEW = (
    Opt("name", help="Campaign name (becomes the save file's name).", required=True),
    Opt("troupers", "--troupers", complete="troupers",
        help='Trouper ids, comma-separated: A,B[,C,D] ("random" draws one).'),
    Opt("players", "--players", kind="int",
        help="How many players; the Troupers not named are drawn at random."),
    Opt("mode", "--mode", default="roguelite", help="roguelite or single."),
    Opt("seed", "--seed", kind="int", help="Random seed [a new random one]."),
    Opt("colours", "--colours", help='Colours in seat order, or "random" [the first free ones].'),
    Opt("leader", "--leader",
        help='Who takes the Leader token: seat, Trouper or "random" [seat 1].'),
    Opt("decks", "--decks", help="Who holds the decks: app (the app shuffles, draws and names "
        "each card), table (you draw the real cards and tell the app), or DECK=table,... [asked "
        "on a terminal; else app]. `blood campaign decks` changes it later."),
    JSON,
)


@declare_command(campaign_app, "new", *NEW)
def new(name: str, troupers: str | None = None, players: int | None = None,
        mode: str = "roguelite", seed: int | None = None, colours: str | None = None,
        leader: str | None = None, decks: str | None = None, as_json: bool = False) -> None:
    """Start a campaign and print the physical Setup as a checklist.

    The table, the mode and the seed become step 1 of its log."""
    if decks is None and not as_json and sys.stdin.isatty():
        check_start(name, troupers, players, mode, seed, colours, leader)

        decks = ask_holders() or "app"
    start = start_action(name, troupers, players, mode, seed, colours, leader, decks)
    folder = session.saves_dir()
    with CampaignStore.create(folder, start.name, start, session.catalog) as store:
        saves.write_last_used(folder, store.name)
        plan = table_setup(store.state, store.catalog)
        if as_json:
            print_json({"ok": True, **summary(store), "setup": plan})
            return
        who = ", ".join(f"{s['name']} ({s['colour']})" for s in plan["seats"])

        stdout.print(Text(f"{sentence(start, store.catalog)}\nAt the table: {who}.", style="green"))
        stdout.print(Text(holders_text(store.state) + " (`blood campaign decks` changes it.)"))
        print_setup(plan)
        stdout.print(Text(f"Saved in {store.path}", style="dim"))


@declare_command(campaign_app, "list", JSON)
def list_(as_json: bool = False) -> None:
    """The campaigns in the saves folder (* = used last), and where that folder is."""
    folder = session.saves_dir()

    infos = list_campaigns(folder)
    last = saves.read_last_used(folder)
    where = os.path.abspath(folder)
    found_by = settings().saves_from
    if as_json:
        print_json({
            "saves_dir": str(folder),
            "saves_dir_absolute": where,
            "saves_dir_from": found_by,
            "last_used": last,
            "campaigns": [i.to_json() | {"last_used": i.name == last} for i in infos],
        })
        return
    # one line, never folded: a path is copied whole
    stdout.print(Text(f"Saves folder: {where} (from {found_by})", style="dim"), soft_wrap=True)
    if not infos:
        stdout.print("No campaigns yet. `blood campaign new NAME --troupers A,B` starts one.")
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
            table.add_row(star, i.name, i.mode, str(i.game), i.part, str(i.log_length), i.modified)
    stdout.print(table)


@declare_command(campaign_app, "show", JSON)
def show(as_json: bool = False) -> None:
    """The campaign at a glance: table, Troupers, Wagon, trophies, history and totals.

    The totals: nights won and lost, Vlad cards weakened, Resources earned and spent."""
    session.view(show_doc, render.campaign_show, as_json)


LOG = (
    Opt("as_json", "--json", kind="flag", default=False,
        help="One JSON object per step (JSON lines)."),
    Opt("all_", "--all", kind="flag", default=False,
        help="Every step, abandoned (replaced) ones too."),
    Opt("last", "--last", kind="int", min=0,
        help=f"Show only the last N steps (0: all). Default: {LOG_LAST}, all with --json."),
    Opt("physical", "--physical", kind="flag", default=False,
        help="Below each step, what the table moved."),
    Opt("why", "--why", kind="int", metavar="STEP",
        help="Why the app decided as it did for the Nemesis side at this step (each Target "
        "Priority with the Troupers it kept, the Leader's Rule, a Summon's space, an order)."),
)


@declare_command(campaign_app, "log", *LOG)
def log(as_json: bool = False, all_: bool = False, last: int | None = None,
        physical: bool = False, why: int | None = None) -> None:
    """The numbered log in sentences; undone steps are dimmed, the head is marked."""
    session.catalog()  # a broken data pack: refused once here, not read again per step
    if why is not None:
        _why(why, as_json)
        return
    told: dict[int, list[dict[str, Any]]] = {}
    with session.open_session() as store:
        if as_json or all_:
            keep = None if last is None or all_ else last or None
            entries = store.log(include_abandoned=all_, last=keep)
            if not as_json:
                doc: dict[str, Any] = {"head": store.head, "entries": log_entries(store, entries)}
        else:
            doc = log_doc(store, LOG_LAST if last is None else last)
        if physical:
            told = _told(store, [e.step for e in entries] if as_json or all_ else
                         [e["step"] for e in doc["entries"] if e["status"] == "done"])
    if as_json:
        for e in entries:
            more = {"instructions": told.get(e.step, [])} if physical else {}
            sys.stdout.write(json_text({"ok": True, **e.to_json(), **more}, indent=None) + "\n")
        sys.stdout.flush()
        return
    for e in doc["entries"]:
        if e["status"] == "done" and told.get(e["step"]):
            e["results"] = [*e["results"], "At the table:",
                            *("  • " + i["text"] for i in told[e["step"]])]
    print_view(render.campaign_log(doc, width()))


def _why(step: int, as_json: bool) -> None:
    """`campaign log --why STEP`: the decision records of that step (cli/view_docs.py
    ``why_doc``); a step the log does not have is refused (exit 1)."""
    with session.open_session() as store:
        doc = why_doc(store, step)
    if as_json:
        print_json({"ok": True, **doc})
        return
    print_view(why_view(doc, width()))


def _told(store: CampaignStore, steps: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each done step's physical instructions (engine/physical.py), from the states recorded
    before and after it."""
    out: dict[int, list[dict[str, Any]]] = {}
    head = store.head
    for step in steps:
        if 1 <= step <= head:
            before = store.state_at(step - 1) if step > 1 else CampaignState()
            out[step] = session.told(before, store.state_at(step), store.catalog)
    return out


@declare_command(campaign_app, "undo",
                 Opt("n", kind="int", default=1, help="How many steps to take back."),
                 Opt("to", "--to", help="Jump to a step number or a mark instead."), JSON)
def undo(n: int, to: str | None, as_json: bool) -> None:
    """Take back the last N steps (they stay redo-able until a new action replaces them)."""
    with session.open_session() as store:
        before = store.head
        if to is not None:
            store.undo_to(to)
        else:
            store.undo(n)
        _changed(store, as_json, f"Back to step {store.head} (was {before}); "
                 f"{store.redo_available} step(s) can be redone.", undone=before - store.head)


@declare_command(campaign_app, "redo",
                 Opt("n", kind="int", default=1, help="How many undone steps to re-apply."), JSON)
def redo(n: int, as_json: bool) -> None:
    """Re-apply N undone steps."""
    with session.open_session() as store:
        before = store.head
        store.redo(n)
        _changed(store, as_json, f"Redone to step {store.head} (was {before}).",
                 redone=store.head - before)


@declare_command(campaign_app, "mark",
                 Opt("name", help='A save point name, e.g. "before Lucilla".', required=True),
                 Opt("move", "--move", kind="flag", default=False,
                     help="Move an existing mark to this step."),
                 JSON)
def mark(name: str, move: bool = False, as_json: bool = False) -> None:
    """Name the current step; `undo --to NAME` comes back to it."""
    with session.open_session() as store:
        step = store.mark(name, move=move)
        _changed(store, as_json, f"Marked step {step} as {name.strip()!r}.", mark=name.strip(),
                 step=step)


@declare_command(campaign_app, "export",
                 Opt("file", kind="path", help="JSON file to write.", required=True),
                 Opt("force", "--force", kind="flag", default=False,
                     help="Overwrite an existing file."),
                 JSON)
def export(file: Path, force: bool = False, as_json: bool = False) -> None:
    """Write the whole campaign (log, marks, state) as readable JSON."""
    check_file_path(file, "the export file")
    with session.open_session() as store:
        export_campaign(store, file, force=force)
        _changed(store, as_json, f"Exported {store.name!r} ({store.log_length} steps) to {file}.",
                 refresh=False, exported=str(file))  # refresh=False: nothing changed


@declare_command(campaign_app, "import",
                 Opt("file", kind="path", help="A file written by `blood campaign export`.",
                     required=True),
                 Opt("name", "--name", help="Store it under this name [the file's]."),
                 Opt("replace", "--replace", kind="flag", default=False,
                     help="Replace a campaign of that name (backed up first)."),
                 JSON)
def import_(file: Path, name: str | None = None, replace: bool = False,
            as_json: bool = False) -> None:
    """Check the whole file (every action replayed), then store it as a campaign."""
    check_file_path(file, "the file to import")
    folder = session.saves_dir()

    stored = import_campaign(folder, file, session.catalog(), name=name, replace=replace)
    with CampaignStore.open(folder, stored, session.catalog) as store:
        saves.write_last_used(folder, stored)
        _changed(store, as_json, f"Imported {file} as {stored!r} ({store.log_length} steps).",
            imported=str(file))


@declare_command(campaign_app, "delete",
                 Opt("name", help="The campaign to delete.", complete="campaign", required=True),
                 JSON)
def delete(name: str, as_json: bool = False) -> None:
    """Delete a campaign; a copy stays in the backups folder (`recover` brings it back)."""
    folder = session.saves_dir()

    kept = delete_campaign(folder, name)
    cached = views.cache_path(folder, check_campaign_name(name))  # its stored status
    if not cached.parent.is_symlink():  # nothing is removed out of the saves folder
        with contextlib.suppress(OSError):
            cached.unlink(missing_ok=True)
    if as_json:
        print_json({"ok": True, "deleted": name, "kept_copy": str(kept)})
        return
    stdout.print(f"Deleted {name!r}. A copy is kept in {kept}; "
                 f"`blood campaign recover --campaign {name}` restores it.")


@declare_command(campaign_app, "verify", JSON)
def verify(as_json: bool = False) -> None:
    """Check every recorded step; replay those recorded with this app and data pack."""
    with session.open_session() as store:
        report = store.verify()
    doc = {"ok": report.ok, "name": store.name, **{k: getattr(report, k) for k in (
        "steps", "head", "state_hash", "problems", "replayed")}, "kept_as_recorded": report.kept}
    if not report.ok:
        err = StoreError(f"{store.path} does not verify: " + "; ".join(report.problems),
            hint=f"`blood campaign recover --campaign {store.name}` keeps every step it can "
            "prove (the damaged file is kept in the backups folder)")
        if as_json:
            print_json(doc)
            stderr.print(Text.assemble(("Error: ", "bold red"), err.message))
            raise typer.Exit(1)
        raise err
    if as_json:
        print_json(doc)
        return
    stdout.print(f"{store.name}: all {report.steps} steps are stored intact; {report.replayed} "
                 "recorded with this app and data pack replay to the same state.")
    for line in report.kept:
        stdout.print(f"  {line}", markup=False)


@declare_command(campaign_app, "recover",
                 Opt("name", help="The campaign [--campaign / last used].", complete="campaign"),
                 Opt("force", "--force", kind="flag", default=False,
                     help="Rebuild it from its own rows even if it verifies."),
                 JSON)
def recover(name: str | None = None, force: bool = False, as_json: bool = False) -> None:
    """Keep every step the save and its backups prove, under the save's lock (the damaged
    save is kept beside the backups); list by step what could not be proven."""
    folder = session.saves_dir()
    chosen = check_campaign_name(name or session.campaign_name())
    try:
        cat = session.catalog()
    except BloodError:  # a broken data pack must not stop a restore
        cat = None

    result = recover_campaign(folder, chosen, cat, force=force)
    doc = {"ok": True, "name": chosen, "restored_from": str(result.restored_from),
           **{k: getattr(result, k) for k in ("log_length", "salvaged", "kept", "left_out",
                                              "abandoned")},
           **{k: list(getattr(result, k)) for k in ("unreadable", "unproven", "after")},
           "damaged_copy": str(result.damaged_copy) if result.damaged_copy else None}
    if as_json:
        print_json(doc)
        return
    if result.kept:
        stdout.print(f"Recovered {chosen!r}: kept {result.kept} step(s) (head at step "
                     f"{result.log_length}).", markup=False)
    else:
        salvaged = (f"; {result.salvaged} later step(s) re-applied from the damaged file"
                    if result.salvaged else "")
        if result.abandoned:
            salvaged += (f"; {result.abandoned} kept as abandoned steps (`blood campaign log "
                         "--all` lists them)")
        left = (f"; {result.left_out} damaged or unprovable row(s) left out (they stay in the "
                "damaged copy)" if result.left_out else "")
        stdout.print(f"Restored {chosen!r} from {result.restored_from.name}{salvaged}{left} "
                     f"({result.log_length} steps).", markup=False)
    for steps, what in (
        (result.unreadable, "kept without its action, which could not be read (its state is "
                            "proven)"),
        (result.unproven, "could not prove (kept with the state before it)"),
        (result.after, "could not prove after the last step kept (abandoned steps if they "
                       "read: `blood campaign log --all`)"),
    ):
        if steps:
            stdout.print(f"  step{'s' if len(steps) > 1 else ''} {_runs(steps)}: {what}",
                         markup=False)
    if result.damaged_copy:
        was = "damaged" if result.kept else "previous"
        stdout.print(Text(f"The {was} file is kept as {result.damaged_copy}", style="dim"))


def _runs(steps: tuple[int, ...]) -> str:
    """Step numbers as runs: 3, 20-49, 52."""
    runs: list[list[int]] = []
    for s in steps:
        if runs and runs[-1][1] == s - 1:
            runs[-1][1] = s
        else:
            runs.append([s, s])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in runs)


# The campaign-level actions.
add_recorder(campaign_app, SetDecks, session.recorder(
    _decks_doc, lambda step: _decks_lines(step.after), draws=False), RESOLVE, None, _decks_now)
for _cls in (AddTrouper, RetireTrouper, SetLeader, AdjustWagon, AdjustTrophies, NextSingleGame):
    add_recorder(campaign_app, _cls, _act, RESOLVE, None)
