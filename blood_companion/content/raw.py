"""The data pack's folders and the key of its validated cache, without pydantic (standard
library only): where the pack's files are (the shipped pack, the owner's overlay, each kind's
files), the files of an overlay that belong to no kind, and what the cache file of a pack is
(``content/loader.py`` reads and writes it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat as statmod
from collections.abc import Iterable, Sequence
from pathlib import Path

from blood_companion import __version__
from blood_companion.content.errors import Problem
from blood_companion.content.paths import user_data_dir
from blood_companion.dirs import user_cache_dir
from blood_companion.matching import close_to

# The kinds, in loading order (content/loader.py's KINDS holds their models, in this order).
KIND_NAMES = (
    "components", "rules_config", "dice", "night_board", "insanity", "village", "difficulty",
    "zones", "locations", "events", "minions", "nemeses", "reactions", "vlad_reactions",
    "weaknesses", "troupers", "starting_tactics", "trouper_items", "advanced_tactics",
    "special_tactics", "special_items",
)
# Folders of an overlay that are not kinds but are read by something else.
OTHER_FOLDERS = ("rules", "schemas")
CACHE_FORMAT = 5  # 5: a pickle of the validated records
MAX_CACHE_FILE = 64 << 20
_HERE = os.path.dirname(os.path.abspath(__file__))


def shipped_data_dir() -> Path:
    """The data pack inside the installed wheel, or the repository's data/ when run from source."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_data"
    if packaged.is_dir():
        return packaged
    return here.parent / "data"


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


def has_data(folder: Path) -> bool:
    """True when the folder holds at least one data file of a known kind."""
    try:
        return any(kind_files(folder, kind) for kind in KIND_NAMES)
    except OSError:
        return False


def effective_overlay(data_dir: Path | None = None) -> Path | None:
    """The overlay every command layers over the shipped pack: --data-dir / BLOOD_DATA_DIR,
    else the owner's user data folder when it holds cards (what they transcribed)."""
    if data_dir is not None:
        return data_dir
    if os.environ.get("BLOOD_DATA_DIR"):
        return Path(os.environ["BLOOD_DATA_DIR"])
    default = user_data_dir()
    return default if has_data(default) else None


def layers_for(data_dir: Path | None) -> list[Path]:
    """The shipped pack, then the overlay (see :func:`effective_overlay`)."""
    overlay = effective_overlay(data_dir)
    return [shipped_data_dir(), *([overlay] if overlay is not None else [])]


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- stray files


def stray_files(root: Path) -> list[Problem]:
    """The YAML files of an overlay folder that belong to no kind, so nothing loads them
    (``my-minions.yaml``, ``minions.yml``, ``cards/x.yaml``): one problem each, with the kind
    it may have meant. Never raises (a folder that cannot be listed has none)."""
    kinds = [(k, k) for k in KIND_NAMES]
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
            if name in KIND_NAMES or name in OTHER_FOLDERS:
                continue
            try:
                found = [p for p in os.listdir(entry.path) if p.endswith((".yaml", ".yml"))]
            except OSError:
                continue
            if found:
                near = close_to(name, kinds, n=1)
                mean = f": did you mean the folder {near[0]}/?" if near else ""
                out.append(Problem(_display(Path(entry.path)), None, None, f"a folder of "
                                   f"{len(found)} YAML file(s) that belongs to no kind, so none "
                                   f"is loaded{mean} (kinds: {', '.join(KIND_NAMES)})"))
            continue
        stem, dot, suffix = name.rpartition(".")
        if not dot or suffix not in ("yaml", "yml"):
            continue
        if suffix == "yaml" and stem in KIND_NAMES:
            continue
        if stem in KIND_NAMES:
            why = f"is not loaded: name it {stem}.yaml (a kind's file ends in .yaml)"
        else:
            near = close_to(stem, kinds, n=1)
            why = "belongs to no kind, so it is not loaded" + (
                f": did you mean {near[0]}.yaml (or a file in {near[0]}/)?" if near else ""
            )
        out.append(Problem(_display(Path(entry.path)), None, None, why))
    return out


def strays(layers: Sequence[Path]) -> list[Problem]:
    """Stray files of every layer but the shipped pack."""
    shipped = shipped_data_dir()
    return [p for root in layers if root != shipped for p in stray_files(root)]


# --------------------------------------------------------------------------- the cache


def _cache_dir() -> Path:
    return Path(user_cache_dir())


# The modules whose code decides what a cached record is: the data pack's models and the loader.
SCHEMA_FILES = ("models.py", "loader.py")


def _fingerprint(layers: Iterable[Path]) -> str:
    """The cache key of these layers: what they hold, never where they are, so that two
    installs of one pack (a checkout and a wheel, two virtual environments) sharing one cache
    folder share one cache file instead of evicting each other's (issue 29). It hashes the
    cache format, the app's version, the pydantic release (its ``version.py``), the content of
    the models and the loader (:data:`SCHEMA_FILES`: a checkout that changes them is a new
    key), and per layer every data file's name within the layer and content. Raises OSError
    when a layer is no folder or a file cannot be read."""
    h = hashlib.sha256(f"{CACHE_FORMAT}|{__version__}|".encode())
    h.update(_pydantic_release())
    for name in SCHEMA_FILES:
        with open(os.path.join(_HERE, name), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    for root in layers:
        if not root.is_dir():  # a named folder that is missing is the loader's error, no key
            raise OSError(f"{root}: no such data folder")
        h.update(b"|layer")
        for kind in KIND_NAMES:
            for path in kind_files(root, kind):
                data = _regular_bytes(path)
                h.update(f"|{path.relative_to(root).as_posix()}|{len(data)}|".encode())
                h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:32]


def _regular_bytes(path: Path) -> bytes:
    """A data file's bytes for the key. Raises ValueError for what is not a regular file of a
    sane size (a FIFO is opened without blocking, never read), OSError when it cannot be read:
    the loader then validates, which names the problem."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not statmod.S_ISREG(st.st_mode) or st.st_size > MAX_CACHE_FILE:
            raise ValueError(f"{path}: not a regular file of a data pack's size")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


def _pydantic_release() -> bytes:
    """The installed pydantic's ``version.py`` (it names the release and the pydantic-core it
    needs), read without importing pydantic; empty when it cannot be found."""
    try:
        spec = importlib.util.find_spec("pydantic")
    except (ImportError, ValueError):
        return b""
    if spec is None or not spec.submodule_search_locations:
        return b""
    for folder in spec.submodule_search_locations:
        try:
            with open(os.path.join(folder, "version.py"), "rb") as f:
                return f.read()
        except OSError:
            continue
    return b""


def cache_file(key: str) -> Path:
    return _cache_dir() / f"catalog-{key}.pickle"


# Cache files kept (the newest): one per pack and app version in use on this machine.
KEEP_CACHES = 8
