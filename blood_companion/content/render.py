"""One renderer that turns any structured Effect into readable text, and the tables of the words.

Follows the rulebook's "Reading an Effect": Target, Cost, Condition, then the Outcome line with
a parenthesised Test whose success cancels the Elements before it.

The text is also the Effect language owners type when they transcribe a card: the parser in
``effect_text.py`` reads it back from the same tables, and ``parse_effect(render_effect(e)) == e``
holds for every Effect (tests/content/test_effect_text.py). So nothing here may drop a field: a
count that has no number slot is written ``2x Wound``, a Special Area lists its Tiles, words the
app cannot structure are quoted (an Outcome Element) or follow ``Free text:`` (a whole Effect).

A form's ``{n}`` is its count and ``{s}`` the plural ending; a form without ``{n}`` is printed
once per count, the count other than one in front (``2x Wound``).
"""

from __future__ import annotations

from blood_companion.content import models as m

# The Outcome Elements (Rules Compendium, "Elements"). The forms without a "{" are the symbols
# with no number slot; the parser reads those words back as they are.
OUTCOME_FORMS = {
    **{k: f"{k.capitalize()} {{n}}" for k in sorted(m.KEYWORDS_WITH_N)},
    "threat": "+{n} Threat", "bonus_triumphs": "+{n} Bonus Triumph{s}", "reroll": "Re-roll {n}",
    "gain_resource": "+{n} {resource}{s}", "run": "Run", "fly": "Fly", "rest": "Rest",
    "deplete": "Deplete", "wound": "Wound", "bite": "Bite", "exhausted": "Exhausted",
    "physical_attack": "Physical Attack", "mind_attack": "Mind Attack",
    "place_trap": "Place a Trap", "place_whisper": "Place a Whisper", "place_cube": "Place a Cube",
    "consume_trap": "Consume that Trap", "summon": "Summon{minion_type}", "bonus_die": "+{die} die",
    "text": '"{text}"',  # words the app cannot structure, quoted so they read as one Element
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
EVERY_NAMES = {"troupers_all": "Trouper", "minions_all": "Minion", "enemies_all": "Enemy"}
DISTANCE_NAMES = {"any": "any distance", "area": "Special Area"}


def counted(form: str, n: int, **values: str) -> str:
    """A form with its count: in its ``{n}`` slot, else in front when not one (``2x Wound``)."""
    times = f"{n}x " if n != 1 and "{n}" not in form else ""
    return times + form.format(n=n, s="s" if n != 1 else "", **values)


_PLAIN_SELF = m.Target.model_construct(kind="self")  # every other field at its default


def render_target(t: m.Target) -> str:
    kind = EVERY_NAMES.get(t.kind) or {"self": "Self"}.get(t.kind, t.kind.capitalize())
    if t.minion_type:
        kind = f"{t.minion_type.capitalize()} {kind}"
    if t.kind in EVERY_NAMES:
        kind = f"every {kind}"
    if t.kind == "self" and t == _PLAIN_SELF:
        return kind
    # "Reading Special Areas": the Tiles of the diagram as "q,r" offsets from the Trouper.
    parts = [" ".join([DISTANCE_NAMES.get(t.distance, f"Distance {t.distance}"), *(t.area or [])])]
    if t.priority:
        parts.append("then ".join(PRIORITY_NAMES[p] + " " for p in t.priority).strip())
    return f"{kind} ({'; '.join(parts)})"


def render_outcome(o: m.Outcome) -> str:
    form = OUTCOME_FORMS[o.kind]
    if o.kind in ("run", "fly") and o.n != 1:
        form += " {n}"  # the keyword list's "Run N", "Fly N"
    # two Elements printed side by side ("Physical Attack, Physical Attack") stay two Elements
    text = counted(
        form, o.n, text=o.text or "", die=DIE_NAMES[o.die or "G"],
        resource=(o.resource or "resources").removesuffix("s").capitalize(),
        minion_type=f" {o.minion_type.capitalize()}" if o.minion_type else "",
    )
    if o.toward is not None:
        text += f" {'away from' if o.away else 'toward'} {render_goal(o.toward)}"
    return text


def render_goal(t: m.Target) -> str:
    """The Target a movement goes toward: ``the Nemesis``, ``the closest Trouper``, or with more
    than that, ``the Trouper (any distance; closest then fewest Bites)``."""
    noun = render_target(m.Target(kind=t.kind, minion_type=t.minion_type)).split(" (")[0]
    if t.distance == "any" and t.area is None:
        if not t.priority:
            return f"the {noun}"
        if t.priority in (["closest"], ["farthest"]):
            return f"the {t.priority[0]} {noun}"
    return f"the {render_target(t)}"


def render_test(t: m.EffectTest) -> str:
    what = " / ".join(x.capitalize() for x in t.traits) if t.traits else (t.dice or "")
    if t.traits and t.dice:
        what += f" / {t.dice}"
    return f"({what} {t.target})" if t.target is not None else f"({what})"


def render_effect(e: m.Effect) -> str:
    """A one-paragraph reading of an Effect, e.g.
    ``Target: Trouper (any distance; closest then fewest Bites). Outcome: Run, Wound, Bite
    (Strength / Dexterity 5).``"""
    head = [e.type.capitalize()] if e.type != "standard" else []
    head += [e.name] if e.name else []
    head += [TIMING_NAMES[e.timing]] if e.timing else []
    parts = [" - ".join(head) + ":"] if head else []
    if e.free_text is not None:
        return " ".join([*parts, f"Free text: {e.free_text}"])
    if e.target:
        parts.append(f"Target: {render_target(e.target)}.")
    if e.cost:
        parts.append("Cost: " + ", ".join(counted(COST_NAMES[c.kind], c.n) for c in e.cost) + ".")
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
