"""`hordekit validate` checks a game's manifest, schemas and text templates against its rules'
declaration, and reports each disagreement where the designer fixes it."""
from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import copy_shipped_game, run_cli


def _copy_game(tmp_path: Path) -> Path:
    """A scratch Hordes & Heroes with its own schemas and templates, safe to break."""
    return copy_shipped_game(tmp_path, "hordes-and-heroes")


def _validate(game: Path) -> list[dict]:
    proc = run_cli("validate", str(game), "--format", "json")
    data = json.loads(proc.stdout)
    diags = data["diagnostics"] if isinstance(data, dict) else data
    return diags


def _codes(diags: list[dict]) -> dict[str, dict]:
    return {d["code"]: d for d in diags}


def _line_of(path: Path, pattern: str) -> int:
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if re.search(pattern, line):
            return i
    raise AssertionError(pattern)


def test_the_scratch_copy_is_clean(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    assert [d for d in _validate(game) if d["severity"] == "error"] == []


def test_a_player_range_the_rules_cannot_play_is_an_error_at_players(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("players: {min: 2, max: 5}", "players: {min: 2, max: 7}"))
    d = _codes(_validate(game))["HK304"]
    assert d["severity"] == "error" and d["line"] == _line_of(manifest, r"^players:")
    assert "2-5" in d["message"]


def test_a_renamed_kind_the_rules_need_is_reported(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("\n  town:\n", "\n  towns:\n"))
    diags = _validate(game)
    missing = _codes(diags)["HK305"]
    assert "'town'" in missing["message"] and missing["line"] == _line_of(manifest, r"^components:")
    assert "towns" in missing["hint"]


def test_a_kind_neither_played_nor_printed_is_a_warning_at_its_key(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    manifest = game / "game.yaml"
    text = manifest.read_text().replace("\n  token:\n", "\n  tokenz:\n")
    text = text.replace("description: Three doom tokens", "physical: false\n    description: Three doom tokens")
    text = re.sub(r"(  tokenz:\n(?:    .*\n)*?)    physical: true\n", r"\1", text)
    manifest.write_text(text)
    d = _codes(_validate(game))["HK306"]
    assert d["severity"] == "warning" and d["line"] == _line_of(manifest, r"^  tokenz:")


def test_an_effect_kind_without_a_text_template_is_an_error_in_text_yaml(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    text = game / "templates" / "text.yaml"
    lines = text.read_text().splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if l.startswith("extra-reroll:"))
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^[a-z]", lines[i])), len(lines))
    text.write_text("".join(lines[:start] + lines[end:]))
    diags = [d for d in _validate(game) if d["code"] == "HK307"]
    assert diags and "extra-reroll" in diags[0]["message"] and diags[0]["file"].endswith("text.yaml")


def test_a_schema_effect_kind_the_rules_do_not_know_is_an_error_at_its_line(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    defs = game / "schemas" / "hordes-and-heroes" / "defs.schema.json"
    defs.write_text(defs.read_text().replace('"const": "extra-reroll"', '"const": "extra-rerol"'))
    diags = [d for d in _validate(game) if d["code"] == "HK308"]
    assert diags, "the misspelt kind is found in the schema"
    d = diags[0]
    assert "extra-rerol'" in d["message"] and d["line"] == _line_of(defs, r'"const": "extra-rerol"')
    assert "extra-reroll" in d["hint"]


def test_content_using_a_schema_kind_the_rules_lack_names_the_rules_and_its_line(tmp_path: Path) -> None:
    """A kind added to the schema and used on a card, before the rules play it: HK302 at the card's
    effect, naming the rules as the manifest does (as HK308 does at the schema)."""
    game = _copy_game(tmp_path)
    defs = game / "schemas" / "hordes-and-heroes" / "defs.schema.json"
    defs.write_text(defs.read_text().replace('"const": "extra-reroll"', '"const": "extra-rerol"'))
    actions = game / "actions.yaml"
    actions.write_text(actions.read_text().replace("{kind: extra-reroll, amount: 1}", "{kind: extra-rerol, amount: 1}", 1))
    d = next(d for d in _validate(game) if d["code"] == "HK302")
    assert d["file"].endswith("actions.yaml") and d["line"] == _line_of(actions, "extra-rerol,")
    assert "'extra-rerol'" in d["message"] and "hordes_and_heroes" in d["message"]
    assert "extra-reroll" in d["hint"]
    schema_side = next(d for d in _validate(game) if d["code"] == "HK308")
    assert "hordes_and_heroes" in schema_side["message"]


def test_an_unknown_effect_kind_with_no_near_name_says_how_to_add_one(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    actions = game / "actions.yaml"
    actions.write_text(actions.read_text().replace("{kind: extra-reroll, amount: 1}", "{kind: summon-dragon, amount: 1}", 1))
    d = _codes(_validate(game))["HK106"]
    assert d["file"].endswith("actions.yaml") and d["line"] == _line_of(actions, "summon-dragon")
    assert "extra-reroll" in d["hint"] and "text.yaml" in d["hint"] and "docs/content-format.md" in d["hint"]


def test_effects_are_found_by_their_kind_whatever_the_field_is_called(tmp_path: Path) -> None:
    """A game may keep effects under any field name: an effect kind the rules know is checked
    wherever it sits (here, under `passive:`, whose printed sentence is missing)."""
    game = _copy_game(tmp_path)
    schema = game / "schemas" / "hordes-and-heroes" / "heroes.schema.json"
    data = json.loads(schema.read_text())
    item = data["$defs"]["item"]
    item["properties"]["passive"] = {"type": "array", "description": "Always-on abilities.",
                                     "items": {"$ref": "defs.schema.json#/$defs/hero-effect"}}
    schema.write_text(json.dumps(data, indent=2))
    heroes = game / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace(
        "    effects: [{kind: shield, amount: 1}]\n",
        "    effects: [{kind: shield, amount: 1}]\n    passive: [{kind: extra-reroll, amount: 1}]\n", 1))
    text = game / "templates" / "text.yaml"
    lines = text.read_text().splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if l.startswith("extra-reroll:"))
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^[a-z]", lines[i])), len(lines))
    text.write_text("".join(lines[:start] + lines[end:]))
    found = [d for d in _validate(game) if d["code"] == "HK303" and d["file"].endswith("heroes.yaml")]
    assert _line_of(heroes, r"passive: \[\{kind: extra-reroll") in [d["line"] for d in found]
