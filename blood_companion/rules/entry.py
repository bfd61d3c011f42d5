"""One entry of the rules reference (``data/rules/*.yaml``) and the checks a raw entry must pass.

Plain classes, not pydantic: the lookup path must not pay for importing pydantic. The checks
run only when the reference is (re)compiled from YAML, never on a cached lookup.
"""

from __future__ import annotations

from blood_companion.display import excerpt

KINDS = (
    "keyword",  # an Element keyword: Step, Push, Draw, Summon...
    "symbol",  # an Element symbol: wound, bite, exhausted
    "phase",  # a part, phase or ordered procedure of the game flow
    "procedure",  # an ordered procedure that is not a phase (a Test, wounding a Nemesis)
    "concept",  # a rule or term (Threat, Insanity, Path)
    "component",  # what a game component is and how it is used
    "mode",  # a game mode
    "gap",  # a printed gap or contradiction, with the choice the app made
)
# The words of `blood rules` that name an entry instead of searching (`blood rules keyword
# push`), the kinds each looks in and what they are called in a hint.
NAMED = {"keyword": (("keyword", "symbol"), "keywords and symbols"),
         "phase": (("phase", "procedure"), "phases and procedures")}
SOURCES = ("rulebook", "placeholder")
REQUIRED = ("id", "title", "section", "kind", "text")
LIST_FIELDS = ("steps", "related", "aliases", "tags")
# What the rulebook does not say but the app decided (a reading, a gap filled, what the app does
# for the table), kept apart from ``text`` (the rulebook's own rule, in our words) and linked to
# its entry in docs/rules-decisions.md: both or neither.
DECISION_FIELDS = ("decision", "decision_link")
DECISIONS_DOC = "docs/rules-decisions.md"
LINK_PATTERN = "^docs/rules-decisions\\.md#[a-z0-9-]+$"
ALLOWED = (*REQUIRED, *LIST_FIELDS, "source", *DECISION_FIELDS)


class RuleEntry:
    """A rules reference entry. ``steps`` is the ordered procedure (phases), maybe empty."""

    __slots__ = (*ALLOWED, "file")

    def __init__(
        self, id: str, title: str, section: str, kind: str, text: str,
        steps: list[str] | None = None, related: list[str] | None = None,
        aliases: list[str] | None = None, tags: list[str] | None = None, source: str = "rulebook",
        decision: str = "", decision_link: str = "", file: str = "",
    ) -> None:
        self.id, self.title, self.section, self.kind, self.text = id, title, section, kind, text
        self.steps, self.related, self.aliases, self.tags = (
            list(words or []) for words in (steps, related, aliases, tags))
        self.source, self.file = source, file
        self.decision, self.decision_link = decision, decision_link

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self) -> str:
        return f"RuleEntry({self.id!r})"


def check_raw(raw: object, where: str) -> tuple[RuleEntry | None, list[str]]:
    """Check one raw YAML entry; return the entry (or None) and the problems found.

    ``where`` names the file and line for the messages ("data/rules/keywords.yaml:12").
    """
    import re  # here: a cached lookup imports no re

    problems: list[str] = []
    if not isinstance(raw, dict):
        return None, [f"{where}: an entry must be a mapping, found {type(raw).__name__}"]
    ident = raw.get("id")
    label = f"{where} ({ident})" if isinstance(ident, str) else where
    for key in raw:
        if key not in ALLOWED:
            problems.append(
                f"{label}: unknown field {excerpt(key)} (allowed: {', '.join(ALLOWED)})"
            )
    for key in REQUIRED:
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{label}: field {key!r} must be a non-empty string")
    if isinstance(ident, str) and not re.fullmatch(ID_PATTERN, ident):
        problems.append(f"{label}: id must be lower-case letters, digits and dashes")
    kind = raw.get("kind")
    if isinstance(kind, str) and kind not in KINDS:
        problems.append(f"{label}: kind {excerpt(kind)} is not one of {', '.join(KINDS)}")
    source = raw.get("source", "rulebook")
    if source not in SOURCES:
        problems.append(f"{label}: source must be one of {', '.join(SOURCES)}")
    for key in ("aliases", "tags"):
        # A bare number in a tag list ("0-1" is a string, but 3 is not) is meant as text.
        value = raw.get(key)
        if isinstance(value, list):
            raw = {**raw, key: [str(v) if isinstance(v, int | float) else v for v in value]}
    for key in LIST_FIELDS:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            problems.append(f"{label}: field {key!r} must be a list of strings")
    given = [key for key in DECISION_FIELDS if key in raw]
    for key in given:
        value = raw[key]
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{label}: field {key!r} must be a non-empty string")
    if len(given) == 1:
        problems.append(f"{label}: 'decision' and 'decision_link' go together (the app's choice "
                        f"and where {DECISIONS_DOC} explains it)")
    link = raw.get("decision_link")
    if isinstance(link, str) and link.strip() and not re.fullmatch(LINK_PATTERN, link.strip()):
        problems.append(f"{label}: decision_link must be {DECISIONS_DOC}#a-heading, "
                        f"found {excerpt(link)}")
    if problems:
        return None, problems
    entry = RuleEntry(
        id=raw["id"], title=raw["title"].strip(), section=raw["section"].strip(), kind=raw["kind"],
        text=_paragraphs(raw["text"]), steps=[" ".join(s.split()) for s in raw.get("steps", [])],
        related=list(raw.get("related", [])), aliases=list(raw.get("aliases", [])),
        tags=list(raw.get("tags", [])), source=source,
        decision=_paragraphs(raw.get("decision", "")),
        decision_link=raw.get("decision_link", "").strip(), file=where.rsplit(":", 1)[0],
    )
    return entry, []


def _paragraphs(text: str) -> str:
    # Folded YAML keeps blank lines between paragraphs; everything else becomes one space.
    paras = (" ".join(p.split()) for p in text.split("\n\n"))
    return "\n\n".join(p for p in paras if p)


ID_PATTERN = "^[a-z0-9][a-z0-9-]{0,63}$"  # what check_raw takes


def json_schema() -> dict[str, object]:
    """The JSON Schema of a rules file (``data/rules/*.yaml``: a list of entries), from the same
    tables :func:`check_raw` reads, so an editor checks an entry as the loader does.
    (``check_raw`` also takes a bare number in ``aliases`` and ``tags`` as text; so does this.)"""
    text = {"type": "string", "minLength": 1, "pattern": "\\S"}
    words = {"type": "array", "items": {"type": "string", "minLength": 1}}
    loose = {"type": "array", "items": {"anyOf": [{"type": "string", "minLength": 1},
                                                  {"type": "number"}]}}
    props: dict[str, object] = {key: text for key in REQUIRED}
    props["id"] = {"type": "string", "pattern": ID_PATTERN}
    props["kind"] = {"enum": list(KINDS)}
    props["source"] = {"enum": list(SOURCES)}
    for key in LIST_FIELDS:
        props[key] = loose if key in ("aliases", "tags") else words
    props["decision"] = text
    props["decision_link"] = {"type": "string", "pattern": LINK_PATTERN}
    entry = {
        "type": "object", "properties": props, "required": list(REQUIRED),
        "dependentRequired": {"decision": ["decision_link"], "decision_link": ["decision"]},
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Blood Companion rules",
        "$defs": {"RuleEntry": entry},
        "type": ["array", "null"],  # an empty file has no entries
        "items": {"$ref": "#/$defs/RuleEntry"},
    }


def check_links(entries: list[RuleEntry]) -> list[str]:
    """Problems across entries: related ids that name no entry, or an entry related to itself."""
    ids = {e.id for e in entries}
    problems = []
    for e in entries:
        for r in e.related:
            if r == e.id:
                problems.append(f"{e.file} ({e.id}): related lists the entry itself")
            elif r not in ids:
                problems.append(f"{e.file} ({e.id}): related id {excerpt(r)} names no entry")
    return problems
