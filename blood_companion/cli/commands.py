"""The CLI's names for the engine's actions: an option (engine/legal.py) or an action as the
`blood ...` command that records it. The engine never names a command; this is the one place
that does.

:func:`command` renders an option: known fields are filled in, the needs still to be answered
appear as placeholders (``CARD``, ``TARGET``). :func:`for_refs` renders the ``see`` references
of a refusal (``RuleError.see``) as commands for the hint line.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any

from blood_companion.engine.legal import Next, Option


def _q(value: Any) -> str:
    text = ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
    return shlex.quote(text) if text and any(c.isspace() for c in text) else text


def _pay(pay: Any) -> str:
    if not pay:
        return ""
    return " --pay " + ",".join(f"{k}={v}" for k, v in dict(pay).items())


# action type -> (command words, positional fields, {field: option flag})
COMMANDS: dict[str, tuple[str, tuple[str, ...], dict[str, str]]] = {
    "night_begin": ("blood night continue", (), {}),
    "night_continue": ("blood night continue", (), {}),
    "night_play": ("blood night play", ("trouper", "card"), {}),
    "night_rest": ("blood night rest", ("trouper", "card"), {}),
    "night_pass": ("blood night pass", ("trouper",), {}),
    "night_attack": ("blood night attack", ("effect", "target"),
                     {"side": "--side", "trait": "--trait", "dice": "--dice",
                      "reroll": "--reroll", "items": "--items", "discard": "--discard",
                      "also": "--also", "weakness": "--weakness", "confirm": "--confirm",
                      "token_flip": "--flip"}),
    "night_effect": ("blood night effect", ("effect",),
                     {"recipient": "--for", "trait": "--trait", "dice": "--dice",
                      "reroll": "--reroll", "items": "--items", "heal": "--heal",
                      "discard": "--discard", "confirm": "--confirm", "token_flip": "--flip"}),
    "night_support": ("blood night support", ("slot",),
                      {"effect": "--effect", "target": "--target", "side": "--side",
                       "trait": "--trait", "dice": "--dice", "reroll": "--reroll",
                       "items": "--items", "heal": "--heal", "weakness": "--weakness",
                       "confirm": "--confirm", "token_flip": "--flip"}),
    "night_item": ("blood night item", ("trouper", "item"),
                   {"recipient": "--for", "target": "--target", "side": "--side",
                    "trait": "--trait", "dice": "--dice", "reroll": "--reroll",
                    "items": "--items", "heal": "--heal", "discard": "--discard",
                    "weakness": "--weakness", "confirm": "--confirm", "token_flip": "--flip"}),
    "night_quick": ("blood night quick", ("slot",),
                    {"effect": "--effect", "recipient": "--for", "target": "--target",
                     "side": "--side", "trait": "--trait", "dice": "--dice",
                     "reroll": "--reroll", "items": "--items", "heal": "--heal",
                     "discard": "--discard", "weakness": "--weakness", "confirm": "--confirm",
                     "token_flip": "--flip"}),
    "night_event": ("blood night event", ("event",),
                    {"effect": "--effect", "target": "--target", "trait": "--trait",
                     "dice": "--dice", "reroll": "--reroll", "items": "--items",
                     "discard": "--discard", "confirm": "--confirm", "token_flip": "--flip"}),
    "night_redraw": ("blood night redraw", (), {"discard": "--discard"}),
    "night_done": ("blood night done", (), {}),
    "night_answer": ("blood night answer", ("troupers",), {}),
    "night_roll": ("blood night roll", (), {"trait": "--trait", "dice": "--dice",
                                            "reroll": "--reroll", "items": "--items"}),
    "night_setup": ("blood night setup", (), {}),
    "day_recover": ("blood day recover", (), {}),
    "day_buy_building": ("blood day buy", ("building", "trouper"),
                         {"trade_from": "--give", "trade_to": "--get"}),
    "day_buy_advanced": ("blood day buy-tactic", ("trouper",), {"art": "--art"}),
    "day_buy_card": ("blood day buy-card", ("trouper", "card"), {}),
    "day_upgrade_item": ("blood day upgrade", ("trouper", "item"), {}),
    "day_swap_tactic": ("blood day swap-tactic", ("trouper", "out", "into"), {}),
    "day_swap_item": ("blood day swap-item", ("trouper", "out", "into"), {}),
    "day_zone": ("blood day zone", ("zone",), {}),
    "day_roll_location": ("blood day location --roll", (), {"faces": "--dice"}),
    "day_choose_location": ("blood day location", ("location",), {}),
    "day_draw_minions": ("blood day minions", (), {"minions": "--drawn"}),
    "day_choose_minions": ("blood day minions", ("minions",), {}),
    "day_draw_nemesis": ("blood day nemesis", (), {"nemesis": "--drawn"}),
    "day_choose_nemesis": ("blood day nemesis", ("nemesis",), {}),
    "day_difficulty": ("blood day difficulty", ("level",), {}),
    "day_place_events": ("blood day events", ("events",), {}),
    "day_equip": ("blood day equip", ("trouper", "items"), {}),
    "day_end": ("blood day end", (), {}),
    "end_night": ("blood end night", (), {}),
    "weaken_vlad": ("blood end weaken", ("cards",), {}),
    "take_advanced_tactic": ("blood end take", ("art", "trouper"), {}),
    "roll_loot": ("blood end loot", (), {"resource": "--resource", "faces": "--dice"}),
    "finish_game": ("blood end finish", (), {"forfeit": "--forfeit"}),
}

# List fields given once per entry (each throw of a Test has its own --dice).
REPEATED = {"dice", "reroll"}

# `see` references shown with an example rather than placeholders.
EXAMPLES = {
    "day_buy_building": "blood day buy alchemists-laboratory --give scrolls=2 --get jewels",
}

# `see` references that are views, not actions.
VIEW_COMMANDS = {
    "night_next": "blood night next",
    "day_next": "blood day next",
    "end_next": "blood end next",
    "status": "blood status",
}


# Fields holding card (or Zone) ids: with a catalog, commands name them as printed (every
# command takes names too), so what players read carries no ids.
NAME_FIELDS = frozenset({"card", "cards", "item", "items", "out", "into", "zone", "location",
                         "minions", "nemesis", "events"})


def _named(catalog: Any, value: Any) -> Any:
    if isinstance(value, list):
        return [_named(catalog, v) for v in value]
    if not isinstance(value, str) or not value:
        return value
    raw = value.rstrip("+")
    item = catalog.item(raw)
    if item is not None:
        text = str(item.starting.name)
    else:
        rec = catalog.find(raw)
        enhanced = getattr(rec, "enhanced", None)
        text = str(enhanced.name if enhanced is not None else getattr(rec, "name", value))
    return value if "," in text else text


# a yes/no field whose "no" is a flag of its own
NEGATED = {"weakness": "--no-weakness"}


def command(kind: str, fields: Mapping[str, Any] | None = None,
            needs: Iterable[str] = (), catalog: Any = None) -> str:
    """The `blood ...` command of an action type with these fields; needs show as
    placeholders (``TARGET``). With `catalog`, cards are named as printed."""
    if kind in VIEW_COMMANDS:
        return VIEW_COMMANDS[kind]
    words, positional, flags = COMMANDS.get(kind, (f"blood {kind.replace('_', ' ')}", (), {}))
    fields = dict(fields or {})
    if catalog is not None:
        fields = {k: _named(catalog, v) if k in NAME_FIELDS else v for k, v in fields.items()}
    needs = tuple(needs)
    parts = [words]
    for name in positional:
        if name in fields and fields[name] not in (None, [], ""):
            parts.append(_q(fields[name]))
        elif name in needs:
            parts.append(name.upper())
        elif kind == "night_answer" and fields.get("yes") is not None:
            parts.append("yes" if fields["yes"] else "no")
        elif kind == "night_answer" and fields.get("cards"):
            parts.append(",".join(_q(c) for c in fields["cards"]))
        elif kind == "night_answer" and name == "troupers" and name in fields:
            parts.append("none")
    if kind == "day_buy_building" and fields.get("amount"):
        flag_from = fields.get("trade_from")
        fields = {**fields, "trade_from": f"{flag_from}={fields['amount']}" if flag_from else None}
    for name, flag in flags.items():
        value = fields.get(name)
        if name in REPEATED and isinstance(value, list) and len(value) > 1:
            parts.extend(f"{flag} {_q(str(v))}" for v in value)
        elif value is True:
            parts.append(flag)
        elif value is False and name in NEGATED:
            parts.append(NEGATED[name])
        elif value not in (None, False, [], ""):
            parts.append(f"{flag} {_q(value)}")
        elif name in needs:
            parts.append(f"[{flag} {name.upper()}]")
    text = " ".join(parts)
    if "pay" in fields:
        text += _pay(fields["pay"])
    return text


def for_option(option: Option, catalog: Any = None) -> str:
    return command(option.kind, option.fields, option.needs, catalog)


def for_next(nxt: Next, catalog: Any = None) -> list[str]:
    """The commands of a view's enabled options, without repeats, in order (cards named as
    printed when a catalog is given)."""
    out: list[str] = []
    for o in nxt.options:
        if not o.enabled:
            continue
        text = for_option(o, catalog)
        if text not in out:
            out.append(text)
    return out


def for_refs(refs: Iterable[str]) -> str:
    """A refusal's `see` references as commands ("`blood night next`")."""
    return " or ".join(f"`{EXAMPLES.get(r) or command(r)}`" for r in refs)
