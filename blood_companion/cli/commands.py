"""The engine's actions as the `blood ...` commands that record them, read from each action's
declaration (engine/actions.py: ``command`` and a ``Cli`` on each field): an option
(engine/legal.py) with its needs as placeholders (``TARGET``), or a refusal's ``see``."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from blood_companion.engine.actions import Cli, cli_fields
from blood_companion.engine.flow import action_class
from blood_companion.engine.legal import Next, Option


def _q(value: Any) -> str:
    """A value as typed: a list comma-separated, a mapping as ``k=v,...`` (``--pay``)."""
    if isinstance(value, Mapping):
        value = [f"{k}={v}" for k, v in value.items()]
    text = ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
    return shlex.quote(text) if text and any(c.isspace() for c in text) else text


Spec = tuple[str, tuple[str, ...], dict[str, Cli]]


@cache
def spec(kind: str) -> Spec:
    """An action type's command words, positional fields and {field: how its flag is taken},
    from the action's own declaration (engine/actions.py ``command``, ``Cli``)."""
    cls = action_class(kind)
    words = (cls.command if cls is not None else "") or kind.replace("_", " ")
    fields = cli_fields(cls) if cls is not None else {}
    return (f"blood {words}", tuple(n for n, c in fields.items() if not c.flag),
            {n: c for n, c in fields.items() if c.flag})


# `see` references shown with an example rather than placeholders.
EXAMPLES = {"day_buy_building": "blood day buy alchemists-laboratory --give scrolls=2 --get jewels"}

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


def command(kind: str, fields: Mapping[str, Any] | None = None,
            needs: Iterable[str] = (), catalog: Any = None) -> str:
    """The `blood ...` command of an action type with these fields; needs show as
    placeholders (``TARGET``). With `catalog`, cards are named as printed."""
    if kind in VIEW_COMMANDS:
        return VIEW_COMMANDS[kind]
    words, positional, flags = spec(kind)
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
    for name, cli in flags.items():
        value, flag = fields.get(name), cli.flag
        if isinstance(value, dict):  # paid Resources and trophies: `--pay` goes last
            continue
        if cli.many and isinstance(value, list) and len(value) > 1:
            parts.extend(f"{flag} {_q(str(v))}" for v in value)
        elif value is True:
            parts.append(flag)
        elif value is False and cli.off:
            parts.append(cli.off)
        elif value not in (None, False, [], ""):
            parts.append(f"{flag} {_q(value)}")
        elif name in needs:
            parts.append(f"[{flag} {name.upper()}]")
    text = " ".join(parts)
    if fields.get("pay"):
        text += f" --pay {_q(fields['pay'])}"
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
