"""docs/tutorial.md, done as a designer would: from an empty folder, with the installed CLI.

The commands are read from the tutorial itself (its ```sh blocks, in order; ```csv file=NAME
blocks are the files it asks for), so the page cannot drift from what hordekit does. The same
steps, timed one by one, are `make bench`'s tutorial figure (benchmarks/tutorial_bench.py).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
from pathlib import Path

from pypdf import PdfReader

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("tutorial_bench", ROOT / "benchmarks" / "tutorial_bench.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
TUTORIAL = bench.TUTORIAL


def _hordekit() -> str:
    found = bench.installed_hordekit()
    assert found, "hordekit is not installed in this environment (run make install)"
    return found


def test_the_tutorial_runs_new_validate_pnp_smoke_scenario_and_a_csv_import() -> None:
    commands = [s for kind, s in bench.tutorial_steps(TUTORIAL.read_text()) if kind == "run"]
    for needed in ("new", "validate", "pnp", "smoke", "scenario", "import csv"):
        assert any(c.startswith(f"hordekit {needed}") for c in commands), f"the tutorial never runs {needed}"
    assert all(c.startswith("hordekit ") for c in commands), "the tutorial's sh blocks hold hordekit commands only"


def test_the_tutorial_runs_from_an_empty_folder_and_every_step_succeeds(tmp_path: Path) -> None:
    assert not any(tmp_path.iterdir())
    steps = bench.run_tutorial(tmp_path, _hordekit())
    for step, _, proc in steps:
        if proc is not None:
            assert proc.returncode == 0, f"`{step}` failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
            assert "Traceback" not in proc.stderr
    ran = [step for step, _, proc in steps if proc is not None]
    assert len(ran) == sum(1 for kind, _ in bench.tutorial_steps(TUTORIAL.read_text()) if kind == "run")
    print(f"\ntutorial: {len(ran)} commands in {sum(s for _, s, _ in steps):.1f} s of wall time")
    pdf = tmp_path / "out" / "fungus-wars" / "print-and-play.pdf"
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Dash" in text  # the card that came from the spreadsheet was printed
    assert (tmp_path / "out" / "fungus-wars" / "smoke-report.html").is_file()


def test_the_tutorial_states_the_error_that_validate_really_prints(tmp_path: Path) -> None:
    """Step 2 shows an error message: make the same mistake and compare."""
    hordekit = _hordekit()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([hordekit, "new", "fungus-wars"], cwd=tmp_path, env=env, check=True, capture_output=True)
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    proc = subprocess.run([hordekit, "validate"], cwd=tmp_path, env=env, capture_output=True, text=True)
    shown = re.search(r"```text\n(.*?)```", TUTORIAL.read_text(), re.DOTALL).group(1)
    assert proc.returncode == 1
    assert shown.strip() in proc.stdout
