"""The documents of the views of a campaign, built from the open save (the engine's own views).

``blood night next``, ``day next``, ``campaign show`` and ``campaign log`` print these documents
(``--json``) or draw them (``cli/view_text.py``); ``cli/views.py`` keeps them for the fast path.
:func:`refresh` stores the views of a campaign that just changed, so the first look after an
action is as fast as the second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.cli import views

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.state import CampaignState
    from blood_companion.store import CampaignStore

LOG_LAST = 50  # steps `blood campaign log` shows unless asked for more


def _commands(state: CampaignState, catalog: Catalog) -> list[str]:
    """The commands of the options open now (engine/legal.py, cli/commands.py)."""
    from blood_companion.cli.commands import for_next
    from blood_companion.engine.legal import next_view

    return for_next(next_view(state, catalog))


def night_next_doc(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """`whose_turn` with the commands of the options open now and the hand's card names."""
    from blood_companion.engine.night import whose_turn

    doc = whose_turn(state, catalog)
    doc["commands"] = _commands(state, catalog)
    cards = []
    for c in doc.get("hand") or []:
        card = catalog.tactic(c)
        cards.append(
            {"id": c, "name": card.name, "threat": card.threat} if card else {"id": c, "name": None}
        )
    if cards:
        doc["hand_cards"] = cards
    return doc


def day_next_doc(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """The Day Part's next step with its legal choices and commands."""
    from blood_companion.engine import day as d

    return {
        **d.day_next(state, catalog).model_dump(mode="json"),
        "commands": _commands(state, catalog),
    }


def summary(store: CampaignStore) -> dict[str, Any]:
    """The `campaign show --json` document's head (also printed by commands that change the
    campaign)."""
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
    from blood_companion.engine.history import campaign_totals, history_rows

    st = store.state
    return {**summary(store), "history": history_rows(st), "totals": campaign_totals(st)}


def log_doc(store: CampaignStore, last: int = LOG_LAST) -> dict[str, Any]:
    """`campaign log`: the last ``last`` steps (0: all) in sentences, the head, and how many
    earlier steps are not shown."""
    entries = store.log(last=last or None)
    length = store.log_length + store.redo_available
    shown = [
        {"step": e.step, "sentence": e.sentence, "status": e.status, "marks": list(e.marks)}
        for e in entries
    ]
    return {"head": store.head, "entries": shown, "earlier": max(0, length - len(shown))}


def status_doc(store: CampaignStore) -> dict[str, Any]:
    """The status document of an open campaign; refreshes the fast path's cache."""
    from blood_companion.cli.status_view import build_doc

    doc = build_doc(
        store.state,
        store.catalog,
        name=store.name,
        head=store.head,
        state_hash=store.state_hash,
    )
    views.store_view(store.saves_dir, store.name, "status", doc)
    return doc


def refresh(store: CampaignStore) -> None:
    """Store the views of a campaign that just changed: status, what comes next, the summary.
    Never fails a command: the cache only buys speed."""
    try:
        status_doc(store)  # stores itself
        state, catalog = store.state, store.catalog
        if state.part == "night" and state.night is not None:
            views.store_view(
                store.saves_dir, store.name, "night-next", night_next_doc(state, catalog)
            )
        elif state.part == "day" and state.day is not None:
            views.store_view(store.saves_dir, store.name, "day-next", day_next_doc(state, catalog))
        views.store_view(store.saves_dir, store.name, "campaign-show", show_doc(store))
    except Exception:  # noqa: BLE001 - a broken cache must not undo a recorded action
        pass
