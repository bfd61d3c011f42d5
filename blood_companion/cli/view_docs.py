"""The documents of the views of a campaign, built from the open save (the engine's own views).

``blood night next``, ``day next``, ``campaign show`` and ``campaign log`` print these documents
(``--json``) or draw them (``cli/render.py``). :func:`refresh` stores the status of a
campaign that just changed (``cli/views.py``), so the first look after an action is as fast as
the second.
"""

from __future__ import annotations

import contextlib
from typing import Any, cast

from blood_companion.cli import views
from blood_companion.cli.commands import for_next
from blood_companion.content.face import map_legend
from blood_companion.content.loader import Catalog
from blood_companion.engine import why, words
from blood_companion.engine.board_view import build
from blood_companion.engine.day import STEP_TITLES, day_next
from blood_companion.engine.day.options import _item_label
from blood_companion.engine.flow import board, next_view
from blood_companion.engine.history import campaign_totals, history_rows
from blood_companion.engine.legal import Next
from blood_companion.engine.night import night_view, whose_turn
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words import result_lines
from blood_companion.errors import BloodError
from blood_companion.store import CampaignStore

LOG_LAST = 50  # steps `blood campaign log` shows unless asked for more
STATUS_LOG_LAST = 8  # the last steps the status document carries (the served board shows them)


def _commands(state: CampaignState, catalog: Catalog, nxt: Next | None = None) -> list[str]:
    """The commands of the options open now (``nxt``: the view of now when already built)."""
    return for_next(next_view(state, catalog) if nxt is None else nxt, catalog)


def _now(state: CampaignState, catalog: Catalog) -> Next | None:
    """The engine's view of now by night or by day (``next_view``), else None."""
    if (state.part == "night" and state.night is not None) or (
            state.part == "day" and state.day is not None):
        return next_view(state, catalog)
    return None


def night_next_doc(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """`whose_turn` with the commands open now and the hand's card names."""
    # built once, for the document and its commands
    nxt = next_view(state, catalog) if state.part == "night" else night_view(state, catalog)
    doc = whose_turn(state, catalog, nxt)
    doc["commands"] = _commands(state, catalog, nxt)
    cards = [{"id": c, "name": card.name, "threat": card.threat} if (card := catalog.tactic(c))
             else {"id": c, "name": None} for c in doc.get("hand") or []]
    if cards:
        doc["hand_cards"] = cards
    if "?" in (doc.get("hand") or []):  # the players hold the Trouper decks: cards unseen
        doc["hand_hidden"] = True
    return doc


def day_next_doc(state: CampaignState, catalog: Catalog, *, names: bool = True,
                 nxt: Next | None = None) -> dict[str, Any]:
    """The Day Part's next step (engine/day/views.py ``day_next``; ``nxt`` when already built)
    with its legal choices and commands, and (``names``) the names of the ids it shows."""
    if nxt is None:
        nxt = next_view(state, catalog) if state.part == "day" else day_next(state, catalog)
    det = dict(nxt.details)
    doc = {"part": nxt.part, "step": nxt.step, "title": STEP_TITLES.get(nxt.step, nxt.title),
           "sentence": nxt.sentence, "choices": nxt.choices, "details": det,
           "commands": _commands(state, catalog, nxt if nxt.part == "day" else None)}
    if not names:
        return doc
    if det.get("nemesis"):
        nem = catalog.nemesis(str(det["nemesis"]))
        det["nemesis_name"] = nem.name if nem is not None else det["nemesis"]
    if det.get("map"):
        det["map_legend"] = map_legend(list(det["map"]))
    if nxt.step == "equipping":
        doc["item_names"] = {
            str(raw): _item_label(catalog, str(raw)) for c in nxt.choices
            for raw in [*(x for v in c["sleeves"].values() for x in v), *c["equipped"].values()]
            if catalog.item(str(raw).rstrip("+")) is not None}
    return doc


def summary(store: CampaignStore) -> dict[str, Any]:
    """The `campaign show --json` document's head (printed by the commands changing it too)."""
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


def show_doc(store: CampaignStore) -> dict[str, Any]:
    """`campaign show`: the summary, the history of the games and the totals."""
    st = store.state
    doc = {**summary(store), "history": history_rows(st), "totals": campaign_totals(st)}
    doc["names"] = show_names(doc, store.catalog)
    return doc


def show_names(doc: dict[str, Any], catalog: Catalog) -> dict[str, str]:
    """The names of the ids `campaign show` shows (``--json`` keeps the ids)."""
    names: dict[str, str] = {}
    for t in [*doc["troupers"], *doc["set_aside"]]:
        names[t["trouper"]] = words.who(catalog, t["trouper"])
        for raw in t["items"]:
            item = catalog.item(str(raw).rstrip("+"))
            if item is not None:
                side = item.advanced if str(raw).endswith("+") and item.advanced else item.starting
                names[raw] = side.name
    ids = [*doc["location_trophies"], *doc["nemesis_trophies"],
           *doc["totals"].get("by_nemesis", {})]
    for r in doc["history"]:
        ids += [r.get("nemesis"), r.get("location")]
    for cid in ids:
        if cid and cid not in names:
            names[cid] = words.record_name(catalog, cid)
    return names


def log_doc(store: CampaignStore, last: int = LOG_LAST) -> dict[str, Any]:
    """`campaign log`: the last ``last`` steps (0: all), the head, how many earlier ones."""
    entries = store.log(last=last or None)
    length = store.log_length + store.redo_available
    return {"head": store.head, "entries": log_entries(store, entries),
            "earlier": max(0, length - len(entries))}


def log_entries(store: CampaignStore, entries: list[Any]) -> list[dict[str, Any]]:
    """Log entries: each step's sentence and, for a done step, what it drew and did."""
    steps = [e.step for e in entries if e.status == "done"]
    results = store.step_results(min(steps)) if steps else {}
    return [
        {"step": e.step, "sentence": e.sentence, "status": e.status, "marks": list(e.marks),
         "results": result_lines(results.get(e.step) or {}, store.catalog, e.sentence)
         if e.status == "done" else []}
        for e in entries
    ]


WHY_LOOK_BACK = 400  # done steps `why` looks back through for the latest decision


def why_doc(store: CampaignStore, step: int | None = None) -> dict[str, Any]:
    """Why the app decided for the Nemesis side (engine/why.py): the decision records of
    ``step``, else of the latest done step that made any (``step`` None and ``lines`` saying
    so when none). Raises BloodError for a step the log does not have."""
    head = store.head
    if step is None:
        step = _latest_decision_step(store)
        if step is None:
            return {"step": None, "sentence": "", "head": head, "latest": True, "decisions": [],
                    "lines": [f"No decision of the Nemesis side in the last {WHY_LOOK_BACK} "
                              "steps (or none recorded: older versions kept none)."]}
        latest = True
    else:
        latest = False
        last = store.head + store.redo_available
        if not 1 <= step <= last:
            raise BloodError(f"there is no step {step}; the log has steps 1 to {last}",
                             hint="`blood campaign log` lists the steps")
    after = store.state_at(step)
    before = store.state_at(step - 1) if step > 1 else CampaignState()
    found = why.step_decisions(before, after)
    entry = store.log(last=store.log_length + store.redo_available - step + 1)
    sentence = next((e.sentence for e in entry if e.step == step), "")
    lines = why.lines(found, store.catalog) if found else [why.NONE_RECORDED]
    return {"step": step, "sentence": sentence, "head": head, "latest": latest,
            "decisions": found, "lines": lines}


def _latest_decision_step(store: CampaignStore) -> int | None:
    """The latest done step (of the last :data:`WHY_LOOK_BACK`) holding a decision record."""
    head = store.head
    results = store.step_results(max(1, head - WHY_LOOK_BACK + 1)) if head else {}
    for step in sorted((s for s in results if s <= head), reverse=True):
        if any(isinstance(e, dict) and e.get("kind") == why.DECISION
               for e in results[step].get("events") or []):
            return step
    return None


def status_doc(store: CampaignStore, now: Next | None = None) -> dict[str, Any]:
    """The status document of an open campaign (the board with the commands open now),
    stored for the next look (``cli/views.py``); ``now``: :func:`_now` when already built."""
    state, catalog = store.state, store.catalog
    part = board(state, catalog, now, lambda nxt: _commands(state, catalog, nxt))
    doc: dict[str, Any] = cast("dict[str, Any]", build(
        state, catalog, name=store.name, head=store.head, state_hash=store.state_hash, log=[],
        part=part))
    entries = store.log(last=STATUS_LOG_LAST)
    doc["log"] = [  # the last steps, for the served board (issue 28)
        {"step": e.step, "sentence": e.sentence, "status": e.status} for e in entries
    ]
    views.keep(store, doc)
    return doc


def refresh(store: CampaignStore) -> None:
    """Store the status of a campaign that just changed. A BloodError (the data pack
    refusing, a view of a state the pack no longer fits) or an OSError (the cache folder) is
    let pass: the step is recorded, the stored status only buys speed. Anything else is a
    bug in a view and is raised."""
    if store.drawn_from() is None:
        return
    with contextlib.suppress(BloodError, OSError):
        status_doc(store, _now(store.state, store.catalog))  # stores itself
