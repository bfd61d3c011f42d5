"""The engine's actions as the `blood ...` commands that record them: an option
(engine/legal.py) or an action as its command line. Each action declares its command once
(engine/actions.py: ``command`` and a ``Cli`` on each field it takes); this reads it.

:func:`command` renders an option: known fields are filled in, the needs still to be answered
appear as placeholders (``CARD``, ``TARGET``). :func:`for_refs` renders the ``see`` references
of a refusal (``RuleError.see``) as commands for the hint line.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from blood_companion.engine.actions import Cli, action_class, cli_fields
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
    from the action's own declaration (engine/actions.py ``command``, ``Cli``): as stored by an
    earlier command (:func:`_stored`), else read from the action class and stored."""
    found = _stored().get(kind)
    if found is not None:
        try:
            words, positional, flags = found
            return words, tuple(positional), {
                n: Cli(**{**c, "choices": tuple(c.get("choices", ()))}) for n, c in flags.items()}
        except (TypeError, ValueError):  # not what we write: read the declaration
            pass
    made = _declared(kind)
    _store({kind: made})
    return made


def _group_kinds(group: str) -> list[str]:
    """The action types whose module is in the engine package ``group`` ("night", "day")."""
    from blood_companion.engine.actions import ACTION_HOMES

    return [kind for kind, home in ACTION_HOMES.items() if home.split(".")[0] == group]


def kind_of(group: str, word: str) -> str | None:
    """The action type `blood GROUP WORD` records, read from the stored command words of the
    group's actions without importing their modules (and building their classes); None when
    none records it so, or when one's words are not stored yet (:func:`remember`)."""
    stored, wanted = _stored(), f"blood {group} {word}"
    for kind in _group_kinds(group):
        found = stored.get(kind)
        if not isinstance(found, list) or not found:
            return None
        if found[0] == wanted:
            return kind
    return None


def remember(group: str) -> None:
    """Store the command words of the group's actions that are not stored yet (their modules
    are imported), so that :func:`kind_of` finds them next time."""
    missing = {kind: _declared(kind) for kind in _group_kinds(group) if kind not in _stored()}
    if missing:
        _store(missing)


def _declared(kind: str) -> Spec:
    cls = action_class(kind)
    words = (cls.command if cls is not None else "") or kind.replace("_", " ")
    fields = cli_fields(cls) if cls is not None else {}
    return (f"blood {words}", tuple(n for n, c in fields.items() if not c.flag),
            {n: c for n, c in fields.items() if c.flag})


# The specs read from the action classes are stored in the cache folder, so that a view's
# commands (`blood status`, `night next` after every recorded step) are written without
# importing the module of every action they name, and building its pydantic classes (issue
# 29). The file is keyed by the app's version and the size, modification and change times of
# every action module (the change time cannot be set back): a changed declaration is read
# anew. None: not read yet.
_specs: dict[str, Any] | None = None
_specs_key: list[int] = []  # the key the action modules give now (read with the file)


def _spec_file() -> Any:
    from pathlib import Path

    from blood_companion import __version__
    from blood_companion.dirs import user_cache_dir

    return Path(user_cache_dir()) / f"commands-{__version__}.json"


def _spec_key() -> list[int]:
    """The size, modification and change times of engine/actions.py and every action's
    module."""
    import os

    from blood_companion.engine import actions

    root = os.path.dirname(actions.__file__)
    out: list[int] = []
    for home in ("actions", *dict.fromkeys(actions.ACTION_HOMES.values())):
        path = os.path.join(root, *home.split(".")) + ".py"
        try:
            st = os.stat(path)
        except OSError:
            return []
        out += [st.st_size, st.st_mtime_ns, st.st_ctime_ns]
    return out


def _stored() -> dict[str, Any]:
    global _specs, _specs_key
    if _specs is None:
        import json
        import os

        _specs, _specs_key = {}, _spec_key()
        if not os.environ.get("BLOOD_NO_CACHE"):
            try:
                doc = json.loads(_spec_file().read_bytes())
                if isinstance(doc, dict) and doc.get("key") == _specs_key and isinstance(
                        doc.get("specs"), dict):
                    _specs = doc["specs"]
            except (OSError, ValueError):
                pass
    return _specs


def _store(made: Mapping[str, Spec]) -> None:
    """Keep the specs ``made`` (by action type) with those stored (a failure only costs speed
    next time)."""
    import json
    import os

    specs = _stored()
    key = _specs_key
    if os.environ.get("BLOOD_NO_CACHE") or not key:
        return
    for kind, (words, positional, flags) in made.items():
        specs[kind] = [words, list(positional), {n: c._asdict() for n, c in flags.items()}]
    from blood_companion.fileio import FileProblem, write_atomic

    path = _spec_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"key": key, "specs": specs}).encode())
    except (OSError, FileProblem, TypeError, ValueError):
        pass


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
