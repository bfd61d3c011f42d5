"""The campaign history as players read it: one row per game, the totals, and what the last
finished game changed ("Roguelite Mode"), from the records engine/endgame.py writes.
"""

from __future__ import annotations

from typing import Any

from blood_companion.engine.state import RESOURCE_NAMES, CampaignState, Wagon

VLAD_REACTION_CARDS = 12  # "Components": 12 Vlad Reaction Cards


def _cycles(state: CampaignState) -> list[int]:
    """The box cycle of each history record: a cycle ends with a won game against Vlad."""
    out, cycle = [], 1
    for g in state.history:
        out.append(cycle)
        if g.rewards.get("box_reset"):
            cycle += 1
    return out


def history_rows(state: CampaignState) -> list[dict[str, Any]]:
    """One row per game: Nemesis, Location, Difficulty, result and rewards (the game still at
    its End of the Night shows the rewards taken so far, ``pending`` true)."""
    rows = []
    cycles = _cycles(state)
    for k, g in enumerate(state.history):
        rw = g.rewards
        pending = k == len(state.history) - 1 and state.part == "end" and state.rewards is not None
        if pending and state.rewards is not None:
            live = state.rewards
            rw = {"resources": live.gained, "trophies": live.trophies,
                  "vlad_weakened": live.weakened, "advanced_tactics": live.tactics_taken,
                  "given": live.given}
        rows.append({
            "game": g.number, "cycle": cycles[k], **g.model_dump(exclude={"number", "rewards"}),
            "pending": pending, "resources": dict(rw.get("resources", {})),
            "spent": rw.get("spent"), "trophies": dict(rw.get("trophies", {})),
            "vlad_weakened": list(rw.get("vlad_weakened", [])),
            "advanced_tactics": list(rw.get("advanced_tactics", [])),
            "box_reset": bool(rw.get("box_reset", False))})
    return rows


def campaign_totals(state: CampaignState, vlad_cards: int = VLAD_REACTION_CARDS) -> dict[str, Any]:
    """The numbers players like to see: nights won and lost (per Nemesis), Vlad cards weakened,
    Resources earned and spent, trophies and cards won, Vlad's defeats."""
    rows = history_rows(state)
    by_nemesis: dict[str, dict[str, int]] = {}
    trophies = {"location": 0, "nemesis": 0}
    for r in rows:
        for key, n in r["trophies"].items():
            trophies[key.split(":", 1)[0]] = trophies.get(key.split(":", 1)[0], 0) + n
        if r["nemesis"] is not None and r["result"] in ("won", "lost"):
            by_nemesis.setdefault(r["nemesis"], {"won": 0, "lost": 0})[r["result"]] += 1
    return {
        "games": len(rows), "won": sum(1 for r in rows if r["result"] == "won"),
        "lost": sum(1 for r in rows if r["result"] == "lost"), "by_nemesis": by_nemesis,
        "vlad_cards_weakened": sum(len(r["vlad_weakened"]) for r in rows),
        "vlad_weakened_now": len(state.vlad_weakened), "vlad_cards": vlad_cards,
        "vlad_defeats": state.vlad_defeats, "resources_earned": state.resources_earned,
        "resources_spent": state.resources_spent, "trophies_won": trophies,
        "advanced_tactics_won": sum(len(r["advanced_tactics"]) for r in rows)}


def finished_summary(state: CampaignState) -> dict[str, Any]:
    """What the game just finished changed, and what carries over into the next one ("Roguelite
    Mode"); after Vlad's defeat, the reset. Empty unless the last game was finished."""
    if not state.history or "box_reset" not in state.history[-1].rewards:
        return {}
    rec = state.history[-1]
    rw = rec.rewards
    earlier = [g.rewards["wagon_next"] for g in state.history[:-1] if "wagon_next" in g.rewards]
    start = earlier[-1] if earlier else Wagon().as_dict()
    end = rw["wagon"]
    return {
        "game": rec.number, "result": rec.result, "nemesis": rec.nemesis, "location": rec.location,
        "difficulty": rec.difficulty, "next_game": state.game, "next_part": state.part,
        "wagon_start": start, "wagon_end": end,
        "wagon_delta": {r: end[r] - start[r] for r in RESOURCE_NAMES if end[r] != start[r]},
        "earned": dict(rw["resources"]), "spent": rw["spent"], "reserve": dict(rw["given"]),
        "trophies": dict(rw["trophies"]), "vlad_weakened": list(rw["vlad_weakened"]),
        "vlad_weakened_total": rw["vlad_weakened_total"], "left_behind": list(rw["left_behind"]),
        "box_reset": rw["box_reset"],
        "carried": {
            "wagon": state.wagon.as_dict(), "location_trophies": dict(state.location_trophies),
            "nemesis_trophies": dict(state.nemesis_trophies),
            "vlad_weakened": list(state.vlad_weakened),
            "reserve_cards": {t.trouper: len(t.reserve_cards) for t in state.troupers},
            "bites": {t.trouper: t.bites for t in state.troupers}}}
