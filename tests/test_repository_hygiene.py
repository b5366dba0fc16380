"""The repository holds only what we write: generated output and environments stay out of git."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                                reason="not a git checkout")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_no_environment_cache_or_output_is_tracked() -> None:
    tracked = _git("ls-files").splitlines()
    banned = (".venv", ".venv-bench", "__pycache__", ".pytest_cache", ".hordekit-cache")
    bad = [p for p in tracked if p.split("/")[0] in banned or "__pycache__" in p.split("/")
           or (p.startswith("out/") and p != "out/.gitkeep")]
    assert bad == []


@pytest.mark.parametrize("path", [".venv", ".venv-bench", "out/print-and-play.pdf", "engine/__pycache__/x.pyc"])
def test_environments_and_outputs_are_ignored_as_folders_and_as_links(path: str) -> None:
    # a worktree links its environment (`.venv -> ../main/.venv`): a file, not a folder, to git
    proc = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT, check=False)
    assert proc.returncode == 0, path
