"""The interactive transcription of one card, as a pure question-and-answer machine.

A :class:`CardSession` asks, in the card's order, for each field (over a placeholder the card
starts empty: a placeholder's value is shown and taken only when accepted, a symbol not
confirmed is absent; over an earlier transcription Enter keeps its value), then each Effect
typed as printed, shown back in words for a yes/no, then the whole card for a last yes. Its
state is a function of the answers it accepted, so ``undo`` replays all but the last, and a
saved list of answers (the draft) resumes a card exactly where it stopped.

:func:`queue` orders the cards still to transcribe the way an owner meets them at the table.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ValidationError

from blood_companion.content import models as m
from blood_companion.content.card_text import MAX_LINE, field_words
from blood_companion.content.cards import (
    KIND_ORDER,
    NO,
    NOT_PRINTED,
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
    literal_choices,
    parse_value,
    plain_message,
    printed_forms,
    wants_structure,
)
from blood_companion.content.effect_text import EffectSyntaxError, free_text_effect, parse_effect
from blood_companion.content.errors import Problem
from blood_companion.content.loader import KINDS
from blood_companion.content.render import render_effect
from blood_companion.fileio import FileProblem, describe_mode, read_text, write_atomic

# A line of a card (typed or in an import-text file) is at most card_text.MAX_LINE characters.
# An import-text file: three times the whole box as text (`export-text` of every kind is about
# 75 KB). Checking a file of that size stays within seconds whatever it holds.
MAX_CARD_FILE = 256 << 10


# The most items one list of a card may hold (Effects, Outcome elements, costs): the shipped
# cards hold at most three; twenty times that keeps checking and writing a card small.
MAX_ITEMS = 64


def too_many_items(value: Any) -> str | None:
    """Where a card (a record or an Effect, or their JSON form) holds a list longer than
    :data:`MAX_ITEMS`, as a sentence; None when it holds none."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_defaults=True)
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            if len(item) > MAX_ITEMS:
                return f"{where or 'the card'} holds {len(item):,} items; at most {MAX_ITEMS}"
            stack.extend((v, where) for v in item)
    return None


def long_line_problems(text: str, file: str) -> list[Problem]:
    """A problem for each line of ``text`` longer than :data:`MAX_LINE` (the first five)."""
    out: list[Problem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > MAX_LINE:
            out.append(Problem(file, number, None, f"the line is {len(line):,} characters long; "
                               f"a card's line is at most {MAX_LINE:,}"))
            if len(out) == 5:
                break
    return out


# Fields asked only when the card being replaced has them.
UNLESS_PRINTED = {"cost", "trophies", "upgrade_cost"}
PromptKind = Literal["field", "effect", "confirm_effect", "confirm_card"]


class Prompt(NamedTuple):
    """The question waiting: what to ask, the default Enter takes, and lines to show first."""

    kind: PromptKind
    question: str
    default: str | None
    info: tuple[str, ...] = ()
    hint: str | None = None


class CardSession:
    """One card being transcribed over ``base`` (the placeholder or an earlier transcription).

    Raises AnswerError from :meth:`answer` for an answer it cannot take (nothing changes)."""

    def __init__(self, kind: str, base: m.Record, answers: Iterable[str] = ()) -> None:
        self.kind = kind
        self.base = base
        self.model = KINDS[kind].model
        self.specs = [
            s
            for s in card_specs(self.model)
            if s.name not in STRUCTURAL
            and not (s.side is not None and get_path(base, (s.side,)) is None)
            # a purchase cost is printed only on cards that are bought (the placeholder has one)
            and not (s.name in UNLESS_PRINTED and get_path(base, s.path) in (None, []))
        ]
        # a placeholder is replaced from scratch: only where the card belongs is taken from it
        self.fresh = base.source == "placeholder"
        full = base_of(base)
        self._start = ({k: v for k, v in full.items() if k in STRUCTURAL or k == "id"}
                       if self.fresh else full)
        self.answers: list[str] = []
        self.record: m.Record | None = None
        self._reset()
        for text in answers:
            try:
                self.answer(text)
            except AnswerError:
                break  # a draft from another version of the data: keep what still fits

    def _reset(self) -> None:
        self._i = 0
        self._values: dict[tuple[str, ...], Any] = {}
        self._effects: dict[tuple[str, ...], list[m.Effect]] = {}
        self._pending: m.Effect | None = None
        self._failed: str | None = None
        self.record = None

    # ------------------------------------------------------------------ asking
    @property
    def done(self) -> bool:
        return self.record is not None

    def prompt(self) -> Prompt | None:
        """The question waiting, or None when the card is finished."""
        if self.done:
            return None
        if self._i >= len(self.specs):
            return self._confirm_card()
        spec = self.specs[self._i]
        if spec.kind != "effects":
            hint = "yes or no" if spec.kind == "flag" else _value_hint(spec)
            if self.fresh:
                return self._fresh_prompt(spec, hint)
            default = format_value(get_path(self.base, spec.path))
            return Prompt("field", spec.label, default, hint=hint)
        typed = self._effects.get(spec.path, [])
        where = "Effect" if spec.side is None else f"{spec.side.capitalize()} side Effect"
        if self._pending is not None:
            free = ("(free text: the app will not resolve it; the table does)",)
            return Prompt("confirm_effect", "Is that what the card says?", "yes",
                          ("Read as: " + render_effect(self._pending),
                           *(free if self._pending.is_free_text else ())),
                          "yes, or no to type it again")
        info: tuple[str, ...] = ()
        if not typed:
            before = get_path(self.base, spec.path) or []
            info = (f"{where}s on the card now ({self.base.source}):",) + tuple(
                f"  {k}. {render_effect(e)}" for k, e in enumerate(before, start=1)
            ) if before else (f"No {where}s on the card now.",)
        return Prompt("effect", f"{where} {len(typed) + 1}", None, info,
                      "type it as printed; an empty line when there are no more")

    # A placeholder is not the card: nothing of it is taken without being shown with its value
    # and accepted, and a symbol the owner does not confirm is absent (issue 27).
    def _absent(self, spec: FieldSpec) -> tuple[bool, Any]:
        """Whether the field has a value meaning "not on the card", and that value."""
        if spec.kind == "flag":
            return True, False
        if spec.info.is_required():
            return False, None
        return True, spec.info.get_default(call_default_factory=True)

    def _side_name(self, spec: FieldSpec) -> str | None:
        """A side printed without a name of its own (the Starting or Enhanced side, often the
        Advanced one too) carries the card's name: its default."""
        if spec.name == "name" and spec.side is not None:
            name = self._values.get(("name",))
            return str(name) if name else None
        return None

    def _fresh_prompt(self, spec: FieldSpec, hint: str | None) -> Prompt:
        if (named := self._side_name(spec)) is not None:
            return Prompt("field", spec.label, named, hint="Enter: the card's name")
        before = get_path(self.base, spec.path)
        has_absent, absent = self._absent(spec)
        forms = printed_forms(spec)
        if has_absent and before == absent:
            return Prompt("field", spec.label, format_value(absent), hint=hint)
        shown = format_value(before)
        if len(shown) > 60:
            shown = shown[:57].rstrip() + "…"
        if spec.kind == "flag":
            return Prompt("field", f"{spec.label}: yes (from the placeholder) — keep? [y/N]",
                          None, hint="y keeps the symbol; Enter or n: the card does not show it")
        if has_absent:
            return Prompt(
                "field", f"{spec.label}: {shown} (from the placeholder) — keep? [y/N]", None,
                hint=(f"y keeps it; Enter or n: not on the card ({format_value(absent)}); or "
                      "type what the card prints" + (f" ({forms})" if forms else "")))
        return Prompt("field", spec.label, None,
                      (f"The placeholder says: {shown} ('keep' takes it).",),
                      hint=hint or "type what the card prints")

    def _fresh_value(self, spec: FieldSpec, text: str) -> Any:
        if not text and (named := self._side_name(spec)) is not None:
            return named
        before = get_path(self.base, spec.path)
        has_absent, absent = self._absent(spec)
        key = text.casefold()
        asks_keep = not (has_absent and before == absent)
        if key == "keep" or (asks_keep and has_absent and key in YES):
            return before
        if not text or (asks_keep and has_absent and key in NO and spec.kind == "flag"):
            if has_absent:
                return absent
            raise AnswerError(f"{spec.label}: type what the card prints",
                              f"'keep' takes the placeholder's: {format_value(before)}")
        if asks_keep and has_absent and key in NO:
            return absent
        return parse_value(spec, text)

    def _confirm_card(self) -> Prompt:
        lines = list(self.summary())
        try:
            self._build()
        except ValidationError as exc:
            lines.append("This card does not hold yet:")
            lines.extend(f"  {_error_text(e)}" for e in exc.errors())
            return Prompt("confirm_card", "Write this card?", None, tuple(lines),
                          "undo to change an answer, skip to leave the card as it is")
        return Prompt("confirm_card", "Write this card?", "yes", tuple(lines), "yes or no")

    def summary(self) -> list[str]:
        """The card as it will be written, in words."""
        name = self._values.get(("name",), self.base.name)
        record_lines = [f"{name} [{self.base.id}]"]
        for spec in self.specs:
            if spec.kind == "effects":
                effects = self._effects.get(spec.path, [])
                where = "Effects" if spec.side is None else f"{spec.side} side Effects"
                record_lines.append(f"  {where}:" if effects else f"  {where}: none")
                record_lines.extend(f"    - {render_effect(e)}" for e in effects)
            elif spec.name != "name" or spec.side is not None:
                if spec.path in self._values:
                    value = self._values[spec.path]
                elif self.fresh:
                    has_absent, value = self._absent(spec)
                    if not has_absent:
                        record_lines.append(f"  {spec.label}: (not typed yet)")
                        continue
                else:
                    value = get_path(self.base, spec.path)
                record_lines.append(f"  {spec.label}: {format_value(value)}")
        return record_lines

    # ------------------------------------------------------------------ answering
    def answer(self, text: str) -> None:
        """Take one answer (the next prompt shows what it made of it)."""
        prompt = self.prompt()
        if prompt is None:
            raise AnswerError("this card is finished")
        text = text.strip()
        if len(text) > MAX_LINE + len("Free text: "):  # (a kept free text is recorded so)
            raise AnswerError(f"that answer is {len(text):,} characters long; a card's line is at "
                              f"most {MAX_LINE:,}", "type it again, shorter")
        recorded = text
        if prompt.kind == "field":
            spec = self.specs[self._i]
            if self.fresh or text:  # Enter over an earlier transcription keeps its value
                value = self._fresh_value(spec, text) if self.fresh else parse_value(spec, text)
                self._check_field(spec, value)
                self._values[spec.path] = value
            self._i += 1
        elif prompt.kind == "effect":
            if not text:
                self._i += 1
            else:
                if text.casefold() == "free":
                    if self._failed is None:
                        raise AnswerError("'free' keeps the Effect you just typed as words; type "
                                          "the Effect first")
                    recorded = f"Free text: {self._failed}"
                    effect = free_text_effect(self._failed)
                else:
                    try:
                        effect = parse_effect(text)
                    except EffectSyntaxError as exc:
                        self._failed = text
                        said = f"{exc.message} at column {exc.column}"
                        if exc.suggestion and "Free text" not in exc.suggestion:
                            said += f"; {exc.suggestion}"
                        raise AnswerError(said, "type it again, or 'free' to keep these words as "
                                          "free text (the table resolves it at night)",
                                          exc.pointer()) from None
                crowded = too_many_items(effect)
                if crowded:
                    raise AnswerError(f"that Effect is too long: {crowded}",
                                      "type it again as the card prints it")
                self._failed = None
                self._pending = effect
        elif prompt.kind == "confirm_effect":
            key = text.casefold() or "yes"
            if key in YES:
                spec = self.specs[self._i]
                assert self._pending is not None
                self._effects.setdefault(spec.path, []).append(self._pending)
                # a Quick Effect is its side's Quick symbol, as in a text file (issue 43)
                quick = (*spec.path[:-1], "quick")
                if self._pending.type == "quick" and any(s.path == quick for s in self.specs):
                    self._values[quick] = True
            elif key not in NO:
                raise AnswerError("answer yes or no")
            self._pending = None
        else:  # confirm_card
            key = text.casefold() or ("yes" if prompt.default else "")
            if key in NO:
                raise AnswerError("nothing written", "undo changes the last answer, restart "
                                  "starts the card again, skip leaves it as it is")
            if key not in YES:
                raise AnswerError("answer yes or no" if prompt.default else "the card does not "
                                  "hold yet", prompt.hint)
            try:
                self.record = self._build()
            except ValidationError as exc:
                raise AnswerError("the card does not hold: " + "; ".join(
                    _error_text(e) for e in exc.errors()), "undo to change an answer") from None
        self.answers.append(recorded)

    def undo(self) -> bool:
        """Take back the last accepted answer; False when there is none."""
        if not self.answers:
            return False
        kept = self.answers[:-1]
        self.restart()
        for text in kept:
            self.answer(text)
        return True

    def restart(self) -> None:
        self.answers = []
        self._reset()

    def _check_field(self, spec: FieldSpec, value: Any) -> None:
        """The card's own rules about this one field (e.g. all four Traits), at once."""
        values = {**self._values, spec.path: value}
        try:
            self._build(values)
        except ValidationError as exc:
            mine = [e for e in exc.errors() if tuple(e["loc"][: len(spec.path)]) == spec.path]
            if mine:
                said = "; ".join(_error_text({**e, "loc": e["loc"][len(spec.path):]}) for e in mine)
                raise AnswerError(f"{spec.label}: {said}", _value_hint(spec)) from None

    def _build(self, values: dict[tuple[str, ...], Any] | None = None) -> m.Record:
        values = dict(self._values if values is None else values)
        for spec in self.specs:
            if spec.kind == "effects" and (spec.path in self._effects
                                           or self._i > self.specs.index(spec)):
                values[spec.path] = self._effects.get(spec.path, [])
        return build_record(self.model, self._start, values)


def _value_hint(spec: FieldSpec) -> str | None:
    forms = printed_forms(spec)
    if forms:
        return f"as printed: {forms}"
    if wants_structure(spec):
        return "one line of YAML, like the default in brackets"
    choices = literal_choices(spec.info.annotation)
    if choices:
        return "one of: " + ", ".join(choices)
    return None


def _error_text(err: Any) -> str:
    """A validation error in the card's words (the side and field as printed)."""
    return field_words([str(p) for p in err.get("loc", ())],
                       plain_message(str(err.get("msg", ""))))


# --------------------------------------------------------------------------- the queue


@dataclass(frozen=True)
class Card:
    kind: str
    id: str


def queue(
    catalog: Any, *, table: Iterable[tuple[list[str], list[str]]] = (), kind: str | None = None,
    start: str | None = None, deck: str | None = None,
) -> list[Card]:
    """The placeholder cards to transcribe, in the order that matters at the owner's table:
    the Troupers and Nemeses of their campaigns (``table``: per campaign, its Trouper ids and
    the Nemeses met) first, each with its deck, then the rest of the box. ``kind`` and ``deck``
    narrow it; ``start`` begins at that card (even one transcribed already)."""
    seen: set[tuple[str, str]] = set()
    out: list[Card] = []

    def add(k: str, records: Iterable[Any]) -> None:
        for r in records:
            if (k, r.id) in seen or r.source != "placeholder":
                continue
            seen.add((k, r.id))
            out.append(Card(k, r.id))

    for troupers, nemeses in table:
        for t in troupers:
            add("troupers", [r for r in [catalog.trouper(t)] if r is not None])
            add("starting_tactics", catalog.starting_tactics_for(t))
            add("trouper_items", catalog.items_for(t))
        for n in nemeses:
            add("nemeses", [r for r in [catalog.nemesis(n)] if r is not None])
            add("reactions", catalog.reactions_for(n))
            add("weaknesses", catalog.weaknesses_for(n))
    kinds = [k for k in KIND_ORDER if k in KINDS] + [
        k for k in KINDS if k not in KIND_ORDER and k not in NOT_PRINTED
    ]
    for k in kinds:
        add(k, catalog.all(k))
    if kind is not None:
        out = [c for c in out if c.kind == kind]
    if deck is not None:
        out = [c for c in out if deck_of(c.kind, catalog.get(c.kind, c.id)) == deck or c.id == deck]
    if start is not None:
        found = next((c for c in out if c.id == start), None)
        if found is None:
            owner = kind or next((k for k in KINDS if catalog.get(k, start) is not None), None)
            if owner is None:
                return []
            found = Card(owner, start)
            out = [found, *out]
        out = out[out.index(found):]
    return out


# --------------------------------------------------------------------------- the draft

DRAFT = ".transcribe-draft.json"
MAX_DRAFT = 1 << 20  # a card's answers; a larger file is not a draft this app wrote
MAX_ANSWERS = 1000


def _draft_file(overlay: Path) -> Path:
    """The draft's path; raise FileProblem when something there is not the app's regular
    file (a folder, a FIFO, a symlink to ``/dev/zero``): checked without opening it."""
    path = overlay / DRAFT
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return path
    except OSError as exc:
        reason = f"cannot be read: {exc.strerror}"
    else:
        if stat.S_ISREG(mode):
            return path
        reason = "is a symlink, not the app's file" if stat.S_ISLNK(mode) else describe_mode(mode)
    raise FileProblem(path, "the transcription draft", reason, hint=DRAFT_HINT)


DRAFT_HINT = "remove it; `blood data transcribe` then starts that card again"


def load_draft(overlay: Path) -> tuple[Card, list[str]] | None:
    """The card left half-done (Ctrl-C, quit) and its accepted answers, if any. A draft that
    does not read as one (damaged, nested, too large) is no draft; raises FileProblem when
    the name holds something else than a regular file."""
    path = _draft_file(overlay)
    try:
        if path.stat().st_size > MAX_DRAFT:
            return None  # not one this app wrote: the card starts again
    except FileNotFoundError:
        return None
    try:
        data = json.loads(read_text(path, limit=MAX_DRAFT, what="the transcription draft"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    kind, record_id, answers = data.get("kind"), data.get("id"), data.get("answers")
    if not (
        isinstance(kind, str) and kind in KINDS and isinstance(record_id, str)
        and len(record_id) <= 200 and isinstance(answers, list)
        and len(answers) <= MAX_ANSWERS and all(isinstance(a, str) for a in answers)
    ):
        return None
    return Card(kind, record_id), list(answers)


def save_draft(overlay: Path, card: Card, answers: list[str]) -> None:
    """Keep a card's accepted answers (atomic: a crash leaves the previous draft)."""
    overlay.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"kind": card.kind, "id": card.id, "answers": answers}, ensure_ascii=False)
    # Lone surrogates (bytes that were not UTF-8) are refused where typed; never a crash here.
    write_atomic(_draft_file(overlay), text.encode("utf-8", "replace"))


def clear_draft(overlay: Path) -> None:
    _draft_file(overlay).unlink(missing_ok=True)
