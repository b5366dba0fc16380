"""Find a game's rules engine from its manifest's `rules` value.

A plain name (`kingdoms`) is a package shipped with hordekit (`engine.kingdoms`); any other
name (`mystudio.rules`, `coinrace_rules`) is any importable module with a `SPEC`, so a designer can bring their own
engine without touching hordekit.
"""

from __future__ import annotations

import importlib
from typing import Any


def load_rules(name: str) -> Any:
    """The GameSpec registered by the rules module ``name``."""
    if "." not in name:
        from engine.core.registry import load_spec

        try:
            return load_spec(name)
        except ModuleNotFoundError as exc:
            if exc.name not in (f"engine.{name}", "engine"):
                raise  # the package exists but one of its own imports is broken
    module = importlib.import_module(name)
    spec = getattr(module, "SPEC", None)
    if spec is None:
        raise LookupError(f"{name} has no SPEC")
    return spec
