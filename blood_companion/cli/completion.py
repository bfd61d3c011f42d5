"""Shell completion of the values a command takes (typer's ``autocompletion=`` callbacks).

A callback takes ``(ctx: object, incomplete: str)`` (typer evaluates the annotations: built-ins
only) and never fails: what cannot be read gives no values. The folders are those of the line
being completed (``--saves-dir`` / ``--data-dir`` before the command), else the settings."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from blood_companion.cli.settings import Settings, current
from blood_companion.content.face import CARD_KINDS
from blood_companion.content.loader import load_catalog
from blood_companion.content.raw import KIND_NAMES
from blood_companion.fileio import SAVE_SUFFIX
from blood_companion.rules.entry import KINDS as RULES_KINDS
from blood_companion.rules.entry import NAMED
from blood_companion.rules.loader import load_index

# The named sides of two-sided cards (Vlad's Reaction cards, the Trouper Items).
_SIDES = ("enhanced", "weakened", "starting", "advanced")
MAX_VALUES = 200  # a shell shows no more usefully


def _settings(ctx: Any) -> Settings:
    root = ctx.find_root() if ctx is not None else None
    base = getattr(root, "obj", None)
    if not isinstance(base, Settings):
        base = current()
    params = getattr(root, "params", None) or {}
    saves, data = params.get("saves_dir"), params.get("data_dir")
    if not saves and not data:
        return base
    return Settings(saves or base.saves_path, data or base.data_path, base.campaign,
        "--saves-dir" if saves else base.saves_from)


def _matching(values: Iterable[str], incomplete: str) -> list[str]:
    """The values that begin with ``incomplete``, case forgiven; each begins with exactly what
    was typed (the shell replaces the word with it; typer keeps only those)."""
    typed = incomplete.casefold()
    out: list[str] = []
    for value in dict.fromkeys(values):
        if value.casefold().startswith(typed):
            out.append(incomplete + value[len(incomplete):])
            if len(out) >= MAX_VALUES:
                break
    return out


def _safe(fn: Callable[[], Iterable[str]], incomplete: str) -> list[str]:
    try:
        return _matching(fn(), incomplete)
    except Exception:  # noqa: BLE001 - a completion never fails: no values instead
        return []


def campaign_names(saves_dir: str) -> list[str]:
    """The campaigns of a saves folder: its ``*.blood.db`` file names (none when unreadable)."""
    try:
        entries = os.listdir(saves_dir)
    except (OSError, ValueError):
        return []
    return sorted(
        n.removesuffix(SAVE_SUFFIX)
        for n in entries
        if n.endswith(SAVE_SUFFIX) and not n.startswith(".") and len(n) > len(SAVE_SUFFIX)
    )


def pack_records(settings: Settings) -> dict[str, list[dict[str, Any]]]:
    """The validated records of the data pack (shipped plus overlay) as plain data, from the
    catalog (through its cache). Raises ContentError when the pack has problems."""
    catalog = load_catalog(settings.data_dir)
    return {k: [r.model_dump() for r in catalog.all(k)] for k in catalog.records}


def _ids(ctx: Any, kind: str) -> list[str]:
    return [str(r["id"]) for r in pack_records(_settings(ctx)).get(kind, []) if "id" in r]


def _card_names(ctx: Any) -> list[str]:
    records = pack_records(_settings(ctx))
    names: list[str] = []
    for kind in CARD_KINDS:
        for rec in records.get(kind, []):
            for side in (rec, *(rec.get(s) for s in _SIDES)):
                if isinstance(side, dict) and isinstance(side.get("name"), str):
                    names.append(side["name"])
    return sorted(set(names), key=str.casefold)


def _rules_ids(ctx: Any, kinds: tuple[str, ...]) -> list[str]:
    index = load_index(data_dir=_settings(ctx).data_path)
    return [e.id for e in index.entries if e.kind in kinds]


def _completer(values: Callable[[Any], Iterable[str]]) -> Callable[[object, str], list[str]]:
    """The callback completing a word with the ``values(ctx)`` that begin with it."""

    def complete(ctx: object, incomplete: str) -> list[str]:
        return _safe(lambda: values(ctx), incomplete)

    return complete


campaign = _completer(lambda ctx: campaign_names(_settings(ctx).saves_path))
trouper = _completer(lambda ctx: _ids(ctx, "troupers"))
nemesis = _completer(lambda ctx: _ids(ctx, "nemeses"))  # Vlad included
zone = _completer(lambda ctx: _ids(ctx, "zones"))
# the Arts (Advanced Tactic decks) of the data pack
art = _completer(lambda ctx: sorted({str(r["art"]) for r in pack_records(_settings(ctx)).get(
    "advanced_tactics", []) if isinstance(r.get("art"), str)}))
kind = _completer(lambda ctx: KIND_NAMES)  # `blood data show KIND`
card_kind = _completer(lambda ctx: CARD_KINDS)  # `blood data export-text KIND`, `transcribe`
rules_kind = _completer(lambda ctx: RULES_KINDS)  # `rules --kind`


def troupers(ctx: object, incomplete: str) -> list[str]:
    """A comma-separated list of Trouper ids (``--troupers aurel,pe`` -> ``aurel,petru``)."""
    done, comma, last = incomplete.rpartition(",")
    head = done + comma
    taken = {w.strip().casefold() for w in done.split(",")} if comma else set()

    def values() -> list[str]:
        return [head + t for t in [*_ids(ctx, "troupers"), "random"] if t.casefold() not in taken]

    return _safe(values, incomplete)


def _typed(ctx: Any, name: str) -> list[str]:
    """The words already given to the parameter ``name`` of the command being completed."""
    return [str(w) for w in (getattr(ctx, "params", None) or {}).get(name) or []]


@_completer
def record_id(ctx: Any) -> list[str]:
    """The ids of the records of the KIND typed before (`blood data show KIND ID`)."""
    chosen = str((getattr(ctx, "params", None) or {}).get("kind") or "")
    return _ids(ctx, chosen.strip().lower().replace("-", "_")) if chosen else []


@_completer
def card(ctx: Any) -> list[str]:
    """Card names (any card of the pack) and ids, word by word: after ``crimson`` the next
    word of the names that begin with it (`blood card show` joins its words)."""
    typed = [w.casefold() for w in _typed(ctx, "card")]
    if not typed:
        return [*_card_names(ctx), *(i for k in CARD_KINDS for i in _ids(ctx, k))]
    return [" ".join(words[len(typed):]) for words in map(str.split, _card_names(ctx))
            if len(words) > len(typed) and [w.casefold() for w in words[: len(typed)]] == typed]


@_completer
def rules_words(ctx: Any) -> list[str]:
    """`blood rules`: keyword, phase or list; then a keyword, a phase or a kind of entry."""
    typed = _typed(ctx, "words")
    if not typed:
        return [*NAMED, "list"]
    if len(typed) > 1:
        return []
    if typed[0] in NAMED:
        return _rules_ids(ctx, NAMED[typed[0]][0])
    return list(RULES_KINDS) if typed[0] == "list" else []
