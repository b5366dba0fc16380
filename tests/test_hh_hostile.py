"""Hordes & Heroes against a careless or hostile user: scenario files with values the rules could
never reach are refused before play, naming the value, and nothing a seat may not see reaches it."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import run_cli
from engine.core.driver import derive_seed
from engine.core.scenario import run_scenario
from engine.hordes_and_heroes import SPEC
from test_hh_support import content, model

BASE = {
    "name": "hostile setup",
    "game": "hordes-and-heroes",
    "players": 2,
    "setup": {"phase": "dice", "players": [{"party": ["squire"]}], "stacks": [["goblin-scout"]]},
    "steps": [{"roll": [1, 1, 1, 1, 1]}],
    "expect": {},
}


def scenario_with(**setup) -> dict:
    data = {**BASE, "setup": {**BASE["setup"], **setup}}
    return data


@pytest.mark.parametrize("key, value", [
    ("current", 2), ("current", -1), ("current", True), ("current", 1.5), ("current", "1"),
    ("last_player", 7), ("doom", -1), ("doom", 4), ("turn", -3), ("shield", -4), ("steam", -1),
    ("bonus_strength", -50), ("rerolls", -5), ("extra_dice", 100), ("max_turns", 0),
])
def test_a_setup_number_out_of_the_rules_range_is_refused_by_name(key: str, value: object) -> None:
    fails = run_scenario(scenario_with(**{key: value}), content())
    assert len(fails) == 1, fails
    assert "cannot build the starting situation" in fails[0] and f"setup {key} must be a whole number" in fails[0]
    assert repr(value) in fails[0]


def test_the_largest_setup_numbers_the_rules_allow_are_accepted() -> None:
    # seat 1 of 2, all three doom tokens flipped, every one of the game's 20 dice thrown at once
    data = scenario_with(current=1, last_player=1, doom=3, extra_dice=15)
    data["setup"]["players"] = [{}, {"party": ["squire"]}]
    data["steps"] = [{"roll": [1] * 20}]
    data["expect"] = {"dice": [1] * 20, "final": True}
    assert run_scenario(data, content()) == []


def test_a_party_larger_than_the_rules_allow_is_refused() -> None:
    party = ["squire", "squire", "squire", "squire", "apprentice", "apprentice"]
    fails = run_scenario(scenario_with(players=[{"party": party}]), content())
    assert len(fails) == 1 and "the setup breaks the rules" in fails[0] and "party" in fails[0]


def test_active_heroes_outside_their_own_turn_are_refused() -> None:
    fails = run_scenario(scenario_with(players=[{}, {"party": [{"hero": "squire", "active": True}]}]), content())
    assert len(fails) == 1 and "active heroes outside their turn" in fails[0]


@pytest.mark.parametrize("level", [0, 3, "2"])
def test_a_treasure_shows_level_1_or_level_2_and_nothing_else(level: object) -> None:
    party = [{"hero": "squire", "treasure": content()["treasure"][0]["id"], "level": level}]
    fails = run_scenario(scenario_with(players=[{"party": party}]), content())
    assert len(fails) == 1 and "setup level must be a whole number from 1 to 2" in fails[0]


def test_a_seat_or_party_entry_of_the_wrong_shape_is_named() -> None:
    seat = run_scenario(scenario_with(players=["squire"]), content())
    entry = run_scenario(scenario_with(players=[{"party": [{"treasure": "x"}]}]), content())
    assert len(seat) == 1 and "seat 0 must be a mapping" in seat[0]
    assert len(entry) == 1 and "names no hero" in entry[0]


@pytest.mark.parametrize("where", ["active", "face_down"])
@pytest.mark.parametrize("value", ["false", "no", 0, 1])
def test_a_yes_no_setting_takes_true_or_false_only(where: str, value: object) -> None:
    if where == "active":
        data = scenario_with(players=[{"party": [{"hero": "squire", "active": value}]}])
    else:
        data = scenario_with(stacks=[{"cards": ["goblin-scout"], "face_down": value}])
    fails = run_scenario(data, content())
    assert len(fails) == 1 and f"setup {where} must be true or false, not {value!r}" in fails[0]


def test_two_stacks_of_one_name_are_refused() -> None:
    stacks = [{"cards": ["goblin-scout"], "name": "the gate"}, {"cards": ["imp"], "name": "the gate"}]
    fails = run_scenario(scenario_with(stacks=stacks), content())
    assert len(fails) == 1 and "two stacks are called 'the gate'" in fails[0]


def test_more_stacks_than_letters_get_numbered_names() -> None:
    data = scenario_with(stacks=[["goblin-scout"]] * 4 + [["imp"]] * 2 + [["ghoul"]] * 3 + [["kobold-sapper"]] * 3)
    data["steps"] = []
    data["expect"] = {"stack_count": 12, "stacks.11.name": "stack 12", "stacks.9.name": "stack J"}
    assert run_scenario(data, content()) == []


def test_hostile_scenario_files_fail_from_the_command_line_at_their_key(tmp_path: Path) -> None:
    files = []
    for key, value in (("current", 9), ("shield", -2), ("doom", "3")):
        path = tmp_path / f"{key}.yaml"
        path.write_text(json.dumps(scenario_with(**{key: value}), indent=2))   # JSON is YAML too
        files.append(str(path))
    proc = run_cli("scenario", *files)
    assert proc.returncode == 1, proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "0 passed, 3 failed" in proc.stdout
    for key, value in (("current", 9), ("shield", -2), ("doom", "'3'")):
        line = next(x for x in proc.stdout.splitlines() if f"{key}.yaml:" in x)
        assert line.startswith("FAIL ") and f"setup {key} must be a whole number" in line and str(value) in line
        row, col = map(int, line.split(f"{key}.yaml:", 1)[1].split(":")[:2])
        text = (tmp_path / f"{key}.yaml").read_text().splitlines()[row - 1]
        assert text[col - 1:].startswith(f'"{key}"'), (row, col, text)   # the key's own line and column


GOLDEN = Path(__file__).resolve().parent / "golden" / "hh-2p-heuristic.json"


@pytest.mark.parametrize("options, message", [
    ({"max_turns": -1}, "option max_turns must be a whole number 1 or more, not -1"),
    ({"max_turns": True}, "option max_turns must be a whole number 1 or more, not True"),
    ({"max_turns": "7"}, "option max_turns must be a whole number 1 or more, not '7'"),
    ({"frobnicate": 1}, "hordes-and-heroes has no option 'frobnicate'"),
])
def test_a_log_whose_options_the_rules_would_misread_is_refused(tmp_path: Path, options: dict, message: str) -> None:
    log = json.loads(GOLDEN.read_text())
    log.update(options=options, game="hordes-and-heroes")
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    proc = run_cli("replay", str(path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "the log's options do not fit hordes-and-heroes" in proc.stderr and message in proc.stderr


def test_a_variant_of_a_game_without_variants_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli("smoke", "hordes-and-heroes", "--games", "1", "--variant", "nightmare", "--out-dir", str(tmp_path / "out"))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "hordes-and-heroes has no variants (asked for: nightmare)" in proc.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("bad", [-1, -3, 10_000])
def test_a_seat_story_stops_at_an_illegal_action_without_naming_any_option(tmp_path: Path, bad: int) -> None:
    log = json.loads(GOLDEN.read_text())
    log.update(game="hordes-and-heroes", actions=log["actions"][:25] + [bad])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    proc = run_cli("replay", str(path), "--as", "1")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1].startswith(f"{path}:1:")  # the file, and the line and column of the action at fault
    assert lines[-1].endswith(f"the log does not replay: action 25 ({bad}) is not legal: "
                              f"illegal action {bad} for 'Roll step' (10 options)")
    assert not any(line.startswith("step 25:") for line in lines)   # nothing printed for the bad step


@pytest.mark.parametrize("bad", [-1, 10_000])
def test_a_seat_story_stopped_at_a_hidden_draw_does_not_count_its_options(tmp_path: Path, bad: int) -> None:
    """Step 12 deals the second player a card. How many kinds of card the hero deck still holds
    then depends on what the other hands hold, so seat 1's story may not print it, not even in
    the message that stops it; the step and the prompt are no secret."""
    log = json.loads(GOLDEN.read_text())
    log.update(game="hordes-and-heroes", actions=log["actions"][:12] + [bad])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    proc = run_cli("replay", str(path), "--as", "1")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1].endswith(f"the log does not replay: action 12 ({bad}) is not legal: "
                              f"illegal action {bad} for 'Draw from the hero deck' (a chance event)")
    assert "options" not in lines[-1]
    full = run_cli("replay", str(path))   # the whole game, no seat: the count is nobody's secret
    assert full.returncode == 1 and "options)" in full.stdout, full.stdout


@pytest.mark.parametrize("seed", ["7", 1.9, True])
def test_a_scenario_seed_is_a_whole_number_or_the_scenario_fails_at_it(tmp_path: Path, seed: object) -> None:
    path = tmp_path / "seeded.yaml"
    text = json.dumps({**BASE, "seed": seed}, indent=2)
    path.write_text(text)
    seed_line = next(i for i, x in enumerate(text.splitlines(), 1) if x.strip().startswith('"seed"'))
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1, proc.stdout
    line = next(x for x in proc.stdout.splitlines() if x.startswith("FAIL "))
    assert f"seed must be a whole number, not {seed!r}" in line
    assert f"seeded.yaml:{seed_line}:" in line


@pytest.mark.parametrize("players", [2, 5])
def test_no_decision_offers_two_options_under_one_label(players: int) -> None:
    """A label is how a player, a log reader or a script names a choice: two options that read
    the same could not be told apart (two copies of a hero, one carrying a treasure)."""
    rng = random.Random(derive_seed(5, players))
    st = SPEC.new_state(model(), players, {})
    decisions = 0
    while (d := st.decision()) is not None:
        assert len(set(d.options)) == d.n, (d.prompt, d.options)
        decisions += 1
        st.apply(rng.randrange(d.n))
    assert decisions > 300 and st.result().end_reason in ("bosses", "stalemate")


CARELESS = """name: a careless table
game: hordes-and-heroes
players: 2
setup:
  phase: action
{extra}steps: []
"""


@pytest.mark.parametrize("extra, message, where", [
    ("  shiled: 2\n", "unknown setup keys: shiled", "  |shiled: 2"),
    ("  players:\n    - party: [squire, no-such-hero]\n", "no deck card with id 'no-such-hero'", "squire, |no-such-hero]"),
    ("  players:\n    - party:\n        - {hero: squire, active: 'yes'}\n", "setup active must be true or false",
     "squire, |active: 'yes'}"),
    ("  players:\n    - hand: [squire]\n      victory: [squire]\n", "'squire' is neither a monster nor a town card",
     "victory: [|squire]"),
    ("  stacks:\n    - cards: [goblin-scout, dragon-of-nowhere]\n", "no monster card with id 'dragon-of-nowhere'",
     "goblin-scout, |dragon-of-nowhere]"),
    ("  discard: squire\n", "setup discard must be a list of card ids", "  |discard: squire"),
    ("  players: {hand: [squire]}\n", "setup players must be a list", "  |players: {hand"),
], ids=["misspelt-key", "unknown-hero", "flag-not-a-flag", "hero-as-victory", "unknown-monster",
        "discard-not-a-list", "players-not-a-list"])
def test_a_careless_table_is_refused_at_its_key(tmp_path: Path, extra: str, message: str, where: str) -> None:
    path = tmp_path / "careless.yaml"
    path.write_text(CARELESS.format(extra=extra))
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert message in proc.stdout, proc.stdout
    row, col = map(int, proc.stdout.split(f"{path}:", 1)[1].split(":")[:2])
    text = path.read_text().splitlines()[row - 1]
    before, after = where.split("|")
    assert text[:col - 1].endswith(before) and text[col - 1:].startswith(after), (row, col, text)
