"""Fantasy Draft content: the rulebook's numbers, the authored heroes, the board, and the errors a
designer gets for broken files. Everything reads the real files under content/fantasy-draft."""
from __future__ import annotations

import shutil

import pytest

from conftest import run_cli
from engine.fantasy_draft import SPEC
from engine.fantasy_draft.model import build_board
from test_fd_support import CONTENT, TEMPLATES, content, load_yaml, model

RULEBOOK_BASIC_UNITS = {  # name: (type, strength, actions, count), as the reference card lists them
    "Forkman": ("human", 1, 1, 5), "Wolf": ("animal", 2, 3, 3), "Bowman": ("human", 1, 1, 3),
    "Horseman": ("human", 3, 2, 3), "Trap": ("non-living", 5, 0, 3), "Swordman": ("human", 4, 1, 2),
    "Flag": ("flag", 0, 0, 1), "Knight": ("human", 5, 1, 1),
}


def test_shipped_content_validates() -> None:
    proc = run_cli("validate", str(CONTENT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 errors" in proc.stdout or "ok" in proc.stdout


def test_basic_units_have_the_reference_card_values() -> None:
    got = {b["name"]: (b["type"], b["strength"], b["actions"], b["quantity"]) for b in content()["basic-unit"]}
    assert got == RULEBOOK_BASIC_UNITS
    assert sum(v[3] for v in got.values()) == 21


def test_only_the_bowman_among_basic_units_shoots_and_traps_and_flag_never_attack() -> None:
    attack = {b["name"]: b["attack"] for b in content()["basic-unit"]}
    assert attack["Bowman"] == "ranged"
    assert attack["Trap"] == attack["Flag"] == "none"
    assert {a for n, a in attack.items() if n not in ("Bowman", "Trap", "Flag")} == {"melee"}


def test_eighteen_heroes_within_the_printed_ranges() -> None:
    heroes = content()["hero"]
    assert len(heroes) == 18 and len({h["name"] for h in heroes}) == 18
    for h in heroes:
        assert 1 <= h["cost"] <= 5 and 1 <= h["actions"] <= 3 and 1 <= h["strength"] <= 5, h["id"]
        assert 1 <= len(h["abilities"]) <= 3, h["id"]
        assert h["attack"] in ("melee", "ranged")


def test_the_heroes_the_rulebook_names_keep_its_values() -> None:
    heroes = {h["id"]: h for h in content()["hero"]}
    poison = heroes["rat"]["abilities"][0]
    assert poison["d10"] == {"min": 7, "max": 9} and poison["effects"] == [{"kind": "destroy"}]
    blessing = heroes["paladin"]["abilities"][0]
    assert blessing["range"] == 1 and blessing["target"] == "own" and blessing["effects"] == [{"kind": "boost", "amount": 1}]
    assert heroes["barbarian"]["strength"] == 3
    for grower in ("druid", "necromancer", "meat-eater"):
        kinds = {e["kind"] for a in heroes[grower]["abilities"] for e in a["effects"]}
        assert "power" in kinds, grower


def test_the_draft_cannot_buy_every_hero() -> None:
    total = sum(h["cost"] for h in content()["hero"])
    mana = content()["rules"][0]["mana"]
    assert total > 2 * mana, "with 20 mana each, some heroes must stay in the pool"


def test_each_start_zone_holds_a_whole_army_and_water_is_for_flyers_only() -> None:
    b = model().board
    army = content()["rules"][0]["army-size"]
    assert sum(1 for z in b.zone if z == 0) >= army and sum(1 for z in b.zone if z == 1) >= army
    assert all(b.flyers_only[h] == (b.terrain[h] == "water") for h in range(len(b.labels)))
    assert all(b.terrain[h] == "grass" for h in range(len(b.labels)) if b.zone[h] >= 0)


def test_the_board_is_the_same_seen_from_either_side() -> None:
    rows = content()["board"][0]["map"]
    swap = str.maketrans("12", "21")
    assert [r.translate(swap) for r in reversed(rows)] == rows


def test_the_component_counts_match_the_rulebook() -> None:
    manifest = load_yaml(CONTENT / "game.yaml")["components"]
    assert {k: manifest[k]["expected"] for k in ("hero", "reference-card", "unit-token", "power-token", "die")} == {
        "hero": 18, "reference-card": 2, "unit-token": 52, "power-token": 10, "die": 2}
    dice = content()["die"]
    assert dice[0]["faces"] == list(range(10))


def test_every_effect_kind_has_a_handler_and_a_text_template() -> None:
    used = {e["kind"] for h in content()["hero"] for a in h["abilities"] for e in a["effects"]}
    templates = load_yaml(TEMPLATES)
    assert used <= SPEC.effect_kinds
    assert set(SPEC.effect_kinds) <= set(templates)


def test_broken_content_is_reported_with_file_line_and_column(tmp_path) -> None:
    game = tmp_path / "fantasy-draft"
    shutil.copytree(CONTENT, game)
    heroes = (game / "heroes.yaml").read_text().replace("effects: [{kind: boost, amount: 1}]", "effects: [{kind: boost, amont: 1}]", 1)
    (game / "heroes.yaml").write_text(heroes.replace("cost: 5", "cost: 7", 1))
    (game / "board.yaml").write_text((game / "board.yaml").read_text().replace('"..~.....~.."', '"..~..x..~.."', 1))
    proc = run_cli("validate", str(game))
    assert proc.returncode == 1
    out = proc.stdout
    assert "heroes.yaml:23:" in out and "unknown key 'amont'" in out and "did you mean" in out
    cost_line = next(i for i, line in enumerate((game / "heroes.yaml").read_text().splitlines(), 1) if "cost: 7" in line)
    assert f"heroes.yaml:{cost_line}:11" in out and "greater than the maximum of 5" in out
    assert "board.yaml:19:" in out


def test_a_map_row_of_the_wrong_length_is_refused_by_the_model() -> None:
    board = dict(content()["board"][0])
    board["map"] = list(board["map"])
    board["map"][4] = board["map"][4][:-1]
    with pytest.raises(ValueError, match="row 5 has 10 hexes, columns says 11"):
        build_board(board, content()["terrain"])


def test_board_and_ability_rules_beyond_the_schema_are_reported_at_their_line(tmp_path) -> None:
    game = tmp_path / "fantasy-draft"
    shutil.copytree(CONTENT, game)
    board = (game / "board.yaml").read_text()
    (game / "board.yaml").write_text(board.replace('"..~.....~.."', '"..~.....~."', 1).replace('"22222222222"', '"2.........."'))
    heroes = (game / "heroes.yaml").read_text()
    (game / "heroes.yaml").write_text(heroes.replace("d10: {min: 7, max: 9}", "d10: {min: 9, max: 7}", 1))
    proc = run_cli("validate", str(game))
    assert proc.returncode == 1
    out = proc.stdout
    assert "board.yaml:19:9: error HK309: map row 4 has 10 hexes, columns says 11" in out
    assert "error HK309: player 2's start zone has 3 hexes for an army of 26" in out
    assert "heroes.yaml:49:14: error HK309: d10 range 9-7 is empty" in out


def test_a_trigger_that_could_never_fire_or_would_hit_its_own_hero_is_reported(tmp_path) -> None:
    """Careless abilities that the schema accepts: a unit-removed ability without a range (the hex
    icon) would never fire, and a victory ability's effects land on the hero itself, so one that
    removes a unit would remove the winner."""
    game = tmp_path / "fantasy-draft"
    shutil.copytree(CONTENT, game)
    heroes = (game / "heroes.yaml").read_text()
    heroes = heroes.replace("        trigger: unit-removed\n        range: 2\n", "        trigger: unit-removed\n", 1)
    heroes = heroes.replace("        target: enemy\n        types: [human, animal]\n        effects: [{kind: power, amount: 1}]",
                            "        target: enemy\n        types: [human, animal]\n        effects: [{kind: destroy}]", 1)
    (game / "heroes.yaml").write_text(heroes)
    lines = heroes.splitlines()
    harvest = next(i for i, line in enumerate(lines, 1) if "name: Soul Harvest" in line)
    devour = next(i for i, line in enumerate(lines, 1) if "effects: [{kind: destroy}]" in line and "Devour" in lines[i - 5])
    proc = run_cli("validate", str(game))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    out = proc.stdout
    assert f"heroes.yaml:{harvest}:9: error HK309: ability 'Soul Harvest' watches for removed units but has no range" in out
    assert f"heroes.yaml:{devour}:19: error HK309: a 'victory' ability's effects act on the hero itself: destroy would remove the hero" in out


def test_an_ability_aimed_where_its_printed_sentence_does_not_fit_is_reported(tmp_path) -> None:
    """The card prints a boost as "Your unit gains ..." and a removal as "Remove the enemy ...":
    a Blessing aimed at an enemy, or a Poison aimed at an own unit, would play otherwise than the
    card reads."""
    game = tmp_path / "fantasy-draft"
    shutil.copytree(CONTENT, game)
    heroes = (game / "heroes.yaml").read_text()
    blessing = "        range: 1\n        target: own\n        effects: [{kind: boost, amount: 1}]"
    poison = "        range: 1\n        target: enemy\n        effects: [{kind: destroy}]"
    assert blessing in heroes and poison in heroes
    heroes = heroes.replace(blessing, blessing.replace("target: own", "target: enemy"), 1)
    heroes = heroes.replace(poison, poison.replace("target: enemy", "target: any"), 1)
    (game / "heroes.yaml").write_text(heroes)
    lines = heroes.splitlines()
    at = [i for i, line in enumerate(lines, 1) if line.strip() in ("target: enemy", "target: any")
          and "range: 1" in lines[i - 2] and lines[i].strip() in ("effects: [{kind: boost, amount: 1}]", "effects: [{kind: destroy}]")]
    proc = run_cli("validate", str(game))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    out = proc.stdout
    assert f"heroes.yaml:{at[0]}:17: error HK309: ability 'Blessing' aims boost at 'enemy', but its printed text speaks of your unit" in out, out
    assert f"heroes.yaml:{at[1]}:17: error HK309: ability 'Poison' aims destroy at 'any', but its printed text speaks of the enemy" in out, out


def test_a_start_zone_on_ground_only_flyers_may_stand_on_is_reported(tmp_path) -> None:
    """Deployment puts every token on its owner's start zone, and the flag and the basic units do
    not fly: a zone on water was accepted and every smoke game then stopped at a deployment with
    no hex to choose. It is a content error at the zone's terrain."""
    game = tmp_path / "fantasy-draft"
    shutil.copytree(CONTENT, game)
    board = (game / "board.yaml").read_text()
    (game / "board.yaml").write_text(board.replace('"2": {terrain: grass, player: 2}', '"2": {terrain: water, player: 2}', 1))
    line = next(i for i, text in enumerate(board.splitlines(), 1) if '"2": {terrain: grass' in text)
    proc = run_cli("validate", str(game))
    assert proc.returncode == 1
    assert f"board.yaml:{line}:22: error HK309: player 2's start zone is water, where only flyers may stand" in proc.stdout
