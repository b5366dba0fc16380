"""Shared loading for the Hordes & Heroes tests (no tests here): the real content files, no mocks."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content" / "hordes-and-heroes"
SCHEMAS = ROOT / "schemas"
SCENARIOS = ROOT / "scenarios" / "hordes-and-heroes"
TEMPLATES = ROOT / "templates" / "hordes-and-heroes" / "text.yaml"
GOLDEN = Path(__file__).resolve().parent / "golden"


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def manifest() -> dict:
    return load_yaml(CONTENT / "game.yaml")


@functools.lru_cache(maxsize=None)
def content() -> dict:
    """kind -> items, read through the manifest."""
    out = {}
    for kind, comp in manifest()["components"].items():
        out[kind] = load_yaml(CONTENT / comp["file"])["items"]
    return out


@functools.lru_cache(maxsize=None)
def model():
    from engine.hordes_and_heroes import SPEC
    return SPEC.build_model(content())


def schema(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
