"""The rules for campaign and mark names, as pure functions (standard library only).

A campaign name becomes a file name: no path separators, ``..``, control characters or what a
common file system refuses, at most :data:`MAX_NAME` characters and :data:`MAX_NAME_BYTES`
bytes (suffixes are added, and a name holds 255). Mark names live inside the save: only control
characters, length and all-digit names (step numbers for ``undo --to``) are refused.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 64
MAX_NAME_BYTES = 200
MAX_MARK = 80
FORBIDDEN = frozenset('/\\:*?"<>|')
WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(1, 10)}
)
CAMPAIGN_HINT = (
    "use letters, digits, spaces, '-', '_' or '.', up to 64 characters, e.g. 'tuesday-group'"
)


def control_char(text: str) -> str | None:
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            return f"U+{ord(ch):04X}"
    return None


def _common_problem(name: str, longest: int) -> str | None:
    if not name.strip():
        return "it is empty"
    if len(name) > longest:
        return f"it is {len(name)} characters long (at most {longest})"
    bad = control_char(name)
    return f"it contains the control character {bad}" if bad else None


def campaign_name_problem(name: str) -> str | None:
    """Why `name` (NFC-normalised first) cannot be a campaign name, or None if it can."""
    name = unicodedata.normalize("NFC", name)
    if common := _common_problem(name, MAX_NAME):
        return common
    size = len(name.encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return f"it takes {size} bytes as a file name (at most {MAX_NAME_BYTES})"
    if ch := next((ch for ch in name if ch in FORBIDDEN), None):
        return f"it contains {ch!r} (no path separators or {''.join(sorted(FORBIDDEN))})"
    if ".." in name:
        return "it contains '..'"
    if name.startswith(".") or name.startswith("-"):
        return f"it starts with {name[0]!r}"
    if name != name.strip() or name.endswith("."):
        return "it starts or ends with a space or ends with '.'"
    if name.split(".")[0].lower() in WINDOWS_RESERVED:
        return f"{name!r} is a reserved device name on Windows"
    return None


def mark_name_problem(name: str) -> str | None:
    """Why `name` (NFC-normalised and trimmed) cannot be a mark name, or None if it can."""
    name = unicodedata.normalize("NFC", name).strip()
    if common := _common_problem(name, MAX_MARK):
        return common
    if name.isdigit():
        return "a name of digits only would be read as a step number"
    return None
