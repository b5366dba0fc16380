"""Every rulebook worked example and FAQ ruling, as a scenario file, holds."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.scenario import run_scenario
from test_hh_support import SCENARIOS, content, load_yaml

FILES = sorted(SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_file_passes(path: Path) -> None:
    assert run_scenario(load_yaml(path), content()) == []


def _run(stem: str) -> list[str]:
    return run_scenario(load_yaml(SCENARIOS / f"{stem}.yaml"), content())


def test_shield_example() -> None:
    assert _run("shield-example") == []


def test_johns_damage() -> None:
    assert _run("johns-damage") == []


def test_gills_damage() -> None:
    assert _run("gills-damage") == []


def test_maureens_example_turn() -> None:
    assert _run("maureens-example-turn") == []


def test_andres_end_of_game_score() -> None:
    assert _run("andres-score") == []


def test_third_doom_token_starts_the_last_round() -> None:
    assert _run("end-of-game-last-round") == []


def test_a_wrong_expectation_is_reported() -> None:
    data = load_yaml(SCENARIOS / "andres-score.yaml")
    data["expect"]["players.0.score"] = 47
    fails = run_scenario(data, content())
    assert len(fails) == 1 and "players.0.score is 48, expected 47" in fails[0]


def test_an_unknown_option_is_reported_with_the_choices() -> None:
    data = load_yaml(SCENARIOS / "faq-empty-stack-closes-up.yaml")
    data["steps"] = [{"choose": "Attack Dragon"}]
    fails = run_scenario(data, content())
    assert fails and "no option 'Attack Dragon'" in fails[0] and "Attack Imp" in fails[0]
