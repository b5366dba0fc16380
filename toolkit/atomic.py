"""Write files so that a reader never sees half of one: temporary file, then rename.

An interrupted or failed run leaves the previous output untouched (``os.replace`` is atomic on
the same file system, which the temporary file in the target's own folder guarantees).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, target)
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
