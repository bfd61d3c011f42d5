"""A record seen as a printed card: the fields an owner types, its decks, and building a
transcribed record from typed answers.

Shared by the interactive transcription (``transcribe.py``), the text-file import
(``card_text.py``) and ``blood data progress`` (``progress.py``). Pure: no I/O, no CLI.
"""

from __future__ import annotations

import difflib
import functools
import re
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from blood_companion.content import models as m

# The field naming the deck a card belongs to, per kind ("Trouper Deck", "Nemesis Deck", the
# Advanced Tactic decks per Art, the Event and Location cards per Zone).
DECK_FIELDS: dict[str, tuple[str, ...]] = {
    "starting_tactics": ("trouper",), "trouper_items": ("trouper",), "reactions": ("nemesis",),
    "weaknesses": ("nemesis",), "advanced_tactics": ("art",), "events": ("zone",),
    "locations": ("zone",), "vlad_reactions": ("zone",), "special_tactics": ("location", "nemesis"),
    "special_items": ("location", "nemesis"),
}
# Fields that say where a card belongs rather than what it prints: the interactive loop keeps
# them from the placeholder instead of asking (a text file may still set them).
STRUCTURAL = {"kind", "trouper", "nemesis", "zone", "location", "side", "vlad"}
# Kinds that are the app's own decisions, not printed components (never in the queue).
NOT_PRINTED = {"rules_config", "components"}
# The order an owner meets the cards at the table: the Troupers' decks, the Nemeses, then the
# rest of the box.
KIND_ORDER = [
    "troupers", "starting_tactics", "trouper_items", "nemeses", "reactions", "weaknesses",
    "vlad_reactions", "minions", "events", "locations", "advanced_tactics", "special_tactics",
    "special_items", "dice", "difficulty", "insanity", "night_board", "zones", "village",
]

FieldKind = Literal["value", "flag", "effects"]


class AnswerError(ValueError):
    """A typed answer that does not fit the field; the message says what was expected."""

    def __init__(self, message: str, hint: str | None = None, pointer: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.pointer = pointer


class FieldSpec(NamedTuple):
    """One thing an owner types for a card: a value, a yes/no symbol, or a list of Effects.

    ``path`` reaches into a side (``("advanced", "name")``); ``side`` names it for prompts."""

    path: tuple[str, ...]
    kind: FieldKind
    info: FieldInfo
    side: str | None = None

    @property
    def name(self) -> str:
        return self.path[-1]

    @property
    def label(self) -> str:
        words = self.name.replace("_", " ")
        return f"{self.side} side {words}" if self.side else words

    @property
    def optional(self) -> bool:
        return not self.info.is_required() and type(None) in typing.get_args(self.info.annotation)


@functools.cache
def _adapter(info: FieldInfo) -> TypeAdapter[Any]:
    """A validator for one field (FieldInfo objects live on their model class, hashed by id)."""
    annotation: Any = info.annotation
    if info.metadata:
        annotation = Annotated.__class_getitem__((annotation, *info.metadata))  # type: ignore[attr-defined]
    return TypeAdapter(annotation)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model class of a field (``ItemSide``, ``ItemSide | None``), else None."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _is_effect_list(annotation: Any) -> bool:
    return typing.get_origin(annotation) is list and typing.get_args(annotation) == (m.Effect,)


def _holds_effects(model: type[BaseModel]) -> bool:
    return any(_is_effect_list(f.annotation) for f in model.model_fields.values())


def card_specs(model: type[BaseModel]) -> list[FieldSpec]:
    """Every field an owner types for this kind of card, in the card's order. A side (an Item's
    Starting/Advanced side, a Vlad card's Enhanced/Weakened face) contributes its own fields."""
    return list(_specs(model))


@functools.cache
def _specs(
    model: type[BaseModel], *, prefix: tuple[str, ...] = (), side: str | None = None
) -> list[FieldSpec]:
    specs: list[FieldSpec] = []
    for name, info in model.model_fields.items():
        if not prefix and name in ("id", "source"):
            continue
        path = (*prefix, name)
        if _is_effect_list(info.annotation):
            specs.append(FieldSpec(path, "effects", info, side))
            continue
        sub = _model_of(info.annotation)
        if sub is not None and _holds_effects(sub):
            specs.extend(_specs(sub, prefix=path, side=name))
            continue
        kind: FieldKind = "flag" if info.annotation is bool else "value"
        specs.append(FieldSpec(path, kind, info, side))
    return specs


def sides_of(model: type[BaseModel]) -> list[str]:
    """The names of a card's sides/faces that hold Effects (``starting``, ``advanced``...)."""
    return list(dict.fromkeys(s.side for s in card_specs(model) if s.side))


# --------------------------------------------------------------------------- values


def get_path(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if data is None:
            return None
        data = data.get(part) if isinstance(data, dict) else getattr(data, part, None)
    return data


def set_path(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        nxt = data.get(part)
        if not isinstance(nxt, dict):
            nxt = {} if nxt is None else base_of(nxt)
            data[part] = nxt
        data = nxt
    data[path[-1]] = value


def base_of(value: Any) -> Any:
    """A model's fields as a shallow dict of models and values (for build_record); anything
    else as it is."""
    if isinstance(value, BaseModel):
        return {k: getattr(value, k) for k in type(value).model_fields}
    return value


def format_value(value: Any) -> str:
    """A value as an owner types it: plain words and numbers, ``yes``/``no``, or a one-line YAML
    mapping/list for the structured fields (``{physical: 1}``)."""
    printed = PRINTED.get(type(value))
    if printed is not None:
        return printed[0](value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_defaults=True)
    elif isinstance(value, list):
        value = [v.model_dump(mode="json", exclude_defaults=True) if isinstance(v, BaseModel)
                 else v for v in value]
    return flow_yaml(value)


def flow_yaml(value: Any) -> str:
    """``value`` as one line of YAML (``{physical: 1}``)."""
    text = yaml.safe_dump(value, default_flow_style=True, width=1_000_000, sort_keys=False,
                          allow_unicode=True)
    return text.strip().removesuffix("...").strip()


YES = {"y", "yes", "true", "on", "1", "x"}
MAX_ANSWER = 2000  # a printed field is short; longer answers are refused before any parsing
NO = {"n", "no", "false", "off", "0", "-"}


def parse_value(spec: FieldSpec, text: str) -> Any:
    """Read a typed answer for a value or yes/no field. Raises AnswerError."""
    raw = text.strip()
    if len(raw) > MAX_ANSWER:
        raise AnswerError(f"{spec.label}: at most {MAX_ANSWER} characters (this has {len(raw)})")
    if spec.kind == "flag":
        key = raw.casefold()
        if key in YES:
            return True
        if key in NO:
            return False
        raise AnswerError(f"{spec.label}: answer yes or no, not {raw!r}")
    printed = _printed_kind(spec)
    if printed is not None and raw[:1] not in ("{", "["):
        return _parse_printed(spec, printed, raw)
    if raw.casefold() in ("none", "-", "~", "null") and spec.optional:
        return None
    adapter = _adapter(spec.info)
    candidates: list[Any] = []
    if raw[:1] in ("{", "[") or wants_structure(spec):
        try:
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C one when built
            loaded = yaml.load(raw, Loader=loader)  # noqa: S506 - a safe loader
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or "not readable"
            raise AnswerError(f"{spec.label}: {problem}", "write it on one line of YAML, like the "
                              "default, e.g. {physical: 1, mind: 0}") from None
        candidates.append(loaded)
    candidates.append(raw)
    if raw != raw.casefold().replace(" ", "_"):
        candidates.append(raw.casefold().replace(" ", "_").replace("-", "_"))
    first_error: ValidationError | None = None
    for candidate in candidates:
        try:
            return adapter.validate_python(candidate)
        except ValidationError as exc:
            first_error = first_error or exc
    assert first_error is not None
    err = first_error.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return _raise(spec, raw, f"{where + ': ' if where else ''}{err['msg']}")


def _raise(spec: FieldSpec, raw: str, why: str) -> Any:
    choices = literal_choices(spec.info.annotation)
    if choices:
        close = difflib.get_close_matches(raw.casefold(), choices, n=1, cutoff=0.6)
        hint = (f"did you mean {close[0]!r}? " if close else "") + "one of: " + ", ".join(choices)
        raise AnswerError(f"{spec.label}: {raw!r} is not one of the choices", hint)
    forms = printed_forms(spec)
    raise AnswerError(f"{spec.label}: {raw!r} does not fit ({plain_message(why)})",
                      f"type it as printed: {forms}" if forms else None)


def plain_message(msg: str) -> str:
    """A validator's message in the card's words: no model or type names."""
    msg = re.sub(r"\s*or instance of \w+", "", msg)
    msg = re.sub(r"\binstance of \w+", "the card's value", msg)
    return msg.replace("a valid dictionary", "a mapping like {physical: 1}").removeprefix(
        "Value error, ")


def wants_structure(spec: FieldSpec) -> bool:
    """True when the field takes a mapping or list (typed as one line of YAML)."""
    ann = spec.info.annotation
    return any(typing.get_origin(c) in (list, dict) or _model_of(c) is not None
               for c in (ann, *typing.get_args(ann)))


def literal_choices(annotation: Any) -> list[str]:
    out: list[str] = []
    for candidate in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(candidate) is Literal:
            out.extend(str(a) for a in typing.get_args(candidate))
    return out


# --------------------------------------------------------------------------- decks


def deck_of(kind: str, record: Any) -> str | None:
    """The deck a card belongs to (its Trouper, Nemesis, Art or Zone), or None."""
    return next((str(v) for name in DECK_FIELDS.get(kind, ())
                 if (v := getattr(record, name, None))), None)


def build_record(
    model: type[m.Record], base: dict[str, Any], values: dict[tuple[str, ...], Any],
) -> m.Record:
    """The transcribed record: the base (the placeholder's fields) with the typed values set,
    marked ``source: transcribed``. Raises ValidationError when the card as a whole does not
    hold (e.g. a starting card without an Art)."""
    data: dict[str, Any] = {k: base_of(v) for k, v in base.items()}
    for path, value in values.items():
        set_path(data, path, value)
    data["source"] = "transcribed"
    return model.model_validate(data)


def implied_values(kind: str, values: dict[tuple[str, ...], Any]) -> dict[tuple[str, ...], Any]:
    """Fields the kind of file already says (a card in starting_tactics is a Starting card),
    so a typed card need not repeat them."""
    card_kind = {"starting_tactics": "starting", "advanced_tactics": "advanced",
                 "trouper_items": "trouper"}.get(kind)
    if kind in ("special_tactics", "special_items"):
        card_kind = ("location" if values.get(("location",))
                     else "nemesis" if values.get(("nemesis",)) else None)
    return {("kind",): card_kind} if card_kind else {}


# --------------------------------------------------------------------------- printed forms
# Fatigue, resource costs and Check rules typed the way the card prints them ("Physical -1,
# Mind -2", "2 Coins, 1 Trinket", "Turn 6+"), and written back the same way, so an owner never
# types YAML or reads a model's name. One line of YAML is still read (older files).

RESOURCE_NAMES = {"jewels": "Jewel", "coins": "Coin", "trinkets": "Trinket", "scrolls": "Scroll"}
_RESOURCE_READ = {
    **{w: r for r, name in RESOURCE_NAMES.items() for w in (r, r[:-1], name.casefold())},
    "any": "any", "resource": "any", "resources": "any", "any resource": "any",
    "any resources": "any",
}
FATIGUE_FORMS = "'Physical -1, Mind -2', 'Physical -1', 'Mind -1' or 'none'"
COST_FORMS = "'2 Coins, 1 Trinket', '4 any' (the Resource symbol), 'free' or 'none'"
CHECK_FORMS = {
    "turn_at_least": "Turn {n}+", "knocked_out_at_least": "{n}+ Knocked Out",
    "nemesis_discard_at_least": "{n}+ in the Nemesis discard", "bites_total_at_least": "{n}+ Bites",
    "always": "always",
}
CHECK_HELP = (
    "'Turn 6+', '2+ Knocked Out', '8+ in the Nemesis discard', '12+ Bites', 'always' or 'none', "
    "then the printed sentence in brackets if you like: 'Turn 6+ (This is Game Turn 6 or later.)'"
)


def plural(n: int, word: str) -> str:
    """``1 Coin``, ``2 Coins`` (``any`` stays ``any``)."""
    return f"{n} {word}" if n == 1 or word == "any" else f"{n} {word}s"


def format_cost(c: m.ResourceCost | None) -> str:
    """A resource cost as printed: ``2 Coins, 1 Trinket``, ``4 any``, ``free``; None: ``none``."""
    if c is None:
        return "none"
    parts = [plural(getattr(c, r), RESOURCE_NAMES[r]) for r in RESOURCE_NAMES if getattr(c, r)]
    if c.any:
        parts.append(plural(c.any, "any"))
    return ", ".join(parts) or "free"


def format_fatigue(f: m.Fatigue) -> str:
    """Fatigue as printed: a reduction of the Defense, ``Physical -1, Mind -2``; ``none``."""
    parts = [f"{label} -{n}" for label, n in (("Physical", f.physical), ("Mind", f.mind)) if n]
    return ", ".join(parts) or "none"


def format_check(c: m.CheckRule | None) -> str:
    if c is None:
        return "none"
    out = CHECK_FORMS[c.kind].format(n=c.n)
    if c.kind == "always" and c.n:
        out += f" {c.n}"
    return out + (f" ({c.text})" if c.text else "")


def _printed_kind(spec: FieldSpec) -> type | None:
    ann = spec.info.annotation
    return next((c for c in (ann, *typing.get_args(ann)) if c in PRINTED), None)


def printed_forms(spec: FieldSpec) -> str | None:
    """The accepted forms of a field typed as printed, for prompts and errors."""
    kind = _printed_kind(spec)
    return None if kind is None else PRINTED[kind][1]


def _parse_printed(spec: FieldSpec, kind: type, raw: str) -> Any:
    if kind is not m.CheckRule:
        raw = raw.rstrip(".").rstrip()  # "Cost: 2 Coins." as a card line ends
    key = " ".join(raw.split()).casefold()
    if kind is m.Fatigue:
        if key in ("none", "-", "0", "no", "no fatigue"):
            return m.Fatigue()
        values: dict[str, int] = {}
        for part in key.split(","):
            match = re.fullmatch(r"\s*(physical|mind)(?: defense)?\s*[-−–]?\s*(\d{1,2})\s*", part)
            if match is None or match.group(1) in values:
                raise AnswerError(f"{spec.label}: {raw!r} is not a Fatigue as printed",
                                  f"type it as the card shows it: {FATIGUE_FORMS}")
            values[match.group(1)] = int(match.group(2))
        if any(v > 6 for v in values.values()):
            raise AnswerError(f"{spec.label}: a Fatigue lowers a Defense by 0 to 6",
                              f"e.g. {FATIGUE_FORMS}")
        return m.Fatigue(**values)
    if kind is m.ResourceCost:
        if key in ("none", "-", "no"):
            if spec.optional:
                return None
            raise AnswerError(f"{spec.label}: this card prints a cost", f"e.g. {COST_FORMS}")
        if key in ("free", "0"):
            return m.ResourceCost()
        counts: dict[str, int] = {}
        for part in key.replace(" and ", ",").split(","):
            match = re.fullmatch(r"\s*(\d{1,2})\s+([a-z ]+?)\s*", part)
            resource = _RESOURCE_READ.get(match.group(2)) if match else None
            if match is None or resource is None or resource in counts:
                word = part.strip()
                close = difflib.get_close_matches(
                    (match.group(2) if match else word), list(_RESOURCE_READ), n=1, cutoff=0.6)
                hint = (f"did you mean {close[0]!r}? " if close else "") + f"e.g. {COST_FORMS}"
                raise AnswerError(f"{spec.label}: {word!r} is not a cost as printed", hint)
            counts[resource] = int(match.group(1))
        return m.ResourceCost(**counts)
    # check
    if key in ("none", "no", "-", "n") and spec.optional:
        return None
    text: str | None = None
    head = raw.strip()
    if head.endswith(")") and " (" in head:
        at = head.index(" (")
        head, text = head[:at].strip(), head[at + 2 : -1].strip() or None
    head_key = " ".join(head.split()).casefold()
    for pattern, check_kind in (
        (r"turn (\d{1,2})\+", "turn_at_least"),
        (r"(\d{1,2})\+ (?:troupers? )?knocked out", "knocked_out_at_least"),
        (r"(\d{1,2})\+ (?:cards? )?in the nemesis discard(?: pile)?", "nemesis_discard_at_least"),
        (r"(\d{1,2})\+ bites?(?: in total)?", "bites_total_at_least"),
        (r"always(?: (\d{1,2}))?", "always"),
    ):
        match = re.fullmatch(pattern, head_key)
        if match:
            n = int(match.group(1)) if match.groups() and match.group(1) else 0
            return m.CheckRule(kind=check_kind, n=n, text=text)
    close = difflib.get_close_matches(
        head_key, [f.format(n=2).casefold() for f in CHECK_FORMS.values()], n=1, cutoff=0.5)
    raise AnswerError(f"{spec.label}: {raw!r} is not a Check as printed",
                      (f"did you mean {close[0]!r}? " if close else "") + CHECK_HELP)


# Each model typed as printed: how it is written, and the forms it is read in.
PRINTED: dict[Any, tuple[Callable[[Any], str], str]] = {
    m.Fatigue: (format_fatigue, FATIGUE_FORMS), m.ResourceCost: (format_cost, COST_FORMS),
    m.CheckRule: (format_check, CHECK_HELP),
}
