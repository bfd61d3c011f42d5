"""The data pack's folders: the shipped pack, the owner's overlay, each kind's files, and the
files of an overlay that belong to no kind (standard library only: shell completion reads the
kinds without the models)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from blood_companion.content.errors import Problem
from blood_companion.content.paths import user_data_dir
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
