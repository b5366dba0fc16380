"""Kingdoms content: schemas, counts, cross-references, text templates and rulebook spot checks.

Everything here reads the real files under content/kingdoms, schemas/kingdoms and
templates/kingdoms; nothing is fetched over the network.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Iterator

import pytest
from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content" / "kingdoms"
SCHEMAS = ROOT / "schemas"
GAME_SCHEMAS = SCHEMAS / "kingdoms"
TEXT = ROOT / "templates" / "kingdoms" / "text.yaml"


# -- loading -------------------------------------------------------------------------------------

def load_yaml(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


@cache
def manifest() -> dict[str, Any]:
    return load_yaml(CONTENT / "game.yaml")


def kinds() -> list[str]:
    return list(manifest()["components"])


@cache
def items(kind: str) -> list[dict[str, Any]]:
    return load_yaml(CONTENT / manifest()["components"][kind]["file"])["items"]


def by_id(kind: str) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in items(kind)}


@cache
def load_schema(path: Path) -> dict[str, Any]:
    """A schema with its file URI as $id, so relative $refs resolve to files next to it."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc.setdefault("$id", path.resolve().as_uri())
    return doc


def retrieve(uri: str) -> Resource:
    if not uri.startswith("file://"):
        raise NoSuchResource(ref=uri)
    path = Path(uri[len("file://"):])
    if not path.resolve().is_relative_to(SCHEMAS.resolve()) or not path.is_file():
        raise NoSuchResource(ref=uri)
    return Resource.from_contents(load_schema(path))


REGISTRY = Registry(retrieve=retrieve)  # type: ignore[call-arg]


def all_ids() -> dict[str, set[str]]:
    return {kind: {item["id"] for item in items(kind)} for kind in kinds()}


def validator_for(schema_path: Path) -> Any:
    """A 2020-12 validator that also checks the hordekit ``x-ref`` keyword against real ids."""
    ids = all_ids()

    def x_ref(validator: Any, kind: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if isinstance(instance, str) and instance not in ids.get(kind, set()):
            yield ValidationError(f"unknown {kind} {instance!r}")

    cls = validators.extend(Draft202012Validator, {"x-ref": x_ref})
    return cls(load_schema(schema_path), registry=REGISTRY)


def schema_files() -> list[Path]:
    return sorted(GAME_SCHEMAS.glob("*.schema.json"))


def effects_of(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [*item.get("effects", []), *item.get("first-settlement-effects", [])]


# -- schemas -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_schema_is_valid_2020_12(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def _walk(node: Any, where: str) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}/{i}")


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_every_property_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    missing = [f"{where}/properties/{name}"
               for where, node in _walk(schema, "#")
               if isinstance(node.get("properties"), dict) and not where.endswith("/properties")
               for name, prop in node["properties"].items()
               if not (isinstance(prop, dict) and prop.get("description"))]
    assert not missing, missing


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_every_object_forbids_unknown_keys(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    # an `if` subschema is a condition, not a shape: closing it would change what it matches
    loose = [where for where, node in _walk(schema, "#")
             if not where.endswith(("/properties", "/if")) and "properties" in node
             and node.get("additionalProperties") is not False]
    assert not loose, loose


def test_every_content_file_has_a_schema_and_a_modeline() -> None:
    for kind, spec in manifest()["components"].items():
        path = CONTENT / spec["file"]
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema=../../schemas/{spec['schema']}", path.name
        assert (SCHEMAS / spec["schema"]).is_file(), spec["schema"]
        assert load_yaml(path)["kind"] == kind
    first = (CONTENT / "game.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schemas/manifest.schema.json"


@pytest.mark.parametrize("kind", kinds())
def test_content_file_validates_against_its_schema(kind: str) -> None:
    spec = manifest()["components"][kind]
    data = load_yaml(CONTENT / spec["file"])
    errors = sorted(validator_for(SCHEMAS / spec["schema"]).iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def test_a_wrong_effect_parameter_is_rejected() -> None:
    """The effect vocabulary is closed: unknown kinds and unknown parameters fail."""
    v = validator_for(GAME_SCHEMAS / "abilities.schema.json")
    good = {"id": "x", "name": "X", "timing": "permanent", "spell": False, "cost": {},
            "effects": [{"kind": "extra-resource", "resource": "food", "amount": 1}]}
    assert v.is_valid({"kind": "ability", "items": [good]})
    bad_param = dict(good, effects=[{"kind": "extra-resource", "resource": "food", "amount": 1, "bonus": 2}])
    bad_kind = dict(good, effects=[{"kind": "gain-everything"}])
    for bad in (bad_param, bad_kind):
        assert not v.is_valid({"kind": "ability", "items": [bad]})


def test_manifest_header() -> None:
    m = manifest()
    assert (m["id"], m["title"], m["rules"], m["schemas"]) == ("kingdoms", "Kingdoms", "kingdoms", "hordekit")
    assert m["players"] == {"min": 1, "max": 6}
    Draft202012Validator(load_schema(SCHEMAS / "manifest.schema.json"), registry=REGISTRY).validate(m)


# -- counts and ids ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", kinds())
def test_count_matches_manifest(kind: str) -> None:
    total = sum(item.get("quantity", 1) for item in items(kind))
    assert total == manifest()["components"][kind]["expected"]


def test_ids_are_unique_across_the_game() -> None:
    seen: dict[str, str] = {}
    for kind in kinds():
        for item in items(kind):
            assert item["id"] not in seen, f"{item['id']} in {kind} and {seen.get(item['id'])}"
            seen[item["id"]] = kind


def test_rulebook_counts() -> None:
    assert len(items("ability")) == 84
    assert len(items("horde-counter")) == 71
    assert [h["list"] for h in items("horde-counter")].count(1) == 40
    assert len(items("kingdom")) == 15
    assert sorted(e["roll"] for e in items("event")) == list(range(1, 11))
    assert sum(1 for a in items("ability") if a["spell"]) == 20
    assert len(items("phase")) == 11 and len(items("round-segment")) == 2
    assert {t["quantity"] for t in items("terrain")} == {10} and len(items("terrain")) == 5
    assert {t["quantity"] for t in items("advanced-tile")} == {5} and len(items("advanced-tile")) == 10


def test_every_kingdom_starts_with_two_existing_abilities() -> None:
    abilities = by_id("ability")
    for kingdom in items("kingdom"):
        assert len(kingdom["starting-abilities"]) == 2
        for ref in kingdom["starting-abilities"]:
            assert ref in abilities, f"{kingdom['name']}: {ref}"


def test_spells_are_timed_as_spells() -> None:
    for a in items("ability"):
        if a["timing"] == "spell":
            assert a["spell"], a["id"]
        if a["spell"]:
            assert a["timing"] in ("spell", "one-time"), a["id"]


def test_phases_are_in_order() -> None:
    assert [p["order"] for p in items("phase")] == list(range(1, 12))
    assert [p["id"] for p in items("phase")][0] == "event-phase"
    assert [p["id"] for p in items("phase")][-1] == "end-phase"


# -- text templates ------------------------------------------------------------------------------

@cache
def templates() -> dict[str, str]:
    return load_yaml(TEXT)


def effect_kinds_in_schema() -> set[str]:
    defs = json.loads((GAME_SCHEMAS / "effects.schema.json").read_text(encoding="utf-8"))["$defs"]
    return {b["$ref"].rsplit("/", 1)[-1] for b in defs["effect"]["oneOf"]}


def all_effects() -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in ("ability", "event", "advanced-tile"):
        for item in items(kind):
            for effect in effects_of(item):
                yield item["id"], effect
    for effect in items("rules")[0]["battle"]["horde-terrain-effects"]:
        yield "rules", effect


def render(effect: dict[str, Any]) -> str:
    env = SandboxedEnvironment(undefined=StrictUndefined)
    context = {k.replace("-", "_"): v for k, v in effect.items() if k != "kind"}
    return env.from_string(templates()[effect["kind"]]).render(**context)


def test_every_effect_kind_has_a_template_and_no_template_is_orphaned() -> None:
    assert set(templates()) == effect_kinds_in_schema()
    used = {effect["kind"] for _, effect in all_effects()}
    assert used <= set(templates())


def test_every_schema_effect_kind_is_used() -> None:
    assert {effect["kind"] for _, effect in all_effects()} == effect_kinds_in_schema()


@pytest.mark.parametrize("owner,effect", list(all_effects()), ids=lambda x: x if isinstance(x, str) else x["kind"])
def test_effect_text_renders(owner: str, effect: dict[str, Any]) -> None:
    text = render(effect)
    assert text.strip() and text.endswith(".")
    assert "{" not in text and "}" not in text
    assert "  " not in text, text


def test_effect_text_examples() -> None:
    assert render(by_id("ability")["green-thumb"]["effects"][0]) == "Your Resource phase yields 1 more :food:."
    assert render(by_id("event")["quarry"]["effects"][0]) == "Roll 1:d6: and take that many :stone:."
    assert "+2" in render(by_id("ability")["holy-word"]["effects"][0])


# -- spot checks that read like the rulebook -----------------------------------------------------

def test_tarasque_is_a_one_hit_monster_with_defense_4_and_attack_4() -> None:
    t = by_id("horde-counter")["tarasque"]
    assert (t["type"], t["hits"], t["defense"], t["attack"], t["list"]) == ("monster", 1, 4, 4, 2)


def test_kobold_commander_heads_the_first_list() -> None:
    k = items("horde-counter")[0]
    assert (k["name"], k["type"], k["hits"], k["defense"], k["attack"], k["list"]) == (
        "Kobold Commander", "humanoid", 8, -2, 8, 1)


def test_dwarves_start_with_mountaineers_and_furnaces() -> None:
    assert by_id("kingdom")["dwarves"]["starting-abilities"] == ["mountaineers", "furnaces"]


def test_tribes_men_migrations_means_migration() -> None:
    assert by_id("kingdom")["tribes-men"]["starting-abilities"] == ["migration", "militias"]


def test_building_costs() -> None:
    s = by_id("structure")
    assert s["castle"]["cost"] == {"stone": 4}
    assert s["settlement"]["cost"] == {"food": 2, "wood": 3}
    assert s["army"]["cost"] == {"food": 1, "metal": 2, "wood": 1}
    assert s["wizard-tower"]["cost"] == {"stone": 5}
    assert s["wizard-tower"]["produces"] == {"magic": 1}


def test_the_game_lasts_20_rounds_on_a_10_by_10_board() -> None:
    r = items("rules")[0]
    assert r["rounds"] == 20 and (r["board"]["columns"], r["board"]["rows"]) == (10, 10)
    assert by_id("time-track")["time-track"]["spaces"] == r["rounds"]


def test_battle_numbers() -> None:
    b = items("rules")[0]["battle"]["units"]
    assert b["army"]["hit-on"] == 6 and b["settlement"]["hit-on"] == 8 and b["castle"]["hit-on"] == 7
    assert b["castle"]["hits"] == 2


def test_resource_economy() -> None:
    r = items("rules")[0]
    assert r["resources"]["cap"] == 7 and r["resources"]["free-per-turn"] == 3
    assert r["resources"]["gold-conversion"] == {"give": 2, "get": 1}
    assert r["limits"]["stacking-limit"] == 4
    assert r["research"] == {"free-per-turn": 1, "extra-cost": 10, "duplicates-allowed": False}
    assert r["spawn"]["schedule"] == [{"from-round": 1, "hordes": 1}, {"from-round": 11, "hordes": 2}]


def test_resource_colours() -> None:
    names = {r["id"]: r["colour-name"] for r in items("resource")}
    assert names == {"stone": "grey", "wood": "brown", "food": "white", "metal": "blue",
                     "magic": "red", "gold": "yellow"}


def test_treasure_trove_is_the_zero_face() -> None:
    assert by_id("event")["treasure-trove"]["roll"] == 10


def test_horde_moves_toward_undefended_settlements_first() -> None:
    horde = by_id("round-segment")["horde-segment"]
    assert horde["target-priority"][0] == "undefended-settlement"
    assert horde["target-priority"][-1] == "castle-with-armies"
    assert by_id("round-segment")["raid-segment"]["hit-allocation"][0] == "castle"


def test_earthquake_is_a_spell_hitting_every_unit_on_9() -> None:
    e = by_id("ability")["earthquake"]
    assert e["spell"] and e["cost"] == {"magic": 1}
    assert e["effects"] == [{"kind": "long-range-attack", "hit-on": 9, "roll-bonus": 0,
                             "targets-all-units": True, "from": ["army", "castle"]}]


def test_each_player_colour_has_armies_and_settlements() -> None:
    army = {t["colour-name"] for t in items("army-token")}
    settlement = {t["colour-name"] for t in items("settlement-marker")}
    assert army == settlement and len(army) == 6


def test_doc_describes_every_effect_kind_and_every_file() -> None:
    doc = (ROOT / "docs" / "games" / "kingdoms.md").read_text(encoding="utf-8")
    for kind in effect_kinds_in_schema():
        assert f"#### `{kind}`" in doc, kind
    for spec in manifest()["components"].values():
        assert f"`{spec['file']}`" in doc, spec["file"]
    assert "## Decisions on the seed's data" in doc


def test_every_scenario_the_doc_names_exists() -> None:
    """The rules summary and the coverage table cite scenarios by file name; each must be there."""
    import re
    doc = (ROOT / "docs" / "games" / "kingdoms.md").read_text(encoding="utf-8")
    summary = doc[doc.index("## Rules as the engine reads them"):doc.index("## Bots")]
    table = doc[doc.index("| rulebook part |"):doc.index("## Rules engine")]
    cited = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+){3,})`", summary + table))
    scenarios = {p.stem for p in (ROOT / "scenarios" / "kingdoms").glob("*.yaml")}
    assert len(cited) > 50
    assert sorted(cited - scenarios) == []
