"""Dice Battles content: it validates, every file names its schema, and the army rules hold."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.dice_battles.checks import content_problems
from test_db_support import CONTENT, ROOT, content, load_yaml, model

SCHEMAS = ROOT / "schemas" / "dice-battles"


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=cwd, capture_output=True, text=True)


def test_hordekit_validate_passes_on_the_shipped_content() -> None:
    run = _cli("validate", "content/dice-battles")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 errors" in run.stdout or ": ok" in run.stdout


def test_every_content_file_names_its_schema_on_line_one() -> None:
    for path in sorted(CONTENT.glob("*.yaml")):
        first = path.read_text().splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=../../schemas/"), path.name
        assert (path.parent / first.split("=", 1)[1]).resolve().is_file(), path.name


def test_every_schema_property_has_a_description_and_refuses_unknown_keys() -> None:
    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False, where
            for name, prop in (node.get("properties") or {}).items():
                assert "description" in prop, f"{where}.{name}"
            for k, v in node.items():
                walk(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}[{i}]")

    for path in sorted(SCHEMAS.glob("*.schema.json")):
        data = json.loads(path.read_text())
        assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        walk(data, path.name)


def test_two_factions_each_with_heroes_for_three_battalions_and_two_armies() -> None:
    m = model()
    for faction in ("goblins", "serpent-children"):
        assert sum(1 for u in m.units if u.faction == faction and u.level == 3) >= 3
        assert sum(1 for a in m.armies if a.faction == faction) >= 2
        assert {u.level for u in m.units if u.faction == faction} == {0, 1, 2, 3}


def test_one_order_card_per_unit_tile() -> None:
    m = model()
    for u in m.units:
        card = m.cards[u.card]
        assert card.unit == u.idx and card.quantity == u.quantity and card.level == u.level


def test_predefined_armies_keep_the_custom_army_rules() -> None:
    assert content_problems(content()) == []


def _broken(mutate) -> list:
    data = copy.deepcopy(content())
    mutate(data["army"][0])
    return content_problems(data)


def test_an_army_over_thirty_points_is_refused() -> None:
    def upgrade(army):
        for b in army["battalions"]:
            b["fc"] = "cave-troll" if b is army["battalions"][1] else b["fc"]
        army["battalions"][0]["fl"] = army["battalions"][0]["fr"] = "wolf-riders"
        army["reinforcements"] = ["cave-troll", "shield-goblins", "shield-goblins", "wolf-riders"]
    problems = _broken(upgrade)
    assert any("points" in p.message and p.path == ("battalions",) for p in problems)


def test_a_unit_on_a_space_its_tile_does_not_show_is_refused() -> None:
    problems = _broken(lambda a: a["battalions"][0].update({"rl": "wolf-riders"}))
    assert [(p.kind, p.index, p.path) for p in problems if "may not stand" in p.message] == [
        ("army", 0, ("battalions", 0, "rl"))]


def test_a_unit_of_another_faction_is_refused() -> None:
    problems = _broken(lambda a: a["battalions"][2].update({"fl": "hatchlings"}))
    assert any("belongs to serpent-children" in p.message for p in problems)


def test_a_normal_unit_on_the_hero_space_is_refused() -> None:
    problems = _broken(lambda a: a["battalions"][1].update({"hero": "goblin-spearmen"}))
    assert any("not a hero" in p.message for p in problems)


def test_the_same_hero_twice_is_refused() -> None:
    problems = _broken(lambda a: a["battalions"][1].update({"hero": "warboss-grukk"}))
    assert any("more than one battalion" in p.message for p in problems)


def test_more_tiles_than_the_box_holds_are_refused() -> None:
    problems = _broken(lambda a: a.update(reinforcements=["goblin-catapult", "goblin-catapult"]))
    assert any("box has 1" in p.message for p in problems)


def test_build_model_refuses_an_army_that_breaks_the_rules() -> None:
    from engine.dice_battles import SPEC
    data = copy.deepcopy(content())
    data["army"][0]["battalions"][0]["rl"] = "wolf-riders"
    try:
        SPEC.build_model(data)
    except ValueError as exc:
        assert "may not stand on rl" in str(exc)
    else:
        raise AssertionError("a broken army was accepted")


def test_validate_reports_too_many_reinforcements_at_file_line_col(tmp_path: Path) -> None:
    game = tmp_path / "dice-battles"
    game.mkdir()
    for f in CONTENT.glob("*.yaml"):
        text = f.read_text().replace("../../schemas/", str(ROOT / "schemas") + "/")
        (game / f.name).write_text(text)
    armies = (game / "armies.yaml").read_text()
    armies = armies.replace("reinforcements: [goblin-spearmen, goblin-mob]",
                            "reinforcements: [goblin-spearmen, goblin-mob, goblin-mob, goblin-mob, goblin-archers]")
    (game / "armies.yaml").write_text(armies)
    line = next(i for i, t in enumerate(armies.splitlines(), 1) if "goblin-archers]" in t and "reinforcements" in t)
    run = _cli("validate", str(game))
    assert run.returncode == 1
    assert f"armies.yaml:{line}:" in run.stdout, run.stdout


def test_validate_reports_a_power_with_an_unknown_key_at_file_line_col(tmp_path: Path) -> None:
    game = tmp_path / "dice-battles"
    game.mkdir()
    for f in CONTENT.glob("*.yaml"):
        (game / f.name).write_text(f.read_text())
    cards = (game / "order-cards.yaml").read_text().replace("{kind: heal, name: Heal}", "{kind: heal, name: Heal, amount: 2}", 1)
    (game / "order-cards.yaml").write_text(cards)
    line = next(i for i, t in enumerate(cards.splitlines(), 1) if "amount: 2}" in t)
    run = _cli("validate", str(game))
    assert run.returncode == 1 and f"order-cards.yaml:{line}:" in run.stdout, run.stdout


def test_every_power_kind_has_printed_text() -> None:
    texts = load_yaml(ROOT / "templates" / "dice-battles" / "text.yaml")
    from engine.dice_battles import SPEC
    assert set(texts) == set(SPEC.effect_kinds)


def test_two_units_of_a_faction_with_the_same_picture_are_refused() -> None:
    """Cards find their tiles by picture (activation, regrouping): a shared picture is ambiguous."""
    data = copy.deepcopy(content())
    mob = next(i for i, u in enumerate(data["unit"]) if u["id"] == "goblin-mob")
    data["unit"][mob]["picture"] = "spear"
    problems = content_problems(data)
    assert [(p.kind, p.index, p.path) for p in problems] == [("unit", mob, ("picture",))]
    assert "goblin-spearmen" in problems[0].message


@pytest.mark.parametrize("card_id, regroups, named", [
    ("warboss-grukk-order", ["goblin-spearmen", "warboss-grukk"], "warboss-grukk"),
    ("goblin-shaman-order", ["goblin-shaman", "serpent-spawn"], "serpent-children"),
])
def test_an_order_card_regroups_only_normal_units_of_its_own_faction(card_id: str, regroups: list, named: str) -> None:
    """Regrouped units are moved to reinforcements: a hero never stands there (it leaves the game
    when defeated; a hero order on an idle battalion would lift its own hero off the mat), and a
    unit of another faction would never be found in the fleeing zone or the battalion."""
    data = copy.deepcopy(content())
    card = next(i for i, c in enumerate(data["order-card"]) if c["id"] == card_id)
    data["order-card"][card]["regroups"] = regroups
    problems = content_problems(data)
    assert [(p.kind, p.index, p.path) for p in problems] == [("order-card", card, ("regroups", 1))]
    assert named in problems[0].message


def test_the_hero_space_is_only_for_heroes() -> None:
    """The bottom of the triangle is the hero's space: a normal tile that shows it and a hero tile
    that shows another space are both refused."""
    data = copy.deepcopy(content())
    spear = next(i for i, u in enumerate(data["unit"]) if u["id"] == "goblin-spearmen")
    queen = next(i for i, u in enumerate(data["unit"]) if u["id"] == "serpent-queen")
    data["unit"][spear]["positions"] = ["fl", "fc", "fr", "rl", "rr", "hero"]
    data["unit"][queen]["positions"] = ["hero", "fc"]
    problems = content_problems(data)
    assert [(p.kind, p.index, p.path) for p in problems] == [("unit", spear, ("positions", 5)),
                                                              ("unit", queen, ("positions",))]
