"""How a command that cannot go on says so: a usage error (exit code 2, with the JSON error
document under ``--json``), a refusal without rich (`blood rules`), and the last line of
defence against an unexpected exception (exit code 1). A leaf module: the entry point, the typer
app and `blood rules` all use it."""

from __future__ import annotations

import os
import sys

from blood_companion.display import clean, json_text
from blood_companion.errors import BloodError


def _print_doc(doc: dict[str, object]) -> None:
    """The JSON error document on stdout (as cli/views.py ``print_doc``; "ok" is in it)."""
    sys.stdout.write(json_text(doc) + "\n")
    sys.stdout.flush()


def usage_doc(message: str) -> dict[str, object]:
    """The JSON document of a usage error (every command's ``--json`` error shape)."""
    return {"ok": False, "error": message, "kind": "usage", "exit_code": 2}


def usage_error(message: str, as_json: bool) -> int:
    """Report a usage error: one line on stderr and, with ``--json``, the JSON error document
    on stdout (:func:`usage_doc`); return exit code 2."""
    if as_json:
        _print_doc(usage_doc(message))
    sys.stderr.write(f"Error: {message}\n")
    return 2


def refused(exc: BloodError, as_json: bool) -> int:
    """Report a refusal without rich (`blood rules`): with ``--json`` its JSON error document on
    stdout; the message and its hint on stderr. Return its exit code."""
    if as_json:
        _print_doc(exc.to_json())
    sys.stderr.write(clean(f"Error: {exc.message}") + "\n")
    if exc.hint:
        sys.stderr.write(clean(f"Hint: {exc.hint}") + "\n")
    return exc.exit_code


def unexpected(command: str, exc: BaseException, as_json: bool = False) -> int:
    """The last line of defence: one line naming the command and the exception; exit code 1.

    ``BLOOD_DEBUG=1`` adds the traceback (for whoever fixes it)."""
    name = type(exc).__name__
    message = (
        f"blood {command} stopped on an unexpected {name}. This is a bug in Blood Companion; "
        "please report it with the command you ran and `blood --version`."
    )
    if as_json:
        _print_doc({"ok": False, "error": message, "exception": name})
    if os.environ.get("BLOOD_DEBUG"):
        import traceback  # only then: `blood rules` starts without it

        traceback.print_exception(exc)
    sys.stderr.write(f"Error: {message}\n")
    return 1
