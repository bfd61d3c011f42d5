"""Views of a campaign answered from a cached document when the save has not changed.

A view (`blood status`, ...) is a pure function of the campaign's state and the data pack, so
its document is cached beside the saves keyed by the save head's state hash, and the command
that builds it and the fast path render it with the same code. This module picks the fast path
for a command line, or says None and the typer app runs the command (which refreshes the cache).
Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from blood_companion.cli.settings import Settings


def fast_view(args: list[str], settings: Settings) -> int | None:
    """The exit code of a view answered from its cache, or None when the command must run."""
    if args[:1] == ["status"]:
        from blood_companion.cli.status_fast import fast_status

        return fast_status(args[1:], settings)
    return None
