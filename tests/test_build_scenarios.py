"""`build` runs each game's scenarios as a stage, and a scenario cannot pass by the luck of its
seed without saying so: real games made with `hordekit new`, real subprocess runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, edit_once, run_cli

LUCK = """\
name: Two plays in a row
game: fungus-wars
players: 2
setup:
  hands: [[leap, stride], [stride, stride]]
steps:
  - choose: Play Leap
  - choose: Play Stride
expect:
  positions: [3, 1]
"""


@pytest.fixture
def fungus(tmp_path: Path) -> Path:
    """A new designer's game, with the one scenario `hordekit new` writes; cwd for the runs."""
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    return tmp_path


def _build(cwd: Path, *extra: str) -> "subprocess.CompletedProcess[str]":  # noqa: F821
    return run_cli("build", "fungus-wars", "-n", "0", "--skip", "pnp", "-d", str(cwd / "out"), *extra, cwd=cwd)


def test_build_runs_the_games_scenarios_and_counts_them(fungus: Path) -> None:
    proc = _build(fungus)
    assert proc.returncode == 0, proc.stdout
    assert "[fungus-wars] scenarios: 1/1 passed, 0 failed (content/fungus-wars/scenarios," in proc.stdout


def test_a_scenario_broken_on_purpose_fails_build_at_its_line(fungus: Path) -> None:
    scen = fungus / "content" / "fungus-wars" / "scenarios" / "first-turn.yaml"
    edit_once(scen, "positions: [3, 0]", "positions: [4, 0]")
    line = scen.read_text().splitlines().index("  positions: [4, 0]") + 1   # the expectation that fails
    proc = _build(fungus)
    assert proc.returncode == 1, proc.stdout
    assert re.search(rf"^FAIL content/fungus-wars/scenarios/first-turn\.yaml:{line}:\d+: .*positions is \[3, 0\], "
                     r"expected \[4, 0\]$", proc.stdout, re.M), proc.stdout
    assert "[fungus-wars] scenarios: FAILED: 0/1 passed, 1 failed" in proc.stdout
    skipped = _build(fungus, "--skip", "scenarios")
    assert skipped.returncode == 0, skipped.stdout
    assert "[fungus-wars] scenarios: skipped (asked for on the command line)" in skipped.stdout
    assert "FAIL" not in skipped.stdout


def test_build_reports_a_failed_scenario_in_json_and_github(fungus: Path) -> None:
    scen = fungus / "content" / "fungus-wars" / "scenarios" / "first-turn.yaml"
    edit_once(scen, "current: 1", "current: 0")
    line = scen.read_text().splitlines().index("  current: 0") + 1
    proc = _build(fungus, "--format", "json")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    stage = next(s for s in report["games"][0]["stages"] if s["stage"] == "scenarios")
    assert (stage["status"], stage["passed"], stage["failed"]) == ("failed", 0, 1) and report["ok"] is False
    (problem,) = stage["problems"]
    assert problem["file"] == "content/fungus-wars/scenarios/first-turn.yaml"
    assert [(f["line"], "current is 1, expected 0" in f["message"]) for f in problem["failures"]] == [(line, True)]
    gh = _build(fungus, "--format", "github")
    assert gh.returncode == 1
    assert re.search(rf"^::error file=content/fungus-wars/scenarios/first-turn\.yaml,line={line},col=\d+,"
                     r"title=scenario failed::", gh.stdout, re.M), gh.stdout
    assert "file=content/fungus-wars/game.yaml" not in gh.stdout   # the annotation is at the scenario, only


def test_a_game_without_a_scenarios_folder_skips_the_stage(fungus: Path) -> None:
    folder = fungus / "content" / "fungus-wars" / "scenarios"
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    proc = _build(fungus)
    assert proc.returncode == 0, proc.stdout
    assert "[fungus-wars] scenarios: skipped (the game has no scenarios folder)" in proc.stdout


def test_a_choice_that_rolls_an_unscripted_draw_warns_at_its_step(fungus: Path) -> None:
    scen = fungus / "content" / "fungus-wars" / "scenarios" / "luck.yaml"
    scen.write_text(LUCK)
    line = LUCK.splitlines().index("  - choose: Play Stride") + 1
    warn = rf"^WARN content/fungus-wars/scenarios/luck\.yaml:{line}:5: Two plays in a row: step 2: chose while a " \
           r"chance event was pending, so it was rolled at random .*'Draw a card' -> '\w+'"
    proc = run_cli("scenario", "fungus-wars", cwd=fungus)
    assert proc.returncode == 0, proc.stdout
    assert re.search(warn, proc.stdout, re.M), proc.stdout
    assert proc.stdout.splitlines()[-1] == "2 passed, 0 failed, 1 with warnings"
    strict = run_cli("scenario", "--strict", "fungus-wars", cwd=fungus)
    assert strict.returncode == 1 and re.search(warn.replace("WARN", "FAIL"), strict.stdout, re.M), strict.stdout
    gh = run_cli("scenario", "-f", "github", "fungus-wars", cwd=fungus)
    assert f"::warning file=content/fungus-wars/scenarios/luck.yaml,line={line},col=5," in gh.stdout
    records = json.loads(run_cli("scenario", "-f", "json", "fungus-wars", cwd=fungus).stdout)
    luck = next(r for r in records if r["file"].endswith("luck.yaml"))
    assert luck["passed"] is True and [w["line"] for w in luck["warnings"]] == [line]
    built = _build(fungus)
    assert built.returncode == 0 and re.search(warn, built.stdout, re.M), built.stdout
    assert "scenarios: 2/2 passed, 0 failed, 1 with warnings" in built.stdout
    assert _build(fungus, "--strict").returncode == 1


@pytest.mark.parametrize("allow", [
    ("steps:\n", "auto: true\nsteps:\n"),                                            # the whole scenario
    ("  - choose: Play Stride", "  - auto: true\n  - choose: Play Stride"),          # at that point
    ("  - choose: Play Stride", "  - chance: Stride\n  - choose: Play Stride"),      # scripted
])
def test_a_scenario_that_says_so_or_scripts_the_draw_does_not_warn(fungus: Path, allow: tuple[str, str]) -> None:
    scen = fungus / "content" / "fungus-wars" / "scenarios" / "luck.yaml"
    scen.write_text(LUCK.replace(*allow))
    proc = run_cli("scenario", "--strict", str(scen), cwd=fungus)
    assert proc.returncode == 0 and "WARN" not in proc.stdout and "1 passed, 0 failed" in proc.stdout, proc.stdout


def test_auto_at_the_top_must_be_true_or_false(fungus: Path) -> None:
    scen = fungus / "content" / "fungus-wars" / "scenarios" / "luck.yaml"
    scen.write_text(LUCK.replace("steps:\n", "auto: yes please\nsteps:\n"))
    proc = run_cli("scenario", str(scen), cwd=fungus)
    assert proc.returncode == 1
    assert "FAIL content/fungus-wars/scenarios/luck.yaml:6:7: Two plays in a row: auto must be true or false" in proc.stdout


@pytest.mark.parametrize("game", sorted(p.name for p in (ROOT / "scenarios").iterdir()))
def test_no_shipped_scenario_leaves_a_roll_to_its_seed(game: str) -> None:
    proc = run_cli("-q", "scenario", "--strict", game)
    assert proc.returncode == 0 and "WARN" not in proc.stdout, proc.stdout


@pytest.mark.parametrize("game", sorted(p.name for p in (ROOT / "scenarios").iterdir()))
def test_every_shipped_scenario_holds_whatever_its_seed(game: str) -> None:
    """An `auto: true` step says any outcome will do: the expectations after it must hold for
    every roll, not only for the ones the scenario's seed happens to give."""
    from engine.core.scenario import run_scenario
    from toolkit.games import load_game, read_yaml
    from toolkit.rules import load_rules

    loaded = load_game(ROOT / "content" / game)
    spec = load_rules(loaded.game.rules)
    model = spec.build_model(loaded.data)
    luck = []
    for path in sorted((ROOT / "scenarios" / game).glob("*.yaml")):
        data = dict(read_yaml(path)[0].data)
        for seed in range(1, 21):
            problems = run_scenario({**data, "seed": seed}, loaded.data, spec, model)
            if problems:
                luck.append(f"{path.name} with seed {seed}: {problems[0]}")
                break
    assert not luck, "\n".join(luck)
