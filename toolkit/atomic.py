"""Write files so that a reader never sees half of one: temporary file, then rename.

An interrupted or failed run leaves the previous output untouched (``os.replace`` is atomic on
the same file system, which a temporary file in the target's own folder guarantees).

What the rename must not do: replace a device (``-o /dev/null``) or a FIFO with a regular file,
those are written into instead; replace a symbolic link with a file, the file it points at is
replaced and the link stays; and give every output mode 0600 (``mkstemp``'s), a new file gets
the mode the user's umask gives, a replaced file keeps its own.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Iterator


@cache
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def real_target(target: Path) -> Path:
    """Where writing ``target`` really lands: a symbolic link's destination, else ``target``."""
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def temp_beside(target: Path) -> Path:
    """A new, empty temporary file in the folder the output will land in."""
    real = real_target(target)
    real.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    os.close(fd)
    return Path(name)


def commit(tmp: Path, target: Path) -> None:
    """Put the finished ``tmp`` in place of ``target`` (see the module docstring for the rules)."""
    real = real_target(target)
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(tmp, "rb") as src, open(real, "wb") as dst:
            shutil.copyfileobj(src, dst)
        tmp.unlink()
        return
    os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
    if tmp.parent.resolve() != real.parent.resolve():  # made beside a link, not its destination
        moved = temp_beside(real)
        shutil.copyfile(tmp, moved)
        os.chmod(moved, os.stat(tmp).st_mode)
        tmp.unlink()
        tmp = moved
    os.replace(tmp, real)


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``."""
    tmp = temp_beside(target)
    try:
        yield tmp
        commit(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(target: Path, text: str) -> None:
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")


@contextmanager
def open_text(target: Path) -> Iterator[IO[str]]:
    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        yield fh
