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

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import ValidationError

from blood_companion.content import models as m
from blood_companion.content.cards import (
    DECK_FIELDS,
    NO,
    STRUCTURAL,
    YES,
    AnswerError,
    FieldSpec,
    build_record,
    card_specs,
    deck_of,
    format_value,
    get_path,
    implied_values,
    literal_choices,
    parse_value,
    plain_message,
    printed_forms,
    sides_of,
    wants_structure,
)
from blood_companion.content.checks import CARD_KINDS
from blood_companion.content.effect_text import SYMBOL_WORDS, EffectSyntaxError, parse_effect
from blood_companion.content.errors import Problem
from blood_companion.content.face import card_pairs, names_of
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
    origins: dict[Path_, int] = field(default_factory=dict)  # path -> the line that set it
    no_effects: set[Path_] = field(default_factory=set)  # "no Effects" typed
    unread: int = 0  # lines refused while reading (the card is then not built)
    inferred: bool = False  # its kind read from its lines (a heading named only its deck)
    refused: set[Path_] = field(default_factory=set)  # fields whose typed line was refused
    # Effects the reader normalised: (line, typed phrase, the phrase as it is stored)
    notes: list[tuple[int, str, str]] = field(default_factory=list)

    def set(self, path: Path_, value: Any, line: int) -> None:
        self.values[path] = value
        self.origins[path] = line


@dataclass
class Planned:
    """A card ready to write: its record and what it replaces."""

    card: TextCard
    kind: str
    record: m.Record
    replaces: str  # "placeholder", "rulebook", "transcribed" or "new"
    kept: list[str]  # printed fields not typed yet not absent (none: a card starts empty)
    warnings: list[str]
    fields: list[tuple[str, str, str]] = field(default_factory=list)  # (field, value, from)


# --------------------------------------------------------------------------- reading

_FIELD = re.compile(r"([A-Za-z][A-Za-z_ ]*):(.*)")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SIDE_KEY = re.compile(r"([A-Za-z]+)\s+(?:side|face)", re.IGNORECASE)
# A printed card line is short; a longer one is refused before any pattern reads it, so every
# line is read in time linear in its length (issue 24: a 80,000-space name took 19 s).
MAX_LINE = 2000
NO_EFFECTS = {"no effects", "no effect", "effects: none", "effects: no", "effects:", "effects: -"}


class _Field(NamedTuple):
    """A ``key: value`` line split at its first colon (the key: letters, spaces, '_')."""

    key: str
    value: str


def _field_line(line: str) -> _Field | None:
    match = _FIELD.match(line)
    return _Field(match.group(1).rstrip(), match.group(2).strip()) if match else None


def _name_id(line: str) -> tuple[str, str] | None:
    """``Name [id]`` split (the last bracket pair at the end of the line), or None."""
    stripped = line.rstrip()
    if not stripped.endswith("]"):
        return None
    opened = stripped.rfind("[")
    if opened < 0 or "]" in stripped[opened + 1 : -1]:
        return None
    return stripped[:opened].strip(), stripped[opened + 1 : -1].strip()


def _side_line(line: str) -> tuple[str, str] | None:
    found = _field_line(line)
    if found is None:
        return None
    match = _SIDE_KEY.fullmatch(found.key.strip())
    return (match.group(1), found.value) if match else None


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
        current.append((number, line.strip()[: MAX_LINE + 1]))
    if current:
        blocks.append(current)
    return blocks


# A heading as owners write one above a deck: "== Corvin ==", "== Petru: Items ==".
_HEADING = re.compile(r"={2,}(.*)")  # its words: stripped of the closing "=" and spaces
# The kinds a heading may leave to the cards (a deck named, no kind): tried in this order, the
# first whose fields the card's lines all fit is the card's kind.
DECK_KINDS = ["starting_tactics", "trouper_items", "reactions", "weaknesses", "advanced_tactics",
              "events", "locations", "vlad_reactions", "special_tactics", "special_items"]
HEADING_KINDS = {
    "item": "trouper_items", "item_cards": "trouper_items", "trouper_item_cards": "trouper_items",
    "trouper_items": "trouper_items", "starting_tactic": "starting_tactics",
    "tactic_cards": "starting_tactics", "starting_tactics_cards": "starting_tactics",
    "weakness": "weaknesses", "reactions_cards": "reactions", "reaction_card": "reactions",
    "advanced_tactics_cards": "advanced_tactics", "events_cards": "events",
    "event_cards": "events", "location_cards": "locations",
}
Decks = dict[str, tuple[str, str]]  # a folded word or name -> (deck field, deck id)
# The kind of the card a deck's heading names itself: "== Petru: Trouper card =="
OWN_KINDS = {"trouper": "troupers", "nemesis": "nemeses"}


def deck_words(catalog: Any) -> Decks:
    """The words a heading names a deck with: each Trouper, Nemesis, Zone and Location by id,
    name and the name's first word; each Art by name."""
    out: Decks = {art: ("art", art) for art in m.ARTS}
    for kind, field_name in (("zones", "zone"), ("locations", "location"), ("nemeses", "nemesis"),
                             ("troupers", "trouper")):
        for rec in catalog.all(kind):
            words = [rec.id, rec.name]
            if kind in ("nemeses", "troupers"):  # "Corvin" for Corvin the Gravewarden
                words.append(re.split(r"[\s,]+", rec.name.strip())[0])
            for word in words:
                if _fold(word) not in FILLER:
                    out.setdefault(_fold(word), (field_name, str(rec.id)))
    return out


# Words a heading may hold around its deck and kind: "== The Items of Petru =="
FILLER = {"the", "a", "an", "of", "deck", "box", "my", "our"}


def _heading(words: str, decks: Decks) -> tuple[tuple[str, str] | None, str | None, bool]:
    """What a heading names: a deck (field, id), a kind, and whether all its words were read."""
    folded = _fold(words)
    deck = None
    for key in sorted(decks, key=len, reverse=True):
        found = re.search(rf"(?<!\w){re.escape(key)}(?:'s)?(?!\w)", folded)
        if found:
            deck = decks[key]
            folded = folded[:found.start()] + " " + folded[found.end():]
            break
    rest = "_".join(w for w in re.sub(r"[^a-z ]+", " ", folded).split() if w not in FILLER)
    if not rest:
        return deck, None, deck is not None
    for key in (rest, rest.removesuffix("_cards"), rest.removesuffix("_card")):
        if key in HEADING_KINDS:
            return deck, HEADING_KINDS[key], True
        with contextlib.suppress(BloodError):
            return deck, resolve_kind(key), True
    return deck, None, False


def read_cards(
    text: str, file: str, kind_of_id: Callable[[str], str | None], decks: Decks | None = None,
) -> tuple[list[TextCard], list[Problem]]:
    """Every card block of a text file, and every problem found (file:line [card]: message).
    ``kind_of_id`` names the kind of a known id (for cards typed without a ``kind:`` block);
    ``decks`` (:func:`deck_words`) reads headings like ``== Corvin ==``."""
    cards: list[TextCard] = []
    problems: list[Problem] = []
    kind: str | None = None
    defaults: dict[str, tuple[int, str]] = {}
    own: tuple[str, str] | None = None  # the deck the last heading named
    for block in _blocks(text):
        long = [(n, line) for n, line in block if len(line) > MAX_LINE]
        for n, _ in long:
            problems.append(Problem(file, n, None, f"this line is longer than {MAX_LINE} "
                                    "characters; a printed card line is much shorter (one "
                                    "field or one Effect a line)"))
        if long:
            continue
        while block and (heading := _HEADING.fullmatch(block[0][1])):
            number = block[0][0]
            deck, named, whole = _heading(heading.group(1).rstrip("= "), decks or {})
            if not whole:
                problems.append(Problem(file, number, None, f"the heading {block[0][1]!r} names "
                                        "no deck nor kind of card this app knows: a heading "
                                        "names a Trouper, a Nemesis, an Art or a Zone and/or a "
                                        "kind ('== Corvin ==', '== Petru: Items ==')"))
            if deck is not None:
                defaults, own = {deck[0]: (number, deck[1])}, deck
                kind = named
            elif named is not None:
                kind = named  # "== Items ==" under "== Petru ==": Petru's Items
            block = block[1:]
            if own is not None and kind == OWN_KINDS.get(own[0]):
                defaults = {}  # "== Corvin: Nemesis card ==": the card of the deck itself
        if not block:
            continue
        head = _field_line(block[0][1])
        if head and _key(head.key) == "kind":
            kind, defaults = _read_defaults(block, file, problems)
            own = None
            continue
        card = _read_deck_card(block, file, kind, defaults, kind_of_id, problems)
        if card is not None:
            if card.id is None and own is not None and card.kind == OWN_KINDS.get(own[0]):
                card.id = own[1]  # the Trouper's or Nemesis's own card: its id
            cards.append(card)
    return cards, problems


def _read_deck_card(
    block: list[tuple[int, str]], file: str, kind: str | None, defaults: dict[str, tuple[int, str]],
    kind_of_id: Callable[[str], str | None], problems: list[Problem],
) -> TextCard | None:
    """A card under a heading that names its deck but not its kind: read as the first kind of
    that deck its lines all fit (else as the one they fit best, with those problems)."""
    fields = set(defaults)
    match = _name_id(block[0][1])
    if kind is not None or not fields or (match and _ID.match(match[1])
                                          and kind_of_id(match[1])):
        return _read_card(block, file, kind, defaults, kind_of_id, problems)
    tried: list[tuple[int, TextCard | None, list[Problem]]] = []
    for candidate in DECK_KINDS:
        if not fields <= set(DECK_FIELDS.get(candidate, ())):
            continue
        found: list[Problem] = []
        card = _read_card(block, file, candidate, defaults, kind_of_id, found)
        if card is not None and not found:
            card.inferred = True
            return card
        tried.append((len(found) + (card is None), card, found))
    if not tried:
        return _read_card(block, file, kind, defaults, kind_of_id, problems)
    _, card, found = min(tried, key=lambda t: t[0])
    problems.extend(found)
    return card


def _read_defaults(
    block: list[tuple[int, str]], file: str, problems: list[Problem]
) -> tuple[str | None, dict[str, tuple[int, str]]]:
    kind: str | None = None
    defaults: dict[str, tuple[int, str]] = {}
    for number, line in block:
        match = _field_line(line)
        if not match:
            problems.append(Problem(file, number, None, "expected 'field: value' in the kind: "
                                    f"block, found {line!r}; leave a blank line before the first "
                                    "card"))
            continue
        key, value = _key(match.key), match.value.strip()
        if key == "kind":
            try:
                kind = resolve_kind(value)
            except BloodError as exc:
                problems.append(Problem(file, number, "kind", f"{exc.message} ({exc.hint})"))
        elif key == "source":
            problems.append(Problem(file, number, "source",
                                    "typed cards are always 'source: transcribed'"))
        else:
            defaults[key] = (number, value)
    return kind, defaults


def _read_card(
    block: list[tuple[int, str]], file: str, kind: str | None, defaults: dict[str, tuple[int, str]],
    kind_of_id: Callable[[str], str | None], problems: list[Problem],
) -> TextCard | None:
    number, first = block[0]
    where: str | None = None

    def say(message: str) -> None:  # a problem of the line being read (then the loop's)
        problems.append(Problem(file, number, where, message))

    name, record_id = first, None
    match = _name_id(first)
    if match:
        name, record_id = match
        if not _ID.match(record_id):
            say(f"{record_id!r} is not an id (lower-case letters, digits, '-' and '_', e.g. "
                "[aurel-t01])")
            return None
    card = TextCard(line=number, name=name, id=record_id, defaults=dict(defaults))
    if not name:
        say("the card's first line is its name")
        return None
    if not match and _field_line(first):
        say(f"a card starts with its name line, found {first!r}; a `kind:` block needs a blank "
            "line after it")
        return None
    card.kind = kind or (kind_of_id(record_id) if record_id else None)
    where = card.name
    if card.kind is None:
        say("which kind of card is this? Put a heading like '== Petru ==' or '== Corvin: "
            "Reaction cards ==' (or a block like 'kind: starting_tactics') above the cards, or "
            "give a known id in brackets")
        return None
    model = KINDS[card.kind].model
    specs = card_specs(model)
    sides = sides_of(model)
    before = len(problems)
    _name_line(card, specs, file, problems)  # a problem of the card line: its lines still read
    where = card.name
    side: str | None = None
    for number, line in block[1:]:
        card.unread = len(problems) - before
        side_match = _side_line(line)
        if side_match and side_match[0].casefold() in sides:
            side = side_match[0].casefold()
            card.effects.setdefault((side, "effects"), [])
            card.origins[(side, "effects")] = number
            rest = side_match[1]
            if rest and _reads_as_effect(rest):
                # "Starting side: Quick. Cost: ...": the side's first Effect, not its name (the
                # side then takes the card's name, or a `name:` line)
                _add_effect(card, (side, "effects"), rest, file, number, where, problems, specs)
            elif rest:
                # "Advanced side: Silk Vest - Quick", "Advanced side: Quick": the side's
                # symbols after its name (or alone), never kept in the name
                words = rest.split(" - ")
                marks = [s for s in specs if s.side == side and s.kind == "flag"]
                while words and (flag := next((s for s in marks if s.name == _key(words[-1])),
                                              None)):
                    card.set(flag.path, True, number)
                    words.pop()
                if words:
                    card.set((side, "name"), " - ".join(words), number)
            continue
        scope = _in_scope(specs, side)
        effects_spec = next((s for s in scope if s.kind == "effects"), None)
        if line.casefold().rstrip(".") in {x.rstrip(".") for x in NO_EFFECTS}:
            if effects_spec is None:
                say(f"a {card.kind} card prints no Effects")
            else:
                card.effects[effects_spec.path] = []
                card.no_effects.add(effects_spec.path)
                card.origins[effects_spec.path] = number
            continue
        spec = next((s for s in scope if s.kind == "flag" and s.name == _key(line)), None)
        if spec is not None:
            card.set(spec.path, True, number)
            continue
        worded = next((s for s in scope if s.kind == "value" and s.name == _key(line)
                       and printed_forms(s)), None)
        if worded is not None:
            # "Check" alone: the symbol says there is a Check; which one the card prints
            say(f"{line!r}: type the {worded.label} the card prints, '{worded.name}: ...' as "
                f"printed: {printed_forms(worded)}")
            continue
        defense = _defense_line(line)
        if defense is not None:
            for key, value in defense.items():
                mod = next((s for s in scope if s.name == f"{key}_modifier"), None)
                if mod is None:
                    say(f"{line!r}: a {card.kind} card prints no Defense modifier")
                    break
                card.set(mod.path, value, number)
            continue
        field_match = _field_line(line)
        spec = _field_spec(specs, side, field_match) if field_match else None
        if spec is not None and field_match is not None:
            try:
                card.set(spec.path, parse_value(spec, field_match.value), number)
            except AnswerError as exc:
                card.refused.add(spec.path)
                say(exc.message + (f"; {exc.hint}" if exc.hint else ""))
            continue
        if effects_spec is None:
            say(f"{line!r} is not a field of a {card.kind} card, and the card prints no Effects")
            continue
        if effects_spec.path in card.no_effects:
            say("an Effect after 'no Effects'")
            continue
        if field_match and re.fullmatch(r"[a-z_]+", field_match.key) and not _parses(line):
            # `colour: red`: a field line (written like YAML) that the card does not have
            names = sorted({s.name for s in scope if s.kind != "effects"})
            say(f"{field_match.key!r} is not a field of a {card.kind} card (fields: "
                f"{', '.join(names)})")
            continue
        _add_effect(card, effects_spec.path, line, file, number, where, problems, specs)
    card.unread = len(problems) - before
    return card


# "Physical Defense -1 on this Side." as a Weakness card prints it (and `card show` writes it)
_DEFENSE = re.compile(r"(?i)(physical|mind)(?: defense)?\s*([+-−–])\s*(\d)")


def _defense_line(line: str) -> dict[str, int] | None:
    """The Defense modifiers of a line like ``Physical Defense -1, Mind Defense +1 on this
    side.``, or None when the line is not one."""
    body = line.strip().rstrip(".")
    if not body.casefold().endswith(" on this side"):
        return None
    out: dict[str, int] = {}
    for part in body[: -len(" on this side")].split(","):
        found = _DEFENSE.fullmatch(part.strip())
        if found is None or found.group(1).casefold() in out:
            return None
        sign = 1 if found.group(2) == "+" else -1
        out[found.group(1).casefold()] = sign * int(found.group(3))
    return out


def _parses(text: str) -> bool:
    try:
        parse_effect(text)
    except EffectSyntaxError:
        return False
    return True


def _reads_as_effect(text: str) -> bool:
    """An Effect, or one with a mistake after its first section or the symbol in front of it
    ("Quick. ...", "Cost: Deplete this Itm. ...")."""
    return _parses(text) or bool(re.match(rf"(?i)({SYMBOL_WORDS})\s*[.:]", text)
                                 or _SECTION.match(text))


def _add_effect(card: TextCard, path: Path_, line: str, file: str, number: int, where: str,
                problems: list[Problem], specs: list[FieldSpec]) -> None:
    try:
        effect = parse_effect(line)
    except EffectSyntaxError as exc:
        problems.append(Problem(file, number, where, f"Effect: {exc}"))
        card.refused.add(path)
        return
    card.effects.setdefault(path, []).append(effect)
    card.origins.setdefault(path, number)
    card.free_text += effect.is_free_text
    card.notes += [(number, typed, stored) for typed, stored in normalised(line, effect)]
    # A Quick Effect is the side's Quick symbol, whichever line or side it is typed on
    quick = (*path[:-1], "quick")
    if effect.type == "quick" and any(s.path == quick for s in specs):
        card.set(quick, True, card.origins.get(quick, number))


_SECTION = re.compile(r"(?i)(target|cost|condition|outcome|on a failure|free text)\s*:")


def _sections(text: str) -> dict[str, str]:
    """An Effect's text cut at its section labels: label -> words (the head under "")."""
    out: dict[str, str] = {}
    cuts = list(_SECTION.finditer(text))
    out[""] = text[: cuts[0].start()] if cuts else text
    for here, after in zip(cuts, [*cuts[1:], None], strict=True):
        body = text[here.end(): after.start() if after else len(text)]
        out[here.group(1).casefold()] = body
    return out


def _plain(words: str) -> str:
    return " ".join(words.replace(":", " ").split()).rstrip(".").strip().casefold()


def normalised(typed: str, effect: m.Effect) -> list[tuple[str, str]]:
    """Each phrase of ``typed`` the reader stores in other words: (as typed, as stored), e.g.
    ``('Condition: 2 Bite Tokens', 'Condition: 2+ Bites')``. Empty when the Effect is stored as
    it was typed (case, spaces and full stops aside)."""
    mine, theirs = _sections(typed), _sections(render_effect(effect))
    out = []
    for label in dict.fromkeys([*mine, *theirs]):
        was, now = mine.get(label), theirs.get(label)
        if _plain(was or "") != _plain(now or ""):
            name = f"{label[:1].upper()}{label[1:]}: " if label else ""
            out.append((_phrase(name, was), _phrase(name, now)))
    return out


def _phrase(name: str, words: str | None) -> str:
    """A section as :func:`normalised` shows it (``name``: its label, ``Target: ``)."""
    if words is None:
        return f"(no {name.rstrip(': ') or 'head'})"
    return f"{name}{words.strip()}".strip().rstrip(".")


def _name_line(card: TextCard, specs: list[FieldSpec], file: str, problems: list[Problem]) -> bool:
    """The card line as owners type it, "Knife Flurry - Juggling - Threat 1 - Cascade": the
    name, then the card's marks (an Art or another choice, ``Threat N``, a symbol). When one
    part after the name reads as a mark, every part must: a part the app cannot place is
    refused (naming the forms), never kept in the name."""
    parts = card.name.split(" - ")
    if len(parts) < 2:
        return True
    own = [s for s in specs if s.side is None and s.kind != "effects" and s.name != "name"]
    read: list[tuple[FieldSpec, Any]] = []
    unread: list[str] = []
    for part in parts[1:]:
        found = _mark(own, part.strip())
        if found is None:
            unread.append(part.strip())
        else:
            read.append(found)
    if not read:
        return True  # a name with " - " in it
    card.name = parts[0].strip()
    for spec, value in read:  # what reads is kept, so no problem is said twice
        card.set(spec.path, value, card.line)
    if unread:
        forms = _mark_forms(own)
        problems.append(Problem(file, card.line, card.name, f"the card line reads "
                                f"{', '.join(repr(p) for p in unread)} as none of the card's "
                                f"marks; the card line is 'Name - {' - '.join(forms)}' (or give "
                                "each as a 'field: value' line)"))
        return False
    return True


def _mark(specs: list[FieldSpec], part: str) -> tuple[FieldSpec, Any] | None:
    key = _key(part)
    flag = next((s for s in specs if s.kind == "flag" and s.name == key), None)
    if flag is not None:
        return flag, True
    chosen = next((s for s in specs if s.kind == "value" and s.name not in STRUCTURAL
                   and key in literal_choices(s.info.annotation)), None)
    if chosen is not None:
        return chosen, key
    # "Threat 1", and a printed value after its field's name: "Upgrade: 2 Coins, 1 Trinket"
    named = re.fullmatch(r"([A-Za-z][A-Za-z ]*?)\s*(?::\s*|\s+)(\S.*)", part)
    if named is None:
        return None
    word = _key(named.group(1))
    for spec in specs:
        if spec.kind != "value" or not (spec.info.annotation is int or printed_forms(spec)):
            continue
        if word in (spec.name, spec.name.split("_")[0]):
            try:
                return spec, parse_value(spec, named.group(2))
            except AnswerError:
                return None
    return None


def _mark_forms(specs: list[FieldSpec]) -> list[str]:
    out = []
    for spec in specs:
        if spec.kind == "flag" or (spec.name not in STRUCTURAL
                                   and literal_choices(spec.info.annotation)):
            out.append(spec.name.capitalize())
        elif spec.info.annotation is int:
            out.append(f"{spec.name.capitalize()} N")
        elif spec.name == "upgrade_cost":
            out.append("Upgrade: 2 Coins")
    return out


def _field_spec(specs: list[FieldSpec], side: str | None, match: _Field) -> FieldSpec | None:
    key, value = _key(match.key), match.value.strip()
    for spec in _in_scope(specs, side):
        if spec.kind == "effects" or spec.name != key:
            continue
        # "Quick: Target: ..." and "Cost: Deplete 1 Vigor. ..." are Effects, not the Quick
        # symbol or a purchase cost ({coins: 2}): a field line carries a value of its type.
        if spec.kind == "flag" and value.casefold() not in YES | NO:
            return None
        if printed_forms(spec) is not None and value[:1] not in ("{", "["):
            try:
                parse_value(spec, value)
            except AnswerError:
                # "Cost: Deplete 1 Vigor. Outcome: ..." is an Effect; "cost: 2 coinz" an error
                return None if _reads_as_effect(f"{match.key}: {value}") else spec
            return spec
        if wants_structure(spec) and value[:1] not in ("{", "[") and value.casefold() not in (
                "none", "-"):
            return None
        return spec
    return None


def _in_scope(specs: list[FieldSpec], side: str | None) -> list[FieldSpec]:
    """A side's own fields first, then the card's."""
    return [s for s in specs if side is not None and s.side == side] + [
        s for s in specs if s.side is None]


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

    def refuse(message: str) -> None:  # a problem of the card being planned (the loop's)
        problems.append(Problem(file, card.line, where, message))

    for card in cards:
        assert card.kind is not None
        kind = card.kind
        model = KINDS[kind].model
        specs = card_specs(model)
        where = card.name
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
                refuse((f"no placeholder card of {deck!r} is left for this card"
                        if deck or deck_field not in DECK_FIELDS.get(kind, ())
                        else f"whose card is it? add '{deck_field}: ...' to the kind: block or "
                        "the card") + "; give it an id in brackets to add or replace a card by id")
                continue
            claimed[record_id] = card.line
            card.id = record_id
        if record_id in seen:
            refuse(f"id {record_id!r} is also given to the card on line {seen[record_id]} of "
                   f"{file}")
            continue
        seen[record_id] = card.line
        clash = _other_kind(record_id, kind, catalog)
        if clash is not None:
            refuse(f"id {record_id!r} is already a {clash} card ({known.where(clash, record_id)}); "
                   "ids are unique across card kinds")
            continue
        existing = catalog.get(kind, record_id)
        overlay_at = known.in_overlay(kind, record_id) if existing is not None else None
        if overlay_at is not None:
            place, owned = overlay_at
            if not owned:
                refuse(f"{record_id!r} is already in your own data ({place}); edit it there or "
                       "remove it before importing")
                continue
            if not replace:
                refuse(f"{record_id!r} was already transcribed ({place}); --replace overwrites it")
                continue
        for path, effects in card.effects.items():
            values[path] = effects
        values.setdefault(("name",), card.name)
        origin: dict[Path_, str] = {p: f"line {n}" for p, n in card.origins.items()}
        origin.setdefault(("name",), f"line {card.line}")
        for key, (line, _raw) in card.defaults.items():
            origin.setdefault((key,), f"the kind: block, line {line}")
        for side in sides_of(model):
            # a side printed without a name of its own (the Starting or Enhanced side, an
            # Advanced side the owner typed as "Advanced side:") carries the card's name
            if (side, "effects") in values and (side, "name") not in values:
                values[(side, "name")] = values[("name",)]
                origin[(side, "name")] = f"line {card.line} (the card's name)"
        values[("id",)] = record_id
        for path, value in implied_values(kind, values).items():
            if path not in values:
                values[path] = value
                origin[path] = f"implied by kind: {kind}"
        # A transcribed card starts empty: only where the card belongs (its Trouper, Nemesis,
        # Zone, Weakness side) comes from the card it replaces; every printed field is typed.
        base: dict[str, Any] = {}
        for name in sorted(STRUCTURAL):
            if existing is not None and name in model.model_fields and (name,) not in values:
                base[name] = getattr(existing, name)
                if base[name] not in (None, [], False):
                    origin[(name,)] = f"where the {existing.source} card {record_id} belongs"
        missing = [s for s in specs if s.kind == "effects" and s.path not in values
                   and s.info.is_required() and (s.side is None or (s.side,) in values
                                                 or (s.side, "effects") in values)]
        if missing and not card.unread:  # (an Effect line refused is reported already)
            refuse("no Effect typed: type the card's Effects one per line as printed, or 'no "
                   "Effects' when it prints none")
            continue
        try:
            # a refused line stands in with a value that holds, so every other problem of the
            # card is found in this run (the card itself is not written)
            record = build_record(model, base, {**values, **_stand_ins(card, specs, existing)})
        except ValidationError as exc:
            for err in exc.errors():
                loc = [str(p) for p in err["loc"]]
                if tuple(loc) in card.refused:
                    continue  # what its refused line would have said: reported with it
                refuse(field_words(loc, plain_message(str(err["msg"]))))
            continue
        if card.unread:
            continue  # its refused lines are reported; every other check is done
        fields_from: list[tuple[str, str, str]] = []
        inherited: list[str] = []
        for s in specs:
            value = get_path(record, s.path)
            if s.side is not None and get_path(record, (s.side,)) is None:
                continue
            if s.kind == "effects":
                shown = (f"{len(value)} Effect{'s' if len(value) != 1 else ''}" if value
                         else "no Effects")
            else:
                shown = "none" if value == [] else format_value(value)
            said = origin.get(s.path)
            if said is None:
                absent = value in (None, [], False) or value == s.info.get_default(
                    call_default_factory=True)
                if not absent:
                    inherited.append(s.label)
                said = "not on the card (absent)" if absent else "not typed"
            fields_from.append((s.label, shown, said))
        warnings = []
        for spec in specs:
            if spec.kind == "effects" and existing is not None:
                before = get_path(existing, spec.path) or []
                if before and not values.get(spec.path) and spec.path not in card.no_effects:
                    warnings.append(f"no Effect typed for {spec.label} (the card it replaces "
                                    f"had {len(before)}); write 'no Effects' if it prints none")
        replaces = ("new" if existing is None else "transcribed" if overlay_at is not None
                    else existing.source)
        planned.append(Planned(card, kind, record, replaces, inherited, warnings, fields_from))
    names = name_index(catalog) if planned else {}
    for pl in planned:
        pl.warnings += same_name_warnings(pl.record, names, [p.record for p in planned])
    return planned, problems


def _fold(name: str) -> str:
    return " ".join(name.casefold().split())


def name_index(catalog: Any) -> dict[str, set[str]]:
    """Every card name of the pack (folded) with the ids of the cards that print it."""
    out: dict[str, set[str]] = {}
    for cid, name in card_pairs(catalog):
        out.setdefault(_fold(name), set()).add(cid)
    return out


def same_name_warnings(record: m.Record, names: dict[str, set[str]],
                       written: list[m.Record]) -> list[str]:
    """A warning when the card's name is another card's name (``card show`` could then match
    neither by name): another card of the pack (``names``: :func:`name_index`), or another of
    the cards being written (``written``, which replace the pack's cards of their ids: a name
    they replace is not another card's)."""
    replaced = {str(r.id) for r in written}
    out = []
    for own in names_of(record):  # each side's name
        folded = _fold(own)
        others = names.get(folded, set()) - replaced
        others |= {str(r.id) for r in written for name in names_of(r) if _fold(name) == folded}
        others.discard(str(record.id))
        if others:
            out.append(f"another card is also named {own!r} ({', '.join(sorted(others))}): "
                       "give this one its printed name, or `card show` asks which is meant")
    return out


def _stand_ins(card: TextCard, specs: list[FieldSpec], existing: Any) -> dict[Path_, Any]:
    """For each field whose typed line was refused, a value that holds (the replaced card's,
    the field's default, its first choice; an Effect list: a stand-in Effect), so the rest of
    the card is checked in the same run."""
    out: dict[Path_, Any] = {}
    for spec in specs:
        if spec.path not in card.refused:
            continue
        if spec.kind == "effects":
            out[spec.path] = [*card.effects.get(spec.path, []),
                              m.Effect(free_text="(a line that was not read)")]
            continue
        if spec.path in card.values:
            continue
        before = get_path(existing, spec.path) if existing is not None else None
        choices = literal_choices(spec.info.annotation)
        if before is not None:
            out[spec.path] = before
        elif not spec.info.is_required():
            out[spec.path] = spec.info.get_default(call_default_factory=True)
        elif choices:
            out[spec.path] = choices[0]
    return out


def field_words(loc: list[str], msg: str) -> str:
    """A problem of a record's field (its path ``loc``) in the card's words: the side and the
    field as printed, never a model's path."""
    steps = [x for x in loc if not x.isdigit()]
    side = steps[0] if len(steps) > 1 and steps[0] in SIDE_WORDS else None
    field_name = (steps[-1] if steps else "card").replace("_", " ")
    if msg == "Field required":
        if side and field_name == "name":
            return f"the {side.capitalize()} side's name is not typed: '{side.capitalize()} " \
                "side: NAME'"
        where = f" on the {side.capitalize()} side" if side else ""
        return f"its {field_name} is not typed{where}: add a '{field_name}: ...' line as printed"
    if loc and loc[-1].isdigit() and len(steps) >= 1 and steps[-1] == "effects":
        field_name = f"Effect {int(loc[-1]) + 1}"
    where = f"{side.capitalize()} side " if side else ""
    return f"{where}{field_name}: {msg}" if steps else msg


SIDE_WORDS = {"starting", "advanced", "enhanced", "weakened"}


# Typed fields an id-less card's placeholder should share beyond its deck (its slot in the
# deck): a Weakness's side, an Item's category
SLOT_FIELDS = ("side", "category")


def _next_slot(
    kind: str, values: dict[Path_, Any], catalog: Any, claimed: dict[str, int]
) -> str | None:
    """The placeholder an id-less card replaces: its deck's next one, of its side (a Weakness)
    or category (an Item) when there is one left."""
    deck_fields = DECK_FIELDS.get(kind, ())
    deck = next((values[(f,)] for f in deck_fields if values.get((f,))), None)
    if deck_fields and deck is None:
        return None
    free = [r for r in catalog.all(kind) if r.source == "placeholder" and r.id not in claimed
            and (not deck_fields or deck_of(kind, r) == deck)]
    same = [r for r in free if all(getattr(r, f, None) == values[(f,)] for f in SLOT_FIELDS
                                   if (f,) in values)]
    return str((same or free)[0].id) if free else None


def _other_kind(record_id: str, kind: str, catalog: Any) -> str | None:
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
    implied = implied_values(kind, {(k,): getattr(record, k) for k in model.model_fields})
    # the card's own fields first, then its Effects and its sides (as printed, top to bottom)
    for spec in sorted(card_specs(model), key=lambda s: s.side is not None or s.kind == "effects"):
        if spec.side is not None and getattr(record, spec.side) is None:
            continue
        if spec.side != side:
            side = spec.side
            if side is not None:
                lines.append(f"{side.capitalize()} side: {get_path(record, (side, 'name'))}")
        if spec.name == "name":
            continue
        value = get_path(record, spec.path)
        if spec.kind == "effects":
            lines.extend([render_effect(e) for e in value] if value else ["no Effects"])
            continue
        if spec.side is None and spec.name in shared and shared[spec.name] == value:
            continue
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
