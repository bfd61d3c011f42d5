"""The `blood` console script.

Kept tiny on purpose: `blood rules ...`, `blood --version` and an unchanged `blood status`
answer without importing typer, pydantic or the data pack, so a lookup at the table costs
less than those imports (bench/cli.py, bench/status.py measure it). Everything else goes to
the typer app in ``cli.app``.
"""

from __future__ import annotations

import os
import sys

# Global options that may appear anywhere on the command line; they become environment
# variables so every command (and the fast path) reads them from one place (cli.common.settings).
GLOBAL_OPTIONS = {
    "--saves-dir": "BLOOD_SAVES_DIR",
    "--data-dir": "BLOOD_DATA_DIR",
    "--campaign": "BLOOD_CAMPAIGN",
}


def extract_global_options(argv: list[str]) -> list[str]:
    """Move global options out of argv into the environment; return the remaining argv.

    Raises SystemExit(2) when such an option is missing its value.
    """
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
                    sys.stderr.write(f"Error: option {name} needs a value.\n")
                    raise SystemExit(2)
                value = argv[i + 1]
                i += 1
            os.environ[GLOBAL_OPTIONS[name]] = value
        else:
            rest.append(arg)
        i += 1
    return rest


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        args = extract_global_options(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args[:1] == ["--version"]:
        from blood_companion import __version__

        print(f"blood-companion {__version__}")
        return 0
    if args[:1] == ["rules"] and not ({"--help", "-h"} & set(args)):
        try:
            from blood_companion.cli.rules_fast import fast_main
        except ImportError:  # the fast path is optional; fall back to the full app
            pass
        else:
            return fast_main(args[1:])
    if args[:1] == ["status"]:
        # A cached status document renders without the engine (cli/status_fast.py).
        from blood_companion.cli.status_fast import fast_status

        code = fast_status(args[1:])
        if code is not None:
            return code
    from blood_companion.cli.app import run

    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
