"""Data-pack errors: one message per problem, each naming file, line, field and what was wrong."""

from __future__ import annotations

from typing import NamedTuple

from blood_companion.errors import BloodError


class Problem(NamedTuple):
    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        field = f" [{self.field}]" if self.field else ""
        return f"{where}{field}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "field": self.field, "message": self.message}


# Problems printed (and listed in JSON) at most; the rest are counted ("and N more").
SHOWN_PROBLEMS = 50
LISTED_PROBLEMS = 1000


class ContentError(BloodError):
    """The data pack (shipped or an overlay) has one or more problems."""

    def __init__(self, problems: list[Problem]) -> None:
        problems = sorted(problems, key=lambda p: (p.file, p.line or 0))
        self.problems = problems
        n = len(problems)
        lines = "\n".join(f"  {p}" for p in problems[:SHOWN_PROBLEMS])
        if n > SHOWN_PROBLEMS:
            lines += f"\n  ... and {n - SHOWN_PROBLEMS} more"
        super().__init__(
            f"the data pack has {n} problem{'s' if n != 1 else ''}:\n{lines}",
            hint="fix the files named above; `blood data validate DIR` checks a folder",
        )

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {"ok": False,
                                  "errors": [p.to_json() for p in self.problems[:LISTED_PROBLEMS]]}
        if len(self.problems) > LISTED_PROBLEMS:
            doc["more_errors"] = len(self.problems) - LISTED_PROBLEMS
        return doc


class ImportRefused(ContentError):
    """A text file of cards with problems: nothing of it was written."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        super().__init__(problems)
        n = len(self.problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        self.message = f"{file}: {n} problem{'s' if n != 1 else ''}; nothing was written:\n{lines}"
        self.hint = "fix the lines named above and run the same command again"
        self.args = (self.message,)
