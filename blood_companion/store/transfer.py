"""Export and import: a campaign as one readable JSON document.

The document (format version 2) holds every step (done, undone, abandoned) with its action,
chance outcomes, delta (step 1: the whole state), state hash, app version and data pack; the
head, the marks and, for people reading it, the state at the head.

Import validates the whole file before a byte is stored (format, strict types, actions, step
numbers, marks), rebuilds every state from the deltas against its hash, and replays every step
of this app and data pack (a forged state is refused); older steps are kept as recorded. Format
1 files (app 0.1.0) are rebuilt like 0.1.0 saves (store/migrations.py). Bounds
(docs/campaigns.md): :data:`MAX_IMPORT_BYTES`, :data:`MAX_STEPS`, JSON a few hundred deep.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import ACTION_SCHEMA, STATE_SCHEMA, upcast_state
from blood_companion.fileio import unlinking
from blood_companion.store import delta as dl
from blood_companion.store import docs, migrations, saves
from blood_companion.store.campaign_store import APP, CampaignStore, parse_stored
from blood_companion.store.docs import Row, canon, hash_text, load_json, to_state
from blood_companion.store.errors import BadNameError, ImportRefused, StoreError
from blood_companion.store.files import build_file
from blood_companion.store.names import check_campaign_name, check_mark_name
from blood_companion.store.repository import replay_one

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

MAX_IMPORT_BYTES = 64 * 1024 * 1024
MAX_STEPS = 50_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True, defer_build=True)  # import only


class _StepV1(_Strict):
    step: StrictInt = Field(ge=1)
    action: dict[str, Any]
    state_hash: str | None = None
    recorded: str | None = None


class _AbandonedV1(_StepV1):
    abandoned: str | None = None
    replaced_at: StrictInt | None = Field(default=None, ge=1)


class _Head(_Strict):  # what both export formats hold besides their steps
    format: str
    format_version: StrictInt
    name: str
    head: StrictInt = Field(ge=1)
    state_hash: str | None = None
    marks: dict[str, StrictInt] = Field(default_factory=dict)


class _DocV1(_Head):
    actions: list[_StepV1] = Field(min_length=1, max_length=MAX_STEPS)
    abandoned: list[_AbandonedV1] = Field(default_factory=list, max_length=MAX_STEPS)
    state: dict[str, Any] | None = None


class _Step(_Strict):
    step: StrictInt = Field(ge=1)
    action: dict[str, Any]
    action_schema: StrictInt = Field(default=1, ge=1)
    chance: list[dict[str, Any]] = Field(default_factory=list)
    delta: list[dict[str, Any]]
    state_hash: str
    app: str
    data: str
    recorded: str | None = None
    exact: StrictBool = True


class _Abandoned(_Step):
    delta: list[dict[str, Any]] | None = None  # type: ignore[assignment]
    state_hash: str | None = None  # type: ignore[assignment]
    app: str = ""
    data: str = ""
    exact: StrictBool = False
    abandoned: str | None = None
    replaced_at: StrictInt = Field(ge=1)


class _Doc(_Head):
    state_schema: StrictInt = Field(default=STATE_SCHEMA, ge=1)
    actions: list[_Step] = Field(min_length=1, max_length=MAX_STEPS)
    abandoned: list[_Abandoned] = Field(default_factory=list, max_length=MAX_STEPS)


def export_campaign(store: CampaignStore, file: Path, *, force: bool = False) -> Path:
    """Write the campaign as JSON to `file` through :func:`fileio.write_file` (atomic, never
    into the saves folder, over a file only with `force`). Raises StoreError."""
    from blood_companion.fileio import FileProblem, write_file

    try:  # refused before the export is built (a large campaign takes a while)
        write_file(file, b"", what="the export file", force=force, saves_dir=store.saves_dir,
                   check_only=True)
        doc = store.export_doc()
        text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
        write_file(file, text.encode("utf-8"), what="the export file", force=force,
                   saves_dir=store.saves_dir)
    except FileProblem as exc:
        raise StoreError(exc.message, hint=exc.hint) from None
    return file


def _refuse(file: Path, problem: str) -> ImportRefused:
    return ImportRefused(
        f"cannot import {file}: {problem}",
        hint="nothing was stored; import a file written by `blood campaign export`",
    )


def _read_bytes(file: Path) -> bytes:
    try:
        info = file.stat()
    except FileNotFoundError:
        raise _refuse(file, "no such file") from None
    except OSError as exc:
        raise _refuse(file, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(file, "it is not a regular file")
    if info.st_size > MAX_IMPORT_BYTES:
        raise _refuse(
            file, f"it is {info.st_size:,} bytes; an export is at most "
            f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB"
        )
    try:
        parts, size = [], 0
        with file.open("rb") as fh:  # in pieces: one read of the bound would allocate it all
            while size <= MAX_IMPORT_BYTES and (part := fh.read(1 << 20)):
                parts.append(part)
                size += len(part)
        raw = b"".join(parts)
    except OSError as exc:
        raise _refuse(file, exc.strerror or str(exc)) from None
    if len(raw) > MAX_IMPORT_BYTES:
        raise _refuse(file, f"it is more than {MAX_IMPORT_BYTES // (1024 * 1024)} MB")
    return raw


def read_import(file: Path) -> _Doc | _DocV1:
    raw = _read_bytes(file)
    try:
        data = load_json(raw.decode("utf-8"))
    except (docs.DeepJson, RecursionError):
        raise _refuse(file, "its JSON is nested too deeply") from None
    except UnicodeDecodeError:
        raise _refuse(file, "it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _refuse(file, f"not valid JSON at line {exc.lineno}, column {exc.colno} "
                            f"({exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != docs.FORMAT:
        raise _refuse(file, f"it is not a campaign export (no \"format\": \"{docs.FORMAT}\")")
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _refuse(file, f"its format_version {str(version)[:20]!r} is not a version number")
    if version > docs.FORMAT_VERSION:
        raise _refuse(
            file, f"export format version {version} was written by a newer Blood Companion "
            f"(app {str(data.get('app_version', '?'))[:20]}); this app, version {APP}, reads up "
            f"to {docs.FORMAT_VERSION}"
        )
    model: type[_Doc] | type[_DocV1] = _DocV1 if version == 1 else _Doc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise _refuse(file, f"{loc}: {err['msg']}") from None
    except RecursionError:
        raise _refuse(file, "its JSON is nested too deeply") from None


def _check_common(file: Path, steps: list[int], head: int, marks_in: dict[str, int]
                  ) -> dict[str, int]:
    if steps != list(range(1, len(steps) + 1)):
        raise _refuse(file, "the steps are not numbered 1, 2, 3, ...")
    if head > len(steps):
        raise _refuse(file, f"head {head} is after the last step ({len(steps)})")
    marks: dict[str, int] = {}
    for mark, step in marks_in.items():
        try:
            mark = check_mark_name(mark)
        except BadNameError as exc:
            raise _refuse(file, exc.message) from None
        if not 1 <= step <= len(steps):
            raise _refuse(file, f"mark {mark!r} names step {step}, which is not in the log")
        marks[mark] = step
    return marks


def _step_action(file: Path, s: _Step) -> tuple[bool, str]:
    """(whether it is a recover marker, the action's stored JSON) of an exported step."""
    marker = s.action.get("type") in docs.MARKERS and s.step > 1
    data = (json.dumps(s.action, ensure_ascii=False) if marker else
            _action_json(file, f"step {s.step}", s.action, s.action_schema))
    if s.step == 1 and not (len(s.delta) == 1 and s.delta[0].get("p") == []):
        raise _refuse(file, "the first step does not hold the whole state")
    return marker, data


def _action_json(file: Path, where: str, action: dict[str, Any], av: int) -> str:
    data = json.dumps(action, ensure_ascii=False)
    try:
        parse_stored(data, av)
    except RuleError as exc:
        raise _refuse(file, f"{where}: {exc.message}") from None
    return data


def import_campaign(
    saves_dir: Path, file: Path, catalog: Catalog, *, name: str | None = None,
    replace: bool = False,
) -> str:
    """Validate, rebuild and check `file`, then store it as campaign `name` (default: the
    file's); `replace` backs up and replaces an existing one. Returns the name. Raises
    ImportRefused (nothing stored), BadNameError or CampaignExists."""
    doc = read_import(file)
    try:
        target = check_campaign_name(name if name is not None else doc.name)
    except BadNameError as exc:
        if name is None:
            raise _refuse(file, exc.message) from None
        raise
    marks = _check_common(file, [s.step for s in doc.actions], doc.head, doc.marks)
    if isinstance(doc, _DocV1):
        rows, snaps, abandoned, meta = _rebuild_v1(file, doc, catalog)
    else:
        rows, snaps, abandoned, meta = _rebuild_v2(file, doc, catalog)
    saves.ensure_dir(saves_dir)
    path = saves.save_path(saves_dir, target)
    swap = replace and path.exists()
    tmp = build_file(saves_dir, target, rows, head=doc.head, snapshots=snaps, meta=meta,
                     marks=marks, abandoned=abandoned, install=not swap)
    if not swap:
        return target
    replaced = False
    with unlinking(tmp):
        try:
            with CampaignStore.open(saves_dir, target, catalog) as old:
                old.replace_file(tmp, "before import")  # under the old file's lock
                replaced = True
        except StoreError:
            if not replaced:  # the old file does not open: kept aside as it is
                backup = saves.new_backup_path(saves_dir, target, "damaged before import")
                os.replace(path, backup)
        if not replaced:
            os.replace(tmp, path)
    return target


Rebuilt = tuple[list[Row], dict[int, tuple[str, str]], list[tuple[Row, str, int]], dict[str, str]]
Streamed = tuple[list[Row], dict[int, tuple[str, str]], dict[str, Any]]  # the first state


def _rebuild_v2(file: Path, doc: _Doc, catalog: Catalog) -> Rebuilt:
    if doc.state_schema > STATE_SCHEMA:
        raise _refuse(file, f"its states were written by a newer Blood Companion (state schema "
                            f"{doc.state_schema}; this app, version {APP}, reads up to "
                            f"{STATE_SCHEMA})")
    streamed = _stream_v2(file, doc, catalog) if doc.state_schema == STATE_SCHEMA else None
    rows, snaps, first = streamed or _rebuild_v2_upcasting(file, doc, catalog)
    if doc.state_hash is not None and doc.state_hash != doc.actions[doc.head - 1].state_hash:
        raise _refuse(file, "the state hash does not match the head of the log")
    return rows, snaps, _abandoned_rows(file, doc), _meta(first, doc.actions[-1].data)


def _meta(first: dict[str, Any], data_fp: str) -> dict[str, str]:
    return {"mode": str(first.get("mode", "")), "seed": str(first.get("seed", 0)),
            "data_fp": data_fp}


def _apply_step(file: Path, s: _Step, raw: Any, texts: dl.CanonText | None = None
                ) -> tuple[Any, str]:
    """The state after step `s` and its canonical text (patched in place when ``texts``
    follows it); the file is refused when the change does not fit or gives another hash."""
    try:
        if texts is None:
            raw = dl.patch(raw if raw is not None else {}, s.delta)
            text = canon(raw)
        else:
            raw = dl.patch({}, s.delta) if raw is None else dl.patch_in_place(raw, s.delta)
            for op in s.delta:
                texts.touch(op)
            text = texts.text(raw)
    except dl.DeltaError as exc:
        raise _refuse(file, f"step {s.step}: its change does not fit ({exc})") from None
    except (TypeError, ValueError, RecursionError):
        raise _refuse(file, f"step {s.step}: its change makes a state that is not "
                            "JSON a save holds") from None
    if hash_text(text) != s.state_hash:
        raise _refuse(file, f"step {s.step}: its state does not match its hash (edited by "
                            "hand, or damaged)")
    return raw, text


def _stream_v2(file: Path, doc: _Doc, catalog: Catalog) -> Streamed | None:
    """:func:`_rebuild_v2` streamed, as `verify` reads (memory flat in the log's length), with
    :func:`_rebuild_v2_upcasting`'s checks; None when a state of an older shape turns up."""
    rows: list[Row] = []
    snaps: dict[int, tuple[str, str]] = {}
    raw: Any = None
    texts = dl.CanonText()
    text = ""
    state: CampaignState | None = None  # the previous step's replay, when it matched
    first: dict[str, Any] = {}
    legacy = True  # steps an app 0.1.0 save was rebuilt with come first, and only then
    for s in doc.actions:
        marker, data = _step_action(file, s)
        before = text
        held = _held(raw) if marker else ""
        raw, text = _apply_step(file, s, raw, texts)
        own = s.state_hash
        if not isinstance(raw, dict) or upcast_state(raw) is not raw:
            return None
        if s.step == 1:
            if not raw.get("started"):
                raise _refuse(file, "the first step does not start a campaign")
            first = {"mode": raw.get("mode", ""), "seed": raw.get("seed", 0)}
        legacy = legacy and s.app == migrations.LEGACY_APP and s.data == "" and not marker
        chance = canon(s.chance) if s.chance else None
        if marker or legacy or s.step == 1:
            try:
                to_state(raw)
            except docs.BadState as exc:
                raise _refuse(file, f"the state at step {s.step}: {exc}") from None
            state = None
        if marker:
            exact = False
            if held != _held(raw):
                _kept_without_action(file, s, json.loads(before), raw)
        elif legacy:
            exact = bool(s.exact)
        elif s.step == 1:
            exact = _revalidate(file, s, data, None, raw, catalog)
        elif s.app != APP:  # an earlier release's step (or refused: _revalidate names the app)
            exact = _revalidate(file, s, data, json.loads(before), raw, catalog)
            state = None
        else:
            problem, state = replay_one(catalog, s.step, (data, s.action_schema, chance), before,
                                        (raw, s.delta), own, state)
            exact = problem is None
            if not exact:  # judged again from the states themselves: refused, with the reason
                exact = _revalidate(file, s, data, json.loads(before), raw, catalog)
                state = None
        rows.append(Row(s.step, str(s.action.get("type", "")), data, s.action_schema, chance,
                        canon(s.delta), own, s.app, s.data, s.recorded or "", int(exact)))
        if docs.is_checkpoint(s.step) or s.step == doc.head:
            snaps[s.step] = (text, own)
    return rows, snaps, first


def _held(doc: Any) -> str:
    return canon({k: doc.get(k) for k in HOLDINGS}) if isinstance(doc, dict) else ""


def _abandoned_rows(file: Path, doc: _Doc) -> list[tuple[Row, str, int]]:
    abandoned: list[tuple[Row, str, int]] = []
    for a in doc.abandoned:
        data = _action_json(file, f"abandoned step {a.step}", a.action, a.action_schema)
        abandoned.append((
            Row(a.step, str(a.action.get("type", "")), data, ACTION_SCHEMA,
                canon(a.chance) if a.chance else None, canon(a.delta) if a.delta else "[]",
                a.state_hash or "", a.app, a.data, a.recorded or "", int(a.exact)),
            a.abandoned or "", a.replaced_at,
        ))
    return abandoned


def _rebuild_v2_upcasting(file: Path, doc: _Doc, catalog: Catalog) -> Streamed:
    """:func:`_rebuild_v2` of older state shapes: each upcast, the changes worked out again."""
    sources: list[docs.StepSource] = []
    states: list[dict[str, Any]] = []
    raw: Any = None
    prev: dict[str, Any] | None = None
    first: dict[str, Any] = {}
    legacy = True  # steps an app 0.1.0 save was rebuilt with come first, and only then
    for s in doc.actions:
        marker, data = _step_action(file, s)
        raw = _apply_step(file, s, raw)[0]
        now_doc = upcast_state(raw)
        if s.step == 1:
            if not isinstance(now_doc, dict) or not now_doc.get("started"):
                raise _refuse(file, "the first step does not start a campaign")
            first = now_doc
        try:
            to_state(now_doc)
        except docs.BadState as exc:
            raise _refuse(file, f"the state at step {s.step}: {exc}") from None
        chance = canon(s.chance) if s.chance else None
        legacy = legacy and s.app == migrations.LEGACY_APP and s.data == "" and not marker
        exact = bool(s.exact or not legacy)  # a replayed step is exact
        if marker:
            exact = _kept_without_action(file, s, prev, now_doc)
        elif not legacy:
            exact = _revalidate(file, s, data, prev, now_doc, catalog)
        sources.append(docs.StepSource(str(s.action.get("type", "")), data, ACTION_SCHEMA, chance,
                                  s.app, s.data, s.recorded or "", int(exact)))
        states.append(now_doc)
        prev = now_doc
    rows, snaps = docs.chain_rows(sources, states, head=doc.head, stamp=False)
    return rows, snaps, first


# Released versions before this one whose steps are kept as recorded where a rule fixed since
# replays them differently (their saves are the golden saves under tests/fixtures/saves/).
EARLIER_RELEASES = frozenset({"0.2.0"})
# What such a step must still give exactly as recorded: what the campaign holds and who plays
# it (the rules fixed since are those of the night's play, not of its rewards), so a forged
# Wagon, trophy or start claiming an earlier release is refused.
HOLDINGS = ("name", "mode", "seed", "started", "wagon", "location_trophies",
            "nemesis_trophies", "vlad_weakened", "resources_earned", "resources_spent",
            "vlad_defeats", "decks")


def _kept_without_action(file: Path, s: _Step, prev: dict[str, Any] | None,
                         now_doc: dict[str, Any]) -> bool:
    """A step `recover` kept without its action cannot be replayed: it is taken (never exact:
    False) only when it changes none of :data:`HOLDINGS`; else a forged state could hide."""
    changed = [k for k in HOLDINGS if (prev or {}).get(k) != now_doc.get(k)]
    if changed:
        raise ImportRefused(
            f"cannot import {file}: step {s.step} was kept by `campaign recover` without its "
            f"action, and it changes what the campaign holds ({', '.join(changed)}); an import "
            "takes only steps it can check",
            hint="nothing was stored; to move this campaign, copy its save file "
            "(NAME.blood.db in the saves folder) instead",
        )
    return False


def _revalidate(file: Path, s: _Step, data: str, prev: dict[str, Any] | None,
                now_doc: dict[str, Any], catalog: Catalog) -> bool:
    """Replay step `s` with its recorded chance from the state before it; refuse the file
    unless it gives the recorded state, whatever pack or "exact" it claims. Only a step of
    :data:`EARLIER_RELEASES` may differ (a rule changed since), keeping :data:`HOLDINGS`, as
    `verify` keeps it. Returns whether it replayed exactly. Raises ImportRefused."""
    if s.app != APP and s.app not in EARLIER_RELEASES:
        raise _refuse(file, f"step {s.step} claims app {s.app[:20]!r}; this app ({APP}) can "
                            "check only its own steps and those of its earlier releases")
    try:
        before = to_state(prev) if prev is not None else CampaignState()
        new = apply(before, parse_stored(data, s.action_schema), catalog, s.step - 1,
                    Chance.replay(s.chance))
    except (RuleError, docs.BadState) as exc:
        raise _refuse(file, f"step {s.step} is refused by the rules: "
                            f"{getattr(exc, 'message', exc)}") from None
    except (ValueError, TypeError, KeyError, IndexError):
        raise _refuse(file, f"step {s.step}: its recorded chance does not fit the step") from None
    replayed = docs.state_doc(new)
    if canon(replayed) != canon(now_doc):
        if s.app != APP and all(replayed.get(k) == now_doc.get(k) for k in HOLDINGS):
            return False  # an earlier release's reading of a rule (or card) changed since
        pack = "" if s.data == catalog.fingerprint() else (
            f" (it was recorded with data pack {s.data[:16]!r}: import it with that data)")
        raise _refuse(file, f"replaying step {s.step} does not give the state recorded in the "
                            f"file (edited by hand, or damaged){pack}")
    return True


def _kept_head(file: Path, doc: _DocV1) -> dict[str, Any]:
    """A format-1 export's head state, checked against the head's hash and as a state;
    :func:`_rebuild_v1` then checks today's rules give it where they play every step."""
    assert doc.state is not None
    recorded = doc.actions[doc.head - 1].state_hash
    if recorded is not None and hash_text(canon(doc.state)) != recorded:
        raise _refuse(file, "the state kept at the head does not match its hash (edited by "
                            "hand, or damaged)")
    try:
        to_state(upcast_state(doc.state))
    except (docs.BadState, TypeError, ValueError, KeyError) as exc:
        raise _refuse(file, f"the state kept at the head is not readable ({exc})") from None
    return doc.state


def _rebuild_v1(file: Path, doc: _DocV1, catalog: Catalog) -> Rebuilt:
    """An app 0.1.0 export: its steps rebuilt like a 0.1.0 save (store/migrations.py)."""
    steps: list[migrations.LegacyStep] = []
    for s in doc.actions:
        data = _action_json(file, f"step {s.step}", s.action, 1)
        steps.append(migrations.LegacyStep(str(s.action.get("type", "")), data, s.state_hash,
                                s.recorded or ""))
    if steps[0].type != "start_campaign":
        raise _refuse(file, "the first step does not start a campaign")
    kept = {doc.head: _kept_head(file, doc)} if doc.state is not None else {}
    rebuilt = migrations.rebuild_steps(steps, kept, catalog)
    if rebuilt[doc.head - 1].differs:  # today's rules play every step up to the head
        raise _refuse(file, f"the state kept at the head (step {doc.head}) is not the one its "
                            "steps rebuild to (edited by hand, or damaged)")
    if not any(r.exact for r in rebuilt):
        raise _refuse(file, "its steps cannot be rebuilt by this version of the rules")
    rows, snaps = migrations.legacy_rows(steps, rebuilt, doc.head)
    abandoned = [
        (migrations.legacy_row(a.step, str(a.action.get("type", "")),
                    _action_json(file, f"abandoned step {a.step}", a.action, 1), a.recorded or ""),
         a.abandoned or "", a.replaced_at or a.step)
        for a in doc.abandoned
    ]
    return rows, snaps, abandoned, _meta(rebuilt[0].doc, "")
