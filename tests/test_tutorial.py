"""docs/tutorial.md, done as a designer would: from an empty folder, with the installed CLI.

The commands are read from the tutorial itself (its ```sh blocks, in order; ```csv file=NAME
blocks are the files it asks for), so the page cannot drift from what hordekit does.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pypdf import PdfReader

from conftest import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def installed_hordekit() -> str:
    """The `hordekit` script installed beside this Python (make install / pip install)."""
    beside = Path(sys.executable).parent / "hordekit"
    found = str(beside) if beside.is_file() else shutil.which("hordekit")
    assert found, "hordekit is not installed in this environment (run make install)"
    return found


def tutorial_steps() -> list[tuple[str, str]]:
    """('run', command line) and ('file', name + '\\n' + content) in the tutorial's order."""
    steps: list[tuple[str, str]] = []
    for lang, info, body in BLOCK.findall(TUTORIAL.read_text(encoding="utf-8")):
        if lang == "sh":
            steps += [("run", line.strip()) for line in body.splitlines() if line.strip()]
        elif lang == "csv":
            name = re.search(r"file=(\S+)", info)
            assert name, f"a csv block without file=NAME: {info}"
            steps.append(("file", f"{name.group(1)}\n{body}"))
    return steps


def test_the_tutorial_runs_from_an_empty_folder_and_every_step_succeeds(tmp_path: Path) -> None:
    hordekit = installed_hordekit()
    steps = tutorial_steps()
    commands = [s for kind, s in steps if kind == "run"]
    for needed in ("new", "validate", "pnp", "smoke", "scenario", "import csv"):
        assert any(c.startswith(f"hordekit {needed}") for c in commands), f"the tutorial never runs {needed}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HORDEKIT_DEBUG")}
    env["NO_COLOR"] = "1"
    assert not any(tmp_path.iterdir())
    start = time.perf_counter()
    for kind, step in steps:
        if kind == "file":
            name, content = step.split("\n", 1)
            (tmp_path / name).write_text(content, encoding="utf-8")
            continue
        argv = shlex.split(step)
        assert argv[0] == "hordekit", f"the tutorial's sh blocks hold hordekit commands only: {step}"
        proc = subprocess.run([hordekit, *argv[1:]], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, f"`{step}` failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
    took = time.perf_counter() - start
    print(f"\ntutorial: {len(commands)} commands in {took:.1f} s of wall time")

    pdf = tmp_path / "out" / "fungus-wars" / "print-and-play.pdf"
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Dash" in text  # the card that came from the spreadsheet was printed
    assert (tmp_path / "out" / "fungus-wars" / "smoke-report.html").is_file()


def test_the_tutorial_states_the_error_that_validate_really_prints(tmp_path: Path) -> None:
    """Step 2 shows an error message: make the same mistake and compare."""
    hordekit = installed_hordekit()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([hordekit, "new", "fungus-wars"], cwd=tmp_path, env=env, check=True, capture_output=True)
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    proc = subprocess.run([hordekit, "validate"], cwd=tmp_path, env=env, capture_output=True, text=True)
    shown = re.search(r"```text\n(.*?)```", TUTORIAL.read_text(), re.DOTALL).group(1)
    assert proc.returncode == 1
    assert shown.strip() in proc.stdout
