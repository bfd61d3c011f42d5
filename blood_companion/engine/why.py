"""Why the app decided for the Nemesis side: the decision records of a step, and their words.

As the engine decides for the Enemy side it writes a ``decision`` event to the night log, so
the record lives in the state the step produces (a step of an older version has none). The
narration leaves them out (:func:`told`); `blood campaign log --why STEP` and `why` at a prompt
of `blood play` show them (:func:`lines`).

The records (the event's ``args``: ids and numbers, as every night log event):

* ``about: "target"`` — an Enemy Effect's Target chosen by its Target ("Reading the Elements of
  a Target": Nemesis Target Priority, then the Leader's Rule). ``job`` (words.job_ref, with
  the queue ``id``), ``effect`` (the Effect's index on the card), ``rep`` (its repetition),
  ``distance`` (absent: any), ``priorities`` (the card's, in its order), ``rule`` (absent: one
  Trouper by the priorities; ``all``: every Trouper in range), ``steps`` (each ``{"rule",
  "by", "kept", "values"}``: the candidates still in the running after a rule, who applied it
  — ``table`` or ``leader``; absent: the app — and the numbers the app compared), ``asks`` (the
  question it stopped for) and ``chosen`` (the targets, once decided; absent while a question
  waits). A Target decided over several steps (the table answers a Distance, then the app goes
  on) writes in each step the rules applied in it; :func:`decisions` joins them.
* ``about: "summon"`` — "Summon": ``src``, ``minion_type``, ``typed`` (a card of that type was
  left), ``pool`` (the cards it was drawn from), ``card``, ``flow`` (the summon spaces in Flow
  order), ``taken`` (those occupied), ``space`` (the first free one; absent when none),
  ``place`` (where the Miniature goes: words.summon_tile).
* ``about: "order"`` — the order the app resolves cards in: ``during: "nemesis"`` with ``cards``
  (``[card, Reaction Line space]``, rightmost first; written when two or more wait) or
  ``during: "minions"`` with ``spaces`` (``[space, minion]`` in the order A, B, then the Flow
  Arrow; written as the phase begins).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content.face import trouper_name
from blood_companion.content.render import PRIORITY_NAMES, render_effect
from blood_companion.engine.words.names import effect_of, job_label, record_name, summon_tile
from blood_companion.engine.words.text import listing

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.night_state import EnemyJob, NightLogEntry
    from blood_companion.engine.state import CampaignState

DECISION = "decision"

# The rulebook sections each kind of decision follows (their titles in the rulebook), and the
# entry of `blood rules` that explains it.
SECTIONS: dict[str, tuple[str, str]] = {
    "priority": ("Reading the Elements of a Target - Nemesis Target Priority",
                 "nemesis-target-priority"),
    "leader": ("Leader Rule", "leaders-rule"),
    "distance": ("Reading the Elements of a Target", "distance"),
    "effects": ("Resolving the Effects", "target"),
    "summon": ("Summon", "summon"),
    "nemesis": ("Nemesis Phase", "nemesis-phase"),
    "minions": ("Minions Phase", "minions-phase"),
}

# What each kept value of a Target Priority the app compares counts.
MEASURES = {
    "fewest_bites": "Bites", "most_bites": "Bites", "fewest_wounds": "Wounds",
    "most_wounds": "Wounds", "fewest_cards_in_hand": "cards in hand",
    "most_cards_in_hand": "cards in hand", "exhausted": "Exhausted",
    "not_exhausted": "Exhausted", "lowest_insanity": "Insanity", "highest_insanity": "Insanity"}


# --------------------------------------------------------------------------- recording

# A Target decision's first step: every Trouper, or the candidates an older version left.
STARTS = ("everyone", "from")


def target_record(job: Mapping[str, Any], effect: int, rep: int, distance: str,
                  priorities: list[str], rule: str, steps: list[dict[str, Any]], *,
                  asks: str = "", chosen: list[str] | None = None) -> dict[str, Any]:
    """The ``args`` of a Target decision's record (the module docstring), defaults left out."""
    out: dict[str, Any] = {
        "about": "target", "job": dict(job), "effect": effect, "rep": rep, "distance": distance,
        "priorities": list(priorities), "rule": rule, "steps": steps, "asks": asks,
        "chosen": chosen}
    return {k: v for k, v in out.items() if k not in _DEFAULTS or v != _DEFAULTS[k]}


_DEFAULTS: dict[str, Any] = {"rep": 0, "distance": "any", "priorities": [], "rule": "priority",
                             "asks": "", "chosen": None}


def target_key(job: EnemyJob, effect: int) -> tuple[Any, ...]:
    """What names one Target decision: the queued job, its Effect and repetition."""
    return (job.id, job.card, job.space, job.miniature, effect, job.rep)


def _key_of(args: Mapping[str, Any]) -> tuple[Any, ...]:
    ref = args.get("job") or {}
    return (ref.get("id"), ref.get("card"), ref.get("space"), ref.get("miniature", 0),
            args.get("effect"), args.get("rep", 0))


def _is_target(entry: NightLogEntry | Mapping[str, Any]) -> bool:
    return _kind(entry) == DECISION and _args(entry).get("about") == "target"


def open_decision(log: Sequence[NightLogEntry], key: tuple[Any, ...]
                  ) -> Mapping[str, Any] | None:
    """The last record of the Target decision ``key`` while it waits for the table."""
    for entry in reversed(log):
        if _is_target(entry) and _key_of(entry.args) == key:
            return None if "chosen" in entry.args else entry.args
    return None


def step(rule: str, by: str, kept: Iterable[str], values: Mapping[str, Any] | None = None
         ) -> dict[str, Any]:
    """One rule of a Target decision: the Trouper ids it kept, the values the app compared."""
    out: dict[str, Any] = {"rule": rule, "kept": list(kept)}
    if by != "app":
        out["by"] = by
    if values:
        out["values"] = dict(values)
    return out


# --------------------------------------------------------------------------- reading


def told(entries: Iterable[NightLogEntry]) -> list[NightLogEntry]:
    """The night log events the table is told as they happen (the decisions answer `why`)."""
    return [e for e in entries if e.kind != DECISION]


def _kind(entry: NightLogEntry | Mapping[str, Any]) -> str:
    return str(entry.get("kind", "")) if isinstance(entry, Mapping) else entry.kind


def _args(entry: NightLogEntry | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(entry, Mapping):
        args = entry.get("args") or {}
        return args if isinstance(args, Mapping) else {}
    return entry.args


def _earlier_steps(earlier: Sequence[NightLogEntry | Mapping[str, Any]],
                   key: tuple[Any, ...]) -> list[dict[str, Any]]:
    """What earlier steps recorded of the Target decision ``key`` still waiting after them."""
    out: list[dict[str, Any]] = []
    for entry in reversed(earlier):
        if not _is_target(entry) or _key_of(_args(entry)) != key:
            continue
        args = _args(entry)
        if "chosen" in args:
            break
        steps = [dict(x) for x in args.get("steps") or []]
        out = steps + out
        if steps and steps[0].get("rule") in STARTS:
            break
    return out


def decisions(entries: Iterable[NightLogEntry | Mapping[str, Any]],
              earlier: Sequence[NightLogEntry | Mapping[str, Any]] = ()
              ) -> list[dict[str, Any]]:
    """The decisions among a step's night log events, in the order made, the records of one
    Target decision joined with those ``earlier`` steps made of it."""
    out: list[dict[str, Any]] = []
    joined: dict[tuple[Any, ...], dict[str, Any]] = {}
    for e in entries:
        if _kind(e) != DECISION:
            continue
        d = dict(_args(e))
        if d.get("about") != "target":
            out.append(d)
            continue
        key = _key_of(d)
        steps = [dict(x) for x in d.get("steps") or []]
        was = joined.get(key)
        if was is not None and "chosen" not in was:
            d["steps"] = [*was["steps"], *steps]
            was.clear()
            was.update(d)
            continue
        if not steps or steps[0].get("rule") not in STARTS:
            steps = _earlier_steps(earlier, key) + steps
        d["steps"] = steps
        joined[key] = d
        out.append(d)
    return out


def step_decisions(before: CampaignState | None, after: CampaignState) -> list[dict[str, Any]]:
    """The decisions a step took, from the states before and after it."""
    if after.night is None:
        return []
    log = after.night.log
    start = 0
    if before is not None and before.night is not None:
        old = before.night.log
        if len(old) <= len(log) and (not old or log[len(old) - 1] == old[-1]):
            start = len(old)
    return decisions(log[start:], log[:start])


def _who(catalog: Catalog, tids: Iterable[Any]) -> str:
    names = [trouper_name(catalog, t) for t in tids]
    return listing(names) if names else "nobody"


def _card_lines(catalog: Catalog, d: Mapping[str, Any]) -> list[str]:
    """The card that decided, its name and the text of its Effect."""
    ref = d.get("job") or {}
    label = job_label(catalog, ref)
    k = d.get("effect")
    eff = effect_of(catalog, ref, k if isinstance(k, int) else -1)
    if eff is None:
        return [f"{label}: (an Effect no longer in the data pack)"]
    rep = d.get("rep") or 0
    again = f", repetition {rep + 1}" if rep else ""
    return [f"{label} (Effect {int(k or 0) + 1}{again}): {render_effect(eff)}"]


def _priority_words(p: str) -> str:
    return PRIORITY_NAMES.get(p, p.replace("_", " "))


def _values(catalog: Catalog, rule: str, values: Mapping[str, Any]) -> str:
    what = MEASURES.get(rule, "")
    if rule in ("exhausted", "not_exhausted"):
        return "; ".join(f"{trouper_name(catalog, t)}: {'Exhausted' if v else 'not Exhausted'}"
                         for t, v in values.items())
    return "; ".join(f"{trouper_name(catalog, t)}: {v} {what}" for t, v in values.items())


def _step_line(catalog: Catalog, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    rule, by, kept = str(s.get("rule", "")), s.get("by"), s.get("kept") or []
    keeps = f"kept {_who(catalog, kept)}" if kept else "kept nobody"
    if rule == "everyone":
        return f"Candidates: every Trouper ({_who(catalog, kept)})"
    if rule == "from":
        return (f"Candidates still in the running: {_who(catalog, kept)} (the steps before "
                "were recorded by an older version, which kept no decision)")
    if rule == "in_range":
        dist = d.get("distance", "any")
        where = "in the Special Area" if dist == "area" else f"at Distance {dist}"
        return f"Distance - the table said who is {where}: {keeps}"
    if rule == "leader":
        return (f"Leader's Rule - still tied, the Leader (holding the Leader token) chose "
                f"{_who(catalog, kept)}")
    prios = [str(p) for p in d.get("priorities") or []]
    at = f"Priority {prios.index(rule) + 1}, " if rule in prios else ""
    name = _priority_words(rule)
    if by == "table":
        return f"{at}{name} - the table said (the Map shows it): {keeps}"
    values = s.get("values") or {}
    shown = f" ({_values(catalog, rule, values)})" if values else ""
    return f"{at}{name}{shown}: {keeps}"


def _target_lines(catalog: Catalog, d: Mapping[str, Any]) -> list[str]:
    out = _card_lines(catalog, d)
    prios = [str(p) for p in d.get("priorities") or []]
    sections = ["priority"]
    if d.get("rule") == "all":
        out.append("  Target: every Trouper in range (no priority settles it)")
    elif prios:
        out.append("  Target Priorities, in the card's order (left to right): "
                   + ", ".join(f"{k + 1}. {_priority_words(p)}" for k, p in enumerate(prios)))
    else:
        out.append("  Target Priorities: none on this card (the Leader's Rule settles a tie)")
    for s in d.get("steps") or []:
        out.append("  " + _step_line(catalog, d, s))
        if s.get("rule") == "leader":
            sections.append("leader")
        if s.get("rule") == "in_range":
            sections.insert(0, "distance")
    asks = d.get("asks")
    if asks == "leader":
        sections.append("leader")
    applied = [s.get("rule") for s in d.get("steps") or [] if s.get("rule") in prios]
    steps = d.get("steps") or []
    older = bool(steps) and steps[0].get("rule") == "from"  # an older version applied some
    rest = prios[len(applied):] if d.get("rule") != "all" and not older else []
    if "chosen" in d and rest and len(d.get("chosen") or []) == 1:
        out.append("  Not needed, one Trouper being left: " + ", ".join(
            f"{k + 1 + len(applied)}. {_priority_words(p)}" for k, p in enumerate(rest)))
    if "chosen" in d:
        chosen = d.get("chosen") or []
        if chosen:
            out.append(f"  Target: {_who(catalog, chosen)}")
        else:
            out.append("  No valid target: the Effect is ignored")
            sections.append("effects")
    elif asks:
        out.append("  " + {
            "in_range": "Waiting: the table says who is in range (only the Map shows it)",
            "closest": "Waiting: the table says who is closest (only the Map shows it)",
            "farthest": "Waiting: the table says who is farthest (only the Map shows it)",
            "leader": "Waiting: still tied after every Target Priority - the Leader's Rule: "
                      "the Leader picks one"}.get(str(asks), f"Waiting: {asks}"))
    return out + [_sections_line(sections)]


def _sections_line(kinds: Iterable[str]) -> str:
    seen = list(dict.fromkeys(kinds))
    return "  Rulebook: " + "; ".join(
        f'"{SECTIONS[k][0]}" (blood rules {SECTIONS[k][1]})' for k in seen if k in SECTIONS)


def _summon_lines(catalog: Catalog, d: Mapping[str, Any]) -> list[str]:
    src = record_name(catalog, d.get("src", ""))
    kind = str(d.get("minion_type") or "")
    out = [f"Summon by {src}" + (f" (a {kind.capitalize()})" if kind else "")]
    pool = [record_name(catalog, c) for c in d.get("pool") or []]
    if not d.get("flow") or ("space" not in d and not d.get("no_card")):
        out.append("  No Minion space was free: the Summon is ignored")
        return out + [_sections_line(["summon"])]
    if kind and not d.get("typed"):
        out.append(f"  No {kind.capitalize()} card is left out of play: any Minion card instead")
    if d.get("no_card"):
        out.append("  No Minion card is left out of play: the Summon is ignored")
        return out + [_sections_line(["summon"])]
    which = f"{kind.capitalize()} " if kind and d.get("typed") else ""
    out.append(f"  Card: drawn at random among the {which}Minion cards not in play "
               f"({listing(pool) or 'none'}): {record_name(catalog, d.get('card', ''))}")
    taken = [str(s) for s in d.get("taken") or []]
    flow = [str(s) for s in d.get("flow") or []]
    out.append(f"  Space: the first free Minion space in the Flow Arrow's order "
               f"({', '.join(flow)}; taken: {', '.join(taken) or 'none'}): {d.get('space')}")
    out.append(f"  Miniature: on {summon_tile(catalog, d.get('place'))}")
    return out + [_sections_line(["summon"])]


def _order_lines(catalog: Catalog, d: Mapping[str, Any]) -> list[str]:
    if d.get("during") == "minions":
        row = ", ".join(f"{sp} {record_name(catalog, mi)}"
                        for sp, mi in d.get("spaces") or [])
        return ["Minions Phase order: Minion space A, then B, then the other spaces in the "
                f"Flow Arrow's order: {row} (the Miniatures of one space in the order the "
                "players choose)", _sections_line(["minions"])]
    cards = d.get("cards") or []
    row = ", ".join(f"{record_name(catalog, c)} (space {int(k) + 1})" for c, k in cards)
    return ["Nemesis Phase order: the Reaction cards without a Resolved token, rightmost "
            f"first: {row}", _sections_line(["nemesis"])]


def lines(found: Iterable[Mapping[str, Any]], catalog: Catalog) -> list[str]:
    """The decision records in words, each with the rulebook sections it follows."""
    out: list[str] = []
    for d in found:
        about = d.get("about")
        if about == "target":
            out += _target_lines(catalog, d)
        elif about == "summon":
            out += _summon_lines(catalog, d)
        elif about == "order":
            out += _order_lines(catalog, d)
        else:
            out.append(f"(a decision of a kind this version does not know: {about})")
    return out


NONE_RECORDED = "No decision of the Nemesis side was recorded for this step."
