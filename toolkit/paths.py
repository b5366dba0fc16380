"""Where hordekit's own data lives: built-in schemas, templates and content.

In a source checkout (and an editable install) they sit next to the ``toolkit`` package; a wheel
carries copies under ``toolkit/data/``. Looking in both keeps one code path for either.
"""

from __future__ import annotations

import os
from functools import cache, lru_cache
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
    return _display(str(path), os.getcwd())


@lru_cache(maxsize=4096)
def _display(path: str, cwd: str) -> str:
    """Remembered: loading one game names its files a few hundred times, each a resolve()."""
    try:
        return str(Path(path).resolve().relative_to(_resolved_cwd(cwd)))
    except ValueError:
        return path


@lru_cache(maxsize=64)
def _resolved_cwd(cwd: str) -> Path:
    return Path(cwd).resolve()
