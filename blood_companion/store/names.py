"""Campaign and mark names: what players may type, and what stays inside the saves folder.

A campaign name becomes a file name, so it is checked before any path is built: no path
separators, no ``..``, no control characters, nothing a common file system refuses, at most
:data:`MAX_NAME` characters. Mark names live inside the save, so only control characters,
length and all-digit names (those are step numbers for ``undo --to``) are refused.
"""

from __future__ import annotations

import unicodedata

from blood_companion.store.errors import BadNameError

MAX_NAME = 64
MAX_MARK = 80
_FORBIDDEN = set('/\\:*?"<>|')
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in
                                                     range(1, 10)}


def _control(text: str) -> str | None:
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            return f"U+{ord(ch):04X}"
    return None


def check_campaign_name(name: str) -> str:
    """Return `name` (NFC-normalised) if it is a safe campaign name; raise BadNameError."""
    hint = (
        "use letters, digits, spaces, '-', '_' or '.', up to 64 characters, e.g. 'tuesday-group'"
    )
    name = unicodedata.normalize("NFC", name)
    why: str | None = None
    bad = _control(name)
    if not name.strip():
        why = "it is empty"
    elif len(name) > MAX_NAME:
        why = f"it is {len(name)} characters long (at most {MAX_NAME})"
    elif bad:
        why = f"it contains the control character {bad}"
    elif any(ch in _FORBIDDEN for ch in name):
        ch = next(ch for ch in name if ch in _FORBIDDEN)
        why = f"it contains {ch!r} (no path separators or {''.join(sorted(_FORBIDDEN))})"
    elif ".." in name:
        why = "it contains '..'"
    elif name.startswith(".") or name.startswith("-"):
        why = f"it starts with {name[0]!r}"
    elif name != name.strip() or name.endswith("."):
        why = "it starts or ends with a space or ends with '.'"
    elif name.split(".")[0].lower() in _WINDOWS_RESERVED:
        why = f"{name!r} is a reserved device name on Windows"
    if why:
        raise BadNameError(f"bad campaign name {name!r}: {why}", hint=hint)
    return name


def check_mark_name(name: str) -> str:
    """Return the trimmed mark name; raise BadNameError for an empty, long or numeric one."""
    name = unicodedata.normalize("NFC", name).strip()
    why: str | None = None
    bad = _control(name)
    if not name:
        why = "it is empty"
    elif len(name) > MAX_MARK:
        why = f"it is {len(name)} characters long (at most {MAX_MARK})"
    elif bad:
        why = f"it contains the control character {bad}"
    elif name.isdigit():
        why = "a name of digits only would be read as a step number"
    if why:
        raise BadNameError(
            f"bad mark name {name!r}: {why}", hint="e.g. `blood campaign mark \"before Lucilla\"`"
        )
    return name
