"""``--changed-since REF``: the pieces whose printed appearance differs from a git commit.

What is compared is what gets drawn, not which file changed: the game as it was at REF (its
content and its templates folder, read with ``git archive``; nothing in the working tree is
touched) and the game as it is now are both laid out by the current toolkit, every piece's
drawing calls (front and back) are recorded by a canvas stand-in, and the pieces whose
recordings differ are reprinted. So an edited card text template, a changed layout box, an
icon redrawn in icons.yaml, a font switched in a layout, an art file replaced, or a player
sheet that lists an ability whose cost changed all count; reformatting a file does not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from toolkit.games import LoadedGame, load_game


class ChangeError(Exception):
    """The ref or the repository cannot be read: a usage error."""


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=120)


class Recorder:
    """A canvas stand-in that records every drawing call with its arguments, into one hash."""

    def __init__(self, sink: Any = None) -> None:
        self._sink = sink if sink is not None else hashlib.sha256()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)  # not a real canvas: drawing code may ask

        def call(*args: Any, **kwargs: Any) -> Any:
            self._sink.update(f"{name}{_args(args)}{sorted(kwargs.items())!r}".encode())
            if name in ("beginPath", "beginText"):
                return Recorder(self._sink)
            return None
        return call

    def digest(self) -> str:
        return self._sink.hexdigest()


def _args(args: tuple[Any, ...]) -> str:
    out = []
    for a in args:
        if isinstance(a, Recorder):
            out.append("<path>")
        elif isinstance(a, float):
            out.append(f"{a:.3f}")
        elif isinstance(a, str) and 0 < len(a) < 1024 and "/" in a and Path(a).is_file():
            out.append(hashlib.sha256(Path(a).read_bytes()).hexdigest())  # art: the file, not where it lies
        elif isinstance(a, (int, str, tuple, list, type(None))):
            out.append(repr(a))
        else:  # an image reader and the like: its source file
            name = getattr(a, "fileName", None)
            out.append(hashlib.sha256(Path(name).read_bytes()).hexdigest() if name and Path(str(name)).is_file()
                       else type(a).__name__)
    return "(" + ",".join(out) + ")"


def appearance(loaded: LoadedGame) -> dict[str, str] | None:
    """Piece id (component id, extra or board name) -> a hash of everything drawn for it; None if it cannot be laid out."""
    from toolkit.pnp.document import _back_key, _render, prepare
    from toolkit.pnp.draw import Target
    from toolkit.pnp.faces import base_context
    from toolkit.pnp.fonts import register_fonts

    prepared, _ = prepare(loaded)
    if prepared is None:
        return None
    register_fonts()
    out: dict[str, str] = {}
    back_forms: dict[str, Any] = {}
    for face in prepared.faces:
        rec = Recorder()
        _render(rec, face.design, face.ctx, prepared.env, face.target, 0.0, loaded)
        key = _back_key(prepared, loaded, face, "duplex-long", back_forms)
        if key:
            bf = back_forms[key]
            _render(rec, bf.design, bf.ctx, prepared.env, bf.target, 0.0, loaded)
        out[face.item_id] = rec.digest()
    for bname, design in prepared.boards.items():
        rec = Recorder()
        where = prepared.layouts.boards[bname].where
        _render(rec, design, base_context(loaded), prepared.env, Target(bname, where.file, where.line), 0.0, loaded)
        out[bname] = rec.digest()
    return out


def _extract(root: Path, ref: str, rels: list[str], into: Path) -> None:
    proc = _git(root, "archive", "--format=tar", ref, "--", *rels)
    if proc.returncode != 0:
        return  # those folders did not exist at REF: everything counts as new
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        tar.extractall(into, filter="data")


def changed_ids(loaded: LoadedGame, ref: str) -> set[str]:
    """Ids of the pieces (and boards) whose drawing differs between REF and now."""
    game = loaded.game
    assert game is not None
    top = _git(game.dir, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise ChangeError(f"{game.dir} is not inside a git repository")
    root = Path(top.stdout.decode().strip()).resolve()
    if _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode != 0:
        raise ChangeError(f"'{ref}' is not a commit in {root}")
    now = appearance(loaded) or {}
    game_rel = game.dir.resolve().relative_to(root).as_posix()
    tdir = game.templates_dir.resolve()
    templates_rel = tdir.relative_to(root).as_posix() if tdir.is_relative_to(root) else None
    with tempfile.TemporaryDirectory(prefix="hordekit-ref-") as tmp:
        old_root = Path(tmp)
        _extract(root, ref, [r for r in (game_rel, templates_rel) if r], old_root)
        before: dict[str, str] = {}
        if (old_root / game_rel / "game.yaml").is_file():
            old = load_game(old_root / game_rel)
            if old.ok and old.game is not None:
                old_templates = old_root / templates_rel if templates_rel else tdir
                if not game.templates_dir.resolve().is_relative_to(game.dir.resolve()):
                    old.game = dataclasses.replace(old.game, templates_dir=old_templates)
                before = appearance(old) or {}
    return {pid for pid, sig in now.items() if before.get(pid) != sig}
