"""Hordes & Heroes content: schemas, counts, named cards, effects and their printed text."""
from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from engine.hordes_and_heroes import SPEC
from engine.hordes_and_heroes.model import all_effect_kinds
from test_hh_support import CONTENT, SCHEMAS, TEMPLATES, content, load_yaml, manifest, model, schema

BASE = "https://hordekit.local/schemas/"


def _registry() -> Registry:
    """Resolve relative $refs by reading the referenced schema file from disk."""
    def retrieve(uri: str) -> Resource:
        if not uri.startswith(BASE):
            raise LookupError(uri)
        return Resource.from_contents(schema(SCHEMAS / uri[len(BASE):]))
    return Registry(retrieve=retrieve)


def _validator(rel: str) -> Draft202012Validator:
    s = dict(schema(SCHEMAS / rel))
    s["$id"] = BASE + rel
    return Draft202012Validator(s, registry=_registry())


COMPONENTS = sorted(manifest()["components"].items())


@pytest.mark.parametrize("kind,comp", COMPONENTS, ids=[k for k, _ in COMPONENTS])
def test_content_file_validates_against_its_schema(kind: str, comp: dict) -> None:
    Draft202012Validator.check_schema(schema(SCHEMAS / comp["schema"]))
    data = load_yaml(CONTENT / comp["file"])
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator(comp["schema"]).iter_errors(data)]
    assert errors == []
    assert data["kind"] == kind


@pytest.mark.parametrize("kind,comp", COMPONENTS, ids=[k for k, _ in COMPONENTS])
def test_component_counts_match_the_rulebook(kind: str, comp: dict) -> None:
    assert sum(i.get("quantity", 1) for i in content()[kind]) == comp["expected"]


def test_shared_definitions_are_valid_schemas() -> None:
    for path in sorted((SCHEMAS / "hordes-and-heroes").glob("*.schema.json")):
        Draft202012Validator.check_schema(schema(path))


def test_every_schema_object_is_closed_and_every_property_described() -> None:
    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False, where
            for name, prop in (node.get("properties") or {}).items():
                assert "description" in prop, f"{where}.{name}"
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")
    for path in sorted((SCHEMAS / "hordes-and-heroes").glob("*.schema.json")):
        walk(schema(path), path.name)


def test_bad_dice_cost_is_rejected_by_the_pattern() -> None:
    v = _validator("hordes-and-heroes/heroes.schema.json")
    bad = {"kind": "hero", "items": [{"id": "x", "name": "X", "class": "mage", "strength": 1, "cost": {"dice": "X4"}}]}
    assert list(v.iter_errors(bad))
    bad["items"][0]["cost"] = {"dice": "7"}
    assert list(v.iter_errors(bad))


def test_ids_are_unique_across_the_game() -> None:
    ids = [i["id"] for items in content().values() for i in items]
    assert len(ids) == len(set(ids))


def test_content_files_start_with_their_schema_modeline() -> None:
    for kind, comp in manifest()["components"].items():
        first = (CONTENT / comp["file"]).read_text().splitlines()[0]
        assert first == f"# yaml-language-server: $schema=../../schemas/{comp['schema']}"
    assert (CONTENT / "game.yaml").read_text().startswith("# yaml-language-server: $schema=../../schemas/manifest.schema.json")


def test_rulebook_cards_have_the_rulebook_numbers() -> None:
    by = {i["id"]: i for items in content().values() for i in items}
    assert by["archmage"]["strength"] == 8
    assert by["archmage"]["effects"] == [{"kind": "capture", "max_strength": 6}]
    assert by["alchemist"]["strength"] == 0 and by["sergeant"]["strength"] == 2
    assert by["steam-brute"]["strength"] == 4 and by["steamsmith"]["strength"] == 3
    assert (by["orc-mage"]["strength"], by["orc-mage"]["treasure"]) == (3, 1)
    assert (by["ice-giant"]["strength"], by["ice-giant"]["ambush"], by["ice-giant"]["xp"]) == (9, 2, 5)
    assert by["shrewd-rakshasa"]["counterattack"] == 4 and by["bone-warrior"]["counterattack"] == 1
    assert by["wicked-spinner"]["ambush"] == 1 and by["vampire-lord"]["ambush"] == 3
    assert by["tavern"]["xp_penalty"] == 2
    for name in ("paladin", "steamasaur", "rock-monster", "blighter", "dark-assassin", "negotiations",
                 "by-the-power-of", "whered-you-go", "under-pressure"):
        assert name in by


def test_every_effect_kind_in_content_has_a_handler() -> None:
    assert all_effect_kinds(model()) <= SPEC.effect_kinds


def test_every_effect_kind_has_a_template_that_renders() -> None:
    templates = load_yaml(TEMPLATES)
    env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
    assert set(templates) == set(SPEC.effect_kinds)
    samples = {}
    for items in content().values():
        for item in items:
            for effects in _effect_lists(item):
                for e in effects:
                    samples.setdefault(e["kind"], []).append(e)
    for kind, text in templates.items():
        for e in samples.get(kind, [{"kind": kind, "amount": 1, "max_strength": 3, "class": "mage"}]):
            rendered = env.from_string(text).render(**e)
            assert rendered.strip() and "{" not in rendered, (kind, rendered)


def _effect_lists(item: dict):
    if "effects" in item:
        yield item["effects"]
    for half in ("level_1", "level_2"):
        if half in item:
            yield item[half]["effects"]
