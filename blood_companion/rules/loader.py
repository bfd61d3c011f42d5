"""Find, read and cache the rules reference.

The reference is ``rules/*.yaml`` in the shipped data pack (``blood_companion/_data`` in an
installed wheel, the repository's ``data/`` in a checkout), with an optional overlay in
``$BLOOD_DATA_DIR/rules`` (an entry with the same id replaces ours, a new id adds one).

Reading YAML costs far more than a lookup, so the compiled search index is cached with
``marshal`` in the platform's cache folder (:mod:`blood_companion.dirs`; ``$BLOOD_CACHE_DIR``
replaces it), keyed by the path, size and modification time of
every YAML file, the package version and the Python version. A stale, corrupt or unreadable
cache is simply rebuilt; a cache folder that cannot be written is skipped.

Only this file's YAML path imports ``yaml``; the cached path imports nothing heavy.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

from blood_companion import __version__
from blood_companion.errors import BloodError
from blood_companion.fileio import (
    FileProblem,
    read_regular,
    read_text,
    remove_stale_tmp,
    write_atomic,
)
from blood_companion.rules.entry import RuleEntry, check_links, check_raw
from blood_companion.rules.index import INDEX_FORMAT, RulesIndex, build_index


class RulesDataError(BloodError):
    """The rules reference could not be read; ``problems`` lists each one with file:line."""

    def __init__(self, problems: list[str]) -> None:
        shown = "\n".join(problems[:20])
        more = f"\n... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(
            f"the rules reference has {len(problems)} problem(s):\n{shown}{more}",
            hint="fix the file(s) named above (see docs/rules-reference.md)",
        )
        self.problems = problems


def shipped_rules_dir() -> str:
    """The rules folder of the shipped data pack (wheel or checkout)."""
    import blood_companion

    pkg = os.path.dirname(os.path.abspath(blood_companion.__file__))
    data = os.path.join(pkg, "_data")
    if not os.path.isdir(data):
        data = os.path.join(os.path.dirname(pkg), "data")
    return os.path.join(data, "rules")


def rules_dirs(data_dir: str | None = None) -> list[str]:
    """The layers to read: the shipped one (RulesDataError if it is missing), then
    ``DATA_DIR/rules`` (--data-dir, else ``$BLOOD_DATA_DIR``) if that folder exists."""
    shipped = shipped_rules_dir()
    if not os.path.isdir(shipped):
        raise RulesDataError([f"{shipped}: the rules reference folder is missing"])
    base = data_dir or os.environ.get("BLOOD_DATA_DIR")
    overlay = os.path.join(os.path.abspath(base), "rules") if base else ""
    return [shipped, overlay] if overlay and os.path.isdir(overlay) else [shipped]


# A rules file larger than this is refused before it is parsed (ours are under 20 KB each).
MAX_RULES_FILE = 2 << 20


def yaml_files(folder: str) -> list[str]:
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith((".yaml", ".yml")))
    except OSError as exc:
        raise RulesDataError([f"{folder}: cannot be listed: {exc.strerror}"]) from None
    return [os.path.join(folder, n) for n in names if not n.startswith(".")]


def signature(dirs: list[str]) -> tuple:
    """What the cache must match: format, versions and every file's path, size and mtime.

    A file that cannot be stat'ed (a dangling symlink) gets no size: it never matches a cache,
    so reading it reports the problem."""
    files = []
    for folder in dirs:
        for path in yaml_files(folder):
            try:
                st = os.stat(path)
            except OSError:
                files.append((path, -1, -1))
                continue
            files.append((path, st.st_size, st.st_mtime_ns))
    return (INDEX_FORMAT, __version__, tuple(sys.version_info[:3]), tuple(dirs), tuple(files))


def cache_path(dirs: list[str]) -> str:
    from blood_companion.dirs import user_cache_dir

    base = user_cache_dir()
    key = zlib.crc32("\0".join(dirs).encode("utf-8"))
    return os.path.join(base, f"rules-{key:08x}.marshal")


def read_layer(folder: str) -> tuple[list[RuleEntry], list[str]]:
    """Entries of one folder's YAML files, in file then entry order, and the problems found."""
    from blood_companion.yamlio import YamlProblem, safe_load

    entries: list[RuleEntry] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path in yaml_files(folder):
        try:
            node, data = safe_load(read_text(path, limit=MAX_RULES_FILE))
        except FileProblem as exc:
            problems.append(f"{path}: the file {exc.reason}")
            continue
        except YamlProblem as exc:
            at = f":{exc.line}" if exc.line is not None else ""
            problems.append(f"{path}{at}: {exc.message}")
            continue
        if data is None:
            continue
        if not isinstance(data, list):
            problems.append(f"{path}:1: expected a list of entries at the top level")
            continue
        items = getattr(node, "value", [])
        for n, raw in enumerate(data):
            line = items[n].start_mark.line + 1 if n < len(items) else 0
            entry, found = check_raw(raw, f"{path}:{line}")
            problems.extend(found)
            if entry is None:
                continue
            if entry.id in seen:
                problems.append(f"{path}:{line}: id {entry.id!r} already used in {seen[entry.id]}")
                continue
            seen[entry.id] = f"{path}:{line}"
            entries.append(entry)
    return entries, problems


def load_entries(dirs: list[str] | None = None) -> list[RuleEntry]:
    """Read and check every layer (no cache); raises RulesDataError listing all problems."""
    dirs = rules_dirs() if dirs is None else dirs
    merged: dict[str, RuleEntry] = {}
    problems: list[str] = []
    for folder in dirs:
        entries, found = read_layer(folder)
        problems.extend(found)
        for e in entries:
            merged[e.id] = e  # same id: the later layer replaces, keeping the position
    result = list(merged.values())
    problems.extend(check_links(result))
    if not result and not problems:
        problems.append(f"{dirs[0]}: no rules entries found")
    if problems:
        raise RulesDataError(problems)
    return result


def load_index(
    use_cache: bool = True, data_dir: str | None = None, dirs: list[str] | None = None
) -> RulesIndex:
    """The search index, from the cache when it is fresh, else compiled from YAML (and cached).
    ``data_dir`` is the --data-dir overlay (its ``rules`` folder); ``dirs`` names the layers
    instead (`blood data validate DIR`).

    Raises RulesDataError when the YAML has problems.
    """
    dirs = rules_dirs(data_dir) if dirs is None else dirs
    sig = signature(dirs)
    path = cache_path(dirs)
    if use_cache:
        try:
            # loads(read()) rather than load(fh): load() reads the file in tiny pieces.
            data = marshal.loads(read_regular(path, limit=64 << 20))
            if isinstance(data, dict) and data.get("signature") == sig:
                return RulesIndex(data)
        except Exception:  # noqa: BLE001 - missing, stale or damaged: a cache we cannot read is none
            pass
    data = build_index(load_entries(dirs))
    data["signature"] = sig
    if use_cache:
        _write_cache(path, data)
    return RulesIndex(data)


def _write_cache(path: str, data: dict) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        remove_stale_tmp(os.path.dirname(path))  # partial files of a killed process
        write_atomic(path, marshal.dumps(data))
    except (OSError, ValueError, FileProblem):
        pass  # a read-only cache folder only costs speed
