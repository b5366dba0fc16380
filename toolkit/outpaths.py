"""Check where a command will write before it does any work.

A mistyped ``--output`` should cost a second, not a smoke run of every game followed by a
crash: every command checks its output paths first and stops with a usage error (exit 2).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from toolkit.cliutil import usage_error


def _writable_folder(folder: Path, option: str) -> None:
    """Make sure ``folder`` exists or can be created, and that a file can be created there.

    Nothing is created: the probe runs in the deepest folder that exists, so a command that
    stops for another reason right after leaves no trace.
    """
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        usage_error(f"{option}: {existing} is a file, not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=".hordekit-probe.", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        usage_error(f"{option}: cannot write in {existing}: {exc.strerror or exc}")


def default_label(path: Path, option: str) -> str:
    """How messages name an output the user did not give: the default path, and the option that
    chooses another (not the option, which the user never typed)."""
    return f"{path} (the default; choose another with {option})"


def check_output_file(path: Path, option: str = "--output") -> Path:
    """``path`` is a file we can write (an existing device or symbolic link is fine)."""
    text = str(path)
    if text in ("", ".", "-"):
        usage_error(f"{option}: give a file name (got {text!r}; standard output is not supported)")
    if path.is_dir():
        usage_error(f"{option}: {path} is a folder; give a file name")
    _writable_folder(Path(os.path.realpath(path)).parent if path.is_symlink() else path.parent, option)
    return path


def check_output_dir(path: Path, option: str = "--output") -> Path:
    """``path`` is a folder we can write in (the write itself creates it when missing)."""
    if str(path) in ("", "-"):
        usage_error(f"{option}: give a folder name (got {str(path)!r})")
    if path.exists() and not path.is_dir():
        usage_error(f"{option}: {path} is a file; give a folder")
    _writable_folder(path, option)
    return path


def check_input_file(path: Path, option: str) -> Path:
    """A file the command will read, checked before any work starts."""
    if not path.is_file():
        usage_error(f"{option}: no such file: {path}")
    return path
