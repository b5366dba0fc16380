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
    """A path as a designer wants to read it, the way compilers print it: relative to the working
    folder when inside it; above it (``../cards.yaml``) when that is shorter than the absolute path
    and the two share a folder below the root; else absolute."""
    return _display(str(path), os.getcwd())


@lru_cache(maxsize=4096)
def _display(path: str, cwd: str) -> str:
    """Remembered: loading one game names its files a few hundred times, each a resolve()."""
    resolved, here = Path(path).resolve(), _resolved_cwd(cwd)
    try:
        return str(resolved.relative_to(here))
    except ValueError:
        pass
    try:
        shared = Path(os.path.commonpath([resolved, here]))
        relative = os.path.relpath(resolved, here)
    except ValueError:  # another drive: no relative path exists
        return path
    if shared == Path(shared.anchor):  # only the root in common: /tmp/x seen from /home/y
        return path
    absolute = path if Path(path).is_absolute() else str(resolved)
    return relative if len(relative) < len(absolute) else absolute


@lru_cache(maxsize=64)
def _resolved_cwd(cwd: str) -> Path:
    return Path(cwd).resolve()
