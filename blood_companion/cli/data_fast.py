"""`blood data validate` of an unchanged pack, answered from the report it printed last time.

The full command (``cli/data_cmd.py``) stores what it printed for a pack that validated; the
next run with the same :func:`report_key` prints it without importing typer, rich, pydantic or
YAML (issue 29). The key covers the options, the layers, every data and rules file, the code
that checks or prints a pack, the overlay's files of no kind and, for the table, the terminal:
any change validates again; a pack with a problem is never stored."""

from __future__ import annotations

import hashlib
import os
import sys

from blood_companion.cli.settings import Settings

FORMAT = 1
KEEP = 8  # stored reports kept (the newest): one per pack and terminal in use
# the options answered here (a DIR or --alone runs in full)
OPTIONS = frozenset({"--json", "--strict"})
_CODE = ("cli", "content", "rules")  # the packages whose modules check or print a pack


def report_key(settings: Settings, as_json: bool, strict: bool) -> str:
    """The key of the report `data validate` prints for these settings. Raises OSError or
    ValueError when a layer or file cannot be read (the full command says why)."""
    from blood_companion.cli.help_text import hash_code, help_key
    from blood_companion.content import raw

    layers = raw.layers_for(settings.data_dir)
    h = hashlib.sha256(f"{FORMAT}|{as_json}|{strict}|{[str(p) for p in layers]}|".encode())
    h.update(raw._fingerprint(layers).encode())
    for root in layers:
        folder = root / "rules"
        if folder.is_dir():
            for name in sorted(os.listdir(folder)):
                if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                    data = raw._regular_bytes(folder / name)
                    h.update(f"|rules/{name}|".encode() + hashlib.sha256(data).digest())
    hash_code(h, _CODE)
    h.update("|".join(str(p) for p in raw.strays(layers)).encode())
    if not as_json:
        h.update(help_key().encode())
    return h.hexdigest()[:32]


def report_path(key: str) -> str:
    from blood_companion.dirs import user_cache_dir

    return os.path.join(user_cache_dir(), "validate", f"validate-{key}.txt")


def fast_main(args: list[str], settings: Settings) -> int | None:
    """The exit code of `data validate ARGS` answered from its stored report, or None when the
    command must run in full."""
    if not set(args) <= OPTIONS or len(set(args)) != len(args) or os.environ.get("BLOOD_NO_CACHE"):
        return None
    from blood_companion.cli.help_text import _read

    try:
        text = _read(report_path(report_key(settings, "--json" in args, "--strict" in args)))
    except (OSError, ValueError):
        return None
    if text is None:
        return None
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0

