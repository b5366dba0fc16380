"""Find a game's rules engine from its manifest's `rules` value.

Three forms, and only these:

- a plain name (`kingdoms`): a package shipped with hordekit (`engine.kingdoms`);
- a dotted module name (`mystudio.rules`): a module installed in the environment (pip install)
  or on a ``PYTHONPATH`` the user set themselves;
- a file ending in ``.py`` (`rules.py`): a module inside the game's own folder, which the
  manifest names explicitly. ``read_manifest`` resolves it to an absolute path; it is code the
  designer trusts, run by every command that plays or checks the game.

A module is never imported from the current working folder: ``python -m toolkit`` puts that
folder first on ``sys.path``, so a manifest naming ``evil`` would otherwise run an ``evil.py``
planted beside it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

RULES_FILE_SUFFIX = ".py"


def is_rules_file(name: str) -> bool:
    """Whether a manifest's `rules` value names a Python file rather than a module."""
    return name.endswith(RULES_FILE_SUFFIX)


def rules_label(name: str) -> str:
    """A manifest's `rules` as a designer reads it: a rules file by its path from the working
    folder (the manifest holds it resolved, absolute), a module by its name."""
    if is_rules_file(name):
        from toolkit.paths import display

        return display(Path(name))
    return name


@dataclass(frozen=True)
class RulesFrame:
    """One line of a game's own rules code that an exception passed through."""

    file: str  # as the designer reads it (toolkit.paths.display)
    line: int
    name: str  # the function
    code: str  # the line of code, stripped
    col: int = 1  # of the expression that failed, where Python says


def _in_rules_code(filename: str) -> bool:
    """Whether a frame's file is the game's own rules code: not hordekit's own machinery (the
    toolkit, the engine core), not Python's library, and a file there is."""
    import sysconfig

    import engine.core
    import toolkit

    own = [Path(toolkit.__file__).resolve().parent, Path(engine.core.__file__).resolve().parent,
           Path(sysconfig.get_paths()["stdlib"]).resolve()]
    path = Path(filename)
    return path.is_file() and not any(path.resolve().is_relative_to(d) for d in own)


def rules_frames(exc: BaseException, most: int = 8) -> list[RulesFrame]:
    """Where in the game's own rules code ``exc`` passed, innermost last (at most ``most``):
    hordekit's own machinery (the toolkit, the engine core) and Python's library are left out, so
    what remains is the rules file (or installed rules module) a designer can fix."""
    import traceback

    from toolkit.paths import display

    out = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if not _in_rules_code(frame.filename):
            continue
        col = getattr(frame, "colno", None)
        out.append(RulesFrame(display(Path(frame.filename)), frame.lineno or 1, frame.name, (frame.line or "").strip(),
                              col + 1 if isinstance(col, int) else 1))
    return out[-most:]


def failure_text(record: Any) -> str | None:
    """A played game's error (an ``engine.core.driver.GameRecord``), its place named as the rest of
    hordekit's output names it: ``step 4: ZeroDivisionError: division by zero
    (content/trail/rules.py:108)``, the innermost line of the game's own rules code it passed,
    as ``replay`` lists them; hordekit's own place (``driver.py:124``) when it passed none."""
    if record.error is None:
        return None
    from toolkit.paths import display

    inner = [(file, line) for file, line in record.error_frames if _in_rules_code(file)]
    if not inner or record.failure is None:
        return record.error
    file, line = inner[-1]
    return f"{record.failure} ({display(Path(file))}:{line})"


def load_rules(name: str) -> Any:
    """The GameSpec registered by the rules module or rules file ``name``."""
    if is_rules_file(name):
        return _spec_of(_load_file(Path(name)), name)
    if "." not in name:
        from engine.core.registry import load_spec

        try:
            with _without_current_folder():
                return load_spec(name)
        except ModuleNotFoundError as exc:
            if exc.name not in (f"engine.{name.replace('-', '_')}", "engine"):
                raise  # the package exists but one of its own imports is broken
    with _without_current_folder():
        module = importlib.import_module(name)
    return _spec_of(module, name)


def _spec_of(module: Any, name: str) -> Any:
    spec = getattr(module, "SPEC", None)
    if spec is None:
        raise LookupError(f"{name} has no SPEC")
    return spec


def _load_file(path: Path) -> Any:
    """Import a rules file by its path, under a name derived from that path (one module per file).

    Any failure inside the designer's file (a syntax error, an exception at import) becomes an
    ImportError that names the file, so callers report it like a missing module.
    """
    path = path.resolve()
    if not path.is_file():
        raise ImportError(f"rules file not found: {path}")
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    module_name = f"hordekit_rules_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load rules file {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    try:
        with _without_current_folder():
            spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise ImportError(f"{path}: {type(exc).__name__}: {exc}") from exc
    return module


@contextmanager
def _without_current_folder() -> Iterator[None]:
    """Hide the entry ``python -m`` (or ``python -c``) puts first on ``sys.path``: the current folder.

    Only that implicit first entry is hidden; the same folder named on PYTHONPATH or by an
    editable install's ``.pth`` file stays, since the user put it there on purpose.
    """
    saved = list(sys.path)
    implicit = bool(saved) and not sys.flags.safe_path and (
        saved[0] == "" or os.path.realpath(saved[0]) == os.path.realpath(os.getcwd()))
    if implicit:
        del sys.path[0]
    try:
        yield
    finally:
        if implicit:
            sys.path.insert(0, saved[0])
