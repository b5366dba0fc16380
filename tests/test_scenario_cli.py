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


def test_a_setup_or_options_that_is_not_a_mapping_is_a_setup_fault_at_its_key(tmp_path: Path) -> None:
    """Every game: `setup:` or `options:` written as a list says so at the key (it was a Python
    error about converting a sequence to a dict)."""
    files = []
    for game, players in (("kingdoms", 1), ("hordes-and-heroes", 2), ("fantasy-draft", 2), ("dice-battles", 2)):
        listed = tmp_path / f"{game}-setup.yaml"
        listed.write_text(f"name: listed\ngame: {game}\nplayers: {players}\nsetup:\n  - phase: attack\nsteps: []\n")
        options = tmp_path / f"{game}-options.yaml"
        options.write_text(f"name: listed\ngame: {game}\nplayers: {players}\noptions: [fast]\nsteps: []\n")
        files += [listed, options]
    proc = run_cli("scenario", *map(str, files))
    assert proc.returncode == 1 and "0 passed, 8 failed" in proc.stdout, proc.stdout
    for game, _ in (("kingdoms", 1), ("hordes-and-heroes", 2), ("fantasy-draft", 2), ("dice-battles", 2)):
        assert (f"{game}-setup.yaml:5:3: listed: cannot build the starting situation at setup: must be a mapping"
                in proc.stdout), proc.stdout
        assert (f"{game}-options.yaml:4:10: listed: cannot build the starting situation at options: must be a "
                "mapping" in proc.stdout), proc.stdout
    assert "Error" not in proc.stdout and "Traceback" not in proc.stderr


def test_a_scenario_naming_no_game_says_why_on_its_fail_line_alone(tmp_path: Path) -> None:
    listed = tmp_path / "listed.yaml"
    listed.write_text("name: listed\ngame: [kingdoms, dice-battles]\nsteps: []\n")
    away = tmp_path / "away.yaml"
    away.write_text("name: away\ngame: ../../../etc\nsteps: []\n")
    proc = run_cli("scenario", str(listed), str(away), str(ROOT / "scenarios" / "kingdoms" / "starting-over.yaml"))
    assert proc.returncode == 1 and "1 passed, 2 failed" in proc.stdout, proc.stdout + proc.stderr
    assert "listed.yaml:2:7: game must be a game id or a game folder, not a list" in proc.stdout
    assert "away.yaml:2:7: no game '../../../etc'" in proc.stdout
    assert proc.stderr == ""
