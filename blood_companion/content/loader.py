"""Load the YAML data pack into validated pydantic models.

* Safe YAML only (the C loader when available): a tag that tries to build a Python object is an
  error, never executed.
* Every problem is reported with file, line, field and message (:class:`ContentError`).
* Layers: the shipped pack first, then ``--data-dir`` / ``BLOOD_DATA_DIR``; a record with the
  same id replaces the shipped one, a new id adds a record.
* A validated catalog is cached (marshal data in the platform's cache folder, see the cache
  section below), keyed by the path, size and modification time of every data file, so a
  change to any file invalidates it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from copy import deepcopy as copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, ValidationError

from blood_companion.content import models as m
from blood_companion.content import raw as rawpack
from blood_companion.content.errors import ContentError, Problem
from blood_companion.content.paths import user_data_dir as user_data_dir
from blood_companion.content.raw import _display, _fingerprint, kind_files
from blood_companion.content.raw import effective_overlay as effective_overlay
from blood_companion.content.raw import shipped_data_dir as shipped_data_dir
from blood_companion.display import excerpt
from blood_companion.fileio import (
    FileProblem,
    check_path,
    folder_problem,
    read_regular,
    remove_stale_tmp,
    shown_path,
    write_atomic,
)

if TYPE_CHECKING:
    import yaml

# YAML is read only when a file is validated (the cache of a validated pack needs none of it):
# the functions below import it when they run.

# A data file larger than this is refused before it is parsed (the largest shipped file is
# under 20 KB; a whole box of cards in one file fits many times over).
MAX_DATA_FILE = 2 << 20


class Kind(NamedTuple):
    name: str
    model_name: str  # its record's model in content/models.py (created when first read)
    count_key: str | None = None  # key in `blood data validate --json` counts

    @property
    def model(self) -> type[m.Record]:
        found: type[m.Record] = getattr(m, self.model_name)
        return found


# One entry per kind: data/<name>.yaml and/or data/<name>/*.yaml (in the order of raw.KIND_NAMES).
KINDS: dict[str, Kind] = {
    k.name: k
    for k in [
        Kind("components", "Components"), Kind("rules_config", "RulesConfig"),
        Kind("dice", "Die", "dice"), Kind("night_board", "NightBoard", "night_board"),
        Kind("insanity", "InsanityTrack", "insanity_tracks"), Kind("village", "Village", "village"),
        Kind("difficulty", "DifficultyLevel", "difficulty_levels"), Kind("zones", "Zone", "zones"),
        Kind("locations", "Location", "locations"), Kind("events", "Event", "events"),
        Kind("minions", "Minion", "minions"), Kind("nemeses", "Nemesis", "nemeses"),
        Kind("reactions", "ReactionCard", "reaction_cards"),
        Kind("vlad_reactions", "VladReactionCard", "vlad_reaction_cards"),
        Kind("weaknesses", "WeaknessCard", "weakness_cards"),
        Kind("troupers", "Trouper", "troupers"),
        Kind("starting_tactics", "TacticCard", "starting_tactic_cards"),
        Kind("trouper_items", "ItemCard", "trouper_items"),
        Kind("advanced_tactics", "TacticCard", "advanced_tactic_cards"),
        Kind("special_tactics", "TacticCard", "location_nemesis_tactic_cards"),
        Kind("special_items", "ItemCard", "location_nemesis_item_cards"),
    ]
}

assert tuple(KINDS) == rawpack.KIND_NAMES, "content/raw.py names the kinds in the same order"

# Friendly names accepted by `blood data show`.
KIND_ALIASES = {
    "die": "dice", "nemesis": "nemeses", "reaction": "reactions", "reaction_cards": "reactions",
    "vlad": "vlad_reactions", "vlad_reaction_cards": "vlad_reactions", "weakness": "weaknesses",
    "weakness_cards": "weaknesses", "minion": "minions", "zone": "zones", "location": "locations",
    "event": "events", "trouper": "troupers", "tactics": "starting_tactics",
    "starting_tactic_cards": "starting_tactics", "items": "trouper_items",
    "advanced": "advanced_tactics", "advanced_tactic_cards": "advanced_tactics",
    "board": "night_board", "buildings": "village", "bran": "village", "config": "rules_config",
    "levels": "difficulty", "difficulty_levels": "difficulty",
}


def resolve_kind(name: str) -> str:
    key = name.strip().lower().replace("-", "_")
    key = KIND_ALIASES.get(key, key)
    if key not in KINDS:
        from blood_companion.errors import UsageError

        raise UsageError(f"unknown kind {name!r}", hint="kinds: " + ", ".join(KINDS))
    return key


# --------------------------------------------------------------------------- YAML reading


class ParsedFile(NamedTuple):
    """One data file: its records (file-level defaults already applied) and the YAML node of
    the record list (for line numbers)."""

    path: Path
    data: list[Any]
    node: yaml.Node
    defaults: dict[str, Any]
    defaults_node: yaml.Node | None = None


def _duplicate_keys(node: yaml.Node, path: Path, problems: list[Problem]) -> None:
    import yaml

    from blood_companion import yamlio

    for n in yamlio.nodes(node):  # each node once: aliases are not walked again
        if not isinstance(n, yaml.MappingNode):
            continue
        seen: dict[str, int] = {}
        for key, _ in n.value:
            if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                if key.value in seen:
                    problems.append(
                        Problem(
                            _display(path), key.start_mark.line + 1, key.value[:40],
                            f"duplicate key {excerpt(key.value, 40)} (first on line "
                            f"{seen[key.value]})",
                        )
                    )
                else:
                    seen[key.value] = key.start_mark.line + 1


def read_yaml_file(path: Path, problems: list[Problem]) -> ParsedFile | None:
    """Parse one data file safely; append problems instead of raising.

    Only a regular file of at most :data:`MAX_DATA_FILE` bytes is read (a FIFO, a device or a
    dangling symlink is a problem, not a hang), and the YAML is parsed within bounds
    (:mod:`blood_companion.yamlio`: no alias bombs, no runaway nesting)."""
    import yaml

    from blood_companion import yamlio
    from blood_companion.yamlio import SafeLoader

    def refuse(line: int | None, message: str) -> ParsedFile | None:
        return _refuse(problems, path, line, None, message)

    try:
        raw = read_regular(path, limit=MAX_DATA_FILE)
    except FileProblem as exc:
        return refuse(None, f"the file {exc.reason}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return refuse(line, f"the file is not UTF-8 text (byte {exc.start})")
    if all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return refuse(None, "the file is empty: expected a list of records")
    loader = SafeLoader(text)
    try:
        node = yamlio.compose(loader)
        if node is None:
            return refuse(None, "the file is empty: expected a list")
        dup: list[Problem] = []
        _duplicate_keys(node, path, dup)
        if dup:
            problems.extend(dup)
            return None
        data = yamlio.construct(loader, node)
    except yamlio.YamlProblem as exc:
        return refuse(exc.line, exc.message)
    finally:
        loader.dispose()
    if (
        isinstance(data, dict)
        and isinstance(node, yaml.MappingNode)
        and ("defaults" in data or "records" in data)
    ):
        return _with_defaults(path, data, node, problems)
    if not isinstance(data, list):
        return refuse(node.start_mark.line + 1, "expected a list of records (lines starting "
                      f"with '- '), found {_kind_of(data)}")
    return ParsedFile(path, data, node, {})


def _with_defaults(
    path: Path, data: dict[str, Any], node: yaml.MappingNode, problems: list[Problem]
) -> ParsedFile | None:
    """The file form ``defaults: {...}`` + ``records: [...]``: every record takes the default
    fields it does not set itself (a shallow merge: a record's own value wins whole)."""
    import yaml

    nodes = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    unknown = [k for k in data if k not in ("defaults", "records")]
    if unknown or "records" not in data:
        what = f"unknown top-level key {unknown[0]!r}" if unknown else "no 'records:' list"
        line = (nodes[unknown[0]].start_mark.line if unknown else node.start_mark.line) + 1
        return _refuse(problems, path, line, None, f"{what}: a data file is a list of records, "
                       "or a mapping with 'defaults:' (fields every record shares) and "
                       "'records:' (the list)")
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        return _refuse(problems, path, nodes["defaults"].start_mark.line + 1, "defaults",
                       f"expected a mapping of fields, found {_kind_of(defaults)}")
    records = data["records"]
    if not isinstance(records, list):
        return _refuse(problems, path, nodes["records"].start_mark.line + 1, "records",
                       "expected a list of records (lines starting with '- '), found "
                       f"{_kind_of(records)}")
    merged = [{**defaults, **r} if isinstance(r, dict) else r for r in records]
    return ParsedFile(path, merged, nodes["records"], defaults, nodes.get("defaults"))


def _refuse(problems: list[Problem], path: Path, line: int | None, field: str | None,
            message: str) -> ParsedFile | None:
    """Add the problem that refuses a data file; its reader then returns None."""
    problems.append(Problem(_display(path), line, field, message))
    return None


def _kind_of(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    # The value itself is never quoted: a file of the wrong shape may be anything (an overlay
    # file symlinked to /etc/passwd reads as one line of text), and its words are not ours.
    if isinstance(value, str):
        return f"one text value of {len(value):,} characters"
    return f"one {type(value).__name__} value"


def line_of(node: yaml.Node, loc: Sequence[int | str]) -> int:
    """The line of the deepest YAML node that `loc` (a pydantic error path) reaches."""
    import yaml

    current = node
    for part in loc:
        if isinstance(current, yaml.SequenceNode) and isinstance(part, int):
            if 0 <= part < len(current.value):
                current = current.value[part]
                continue
            break
        if isinstance(current, yaml.MappingNode):
            found = None
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                    found = value
                    break
            if found is None:
                break
            current = found
            continue
        break
    return current.start_mark.line + 1


def _field_path(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _describe(err: Any) -> str:
    kind = err.get("type", "")
    msg = str(err.get("msg", "invalid value"))
    got = err.get("input")
    if kind == "missing":
        return "missing required field"
    if kind == "extra_forbidden":
        return "unknown field (not part of this kind; check the spelling)"
    if kind.startswith("value_error"):
        return msg.removeprefix("Value error, ")
    return f"{excerpt(msg, 120)}; found {excerpt(got)}"


# --------------------------------------------------------------------------- catalog


class Origin(NamedTuple):
    """Where a record was read: its file and its place in the file's list."""

    file: Path
    index: int  # type: ignore[assignment]  # a field, shadowing tuple.index


@dataclass
class Catalog:
    """The validated data pack: records per kind, in file order, and lookups by id."""

    records: Mapping[str, list[Any]]
    origins: Mapping[tuple[str, str], Origin] = field(default_factory=dict)
    layers: list[Path] = field(default_factory=list)
    # Files of an overlay that belong to no kind (not loaded): said on every load
    warnings: list[Problem] = field(default_factory=list, compare=False)
    _by_id: dict[str, dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _prints: dict[str, str] | None = None

    # fingerprints (saves record which data a step was played with) -------
    def record_prints(self) -> dict[str, str]:
        """A short content hash of every record ("kind/id" -> hash): two packs differ exactly
        where these differ. Computed once per catalog (and cached with it)."""
        if self._prints is None:
            import hashlib
            import json

            prints = {}
            for kind, recs in self.records.items():
                for r in recs:
                    text = json.dumps(r.model_dump(mode="json"), sort_keys=True, default=str)
                    prints[f"{kind}/{r.id}"] = hashlib.sha256(text.encode()).hexdigest()[:16]
            self._prints = dict(sorted(prints.items()))
        return self._prints

    def fingerprint(self) -> str:
        """The data pack's fingerprint: equal packs (shipped plus overlays), equal prints."""
        import json

        text = json.dumps(self.record_prints(), separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def _values(self, kind: str, field: str) -> list[Any]:
        """Each record's ``field`` (a dict for a nested model), in file order: read from the
        cache's rows when the kind's records are not built yet."""
        if isinstance(self.records, LazyRecords):
            rows = self.records.unbuilt_rows(kind)
            if rows is not None:
                return [row[field] for row in rows]
        return [getattr(r, field) for r in self.all(kind)]

    # generic -------------------------------------------------------------
    def all(self, kind: str) -> list[Any]:
        return self.records.get(kind, [])

    def get(self, kind: str, id: str) -> Any | None:
        if isinstance(self.records, LazyRecords):  # only the record asked for is built
            return self.records.one(kind, id)
        found = self._by_id.get(kind)
        if found is None:
            found = self._by_id[kind] = {r.id: r for r in self.records.get(kind, [])}
        return found.get(id)

    def _where(self, kind: str, field: str, value: Any) -> list[Any]:
        """The records of ``kind`` whose ``field`` is ``value``, in file order."""
        if isinstance(self.records, LazyRecords):
            return self.records.where(kind, field, value)
        return [r for r in self.all(kind) if getattr(r, field) == value]

    def find(self, id: str, kinds: Iterable[str] | None = None) -> Any | None:
        """The record with this id among ``kinds`` (default: every kind; ids are unique across
        kinds)."""
        found = (self.get(kind, id) for kind in (self.records if kinds is None else kinds))
        return next((rec for rec in found if rec is not None), None)

    def counts(self) -> dict[str, int]:
        """Records per kind (and a few totals), counted without building the records of a
        cached catalog (``data validate`` of an unchanged pack builds none: issue 29)."""
        out: dict[str, int] = {}
        for k in KINDS.values():
            if k.count_key:
                out[k.count_key] = len(self._values(k.name, "id"))
        out["village_buildings"] = sum(len(b) for b in self._values("village", "buildings"))
        out["nemeses_lieutenants"] = sum(1 for vlad in self._values("nemeses", "vlad") if not vlad)
        out["tactic_cards_total"] = sum(
            len(self._values(k, "id"))
            for k in ("starting_tactics", "advanced_tactics", "special_tactics")
        )
        out["placeholder_records"] = sum(
            1 for kind in self.records for s in self._values(kind, "source") if s == "placeholder"
        )
        return dict(sorted(out.items()))

    # typed accessors -----------------------------------------------------
    @property
    def config(self) -> m.RulesConfig:
        found: m.RulesConfig = self.all("rules_config")[0]
        return found

    @property
    def board(self) -> m.NightBoard:
        found: m.NightBoard = self.all("night_board")[0]
        return found

    @property
    def insanity(self) -> m.InsanityTrack:
        found: m.InsanityTrack = self.all("insanity")[0]
        return found

    @property
    def village(self) -> m.Village:
        found: m.Village = self.all("village")[0]
        return found

    @property
    def dice(self) -> list[m.Die]:
        return self.all("dice")

    def die(self, letter: str) -> m.Die:
        for d in self.dice:
            if d.letter == letter.upper():
                return d
        raise KeyError(letter)

    def nemesis(self, id: str) -> m.Nemesis | None:
        return self.get("nemeses", id)

    def trouper(self, id: str) -> m.Trouper | None:
        return self.get("troupers", id)

    def reactions_for(self, nemesis: str) -> list[m.ReactionCard]:
        return self._where("reactions", "nemesis", nemesis)

    def weaknesses_for(self, nemesis: str) -> list[m.WeaknessCard]:
        return self._where("weaknesses", "nemesis", nemesis)

    def starting_tactics_for(self, trouper: str) -> list[m.TacticCard]:
        return self._where("starting_tactics", "trouper", trouper)

    def items_for(self, trouper: str) -> list[m.ItemCard]:
        return self._where("trouper_items", "trouper", trouper)

    def advanced_deck(self, art: str) -> list[m.TacticCard]:
        return self._where("advanced_tactics", "art", art)

    def tactic(self, id: str) -> m.TacticCard | None:
        card: m.TacticCard | None = self.find(id, ("starting_tactics", "advanced_tactics",
                                                   "special_tactics"))
        return card

    def item(self, id: str) -> m.ItemCard | None:
        card: m.ItemCard | None = self.find(id, ("trouper_items", "special_items"))
        return card

    def locations_in(self, zone: str) -> list[m.Location]:
        return self._where("locations", "zone", zone)

    def events_in(self, zone: str) -> list[m.Event]:
        return self._where("events", "zone", zone)

    def vlad_reactions_in(self, zone: str) -> list[m.VladReactionCard]:
        return self._where("vlad_reactions", "zone", zone)

    def vlad(self) -> m.Nemesis | None:
        return next(iter(self._where("nemeses", "vlad", True)), None)

    def lieutenants(self) -> list[m.Nemesis]:
        return self._where("nemeses", "vlad", False)

    def origin_line(self, kind: str, id: str) -> tuple[str, int | None]:
        """File and line where a record was defined (for messages)."""
        origin = self.origins.get((kind, id))
        if origin is None:
            return ("?", None)
        problems: list[Problem] = []
        parsed = read_yaml_file(origin.file, problems)
        if parsed is None:
            return (_display(origin.file), None)
        return (_display(origin.file), line_of(parsed.node, [origin.index]))


def _error_line(parsed: ParsedFile, index: int, loc: list[int | str]) -> int:
    """The line of a validation error: in the record, or in the file's defaults when the
    record took that field from there."""
    import yaml

    if loc and loc[0] in parsed.defaults and parsed.defaults_node is not None:
        own = parsed.node.value[index] if isinstance(parsed.node, yaml.SequenceNode) else None
        if not (
            isinstance(own, yaml.MappingNode)
            and any(getattr(k, "value", None) == loc[0] for k, _ in own.value)
        ):
            return line_of(parsed.defaults_node, loc)
    return line_of(parsed.node, [index, *loc])


def _validate_file(
    kind: Kind, parsed: ParsedFile, problems: list[Problem]
) -> list[tuple[int, BaseModel]]:
    out: list[tuple[int, BaseModel]] = []
    shown = _display(parsed.path)
    for i, raw in enumerate(parsed.data):
        if not isinstance(raw, dict):
            problems.append(
                Problem(
                    shown, line_of(parsed.node, [i]), f"[{i}]",
                    f"expected a record (a mapping of fields), found {_kind_of(raw)}",
                )
            )
            continue
        try:
            out.append((i, kind.model.model_validate(raw)))
        except ValidationError as exc:
            rid = raw.get("id")
            for err in exc.errors():
                loc = list(err["loc"])
                field_name = _field_path(loc) or None
                if rid and field_name:
                    field_name = f"{rid}.{field_name}"
                problems.append(
                    Problem(shown, _error_line(parsed, i, loc), field_name, _describe(err))
                )
    return out


def _load_layers(layers: Sequence[Path], problems: list[Problem]) -> Catalog:
    records: dict[str, dict[str, BaseModel]] = {k: {} for k in KINDS}
    origins: dict[tuple[str, str], Origin] = {}
    for root in layers:
        for kind in KINDS.values():
            in_layer: dict[str, tuple[Path, int]] = {}
            for path in kind_files(root, kind.name):
                parsed = read_yaml_file(path, problems)
                if parsed is None:
                    continue
                for index, rec in _validate_file(kind, parsed, problems):
                    rid = rec.id  # type: ignore[attr-defined]
                    if rid in in_layer:
                        first, first_index = in_layer[rid]
                        problems.append(
                            Problem(
                                _display(path), line_of(parsed.node, [index]), f"{rid}.id",
                                f"duplicate id {rid!r} (also in {_display(first)})",
                            )
                        )
                        continue
                    in_layer[rid] = (path, index)
                    records[kind.name][rid] = rec
                    origins[(kind.name, rid)] = Origin(path, index)
    return Catalog(
        records={k: list(v.values()) for k, v in records.items()}, origins=origins,
        layers=list(layers),
    )


def validate_layers(layers: Sequence[Path]) -> Catalog:
    """Load and cross-check the given layers; raise ContentError listing every problem."""
    problems: list[Problem] = []
    for root in layers:
        try:
            check_path(root, "the data folder")
        except FileProblem as exc:
            problems.append(Problem(shown_path(root), None, None, exc.reason))
            continue
        problem = folder_problem(root)
        if problem:
            problems.append(Problem(_display(root), None, None, f"the data folder {problem}"))
        elif not root.is_dir():
            problems.append(Problem(_display(root), None, None, "no such data folder"))
    if problems:
        raise ContentError(problems)
    catalog = _load_layers(layers, problems)
    if not problems:
        from blood_companion.content.checks import cross_check

        problems.extend(cross_check(catalog, _display))
    if problems:
        raise ContentError(problems)
    catalog.warnings = rawpack.strays(layers)
    return catalog


# --------------------------------------------------------------------------- cache
#
# The validated catalog is cached as ``marshal`` data (never pickle: a pickle in a user-writable
# folder runs code when it is loaded): each record's validated fields (``model_dump``, set
# fields only), the origins, the layers and the record prints. Reading it builds each record
# again with ``model_construct``, nested models included (:func:`construct`), which skips
# validation and pydantic's schema building; a kind's records are built on first use only
# (:class:`LazyRecords`). What is read is only ever data: a damaged or foreign file is no cache.

_PLANS: dict[type[BaseModel], tuple[tuple[str, bool, type[BaseModel]], ...]] = {}
# model -> every field in order: (name, default factory or None, default; _REQUIRED for none)
_DEFAULTS: dict[type[BaseModel], tuple[tuple[str, Any, Any], ...]] = {}
# the models whose instance :func:`construct` sets up itself, as pydantic's model_construct
# would: no alias, no post-init, no extra fields kept, not a root model
_PLAIN: set[type[BaseModel]] = set()
_REQUIRED = object()
_IMMUTABLE = (type(None), bool, int, float, str, bytes, tuple, frozenset)


def _plan(cls: type[BaseModel]) -> tuple[tuple[str, bool, type[BaseModel]], ...]:
    """The fields of ``cls`` holding models: (name, is a list, model class). Raises TypeError
    for a shape :func:`construct` does not rebuild (the cache is then not written)."""
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    import types
    import typing

    out = []
    defaults: list[tuple[str, Any, Any]] = []
    for name, info in cls.model_fields.items():
        ann = info.annotation
        many = typing.get_origin(ann) in (list, tuple)
        args = typing.get_args(ann) if many else (ann,)
        if typing.get_origin(args[0]) in (typing.Union, types.UnionType):
            args = typing.get_args(args[0])
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(models) > 1 or (many and len(typing.get_args(ann)) != 1 and models):
            raise TypeError(f"{cls.__name__}.{name}: no plain rebuild for {ann}")
        if models:
            out.append((name, many, models[0]))
        elif _mentions_model(ann):  # e.g. dict[str, Model]: not a shape the data pack uses
            raise TypeError(f"{cls.__name__}.{name}: no plain rebuild for {ann}")
        if info.is_required():
            defaults.append((name, None, _REQUIRED))
            continue
        # pydantic's own model_construct asks inspect.signature() of every default factory on
        # every call (slow); ours take no argument, which is checked here once (not for list
        # or dict, which take none: inspect parses the builtin's text signature, ~90 us).
        factory = info.default_factory
        if factory is not None and factory not in (list, dict) and (
                info.default_factory_takes_validated_data):
            raise TypeError(f"{cls.__name__}.{name}: a default factory that takes the data")
        defaults.append((name, factory, info.default))
    _DEFAULTS[cls] = tuple(defaults)
    if (not cls.__pydantic_root_model__ and not cls.__pydantic_post_init__
            and cls.model_config.get("extra") != "allow"
            and all(f.alias is None and f.validation_alias is None
                    for f in cls.model_fields.values())):
        _PLAIN.add(cls)
    _PLANS[cls] = plan = tuple(out)
    return plan


def _mentions_model(ann: Any) -> bool:
    import typing

    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return True
    return any(_mentions_model(a) for a in typing.get_args(ann))


def construct(
    cls: type[BaseModel], data: dict[str, Any], fields_set: Iterable[str] | None = None
) -> Any:
    """Build ``cls`` from the ``model_dump()`` of a record that was validated, without
    validating it again; nested models are built too. ``fields_set``: the fields the record
    set itself (default: those in ``data``)."""
    values = dict(data)
    for name, many, sub in _plan(cls):
        value = values.get(name)
        if value is None:
            continue
        values[name] = [construct(sub, v) for v in value] if many else construct(sub, value)
    fields: dict[str, Any] = {}  # in field order, as model_construct makes them
    for name, factory, default in _DEFAULTS[cls]:
        if name in values:
            fields[name] = values[name]
        elif factory is not None:
            fields[name] = factory()
        elif default is not _REQUIRED:
            fields[name] = default if isinstance(default, _IMMUTABLE) else copy(default)
    chosen = set(data) if fields_set is None else set(fields_set)
    if cls not in _PLAIN:
        return cls.model_construct(_fields_set=chosen, **{**values, **fields})
    # what model_construct does for such a model, without its per-field alias and default
    # lookups (a few hundred records are built on a night's first view)
    made = cls.__new__(cls)
    object.__setattr__(made, "__dict__", fields)
    object.__setattr__(made, "__pydantic_fields_set__", chosen)
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


class LazyRecords(Mapping[str, list[Any]]):
    """Records per kind from the cache, each record built on first use: a lookup by id (or by
    a field's value) builds only the records it returns, a whole kind is built when asked for
    (each record once: the same object either way)."""

    def __init__(
        self, raw: dict[str, list[dict[str, Any]]], sets: dict[str, list[list[str]]]
    ) -> None:
        self._raw = raw
        self._sets = sets
        self._built: dict[str, list[Any]] = {}  # whole kinds
        self._slots: dict[str, list[Any]] = {}  # kind -> its records, None where not built
        self._ids: dict[str, dict[str, int]] = {}  # kind -> id -> row number

    def _record(self, kind: str, n: int) -> Any:
        slots = self._slots.get(kind)
        if slots is None:
            slots = self._slots[kind] = [None] * len(self._raw[kind])
        record = slots[n]
        if record is None:
            given = self._sets.get(kind)
            model = KINDS[kind].model
            record = slots[n] = construct(model, self._raw[kind][n], given[n] if given else None)
        return record

    def __getitem__(self, kind: str) -> list[Any]:
        built = self._built.get(kind)
        if built is None:
            rows = self._raw[kind]
            built = self._built[kind] = [self._record(kind, n) for n in range(len(rows))]
        return built

    def one(self, kind: str, id: str) -> Any | None:
        """The record of ``kind`` with this id (the last row of it), or None; only it is built."""
        ids = self._ids.get(kind)
        if ids is None:
            rows = self._raw.get(kind)
            if rows is None:
                return None
            ids = self._ids[kind] = {str(row["id"]): n for n, row in enumerate(rows)}
        n = ids.get(id)
        return None if n is None else self._record(kind, n)

    def where(self, kind: str, field: str, value: Any) -> list[Any]:
        """The records of ``kind`` whose ``field`` is ``value``, in file order (only they are
        built)."""
        rows = self._raw.get(kind)
        if rows is None:
            return []
        return [self._record(kind, n) for n, row in enumerate(rows) if row.get(field) == value]

    def unbuilt_rows(self, kind: str) -> list[dict[str, Any]] | None:
        """The kind's cached rows (each record's every field) while its records are not all
        built (None once they are, or for a kind the cache does not hold)."""
        if kind in self._built:
            return None
        return self._raw.get(kind)

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


class LazyOrigins(Mapping[tuple[str, str], Origin]):
    """Where each record of a cached catalog was read, from the cache's rows (kind, id, layer
    number, path within the layer, place in the file): an origin's path is made when it is
    asked for (an error's or a transcription's file), not for every record on every load.
    Raises TypeError, ValueError or IndexError for rows that are not such (the cache is then
    not used)."""

    def __init__(self, rows: list[Any], layers: list[Path]) -> None:
        self._layers = layers
        self._rows: dict[tuple[str, str], tuple[int, str, int]] = {}
        for k, i, at, rel, n in rows:
            if not (isinstance(at, int) and isinstance(rel, str) and isinstance(n, int)):
                raise TypeError("an origin of the cache is not (layer, path, place)")
            if at >= len(layers):
                raise IndexError(f"an origin of the cache names layer {at}")
            self._rows[(k, i)] = (at, rel, n)

    def __getitem__(self, key: tuple[str, str]) -> Origin:
        at, rel, n = self._rows[key]
        return Origin(self._layers[at] / rel if at >= 0 else Path(rel), n)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


def cache_blob(catalog: Catalog, key: str) -> bytes:
    """The cache file's bytes for a validated catalog. Raises TypeError or ValueError when a
    record holds something marshal or :func:`construct` cannot carry."""
    for kind in catalog.records:
        _plan(KINDS[kind].model)
    return marshal.dumps(
        {
            "format": rawpack.CACHE_FORMAT,
            "key": key,
            "records": {k: [r.model_dump() for r in v] for k, v in catalog.records.items()},
            # the fields each record set itself (the rest are defaults)
            "sets": {
                k: [sorted(r.model_fields_set) for r in v] for k, v in catalog.records.items()
            },
            # each file as (layer number, its path within the layer): the cache is shared by
            # every install of the same pack (content/raw.py), each reads its own files
            "origins": [
                (k, i, *_within_layer(o.file, catalog.layers), o.index)
                for (k, i), o in catalog.origins.items()
            ],
            "layers": [str(p) for p in catalog.layers],
            "prints": catalog.record_prints(),
        }
    )


def _within_layer(file: Path, layers: list[Path]) -> tuple[int, str]:
    """(the layer holding ``file``, its path within it); (-1, the whole path) for none."""
    for n, root in enumerate(layers):
        try:
            return n, file.relative_to(root).as_posix()
        except ValueError:
            continue
    return -1, str(file)


def catalog_from_blob(blob: bytes, key: str, layers: list[Path]) -> Catalog | None:
    """The catalog a cache file holds, its files found in ``layers`` (the layers the key was
    made of), or None when it is not one of ours for this key."""
    data = rawpack.from_blob(blob, key)
    if data is None or len(data["layers"]) != len(layers):
        return None
    records, origins, prints = data["records"], data["origins"], data["prints"]
    try:
        catalog = Catalog(
            records=LazyRecords(records, data.get("sets") or {}),
            origins=LazyOrigins(origins, layers),
            layers=list(layers),
        )
    except (TypeError, ValueError, IndexError):
        return None
    catalog._prints = prints
    return catalog


def _drop_old_caches(kept: Path) -> None:
    """Remove the cache files of packs no longer in use: all but the newest
    ``rawpack.KEEP_CACHES`` (another install's pack is one in use), and every old pickle."""
    found = []
    for old in kept.parent.glob("catalog-*"):
        if old == kept or old.suffix not in (".marshal", ".pickle"):
            continue
        try:
            found.append((old.stat().st_mtime_ns, old))
        except OSError:
            continue
    found.sort(reverse=True)
    fresh = [p for _, p in found if p.suffix == ".marshal"][: rawpack.KEEP_CACHES - 1]
    for _, old in found:
        if old not in fresh:
            old.unlink(missing_ok=True)


def load_catalog(data_dir: Path | None = None, *, use_cache: bool = True) -> Catalog:
    """The validated catalog: shipped pack plus the overlay (argument, BLOOD_DATA_DIR, else the
    user data folder when it holds cards: see `effective_overlay`).

    Raises ContentError when any file has a problem.
    """
    return load_layers(rawpack.layers_for(data_dir), use_cache=use_cache)


def load_layers(layers: list[Path], *, use_cache: bool = True) -> Catalog:
    """The validated catalog of exactly these layers (through the cache)."""
    if not use_cache or os.environ.get("BLOOD_NO_CACHE"):
        return validate_layers(layers)
    try:
        key = _fingerprint(layers)
    except (OSError, ValueError, RuntimeError):  # unlistable, a symlink loop: validating says

        return validate_layers(layers)
    cache_file = rawpack.cache_file(key)
    try:
        blob = read_regular(cache_file, limit=rawpack.MAX_CACHE_FILE)
        cached = catalog_from_blob(blob, key, layers)
    except FileProblem:  # missing or not a regular file: no cache
        cached = None
    if cached is not None:
        cached.warnings = rawpack.strays(layers)  # said on every load, whatever the cache holds
        return cached
    catalog = validate_layers(layers)
    try:
        blob = cache_blob(catalog, key)
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        # Partial files of a process killed while writing (ours are NAME.PID.tmp).
        remove_stale_tmp(cache_file.parent)
        write_atomic(cache_file, blob)
        _drop_old_caches(cache_file)
    except (OSError, TypeError, ValueError, FileProblem):
        pass  # a read-only home folder (or a record marshal cannot carry) only costs speed
    return catalog
