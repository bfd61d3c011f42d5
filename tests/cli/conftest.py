from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.entry import main


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)


@pytest.fixture()
def blood(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """Run `blood ARGS...` in-process; returns exit code, stdout and stderr."""

    def run(*args: str) -> Result:
        code = main(list(args))
        cap = capsys.readouterr()
        return Result(code, cap.out, cap.err)

    return run


def blood_exe() -> list[str]:
    script = Path(sys.executable).with_name("blood")
    if script.exists():
        return [str(script)]
    found = shutil.which("blood")
    return [found] if found else [sys.executable, "-m", "blood_companion"]


@pytest.fixture()
def blood_proc():  # type: ignore[no-untyped-def]
    """Run the installed `blood` as a separate process."""

    def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Result:
        full_env = {**os.environ, **(env or {}), "NO_COLOR": "1", "COLUMNS": "100"}
        p = subprocess.run(
            [*blood_exe(), *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=full_env,
            timeout=120,
        )
        return Result(p.returncode, p.stdout, p.stderr)

    return run
