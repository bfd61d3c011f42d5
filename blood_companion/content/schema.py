"""JSON Schema of every kind's data file, for an editor to check YAML while someone types cards.

A data file is a list of records, or a mapping with ``defaults:`` (fields every record shares)
and ``records:`` (whose schema then requires nothing). Shipped files point at these schemas with
a ``# yaml-language-server: $schema=...`` first line; ``data/schemas/`` holds them, regenerated
with ``blood data schema --out data/schemas`` (a test checks they are current).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from pydantic import TypeAdapter

from blood_companion.content.loader import KINDS
from blood_companion.rules.entry import json_schema

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def kind_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one kind's data file."""
    model = KINDS[name].model
    record = TypeAdapter(model).json_schema(ref_template="#/$defs/{model}")
    defs = record.pop("$defs", {})
    title = model.__name__
    defs[title] = record
    partial = copy.deepcopy(record)
    partial.pop("required", None)
    partial["title"] = f"{title} (fields not given by the file's defaults)"
    defs[f"{title}Partial"] = partial
    return {
        "$schema": SCHEMA_DIALECT, "title": f"Blood Companion {name}", "$defs": defs,
        "anyOf": [
            {"type": "array", "items": {"$ref": f"#/$defs/{title}"}},
            {
                "type": "object",
                "properties": {
                    "defaults": {"$ref": f"#/$defs/{title}Partial"},
                    "records": {"type": "array", "items": {"$ref": f"#/$defs/{title}Partial"}},
                },
                "required": ["records"], "additionalProperties": False,
            },
        ],
    }


def kind_schemas() -> dict[str, dict[str, Any]]:
    return {name: kind_schema(name) for name in KINDS}


RULES = "rules"  # data/rules/*.yaml: the rules reference, checked by rules/entry.py


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every schema `blood data schema` exports: one per kind, and the rules reference's."""
    return {**kind_schemas(), RULES: json_schema()}


def schema_line(kind: str, in_kind_folder: bool) -> str:
    """The editor modeline for a data file of this kind (first line of the file)."""
    prefix = "../" if in_kind_folder else ""
    return f"# yaml-language-server: $schema={prefix}schemas/{kind}.schema.json"


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as written to a file (stable, so a test can compare)."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
