"""Load the YAML data pack into validated pydantic models.

* Safe YAML only (the C loader when available): a tag that tries to build a Python object is an
  error, never executed.
* Every problem is reported with file, line, field and message (:class:`ContentError`).
* Layers: the shipped pack first, then ``--data-dir`` / ``BLOOD_DATA_DIR``; a record with the
  same id replaces the shipped one, a new id adds a record.
* A validated catalog is cached (in the platform's cache folder, see the cache section below),
  keyed by the content of every data file, so a change to any file invalidates it.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pydantic
import pydantic_core
import yaml
from pydantic import BaseModel, ValidationError

from blood_companion import __version__, yamlio
from blood_companion.content import models as m
from blood_companion.content import raw as rawpack
from blood_companion.content.checks import cross_check
from blood_companion.content.errors import ContentError, Problem
from blood_companion.content.paths import user_data_dir as user_data_dir
from blood_companion.content.raw import _display, kind_files
from blood_companion.content.raw import effective_overlay as effective_overlay
from blood_companion.content.raw import shipped_data_dir as shipped_data_dir
from blood_companion.dirs import user_cache_dir
from blood_companion.display import excerpt
from blood_companion.errors import UsageError
from blood_companion.fileio import (
    FileProblem,
    check_path,
    folder_problem,
    read_regular,
    remove_stale_tmp,
    shown_path,
    write_atomic,
)

# A data file larger than this is refused before it is parsed (the largest shipped file is
# under 20 KB; a whole box of cards in one file fits many times over).
MAX_DATA_FILE = 2 << 20


class Kind(NamedTuple):
    name: str
    model: type[m.Record]  # its record's model
    count_key: str | None = None  # key in `blood data validate --json` counts


# One entry per kind: data/<name>.yaml and/or data/<name>/*.yaml (in the order of raw.KIND_NAMES).
KINDS: dict[str, Kind] = {
    k.name: k
    for k in [
        Kind("components", m.Components), Kind("rules_config", m.RulesConfig),
        Kind("dice", m.Die, "dice"), Kind("night_board", m.NightBoard, "night_board"),
        Kind("insanity", m.InsanityTrack, "insanity_tracks"), Kind("village", m.Village, "village"),
        Kind("difficulty", m.DifficultyLevel, "difficulty_levels"), Kind("zones", m.Zone, "zones"),
        Kind("locations", m.Location, "locations"), Kind("events", m.Event, "events"),
        Kind("minions", m.Minion, "minions"), Kind("nemeses", m.Nemesis, "nemeses"),
        Kind("reactions", m.ReactionCard, "reaction_cards"),
        Kind("vlad_reactions", m.VladReactionCard, "vlad_reaction_cards"),
        Kind("weaknesses", m.WeaknessCard, "weakness_cards"),
        Kind("troupers", m.Trouper, "troupers"),
        Kind("starting_tactics", m.TacticCard, "starting_tactic_cards"),
        Kind("trouper_items", m.ItemCard, "trouper_items"),
        Kind("advanced_tactics", m.TacticCard, "advanced_tactic_cards"),
        Kind("special_tactics", m.TacticCard, "location_nemesis_tactic_cards"),
        Kind("special_items", m.ItemCard, "location_nemesis_item_cards"),
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
    for n in yamlio.nodes(node):  # each node once: aliases are not walked again
        if not isinstance(n, yaml.MappingNode):
            continue
        seen: dict[str, int] = {}
        for key, _ in n.value:
            if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                if key.value in seen:
                    problems.append(Problem(
                        _display(path), key.start_mark.line + 1, key.value[:40],
                        f"duplicate key {excerpt(key.value, 40)} (first on line "
                        f"{seen[key.value]})"))
                else:
                    seen[key.value] = key.start_mark.line + 1


def read_yaml_file(path: Path, problems: list[Problem]) -> ParsedFile | None:
    """Parse one data file safely; append problems instead of raising.

    Only a regular file of at most :data:`MAX_DATA_FILE` bytes is read (a FIFO, a device or a
    dangling symlink is a problem, not a hang), and the YAML is parsed within bounds
    (:mod:`blood_companion.yamlio`: no alias bombs, no runaway nesting)."""

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
    loader = yamlio.new_loader(text)
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
    current = node
    for part in loc:
        if isinstance(current, yaml.SequenceNode) and isinstance(part, int):
            if not 0 <= part < len(current.value):
                break
            current = current.value[part]
        elif isinstance(current, yaml.MappingNode) and (found := next(
                (v for k, v in current.value if isinstance(k, yaml.ScalarNode)
                 and k.value == str(part)), None)) is not None:
            current = found
        else:
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
            prints = {}
            for kind, recs in self.records.items():
                for r in recs:
                    text = json.dumps(r.model_dump(mode="json"), sort_keys=True, default=str)
                    prints[f"{kind}/{r.id}"] = hashlib.sha256(text.encode()).hexdigest()[:16]
            self._prints = dict(sorted(prints.items()))
        return self._prints

    def fingerprint(self) -> str:
        """The data pack's fingerprint: equal packs (shipped plus overlays), equal prints."""
        text = json.dumps(self.record_prints(), separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # generic -------------------------------------------------------------
    def all(self, kind: str) -> list[Any]:
        return self.records.get(kind, [])

    def get(self, kind: str, id: str) -> Any | None:
        found = self._by_id.get(kind)
        if found is None:
            found = self._by_id[kind] = {r.id: r for r in self.records.get(kind, [])}
        return found.get(id)

    def _where(self, kind: str, field: str, value: Any) -> list[Any]:
        """The records of ``kind`` whose ``field`` is ``value``, in file order."""
        return [r for r in self.all(kind) if getattr(r, field) == value]

    def find(self, id: str, kinds: Iterable[str] | None = None) -> Any | None:
        """The record with this id among ``kinds`` (default: every kind; ids are unique across
        kinds)."""
        found = (self.get(kind, id) for kind in (self.records if kinds is None else kinds))
        return next((rec for rec in found if rec is not None), None)

    def counts(self) -> dict[str, int]:
        """Records per kind (and a few totals)."""
        out = {k.count_key: len(self.all(k.name)) for k in KINDS.values() if k.count_key}
        out["village_buildings"] = sum(len(v.buildings) for v in self.all("village"))
        out["nemeses_lieutenants"] = len(self.lieutenants())
        out["tactic_cards_total"] = sum(
            len(self.all(k)) for k in ("starting_tactics", "advanced_tactics", "special_tactics"))
        out["placeholder_records"] = sum(
            r.source == "placeholder" for kind in self.records for r in self.all(kind))
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
        return self.find(id, ("starting_tactics", "advanced_tactics", "special_tactics"))

    def item(self, id: str) -> m.ItemCard | None:
        return self.find(id, ("trouper_items", "special_items"))

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
            return ("(data pack)", None)
        parsed = read_yaml_file(origin.file, [])
        if parsed is None:
            return (_display(origin.file), None)
        return (_display(origin.file), line_of(parsed.node, [origin.index]))


def _error_line(parsed: ParsedFile, index: int, loc: list[int | str]) -> int:
    """The line of a validation error: in the record, or in the file's defaults when the
    record took that field from there."""
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
            problems.append(Problem(shown, line_of(parsed.node, [i]), f"[{i}]", "expected a "
                                    f"record (a mapping of fields), found {_kind_of(raw)}"))
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
                problems.append(Problem(shown, _error_line(parsed, i, loc), field_name,
                                        _describe(err)))
    return out


def _load_layers(layers: Sequence[Path], problems: list[Problem]) -> Catalog:
    records: dict[str, dict[str, BaseModel]] = {k: {} for k in KINDS}
    origins: dict[tuple[str, str], Origin] = {}
    for root in layers:
        for kind in KINDS.values():
            in_layer: dict[str, Path] = {}  # id -> the file that holds it
            for path in kind_files(root, kind.name):
                parsed = read_yaml_file(path, problems)
                if parsed is None:
                    continue
                for index, rec in _validate_file(kind, parsed, problems):
                    rid = rec.id  # type: ignore[attr-defined]
                    if rid in in_layer:
                        problems.append(Problem(
                            _display(path), line_of(parsed.node, [index]), f"{rid}.id",
                            f"duplicate id {rid!r} (also in {_display(in_layer[rid])})"))
                        continue
                    in_layer[rid] = path
                    records[kind.name][rid] = rec
                    origins[(kind.name, rid)] = Origin(path, index)
    return Catalog(records={k: list(v.values()) for k, v in records.items()}, origins=origins,
                   layers=list(layers))


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
        problems.extend(cross_check(catalog))
    if problems:
        raise ContentError(problems)
    catalog.warnings = rawpack.strays(layers)
    return catalog


# --------------------------------------------------------------------------- cache
#
# The validated catalog is kept as a pickle, one file per key (:func:`_fingerprint`): its
# records, their prints and each origin as (layer number, path within the layer), so that every
# install of the same pack shares the file and reads its own files. A pickle runs code when it
# is read: only a file of the user's own, that nobody else may write, is read. Whatever goes
# wrong reading it, the pack is validated again (and the file written anew).

CACHE_FORMAT = 5  # 5: a pickle of the validated records
MAX_CACHE_FILE = 64 << 20
KEEP_CACHES = 8  # cache files kept (the newest): one per pack and app version in use
# The modules whose code decides what a cached record is: the data pack's models and the loader.
SCHEMA_FILES = (m.__file__, __file__)


def _fingerprint(layers: Iterable[Path]) -> str:
    """The cache key of these layers: what they hold, never where they are, so that two
    installs of one pack (a checkout and a wheel, two virtual environments) sharing one cache
    folder share one cache file instead of evicting each other's (issue 29). It hashes the
    cache format, the app's, pydantic's and pydantic-core's versions, the content of the models
    and the loader (:data:`SCHEMA_FILES`: a checkout that changes them is a new key), and per
    layer every data file's name within the layer and content. Raises OSError when a layer is
    no folder, FileProblem when a file is no regular file of a data pack's size."""
    h = hashlib.sha256(
        f"{CACHE_FORMAT}|{__version__}|{pydantic.VERSION}|{pydantic_core.__version__}|".encode())
    for name in SCHEMA_FILES:
        with open(name, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    for root in layers:
        if not root.is_dir():  # a named folder that is missing is the loader's error, no key
            raise OSError(f"{root}: no such data folder")
        h.update(b"|layer")
        for kind in KINDS:
            for path in kind_files(root, kind):
                data = read_regular(path, limit=MAX_CACHE_FILE)
                h.update(f"|{path.relative_to(root).as_posix()}|{len(data)}|".encode())
                h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:32]


def _cache_blob(catalog: Catalog, key: str) -> bytes:
    origins = [(k, i, *_within_layer(o.file, catalog.layers), o.index)
               for (k, i), o in catalog.origins.items()]
    return pickle.dumps((CACHE_FORMAT, key, dict(catalog.records), origins,
                         catalog.record_prints()), protocol=pickle.HIGHEST_PROTOCOL)


def _within_layer(file: Path, layers: list[Path]) -> tuple[int, str]:
    """(the layer holding ``file``, its path within it); (-1, the whole path) for none."""
    for n, root in enumerate(layers):
        try:
            return n, file.relative_to(root).as_posix()
        except ValueError:
            continue
    return -1, str(file)


def _cached(path: Path, key: str, layers: list[Path]) -> Catalog | None:
    """The catalog kept in ``path`` for this key, or None (no such file, another user's or a
    writable one, damaged, of another format or key)."""
    try:
        st = path.stat()
        if st.st_mode & 0o022 or st.st_uid != getattr(os, "getuid", lambda: st.st_uid)():
            return None
        fmt, found, records, origins, prints = pickle.loads(
            read_regular(path, limit=MAX_CACHE_FILE))
        if fmt != CACHE_FORMAT or found != key:
            return None
        return Catalog(
            records=records, layers=list(layers), _prints=prints,
            origins={(k, i): Origin(layers[at] / rel if at >= 0 else Path(rel), n)
                     for k, i, at, rel, n in origins},
        )
    except Exception:  # noqa: BLE001 - a damaged file is no cache, whatever it raises
        return None


def _drop_old_caches(kept: Path) -> None:
    """Keep the newest ``KEEP_CACHES`` cache files (another install's pack is one in
    use); remove the others, and those of earlier formats."""
    found = []
    for old in kept.parent.glob("catalog-*"):
        try:
            found.append((old.stat().st_mtime_ns, old))
        except OSError:
            continue
    found.sort(reverse=True)
    fresh = [p for _, p in found if p.suffix == kept.suffix][: KEEP_CACHES]
    for _, old in found:
        if old not in fresh and old != kept:
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
    except (OSError, ValueError, RuntimeError, FileProblem):  # validating names the problem
        return validate_layers(layers)
    path = Path(user_cache_dir()) / f"catalog-{key}.pickle"
    cached = _cached(path, key, layers)
    if cached is not None:
        cached.warnings = rawpack.strays(layers)  # said on every load, whatever the cache holds
        return cached
    catalog = validate_layers(layers)
    try:
        blob = _cache_blob(catalog, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Partial files of a process killed while writing (ours are NAME.PID.tmp).
        remove_stale_tmp(path.parent)
        path.unlink(missing_ok=True)  # not read: written anew
        write_atomic(path, blob)
        path.chmod(0o644)  # only its owner may write it, whatever the umask
        _drop_old_caches(path)
    except (OSError, pickle.PicklingError, FileProblem):
        pass  # a read-only home folder only costs speed
    return catalog
