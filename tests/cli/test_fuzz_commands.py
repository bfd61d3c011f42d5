"""Every command of the tree against hostile strings: never a traceback (issue 14, Proof).

Hypothesis draws a command from typer's own command list and fills its arguments and options
with hostile text (empty, 10,000 characters, control and right-to-left characters, bytes that
are not UTF-8, ``²``, 5,000 digits, ``../``, ``?#%``...), sometimes with hostile global options
too, and runs it in-process against a campaign in the middle of a night. Each run must end with
exit code 0, 1 or 2, print no traceback, not need the last line of defence, and print no escape
code. Afterwards no file may exist outside the saves folder except where a command was told to
write (an export file, a schema folder, a --saves-dir).

``BLOOD_FUZZ_EXAMPLES`` changes the number of examples (2,000 by default, about 10 s);
``BLOOD_FUZZ_RANDOM=1`` draws new examples each run instead of the same ones (for hunting).
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blood_companion.cli.app import app
from blood_companion.cli.entry import GLOBAL_OPTIONS, main

EXAMPLES = int(os.environ.get("BLOOD_FUZZ_EXAMPLES", "2000"))
NIGHT = [
    "night", "setup", "--nemesis", "corvin", "--location", "catacombs-ossuary-gallery",
    "--minions", "undead-bone-sentinel,ghoul-crypt-gnawer", "--difficulty", "1",
]
HOSTILE = [
    "",
    " ",
    "x" * 10_000,
    "A" * 300,
    "\x1b]0;pwned\x07\x1b[2J",
    "\x00\x01\x7f\x9b",
    "tab\there\nnewline",
    "\u202eevil\u202c",
    "\u05e9\u05dc\u05d5\u05dd",  # right-to-left text
    os.fsdecode(b"\xff\xfe"),  # bytes that are not UTF-8, as Python puts them in argv
    "caf" + os.fsdecode(b"\xe9"),
    "²",
    "٣",
    "1" * 5000,
    "9" * 4000 + "R",
    "-1",
    "0",
    "1",
    "3",
    "99999999999999999999",
    "1.5",
    "../",
    "../../etc/passwd",
    "?#%",
    "room #2",
    "%00%2e%2e",
    "/dev/zero",
    "--json",
    "-",
    "push",
]
# Ordinary values, so that commands also get past their first check now and then.
ORDINARY = ["aurel", "zora", "demo", "1", "2", "R G B", "2R B", "strength", "physical",
            "corvin", "coins=2", "none", "all", "before lucilla", "lucilla-r01"]
VALUES = st.one_of(st.sampled_from(HOSTILE), st.sampled_from(ORDINARY), st.text(max_size=12))
# Options whose value is a place the command is asked to write to (checked at the end): an
# export file, a folder of *.schema.json files, a saves folder.
# `blood report` writes blood-report-NAME.json in the working folder unless --out says where.
WRITES = {("campaign", "export"): "file", ("report",): "--out", ("data", "schema"): "--out"}
SAVES_LAYOUT = (".backups", ".cache", ".last-campaign")
CAMPAIGNS = ["demo", "room #2 50%"]
OTHER_SAVES = ["../games?y"]  # relative to the working folder: the test's root
# Options that make a command run until Ctrl-C (a server): the command is fuzzed without them
# (tests/cli/test_board_serve.py tests the server's own bad input).
UNTIL_INTERRUPTED = {("board", "--serve")}


def _commands() -> list[tuple[tuple[str, ...], Any]]:
    out: list[tuple[tuple[str, ...], Any]] = []

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in sorted(subs.items()):
                walk(sub, (*path, name))
        else:
            out.append((path, cmd))

    walk(typer.main.get_command(app), ())
    return out


COMMANDS = _commands()


@st.composite
def invocations(draw: st.DrawFn) -> tuple[list[str], list[tuple[str, str]]]:
    """(argv, the places in it that the command was told to write to, as (kind, path))."""
    path, cmd = draw(st.sampled_from(COMMANDS))
    args = list(path)
    writes: list[tuple[str, str]] = []
    for param in cmd.params:
        if (*path, param.opts[0]) in UNTIL_INTERRUPTED:
            continue
        flag = getattr(param, "is_flag", False) or param.opts[0] == "--json"
        if flag:
            if draw(st.booleans()):
                args.append(param.opts[0])
            continue
        if not param.required and draw(st.integers(0, 2)) == 0:
            continue
        value = draw(VALUES)
        if param.param_type_name == "argument":
            args.append(value)
        else:
            args += [param.opts[0], value]
        if WRITES.get(path) in (param.name, param.opts[0]):
            writes.append(("schemas" if path == ("data", "schema") else "file", value))
    if draw(st.integers(0, 5)) == 0:
        option = draw(st.sampled_from(sorted(GLOBAL_OPTIONS)))
        # Half the time a campaign or a saves folder that exists, with '#', '%' or '?' in its
        # name (the status fast path built its SQLite address from them).
        known = {"--campaign": CAMPAIGNS, "--saves-dir": OTHER_SAVES}.get(option)
        value = draw(st.sampled_from(known) if known and draw(st.booleans()) else VALUES)
        args = [option, value, *args] if draw(st.booleans()) else [*args, f"{option}={value}"]
        if option == "--saves-dir":
            writes.append(("saves", value))
    return args, writes


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    root = tmp_path_factory.mktemp("fuzz")
    places = {"root": root, "cwd": root / "cwd", "saves": root / "saves"}
    places["cwd"].mkdir()
    saved_env = {k: os.environ.get(k) for k in ("BLOOD_SAVES_DIR", *GLOBAL_OPTIONS.values(),
                                                 "NO_COLOR", "COLUMNS")}
    old_cwd = os.getcwd()
    # A command that reads without bound (an import of /dev/zero did) fails with MemoryError
    # here instead of taking the machine's memory.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = 6 << 30 if hard == resource.RLIM_INFINITY else min(hard, 6 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (cap if soft == resource.RLIM_INFINITY else
                                            min(soft, cap), hard))
    os.chdir(places["cwd"])
    os.environ.update(BLOOD_SAVES_DIR=str(places["saves"]), NO_COLOR="1", COLUMNS="80")
    for key in ("BLOOD_DATA_DIR", "BLOOD_CAMPAIGN"):
        os.environ.pop(key, None)
    try:
        for args in (["campaign", "new", "room #2 50%", "--troupers", "zora"],
                     ["status"],  # cached: `--campaign 'room #2 50%' status` takes the fast path
                     ["--saves-dir", OTHER_SAVES[0], "campaign", "new", "c", "--troupers", "zora"],
                     ["--saves-dir", OTHER_SAVES[0], "status"],
                     ["campaign", "new", "demo", "--troupers", "aurel,zora", "--mode", "single",
                      "--seed", "7"], NIGHT):
            code, out, err = run(args)
            assert code == 0, err
        yield places
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        os.chdir(old_cwd)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = {k: os.environ.get(k) for k in GLOBAL_OPTIONS.values()}
    stdin = sys.stdin
    sys.stdin = io.StringIO("")  # `blood play` and prompts see the end of input
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        sys.stdin = stdin
        for key, value in env.items():  # global options typed in argv end with the run
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return code, out.getvalue(), err.getvalue()


ALLOWED: dict[str, set[Path]] = {"file": set(), "schemas": set(), "saves": set()}


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=not os.environ.get("BLOOD_FUZZ_RANDOM"),
    suppress_health_check=list(HealthCheck),
)
@given(invocation=invocations())
def test_no_command_crashes_on_hostile_input(
    table: dict[str, Path], invocation: tuple[list[str], list[tuple[str, str]]]
) -> None:
    args, writes = invocation
    for kind, place in writes:
        with contextlib.suppress(ValueError):
            ALLOWED[kind].add(Path(os.path.abspath(place or ".")))
    code, out, err = run(args)
    assert code in (0, 1, 2), (args, code, err[-500:])
    assert "Traceback" not in out + err, (args, err[-2000:])
    assert "unexpected" not in err, (args, err)
    assert "\x1b" not in out + err, (args, out[-300:], err[-300:])


def test_nothing_was_written_outside_the_saves_folder(table: dict[str, Path]) -> None:
    """Runs after the fuzz test (same module, file order): every path under the test's root is
    in the saves folder, or is what a command was told to write: an export file, a schema file
    in an --out folder, a save's files in a --saves-dir folder, or a folder on the way there."""
    saves_roots = {table["saves"], table["cwd"].parent / "games?y", *ALLOWED["saves"]}
    targets = {table["cwd"], *saves_roots, *ALLOWED["file"], *ALLOWED["schemas"]}

    def ok(path: Path) -> bool:
        if table["saves"] in path.parents or any(path in t.parents or path == t for t in targets):
            return True
        if path.parent in ALLOWED["schemas"] and path.name.endswith(".schema.json"):
            return True
        if path.parent == table["cwd"] and path.name.startswith("blood-report-") \
                and path.name.endswith(".json"):
            return True  # `blood report`'s own file, where no --out was given
        return any(
            root in path.parents
            and (path.relative_to(root).parts[0] in SAVES_LAYOUT
                 or path.relative_to(root).parts[0].endswith(".blood.db"))
            for root in saves_roots
        )

    stray = [p for p in table["root"].rglob("*") if not ok(p)]
    assert not stray, stray[:10]
    assert table["saves"].is_dir()
