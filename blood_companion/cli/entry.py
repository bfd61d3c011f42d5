"""The `blood` console script.

Kept tiny on purpose: `blood rules ...`, `blood --version` and the views of a campaign whose
save has not changed since they were built (`blood status`, ...: ``cli.views``) answer without
importing typer, pydantic or the data pack, so a lookup at the table costs less than those
imports (bench/cli.py measures it). Everything else goes to the typer app in ``cli.app``.

The global options (``--saves-dir``, ``--data-dir``, ``--campaign``, anywhere on the command
line; declared once in ``cli.settings.GLOBALS``, which the typer app's callback is made of too)
are taken out here and read once, with their environment variables, into one
:class:`~blood_companion.cli.settings.Settings` that every path receives; nothing writes the
environment.

The console script itself is :func:`console` (``pyproject.toml``, ``python -m
blood_companion``): a short-lived command runs with the garbage collector off and its process
ends with ``os._exit`` once its output is flushed, skipping the final collection and module
teardown that cost as much as the command (issue 29). Every save is a committed SQLite
transaction before a command returns, and one left open is rolled back either way, so nothing
recorded depends on the teardown. `blood play` (and any command in :data:`LONG_RUNNING`) keeps
the collector on and the normal exit. :func:`main` (tests, an embedding app) never does either.

It is also the border where typed text is checked once for every command (:func:`check_args`:
valid UTF-8, no control characters, a sane length, digits a number can be made of) and the last
line of defence (:func:`unexpected`): an exception nobody expected becomes one line naming the
command and the exception type, exit code 1, never a traceback.
"""

from __future__ import annotations

import gc
import os
import sys
import types
from typing import Any, NoReturn

from blood_companion.cli.failures import unexpected as unexpected
from blood_companion.cli.failures import usage_doc as usage_doc
from blood_companion.cli.failures import usage_error as usage_error
from blood_companion.cli.record_fast import ONE_SHOT
from blood_companion.cli.settings import GLOBAL_OPTIONS, Settings, current

__all__ = [
    "GLOBAL_OPTIONS", "argument_problem", "check_args", "console", "dispatch", "main",
    "quiet_pydantic_plugins", "unexpected",
]

# Commands that run for as long as their user wants (an interactive loop, a server): they keep
# the garbage collector on and end the normal way; not `blood play` given its answers or asked
# for the question as JSON (one document, then the process ends).
LONG_RUNNING = frozenset({"play", "board", "table"})


# No argument (nor a line typed at a `blood play` prompt) is longer: nothing a player types is,
# and it keeps every number typed below Python's 4,300-digit limit for int().
MAX_ARG = 4096
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def argument_problem(text: str) -> str | None:
    """Why a typed argument cannot be taken, or None when it can."""
    if len(text) > MAX_ARG:
        return f"is {len(text)} characters long (at most {MAX_ARG})"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        byte = f" (byte 0x{code - 0xDC00:02X})" if 0xDC80 <= code <= 0xDCFF else ""
        return f"is not valid UTF-8 text{byte}"
    for ch in text:
        if (ch < " " and ch not in "\t\n") or "\x7f" <= ch <= "\x9f" or ch in _BIDI:
            return f"contains the control character U+{ord(ch):04X}"
    for word in text.replace(",", " ").replace("=", " ").replace(":", " ").split():
        if word.isdigit() and not word.isdecimal():
            return f"has {word[:20]!r}, which is not a number (type the digits 0-9)"
    return None


def check_args(args: list[str]) -> None:
    """Refuse (SystemExit 2, one clear line) arguments or BLOOD_* settings no command can take."""
    for n, arg in enumerate(args, 1):
        why = argument_problem(arg)
        if why:
            raise UsageExit(f"argument {n} {why}.")
    for env in GLOBAL_OPTIONS.values():
        value = os.environ.get(env)
        why = argument_problem(value) if value else None
        if why:
            raise UsageExit(f"{env} {why}.")


class UsageExit(SystemExit):
    """A usage error found before any command runs (exit code 2), with its message."""

    def __init__(self, message: str) -> None:
        super().__init__(2)
        self.message = message


def extract_global_options(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """Take the global options out of argv: ({option name: value}, the remaining argv).

    Raises UsageExit when such an option is missing its value.
    """
    found: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        name, eq, value = arg.partition("=")
        if name in GLOBAL_OPTIONS:
            if not eq:
                if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                    raise UsageExit(f"option {name} needs a value.")
                value = argv[i + 1]
                i += 1
            found[name] = value
        else:
            rest.append(arg)
        i += 1
    return found, rest


def settings_from(options: dict[str, str]) -> Settings:
    """The settings of one invocation: its global options, else the environment."""
    return Settings.resolve(
        saves_dir=options.get("--saves-dir"),
        data_dir=options.get("--data-dir"),
        campaign=options.get("--campaign"),
    )


def command_word(args: list[str]) -> str:
    """The command of argv for messages (its first word that is not an option)."""
    word = next((a for a in args if not a.startswith("-")), "")
    return word if word.isidentifier() and len(word) < 20 else "(command)"


def console() -> NoReturn:
    """The `blood` console script: :func:`main` on the command line, then the process ends.

    A short-lived command runs without the garbage collector (reference counting frees what it
    drops; the few cycles it makes die with the process) and ends with ``os._exit`` after its
    output is flushed (:func:`_end`), skipping the interpreter's final collection and module
    teardown. A long-running one (:data:`LONG_RUNNING`) keeps both."""
    args = sys.argv[1:]
    short = not is_long_running(args)
    if short:
        gc.disable()
    quiet_pydantic_plugins()
    code = main(args)
    if short:
        _end(code)
    raise SystemExit(code)


def quiet_pydantic_plugins() -> None:
    """Tell pydantic, for this process, that it has no plugins to look for: unless the
    environment says otherwise, ``PYDANTIC_DISABLE_PLUGINS`` is set (pydantic reads it each
    time it builds a validator, ``pydantic/plugin/_loader.py``). Otherwise its first validator
    scans every installed distribution's entry points, on every command, for plugins blood uses
    none of (issue 29). A value the user set is kept (``""`` turns the scan back on); blood
    starts no other program that would inherit it. The console script only: :func:`main` (the
    tests, an embedding app) leaves pydantic as its host has it."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if "pydantic.plugin._loader" not in sys.modules:
        sys.modules["pydantic.plugin._loader"] = _PluginLoader("pydantic.plugin._loader")


class _PluginLoader(types.ModuleType):
    """Stands in for ``pydantic.plugin._loader`` until plugins are looked for: that module
    imports ``importlib.metadata`` (email, zipfile, csv: a tenth of a recorded step) to find
    entry points that ``PYDANTIC_DISABLE_PLUGINS`` says not to look for. While the variable
    disables them all, :meth:`get_plugins` answers "none" as the real one does; otherwise the
    real module takes its place and answers."""

    @staticmethod
    def get_plugins() -> Any:
        if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in ("__all__", "1", "true"):
            return ()
        import importlib

        sys.modules.pop("pydantic.plugin._loader", None)
        return importlib.import_module("pydantic.plugin._loader").get_plugins()


def is_long_running(args: list[str]) -> bool:
    """True when argv runs a command of :data:`LONG_RUNNING` (its global options skipped)."""
    try:
        _, rest = extract_global_options(args)
    except UsageExit:
        return False
    word = next((a for a in rest if not a.startswith("-")), "")
    once = ONE_SHOT.get(word, ())
    return word in LONG_RUNNING and not any(a.partition("=")[0] in once for a in rest)


def _end(code: int) -> NoReturn:
    """End the process with ``code`` once everything printed is written: ``os._exit`` after
    flushing stdout and stderr. When they cannot be flushed, or a thread still runs, the normal
    exit (which reports the problem, or waits for the thread) is taken instead."""
    streams = (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
    try:
        for stream in streams:
            if stream is not None:
                stream.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as main() does.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            raise SystemExit(code) from None
        os._exit(code)
    except (OSError, ValueError):
        raise SystemExit(code) from None
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        raise SystemExit(code)
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args)
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as other commands in a pipe do.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a real file (tests, an embedding app)
            pass
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence, see unexpected()
        return unexpected(command_word(args), exc, "--json" in args)


def _main(args: list[str]) -> int:
    try:
        check_args(args)
        options, args = extract_global_options(args)
    except UsageExit as exc:
        return usage_error(exc.message, "--json" in args)
    return dispatch(args, settings_from(options))


def dispatch(args: list[str], settings: Settings | None = None) -> int:
    """Run a command whose global options are already taken out (``blood play`` runs `rules`
    and `odds` typed at its prompt through here, with its own settings)."""
    settings = settings if settings is not None else current()
    if os.environ.get("_BLOOD_COMPLETE"):  # the shell asks for completions: the whole app
        from blood_companion.cli.app import run

        return run(args, settings)
    if "--version" in args[:2]:
        from blood_companion.cli.about import is_version_request, print_version

        if is_version_request(args):  # `--version`, `--version --json`, `--json --version`
            return print_version(args, settings)
    if args == ["--help"]:  # the listing, from its stored text while app and terminal are same
        from blood_companion.cli.help_text import help_main

        return help_main(settings)
    if args[:1] == ["rules"] and not ({"--help", "-h"} & set(args)):
        try:
            from blood_companion.cli.rules_fast import fast_main
        except ImportError:  # the fast path is optional; fall back to the full app
            pass
        else:
            return fast_main(args[1:], settings)
    if args[:1] in (["roll"], ["odds"]) and not ({"--help", "-h"} & set(args)):
        # Dice questions at the table: parsed and answered without typer or pydantic.
        from blood_companion.cli.dice_run import fast_main as dice_main

        return dice_main(args[0], args[1:], settings)
    from blood_companion.cli.views import fast_view

    code = fast_view(args, settings)  # a view of an unchanged save, from its cached document
    if code is not None:
        return code
    from blood_companion.cli.record_fast import fast_record

    code = fast_record(args, settings)  # a recorded step (after the views: it imports its
    # group's recorders to look the command up), read from its action's declaration
    if code is not None:
        return code
    from blood_companion.cli.app import run

    return run(args, settings)


if __name__ == "__main__":
    console()
