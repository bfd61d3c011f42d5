"""`blood --version` and `blood --version --json` (either order): which app,
Python, data pack (its fingerprint, the one each recorded step keeps) and saves folder."""

from __future__ import annotations

import os
import platform
import sys
from typing import Any

from blood_companion import __version__
from blood_companion.cli.settings import Settings
from blood_companion.content import raw
from blood_companion.content.loader import load_layers
from blood_companion.display import clean, json_text

NAME = "blood-companion"


def is_version_request(args: list[str]) -> bool:
    """True for ``--version`` alone or with ``--json``, in either order."""
    return "--version" in args and set(args) <= {"--version", "--json"}


def version_doc(settings: Settings) -> dict[str, Any]:
    """The JSON document of ``blood --version --json``. Never raises: a data pack that does
    not load gives ``"data_fingerprint": null`` and what is wrong in ``data_error``."""
    doc: dict[str, Any] = {
        "ok": True,
        "name": NAME,
        "version": __version__,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": sys.platform,
        "data_dir": str(raw.shipped_data_dir()),
        "overlay": None,
        "data_fingerprint": None,
        "saves_dir": os.path.abspath(settings.saves_path),
        "saves_dir_from": settings.saves_from,
    }
    try:
        layers = raw.layers_for(settings.data_dir)
        doc["overlay"] = str(layers[1]) if len(layers) > 1 else None
        doc["data_fingerprint"] = load_layers(layers).fingerprint()
    except Exception as exc:  # noqa: BLE001 - the version is answered whatever the pack holds
        message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        doc["data_error"] = clean(" ".join(str(message).split()), single_line=True)
    return doc


def print_version(args: list[str], settings: Settings) -> int:
    """Answer ``blood --version [--json]``; return the exit code (0)."""
    if "--json" in args:
        sys.stdout.write(json_text(version_doc(settings)) + "\n")
    else:
        sys.stdout.write(f"{NAME} {__version__}\n")
    sys.stdout.flush()
    return 0
