"""Every rulebook worked example and FAQ ruling, as a scenario file, holds."""
from __future__ import annotations

import re
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


def test_steam_pays_for_one_hero_only() -> None:
    assert _run("steam-pays-one-hero") == []


def test_a_cost_reduction_is_the_players_choice() -> None:
    assert _run("cost-reduction-is-a-choice") == []


def test_the_rulebook_setup_runs_when_a_scenario_has_no_setup() -> None:
    assert _run("standard-setup") == []


def test_a_wrong_setup_expectation_fails() -> None:
    data = load_yaml(SCENARIOS / "standard-setup.yaml")
    data["expect"]["last_player"] = 2        # the start player's right-hand neighbour is seat 0
    fails = run_scenario(data, content())
    assert len(fails) == 1 and "last_player is 0, expected 2" in fails[0]


@pytest.mark.parametrize("players", [1, 6, "two"])
def test_a_player_count_outside_the_games_range_is_an_error(players) -> None:
    data = load_yaml(SCENARIOS / "standard-setup.yaml")
    data["players"] = players
    fails = run_scenario(data, content())
    assert fails == [f"Setting up a game: players is {players!r}, but hordes-and-heroes is for 2 to 5 players"]


def test_options_exclude_names_a_whole_label() -> None:
    data = load_yaml(SCENARIOS / "steam-pays-one-hero.yaml")
    data["steps"][-1]["expect"]["decision"]["options_exclude"] = ["Activate Armorer with 1 steam",
                                                                   "Activate Armorer with"]
    fails = run_scenario(data, content())
    assert len(fails) == 1
    assert "'Activate Armorer with' is only the start of 3 option(s)" in fails[0]
    assert "name whole labels" in fails[0]


def test_options_include_fails_when_a_whole_label_is_missing() -> None:
    data = load_yaml(SCENARIOS / "steam-pays-one-hero.yaml")
    data["steps"][-1]["expect"]["decision"]["options_include"] = ["Activate Armorer with 1 steam"]
    fails = run_scenario(data, content())
    assert len(fails) == 1 and "no option 'Activate Armorer with 1 steam'" in fails[0]


def test_a_fragment_in_a_scenario_file_is_reported_with_its_line(tmp_path: Path) -> None:
    import subprocess
    import sys
    text = (SCENARIOS / "cost-reduction-is-a-choice.yaml").read_text(encoding="utf-8")
    text = text.replace("decision: {options_include: [Activate Paladin with 4 4 4 (cost reduced by 1)]}",
                        "decision: {options_exclude: [Activate Paladin]}")
    bad = tmp_path / "fragment.yaml"
    bad.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "options_exclude: [Activate Paladin]" in t) - 2
    run = subprocess.run([sys.executable, "-m", "toolkit", "scenario", str(bad)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1
    assert f"fragment.yaml:{line}:" in run.stdout and "'Activate Paladin' is only the start" in run.stdout


def test_a_label_with_a_comma_gets_a_hint_about_block_lists() -> None:
    data = load_yaml(SCENARIOS / "faq-attack-two-stacks-then-flip.yaml")
    data["steps"][1]["expect"]["decision"]["options_include"] = ["Attack Ghoul (stack C", "vanguard)"]
    fails = run_scenario(data, content())
    assert any("one label per line" in f for f in fails)


def test_a_wrong_player_count_in_a_file_is_reported_at_its_line(tmp_path: Path) -> None:
    import subprocess
    import sys
    text = (SCENARIOS / "standard-setup.yaml").read_text(encoding="utf-8").replace("players: 3", "players: 7")
    bad = tmp_path / "seven.yaml"
    bad.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("players: 7"))
    run = subprocess.run([sys.executable, "-m", "toolkit", "scenario", str(bad)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1
    assert f"seven.yaml:{line}:" in run.stdout and "is for 2 to 5 players" in run.stdout


def _doc_test_names() -> list[str]:
    """The tests and scenarios the rules docs name (last column of the rule-by-rule table and of
    the readings table)."""
    text = (SCENARIOS.parent.parent / "docs" / "games" / "hordes-and-heroes.md").read_text(encoding="utf-8")
    names = []
    for title in ("## The rulebook, rule by rule", "## Readings of unclear rules"):
        section = text.split(title, 1)[1].split("\n## ", 1)[0]
        for row in section.splitlines():
            if row.startswith("| ") and not row.startswith("| ---"):
                names += re.findall(r"`([^`]+)`", row.rstrip(" |").rsplit("|", 1)[1])
    return names


def test_every_test_the_rules_docs_name_exists() -> None:
    tests = {p.stem: p.read_text(encoding="utf-8") for p in (SCENARIOS.parent.parent / "tests").glob("test_hh_*.py")}
    names = _doc_test_names()
    assert len(names) > 40
    missing = []
    for name in names:
        if name.startswith("tests/"):
            found = (SCENARIOS.parent.parent / name).is_file()
        elif name.startswith("test_"):
            found = any(f"def {name}(" in body for body in tests.values())
        else:
            found = (SCENARIOS / f"{name}.yaml").is_file()
        if not found:
            missing.append(name)
    assert missing == []
