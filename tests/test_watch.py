"""`hordekit watch`: re-checks and re-prints on every change, prints only what changed, and
stops cleanly (issue 14)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, run_cli


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.Popen([sys.executable, "-m", "toolkit", "watch", "fungus-wars", "--interval", "0.1", *args],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL)


def _wait_for(proc: subprocess.Popen[str], text: str, seen: list[str], timeout: float = 60) -> None:
    """Read the watcher's output until a line containing ``text`` (the test's only wait)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return
    pytest.fail(f"no line with {text!r} in:\n{''.join(seen)}")


@pytest.fixture
def fungus(tmp_path: Path) -> Path:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    return tmp_path


def test_watch_reprints_and_previews_only_the_changed_piece(fungus: Path) -> None:
    cards = fungus / "content" / "fungus-wars" / "cards.yaml"
    proc = _start(fungus, "--stop-after", "60")
    seen: list[str] = []
    try:
        _wait_for(proc, "print-and-play.pdf", seen)
        cards.write_text(cards.read_text().replace("name: Leap", "name: Long Leap"))
        _wait_for(proc, "previews:", seen)
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    out = "".join(seen) + rest
    assert "pieces changed: leap\n" in out  # stride did not change and is not mentioned
    assert (fungus / "out" / "fungus-wars" / "preview" / "leap.png").is_file()
    assert not (fungus / "out" / "fungus-wars" / "preview" / "stride.png").exists()
    text = "".join(p.extract_text() for p in PdfReader(fungus / "out" / "fungus-wars" / "print-and-play.pdf").pages)
    assert "Long Leap" in text


def test_watch_reports_a_new_problem_and_then_that_it_is_fixed(fungus: Path) -> None:
    cards = fungus / "content" / "fungus-wars" / "cards.yaml"
    good = cards.read_text()
    proc = _start(fungus, "--stop-after", "60", "--no-previews")
    seen: list[str] = []
    try:
        _wait_for(proc, "print-and-play.pdf", seen)
        cards.write_text(good.replace("    steps: 3", "    stepz: 3"))
        _wait_for(proc, "not printed until the errors are fixed", seen)
        cards.write_text(good)
        _wait_for(proc, "fixed:", seen)
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    out = "".join(seen) + rest
    assert "cards.yaml:16:5: error HK104: unknown key 'stepz'" in out
    assert "fixed: content/fungus-wars/cards.yaml: HK104" in out


def test_ctrl_c_stops_watch_cleanly(fungus: Path) -> None:
    proc = _start(fungus)
    seen: list[str] = []
    _wait_for(proc, "print-and-play.pdf", seen)
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert "stopped watching" in rest and "Traceback" not in rest


def test_stop_after_ends_a_short_run_by_itself(fungus: Path) -> None:
    proc = run_cli("watch", "fungus-wars", "--stop-after", "0.5", "--interval", "0.1", cwd=fungus)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0].startswith("watching content/fungus-wars")
    assert "valid" in proc.stdout and "stopped watching" in proc.stdout
