"""The End of the Night's legal actions as typed options (engine/legal.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.engine import endgame as eg
from blood_companion.engine.legal import Next, gathered
from blood_companion.engine.picks import arts_of
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table

if TYPE_CHECKING:
    from collections.abc import Callable

    from blood_companion.content.loader import Catalog
    from blood_companion.engine.board_view import PartBoard


def end_view(state: CampaignState, catalog: Catalog) -> Next:
    """The End of the Night now: the options its actions offer (``options``, in :data:`MENU`'s
    order), the step, its sentence and what Enter means."""
    rw = state.rewards
    if rw is None:
        return Next("end", "end", "End of the Night", "Nothing is owed.", end=True)
    title = "End of the Night · " + ("Victory" if rw.result == "won" else "Defeat")
    prompt = eg.rewards_next(state, catalog)
    step = eg.owed_now(state) or "finish"
    opts = gathered(MENU, state, catalog)
    if step == "vlad_cards":
        default = "1" if len(opts) > 1 else "f"
    elif step == "advanced_tactics":
        # round the table: the Trouper whose turn it is takes an Art their deck uses
        arts = [o.fields["art"] for o in opts if o.kind == "take_advanced_tactic"]
        used = {a for t in state.troupers for a in arts_of(catalog, t.trouper)}
        turn = len(rw.tactics_taken) % max(1, len(state.troupers))
        mine = arts_of(catalog, state.troupers[turn].trouper) if state.troupers else set()
        default = next((str(i + 1) for i, a in enumerate(arts) if a in mine),
                       next((str(i + 1) for i, a in enumerate(arts) if a in used),
                            "1" if arts else "f"))
    elif step == "loot":
        default = "t" if at_table(state, "loot") else "r"
    else:
        default = "1"
    return Next("end", step, title, prompt, options=opts, default=default)


# The End's actions in the order its menus show their options.
MENU = (eg.WeakenVlad, eg.TakeAdvancedTactic, eg.RollLoot, eg.FinishGame)


def end_board(state: CampaignState, catalog: Catalog, view: Next | None,
              commands: Callable[[Next | None], list[str]]) -> PartBoard:
    """The End of the Night's section of the board (``flow.board``): the rewards owed."""
    rewards = state.rewards.model_dump(mode="json") if state.rewards is not None else None
    return "rewards", rewards, {"title": "End of the Night",
                                "prompt": eg.rewards_next(state), "commands": commands(None)}
