"""Find a game's registration by its rules id (`engine.<rules_id>.SPEC`)."""
from __future__ import annotations

import importlib

from engine.core.api import GameSpec


def load_spec(rules_id: str) -> GameSpec:
    """Import engine.<rules_id> and return its SPEC; a game id with '-' is accepted too."""
    name = rules_id.replace("-", "_")
    if not name.isidentifier():
        raise ValueError(f"not a rules package name: {rules_id!r}")
    module = importlib.import_module(f"engine.{name}")
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise LookupError(f"engine.{name} has no SPEC of type GameSpec")
    return spec
