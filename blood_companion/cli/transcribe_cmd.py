"""`blood data transcribe`, `import-text`, `export-text` and `progress`: an owner types their
box over the placeholder cards. The language, the text form, the questions, the overlay writer
and the counts live in ``content/``; this module reads lines, prints, and picks the owner's data
folder (``--data-dir`` / ``BLOOD_DATA_DIR``, else the user data folder)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from blood_companion.cli.common import print_json, settings, stdout, warn_data, write_output
from blood_companion.content.card_text import (
    Known,
    card_text,
    deck_text,
    deck_words,
    field_words,
    name_index,
    plan_import,
    read_cards,
    same_name_warnings,
)
from blood_companion.content.cards import AnswerError, deck_of
from blood_companion.content.errors import ImportRefused, Problem
from blood_companion.content.face import KIND_WORDS
from blood_companion.content.loader import (
    KINDS,
    Catalog,
    load_layers,
    resolve_kind,
    shipped_data_dir,
    user_data_dir,
)
from blood_companion.content.overlay import (
    SUFFIX,
    as_dict,
    check_records,
    file_stem_for,
    find_in_overlay,
    remove_record,
    shipped_order,
    write_records,
)
from blood_companion.content.progress import progress, progress_json
from blood_companion.content.transcribe import (
    MAX_CARD_FILE,
    CardSession,
    clear_draft,
    load_draft,
    long_line_problems,
    queue,
    save_draft,
    too_many_items,
)
from blood_companion.display import clean
from blood_companion.errors import UsageError
from blood_companion.fileio import FileProblem, check_path, folder_problem, is_inside, read_text
from blood_companion.store import CampaignStore, saves

HELP = """\
Type what your card prints. Over a placeholder the card starts empty: Enter means "not on
the card", and a placeholder's value is shown and taken only with y (or `keep`). Over a card
you typed before, Enter keeps the value in [brackets].
Effects: one at a time, as printed ("Target: Enemy (Distance 0-1). Outcome: Wound."),
an empty line when there are no more. At any prompt:
  undo      take back the last answer (at a card's first question: reopen the last card)
  restart   start this card again
  skip      leave this card as it is and go to the next
  show      the card as it is now, in the text form
  help      this text
  quit      stop here (every answer is kept; `blood data transcribe` resumes)"""


def say(text: str) -> None:
    """Print plain words (card names and ids in [brackets] are not rich markup), unwrapped:
    the terminal wraps, so a caret line stays under its word."""
    stdout.print(text, markup=False, soft_wrap=True)


def show(text: Text | str, style: str = "", end: str = "\n") -> None:
    stdout.print(Text(text, style=style) if isinstance(text, str) else text, soft_wrap=True,
                 end=end)


def target_dir() -> Path:
    """Where typed cards are written: --data-dir / BLOOD_DATA_DIR, else the user data folder.
    Raises FileProblem when that is not a folder (a file, a loop of symlinks, ...)."""
    target = settings().data_dir or user_data_dir()
    check_path(target, "the data folder")
    problem = folder_problem(target)
    if problem:
        raise FileProblem(target, "the data folder", problem,
                          hint="pass --data-dir a folder (it is made when missing)")
    return target


def _layers(target: Path) -> list[Path]:
    return [shipped_data_dir(), *([target] if target.is_dir() else [])]


def _catalog(target: Path) -> Catalog:
    """The shipped pack with the owner's folder over it (once it exists)."""
    return warn_data(load_layers(_layers(target)))


def _stem(cat: Catalog, kind: str, record: Any) -> str:
    """The name of the overlay file a typed card is written to (beside where it came from)."""
    origin = cat.origins.get((kind, record.id))
    return file_stem_for(kind, record, origin.file if origin else None)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a loop of symlinks
        return str(path)


# --------------------------------------------------------------------------- progress


def show_progress(as_json: bool) -> None:
    """How much of your box is typed in, per kind and deck.

    Cards transcribed, still placeholder, and holding free-text Effects."""
    cat = _catalog(target_dir())
    if as_json:
        doc = progress_json(cat)
        doc["layers"] = [str(p) for p in cat.layers]
        print_json(doc)
        return
    kinds, total = progress(cat)
    table = Table(title="Transcribed so far", title_justify="left")
    for col, justify in (("kind / deck", "left"), ("cards", "right"), ("transcribed", "right"),
                         ("placeholder", "right"), ("free text", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]

    def row(label: str, t: Any, style: str | None = None) -> None:
        free = f"{t.free_text} ({t.free_text_effects} Effects)" if t.free_text else ""
        table.add_row(label, str(t.total), str(t.transcribed) or "", str(t.placeholder), free,
                      style=style)

    for entry in kinds:
        if not entry.tally.total:
            continue
        row(entry.kind, entry.tally, "bold")
        for deck, tally in entry.decks.items():
            row(f"  {deck}", tally)
    row("all", total, "bold")
    stdout.print(table)
    say(f"Rulebook (printed in the rulebook, nothing to type): {total.rulebook}. "
        f"Layers: {', '.join(_shown(p) for p in cat.layers)}")
    if total.placeholder:
        say("Next: `blood data transcribe` (or `blood data import-text FILE`).")


# --------------------------------------------------------------------------- export-text


def export_text(kind: str, deck: str | None, out: Path | None, force: bool = False) -> None:
    """The cards of a kind in the text form `import-text` reads: a template to type over."""
    key = resolve_kind(kind)
    cat = _catalog(target_dir())
    records = cat.all(key)
    if deck is not None:
        records = [r for r in records if deck_of(key, r) == deck]
        if not records:
            decks = sorted({d for r in cat.all(key) if (d := deck_of(key, r))})
            raise UsageError(f"no {key} deck {deck!r}",
                hint=("decks: " + ", ".join(decks)) if decks else f"{key} has no decks")
    text = deck_text(key, records, deck)
    if out is None:
        # The screen gets the names without control sequences (a name in an overlay could
        # retitle or clear the terminal); the file keeps them as typed, to read back.

        sys.stdout.write(clean(text))
        return

    if out.suffix.lower() in (".yaml", ".yml") and is_inside(out, target_dir()):
        raise FileProblem(out, "the output file", "is in your data folder, where it would be "
                          "read as YAML cards", hint="write the text form elsewhere, e.g. "
                          "cards.txt")
    write_output(out, text, what="the output file", force=force)
    say(f"Wrote {len(records)} {key} cards to {out}. Type over them, then "
        f"`blood data import-text {out} --replace`.")


# --------------------------------------------------------------------------- import-text


def _known(cat: Catalog, target: Path) -> Any:
    def where(kind: str, record_id: str) -> str:
        file, line = cat.origin_line(kind, record_id)
        return f"{file}:{line}" if line else file

    def in_overlay(kind: str, record_id: str) -> tuple[str, bool] | None:
        if not target.is_dir():
            return None
        placed = find_in_overlay(target, kind, record_id)
        if placed is None:
            return None
        return f"{_shown(placed.file)}:{placed.line}", placed.file.name.endswith(SUFFIX)

    return Known(cat, where, in_overlay)


def import_text(file: Path, replace: bool, dry_run: bool, as_json: bool) -> None:
    """Read cards typed in a text file and write them to your data folder.

    One block per card: the name line, `field: value` lines, one Effect per line as printed;
    a heading like `== Corvin ==` or `== Petru: Items ==` names the deck (or a `kind:` block).
    Every problem of every card is reported as file:line [card name] and nothing is written
    (exit code 1); a phrase stored in other words is said."""
    shown = _shown(file)
    try:
        missing = not file.exists() and not file.is_symlink()
    except OSError:  # a name the system refuses (too long): read_text says so
        missing = False
    if missing:
        raise UsageError(f"no such file: {file}")
    try:
        text = read_text(file, limit=MAX_CARD_FILE, what="the card file")
    except FileProblem as exc:
        if "at most" in exc.reason or "larger than" in exc.reason:
            exc.hint = "split it: one file per kind or deck (`blood data export-text KIND`)"
        raise
    target = target_dir()
    cat = _catalog(target)

    def kind_of_id(record_id: str) -> str | None:
        return next((k for k in KINDS if cat.get(k, record_id) is not None), None)

    too_long = long_line_problems(text, shown)
    if too_long:  # refused before parsing: a card's text is bounded
        raise ImportRefused(shown, too_long)
    cards, problems = read_cards(text, shown, kind_of_id, deck_words(cat))
    planned, more = plan_import(cards, shown, _known(cat, target), replace=replace)
    problems += more
    crowded = [Problem(shown, pl.card.line, pl.record.id, why) for pl in planned
               if (why := too_many_items(pl.record))]
    if crowded:  # bounded before the (slower) checks with the whole pack
        raise ImportRefused(shown, problems + crowded)
    if planned:  # every problem in one run: the cards that read are checked with the pack
        by_id = {p.record.id: p.card for p in planned}
        for p in check_records(_layers(target), [(x.kind, x.record) for x in planned]):
            rid, *loc = (p.field or "").split(".")
            if p.file == "(the new cards)" and rid in by_id:
                card = by_id[rid]
                problems.append(Problem(shown, card.line, card.name,
                                        field_words(loc, p.message) if loc else p.message))
            else:
                problems.append(Problem(p.file, p.line, p.field, f"{p.message} (with the new "
                                        "cards)"))
    if not cards and not problems:
        problems.append(Problem(shown, None, None, "no cards found: one block per card, the "
                                "name line first (see `blood data export-text KIND`)"))
    if problems:
        raise ImportRefused(shown, problems)
    written: dict[Path, int] = {}
    if not dry_run:
        target.mkdir(parents=True, exist_ok=True)
        groups: dict[tuple[str, str], list[Any]] = {}
        for pl in planned:
            groups.setdefault((pl.kind, _stem(cat, pl.kind, pl.record)), []).append(pl.record)
        for check in (True, False):  # every file checked before the first is written
            for (kind, stem), records in groups.items():
                path = write_records(target, kind, stem, records, shipped_order(cat, kind),
                                     check_only=check)
                if not check:
                    written[path] = written.get(path, 0) + len(records)
    if as_json:
        print_json({
            "ok": True,
            "dry_run": dry_run,
            "overlay": str(target),
            "cards": [
                {"line": pl.card.line, "kind": pl.kind, "id": pl.record.id, "name": pl.record.name,
                 "replaces": pl.replaces, "kept": pl.kept, "warnings": pl.warnings,
                 "read_as": [{"line": n, "typed": typed, "stored": stored}
                             for n, typed, stored in pl.card.notes],
                 **({"kind_from": "its lines (the heading names its deck)"}
                    if pl.card.inferred else {}),
                 "free_text_effects": pl.card.free_text,
                 "fields": [{"field": f, "value": v, "from": w} for f, v, w in pl.fields]}
                for pl in planned
            ],
            "files": {str(k): v for k, v in written.items()},
        })
        return
    for pl in planned:
        show(Text.assemble(
            ("✓ " if not pl.warnings else "! ", "green" if not pl.warnings else "yellow"),
            f"{shown}:{pl.card.line} {pl.record.name} [{pl.record.id}] ",
            (f"replaces the {pl.replaces} card" if pl.replaces != "new" else "new card", "dim"),
        ))
        if dry_run:
            # every field the card shows, its value and where it came from (issue 27)
            for field_name, value, came_from in pl.fields:
                say(f"    {field_name}: {value}  ← {came_from}")
        if pl.card.inferred:
            say(f"    read as a {KIND_WORDS.get(pl.kind, pl.kind)} (its lines; the heading "
                "names its deck)")
        for n, typed, stored in pl.card.notes:  # never a silent reading
            say(f"    line {n}: '{typed}' is stored as '{stored}'")
        if pl.kept:
            show(f"    not typed and not absent: {', '.join(pl.kept)}", "yellow")
        if pl.card.free_text:
            show(f"    {pl.card.free_text} free-text Effect(s): the table resolves them", "dim")
        for w in pl.warnings:
            show(f"    {w}", "yellow")
    if dry_run:
        say(f"Checked {len(planned)} cards; nothing written (--dry-run).")
    else:
        for path, n in written.items():
            say(f"Wrote {n} card(s) to {_shown(path)}")


# --------------------------------------------------------------------------- transcribe


def campaigns_table(folder: Path) -> list[tuple[list[str], list[str]]]:
    """Per campaign in the saves folder: its Trouper ids and the Nemeses it met or faces.
    Only orders the queue, so anything unreadable is skipped, never an error."""
    out: list[tuple[list[str], list[str]]] = []
    try:
        names = saves.campaign_names(folder)
    except Exception:  # noqa: BLE001 - the store may be mid-rewrite; the order is a nicety
        return out
    for name in names:
        try:
            with CampaignStore.open(folder, name, timeout=0.5) as store:
                state: Any = store.state
        except Exception:  # noqa: BLE001
            continue
        troupers = [t.trouper for t in getattr(state, "troupers", [])]
        nemeses: list[str] = []
        for holder in (getattr(state, "night", None), getattr(state, "day", None),
                       *getattr(state, "history", [])):
            nemesis = getattr(holder, "nemesis", None) if holder is not None else None
            if isinstance(nemesis, str) and nemesis not in nemeses:
                nemeses.append(nemesis)
        out.append((troupers, nemeses))
    return out


class Loop:
    """Reads answers line by line (a script on standard input works too) and writes each card
    as soon as it is confirmed."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.echo = not sys.stdin.isatty()
        self.written = 0
        self.typed: dict[str, Any] = {}  # the cards written this time, by id

    def ask(self, prompt: str) -> str | None:
        while True:
            show(prompt, "green", end="")
            try:
                line = input()
            except EOFError:
                stdout.print()
                return None
            if self.echo:
                show(line, "bold")
            try:
                line.encode("utf-8")
                return line
            except UnicodeEncodeError:  # bytes that are not UTF-8 (a terminal in another
                # encoding): asked again, never kept (the draft and the YAML hold UTF-8 only)
                show(Text.assemble(("✗ ", "red"), "that line is not UTF-8 text; type it again"))

    def run(self, cards: list[Any], cat: Catalog, draft: Any) -> None:
        self.cat = cat
        self.names = name_index(cat)  # the names of the pack as it was when this began
        history: list[dict[str, Any]] = []
        reopen: dict[Any, tuple[Any, list[str]]] = {}
        if draft is not None:
            card, answers = draft
            if cat.get(card.kind, card.id) is not None:
                if card in cards:
                    cards.remove(card)
                cards.insert(0, card)
                reopen[card] = (cat.get(card.kind, card.id), answers)
                show(f"Resuming {card.id}: {len(answers)} answer(s) kept.", "yellow")
        i = 0
        while i < len(cards):
            card = cards[i]
            base, answers = reopen.pop(card, (cat.get(card.kind, card.id), []))
            session = CardSession(card.kind, base, answers)
            self.header(i, len(cards), card, base)
            outcome = self.drive(session, card)
            if outcome == "quit":
                return
            if outcome == "skip":
                clear_draft(self.target)
                i += 1
                continue
            if outcome == "back":
                if not history:
                    show("Nothing to undo before this card.", "yellow")
                    reopen[card] = (base, [])
                    continue
                last = history.pop()
                self.unwrite(last)
                reopen[card] = (base, [])
                reopen[last["card"]] = (last["base"], last["answers"][:-1])
                i = last["index"]
                show(f"Reopened {last['card'].id}; it is not written any more.", "yellow")
                continue
            # done: the card is confirmed
            entry = self.write(card, base, session, i)
            if entry is None:
                session.undo()
                reopen[card] = (base, session.answers)
                continue
            history.append(entry)
            clear_draft(self.target)
            i += 1
        stdout.print()
        say(f"Done: {self.written} card(s) written to {_shown(self.target)}. "
            "`blood data progress` shows what is left.")

    def header(self, i: int, n: int, card: Any, base: Any) -> None:
        stdout.print()
        mark = " (placeholder)" if base.source == "placeholder" else f" ({base.source})"
        show(Text.assemble(
            (f"Card {i + 1} of {n} · {card.kind} · ", "bold"),
            (f"{base.name} [{card.id}]", "bold cyan"),
            (mark, "dim"),
        ))

    def drive(self, session: Any, card: Any) -> str:
        shown_info: tuple[str, ...] = ()
        while True:
            prompt = session.prompt()
            if prompt is None:
                return "done"
            if prompt.info != shown_info:  # not again after a wrong answer
                for line in prompt.info:
                    style = "bold cyan" if line.startswith("Read as") else "dim"
                    show("  " + line, style)
            shown_info = prompt.info
            default = ""
            if prompt.default is not None:
                shown = prompt.default
                if len(shown) > 70:  # a long story: Enter keeps it all
                    shown = shown[:60].rstrip() + "…"
                default = f" [{shown}]"
            line = self.ask(f"{prompt.question}{default}: ")
            if line is None:
                self.stopped(session, card)
                return "quit"
            command = line.strip().casefold()
            if command in ("quit", "exit", "q"):
                self.stopped(session, card)
                return "quit"
            if command == "undo":
                if not session.undo():
                    return "back"
                save_draft(self.target, card, session.answers)
                show("Took back the last answer.", "yellow")
                continue
            if command == "skip":
                show(f"Skipped {card.id}: it stays as it is.", "yellow")
                return "skip"
            if command == "restart":
                session.restart()
                save_draft(self.target, card, session.answers)
                continue
            if command in ("help", "?"):
                say(HELP)
                continue
            if command == "show":
                say(card_text(card.kind, session.base).rstrip())
                continue
            try:
                session.answer(line)
            except AnswerError as exc:
                if exc.pointer:
                    for text in exc.pointer.splitlines():
                        show("  " + text, "red")
                show(Text.assemble(("✗ ", "red"), exc.message))
                if exc.hint:
                    show("  " + exc.hint, "yellow")
                continue
            save_draft(self.target, card, session.answers)

    def stopped(self, session: Any, card: Any) -> None:
        if session.answers:
            save_draft(self.target, card, session.answers)
            kept = f"your {len(session.answers)} answer(s) for {card.id} are kept"
        else:
            clear_draft(self.target)
            kept = "nothing was typed for this card"
        say(f"Stopped: {self.written} card(s) written this time; {kept}. "
            "`blood data transcribe` resumes here.")

    def write(self, card: Any, base: Any, session: Any, index: int) -> dict[str, Any] | None:
        record = session.record
        self.target.mkdir(parents=True, exist_ok=True)
        before = find_in_overlay(self.target, card.kind, card.id)
        if before is not None and not before.file.name.endswith(SUFFIX):
            show(f"✗ {card.id} is in your own file {_shown(before.file)}:{before.line}; edit it "
                 "there (nothing written).", "red")
            return None
        problems = check_records(_layers(self.target), [(card.kind, record)])
        if problems:
            show("✗ This card cannot be written yet:", "red")
            for p in problems:
                rid, *loc = (p.field or "").split(".")
                if p.file == "(the new cards)" and rid == card.id:  # in the card's words
                    p = Problem(record.name, None, None, field_words(loc, p.message))
                show(f"  {p}", "red")
            show("  undo to change an answer, or skip", "yellow")
            return None
        stem = _stem(self.cat, card.kind, record)
        previous = as_dict(base) if before is not None else None
        path = write_records(self.target, card.kind, stem, [record],
                             shipped_order(self.cat, card.kind))
        self.written += 1
        show(Text.assemble(("✓ ", "green"), f"{record.name} [{card.id}] written to {_shown(path)}"))
        # the same warning as import-text: the cards typed this time replace theirs
        self.typed[str(card.id)] = record
        for warning in same_name_warnings(record, self.names, list(self.typed.values())):
            show(f"  {warning}", "yellow")
        return {"card": card, "base": base, "answers": list(session.answers), "index": index,
                "stem": stem, "previous": previous}

    def unwrite(self, entry: dict[str, Any]) -> None:
        card = entry["card"]
        self.typed.pop(str(card.id), None)
        remove_record(self.target, card.kind, entry["stem"], card.id)
        if entry["previous"] is not None:
            model = KINDS[card.kind].model
            write_records(self.target, card.kind, entry["stem"],
                          [model.model_validate(entry["previous"])])
        self.written -= 1


def transcribe(kind: str | None, record_id: str | None, deck: str | None) -> None:
    """Type your cards as printed, one question at a time, over the placeholders.

    The Troupers and Nemeses of your campaigns come first. Each card is written to your data folder
    (--data-dir, else the user data folder) when you confirm it; `undo` at any prompt; quit or
    Ctrl-C at any time and run it again to resume."""
    key = resolve_kind(kind) if kind else None
    target = target_dir()
    target.mkdir(parents=True, exist_ok=True)
    cat = _catalog(target)
    if record_id is not None and not any(cat.get(k, record_id) for k in KINDS):
        raise UsageError(f"no card with id {record_id!r}",
                         hint="`blood data show KIND` lists the ids")
    table = campaigns_table(settings().saves_dir)
    cards = queue(cat, table=table, kind=key, start=record_id, deck=deck)
    draft = load_draft(target) if record_id is None else None
    if draft is not None and key is not None and draft[0].kind != key:
        draft = None
    if not cards and draft is None:
        say("Nothing left to transcribe here: every card is typed in (`blood data progress`).")
        return
    show(f"Transcribing into {_shown(target)} ({len(cards)} card(s) to go). Type `help` at any "
         "prompt.", "bold")
    loop = Loop(target)
    try:
        loop.run(cards, cat, draft)
    except KeyboardInterrupt:
        stdout.print()
        show(f"Interrupted: {loop.written} card(s) written; every answer you gave is kept. "
             "`blood data transcribe` resumes.", "yellow")
        raise typer.Exit(130) from None
