"""Records by their names in the data pack in use: a card, a Trouper, the Enemy card a log
event names (its ``job``), the Effect or Check it points to, a Miniature on the Map, the Tile a
summoned Minion goes to, dice faces. Words of the data pack only (no state, no rule), so every
module may name a card.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.face import trouper_name
from blood_companion.content.render import render_outcome
from blood_companion.engine.dice import DIE_NAMES
from blood_companion.engine.words.text import listing

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.night_state import EnemyJob


def job_ref(job: EnemyJob, *, weakened: bool = False) -> dict[str, Any]:
    """The ``job`` argument of an event: which Enemy card (and which part of it) acts."""
    ref: dict[str, Any] = {"source": job.source, "card": job.card}
    if job.effects is not None:
        ref["effects"] = list(job.effects)
    if job.space is not None:
        ref["space"] = job.space
    if job.miniature:
        ref["miniature"] = job.miniature
        ref["of"] = job.miniatures
    if weakened:
        ref["face"] = "weakened"
    return ref


def record_name(catalog: Catalog, id: Any, face: str | None = None) -> str:
    """A record's name in the data pack in use (its id when the pack no longer has it)."""
    rec: Any = catalog.find(str(id))
    if rec is None:
        return str(id)
    if m.instance_of(rec, "VladReactionCard"):
        return str(rec.weakened.name if face == "weakened" else rec.enhanced.name)
    return str(getattr(rec, "name", id))


def job_label(catalog: Catalog, ref: Mapping[str, Any]) -> str:
    """How players call the Enemy card of a ``job`` argument."""
    source, card = ref.get("source"), str(ref.get("card", ""))
    name = record_name(catalog, card, ref.get("face"))
    if source == "skill":
        nem = catalog.nemesis(card)
        effects = ref.get("effects") or []
        if nem is not None and effects and 0 <= effects[0] < len(nem.skills):
            return f"{nem.name}: {nem.skills[effects[0]].name or 'Skill'}"
        return f"{name}: Skill"
    if source == "weakness":
        w = catalog.get("weaknesses", card)
        return f"{w.name}: {w.effect_name}" if w is not None else name
    if source == "minion":
        space = ref.get("space", "?")
        if ref.get("of", 0) and ref["of"] > 1:
            return f"{name} ({space}, Miniature {ref.get('miniature')} of {ref['of']})"
        return f"{name} ({space})"
    return name


def _effects_of(catalog: Catalog, ref: Mapping[str, Any]) -> list[m.Effect]:
    """The Effects of the card an event names (a job or a plain card)."""
    card = str(ref.get("card", ""))
    rec = catalog.find(card)
    if rec is None:
        return []
    if m.instance_of(rec, "VladReactionCard"):
        return list(rec.weakened.effects if ref.get("face") == "weakened" else rec.enhanced.effects)
    if isinstance(rec, m.Nemesis):
        return list(rec.skills)
    effects = getattr(rec, "effects", None)
    if effects is None and hasattr(rec, "starting"):  # an Item card: its Starting side
        effects = rec.starting.effects
    return list(effects or [])


def effect_of(catalog: Catalog, ref: Mapping[str, Any], k: int) -> m.Effect | None:
    """Effect ``k`` of the card an event names (None when the data pack no longer has it)."""
    effects = _effects_of(catalog, ref)
    return effects[k] if 0 <= k < len(effects) else None


def effect_text(catalog: Catalog, args: Mapping[str, Any]) -> str:
    k = args.get("effect")
    eff = effect_of(catalog, args.get("job") or args, k) if isinstance(k, int) else None
    if eff is not None:
        return eff.text or ", ".join(render_outcome(o) for o in eff.outcome)
    return str(args.get("effect_text", "(an Effect no longer in the data pack)"))


def check_text(catalog: Catalog, ref: Mapping[str, Any]) -> str:
    rec: Any = catalog.find(str(ref.get("card", "")))
    check = None
    if m.instance_of(rec, "VladReactionCard"):
        check = (rec.weakened if ref.get("face") == "weakened" else rec.enhanced).check
    elif rec is not None:
        check = getattr(rec, "check", None)
    if check is None:
        return "its rule"
    return str(check.text or check.kind.replace("_", " "))


def outcome_words(value: Any) -> str:
    try:
        return render_outcome(m.Outcome.model_validate(value))
    except Exception:  # noqa: BLE001 - an element from another data version: show its kind
        return str(value.get("kind", value)) if isinstance(value, dict) else str(value)


def summon_tile(catalog: Catalog, place: Mapping[str, Any] | None) -> str:
    """Where a summoned Minion's Miniature goes ("Summon"): the Tile of the Trouper the Effect
    targets (``who``), a Tile at the Effect's Distance from its source (``distance``, ``src``),
    else the Nemesis's Tile."""
    if place and place.get("who"):
        return f"the Tile of {trouper_name(catalog, place['who'])}"
    if place and place.get("distance"):
        src = record_name(catalog, place.get("src", ""))
        if place["distance"] in ("any", "area"):
            return f"the Tile {src}'s Effect names (Leader's Rule picks it)"
        return f"a Tile at Distance {place['distance']} from {src} (Leader's Rule picks it)"
    return "the Nemesis's Tile"


def miniature_name(catalog: Catalog, ref: Mapping[str, Any] | None) -> str:
    """A Miniature on the Map: a Trouper, the Nemesis, a Minion (with its space)."""
    if not ref:
        return "the Effect's target"
    if "trouper" in ref:
        return trouper_name(catalog, ref["trouper"])
    if "any" in ref:
        what = "Minion" if ref["any"] == "minion" else "Enemy"
        return f"the {what} the Effect targets (on the Map)"
    if "goal" in ref:  # an Enemy a movement goes toward: the players see which on the Map
        kind = str(ref["goal"]).capitalize()
        what = f"{str(ref['type']).capitalize()} {kind}" if ref.get("type") else kind
        near = f"{ref['by']} " if ref.get("by") else ""
        return f"the {near}{what} (the Map shows which; a tie: the Leader's Rule)"
    if "distance" in ref:
        if ref["distance"] == "any":
            return "a Tile (Leader's Rule picks it)"
        return f"a Tile at Distance {ref['distance']} (Leader's Rule picks it)"
    if "among" in ref:
        names = listing(trouper_name(catalog, t) for t in ref["among"])
        if ref.get("by") in ("closest", "farthest"):
            return (f"the {ref['by']} of {names} (the Map shows which; a tie: the Leader's "
                    "Rule)")
        return f"one of {names} (tied after its Target Priorities: the Leader's Rule)"
    rec = catalog.find(str(ref.get("card", "")))
    name = record_name(catalog, ref.get("card"))
    if isinstance(rec, m.Minion):
        return f"the {name} Minion" + (f" on space {ref['space']}" if ref.get("space") else "")
    return name


def faces_words(text: str) -> str:
    """Recorded faces spelled out: "R0x G1" -> "Red die: a Defeat; Grey die: 1 Triumph"
    (an entry it cannot read, a face label, stays as written)."""
    out = []
    for entry in text.split():
        found = re.fullmatch(r"([RGB]?):?(\d*)(?:/(\d+))?(x*)", entry)
        if found is None or not any(found.groups()[1:]):
            out.append(entry)
            continue
        die, won, lost, xs = found.groups()
        n, k = int(won or 0), int(lost) if lost else len(xs)
        face = " and ".join(([f"{n} Triumph" + "s" * (n != 1)] if n else [])
                            + (["a Defeat" if k == 1 else f"{k} Defeats"] if k else []))
        out.append((f"{DIE_NAMES[die]} die: " if die else "") + (face or "a blank face"))
    return "; ".join(out)
