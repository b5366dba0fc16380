"""The schemas themselves: valid 2020-12, documented for editors, strict about unknown keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from conftest import ROOT

SCHEMAS = sorted((ROOT / "schemas").rglob("*.schema.json"))


CONDITIONS = ("/if", "/not", "/contains", "/propertyNames")


def _objects(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object, except conditions (if/not/contains), which only test a shape."""
    if path.endswith(CONDITIONS):
        return
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _objects(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _objects(v, f"{path}/{i}")


def test_there_are_schemas() -> None:
    assert len(SCHEMAS) >= 3


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: str(p.relative_to(ROOT)))
def test_schema_is_valid_2020_12(path: Path) -> None:
    schema = json.loads(path.read_text())
    assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_property_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text())
    missing = []
    for where, obj in _objects(schema):
        for name, sub in (obj.get("properties") or {}).items():
            if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                missing.append(f"{where}/properties/{name}")
            if isinstance(sub, dict) and "$ref" in sub and "description" not in sub:
                missing.append(f"{where}/properties/{name} ($ref without a description)")
    assert not missing, missing


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: str(p.relative_to(ROOT)))
def test_objects_refuse_unknown_keys(path: Path) -> None:
    schema = json.loads(path.read_text())
    open_objects = [where for where, obj in _objects(schema)
                    if "properties" in obj and obj.get("additionalProperties") is not False
                    and "unevaluatedProperties" not in obj and "/oneOf/" not in where + "/"]
    # Effect branches inside oneOf must be closed too.
    open_objects += [where for where, obj in _objects(schema)
                     if "/oneOf/" in where + "/" and "properties" in obj
                     and obj.get("additionalProperties") is not False]
    assert not open_objects, open_objects
