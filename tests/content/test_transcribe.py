"""The pure parts of transcription: the question machine (answers, undo, replay, free text),
the queue order, the text form's planning, the overlay writer, progress, and the Building rule
while a deck is half typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from blood_companion.content import models as m
from blood_companion.content.card_text import Known, card_text, plan_import, read_cards
from blood_companion.content.cards import AnswerError
from blood_companion.content.errors import ContentError
from blood_companion.content.loader import KINDS, shipped_data_dir, validate_layers
from blood_companion.content.overlay import (
    check_records,
    overlay_file,
    remove_record,
    write_records,
)
from blood_companion.content.progress import progress_json
from blood_companion.content.transcribe import Card, CardSession, queue


@pytest.fixture(scope="module")
def shipped() -> Any:
    return validate_layers([shipped_data_dir()])


def answer_all(session: CardSession, answers: list[str]) -> None:
    for a in answers:
        session.answer(a)


# --------------------------------------------------------------------------- the session


def test_keep_takes_the_placeholder_and_effects_are_what_was_typed(shipped: Any) -> None:
    # over a placeholder Enter takes nothing (issue 27): "keep" accepts the value shown
    base = shipped.get("reactions", "lucilla-r02")
    session = CardSession("reactions", base)
    asked = []
    while (p := session.prompt()) is not None and p.kind == "field":
        asked.append(p.question.split(":")[0])
        session.answer("keep")
    assert asked == ["name", "background", "fatigue", "interruption", "check"]
    prompt = session.prompt()
    assert prompt is not None and prompt.kind == "effect" and prompt.question == "Effect 1"
    assert any("Target: Trouper (Distance 0-1" in line for line in prompt.info)
    answer_all(session, ["Target: Trouper (Distance 0). Outcome: 2x Bite (Dexterity 5)", "yes",
                         "", "yes"])
    assert session.done and session.record is not None
    assert session.record.source == "transcribed" and session.record.name == base.name
    assert session.record.effects == [
        m.Effect(target=m.Target(kind="trouper", distance="0"),
                 outcome=[m.Outcome(kind="bite", n=2)],
                 test=m.EffectTest(traits=["dexterity"], target=5))
    ]


def test_a_refused_answer_changes_nothing(shipped: Any) -> None:
    session = CardSession("starting_tactics", shipped.get("starting_tactics", "aurel-t01"))
    session.answer("Ricochet")
    with pytest.raises(AnswerError, match="not one of the choices") as info:
        session.answer("jugling")
    assert info.value.hint and "did you mean 'juggling'?" in info.value.hint
    assert session.answers == ["Ricochet"]
    assert session.prompt().question.startswith("art:")  # type: ignore[union-attr]


def test_an_unreadable_effect_can_be_kept_as_free_text(shipped: Any) -> None:
    session = CardSession("starting_tactics", shipped.get("starting_tactics", "aurel-t01"))
    answer_all(session, ["keep"] * 5)
    with pytest.raises(AnswerError, match="at column 1") as info:
        session.answer("Swap places with Aurel")
    assert info.value.pointer == "Swap places with Aurel\n^^^^"
    assert "'free'" in (info.value.hint or "")
    session.answer("free")
    prompt = session.prompt()
    assert prompt is not None and prompt.kind == "confirm_effect"
    assert prompt.info[0] == "Read as: Free text: Swap places with Aurel"
    # the draft records the words, so a replay makes the same Effect
    assert session.answers[-1] == "Free text: Swap places with Aurel"
    answer_all(session, ["yes", "", "yes"])
    assert session.record.effects == [m.Effect(free_text="Swap places with Aurel")]  # type: ignore[union-attr]


def test_free_needs_a_failed_effect_first(shipped: Any) -> None:
    session = CardSession("starting_tactics", shipped.get("starting_tactics", "aurel-t01"))
    answer_all(session, ["keep"] * 5)
    with pytest.raises(AnswerError, match="type the Effect first"):
        session.answer("free")


def test_undo_and_replay(shipped: Any) -> None:
    base = shipped.get("starting_tactics", "aurel-t01")
    session = CardSession("starting_tactics", base)
    answers = ["Ricochet", "juggling", "3", "yes", "", "Target: Self. Outcome: Step 1.", "y"]
    answer_all(session, answers)
    assert session.prompt().question == "Effect 2"  # type: ignore[union-attr]
    assert session.undo()  # the confirmation
    assert session.prompt().kind == "confirm_effect"  # type: ignore[union-attr]
    assert session.undo() and session.undo()
    assert session.prompt().question == "block"  # type: ignore[union-attr]
    again = CardSession("starting_tactics", base, answers)
    assert again.answers == answers and again.prompt().question == "Effect 2"  # type: ignore[union-attr]
    # a draft whose answers no longer fit keeps what still does
    stale = CardSession("starting_tactics", base, ["Ricochet", "not an art", "3"])
    assert stale.answers == ["Ricochet"]
    while session.undo():
        pass
    assert session.answers == [] and not session.undo()


def test_a_field_is_checked_against_the_whole_card_at_once(shipped: Any) -> None:
    session = CardSession("troupers", shipped.get("troupers", "aurel"))
    answer_all(session, ["keep", "keep"])
    with pytest.raises(AnswerError, match="missing Trait"):
        session.answer("{strength: 3B}")
    session.answer("{strength: 3B, dexterity: 2G B, cunning: R G B, madness: 2R G}")
    assert session.prompt().question == "building"  # type: ignore[union-attr]


def test_a_card_that_does_not_hold_is_not_finished(shipped: Any) -> None:
    session = CardSession("starting_tactics", shipped.get("starting_tactics", "aurel-t01"))
    answer_all(session, ["keep"] * 5 + [""])
    prompt = session.prompt()
    assert prompt is not None and prompt.kind == "confirm_card"
    with pytest.raises(AnswerError, match="nothing written"):
        session.answer("no")
    session.answer("")
    assert session.record is not None and session.record.effects == []


def test_item_sides_are_asked_in_turn(shipped: Any) -> None:
    session = CardSession("trouper_items", shipped.get("trouper_items", "aurel-i01"))
    asked = []
    while (p := session.prompt()) is not None and p.kind != "confirm_card":
        asked.append(p.question.split(":")[0])
        session.answer("keep" if p.kind == "field" else "")
    assert asked == ["name", "category", "starting side name", "starting side quick",
                     "Starting side Effect 1", "advanced side name", "advanced side quick",
                     "Advanced side Effect 1", "upgrade cost"]


# --------------------------------------------------------------------------- the queue


def test_queue_puts_the_table_first(shipped: Any) -> None:
    cards = queue(shipped, table=[(["zora"], ["mirela"])])
    assert cards[0] == Card("troupers", "zora")
    assert [c.kind for c in cards[1:13]] == ["starting_tactics"] * 12
    assert [c.kind for c in cards[13:19]] == ["trouper_items"] * 6
    assert cards[19] == Card("nemeses", "mirela")
    assert {c.id for c in cards[20:32]} == {r.id for r in shipped.reactions_for("mirela")}
    assert not any(c.kind in ("rules_config", "components") for c in cards)
    assert len(cards) == len(set(cards)) == 282
    assert queue(shipped, kind="dice")[0] == Card("dice", "red")
    deck = queue(shipped, kind="starting_tactics", deck="petru")
    assert [c.id for c in deck] == [f"petru-t{i:02}" for i in range(1, 13)]
    assert queue(shipped, start="petru-t11", deck="petru")[0].id == "petru-t11"
    assert len(queue(shipped, start="petru-t11", deck="petru")) == 2 + 6  # and petru's Items
    assert len(queue(shipped, kind="starting_tactics", start="petru-t11", deck="petru")) == 2


# --------------------------------------------------------------------------- text planning


def known_for(catalog: Any, in_overlay: dict[str, tuple[str, bool]] | None = None) -> Known:
    return Known(catalog, lambda k, i: f"data/{k}.yaml:1",
                 lambda k, i: (in_overlay or {}).get(i))


def kind_of(catalog: Any) -> Any:
    return lambda i: next((k for k in KINDS if catalog.get(k, i) is not None), None)


def test_cards_without_ids_fill_the_decks_placeholders_in_order(shipped: Any) -> None:
    text = "kind: reactions\nnemesis: corvin\n\nOne\nTarget: Self. Outcome: Step 1.\n\nTwo\n" \
           "Interruption\nOutcome: +1 Threat.\n"
    cards, problems = read_cards(text, "f.txt", kind_of(shipped))
    assert problems == []
    planned, problems = plan_import(cards, "f.txt", known_for(shipped))
    assert problems == []
    assert [p.record.id for p in planned] == ["corvin-r01", "corvin-r02"]
    assert planned[1].record.interruption and planned[1].record.nemesis == "corvin"
    # a transcribed card starts empty: the placeholder's background is not kept (issue 27)
    assert planned[0].kept == [] and planned[0].record.background is None


def test_a_deck_needs_its_owner_and_a_free_slot(shipped: Any) -> None:
    cards, _ = read_cards("kind: reactions\n\nOne\nOutcome: Fly.\n", "f.txt", kind_of(shipped))
    _, problems = plan_import(cards, "f.txt", known_for(shipped))
    assert "whose card is it? add 'nemesis: ...'" in problems[0].message
    text = "kind: weaknesses\nnemesis: ilie\n\n" + "".join(
        # an id-less Weakness takes the placeholder of its side (issue 43): one a side
        f"W{i}\nside: {side}\neffect name: Gash\n\n"
        for i, side in enumerate(("front", "left", "right", "front"))
    )
    cards, _ = read_cards(text, "f.txt", kind_of(shipped))
    planned, problems = plan_import(cards, "f.txt", known_for(shipped))
    assert len(planned) == 3 and len(problems) == 1
    assert "no placeholder card of 'ilie' is left" in problems[0].message


def test_new_cards_and_kind_lines(shipped: Any) -> None:
    text = ("kind: advanced_tactics\n\nFresh Trick [adv-alchemy-99]\nart: alchemy\nthreat: 2\n"
            "cost: {coins: 2}\nTarget: Self. Outcome: Heal 1.\n")
    cards, problems = read_cards(text, "f.txt", kind_of(shipped))
    planned, problems = plan_import(cards, "f.txt", known_for(shipped))
    assert problems == []
    (p,) = planned
    assert p.replaces == "new" and p.record.kind == "advanced"
    assert p.record.cost == m.ResourceCost(coins=2)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("colour: red", "is not a field of a starting_tactics card"),
        ("threat: lots", "threat: 'lots' does not fit"),
        ("Cost: Deplete 1 Vigor", "Effect: unknown Cost 'Pay' at column 21"),
    ],
)
def test_unreadable_lines(shipped: Any, line: str, says: str) -> None:
    text = f"kind: starting_tactics\ntrouper: aurel\n\nCard\nart: alchemy\n{line}\n"
    if "Cost" in line:
        text = text.replace(line, "Outcome: Fly. Cost: Pay")
    _, problems = read_cards(text, "f.txt", kind_of(shipped))
    assert problems and problems[0].line == 6
    assert says in problems[0].message


def test_cards_round_trip_through_the_text_form(shipped: Any) -> None:
    for kind in KINDS:
        for record in shipped.all(kind):
            cards, problems = read_cards(card_text(kind, record), "f.txt", kind_of(shipped))
            assert problems == [], (kind, record.id)
            planned, problems = plan_import(cards, "f.txt", known_for(shipped))
            assert problems == [], (kind, record.id)
            assert planned[0].record == record.model_copy(update={"source": "transcribed"})


# --------------------------------------------------------------------------- the overlay


def test_write_replace_remove(shipped: Any, tmp_path: Path) -> None:
    a = shipped.get("reactions", "lucilla-r01").model_copy(update={"source": "transcribed"})
    b = shipped.get("reactions", "lucilla-r02").model_copy(update={"source": "transcribed"})
    order = {"lucilla-r01": 0, "lucilla-r02": 1}
    write_records(tmp_path, "reactions", "lucilla", [b], order)
    path = write_records(tmp_path, "reactions", "lucilla", [a], order)
    assert path == overlay_file(tmp_path, "reactions", "lucilla")
    assert [r["id"] for r in yaml.safe_load(path.read_text())] == ["lucilla-r01", "lucilla-r02"]
    cat = validate_layers([shipped_data_dir(), tmp_path])
    assert cat.get("reactions", "lucilla-r02").source == "transcribed"
    renamed = a.model_copy(update={"name": "Renamed"})
    write_records(tmp_path, "reactions", "lucilla", [renamed], order)
    assert validate_layers([shipped_data_dir(), tmp_path]).get(
        "reactions", "lucilla-r01").name == "Renamed"
    assert remove_record(tmp_path, "reactions", "lucilla", "lucilla-r01")
    assert not remove_record(tmp_path, "reactions", "lucilla", "lucilla-r01")
    assert remove_record(tmp_path, "reactions", "lucilla", "lucilla-r02")
    assert not path.exists()
    assert not list(tmp_path.glob("reactions/.*tmp"))


def test_check_records_names_the_problem(shipped: Any) -> None:
    card = shipped.get("reactions", "lucilla-r01").model_copy(
        update={"source": "transcribed", "nemesis": "nobody"})
    problems = check_records([shipped_data_dir()], [("reactions", card)])
    assert any("unknown lieutenant Nemesis 'nobody'" in p.message for p in problems)
    assert check_records([shipped_data_dir()], [
        ("reactions", card.model_copy(update={"nemesis": "lucilla"}))]) == []


def test_a_half_typed_deck_still_loads(shipped: Any, tmp_path: Path) -> None:
    """The Building rule is checked once a deck and its Trouper card are all typed."""
    first = shipped.get("starting_tactics", "aurel-t01").model_copy(
        update={"source": "transcribed", "art": "pacts"})
    write_records(tmp_path, "starting_tactics", "aurel", [first])
    validate_layers([shipped_data_dir(), tmp_path])  # mixed: no complaint
    deck = [c.model_copy(update={"source": "transcribed"})
            for c in shipped.starting_tactics_for("aurel")[1:]]
    write_records(tmp_path, "starting_tactics", "aurel", deck)
    trouper = shipped.trouper("aurel").model_copy(update={"source": "transcribed"})
    write_records(tmp_path, "troupers", "troupers", [trouper])
    with pytest.raises(ContentError, match="do not follow the building rule"):
        validate_layers([shipped_data_dir(), tmp_path])


def test_progress_counts(shipped: Any) -> None:
    doc = progress_json(shipped)
    assert doc["totals"]["placeholder"] == 283 and doc["totals"]["transcribed"] == 0
    assert doc["kinds"]["reactions"]["decks"]["lucilla"]["total"] == 12
    assert doc["kinds"]["village"]["rulebook"] == 1
    assert "decks" not in doc["kinds"]["minions"]


def test_every_record_written_reads_back_the_same(shipped: Any, tmp_path: Path) -> None:
    """The readable YAML the app writes (flow mappings, folded long text, Effect comments)
    loads back to exactly the records it was given, for every kind."""
    for kind in KINDS:
        records = [r.model_copy(update={"source": "transcribed"}) for r in shipped.all(kind)]
        if records:
            write_records(tmp_path, kind, kind, records)
    again = validate_layers([shipped_data_dir(), tmp_path])
    for kind in KINDS:
        for record in shipped.all(kind):
            assert again.get(kind, record.id) == record.model_copy(
                update={"source": "transcribed"}), (kind, record.id)
    text = (tmp_path / "nemeses" / "nemeses.transcribed.yaml").read_text(encoding="utf-8")
    assert "  background: >-\n    " in text and "    # Aura - " in text
