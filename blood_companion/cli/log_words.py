"""`blood campaign log`: what each step drew and did, in sentences under the step's own.

The store hands over what a step added (``CampaignStore.step_results``: night log events, the
Day's draws, loot rolls, Advanced Tactic cards taken), as ids; this renders them with the data
pack in use (engine/narrate.py for the night's events).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.engine import narrate
from blood_companion.engine.plain import counted
from blood_companion.engine.words import name, names

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def result_lines(result: dict[str, Any], catalog: Catalog | None, sentence: str = ""
                 ) -> list[str]:
    """What a step drew and did, a line each (those its own `sentence` already says left
    out)."""
    if not result or catalog is None:
        return []
    out: list[str] = []
    day = result.get("day") or {}
    if day.get("location"):
        roll = f" (the die shows {day['location_roll']})" if day.get("location_roll") else ""
        out.append(f"Location card: {name(catalog, day['location'])}{roll}")
    if day.get("minions"):
        out.append("Minion cards: " + ", ".join(
            f"{space}: {name(catalog, m)}" for space, m in zip("AB", day["minions"], strict=False)))
    if day.get("nemesis"):
        out.append(f"Nemesis: {name(catalog, day['nemesis'])}")
    if day.get("events"):
        out.append("Event cards on the Chain: " + names(catalog, day["events"]))
    for cid in result.get("tactics") or []:
        out.append(f"Advanced Tactic card taken: {name(catalog, cid)}")
    out = [x for x in out if x.split(": ", 1)[-1] not in sentence]
    for roll in result.get("rolls") or []:
        if isinstance(roll, dict):
            out.append(f"Loot roll {roll.get('dice')}: "
                       f"{narrate.faces_words(str(roll.get('faces') or ''))} → "
                       f"{counted(int(roll.get('gained') or 0), str(roll.get('resource')))}")
    for event in result.get("events") or []:
        if isinstance(event, dict):
            out.append(narrate.render(event, catalog))
    return out
