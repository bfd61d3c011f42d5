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
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from blood_companion import __version__
from blood_companion.content import models as m
from blood_companion.content.errors import ContentError, Problem
from blood_companion.content.paths import user_data_dir
from blood_companion.display import excerpt
from blood_companion.fileio import (
    FileProblem,
    check_path,
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
MAX_CACHE_FILE = 64 << 20


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[m.Record]
    count_key: str | None = None  # key in `blood data validate --json` counts


# One entry per kind: data/<name>.yaml and/or data/<name>/*.yaml.
KINDS: dict[str, Kind] = {
    k.name: k
    for k in [
        Kind("components", m.Components),
        Kind("rules_config", m.RulesConfig),
        Kind("dice", m.Die, "dice"),
        Kind("night_board", m.NightBoard, "night_board"),
        Kind("insanity", m.InsanityTrack, "insanity_tracks"),
        Kind("village", m.Village, "village"),
        Kind("difficulty", m.DifficultyLevel, "difficulty_levels"),
        Kind("zones", m.Zone, "zones"),
        Kind("locations", m.Location, "locations"),
        Kind("events", m.Event, "events"),
        Kind("minions", m.Minion, "minions"),
        Kind("nemeses", m.Nemesis, "nemeses"),
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

# Friendly names accepted by `blood data show`.
KIND_ALIASES = {
    "die": "dice",
    "nemesis": "nemeses",
    "reaction": "reactions",
    "reaction_cards": "reactions",
    "vlad": "vlad_reactions",
    "vlad_reaction_cards": "vlad_reactions",
    "weakness": "weaknesses",
    "weakness_cards": "weaknesses",
    "minion": "minions",
    "zone": "zones",
    "location": "locations",
    "event": "events",
    "trouper": "troupers",
    "tactics": "starting_tactics",
    "starting_tactic_cards": "starting_tactics",
    "items": "trouper_items",
    "advanced": "advanced_tactics",
    "advanced_tactic_cards": "advanced_tactics",
    "board": "night_board",
    "buildings": "village",
    "bran": "village",
    "config": "rules_config",
    "levels": "difficulty",
    "difficulty_levels": "difficulty",
}


def resolve_kind(name: str) -> str:
    key = name.strip().lower().replace("-", "_")
    key = KIND_ALIASES.get(key, key)
    if key not in KINDS:
        from blood_companion.errors import UsageError

        raise UsageError(
            f"unknown kind {name!r}",
            hint="kinds: " + ", ".join(KINDS),
        )
    return key


def shipped_data_dir() -> Path:
    """The data pack inside the installed wheel, or the repository's data/ when run from source."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_data"
    if packaged.is_dir():
        return packaged
    return here.parent / "data"


def overlay_dir_from_env() -> Path | None:
    value = os.environ.get("BLOOD_DATA_DIR")
    return Path(value) if value else None


def has_data(folder: Path) -> bool:
    """True when the folder holds at least one data file of a known kind."""
    try:
        return any(kind_files(folder, kind) for kind in KINDS)
    except OSError:
        return False


def effective_overlay(data_dir: Path | None = None) -> Path | None:
    """The overlay every command layers over the shipped pack: --data-dir / BLOOD_DATA_DIR,
    else the owner's user data folder when it holds cards (what they transcribed)."""
    if data_dir is not None:
        return data_dir
    env = overlay_dir_from_env()
    if env is not None:
        return env
    default = user_data_dir()
    return default if has_data(default) else None


# --------------------------------------------------------------------------- YAML reading


@dataclass
class ParsedFile:
    """One data file: its records (file-level defaults already applied) and the YAML node of
    the record list (for line numbers)."""

    path: Path
    data: list[Any]
    node: yaml.Node
    defaults: dict[str, Any] = field(default_factory=dict)
    defaults_node: yaml.Node | None = None


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


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
                            _display(path),
                            key.start_mark.line + 1,
                            key.value[:40],
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

    shown = _display(path)
    try:
        raw = read_regular(path, limit=MAX_DATA_FILE)
    except FileProblem as exc:
        problems.append(Problem(shown, None, None, f"the file {exc.reason}"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.append(
            Problem(shown, line, None, f"the file is not UTF-8 text (byte {exc.start})")
        )
        return None
    if not text.strip() or all(
        not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()
    ):
        problems.append(Problem(shown, None, None, "the file is empty: expected a list of records"))
        return None
    loader = SafeLoader(text)
    try:
        node = yamlio.compose(loader)
        if node is None:
            problems.append(Problem(shown, None, None, "the file is empty: expected a list"))
            return None
        dup: list[Problem] = []
        _duplicate_keys(node, path, dup)
        if dup:
            problems.extend(dup)
            return None
        data = yamlio.construct(loader, node)
    except yamlio.YamlProblem as exc:
        problems.append(Problem(shown, exc.line, None, exc.message))
        return None
    finally:
        loader.dispose()
    if (
        isinstance(data, dict)
        and isinstance(node, yaml.MappingNode)
        and ("defaults" in data or "records" in data)
    ):
        return _with_defaults(path, data, node, problems)
    if not isinstance(data, list):
        problems.append(
            Problem(
                shown,
                node.start_mark.line + 1,
                None,
                f"expected a list of records (lines starting with '- '), found {_kind_of(data)}",
            )
        )
        return None
    return ParsedFile(path, data, node)


def _with_defaults(
    path: Path, data: dict[str, Any], node: yaml.MappingNode, problems: list[Problem]
) -> ParsedFile | None:
    """The file form ``defaults: {...}`` + ``records: [...]``: every record takes the default
    fields it does not set itself (a shallow merge: a record's own value wins whole)."""
    import yaml

    shown = _display(path)
    nodes = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    unknown = [k for k in data if k not in ("defaults", "records")]
    if unknown or "records" not in data:
        what = (
            f"unknown top-level key {unknown[0]!r}" if unknown else "no 'records:' list"
        )
        problems.append(
            Problem(
                shown,
                (nodes[unknown[0]].start_mark.line if unknown else node.start_mark.line) + 1,
                None,
                f"{what}: a data file is a list of records, or a mapping with 'defaults:' "
                "(fields every record shares) and 'records:' (the list)",
            )
        )
        return None
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        problems.append(
            Problem(
                shown,
                nodes["defaults"].start_mark.line + 1,
                "defaults",
                f"expected a mapping of fields, found {_kind_of(defaults)}",
            )
        )
        return None
    records = data["records"]
    if not isinstance(records, list):
        problems.append(
            Problem(
                shown,
                nodes["records"].start_mark.line + 1,
                "records",
                f"expected a list of records (lines starting with '- '), found "
                f"{_kind_of(records)}",
            )
        )
        return None
    merged = [{**defaults, **r} if isinstance(r, dict) else r for r in records]
    return ParsedFile(path, merged, nodes["records"], defaults, nodes.get("defaults"))


def _kind_of(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {excerpt(value)}"


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


@dataclass
class Origin:
    file: Path
    index: int


@dataclass
class Catalog:
    """The validated data pack: records per kind, in file order, and lookups by id."""

    records: Mapping[str, list[Any]]
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    layers: list[Path] = field(default_factory=list)
    # Files of an overlay that belong to no kind (not loaded): said on every load
    warnings: list[Problem] = field(default_factory=list, compare=False)
    _by_id: dict[str, dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _prints: dict[str, str] | None = None

    def _index(self, kind: str) -> dict[str, Any]:
        found = self._by_id.get(kind)
        if found is None:
            found = self._by_id[kind] = {r.id: r for r in self.records.get(kind, [])}
        return found

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
        import hashlib
        import json

        text = json.dumps(self.record_prints(), separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # generic -------------------------------------------------------------
    def all(self, kind: str) -> list[Any]:
        return self.records.get(kind, [])

    def get(self, kind: str, id: str) -> Any | None:
        return self._index(kind).get(id)

    def find(self, id: str) -> Any | None:
        """The record with this id, whatever its kind (ids are unique across kinds)."""
        for kind in self.records:
            rec = self._index(kind).get(id)
            if rec is not None:
                return rec
        return None

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for k in KINDS.values():
            if k.count_key:
                out[k.count_key] = len(self.all(k.name))
        out["village_buildings"] = sum(len(v.buildings) for v in self.all("village"))
        out["nemeses_lieutenants"] = sum(1 for n in self.all("nemeses") if not n.vlad)
        out["tactic_cards_total"] = sum(
            len(self.all(k)) for k in ("starting_tactics", "advanced_tactics", "special_tactics")
        )
        out["placeholder_records"] = sum(
            1 for recs in self.records.values() for r in recs if r.source == "placeholder"
        )
        return dict(sorted(out.items()))

    # typed accessors -----------------------------------------------------
    @property
    def config(self) -> m.RulesConfig:
        return self.all("rules_config")[0]

    @property
    def board(self) -> m.NightBoard:
        return self.all("night_board")[0]

    @property
    def insanity(self) -> m.InsanityTrack:
        return self.all("insanity")[0]

    @property
    def village(self) -> m.Village:
        return self.all("village")[0]

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
        return [r for r in self.all("reactions") if r.nemesis == nemesis]

    def weaknesses_for(self, nemesis: str) -> list[m.WeaknessCard]:
        return [w for w in self.all("weaknesses") if w.nemesis == nemesis]

    def starting_tactics_for(self, trouper: str) -> list[m.TacticCard]:
        return [t for t in self.all("starting_tactics") if t.trouper == trouper]

    def items_for(self, trouper: str) -> list[m.ItemCard]:
        return [i for i in self.all("trouper_items") if i.trouper == trouper]

    def advanced_deck(self, art: str) -> list[m.TacticCard]:
        return [t for t in self.all("advanced_tactics") if t.art == art]

    def tactic(self, id: str) -> m.TacticCard | None:
        for k in ("starting_tactics", "advanced_tactics", "special_tactics"):
            card = self.get(k, id)
            if card is not None:
                return card
        return None

    def item(self, id: str) -> m.ItemCard | None:
        for k in ("trouper_items", "special_items"):
            card = self.get(k, id)
            if card is not None:
                return card
        return None

    def locations_in(self, zone: str) -> list[m.Location]:
        return [loc for loc in self.all("locations") if loc.zone == zone]

    def events_in(self, zone: str) -> list[m.Event]:
        return [e for e in self.all("events") if e.zone == zone]

    def vlad_reactions_in(self, zone: str) -> list[m.VladReactionCard]:
        return [v for v in self.all("vlad_reactions") if v.zone == zone]

    def vlad(self) -> m.Nemesis | None:
        return next((n for n in self.all("nemeses") if n.vlad), None)

    def lieutenants(self) -> list[m.Nemesis]:
        return [n for n in self.all("nemeses") if not n.vlad]

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


def kind_files(root: Path, kind: str) -> list[Path]:
    """The files of a kind in one layer: ``KIND.yaml`` and ``KIND/*.yaml``. Whatever carries
    such a name is listed (a FIFO, a dangling symlink), so reading it reports the problem."""
    files: list[Path] = []
    single = root / f"{kind}.yaml"
    if single.is_symlink() or (single.exists() and not single.is_dir()):
        files.append(single)
    folder = root / kind
    if folder.is_dir():
        try:
            found = [p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")]
        except OSError:
            found = [folder]  # unreadable: reading it names the folder and the reason
        files.extend(sorted(found))
    return files


# Folders of an overlay that are not kinds but are read by something else.
OTHER_FOLDERS = ("rules", "schemas")


def stray_files(root: Path) -> list[Problem]:
    """The YAML files of an overlay folder that belong to no kind, so nothing loads them
    (``my-minions.yaml``, ``minions.yml``, ``cards/x.yaml``): one problem each, with the kind
    it may have meant. Never raises (a folder that cannot be listed has none)."""
    from blood_companion.matching import close_to

    kinds = [(k, k) for k in KINDS]
    out: list[Problem] = []
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        name = entry.name
        if name.startswith("."):
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            if name in KINDS or name in OTHER_FOLDERS:
                continue
            try:
                found = [p for p in os.listdir(entry.path) if p.endswith((".yaml", ".yml"))]
            except OSError:
                continue
            if found:
                near = close_to(name, kinds, n=1)
                out.append(
                    Problem(
                        _display(Path(entry.path)),
                        None,
                        None,
                        f"a folder of {len(found)} YAML file(s) that belongs to no kind, so "
                        "none is loaded"
                        + (f": did you mean the folder {near[0]}/?" if near else "")
                        + " (kinds: "
                        + ", ".join(KINDS)
                        + ")",
                    )
                )
            continue
        stem, dot, suffix = name.rpartition(".")
        if not dot or suffix not in ("yaml", "yml"):
            continue
        if suffix == "yaml" and stem in KINDS:
            continue
        if stem in KINDS:
            why = f"is not loaded: name it {stem}.yaml (a kind's file ends in .yaml)"
        else:
            near = close_to(stem, kinds, n=1)
            why = "belongs to no kind, so it is not loaded" + (
                f": did you mean {near[0]}.yaml (or a file in {near[0]}/)?" if near else ""
            )
        out.append(Problem(_display(Path(entry.path)), None, None, why))
    return out


def _strays(layers: Sequence[Path]) -> list[Problem]:
    """Stray files of every layer but the shipped pack."""
    shipped = shipped_data_dir()
    return [p for root in layers if root != shipped for p in stray_files(root)]


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
                    shown,
                    line_of(parsed.node, [i]),
                    f"[{i}]",
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
                                _display(path),
                                line_of(parsed.node, [index]),
                                f"{rid}.id",
                                f"duplicate id {rid!r} (also in {_display(first)})",
                            )
                        )
                        continue
                    in_layer[rid] = (path, index)
                    records[kind.name][rid] = rec
                    origins[(kind.name, rid)] = Origin(path, index)
    return Catalog(
        records={k: list(v.values()) for k, v in records.items()},
        origins=origins,
        layers=list(layers),
    )


def _layers(data_dir: Path | None, include_shipped: bool = True) -> list[Path]:
    layers = [shipped_data_dir()] if include_shipped else []
    if data_dir is not None:
        layers.append(data_dir)
    return layers


def load_unchecked(layers: Sequence[Path]) -> Catalog:
    """Records that validate on their own, without the cross-checks (for tools and tests of
    partial packs). Problems are ignored."""
    return _load_layers(layers, [])


def validate_layers(layers: Sequence[Path]) -> Catalog:
    """Load and cross-check the given layers; raise ContentError listing every problem."""
    problems: list[Problem] = []
    for root in layers:
        try:
            check_path(root, "the data folder")
        except FileProblem as exc:
            problems.append(Problem(shown_path(root), None, None, exc.reason))
            continue
        if not root.is_dir():
            problems.append(Problem(_display(root), None, None, "no such data folder"))
    if problems:
        raise ContentError(problems)
    catalog = _load_layers(layers, problems)
    if not problems:
        from blood_companion.content.checks import cross_check

        problems.extend(cross_check(catalog, _display))
    if problems:
        raise ContentError(problems)
    catalog.warnings = _strays(layers)
    return catalog


# --------------------------------------------------------------------------- cache
#
# The validated catalog is cached as ``marshal`` data (never pickle: a pickle in a user-writable
# folder runs code when it is loaded): each record's validated fields (``model_dump``, set
# fields only), the origins, the layers and the record prints. Reading it builds each record
# again with ``model_construct``, nested models included (:func:`construct`), which skips
# validation and pydantic's schema building; a kind's records are built on first use only
# (:class:`LazyRecords`). What is read is only ever data: a damaged or foreign file is no cache.

CACHE_FORMAT = 2
_PLANS: dict[type[BaseModel], tuple[tuple[str, bool, type[BaseModel]], ...]] = {}
# model -> its fields' defaults: (name, default factory or None, default)
_DEFAULTS: dict[type[BaseModel], tuple[tuple[str, Any, Any], ...]] = {}
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
    defaults = []
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
            continue
        # pydantic's own model_construct asks inspect.signature() of every default factory on
        # every call (slow); ours take no argument, which is checked here once.
        factory = info.default_factory
        if factory is not None and info.default_factory_takes_validated_data:
            raise TypeError(f"{cls.__name__}.{name}: a default factory that takes the data")
        defaults.append((name, factory, info.default))
    _PLANS[cls] = plan = tuple(out)
    _DEFAULTS[cls] = tuple(defaults)
    return plan


def _mentions_model(ann: Any) -> bool:
    import typing

    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return True
    return any(_mentions_model(a) for a in typing.get_args(ann))


def dump_record(record: BaseModel) -> dict[str, Any]:
    """A validated record's own fields (those it set), nested models as dicts: what
    :func:`construct` builds it back from."""
    return record.model_dump(exclude_unset=True)


def construct(cls: type[BaseModel], data: dict[str, Any]) -> Any:
    """Build ``cls`` from :func:`dump_record`'s output of a record that was validated, without
    validating it again; nested models are built too."""
    values = dict(data)
    for name, many, sub in _plan(cls):
        value = values.get(name)
        if value is None:
            continue
        values[name] = [construct(sub, v) for v in value] if many else construct(sub, value)
    for name, factory, default in _DEFAULTS[cls]:
        if name not in values:
            if factory is not None:
                values[name] = factory()
            else:
                values[name] = default if isinstance(default, _IMMUTABLE) else copy(default)
    return cls.model_construct(_fields_set=set(data), **values)


class LazyRecords(Mapping[str, list[Any]]):
    """Records per kind from the cache, each kind built on first use."""

    def __init__(self, raw: dict[str, list[dict[str, Any]]]) -> None:
        self._raw = raw
        self._built: dict[str, list[Any]] = {}

    def __getitem__(self, kind: str) -> list[Any]:
        built = self._built.get(kind)
        if built is None:
            model = KINDS[kind].model if kind in KINDS else None
            rows = self._raw[kind]
            if model is None:
                raise KeyError(kind)
            built = self._built[kind] = [construct(model, r) for r in rows]
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _cache_dir() -> Path:
    from blood_companion.dirs import user_cache_dir

    return Path(user_cache_dir())


def _fingerprint(layers: Iterable[Path]) -> str:
    h = hashlib.sha256(f"{CACHE_FORMAT}|{__version__}".encode())
    for source in (m.__file__, __file__):  # a change to the models (a checkout) is a new key
        if source:
            st = os.stat(source)
            h.update(f"{source}|{st.st_size}|{st.st_mtime_ns}".encode())
    for root in layers:
        h.update(str(root.resolve()).encode())
        for kind in KINDS:
            for path in kind_files(root, kind):
                st = path.stat()
                h.update(f"{path}|{st.st_size}|{st.st_mtime_ns}".encode())
    return h.hexdigest()[:32]


def cache_blob(catalog: Catalog, key: str) -> bytes:
    """The cache file's bytes for a validated catalog. Raises TypeError or ValueError when a
    record holds something marshal or :func:`construct` cannot carry."""
    for kind in catalog.records:
        _plan(KINDS[kind].model)
    return marshal.dumps(
        {
            "format": CACHE_FORMAT,
            "key": key,
            "records": {k: [dump_record(r) for r in v] for k, v in catalog.records.items()},
            "origins": [(k, i, str(o.file), o.index) for (k, i), o in catalog.origins.items()],
            "layers": [str(p) for p in catalog.layers],
            "prints": catalog.record_prints(),
        }
    )


def catalog_from_blob(blob: bytes, key: str) -> Catalog | None:
    """The catalog a cache file holds, or None when it is not one of ours for this key."""
    try:
        data = marshal.loads(blob)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("key") != key:
        return None
    records, origins, layers, prints = (
        data.get("records"), data.get("origins"), data.get("layers"), data.get("prints")
    )
    if not (
        isinstance(records, dict)
        and set(records) == set(KINDS)
        and all(
            isinstance(rows, list) and all(isinstance(r, dict) for r in rows)
            for rows in records.values()
        )
        and isinstance(origins, list)
        and isinstance(layers, list)
        and isinstance(prints, dict)
    ):
        return None
    try:
        catalog = Catalog(
            records=LazyRecords(records),
            origins={(k, i): Origin(Path(f), n) for k, i, f, n in origins},
            layers=[Path(p) for p in layers],
        )
    except (TypeError, ValueError):
        return None
    catalog._prints = prints
    return catalog


def load_catalog(data_dir: Path | None = None, *, use_cache: bool = True) -> Catalog:
    """The validated catalog: shipped pack plus the overlay (argument, BLOOD_DATA_DIR, else the
    user data folder when it holds cards: see `effective_overlay`).

    Raises ContentError when any file has a problem.
    """
    return load_layers(_layers(effective_overlay(data_dir)), use_cache=use_cache)


def load_layers(layers: list[Path], *, use_cache: bool = True) -> Catalog:
    """The validated catalog of exactly these layers (through the cache)."""
    if not use_cache or os.environ.get("BLOOD_NO_CACHE"):
        return validate_layers(layers)
    try:
        key = _fingerprint(layers)
    except (OSError, ValueError):  # a file that cannot be listed: validating names it
        return validate_layers(layers)
    cache_file = _cache_dir() / f"catalog-{key}.marshal"
    try:
        cached = catalog_from_blob(read_regular(cache_file, limit=MAX_CACHE_FILE), key)
    except FileProblem:  # missing or not a regular file: no cache
        cached = None
    if cached is not None:
        cached.warnings = _strays(layers)  # said on every load, whatever the cache holds
        return cached
    catalog = validate_layers(layers)
    try:
        blob = cache_blob(catalog, key)
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        # Partial files of a process killed while writing (ours are NAME.PID.tmp).
        remove_stale_tmp(cache_file.parent)
        write_atomic(cache_file, blob)
        for old in cache_file.parent.glob("catalog-*"):
            if old != cache_file and old.suffix in (".marshal", ".pickle"):
                old.unlink(missing_ok=True)
    except (OSError, TypeError, ValueError):
        pass  # a read-only home folder (or a record marshal cannot carry) only costs speed
    return catalog
