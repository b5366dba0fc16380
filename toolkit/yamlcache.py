"""A cache of loaded content files, so that a file that has not changed is not parsed again.

Reading a 10,000-component file (2 MB of YAML) with every value's line and column takes about
half a second; reading back what that produced takes a tenth of that. Designers validate and
print the same content again and again while they edit one file of many, so files that did not
change are read from the cache instead. Small files gain too: a file of a few KiB reads back in
a quarter of its parsing time (one of a few hundred bytes in about the same time), and a run
whose files all come from the cache never loads the YAML parser at all (about 12 ms). For
Kingdoms' two dozen files, `hordekit pnp` spent 17 ms parsing and 12 ms importing the parser;
read back, they take about 4 ms.

- Which files: every content file, and a game's layouts, icons and text templates.
- Where: ``$HORDEKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/hordekit``, else ``~/.cache/hordekit``;
  entries go in its ``yaml/`` folder, made readable by the user only. Nothing is written in the
  game's folder. ``HORDEKIT_NO_CACHE=1`` turns the cache off; a folder that cannot be made or
  written turns it off silently (the file is then parsed, as without a cache).
- When an entry is used: one entry per content file (named by a hash of the file's absolute
  path), holding the SHA-256 of the file's bytes and of the loader's own version (its source,
  ruamel.yaml's and Python's versions). Any difference, or an entry that cannot be read, and the
  file is parsed again and the entry replaced. Changing a file's bytes, however little and
  whatever its modification time, always means a fresh parse.
- How it is written: to a temporary file beside it, then renamed (``toolkit.atomic``), so a
  reader never sees half an entry, and two runs writing the same entry cannot mix.
- Format: ``marshal``, Python's own serialiser for plain values, which reads back several times
  faster than pickle and builds values only (it never runs code). Like any cache of this
  kind it trusts the folder it is in, which is the user's own.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

from toolkit.yamlload import LoadedYaml, Pos, YamlProblem, load_bytes

_MAGIC = b"hordekit-yaml-cache 1\n"
_DIGEST = 32  # bytes of a SHA-256 digest


def cache_dir() -> Path | None:
    """The folder of cache entries, or None when the cache is off."""
    if os.environ.get("HORDEKIT_NO_CACHE"):
        return None
    base = os.environ.get("HORDEKIT_CACHE_DIR")
    if base:
        return Path(base) / "yaml"
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg) if xdg else Path.home() / ".cache"
    return root / "hordekit" / "yaml"


@cache
def _loader_version() -> bytes:
    """What the loaded result depends on besides the file: the loader's code and the parser's.

    The parser's version is read from its package's first file (where ruamel.yaml writes it)
    without importing it: a run whose files all come from the cache never loads the parser.
    """
    from importlib.util import find_spec

    from toolkit import yamlload

    h = hashlib.sha256(Path(yamlload.__file__).read_bytes())
    spec = find_spec("ruamel.yaml")
    if spec is not None and spec.origin:
        h.update(Path(spec.origin).read_bytes())
    h.update(repr((sys.version, marshal.version)).encode())
    return h.digest()


def load_cached(path: Path, raw: bytes) -> LoadedYaml:
    """``load_bytes(raw)`` for the file at ``path``, from the cache when its entry matches."""
    folder = cache_dir()
    if folder is None:
        return load_bytes(raw)
    entry = folder / (hashlib.sha256(str(path.resolve()).encode("utf-8")).hexdigest()[:32] + ".bin")
    stamp = hashlib.sha256(raw).digest() + _loader_version()
    doc = _read(entry, stamp)
    if doc is None:
        doc = load_bytes(raw)
        _write(entry, stamp, doc)
    return doc


def _read(entry: Path, stamp: bytes) -> LoadedYaml | None:
    """The entry's document when it was made from these bytes by this loader, else None."""
    try:
        blob = entry.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 2 * _DIGEST
    if blob[:len(_MAGIC)] != _MAGIC or blob[len(_MAGIC):head] != stamp:
        return None
    try:
        data, values, keys, problems, first_line = marshal.loads(blob[head:])
        make = tuple.__new__
        return LoadedYaml(
            data=data,
            values={path: make(Pos, pos) for path, pos in values.items()},
            keys={path: make(Pos, pos) for path, pos in keys.items()},
            problems=[YamlProblem(code, message, Pos(*pos), hint) for code, message, pos, hint in problems],
            first_line=first_line)
    except Exception:  # noqa: BLE001 - a damaged or foreign entry, whatever its fault: parse the file
        return None


def _write(entry: Path, stamp: bytes, doc: LoadedYaml) -> None:
    """Store ``doc`` for next time; a cache that cannot be written is simply not used."""
    from toolkit.atomic import atomic_path

    payload = (doc.data, {p: (v.line, v.col) for p, v in doc.values.items()},
               {p: (v.line, v.col) for p, v in doc.keys.items()},
               [(p.code, p.message, (p.pos.line, p.pos.col), p.hint) for p in doc.problems], doc.first_line)
    try:
        blob = marshal.dumps(payload)
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with atomic_path(entry) as tmp:
            tmp.write_bytes(_MAGIC + stamp + blob)
    except (OSError, ValueError):  # read-only home, full disk, a value marshal cannot hold
        return
