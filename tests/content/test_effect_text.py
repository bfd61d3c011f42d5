"""The Effect language: `parse_effect` reads what `render_effect` writes (every shipped Effect
and generated ones), accepts the rulebook's own ways of writing an Effect, and points at the
word it could not read."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blood_companion.content import models as m
from blood_companion.content.effect_text import EffectSyntaxError, parse_effect
from blood_companion.content.loader import shipped_data_dir, validate_layers
from blood_companion.content.render import CONDITION_NAMES, render_effect

# --------------------------------------------------------------------------- shipped data


def test_every_shipped_effect_round_trips() -> None:
    shipped = validate_layers([shipped_data_dir()])  # the pack alone, whatever the environment
    records = [r for recs in shipped.records.values() for r in recs]
    assert sum(r.source == "placeholder" for r in records) == 283
    checked = 0
    for record in records:
        for effect in m.effects_in(record):
            text = render_effect(effect)
            assert parse_effect(text) == effect, (record.id, text)
            checked += 1
    assert checked > 350


# --------------------------------------------------------------------------- generated Effects
# The domain the renderer promises to be injective on: counts and kinds in range, a field set
# only where its kind uses it, and words (names, notes, quoted Elements, Conditions in words)
# that do not themselves read as Effect syntax (see docs/transcribing.md, "What the parser
# cannot tell apart").

WORDS = ["the", "Trouper", "moves", "away", "rests", "near", "Tile", "bell", "old", "Wagon",
         "crimson", "lantern", "rope", "shadow", "whose", "turn", "is", "next", "it"]
words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
note = st.tuples(words, st.sampled_from(["", ".", "!", " (then rest)."])).map("".join)
name = st.lists(st.sampled_from(["Bat", "Form", "Crimson", "Kiss", "Old", "Rope", "Bell"]),
                min_size=1, max_size=3).map(" ".join)
small = st.integers(0, 20)
pools = st.lists(st.sampled_from(["R", "G", "B", "2G", "3B", "2R", "2 G"]), min_size=1,
                 max_size=3).map(" ".join)


@st.composite
def outcomes(draw: Any) -> m.Outcome:
    kind = draw(st.sampled_from([k for k in m.OutcomeKind.__args__]))  # type: ignore[attr-defined]
    fields: dict[str, Any] = {"kind": kind, "n": draw(small)}
    if kind == "summon":
        fields["minion_type"] = draw(st.none() | st.sampled_from(m.MINION_TYPES))
    elif kind == "bonus_die":
        fields["die"] = draw(st.sampled_from(["R", "G", "B"]))
    elif kind == "gain_resource":
        fields["resource"] = draw(st.none() | st.sampled_from(m.RESOURCES))
    elif kind == "text":
        fields["text"] = draw(st.tuples(words, st.sampled_from(["", ", then rest", " (twice)"]))
                              .map("".join))
    elif kind in m.DIRECTED_MOVES and draw(st.booleans()):
        # "Step 1 toward the closest Trouper", "Move 2 away from the Nemesis" (issue 43)
        fields["toward"] = draw(targets().filter(lambda t: t.kind not in (
            "self", "troupers_all", "minions_all", "enemies_all")))
        fields["away"] = draw(st.booleans())
    return m.Outcome(**fields)


@st.composite
def targets(draw: Any) -> m.Target:
    distance = draw(st.sampled_from(["any", "area", "0", "1", "0-1", "0-3", "12"]))
    fields: dict[str, Any] = {
        "kind": draw(st.sampled_from(m.Target.model_fields["kind"].annotation.__args__)),
        "distance": distance,
        "priority": draw(st.lists(st.sampled_from(
            m.Target.model_fields["priority"].annotation.__args__[0].__args__), max_size=3)),
        "minion_type": draw(st.none() | st.sampled_from(m.MINION_TYPES)),
    }
    if draw(st.booleans()):
        offset = st.tuples(st.integers(-3, 3), st.integers(-3, 3)).map(lambda p: f"{p[0]},{p[1]}")
        fields["area"] = draw(st.lists(offset, min_size=1, max_size=5))
    return m.Target(**fields)


NO_N_CONDITIONS = {w.casefold() for w in CONDITION_NAMES.values() if "{n}" not in w}


@st.composite
def conditions(draw: Any) -> m.Condition:
    kind = draw(st.sampled_from(m.Condition.model_fields["kind"].annotation.__args__))
    if kind == "text":
        return m.Condition(
            kind="text",
            text=draw(words.filter(lambda w: w.casefold() not in NO_N_CONDITIONS)),
        )
    if "{n}" not in CONDITION_NAMES[kind]:  # "Exhausted", the Trap and Whisper Conditions
        return m.Condition(kind=kind)
    return m.Condition(kind=kind, n=draw(st.integers(0, 12)))


tests_ = st.one_of(
    st.builds(m.EffectTest, traits=st.lists(st.sampled_from(m.TRAITS), min_size=1, max_size=3),
              dice=st.none() | pools, target=st.none() | st.integers(0, 12)),
    st.builds(m.EffectTest, dice=pools, target=st.none() | st.integers(0, 12)),
)
costs = st.builds(
    m.Cost,
    kind=st.sampled_from(m.Cost.model_fields["kind"].annotation.__args__),
    n=st.integers(1, 6),
)


@st.composite
def effects(draw: Any) -> m.Effect:
    head = {
        "type": draw(st.sampled_from(["standard", "aura", "support", "quick"])),
        "name": draw(st.none() | name),
        "timing": draw(st.none() | st.sampled_from(
            m.Effect.model_fields["timing"].annotation.__args__[0].__args__)),
    }
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.text(min_size=1, max_size=40).map(str.strip).filter(bool))
        return m.Effect(**head, free_text=text)
    body = {
        "target": draw(st.none() | targets()),
        "cost": draw(st.lists(costs, max_size=3)),
        "condition": draw(st.none() | conditions()),
        "outcome": draw(st.lists(outcomes(), max_size=4)),
        "test": draw(st.none() | tests_),
        "on_failure": draw(st.lists(outcomes(), max_size=2)),
        "repeat": draw(st.integers(1, 6)),
        "text": draw(st.none() | note),
    }
    structured = ("target", "cost", "condition", "outcome", "test", "on_failure")
    if not any(body[k] for k in structured):
        body["outcome"] = [m.Outcome(kind="wound")]
    return m.Effect(**head, **body)


@settings(max_examples=400, deadline=None)
@given(effects())
def test_generated_effects_round_trip(effect: m.Effect) -> None:
    text = render_effect(effect)
    assert parse_effect(text) == effect, text


# --------------------------------------------------------------------------- as printed


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        (
            "Target: Enemy (Distance 0-3). Condition: 2+ Bites. Cost: Deplete 1 Vigor. "
            "Outcome: Physical Attack, Physical Attack (Dexterity / Cunning).",
            m.Effect(
                target=m.Target(kind="enemy", distance="0-3"),
                condition=m.Condition(kind="bites_at_least", n=2),
                cost=[m.Cost(kind="deplete_vigor")],
                outcome=[m.Outcome(kind="physical_attack"), m.Outcome(kind="physical_attack")],
                test=m.EffectTest(traits=["dexterity", "cunning"]),
            ),
        ),
        # the rulebook's own examples ("Reading the Elements of a Target / Cost / Outcome")
        (
            "Target: Trouper (Distance ∞, Bites -X). Outcome: Physical Attack (Strength 5 / "
            "Dexterity 5)",
            m.Effect(
                target=m.Target(kind="trouper", distance="any", priority=["fewest_bites"]),
                outcome=[m.Outcome(kind="physical_attack")],
                test=m.EffectTest(traits=["strength", "dexterity"], target=5),
            ),
        ),
        (
            "target: minion at distance 0-1. cost: discard 1 bite token. condition: 3 bite "
            "tokens. outcome: push 2, 2 wounds (strength or dexterity 4)",
            m.Effect(
                target=m.Target(kind="minion", distance="0-1"),
                cost=[m.Cost(kind="discard_bite")],
                condition=m.Condition(kind="bites_at_least", n=3),
                outcome=[m.Outcome(kind="push", n=2), m.Outcome(kind="wound", n=2)],
                test=m.EffectTest(traits=["strength", "dexterity"], target=4),
            ),
        ),
        (
            "Condition: You have less than 3 Tactic Cards in your hand. Target: Self. "
            "Outcome: Draw 2",
            m.Effect(
                condition=m.Condition(kind="hand_below", n=3),
                target=m.Target(kind="self"),
                outcome=[m.Outcome(kind="draw", n=2)],
            ),
        ),
        (
            "Quick - Sacrifice: Target: Self. Outcome: Heal 2, Re-roll 1, +Black die.",
            m.Effect(
                type="quick",
                cost=[m.Cost(kind="sacrifice")],
                target=m.Target(kind="self"),
                outcome=[
                    m.Outcome(kind="heal", n=2),
                    m.Outcome(kind="reroll"),
                    m.Outcome(kind="bonus_die", die="B"),
                ],
            ),
        ),
        (
            "Support: Target: Enemy (Special Area 0,0 1,0 2,0). Outcome: Mind Attack (Madness). "
            "Repeat x2. One Test per Enemy in the line.",
            m.Effect(
                type="support",
                target=m.Target(kind="enemy", distance="area", area=["0,0", "1,0", "2,0"]),
                outcome=[m.Outcome(kind="mind_attack")],
                test=m.EffectTest(traits=["madness"]),
                repeat=2,
                text="One Test per Enemy in the line.",
            ),
        ),
        (
            "Aura - Bat Form - When wounded: Target: Beast Minion (Distance 0). Outcome: "
            "Summon Abomination, \"she laughs\".",
            m.Effect(
                type="aura",
                name="Bat Form",
                timing="on_wound",
                target=m.Target(kind="minion", distance="0", minion_type="beast"),
                outcome=[
                    m.Outcome(kind="summon", minion_type="aberration"),
                    m.Outcome(kind="text", text="she laughs"),
                ],
            ),
        ),
        ("Free text: Swap places with an adjacent Trouper.",
         m.Effect(free_text="Swap places with an adjacent Trouper.")),
        # a forgotten full stop before the next section is forgiven
        ("Target: Enemy (Distance 0) Outcome: Wound",
         m.Effect(target=m.Target(kind="enemy", distance="0"), outcome=[m.Outcome(kind="wound")])),
    ],
)
def test_typed_as_printed(typed: str, expected: m.Effect) -> None:
    effect = parse_effect(typed)
    assert effect == expected
    # what is shown back for confirmation reads the same way again
    assert parse_effect(render_effect(effect)) == effect


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("typed", "column", "word", "says", "suggests"),
    [
        ("Target: Enemy 0-1. Outcome: Wound.", 15, "0-1", "expected a Distance in brackets "
         "after 'Enemy'", "Enemy (Distance 0-1)"),
        ("Target: Enemy (Distanse 0). Outcome: Wound.", 16, "Distanse", "expected a Distance",
         "did you mean 'Distance'?"),
        ("Targt: Enemy (Distance 0). Outcome: Wound.", 1, "Targt", "unknown section 'Targt'",
         "did you mean 'Target:'?"),
        ("Target: Self. Outcom: Step 1.", 15, "Outcom", "unknown section", "'Outcome:'"),
        ("Target: Self. Outcome: Stpe 1.", 24, "Stpe 1", "unknown Outcome Element",
         "did you mean 'Step 1'?"),
        ("Target: Self. Outcome: Push (Strength).", 24, "Push", "expected a number after "
         "'Push'", "Push 1"),
        ("Target: Self. Outcome: Wound (Strenght 4).", 31, "Strenght", "expected a Trait",
         "did you mean 'Strength'?"),
        ("Target: Trouper (Distance 0; closest then fewst Bites). Outcome: Bite.", 43,
         "fewst Bites", "unknown Target Priority", "did you mean 'fewest Bites'?"),
        ("Cost: Deplete 9 Vigor. Target: Self. Outcome: Heal 1.", 7, "Deplete", "1 to 6", None),
        ("Target: Self. Cost: Pay 2 coins. Outcome: Heal 1.", 21, "Pay 2 coins", "unknown Cost",
         None),
        ("Swap places with an adjacent Trouper.", 1, "Swap", "expected a section",
         "Free text: "),
        ("Target: Self. Target: Self. Outcome: Step 1.", 15, "Target", "a second 'Target'",
         None),
        ("Target: Self. Outcome: Step 1 (Strength 4 / Dexterity 5).", 45, "Dexterity",
         "one target number", None),
        ("Cascade", 1, "Cascade", "a mark of the card", "card's fields"),
        ("   ", 1, "", "empty", None),
    ],
)
def test_errors_point_at_the_word(
    typed: str, column: int, word: str, says: str, suggests: str | None
) -> None:
    with pytest.raises(EffectSyntaxError) as info:
        parse_effect(typed)
    err = info.value
    assert err.column == column, str(err)
    assert err.word.startswith(word) if word else True, err.word
    assert says in err.message
    assert f"at column {column}" in str(err)
    if suggests:
        assert err.suggestion and suggests in err.suggestion, err.suggestion
    # the caret line sits under the word
    caret = err.pointer().splitlines()[1]
    assert caret.index("^") == column - 1


def test_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="column"):
        parse_effect("Outcome: Swap 2.")
