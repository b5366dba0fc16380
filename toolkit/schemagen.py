"""`hordekit schema --for GAME`: a starting JSON Schema for each component kind, from its items.

A designer who typed a few cards by hand (or imported a sheet) gets completion, hover help and
typo detection at once, then tightens the schema by hand. genson merges the types of every
example item and keeps as required the fields they all have; on top of that each item gets
``additionalProperties: false`` (a misspelt field is an error, with a "did you mean"), ids a
pattern, and text fields with a few repeated values an ``enum`` the editor can complete.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from toolkit.paths import display

ID_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
#: A text field becomes an enum when its items use at most this many distinct values...
ENUM_MAX_VALUES = 8
#: ...and each value appears on average at least this often (otherwise it is free text).
ENUM_MIN_REPEAT = 2.0
MODELINE = "# yaml-language-server: $schema="


class SchemaGenError(ValueError):
    """The schemas cannot be derived as asked (a usage error)."""


def infer_schema(kind: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON Schema (2020-12) of a component file of ``kind`` whose items look like ``items``."""
    from genson import SchemaBuilder

    builder = SchemaBuilder(schema_uri=False)
    builder.add_schema({"type": "object", "properties": {}})
    for item in items:
        builder.add_object(item)
    item_schema = builder.to_schema()
    _tighten(item_schema, items)
    # 'quantity' is optional in every game (default 1): an item added later without it is fine
    if "required" in item_schema:
        item_schema["required"] = [f for f in item_schema["required"] if f != "quantity"]
    quantity = item_schema.get("properties", {}).get("quantity")
    if isinstance(quantity, dict) and quantity.get("type") == "integer":
        quantity.update(default=1, description="Copies of this piece (1 when left out).")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{kind} components",
        "description": f"A file of '{kind}' components. Derived from {len(items)} example item(s) by "
                       "`hordekit schema --for`: tighten it by hand (ranges, enums, descriptions).",
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "items"],
        "properties": {
            "kind": {"const": kind, "description": f"Always '{kind}'."},
            "items": {"type": "array", "minItems": 1, "description": "The components.",
                      "items": {"$ref": "#/$defs/item"}},
        },
        "$defs": {"item": item_schema},
    }


def _tighten(schema: dict[str, Any], examples: list[Any]) -> None:
    """Close objects, pattern ids, enumerate repeated words, describe fields — recursively."""
    if schema.get("type") == "object" and "properties" in schema:
        schema["additionalProperties"] = False
        for name, prop in schema["properties"].items():
            values = [e[name] for e in examples if isinstance(e, dict) and name in e]
            prop.setdefault("description", f"{name} (seen in {len(values)} of {len(examples)} examples)")
            if name == "id" and prop.get("type") == "string":
                prop["pattern"] = ID_PATTERN
            _enum_of_words(prop, values)
            if prop.get("type") == "integer" and values and min(values) >= 0:
                prop["minimum"] = 1 if name == "quantity" else 0  # hordekit counts copies in 'quantity'
            _tighten(prop, values)
    elif schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        _tighten(schema["items"], [v for e in examples if isinstance(e, list) for v in e])


def _enum_of_words(prop: dict[str, Any], values: list[Any]) -> None:
    words = [v for v in values if isinstance(v, str)]
    distinct = sorted(set(words))
    if (prop.get("type") == "string" and words and len(distinct) <= ENUM_MAX_VALUES
            and len(words) / len(distinct) >= ENUM_MIN_REPEAT and all(len(w) <= 40 for w in distinct)):
        prop["enum"] = distinct


def write_game_schemas(game_dir: Path, kinds: list[str] | None = None, force: bool = False,
                       out_dir: Path | None = None) -> list[str]:
    """Write a derived schema for each kind lacking one (all with ``force``); one line per file."""
    from toolkit.atomic import write_text
    from toolkit.games import read_manifest, read_yaml

    game, _, diags = read_manifest(game_dir)
    if game is None:
        raise SchemaGenError(f"{display(game_dir / 'game.yaml')} cannot be read; run hordekit validate")
    unknown = [k for k in kinds or [] if k not in game.kinds]
    if unknown:
        raise SchemaGenError(f"game {game.id} has no component kind '{unknown[0]}' (it has: {', '.join(game.kinds)})")
    lines = []
    components = game.manifest.data.get("components") if isinstance(game.manifest.data, dict) else None
    for kind in game.kinds.values():
        if kinds and kind.name not in kinds:
            continue
        spec = components.get(kind.name) if isinstance(components, dict) else None
        named = spec.get("schema") if isinstance(spec, dict) else None
        if not named:  # the manifest names no schema yet: one named after the kind's file, to add there
            stem = Path(str(spec.get("file") or kind.name)).stem if isinstance(spec, dict) else kind.name
            kind.schema = game.schemas_dir / f"{stem or kind.name}.schema.json"
        target = (out_dir / Path(kind.schema.name)) if out_dir else kind.schema
        if not out_dir and not _inside(target, game_dir):
            raise SchemaGenError(f"the schema of '{kind.name}' is outside the game ({display(target)}): set "
                                 "`schemas: schemas` in game.yaml, or give --out-dir")
        if target.exists() and not force:
            lines.append(f"{display(target)}: exists, kept (--force replaces it)")
            continue
        items = [item for f in kind.files if f.is_file()
                 for item in _items(read_yaml(f)[0].data)]
        if not items:
            lines.append(f"{kind.name}: no items to learn from; write a few first")
            continue
        write_text(target, json.dumps(infer_schema(kind.name, items), indent=2, ensure_ascii=False) + "\n")
        lines.append(f"{display(target)}: derived from {len(items)} {kind.name} item(s)")
        if not named and not out_dir and _add_schema_line(game, kind.name, target.name):
            lines.append(f"{display(game.manifest_file)}: components.{kind.name} now names it "
                         f"(`schema: {target.name}`)")
        elif not named:
            lines.append(f"{display(game.manifest_file)}: add `schema: {target.name}` under components.{kind.name} "
                         "(it names no schema yet)")
        for f in kind.files:
            if f.is_file() and _add_modeline(f, target):
                lines.append(f"{display(f)}: now names its schema for the editor")
    return lines


def _items(data: Any) -> list[dict[str, Any]]:
    items = data.get("items") if isinstance(data, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _add_schema_line(game: Any, kind: str, name: str) -> bool:
    """Write ``schema: NAME`` into the manifest under the kind's ``file:`` line, at its indentation,
    when that entry is written one key to a line; True when written (comments and all else kept)."""
    from toolkit.atomic import write_text

    key = game.manifest.pos(("components", kind, "file"), key=True)
    value = game.manifest.pos(("components", kind, "file"))
    if ("components", kind, "file") not in game.manifest.keys or key.line != value.line:
        return False
    text = game.manifest_file.read_text(encoding="utf-8")
    rows = text.split("\n")
    row = rows[key.line - 1] if 0 < key.line <= len(rows) else ""
    if row[:key.col - 1].strip() or not row[key.col - 1:].startswith("file:"):
        return False  # a flow mapping ({file: x, ...}) or a '- ' list item: the designer adds it
    rows.insert(key.line, " " * (key.col - 1) + f"schema: {name}")
    write_text(game.manifest_file, "\n".join(rows))
    return True


def _add_modeline(component: Path, schema: Path) -> bool:
    """Put the editor's schema line first in a component file that has none; True when added."""
    from toolkit.atomic import write_text

    text = component.read_text(encoding="utf-8")
    if re.search(r"^# yaml-language-server:", text, re.MULTILINE):
        return False
    rel = os.path.relpath(schema.resolve(), component.resolve().parent)
    bom = "\ufeff" if text.startswith("\ufeff") else ""  # a byte order mark stays first, where it belongs
    write_text(component, f"{bom}{MODELINE}{rel}\n{text[len(bom):]}")
    return True
