"""Campaign and mark names: what players may type, and what stays inside the saves folder.

The rules themselves live in :mod:`blood_companion.names` (standard library only;
``cli/views.py`` applies the same ones to the stored status document); here they
become :class:`BadNameError`.
"""

from __future__ import annotations

import unicodedata

from blood_companion.display import excerpt
from blood_companion.names import CAMPAIGN_HINT, campaign_name_problem, mark_name_problem
from blood_companion.store.errors import BadNameError


def check_campaign_name(name: str) -> str:
    """Return `name` (NFC-normalised) if it is a safe campaign name; raise BadNameError."""
    name = unicodedata.normalize("NFC", name)
    why = campaign_name_problem(name)
    if why:
        raise BadNameError(f"bad campaign name {excerpt(name)}: {why}", hint=CAMPAIGN_HINT)
    return name


def check_mark_name(name: str) -> str:
    """Return the trimmed mark name; raise BadNameError for an empty, long or numeric one."""
    name = unicodedata.normalize("NFC", name).strip()
    why = mark_name_problem(name)
    if why:
        raise BadNameError(
            f"bad mark name {excerpt(name)}: {why}",
            hint="e.g. `blood campaign mark \"before Lucilla\"`",
        )
    return name
