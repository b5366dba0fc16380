"""`hordekit scenario`: rulebook examples run from the command line, failures located in the file."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, run_cli


def test_rulebook_scenarios_pass_from_the_command_line() -> None:
    folders = [p for p in sorted((ROOT / "scenarios").iterdir()) if p.is_dir()]
    assert folders
    proc = run_cli("scenario", *map(str, folders))
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "PASS scenarios/hordes-and-heroes/maureens-example-turn.yaml" in proc.stdout
    assert " 0 failed" in proc.stdout


def test_a_wrong_expectation_fails_with_its_place(tmp_path: Path) -> None:
    source = (ROOT / "scenarios" / "hordes-and-heroes" / "andres-score.yaml").read_text()
    assert "players.0.score: 48" in source
    broken = tmp_path / "andre-wrong.yaml"
    broken.write_text(source.replace("players.0.score: 48", "players.0.score: 50"))
    proc = run_cli("scenario", str(broken))
    assert proc.returncode == 1
    assert "FAIL" in proc.stdout and "48" in proc.stdout and "1 failed" in proc.stdout


def test_a_broken_scenario_file_is_reported_not_crashed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    proc = run_cli("scenario", str(bad))
    assert proc.returncode == 1
    assert "bad.yaml:2:1" in proc.stdout
