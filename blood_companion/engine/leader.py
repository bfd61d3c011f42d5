"""The Leader's Rule in the words of every question it settles ("Leader Rule").

When a target cannot be clearly established, or the players cannot agree, the player holding
the Leader token decides: every such question names that player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blood_companion.engine.bookkeeping import name_of
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def leader_name(state: CampaignState, catalog: Catalog) -> str:
    return name_of(state, catalog, state.leader) if state.troupers else "the Leader"


def decides(state: CampaignState, catalog: Catalog) -> str:
    """ "Ioana of the Seven Veils holds the Leader token and decides (Leader's Rule)"."""
    return f"{leader_name(state, catalog)} holds the Leader token and decides (Leader's Rule)"


def settles(state: CampaignState, catalog: Catalog) -> str:
    """For a choice made by mutual agreement: who settles a disagreement."""
    return (f"the players agree; {leader_name(state, catalog)} holds the Leader token and "
            "settles a disagreement")


def in_doubt(state: CampaignState, catalog: Catalog) -> str:
    """For what the Map shows (a distance, a path): who decides when it leaves a doubt."""
    return f"in doubt, {leader_name(state, catalog)} holds the Leader token and decides"
