"""Shared helpers: run the real CLI in a subprocess, and copy fixture games to scratch folders."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CONTENT = ROOT / "content"


def pytest_configure(config: pytest.Config) -> None:
    """The content cache of big files goes to a scratch folder for the whole run (every CLI
    subprocess inherits it), never to the user's own cache."""
    import tempfile

    os.environ.setdefault("HORDEKIT_CACHE_DIR", tempfile.mkdtemp(prefix="hordekit-test-cache-"))


def run_cli(*args: str, cwd: Path | None = None, check_json: bool = False,
            extra_path: list[Path] | None = None) -> subprocess.CompletedProcess[str]:
    """Run `python -m toolkit ARGS` the way a designer or CI would: a fresh process, no terminal."""
    path = os.pathsep.join(str(p) for p in [ROOT, *(extra_path or [])])
    env = dict(os.environ, PYTHONPATH=path, NO_COLOR="1", COLUMNS="120")
    env.pop("HORDEKIT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr, proc.stderr
    if check_json:
        json.loads(proc.stdout)
    return proc


@pytest.fixture
def mini_game(tmp_path: Path) -> Path:
    """A scratch copy of the small fixture game, safe to break."""
    target = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", target)
    return target


def edit_once(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a file by ``new``; ``old`` must be there (a test's edit never misses)."""
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1))


def copy_shipped_game(tmp_path: Path, gid: str) -> Path:
    """A scratch copy of a shipped game with its own schemas and templates, safe to break."""
    game = tmp_path / gid
    shutil.copytree(ROOT / "content" / gid, game)
    shutil.copytree(ROOT / "schemas", game / "schemas")
    shutil.copytree(ROOT / "templates" / gid, game / "templates")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("schemas: hordekit", "schemas: schemas\ntemplates: templates"))
    return game
