"""Issue 40, item 9: `blood play` with input that is not a terminal stops (exit 1), saying
so, after a bounded run of answers in a row it could not use; a question with no default is
not re-printed for each of 100,000 unusable piped lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _play(tmp_path: Path, data: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "80"}
    env.pop("BLOOD_CAMPAIGN", None)
    return subprocess.run(
        [sys.executable, "-m", "blood_companion", "play", "--new", "flood", "--troupers",
         "ioana,zora", "--seed", "11", "--decks", "app"],
        input=data, capture_output=True, text=True, env=env, timeout=300,
    )


def test_a_flood_of_unusable_lines_stops_after_a_bounded_run(tmp_path: Path) -> None:
    """100,000 lines no question takes: `blood play` stops after 20 in a row with exit 1 and
    a message, printing the question at most about 20 times (before: every line re-printed
    the question, 5,000 lines took 23 s, and it never gave up)."""
    run = _play(tmp_path, "zzz-no-such-choice\n" * 100_000)
    assert run.returncode == 1, run.stderr[-2000:]
    assert "20 answers in a row that could not be used" in run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.count("> zzz-no-such-choice") <= 21  # each answer after its question
    assert len(run.stdout) < 200_000
    # usable answers between unusable ones reset the count: 15 unusable lines, `status`, 15
    # more, then the end of input: never 20 in a row, so play ends at the end of input
    run = _play(tmp_path / "second", "zzz\n" * 15 + "status\n" + "zzz\n" * 15)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "could not be used" not in run.stderr
