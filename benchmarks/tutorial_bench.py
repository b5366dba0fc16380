"""The ten-minute tutorial (docs/tutorial.md), timed step by step with the installed CLI.

The designer's own time is reading and typing; this measures what hordekit adds to it: the wall
time of each command the tutorial runs, from an empty folder. tests/test_tutorial.py runs the
same steps (read from the page by `tutorial_steps`) and checks that each succeeds.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def tutorial_steps(text: str) -> list[tuple[str, str]]:
    """('run', command line) and ('file', name + newline + content), in the page's order:
    every line of a ```sh block is a command; a ```csv file=NAME block is a file to write."""
    steps: list[tuple[str, str]] = []
    for lang, info, body in BLOCK.findall(text):
        if lang == "sh":
            steps += [("run", line.strip()) for line in body.splitlines() if line.strip()]
        elif lang == "csv":
            name = re.search(r"file=(\S+)", info)
            if name is None:
                raise ValueError(f"a csv block without file=NAME: {info}")
            steps.append(("file", f"{name.group(1)}\n{body}"))
    return steps


def installed_hordekit() -> str | None:
    """The `hordekit` script installed beside this Python (make install / pip install)."""
    beside = Path(sys.executable).parent / "hordekit"
    return str(beside) if beside.is_file() else shutil.which("hordekit")


def run_tutorial(folder: Path, hordekit: str) -> list[tuple[str, float, subprocess.CompletedProcess[str] | None]]:
    """Do the tutorial in ``folder``; each step with its wall time and, for commands, its result."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HORDEKIT_DEBUG")}
    env["NO_COLOR"] = "1"
    done = []
    for kind, step in tutorial_steps(TUTORIAL.read_text(encoding="utf-8")):
        start = time.perf_counter()
        if kind == "file":
            name, content = step.split("\n", 1)
            (folder / name).write_text(content, encoding="utf-8")
            done.append((f"write {name}", time.perf_counter() - start, None))
            continue
        argv = shlex.split(step)
        proc = subprocess.run([hordekit, *argv[1:]], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=600, stdin=subprocess.DEVNULL)
        done.append((step, time.perf_counter() - start, proc))
        if proc.returncode != 0:
            break
    return done


if __name__ == "__main__":
    hordekit = installed_hordekit()
    if hordekit is None:
        sys.exit("hordekit is not installed in this environment (make install)")
    with tempfile.TemporaryDirectory() as tmp:
        steps = run_tutorial(Path(tmp), hordekit)
    for step, seconds, proc in steps:
        state = "" if proc is None or proc.returncode == 0 else f"  FAILED ({proc.returncode})"
        print(f"  {seconds:6.2f} s  {step}{state}")
    print(f"  {sum(s for _, s, _ in steps):6.2f} s  the whole tutorial (hordekit's share of the ten minutes)")
