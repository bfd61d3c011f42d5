"""The menus of `blood play`: one walker over the engine's typed legal actions (pure).

A :class:`Walk` is one position in the menus: the campaign's ``legal.Next`` view (its options
are the top menu) and, once an option is chosen, its answers so far and the follow-up asked
now (``flow.ask``). :meth:`Walk.answer` reads one typed answer and returns :class:`Done` (the
action to record), a new :class:`Walk` (the next question), :class:`Again` (the same question,
with why) or :class:`Confirm` (legal but probably not meant: answer again with
``confirmed=True``). Titles, questions, keys and defaults come from the engine; the dice the
app rolls come from the campaign's generator (a stream of the step about to be recorded).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from blood_companion import matching
from blood_companion.cli import commands
from blood_companion.cli.draws import name_draw
from blood_companion.content.loader import Catalog
from blood_companion.engine import flow, legal
from blood_companion.engine.actions import Action
from blood_companion.engine.bookkeeping import said_name
from blood_companion.engine.chance import Chance
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words import record_name, so_far_lines
from blood_companion.errors import BloodError

MAX_ANSWER = 200  # longer answers are refused without being read
EXCERPT = 24  # at most this much of a bad answer is echoed back


def excerpt(text: str) -> str:
    """A short, printable excerpt of what was typed (for messages)."""
    clean = "".join(c if c.isprintable() else "?" for c in text.strip())
    return repr(clean if len(clean) <= EXCERPT else clean[: EXCERPT - 1] + "…")


def clean_answer(text: str) -> str:
    """The answer as the walker reads it: normalised, without control characters."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if c.isprintable()).strip()


# --------------------------------------------------------------------------- results


class Done(NamedTuple):
    """The answers are complete: record this action."""

    action: Action


class _Said(NamedTuple):
    message: str


class Again(_Said):
    """The same question is asked again; ``message`` says why."""


class Confirm(_Said):
    """The answer is legal but probably not meant: ask "really?" first (``message``: why)."""


# --------------------------------------------------------------------------- screens


class Choice(NamedTuple):
    key: str
    label: str
    enabled: bool = True
    why: str = ""
    warn: str = ""
    action: dict[str, Any] | None = None  # the action it records (None: questions follow)
    command: str | None = None  # the `blood ...` command recording the same

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "enabled": self.enabled,
            "why": self.why or None,
            "warn": self.warn or None,
            "action": self.action,
            "follow_up": self.action is None,
            "command": self.command,
        }


class Screen(NamedTuple):
    """One question as shown: the title, the question, the choices and the default."""

    title: str
    question: str
    choices: tuple[Choice, ...] = ()
    default: str | None = None  # the key Enter means ("*": every choice)
    info: tuple[str, ...] = ()
    free_hint: str | None = None  # what may be typed instead of a key
    many: tuple[int, int] | None = None  # several choices at once: (at least, at most)
    end: bool = False
    need: str | None = None  # the follow-up asked (None: the top menu)
    who: str | None = None
    part: str = ""
    step: str = ""
    test: Mapping[str, Any] | None = None  # the Test being taken: pool, target, odds

    def to_json(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "step": self.step,
            "title": self.title,
            "question": self.question,
            "who": self.who,
            "need": self.need,
            "info": list(self.info),
            "default": self.default,
            "free_text": self.free_hint,
            "multi": self.many is not None,
            "many": list(self.many) if self.many is not None else None,
            "test": dict(self.test) if self.test is not None else None,
            "end": self.end,
            "choices": [c.to_json() for c in self.choices],
        }


# --------------------------------------------------------------------------- the walker


class Walk(NamedTuple):
    """A position in `blood play`'s menus (see the module docstring). (NamedTuples here: a
    frozen dataclass costs ~0.4 ms to create, on every `blood play`.)"""

    state: CampaignState
    catalog: Catalog
    nxt: legal.Next
    # the log position the next step is recorded at (the app's dice stream)
    index: int = 0  # type: ignore[assignment]  # a field, shadowing tuple.index
    option: legal.Option | None = None
    answers: Mapping[str, Any] = {}  # read only: one empty mapping shared
    asked: legal.Ask | None = None
    # A card the table drew that the action needs named (engine/table.py): the action, the
    # deck and the cards it can be, the physical instruction.
    drawing: Action | None = None
    draw: Any = None  # the DrawNeeded the engine raised

    @classmethod
    def start(cls, state: CampaignState, catalog: Catalog, index: int = 0) -> Walk:
        return cls(state, catalog, flow.next_view(state, catalog), index)

    # ------------------------------------------------------------------ showing
    @property
    def title(self) -> str:
        game = f"Game {self.state.game} · " if self.state.game else ""
        return game + self.nxt.title

    def drawing_for(self, action: Action, need: Any) -> Walk:
        """The question "which card came up?" for the DrawNeeded ``need`` of ``action``."""
        return self._replace(drawing=action, draw=need)

    def _screen(self, question: str, choices: tuple[Choice, ...], default: str | None,
                info: tuple[str, ...], **more: Any) -> Screen:
        """A screen of this moment: the title, who acts, the part and step are the walk's."""
        nxt = self.nxt
        return Screen(self.title, question, choices, default, info, who=nxt.who, part=nxt.part,
                      step=nxt.step, **more)

    def _draw_screen(self) -> Screen:
        need = self.draw
        choices = tuple(Choice(str(i + 1), n) for i, n in enumerate(need.names))
        # what the step already did (a roll, a reshuffle), told before the question on it
        done = so_far_lines(need, self.state, self.catalog)
        return self._screen("\n".join([*done, need.prompt]), choices, None,
                            ("The players drew it from the real deck.",),
                            free_hint="the card's name", need="drawn")

    def _draw_answer(self, text: str) -> Done | Again:
        assert self.drawing is not None
        if not text:
            return Again("which card came up? type its number or its name")
        return Done(name_draw(self.drawing, self.draw, [text], "card"))

    def screen(self) -> Screen:
        nxt = self.nxt
        if self.draw is not None:
            return self._draw_screen()
        if self.asked is None or self.option is None:
            choices = tuple(_option_choice(o) for o in nxt.options)
            return self._screen(nxt.prompt, choices, nxt.default, tuple(nxt.info), end=nxt.end)
        q = self.asked
        choices = tuple(Choice(p.key, p.label, p.enabled, p.why, p.warn) for p in q.picks)
        return self._screen(q.prompt, choices, q.default, (self.context(), *q.info),
                            free_hint=q.free, many=q.many, need=q.need, test=q.test)

    def context(self) -> str:
        """What was chosen so far ("Effect 2 · target: Minion A · side: Front"), by name."""
        assert self.option is not None
        parts = [self.option.label.split(": ")[0]]
        said = self.answers.get(SAID) or {}
        for need, value in self.answers.items():
            if need.startswith("_") or value in (None, [], ""):
                continue
            named = said.get(need) or _short(self._named(value, need == "target"))
            parts.append(f"{need}: {named}")
        text = " · ".join(parts)
        return "Chosen: " + (text if len(text) <= 160 else text[:159] + "…")

    def _named(self, value: Any, target: bool = False) -> Any:
        """An answer as the players say it: names, not ids (lists item by item)."""
        if isinstance(value, list):
            return [self._named(v, target) for v in value]
        return said_name(self.state, self.catalog, value, target=target) if isinstance(
            value, str) else value

    @property
    def top(self) -> Walk:
        """The top menu of the same moment (the choice in progress dropped)."""
        return self._replace(option=None, answers={}, asked=None, drawing=None, draw=None)

    # ------------------------------------------------------------------ answering
    def answer(self, text: str, *, confirmed: bool = False) -> Done | Walk | Again | Confirm:
        """What one typed answer leads to (never raises for what the players type)."""
        if len(text) > MAX_ANSWER:
            return Again(f"that answer is {len(text)} characters long: type a key")
        text = clean_answer(text)
        try:
            if self.draw is not None:
                return self._draw_answer(text)
            if self.asked is None or self.option is None:
                return self._top(text, confirmed)
            return self._follow_up(self.asked, text, confirmed)
        except (BloodError, ValueError) as exc:
            return Again(getattr(exc, "message", None) or str(exc))

    def _top(self, text: str, confirmed: bool) -> Done | Walk | Again | Confirm:
        nxt = self.nxt
        if nxt.end:
            return Again("nothing is left to play")
        key = text or nxt.default
        if not key:
            return Again("there is no default here: type one of the keys")
        option = (nxt.option(key.lower()) or _by_label(nxt.options, key)
                  or _by_name(nxt.options, key, self.catalog))
        if option is None:
            return Again(f"{excerpt(text)} is not one of the choices ("
                         + ", ".join(o.key for o in nxt.options if o.enabled) + ")")
        if not option.enabled:
            return Again(f"{option.label}: {option.why or 'not possible now'}")
        return self._next(option, {})

    def _follow_up(self, q: legal.Ask, text: str, confirmed: bool) -> Done | Walk | Again | Confirm:
        assert self.option is not None
        answers = dict(self.answers)
        if q.many is not None:
            picks = self._many(q, text)
            if isinstance(picks, Again):
                return picks
            warn = [p.warn for p in picks if p.warn]
            if warn and not confirmed:
                return Confirm(warn[0])
            answers[q.need] = [p.value for p in picks]
            _say(answers, q.need, ", ".join(_label(p) for p in picks) or "none")
            return self._next(self.option, answers)
        pick = self._one(q, text)
        if isinstance(pick, Again):
            return pick
        if isinstance(pick, legal.Pick):
            if not pick.enabled:
                return Again(f"{pick.label}: {pick.why or 'not possible now'}")
            if pick.warn and not confirmed:
                return Confirm(pick.warn)
            value, need = pick.value, pick.need
        else:
            value, need = pick, None
        if value == legal.ROLL:
            value = self._roll(q, answers)
        elif isinstance(pick, legal.Pick) and not (q.append or need is not None):
            _say(answers, q.need, _label(pick))
        _put(answers, need or q.need, value, append=q.append or need is not None)
        return self._next(self.option, answers)

    def _one(self, q: legal.Ask, text: str) -> legal.Pick | Any | Again:
        """The pick (or free-text value) an answer names."""
        key = text or q.default
        if not key:
            return Again("there is no default here: type one of the choices"
                         + (f" or {q.free}" if q.free else ""))
        # numbers typed where free text is read (dice positions, faces) mean what was typed:
        # never a label that happens to hold them ("Re-roll die 1,2,3" for "1 2")
        numbers = q.parse is not None and key.lower() not in {p.key.lower() for p in q.picks} \
            and any(c.isdigit() for c in key)
        pick = None if numbers else _find(q.picks, key)
        if pick is not None:
            return pick
        if q.parse is not None and (numbers or q.free is not None):
            try:
                return q.parse(key)
            except (BloodError, ValueError) as exc:
                msg = getattr(exc, "message", None) or str(exc)
                return Again(f"{excerpt(text)}: {msg}")
        keys = ", ".join(p.key for p in q.picks if p.enabled)
        extra = f", or {q.free}" if q.free else ""
        return Again(f"{excerpt(text)} is not one of the choices ({keys}{extra})")

    def _many(self, q: legal.Ask, text: str) -> list[legal.Pick] | Again:
        assert q.many is not None
        least, most = q.many
        enabled = [p for p in q.picks if p.enabled]
        if not text:
            if q.default == "*":
                return enabled[:most]
            if q.default == "none":
                return []
            if q.default:
                found = _split_picks(q.picks, q.default)
                return [] if isinstance(found, str) else found
            # no default: Enter chooses nothing, not even "none" (a fact of the table is
            # typed, never assumed)
            return Again(f"type {_count(least, most)} of the numbers or names, e.g. "
                         + " ".join(p.key for p in enabled[:max(1, least)])
                         + (", `none`" if least == 0 else "")
                         + (", or `all`" if most >= len(enabled) else "")
                         + (f", or {q.free}" if q.free else ""))
        low = text.lower()
        if low == "none":
            if least > 0:
                return Again(f"at least {least} must be chosen")
            return []
        if low in ("all", "*"):
            picked = enabled
        else:
            found = _split_picks(q.picks, text)
            if isinstance(found, str):
                words = _comma_parts(q.picks, text) if "," in text else text.split()
                if len(words) > most and ("," in text or all(w.isdigit() for w in words)):
                    return Again(_too_many(q, len(words)))
                return Again(f"{excerpt(found)} is not one of the choices ("
                             + ", ".join(p.key for p in enabled) + ")")
            picked = found
        for p in picked:
            if not p.enabled:
                return Again(f"{p.label}: {p.why or 'not possible now'}")
        twins = _twins(picked, enabled)
        if isinstance(twins, Again):
            return twins
        picked = twins
        why = f" ({q.most_why})" if q.most_why else ""
        if len(picked) > most:
            return Again(_too_many(q, len(picked)))
        if len(picked) < least:
            return Again(f"too few: {len(picked)} named, {_count(least, most)} here{why}")
        return picked

    def _roll(self, q: legal.Ask, answers: Mapping[str, Any]) -> Any:
        """The app's roll for a ROLL pick (a stream of the step about to be recorded, per throw)."""
        if q.roll is None:  # pragma: no cover - a ROLL pick always comes with its roller
            raise ValueError("nothing to roll here")
        throws = len(answers.get("dice") or [])
        return q.roll(Chance.fresh(self.state.seed, self.index, f"play-throw-{throws}"))

    def _next(self, option: legal.Option, answers: dict[str, Any]) -> Done | Walk | Again | Confirm:
        """The next question of ``option`` (those with nothing to decide answered), or Done."""
        for _ in range(50):
            q = flow.ask(self.state, self.catalog, option, answers)
            if q is None:
                return Done(flow.build(option, answers))
            if not q.auto:
                return self._replace(option=option, answers=answers, asked=q)
            pick = _find(q.picks, q.default or "")
            value = pick.value if pick is not None else None
            if value == legal.ROLL:
                value = self._roll(q, answers)
            elif pick is not None and not q.append:
                _say(answers, q.need, _label(pick))
            _put(answers, q.need, value, append=q.append)
        raise ValueError("too many questions follow this choice")  # pragma: no cover


# The walker's own answer (never recorded): need -> the name of the choice(s) it was, for the
# trail of what was chosen so far.
SAID = "_said"


def _say(answers: dict[str, Any], need: str, text: str) -> None:
    answers[SAID] = {**(answers.get(SAID) or {}), need: text}


def _label(p: legal.Pick) -> str:
    """A choice as the trail names it: its label without the details in brackets ("Strength"
    for "Strength: roll R R R, 20% to reach 4", where the label starts with what it records)."""
    head = p.label.split(" (")[0]
    if isinstance(p.value, str) and head.lower().startswith(p.value.lower() + ": "):
        head = head[: len(p.value)]
    return _short(head)


def _too_many(q: legal.Ask, named: int) -> str:
    assert q.many is not None
    why = f" ({q.most_why})" if q.most_why else ""
    return f"too many: {named} named, at most {q.many[1]} here{why}; type them again"


def _twins(picked: list[legal.Pick], enabled: Sequence[legal.Pick]) -> list[legal.Pick] | Again:
    """The picks named, a choice named twice taking its twin (a second copy of the same card in
    hand: same name and value, another key) when there is one left."""
    out: list[legal.Pick] = []
    for p in picked:
        if any(q is p for q in out):
            twin = next((q for q in enabled if q.value == p.value and q.label == p.label
                         and not any(r is q for r in out)), None)
            if twin is None:
                return Again(f"{_label(p)} is named twice")
            p = twin
        out.append(p)
    return out


def _put(answers: dict[str, Any], need: str, value: Any, *, append: bool) -> None:
    if append:
        answers[need] = [*(answers.get(need) or []), value]
    else:
        answers[need] = value


def _count(least: int, most: int) -> str:
    return str(least) if least == most else f"{least} to {most}"


def _short(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value)
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _option_choice(o: legal.Option) -> Choice:
    action = None
    if o.complete:
        try:
            action = flow.build(o).model_dump(mode="json")
        except BloodError:
            action = None
    return Choice(o.key, o.label, o.enabled, o.why, "", action, commands.for_option(o))


def _names(p: legal.Pick) -> list[str]:
    """What a pick may be called: its key, its value (an id) and its label's words."""
    out = [p.key.lower(), p.label.lower()]
    if isinstance(p.value, str):
        out.append(p.value.lower())
    base = p.label.split(" (")[0].split(": ")[0].lower()
    out.append(base)
    return out


def _find(picks: Sequence[legal.Pick], word: str) -> legal.Pick | None:
    """The pick a word names: its key, else what the package's one matcher finds among its
    id and names (exact, prefix, part, a typo: :mod:`blood_companion.matching`; a word of one or
    two letters only a whole name). A number is only ever a key, never part of an id ("12" past
    a hand of five is refused)."""
    low = word.strip().lower()
    if not low:
        return None
    by_key = {p.key.lower(): p for p in picks}
    if low in by_key:
        return by_key[low]
    if low.isdigit():
        return None
    names = [(p.key.lower(), n) for p in picks for n in _names(p)[1:]]
    if len(low) < 3:  # a letter or two names a key or a whole name, never part of one
        names = [(k, n) for k, n in names if n.lower() == low]
    found = matching.find(low, names)
    return by_key.get(found.id) if found.id is not None else None


def _by_label(options: Sequence[legal.Option], word: str) -> legal.Option | None:
    low = word.lower()
    if len(low) < 3:
        return None
    hits = [o for o in options if o.label.lower().startswith(low)]
    return hits[0] if len(hits) == 1 else None


def _by_name(options: Sequence[legal.Option], word: str, catalog: Catalog) -> legal.Option | None:
    """The option a name picks at a top menu ("mad waltz" for "Play Mad Waltz (Threat 2)",
    "ioana" for "Ioana"): the package's one matcher over each option's label, the label
    without its verb, and the name of the card or Trouper it records (:func:`_find`)."""
    picks = []
    for o in options:
        named = [o.fields.get(k) for k in ("card", "trouper")]
        for k in ("cards", "troupers"):  # one thing named: "All of them" is no Ioana
            many = list(o.fields.get(k) or [])
            named += many if len(many) == 1 else []
        words = [record_name(catalog, str(v)) for v in named if isinstance(v, str) and v]
        label = o.label.split(" (")[0].split(": ")[0]
        if " " in label:
            words.append(label.split(" ", 1)[1])
        picks.append(legal.Pick(o.key, o.label, None))
        picks.extend(legal.Pick(o.key, w, None) for w in words)
    found = _find(picks, word)
    return next((o for o in options if found is not None and o.key == found.key), None)


def _comma_parts(picks: Sequence[legal.Pick], text: str) -> list[str]:
    """The parts of an answer separated by commas, a name holding a comma ("Aurel, the
    Thread-Walker") kept whole: the longest run of parts that is a choice's whole name."""
    parts = [x.strip() for x in text.split(",")]
    whole = {n for p in picks for n in _names(p)}
    out, i = [], 0
    while i < len(parts):
        j = next((j for j in range(len(parts), i + 1, -1)
                  if ", ".join(parts[i:j]).lower() in whole), i + 1)
        if part := ", ".join(parts[i:j]):
            out.append(part)
        i = j
    return out


def _split_picks(picks: Sequence[legal.Pick], text: str) -> list[legal.Pick] | str:
    """Several picks named in one answer: keys or names, separated by commas or spaces (names
    of several words need no quotes: the longest name that fits is taken). Returns the word
    that names nothing when one does not."""
    if "," in text:
        out = []
        for part in _comma_parts(picks, text):
            found = _find(picks, part)
            if found is None:
                sub = _split_picks(picks, part) if " " in part else part
                if isinstance(sub, str):
                    return sub
                out.extend(sub)
                continue
            out.append(found)
        return out
    words = text.split()
    out = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            found = _find(picks, " ".join(words[i:j])) if j - i > 1 else _find(picks, words[i])
            if found is not None:
                out.append(found)
                i = j
                break
        else:
            return words[i]
    return out
