"""`hordekit scenario` reports every scenario that fails, whatever the reason, in the format asked
for: a FAIL line (text), a record (json, and nothing else on standard output), an annotation
(github) — including files that are no scenario and games that cannot be played."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import run_cli


def _game_with_scenarios(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "nogame.yaml").write_text("name: no game named\nsteps: []\n")
    (bad / "tab.yaml").write_text("name: a tab\ngame: fungus-wars\nsteps:\n\t- choose: Leap\n")
    (bad / "nosuch.yaml").write_text("name: no such game\ngame: nosuch\nexpect: {}\n")
    return tmp_path


def test_json_output_is_one_json_document_with_a_record_per_failed_file(tmp_path: Path) -> None:
    root = _game_with_scenarios(tmp_path)
    proc = run_cli("scenario", "--format", "json", "bad", cwd=root)
    assert proc.returncode == 1
    records = json.loads(proc.stdout)  # nothing else on standard output
    by_file = {r["file"]: r for r in records}
    assert set(by_file) == {"bad/nogame.yaml", "bad/tab.yaml", "bad/nosuch.yaml"}
    assert all(not r["passed"] and r["failures"] for r in records)
    tab = by_file["bad/tab.yaml"]["failures"][0]
    assert (tab["line"], tab["col"]) == (4, 1) and "tab" in tab["message"]


def test_github_output_annotates_every_failure_at_its_repository_path(tmp_path: Path) -> None:
    root = _game_with_scenarios(tmp_path)
    proc = run_cli("scenario", "--format", "github", ".", cwd=root / "bad")
    assert proc.returncode == 1
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::error ")]
    files = sorted(line.split("file=")[1].split(",")[0] for line in annotations)
    assert files == ["bad/nogame.yaml", "bad/nosuch.yaml", "bad/tab.yaml"], proc.stdout
    fails = [line for line in proc.stdout.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 3, proc.stdout
    assert "0 passed, 3 failed" in proc.stdout


def test_a_scenario_needs_only_a_game_as_the_format_says(tmp_path: Path) -> None:
    root = _game_with_scenarios(tmp_path)
    proc = run_cli("scenario", "bad/nogame.yaml", cwd=root)
    assert proc.returncode == 1
    assert "FAIL bad/nogame.yaml:1:1:" in proc.stdout
    assert "'setup'" not in proc.stdout  # a scenario without setup starts from the standard setup


def test_run_inside_the_game_folder_the_game_is_not_said_to_differ_from_its_folder(tmp_path: Path) -> None:
    root = _game_with_scenarios(tmp_path)
    game = root / "content" / "fungus-wars"
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    proc = run_cli("scenario", "scenarios", cwd=game)
    assert proc.returncode == 1
    assert "HK104" in proc.stderr  # the real problem is shown
    assert "HK205" not in proc.stderr, proc.stderr
