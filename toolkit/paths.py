"""Where hordekit's own data lives: built-in schemas, templates and content.

In a source checkout (and an editable install) they sit next to the ``toolkit`` package; a wheel
carries copies under ``toolkit/data/``. Looking in both keeps one code path for either.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The built-in folder ``name`` (schemas, templates, content, scenarios, starters)."""
    for candidate in (_HERE / "data" / name, _HERE.parent / name):
        if candidate.is_dir():
            return candidate
    return _HERE.parent / name


def display(path: Path) -> str:
    """A path as a designer wants to read it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
