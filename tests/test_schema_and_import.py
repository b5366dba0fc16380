"""`hordekit schema --for` and `hordekit import csv`: from a sheet or a few typed items to a
checked component file with editor completion (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli

MANIFEST = """\
id: spores
title: Spores
players: {min: 2, max: 4}
schemas: schemas
components:
  spore:
    file: spores.yaml
    schema: spores.schema.json
    expected: 5
"""

SPORES = """\
kind: spore
items:
  - {id: red-cap, name: Red Cap, colour: red, power: 2, quantity: 2}
  - {id: blue-cap, name: Blue Cap, colour: blue, power: 3}
  - {id: red-stalk, name: Red Stalk, colour: red, power: 1}
  - {id: blue-stalk, name: Blue Stalk, colour: blue, power: 0}
"""


@pytest.fixture
def spores(tmp_path: Path) -> Path:
    game = tmp_path / "spores"
    game.mkdir()
    (game / "game.yaml").write_text(MANIFEST)
    (game / "spores.yaml").write_text(SPORES)
    return game


def test_schema_for_derives_a_schema_that_makes_the_game_validate(spores: Path) -> None:
    assert run_cli("validate", str(spores)).returncode == 1  # no schema yet: HK013
    proc = run_cli("schema", "--for", str(spores))
    assert proc.returncode == 0, proc.stderr
    schema = json.loads((spores / "schemas" / "spores.schema.json").read_text())
    item = schema["$defs"]["item"]
    assert set(item["required"]) == {"id", "name", "colour", "power"}  # quantity is on one item only
    assert item["properties"]["colour"]["enum"] == ["blue", "red"]
    assert item["properties"]["power"]["type"] == "integer"
    assert run_cli("validate", str(spores)).returncode == 0


def test_the_derived_schema_catches_a_misspelt_field_with_a_suggestion(spores: Path) -> None:
    run_cli("schema", "--for", str(spores))
    (spores / "spores.yaml").write_text(SPORES.replace("power: 0", "powr: 0"))
    proc = run_cli("validate", str(spores))
    assert proc.returncode == 1
    assert "spores.yaml:6:54: error HK104" in proc.stdout and "did you mean `power`" in proc.stdout


def test_schema_for_names_the_schema_in_the_component_file_for_the_editor(spores: Path) -> None:
    run_cli("schema", "--for", str(spores))
    first = (spores / "spores.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=schemas/spores.schema.json"


def test_schema_for_keeps_an_existing_schema_unless_forced(spores: Path) -> None:
    run_cli("schema", "--for", str(spores))
    target = spores / "schemas" / "spores.schema.json"
    target.write_text(target.read_text().replace("components", "MY OWN WORDS"))
    kept = run_cli("schema", "--for", str(spores))
    assert "kept" in kept.stdout and "MY OWN WORDS" in target.read_text()
    run_cli("schema", "--for", str(spores), "--force")
    assert "MY OWN WORDS" not in target.read_text()


def test_schema_for_refuses_to_write_into_hordekit_s_own_schemas(spores: Path) -> None:
    (spores / "game.yaml").write_text(MANIFEST.replace("schemas: schemas\n", ""))
    proc = run_cli("schema", "--for", str(spores))
    assert proc.returncode == 2 and "outside the game" in proc.stderr


CARDS_CSV = """\
id,Name,Quantity,Steps,Effects,Flavor
stride,Stride,10,1,"[{kind: draw, amount: 1}]",One foot in front of the other.
leap,Leap,6,3,,"The gap, it seemed, was smaller."
"""


@pytest.fixture
def fungus(tmp_path: Path) -> Path:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    return tmp_path


def test_import_csv_maps_columns_to_fields_with_the_schema_s_types(fungus: Path) -> None:
    (fungus / "cards.csv").write_text(CARDS_CSV)
    proc = run_cli("import", "csv", "cards.csv", "--kind", "card", cwd=fungus)
    assert proc.returncode == 0, proc.stderr
    from toolkit.games import load_game

    loaded = load_game(fungus / "content" / "fungus-wars")
    assert loaded.ok, loaded.diagnostics
    stride, leap = loaded.data["card"]
    assert stride == {"id": "stride", "name": "Stride", "quantity": 10, "steps": 1,
                      "effects": [{"kind": "draw", "amount": 1}], "flavor": "One foot in front of the other."}
    assert leap["flavor"] == "The gap, it seemed, was smaller." and "effects" not in leap


def test_import_csv_reports_each_row_that_does_not_fit_at_its_cell_and_writes_nothing(fungus: Path) -> None:
    cards = fungus / "content" / "fungus-wars" / "cards.yaml"
    before = cards.read_text()
    (fungus / "bad.csv").write_text("id,Name,Steps,Colour\nstride,Stride,one,red\nLeap,Leap,3,\nhop,Hop,12,\n")
    proc = run_cli("import", "csv", "bad.csv", "--kind", "card", cwd=fungus)
    assert proc.returncode == 1
    out = proc.stdout
    assert "bad.csv:1:15: error HK503: column 'Colour' is not a field of this kind" in out
    assert "bad.csv:2:15: error HK505: column 'Steps': 'one' is not a whole number" in out
    assert "bad.csv:3:1:" in out and "'Leap'" in out  # the id pattern, at the id cell
    assert "bad.csv:4:" in out and "12" in out  # more steps than the schema allows
    assert cards.read_text() == before


def test_import_csv_annotations_for_ci(fungus: Path) -> None:
    (fungus / "bad.csv").write_text("id,Name,Steps\nstride,Stride,one\n")
    proc = run_cli("import", "csv", "bad.csv", "--kind", "card", "--format", "github", cwd=fungus)
    assert proc.stdout.startswith("::error file=bad.csv,line=2,col=15,title=HK505::")


def test_import_csv_without_a_schema_infers_the_types(tmp_path: Path) -> None:
    (tmp_path / "units.csv").write_text("id,strength,speed,flying\norc,3,1.5,false\nbat,1,3,true\n")
    proc = run_cli("import", "csv", "units.csv", "--kind", "unit", "-o", "units.yaml", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load((tmp_path / "units.yaml").read_text())
    assert data == {"kind": "unit", "items": [{"id": "orc", "strength": 3, "speed": 1.5, "flying": False},
                                               {"id": "bat", "strength": 1, "speed": 3, "flying": True}]}


def test_import_csv_names_an_unknown_kind_with_a_suggestion(fungus: Path) -> None:
    (fungus / "cards.csv").write_text(CARDS_CSV)
    proc = run_cli("import", "csv", "cards.csv", "--kind", "cards", cwd=fungus)
    assert proc.returncode == 2 and "did you mean `card`" in proc.stderr


def test_import_csv_dotted_columns_make_nested_fields(tmp_path: Path) -> None:
    (tmp_path / "heroes.csv").write_text("id,cost.dice,cost.steam\nsquire,XX,1\nmage,5,\n")
    proc = run_cli("import", "csv", "heroes.csv", "--kind", "hero", "-o", "heroes.yaml", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    from ruamel.yaml import YAML

    items = YAML(typ="safe").load((tmp_path / "heroes.yaml").read_text())["items"]
    assert items == [{"id": "squire", "cost": {"dice": "XX", "steam": 1}}, {"id": "mage", "cost": {"dice": 5}}]
