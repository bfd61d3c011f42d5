"""One renderer that turns any structured Effect into readable text.

Follows the rulebook's "Reading an Effect": Target, Cost, Condition, then the Outcome line with
a parenthesised Test whose success cancels the Elements before it.

The text is also the Effect language owners type when they transcribe a card: the parser in
``effect_text.py`` reads it back, and ``parse_effect(render_effect(e)) == e`` holds for every
Effect (tests/content/test_effect_text.py). So nothing here may drop a field: a count that has
no number slot is written ``2x Wound``, a Special Area lists its Tiles, words the app cannot
structure are quoted (an Outcome Element) or follow ``Free text:`` (a whole Effect).
"""

from __future__ import annotations

from blood_companion.content import models as m

KEYWORD_NAMES = {
    k: k.capitalize()
    for k in ("step", "run", "fly", "escape", "push", "attract", "move", "draw", "discard",
              "heal", "deplete", "rest", "summon")
}
# Outcome Elements printed as a symbol (no number slot); the parser reads these words back.
SYMBOL_NAMES = {
    **{k: KEYWORD_NAMES[k] for k in ("run", "fly", "rest", "deplete")}, "wound": "Wound",
    "bite": "Bite", "exhausted": "Exhausted", "physical_attack": "Physical Attack",
    "mind_attack": "Mind Attack", "place_trap": "Place a Trap", "place_whisper": "Place a Whisper",
    "consume_trap": "Consume that Trap",
}
DIE_NAMES = {"G": "Grey", "B": "Black", "R": "Red"}
PRIORITY_NAMES = {
    "closest": "closest", "farthest": "farthest", "fewest_bites": "fewest Bites",
    "most_bites": "most Bites", "fewest_wounds": "fewest Wounds", "most_wounds": "most Wounds",
    "fewest_cards_in_hand": "fewest cards in hand", "most_cards_in_hand": "most cards in hand",
    "exhausted": "Exhausted first", "not_exhausted": "not Exhausted first",
    "lowest_insanity": "lowest Insanity", "highest_insanity": "highest Insanity",
}
COST_NAMES = {
    "deplete_vigor": "Deplete {n} Vigor", "discard_card": "Discard {n} Tactic card{s}",
    "discard_bite": "Discard {n} Bite{s}", "sacrifice": "Sacrifice",
    "deplete_item": "Deplete this Item",
}
CONDITION_NAMES = {
    "bites_at_least": "{n}+ Bites", "hand_below": "fewer than {n} cards in hand",
    "wounds_at_least": "{n}+ Wounds", "exhausted": "Exhausted",
    "insanity_at_least": "Insanity {n}+", "threat_at_least": "Threat {n}+",
    "target_on_intact_trap": "the target stands on a Tile with one of your Intact Traps",
    "target_on_trap": "the target stands on a Tile with one of your Traps, Intact or Consumed",
    "active_on_whisper": "the Active Trouper is on a Tile with one of your Whispers",
}
TIMING_NAMES = {
    "beginning_of_night": "At the Beginning of the Night",
    "beginning_of_turn": "At the Beginning of the Turn",
    "beginning_of_cleanup": "At the beginning of the Cleanup Phase", "on_wound": "When wounded",
    "always": "Always",
}


def _distance(d: str) -> str:
    if d == "any":
        return "any distance"
    if d == "area":
        return "Special Area"
    return f"Distance {d}"

EVERY_NAMES = {"troupers_all": "Trouper", "minions_all": "Minion", "enemies_all": "Enemy"}


def render_target(t: m.Target) -> str:
    kind = EVERY_NAMES.get(t.kind) or {"self": "Self"}.get(t.kind, t.kind.capitalize())
    if t.minion_type:
        kind = f"{t.minion_type.capitalize()} {kind}"
    if t.kind in EVERY_NAMES:
        kind = f"every {kind}"
    if t.kind == "self" and t == m.Target(kind="self"):
        return kind
    parts = [_distance(t.distance)]
    if t.area is not None:
        # "Reading Special Areas": the Tiles of the diagram as "q,r" offsets from the Trouper.
        parts[0] = " ".join([parts[0], *t.area])
    if t.priority:
        parts.append("then ".join(PRIORITY_NAMES[p] + " " for p in t.priority).strip())
    return f"{kind} ({'; '.join(parts)})"


def render_outcome(o: m.Outcome) -> str:
    k = o.kind
    if k in m.KEYWORDS_WITH_N:
        return f"{KEYWORD_NAMES[k]} {o.n}"
    if k == "threat":
        return f"+{o.n} Threat"
    if k == "bonus_triumphs":
        return f"+{o.n} Bonus Triumph{'s' if o.n != 1 else ''}"
    if k == "reroll":
        return f"Re-roll {o.n}"
    if k == "gain_resource":
        word = (o.resource or "resources").removesuffix("s").capitalize()
        return f"+{o.n} {word}{'s' if o.n != 1 else ''}"
    # Elements without a number slot: a count other than one is written in front ("2x Wound");
    # two Elements printed side by side ("Physical Attack, Physical Attack") stay two Elements.
    if k in ("run", "fly") and o.n != 1:
        return f"{KEYWORD_NAMES[k]} {o.n}"  # the keyword list's "Run N", "Fly N"
    times = f"{o.n}x " if o.n != 1 else ""
    return times + _symbol(o)


def _symbol(o: m.Outcome) -> str:
    if o.kind in SYMBOL_NAMES:
        return SYMBOL_NAMES[o.kind]
    if o.kind == "summon":
        return f"Summon {o.minion_type.capitalize()}" if o.minion_type else "Summon"
    if o.kind == "bonus_die":
        return f"+{DIE_NAMES[o.die or 'G']} die"
    # kind "text": words the app cannot structure, quoted so they read as one Element
    return f'"{o.text or ""}"'


def render_cost(c: m.Cost) -> str:
    if c.kind in ("sacrifice", "deplete_item"):
        return (f"{c.n}x " if c.n != 1 else "") + COST_NAMES[c.kind]
    return COST_NAMES[c.kind].format(n=c.n, s="s" if c.n != 1 else "")


def render_test(t: m.EffectTest) -> str:
    what = " / ".join(x.capitalize() for x in t.traits) if t.traits else (t.dice or "")
    if t.traits and t.dice:
        what += f" / {t.dice}"
    return f"({what} {t.target})" if t.target is not None else f"({what})"


def render_effect(e: m.Effect) -> str:
    """A one-paragraph reading of an Effect, e.g.
    ``Target: Trouper (any distance; closest then fewest Bites). Outcome: Run, Wound, Bite
    (Strength / Dexterity 5).``"""
    parts: list[str] = []
    head = []
    if e.type != "standard":
        head.append(e.type.capitalize())
    if e.name:
        head.append(e.name)
    if e.timing:
        head.append(TIMING_NAMES[e.timing])
    if head:
        parts.append(" - ".join(head) + ":")
    if e.free_text is not None:
        parts.append(f"Free text: {e.free_text}")
        return " ".join(parts)
    if e.target:
        parts.append(f"Target: {render_target(e.target)}.")
    if e.cost:
        parts.append("Cost: " + ", ".join(render_cost(c) for c in e.cost) + ".")
    if e.condition:
        c = e.condition
        text = c.text if c.kind == "text" else CONDITION_NAMES[c.kind].format(n=c.n)
        parts.append(f"Condition: {text}.")
    if e.outcome or e.test:
        line = ", ".join(render_outcome(o) for o in e.outcome)
        if e.test:
            line = f"{line} {render_test(e.test)}".strip()
        parts.append(f"Outcome: {line}.")
    if e.on_failure:
        parts.append("On a failure: " + ", ".join(render_outcome(o) for o in e.on_failure) + ".")
    if e.repeat > 1:
        parts.append(f"Repeat x{e.repeat}.")
    if e.text:
        parts.append(e.text)
    return " ".join(parts)
