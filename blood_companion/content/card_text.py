"""Cards typed in a plain text file, the way they are printed (``blood data import-text``), and
the same form written out (``blood data export-text``, a template to type over).

::

    # Aurel's Starting Tactic cards, typed from the box
    kind: starting_tactics          <- a block starting with `kind:` gives the kind and
    trouper: aurel                     fields every following card shares

    Lunge from the Wire [aurel-t01] <- one block per card: the name line (the id in brackets
    art: funambulism                   is optional: a card without one takes the deck's next
    threat: 2                          placeholder), `field: value` lines, a card symbol alone
    Cascade                            on its line (Cascade, Block, Interruption, Quick),
    Target: Self. Outcome: Step 2.     and one Effect per line as printed
    Target: Enemy (Distance 0). Outcome: Physical Attack (Dexterity).

Two-sided cards open each side with ``Starting side: NAME`` / ``Advanced side: NAME`` (Items)
or ``Enhanced side:`` / ``Weakened side:`` (Vlad's Reaction cards); the lines after it belong
to that side. Blank lines separate blocks; ``#`` starts a comment line.

Reading and planning are pure: :func:`read_cards` turns text into :class:`TextCard` values and
problems (file:line, with the column of a bad Effect); :func:`plan_import` decides the id,
checks collisions and builds each record. Nothing here writes files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from blood_companion.content import models as m
from blood_companion.content.cards import (
    DECK_FIELDS,
    NO,
    STRUCTURAL,
    YES,
    AnswerError,
    FieldSpec,
    base_of,
    build_record,
    card_specs,
    deck_of,
    format_value,
    get_path,
    implied_values,
    parse_value,
    sides_of,
    wants_structure,
)
from blood_companion.content.effect_text import EffectSyntaxError, parse_effect
from blood_companion.content.errors import Problem
from blood_companion.content.loader import KINDS, resolve_kind
from blood_companion.content.render import render_effect
from blood_companion.errors import BloodError

Path_ = tuple[str, ...]


@dataclass
class TextCard:
    """One card block as typed: where it is, what it sets."""

    line: int
    name: str
    id: str | None = None
    kind: str | None = None
    defaults: dict[str, tuple[int, str]] = field(default_factory=dict)  # key -> (line, raw)
    values: dict[Path_, Any] = field(default_factory=dict)
    effects: dict[Path_, list[m.Effect]] = field(default_factory=dict)
    free_text: int = 0  # Effects typed as "Free text: ..."

    def label(self) -> str:
        """How problems name the card: its id, else its name."""
        return self.id or self.name


@dataclass
class Planned:
    """A card ready to write: its record and what it replaces."""

    card: TextCard
    kind: str
    record: m.Record
    replaces: str  # "placeholder", "rulebook", "transcribed" or "new"
    kept: list[str]  # fields kept from the card it replaces
    warnings: list[str]


# --------------------------------------------------------------------------- reading

_FIELD_LINE = re.compile(r"^([A-Za-z][A-Za-z_ ]*?)\s*:\s*(.*)$")
_NAME_ID = re.compile(r"^(.*?)\s*\[([^\]]*)\]\s*$")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SIDE = re.compile(r"^([A-Za-z]+)\s+(?:side|face)\s*:\s*(.*)$", re.IGNORECASE)


def _key(text: str) -> str:
    return text.strip().rstrip(".").casefold().replace(" ", "_").replace("-", "_")


def _blocks(text: str) -> list[list[tuple[int, str]]]:
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.lstrip().startswith("#"):
            continue
        if not line.strip():
            if current:
                blocks.append(current)
                current = []
            continue
        current.append((number, line.strip()))
    if current:
        blocks.append(current)
    return blocks


def read_cards(
    text: str, file: str, kind_of_id: Callable[[str], str | None]
) -> tuple[list[TextCard], list[Problem]]:
    """Every card block of a text file, and every problem found (file:line [card]: message).
    ``kind_of_id`` names the kind of a known id (for cards typed without a ``kind:`` block)."""
    cards: list[TextCard] = []
    problems: list[Problem] = []
    kind: str | None = None
    defaults: dict[str, tuple[int, str]] = {}
    for block in _blocks(text):
        first_line, first = block[0]
        head = _FIELD_LINE.match(first)
        if head and _key(head.group(1)) == "kind":
            kind, defaults = _read_defaults(block, file, problems)
            continue
        card = _read_card(block, file, kind, defaults, kind_of_id, problems)
        if card is not None:
            cards.append(card)
    return cards, problems


def _read_defaults(
    block: list[tuple[int, str]], file: str, problems: list[Problem]
) -> tuple[str | None, dict[str, tuple[int, str]]]:
    kind: str | None = None
    defaults: dict[str, tuple[int, str]] = {}
    for number, line in block:
        match = _FIELD_LINE.match(line)
        if not match:
            problems.append(
                Problem(file, number, None, f"expected 'field: value' in the kind: block, found "
                        f"{line!r}; leave a blank line before the first card")
            )
            continue
        key, value = _key(match.group(1)), match.group(2).strip()
        if key == "kind":
            try:
                kind = resolve_kind(value)
            except BloodError as exc:
                problems.append(Problem(file, number, "kind", f"{exc.message} ({exc.hint})"))
        elif key == "source":
            problems.append(
                Problem(file, number, "source", "typed cards are always 'source: transcribed'")
            )
        else:
            defaults[key] = (number, value)
    return kind, defaults


def _read_card(
    block: list[tuple[int, str]],
    file: str,
    kind: str | None,
    defaults: dict[str, tuple[int, str]],
    kind_of_id: Callable[[str], str | None],
    problems: list[Problem],
) -> TextCard | None:
    number, first = block[0]
    name, record_id = first, None
    match = _NAME_ID.match(first)
    if match:
        name, record_id = match.group(1).strip(), match.group(2).strip()
        if not _ID.match(record_id):
            problems.append(
                Problem(file, number, None, f"{record_id!r} is not an id (lower-case letters, "
                        "digits, '-' and '_', e.g. [aurel-t01])")
            )
            return None
    card = TextCard(line=number, name=name, id=record_id, defaults=dict(defaults))
    if not name:
        problems.append(Problem(file, number, None, "the card's first line is its name"))
        return None
    looks_like = _FIELD_LINE.match(first)
    if looks_like and not match:
        problems.append(
            Problem(file, number, None, f"a card starts with its name line, found {first!r}; "
                    "a `kind:` block needs a blank line after it")
        )
        return None
    card.kind = kind or (kind_of_id(record_id) if record_id else None)
    if card.kind is None:
        problems.append(
            Problem(file, number, card.label(), "which kind of card is this? Put a block like "
                    "'kind: starting_tactics' above the cards (or give a known id in brackets)")
        )
        return None
    model = KINDS[card.kind].model
    specs = card_specs(model)
    sides = sides_of(model)
    side: str | None = None
    where = card.label()
    for number, line in block[1:]:
        side_match = _SIDE.match(line)
        if side_match and side_match.group(1).casefold() in sides:
            side = side_match.group(1).casefold()
            if side_match.group(2).strip():
                card.values[(side, "name")] = side_match.group(2).strip()
            card.effects.setdefault((side, "effects"), [])
            continue
        spec = _flag_spec(specs, side, line)
        if spec is not None:
            card.values[spec.path] = True
            continue
        field_match = _FIELD_LINE.match(line)
        spec = _field_spec(specs, side, field_match) if field_match else None
        if spec is not None and field_match is not None:
            try:
                card.values[spec.path] = parse_value(spec, field_match.group(2))
            except AnswerError as exc:
                problems.append(
                    Problem(file, number, where, exc.message + (f"; {exc.hint}" if exc.hint
                                                               else ""))
                )
            continue
        effects_spec = _effects_spec(specs, side)
        if effects_spec is None:
            problems.append(
                Problem(file, number, where, f"{line!r} is not a field of a {card.kind} card, "
                        "and the card prints no Effects")
            )
            continue
        try:
            effect = parse_effect(line)
        except EffectSyntaxError as exc:
            if field_match and re.fullmatch(r"[a-z_]+", field_match.group(1)):
                # `colour: red`: a field line (written like YAML) that the card does not have
                names = sorted({s.name for s in _in_scope(specs, side) if s.kind != "effects"})
                problems.append(Problem(
                    file, number, where, f"{field_match.group(1)!r} is not a field of a "
                    f"{card.kind} card (fields: {', '.join(names)})"))
            else:
                problems.append(Problem(file, number, where, f"Effect: {exc}"))
            continue
        card.effects.setdefault(effects_spec.path, []).append(effect)
        card.free_text += effect.is_free_text
    return card


def _flag_spec(specs: list[FieldSpec], side: str | None, line: str) -> FieldSpec | None:
    key = _key(line)
    for spec in _in_scope(specs, side):
        if spec.kind == "flag" and spec.name == key:
            return spec
    return None


def _field_spec(
    specs: list[FieldSpec], side: str | None, match: re.Match[str]
) -> FieldSpec | None:
    key, value = _key(match.group(1)), match.group(2).strip()
    for spec in _in_scope(specs, side):
        if spec.kind == "effects" or spec.name != key:
            continue
        # "Quick: Target: ..." and "Cost: Deplete 1 Vigor. ..." are Effects, not the Quick
        # symbol or a purchase cost ({coins: 2}): a field line carries a value of its type.
        if spec.kind == "flag" and value.casefold() not in YES | NO:
            return None
        if wants_structure(spec) and not (
            value[:1] in ("{", "[") or value.casefold() in ("none", "-")
        ):
            return None
        return spec
    return None


def _effects_spec(specs: list[FieldSpec], side: str | None) -> FieldSpec | None:
    for spec in _in_scope(specs, side):
        if spec.kind == "effects":
            return spec
    return None


def _in_scope(specs: list[FieldSpec], side: str | None) -> list[FieldSpec]:
    """A side's own fields first, then the card's."""
    own = [s for s in specs if side is not None and s.side == side]
    card = [s for s in specs if s.side is None]
    return own + card


# --------------------------------------------------------------------------- planning


@dataclass
class Known:
    """What the planner needs to know about the data already there."""

    catalog: Any
    where: Callable[[str, str], str]  # (kind, id) -> "file:line"
    in_overlay: Callable[[str, str], tuple[str, bool] | None]  # -> ("file:line", app-owned)


def plan_import(
    cards: list[TextCard], file: str, known: Known, *, replace: bool = False
) -> tuple[list[Planned], list[Problem]]:
    """Decide each card's id and build its record. Problems: a deck with no placeholder left,
    an id used twice in the file or by another kind of card, a card already transcribed
    (unless ``replace``), fields that do not make a valid card."""
    planned: list[Planned] = []
    problems: list[Problem] = []
    claimed: dict[str, int] = {c.id: c.line for c in cards if c.id}
    seen: dict[str, int] = {}
    catalog = known.catalog
    for card in cards:
        assert card.kind is not None
        kind = card.kind
        model = KINDS[kind].model
        specs = card_specs(model)
        where = card.label()
        values = dict(card.values)
        bad_default = False
        for key, (line, raw) in card.defaults.items():
            spec = next((s for s in specs if s.side is None and s.name == key), None)
            if spec is None or spec.kind == "effects":
                problems.append(Problem(file, line, key, f"{key!r} is not a field of a {kind} "
                                        "card"))
                bad_default = True
                continue
            if spec.path in values:
                continue
            try:
                values[spec.path] = parse_value(spec, raw)
            except AnswerError as exc:
                problems.append(Problem(file, line, key, exc.message))
                bad_default = True
        if bad_default:
            continue
        record_id = card.id
        if record_id is None:
            record_id = _next_slot(kind, values, catalog, claimed)
            if record_id is None:
                deck_field = DECK_FIELDS.get(kind, ("",))[0]
                deck = values.get((deck_field,))
                problems.append(
                    Problem(
                        file,
                        card.line,
                        where,
                        (f"no placeholder card of {deck!r} is left for this card"
                         if deck or deck_field not in DECK_FIELDS.get(kind, ())
                         else f"whose card is it? add '{deck_field}: ...' to the kind: block or "
                         "the card")
                        + "; give it an id in brackets to add or replace a card by id",
                    )
                )
                continue
            claimed[record_id] = card.line
            card.id = record_id
        if record_id in seen:
            problems.append(
                Problem(file, card.line, where, f"id {record_id!r} is also given to the card on "
                        f"line {seen[record_id]} of {file}")
            )
            continue
        seen[record_id] = card.line
        clash = _other_kind(record_id, kind, catalog)
        if clash is not None:
            problems.append(
                Problem(file, card.line, where, f"id {record_id!r} is already a {clash} card "
                        f"({known.where(clash, record_id)}); ids are unique across card kinds")
            )
            continue
        existing = catalog.get(kind, record_id)
        overlay_at = known.in_overlay(kind, record_id) if existing is not None else None
        if overlay_at is not None:
            place, owned = overlay_at
            if not owned:
                problems.append(
                    Problem(file, card.line, where, f"{record_id!r} is already in your own data "
                            f"({place}); edit it there or remove it before importing")
                )
                continue
            if not replace:
                problems.append(
                    Problem(file, card.line, where, f"{record_id!r} was already transcribed "
                            f"({place}); --replace overwrites it")
                )
                continue
        for path, effects in card.effects.items():
            values[path] = effects
        values.setdefault(("name",), card.name)
        if existing is None:
            values[("id",)] = record_id
            for path, value in implied_values(kind, values).items():
                values.setdefault(path, value)
        try:
            record = build_record(model, base_of(existing), values)
        except ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"]) or "card"
                msg = str(err["msg"]).removeprefix("Value error, ")
                problems.append(Problem(file, card.line, f"{record_id}.{loc}", msg))
            continue
        kept = [
            s.label
            for s in specs
            if existing is not None
            and s.kind != "effects"
            and s.path not in values
            and s.name not in STRUCTURAL
            and get_path(existing, s.path) not in (None, [], {}, False)
            and get_path(existing, s.path) != s.info.get_default(call_default_factory=True)
        ]
        warnings = []
        for spec in specs:
            if spec.kind == "effects" and existing is not None:
                before = get_path(existing, spec.path) or []
                if before and not values.get(spec.path):
                    warnings.append(f"no Effect typed for {spec.label} (the card it replaces "
                                    f"had {len(before)})")
        replaces = "new" if existing is None else (
            "transcribed" if overlay_at is not None else existing.source
        )
        planned.append(Planned(card, kind, record, replaces, kept, warnings))
    return planned, problems


def _next_slot(
    kind: str, values: dict[Path_, Any], catalog: Any, claimed: dict[str, int]
) -> str | None:
    deck_fields = DECK_FIELDS.get(kind, ())
    deck = next((values[(f,)] for f in deck_fields if values.get((f,))), None)
    if deck_fields and deck is None:
        return None
    for record in catalog.all(kind):
        if record.source != "placeholder" or record.id in claimed:
            continue
        if deck_fields and deck_of(kind, record) != deck:
            continue
        return str(record.id)
    return None


def _other_kind(record_id: str, kind: str, catalog: Any) -> str | None:
    from blood_companion.content.checks import CARD_KINDS

    if kind not in CARD_KINDS:
        return None
    for other in CARD_KINDS:
        if other != kind and catalog.get(other, record_id) is not None:
            return other
    return None


# --------------------------------------------------------------------------- writing text


def card_text(kind: str, record: m.Record, shared: dict[str, Any] | None = None) -> str:
    """A record in the text form ``read_cards`` reads (fields equal to the model's default and
    those in ``shared``, the file's kind: block, are left out)."""
    model = type(record)
    shared = shared or {}
    lines = [f"{record.name} [{record.id}]"]
    side: str | None = None
    specs = card_specs(model)
    # the card's own fields first, then its Effects and its sides (as printed, top to bottom)
    specs = [s for s in specs if s.side is None and s.kind != "effects"] + [
        s for s in specs if s.side is not None or s.kind == "effects"
    ]
    for spec in specs:
        if spec.side != side:
            side = spec.side
            if side is not None:
                if getattr(record, side) is None:
                    continue
                lines.append(f"{side.capitalize()} side: {get_path(record, (side, 'name'))}")
        if spec.side is not None and getattr(record, spec.side) is None:
            continue
        if spec.path in (("name",),) or (spec.side and spec.name == "name"):
            continue
        value = get_path(record, spec.path)
        if spec.kind == "effects":
            lines.extend(render_effect(e) for e in value or [])
            continue
        if spec.side is None and spec.name in shared and shared[spec.name] == value:
            continue
        implied = implied_values(kind, {(k,): getattr(record, k) for k in model.model_fields})
        if spec.path in implied and implied[spec.path] == value:
            continue
        if value == spec.info.get_default(call_default_factory=True):
            continue
        if spec.kind == "flag":
            lines.append(spec.name.replace("_", " ").capitalize() if value else f"{spec.name}: no")
        else:
            lines.append(f"{spec.name}: {format_value(value)}")
    return "\n".join(lines) + "\n"


def deck_text(kind: str, records: list[m.Record], deck: str | None = None) -> str:
    """A whole kind (or one deck of it) as a text file: the kind: block, then one block per
    card."""
    header = [
        f"# {kind}{' of ' + deck if deck else ''}, in the text form `blood data import-text` "
        "reads.",
        "# Type over each card with what your box prints: the name line, `field: value` lines,",
        "# a card symbol alone on its line (Cascade, Block, Interruption, Quick), one Effect per",
        "# line as printed. `blood data import-text FILE` writes them to your data folder.",
        f"kind: {kind}",
    ]
    shared: dict[str, Any] = {}
    if deck is not None:
        for name in DECK_FIELDS.get(kind, ()):
            values = {getattr(r, name, None) for r in records}
            if len(values) == 1 and None not in values:
                shared[name] = values.pop()
                header.append(f"{name}: {format_value(shared[name])}")
    blocks = [card_text(kind, r, shared) for r in records]
    return "\n".join(header) + "\n\n" + "\n".join(blocks)
