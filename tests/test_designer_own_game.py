"""A designer who has never seen hordekit turns the game `hordekit new` writes into her own: renames
fields, adds effect kinds, icons and component kinds, and makes the usual slips on the way. Each
message must lead to the fix: the right file:line:col, paths as she typed them, and a hint that
names what there is instead."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli, edit_once as _edit


def _game(tmp_path: Path, name: str = "tide-pools") -> Path:
    assert run_cli("new", name, cwd=tmp_path).returncode == 0
    return tmp_path / "content" / name


def _validate(tmp_path: Path) -> tuple[int, str]:
    proc = run_cli("validate", cwd=tmp_path)
    return proc.returncode, proc.stdout + proc.stderr


def _add_effect_kind_to_schema(game: Path, kind: str) -> None:
    schema = game / "schemas" / "cards.schema.json"
    data = json.loads(schema.read_text())
    data["$defs"]["effect"]["properties"]["kind"]["enum"].append(kind)
    schema.write_text(json.dumps(data, indent=2))


def test_a_new_effect_kind_names_the_rules_file_as_the_designer_wrote_it(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _add_effect_kind_to_schema(game, "splash")
    _edit(game / "cards.yaml", "    effects: []\n", "    effects:\n      - kind: splash\n        amount: 1\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert ("content/tide-pools/cards.yaml:18:15: error HK302: effect kind 'splash' is not implemented by the "
            "rules content/tide-pools/rules.py") in out, out
    assert "which the rules content/tide-pools/rules.py do not know" in out, out  # HK308, at the schema
    assert str(tmp_path) not in out, out


def test_players_the_rules_do_not_play_name_the_rules_file_from_here(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "game.yaml", "players: {min: 2, max: 4}", "players: {min: 2, max: 6}")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "players 2-6 in the manifest, but the rules content/tide-pools/rules.py play 2-4" in out, out
    assert str(tmp_path) not in out, out


def test_rules_reading_a_field_the_content_renamed_are_an_error_at_the_rules_line(tmp_path: Path) -> None:
    """The card's steps renamed to points in the content, schema and layout, but not in rules.py:
    validate says so at the line of rules.py (it passed as ok, and smoke then refused the game)."""
    game = _game(tmp_path)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps:", "points:"))
    schema = game / "schemas" / "cards.schema.json"
    schema.write_text(schema.read_text().replace('"steps"', '"points"'))
    layouts = game / "templates" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace(
        "Move {{ steps }} step{{ 's' if steps != 1 else '' }}.", "Score {{ points }}.").replace(
        "{{ steps }}", "{{ points }}"))
    code, out = _validate(tmp_path)
    assert code == 1, out
    line = next(n for n, text in enumerate((game / "rules.py").read_text().splitlines(), 1) if 'c["steps"]' in text)
    col = (game / "rules.py").read_text().splitlines()[line - 1].index('c["steps"]') + 1
    assert (f"content/tide-pools/rules.py:{line}:{col}: error HK310: the rules cannot read this content: "
            "KeyError: 'steps' (in build_model)") in out, out
    assert "a name changed in the content (or its schema) needs the same change in the rules" in out
    assert str(tmp_path) not in out
    proc = run_cli("smoke", "tide-pools", "-n", "2", cwd=tmp_path)
    assert proc.returncode == 1 and "HK310" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    _edit(game / "rules.py", 'int(c["steps"])', 'int(c["points"])')
    code, out = _validate(tmp_path)
    assert code == 0, out


def test_a_layout_reading_a_renamed_field_lists_the_fields_the_piece_has(tmp_path: Path) -> None:
    game = _game(tmp_path)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps:", "points:"))
    schema = game / "schemas" / "cards.schema.json"
    schema.write_text(schema.read_text().replace('"steps"', '"points"'))
    _edit(game / "rules.py", 'int(c["steps"])', 'int(c["points"])')
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/tide-pools/templates/layouts.yaml:25:68: error HK403: template error: 'steps' is undefined" in out
    assert ("hint: card 'stride' has the fields: id, name, quantity, points, effects, flavor "
            "(fix the template") in out, out


def test_a_misspelt_field_still_gets_did_you_mean_rather_than_the_list(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "templates" / "layouts.yaml", 'text: "{{ steps }}"', 'text: "{{ stepz }}"')
    code, out = _validate(tmp_path)
    assert code == 1 and "hint: did you mean `steps`? (fix the template" in out, out
    assert "has the fields" not in out, out


def test_a_derived_schema_leaves_quantity_optional(tmp_path: Path) -> None:
    game = _game(tmp_path)
    (game / "pools.yaml").write_text(
        "kind: pool\nitems:\n"
        "  - {id: rock-pool, name: Rock pool, quantity: 4, capacity: 3}\n"
        "  - {id: sand-pool, name: Sand pool, quantity: 4, capacity: 4}\n")
    with (game / "game.yaml").open("a") as f:
        f.write("  pool:\n    file: pools.yaml\n    schema: pools.schema.json\n    expected: 9\n    physical: false\n")
    proc = run_cli("schema", "--for", "tide-pools", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    item = json.loads((game / "schemas" / "pools.schema.json").read_text())["$defs"]["item"]
    assert "quantity" not in item["required"] and {"id", "name", "capacity"} <= set(item["required"])
    assert item["properties"]["quantity"]["default"] == 1
    # an item added later without a quantity is one copy, not a missing field
    with (game / "pools.yaml").open("a") as f:
        f.write("  - {id: kelp-pool, name: Kelp forest, capacity: 2}\n")
    code, out = _validate(tmp_path)
    assert "HK103" not in out, out
    assert code == 0, out


def _icons(game: Path) -> None:
    (game / "templates" / "icons.yaml").write_text(
        "icons:\n"
        "  star:\n"
        "    legend: a point\n"
        "    shapes:\n"
        "      - {circle: [50, 50, 40], fill: \"#f5c542\"}\n")


def test_an_unknown_icon_in_a_cards_flavour_is_reported_at_the_flavour(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _icons(game)
    _edit(game / "cards.yaml", "flavor: One foot in front of the other.", "flavor: One foot, then :crab:.")
    code, out = _validate(tmp_path)
    assert code == 0, out  # a warning
    assert "content/tide-pools/cards.yaml:12:28: warning HK402: card 'stride': unknown icon ':crab:'" in out, out
    assert ("hint: icons of this game: star; declare it in content/tide-pools/templates/icons.yaml "
            "(docs/pnp.md, \"Icons and dice\")") in out, out
    assert "<game>" not in out, out


def test_an_unknown_icon_in_an_effect_sentence_is_reported_in_text_yaml(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _icons(game)
    _edit(game / "templates" / "text.yaml", "more card{{ 's' if amount != 1 else '' }}.",
          "more card{{ 's' if amount != 1 else '' }} and 1 :stars:.")
    code, out = _validate(tmp_path)
    assert code == 0, out
    assert "content/tide-pools/templates/text.yaml:3:74: warning HK402: card 'stride': unknown icon ':stars:'" in out
    assert "hint: did you mean `star`? (icons of this game: star)" in out, out


def test_an_unknown_icon_in_a_block_sentence_is_reported_at_its_own_line(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _icons(game)
    (game / "templates" / "text.yaml").write_text("draw: |\n  Draw {{ amount }}\n  more :cards:.\n")
    code, out = _validate(tmp_path)
    assert "content/tide-pools/templates/text.yaml:3:8: warning HK402: card 'stride': unknown icon ':cards:'" in out


def test_an_icon_in_a_game_without_icons_says_where_to_declare_one(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "cards.yaml", "flavor: One foot in front of the other.", "flavor: One :foot:.")
    code, out = _validate(tmp_path)
    assert "content/tide-pools/cards.yaml:12:17: warning HK402" in out, out
    assert ("hint: this game has no icons yet; declare it in content/tide-pools/templates/icons.yaml") in out, out


def test_paper_names_are_taken_as_people_write_them(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("pnp", "tide-pools", "--paper", "A4", "-o", "a4.pdf", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("pnp", "tide-pools", "--paper", "Letter", "-o", "letter.pdf", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    from pypdf import PdfReader

    a4, letter = (PdfReader(tmp_path / f).pages[0].mediabox for f in ("a4.pdf", "letter.pdf"))
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)
    proc = run_cli("build", "--paper", "LETTER", "-n", "0", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run_cli("pnp", "tide-pools", "--paper", "A3", cwd=tmp_path)
    assert proc.returncode == 2 and "'A3' is not one of 'a4', 'letter'" in proc.stderr, proc.stderr


def test_text_too_long_for_its_box_names_the_box_in_layouts_yaml(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "cards.yaml", "name: Leap", "name: Leap Across the Great Chasm of the Northern Shore Where Otters Sleep")
    _edit(game / "schemas" / "cards.schema.json", '"maxLength": 40', '"maxLength": 100')
    code, out = _validate(tmp_path)
    assert code == 0, out
    # at the name, the words to shorten, with the box to enlarge named in the message
    assert ("content/tide-pools/cards.yaml:14:11: warning HK401: text of card 'leap' does not fit title even at 8 pt "
            "(its text box is at content/tide-pools/templates/layouts.yaml:23:9)") in out, out
    assert (game / "cards.yaml").read_text().splitlines()[13][10:].startswith("Leap Across the Great Chasm")


def test_a_scenario_naming_a_card_the_game_no_longer_has_points_at_the_card(tmp_path: Path) -> None:
    game = _game(tmp_path)
    scenario = game / "scenarios" / "first-turn.yaml"
    _edit(scenario, "hands: [[leap, stride], [stride, stride]]", "hands: [[leap, strid], [stride, stride]]")
    proc = run_cli("scenario", "content/tide-pools/scenarios", cwd=tmp_path)
    assert proc.returncode == 1
    assert ("FAIL content/tide-pools/scenarios/first-turn.yaml:8:18: A leap moves three steps: cannot build the "
            "starting situation at setup.hands[0][1]: no card 'strid' in this game (its cards: leap, stride)"
            ) in proc.stdout, proc.stdout
    assert "list.remove" not in proc.stdout + proc.stderr


def test_a_scenario_with_a_misspelt_setup_key_or_too_many_copies_says_which(tmp_path: Path) -> None:
    game = _game(tmp_path)
    scenario = game / "scenarios" / "first-turn.yaml"
    _edit(scenario, "  hands: [[leap, stride], [stride, stride]]\n",
          "  hands: [[leap, stride], [stride, stride]]\n  postions: [0, 0]\n")
    proc = run_cli("scenario", str(scenario), cwd=tmp_path)
    assert proc.returncode == 1
    assert ("first-turn.yaml:9:3: A leap moves three steps: cannot build the starting situation at "
            "setup.postions: no setup key 'postions' (this game knows hands, positions, current)") in proc.stdout
    scenario.write_text(scenario.read_text().replace("  postions: [0, 0]\n", "").replace(
        "[[leap, stride], [stride, stride]]", "[[leap, leap, leap, leap, leap, leap], [leap, stride]]"))
    proc = run_cli("scenario", str(scenario), cwd=tmp_path)
    assert proc.returncode == 1
    assert "at setup.hands[1][0]: no copy of 'leap' left in the deck for this hand" in proc.stdout, proc.stdout


def _daily_block(readme: Path) -> list[str]:
    text = readme.read_text()
    start = text.index("```sh\n", text.index("## Every day")) + len("```sh\n")
    return text[start:text.index("```", start)].splitlines()


def test_the_new_games_readme_lines_its_comments_up_whatever_the_ids_length(tmp_path: Path) -> None:
    for name in ("tide-pools", "a-much-longer-game-name-than-the-others"):
        lines = _daily_block(_game(tmp_path, name) / "README.md")
        assert f"hordekit pnp {name}" in "\n".join(lines)
        columns = {line.index("#") for line in lines if "#" in line}
        assert len(columns) == 1, lines
        assert all(line[min(columns) - 2:min(columns)] == "  " for line in lines if "#" in line), lines


def test_the_new_games_readme_says_where_icons_go(tmp_path: Path) -> None:
    readme = (_game(tmp_path) / "README.md").read_text()
    assert "| `templates/icons.yaml` | (none yet)" in readme and '"Icons and dice"' in readme
    assert run_cli("new", "my-kingdoms", "--from", "kingdoms", cwd=tmp_path).returncode == 0
    readme = (tmp_path / "content" / "my-kingdoms" / "README.md").read_text()
    assert "| `templates/icons.yaml` | the icons text prints as `:name:`" in readme, readme


def test_the_tutorials_icons_and_reference_card_print_as_it_says(tmp_path: Path) -> None:
    """docs/tutorial.md shows icons.yaml and a quick-reference extra for the new game: both, as
    written there, validate and print with no unknown icon."""
    import re

    from conftest import ROOT

    tutorial = (ROOT / "docs" / "tutorial.md").read_text()
    blocks = re.findall(r"^( *)```yaml file=(\S+)( append)?\n(.*?)^\1```", tutorial, re.DOTALL | re.MULTILINE)
    assert [b[1] for b in blocks] == ["templates/icons.yaml", "templates/layouts.yaml"], blocks
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    game = tmp_path / "content" / "fungus-wars"
    for indent, name, append, body in blocks:
        text = "\n".join(line[len(indent):] for line in body.splitlines()) + "\n"
        target = game / name
        target.write_text((target.read_text() if append else "") + text)
    proc = run_cli("validate", cwd=tmp_path)
    assert proc.returncode == 0 and "HK4" not in proc.stdout, proc.stdout
    proc = run_cli("pnp", "fungus-wars", "--only", "quick-reference", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(game.parent.parent / "out" / "fungus-wars" /
                                                              "print-and-play.pdf").pages)
    assert "Your turn" in text and "[spore]" in text and "Spore" in text, text


def test_schema_for_a_new_kind_writes_its_schema_line_into_the_manifest(tmp_path: Path) -> None:
    game = _game(tmp_path)
    manifest = game / "game.yaml"
    before = manifest.read_text()
    manifest.write_text(before + "  shell:\n    file: shells.yaml   # the money\n    expected: 3\n"
                        "  pool: {file: pools.yaml, expected: 2, physical: false}\n")
    (game / "shells.yaml").write_text("kind: shell\nitems:\n  - {id: shell-1, name: One shell, quantity: 3, value: 1}\n")
    (game / "pools.yaml").write_text("kind: pool\nitems:\n  - {id: rock-pool, name: Rock pool, quantity: 2}\n")
    proc = run_cli("schema", "--for", "tide-pools", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "content/tide-pools/game.yaml: components.shell now names it (`schema: shells.schema.json`)" in proc.stdout
    assert ("content/tide-pools/game.yaml: add `schema: pools.schema.json` under components.pool"
            in proc.stdout), proc.stdout
    assert manifest.read_text() == before + (
        "  shell:\n    file: shells.yaml   # the money\n    schema: shells.schema.json\n    expected: 3\n"
        "  pool: {file: pools.yaml, expected: 2, physical: false}\n")
    _edit(manifest, "  pool: {file: pools.yaml,", "  pool: {file: pools.yaml, schema: pools.schema.json,")
    code, out = _validate(tmp_path)
    assert code == 0 and "HK103" not in out, out


def test_layout_slips_get_a_did_you_mean(tmp_path: Path) -> None:
    game = _game(tmp_path)
    layouts = game / "templates" / "layouts.yaml"
    text = layouts.read_text()
    text = text.replace("size: 9, align: center, valign: middle}", "size: 9, align: centre, valign: center}")
    text = text.replace('font: italic, size: 7', 'font: itallic, size: 7')
    text = text.replace('align: center, valign: middle, colour: "#e9d8a6"}', 'align: center, valign: middle, color: "#e9d8a6"}')
    text = text.replace("    back: path-deck", "    back: paths-deck")
    layouts.write_text(text)
    code, out = _validate(tmp_path)
    assert code == 1
    where = "content/tide-pools/templates/layouts.yaml"
    for expected in (
            f"{where}:27:146: error HK404: align 'centre' is not one of: left, center, right\n"
            "    hint: did you mean `center`?",
            f"{where}:27:162: error HK404: valign 'center' is not one of: top, middle, bottom\n"
            "    hint: did you mean `middle`?",
            f"{where}:28:120: error HK404: unknown font 'itallic'\n    hint: did you mean `italic`? (one of:",
            f"{where}:14:135: error HK404: 'color' is not a property of a text box\n    hint: did you mean `colour`? (",
            f"{where}:19:11: error HK404: back design 'paths-deck' is not defined under 'backs'\n"
            "    hint: did you mean `path-deck`?"):
        assert expected in out, out


def test_a_shared_back_reading_a_card_field_is_told_about_per_item(tmp_path: Path) -> None:
    game = _game(tmp_path)
    layouts = game / "templates" / "layouts.yaml"
    _edit(layouts, 'text: "{{ game.title }}", font: bold, size: 14', 'text: "{{ name }}", font: bold, size: 14')
    code, out = _validate(tmp_path)
    assert code == 1
    assert ("content/tide-pools/templates/layouts.yaml:14:55: error HK403: template error: 'name' is undefined "
            "(while printing back 'path-deck'") in out, out
    assert ("hint: a back shared by its deck sees only deck, game, kinds (did you mean `game`?); to print each "
            "piece's own fields on its back, give the back `per-item: true`") in out, out
    _edit(layouts, "  path-deck:\n", "  path-deck:\n    per-item: true\n")
    code, out = _validate(tmp_path)
    assert code == 0, out


def test_a_smoke_game_the_rules_crash_in_names_the_rules_file_as_replay_does(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "rules.py", 'int(effect.get("amount", 1))', 'int(effect["amonut"])')
    line = next(n for n, row in enumerate((game / "rules.py").read_text().splitlines(), 1) if '"amonut"' in row)
    proc = run_cli("smoke", "tide-pools", "-n", "10", "--seed", "1", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout
    failed = [row for row in proc.stdout.splitlines() if "FAILED game" in row]
    assert failed, proc.stdout
    for row in failed:  # the path the rest of the output uses, not the file's bare name
        assert row.endswith(f"KeyError: 'amonut' (content/tide-pools/rules.py:{line})"), row
    [log, *_] = sorted((tmp_path / "out" / "tide-pools" / "logs").glob("game-*.json"))
    assert json.loads(log.read_text())["error"].endswith(f"(content/tide-pools/rules.py:{line})")
    report = json.loads((tmp_path / "out" / "tide-pools" / "smoke-report.json").read_text())
    assert f"(content/tide-pools/rules.py:{line})" in json.dumps(report)
    # a log cut short of the failure: replay plays on with its seed and bots, and names the place alike
    data = json.loads(log.read_text())
    data["actions"] = data["actions"][:1]
    log.write_text(json.dumps(data))
    proc = run_cli("replay", str(log.relative_to(tmp_path)), cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert proc.stdout.rstrip().endswith(f"KeyError: 'amonut' (content/tide-pools/rules.py:{line})"), proc.stdout


def test_replaying_a_game_the_rules_crash_in_shows_where_in_the_rules_file(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "rules.py", 'int(effect.get("amount", 1))', 'int(effect["amonut"])')
    proc = run_cli("smoke", "tide-pools", "-n", "10", "--seed", "1", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout
    logs = sorted((tmp_path / "out" / "tide-pools" / "logs").glob("game-*.json"))
    assert logs, proc.stdout
    proc = run_cli("replay", str(logs[0].relative_to(tmp_path)), cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert "KeyError: 'amonut'" in lines[0], proc.stdout
    assert lines[-1].startswith("  content/tide-pools/rules.py:"), proc.stdout
    assert lines[-1].endswith(": in _draw: state.pending += [state.current] * int(effect[\"amonut\"])"), proc.stdout
    assert not any("toolkit" in line or "engine/core" in line for line in lines), proc.stdout
    assert str(tmp_path) not in proc.stdout


def test_a_misspelt_templates_folder_is_an_error_at_the_manifest(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "game.yaml", "templates: templates ", "templates: template ")
    code, out = _validate(tmp_path)
    assert code == 1, out
    assert ("content/tide-pools/game.yaml:11:12: error HK014: templates folder template not found: "
            "content/tide-pools/template\n    hint: the folder of layouts.yaml and text.yaml, relative to game.yaml; "
            "did you mean `templates`?") in out, out
    proc = run_cli("pnp", "tide-pools", cwd=tmp_path)
    assert proc.returncode == 1 and "HK014" in proc.stdout + proc.stderr
    assert "HK404" not in proc.stdout + proc.stderr


def test_a_misspelt_schemas_folder_is_one_error_at_the_manifest(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _edit(game / "game.yaml", "schemas: schemas ", "schemas: schema ")
    code, out = _validate(tmp_path)
    assert code == 1, out
    assert ("content/tide-pools/game.yaml:10:10: error HK013: schemas folder schema not found: "
            "content/tide-pools/schema\n") in out, out
    assert "did you mean `schemas`?" in out and out.count("HK013") == 1, out


def _icon_box(game: Path, icon: str) -> None:
    _edit(game / "templates" / "layouts.yaml", "      - {type: ellipse, x: 45, y: 5, w: 13, h: 13, fill: \"#2f5d50\"}\n",
          "      - {type: ellipse, x: 45, y: 5, w: 13, h: 13, fill: \"#2f5d50\"}\n"
          f"      - {{type: icon, x: 48, y: 70, w: 10, h: 10, icon: {icon}}}\n")


def test_an_unknown_icon_named_by_an_icon_box_is_reported_at_the_box(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _icons(game)
    _icon_box(game, "stra")
    code, out = _validate(tmp_path)
    assert ("content/tide-pools/templates/layouts.yaml:25:56: warning HK402: card 'stride': unknown icon ':stra:' "
            "(drawn as '?') (and 1 more like it here)\n    hint: did you mean `star`?") in out, out


def test_an_unknown_icon_an_icon_box_reads_from_a_field_is_reported_at_the_field(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _icons(game)
    _icon_box(game, "\"{{ symbol if symbol is defined else 'star' }}\"")
    _edit(game / "schemas" / "cards.schema.json", '"flavor": {', '"symbol": {"type": "string", "description": "An icon."},\n'
          '        "flavor": {')
    _edit(game / "cards.yaml", "    steps: 3\n", "    steps: 3\n    symbol: stra\n")
    code, out = _validate(tmp_path)
    assert code == 0, out
    assert "content/tide-pools/cards.yaml:17:13: warning HK402: card 'leap': unknown icon ':stra:'" in out, out


def test_scenario_finds_the_games_scenarios_like_the_other_commands(tmp_path: Path) -> None:
    game = _game(tmp_path)
    for args, cwd, shown in ((("tide-pools",), tmp_path, "content/tide-pools/scenarios/first-turn.yaml"),
                             ((), tmp_path, "content/tide-pools/scenarios/first-turn.yaml"),
                             ((), game, "scenarios/first-turn.yaml"),
                             ((".",), game, "scenarios/first-turn.yaml")):
        proc = run_cli("scenario", *args, cwd=cwd)
        assert proc.returncode == 0, (args, proc.stdout + proc.stderr)
        assert f"PASS {shown}: A leap moves three steps" in proc.stdout, proc.stdout
    proc = run_cli("scenario", "dice-battles", cwd=tmp_path)  # a shipped game: hordekit's own scenarios
    assert proc.returncode == 0 and "PASS " in proc.stdout and " 0 failed" in proc.stdout, proc.stdout
    (game / "scenarios" / "first-turn.yaml").unlink()
    (game / "scenarios").rmdir()
    proc = run_cli("scenario", cwd=tmp_path)
    assert proc.returncode == 2
    assert "error: content/tide-pools has no scenarios folder (content/tide-pools/scenarios)" in proc.stderr
    proc = run_cli("scenario", cwd=tmp_path / "content")
    assert proc.returncode == 2 and "no game here" in proc.stderr, proc.stderr
    proc = run_cli("scenario", "tide-pool", cwd=tmp_path)
    assert proc.returncode == 2 and "error: no such file or folder: tide-pool" in proc.stderr, proc.stderr
