"""The mistakes a designer new to YAML and to hordekit makes in the first hour, each made in a game
made by `hordekit new`: every one is reported at its file:line:col, with exit code 1 (2 for a
mistake on the command line), a hint that leads to the fix, and no traceback."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, edit_once as _edit


def _game(tmp_path: Path) -> Path:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    return tmp_path / "content" / "fungus-wars"


def _validate(tmp_path: Path) -> tuple[int, str]:
    proc = run_cli("validate", cwd=tmp_path)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_tab_before_a_key_is_named_as_a_tab(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "    steps: 3\n", "\tsteps: 3\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:16:1: error HK001" in out, out
    assert "hint: YAML indents with spaces only: replace the tab" in out, out


def test_a_key_indented_too_deep_says_so(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "    quantity: 6\n", "      quantity: 6\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:15:15: error HK001" in out, out
    assert "hint: this line is indented deeper than the key above it" in out, out


def test_a_key_indented_too_little_says_so(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "    steps: 3\n", "   steps: 3\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:16:4: error HK001" in out, out
    assert "hint: this line is indented differently from the entries around it" in out, out


def test_a_dask_run_without_a_scheduler_is_a_usage_error(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "--backend", "dask", "-n", "2", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "--backend dask needs --scheduler ADDRESS" in proc.stderr
    assert "internal error" not in proc.stderr


def test_a_scheduler_without_the_dask_backend_is_a_usage_error(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "--scheduler", "tcp://127.0.0.1:8786", "-n", "2", cwd=tmp_path)
    assert proc.returncode == 2 and "--scheduler is for --backend dask" in proc.stderr, proc.stderr
    assert not (tmp_path / "out" / "fungus-wars" / "smoke-report.json").exists()


def test_a_scheduler_address_dask_cannot_read_is_a_usage_error(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "--backend", "dask", "--scheduler", "tpc://127.0.0.1:8786", "-n", "2",
                   cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "--scheduler tpc://127.0.0.1:8786: not a Dask scheduler address" in proc.stderr
    assert "internal error" not in proc.stderr


def test_a_scheduler_that_does_not_answer_fails_the_run_with_what_to_do(tmp_path: Path) -> None:
    import socket

    _game(tmp_path)
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = run_cli("smoke", "fungus-wars", "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{port}", "-n", "2",
                   cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert f"cannot reach a Dask scheduler at tcp://127.0.0.1:{port}" in proc.stderr
    assert "dask scheduler" in proc.stderr and "internal error" not in proc.stderr


def test_a_misspelt_component_file_in_the_manifest_suggests_the_file_there(tmp_path: Path) -> None:
    manifest = _game(tmp_path) / "game.yaml"
    _edit(manifest, "file: cards.yaml", "file: card.yaml")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/game.yaml:14:11: error HK014: component file for 'card' not found" in out, out
    assert "hint: the path is relative to game.yaml; did you mean `cards.yaml`?" in out, out


def test_a_misspelt_schema_in_the_manifest_suggests_the_schema_there(tmp_path: Path) -> None:
    manifest = _game(tmp_path) / "game.yaml"
    _edit(manifest, "schema: cards.schema.json", "schema: card.schema.json")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/game.yaml:15:13: error HK013: schema for 'card' not found" in out, out
    assert "did you mean `cards.schema.json`?" in out, out


def test_a_layout_template_reading_a_field_the_card_lacks_suggests_the_field(tmp_path: Path) -> None:
    layouts = _game(tmp_path) / "templates" / "layouts.yaml"
    _edit(layouts, 'text: "{{ steps }}"', 'text: "{{ stepz }}"')
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/templates/layouts.yaml:25:68: error HK403: template error: 'stepz' is undefined" in out
    assert "hint: did you mean `steps`?" in out, out


def test_an_effect_sentence_reading_a_parameter_the_effect_lacks_suggests_the_parameter(tmp_path: Path) -> None:
    text = _game(tmp_path) / "templates" / "text.yaml"
    _edit(text, "{{ amount }}", "{{ amout }}")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/templates/text.yaml:3:7: error HK403: template error: 'amout' is undefined" in out, out
    assert "hint: did you mean `amount`?" in out, out


def test_a_command_run_from_a_folder_inside_the_game_names_the_game_above(tmp_path: Path) -> None:
    schemas = _game(tmp_path) / "schemas"
    for command in ("validate", "pnp", "smoke"):
        proc = run_cli(command, cwd=schemas)
        assert proc.returncode == 2, (command, proc.stderr)
        assert "This folder is inside the game in .. (fungus-wars)" in proc.stderr, (command, proc.stderr)
    assert run_cli("validate", "..", cwd=schemas).returncode == 0  # what the hint says works


def test_a_command_run_from_an_empty_folder_says_how_to_start(tmp_path: Path) -> None:
    proc = run_cli("validate", cwd=tmp_path)
    assert proc.returncode == 2 and "hordekit new NAME" in proc.stderr
    assert "inside the game" not in proc.stderr


def test_a_new_kind_listed_with_only_its_file_names_each_missing_field(tmp_path: Path) -> None:
    game = _game(tmp_path)
    (game / "spores.yaml").write_text("kind: spore\nitems:\n  - {id: red-spore, name: Red Spore}\n")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "  spore:\n    file: spores.yaml\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "game.yaml:19:5: error HK103: missing required field 'schema' (at components.spore)\n" in out, out
    assert "game.yaml:19:5: error HK103: missing required field 'expected' (at components.spore)\n" in out, out
    assert "more like it here" not in out


def test_a_die_whose_faces_template_names_no_component_is_reported_at_the_faces(tmp_path: Path) -> None:
    """The icons.yaml example of docs/pnp.md reads a die's faces from a component: one that the
    game does not have is an error at the `faces` value, with the id it may have meant."""
    game = _game(tmp_path)
    (game / "templates" / "icons.yaml").write_text(
        "dice:\n"
        "  attack:\n"
        "    icon: \"yellow-{face}\"\n"
        "    faces: \"{{ ref('strid').steps }}\"\n"
        "    style: pips\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert ("content/fungus-wars/templates/icons.yaml:4:12: error HK403: template error: "
            "no component with id 'strid' (did you mean `stride`?)") in out, out
    assert "hint: a die's `faces` template sees the game's components" in out, out


def test_validate_run_inside_the_game_folder_names_the_game_in_its_summary(tmp_path: Path) -> None:
    game = _game(tmp_path)
    proc = run_cli("validate", cwd=game)
    assert proc.returncode == 0
    assert proc.stdout.strip().splitlines()[-1] == "fungus-wars (this folder): ok", proc.stdout


def _game_with_art(tmp_path: Path) -> Path:
    """The starter game with art, as docs/pnp.md says: an `art` field in the schema, an image box."""
    game = _game(tmp_path)
    _edit(game / "schemas" / "cards.schema.json",
          '"notes": {"type": "string", "description": "Designer notes; never printed."}',
          '"notes": {"type": "string", "description": "Designer notes; never printed."},\n'
          '        "art": {"$ref": "common.schema.json#/$defs/art"}')
    _edit(game / "templates" / "layouts.yaml", "      - {type: ellipse,",
          '      - {type: image, x: 6, y: 30, w: 20, h: 20, image: "{{ item.art }}", when: "item.art is defined"}\n'
          "      - {type: ellipse,")
    _edit(game / "cards.yaml", "    flavor: One foot", "    art: art/stride.png\n    flavor: One foot")
    return game


def test_missing_art_is_reported_at_the_art_field_after_a_list_of_effects(tmp_path: Path) -> None:
    _game_with_art(tmp_path)
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:12:10: error HK405: card 'stride': art 'art/stride.png' not found" in out, out
    proc = run_cli("pnp", cwd=tmp_path)
    assert proc.returncode == 0  # printed with a placeholder, so a sheet can be printed before the art is done
    assert "content/fungus-wars/cards.yaml:12:10: warning HK405" in proc.stdout + proc.stderr


def test_coarse_art_is_reported_at_the_art_field_after_a_list_of_effects(tmp_path: Path) -> None:
    from PIL import Image

    game = _game_with_art(tmp_path)
    (game / "art").mkdir()
    Image.new("RGB", (40, 40), "#2f5d50").save(game / "art" / "stride.png")
    code, out = _validate(tmp_path)
    assert code == 0, out
    assert "content/fungus-wars/cards.yaml:12:10: warning HK416: card 'stride': art 'art/stride.png' prints at" in out, out


def test_a_variant_the_new_game_does_not_have_is_a_usage_error(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "--variant", "advanced", "-n", "2", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "--variant advanced: this game has no variants (asked for: advanced)" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_variant_fantasy_draft_does_not_have_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli("smoke", "fantasy-draft", "--variant", "advanced", "-n", "1", "-d", str(tmp_path / "o"), cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "Fantasy Draft has no variants (asked for: advanced)" in proc.stderr, proc.stderr


def test_a_misspelt_backend_is_a_usage_error_listing_the_two(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "--backend", "dusk", "-n", "1", cwd=tmp_path)
    assert proc.returncode == 2 and "'process', 'dask'" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()
    help_text = run_cli("smoke", "--help").stdout
    assert "--backend process|dask" in help_text and "--scheduler ADDRESS" in help_text, help_text


def test_rules_named_without_py_suggest_the_rules_file_beside_the_manifest(tmp_path: Path) -> None:
    _edit(_game(tmp_path) / "game.yaml", "rules: rules.py", "rules: rules")
    code, out = _validate(tmp_path)
    assert "content/fungus-wars/game.yaml:9:8: warning HK301: rules module rules is not available" in out, out
    assert "did you mean `rules: rules.py`?" in out, out


def test_a_syntax_error_in_the_rules_file_is_named_by_validate(tmp_path: Path) -> None:
    rules = _game(tmp_path) / "rules.py"
    lines = rules.read_text().splitlines()
    rules.write_text("\n".join(lines) + "\ndef broken(:\n")
    code, out = _validate(tmp_path)
    assert f"SyntaxError: invalid syntax (rules.py, line {len(lines) + 1})" in out, out
    assert "hint: fix content/fungus-wars/rules.py where the message says" in out, out
    proc = run_cli("smoke", "fungus-wars", "-n", "1", cwd=tmp_path)
    assert proc.returncode == 1 and "SyntaxError" in proc.stderr


def test_a_misspelt_kind_in_layouts_yaml_is_named_in_the_hint(tmp_path: Path) -> None:
    _edit(_game(tmp_path) / "templates" / "layouts.yaml", "\n  card:\n", "\n  cards:\n")
    code, out = _validate(tmp_path)
    assert "warning HK406: physical kind 'card' has no layout and is not printed" in out, out
    assert "has a design for 'cards', a kind the manifest does not list: did you mean 'card' there?" in out, out


def test_a_misspelt_bot_or_starting_game_suggests_the_right_name(tmp_path: Path) -> None:
    _game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "--bot", "heuristc", "-n", "1", cwd=tmp_path)
    assert proc.returncode == 2 and "unknown bot 'heuristc' (did you mean `heuristic`?)" in proc.stderr, proc.stderr
    proc = run_cli("new", "my-kingdoms", "--from", "kingdom", cwd=tmp_path)
    assert proc.returncode == 2 and "unknown --from 'kingdom' (did you mean `kingdoms`?)" in proc.stderr, proc.stderr


def test_replaying_a_log_that_is_not_there_says_so(tmp_path: Path) -> None:
    proc = run_cli("replay", "out/fungus-wars/logs/game-1.json", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: no such file: out/fungus-wars/logs/game-1.json", proc.stderr


def test_a_value_holding_colon_space_is_told_to_be_quoted(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "flavor: One foot in front of the other.", "flavor: Beware: it bites")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:12:19: error HK001" in out, out
    assert "hint: this value holds ': ', which YAML reads as another key: put the whole value in quotes" in out, out


def test_a_quote_never_closed_is_named(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "name: Leap", 'name: "Leap')
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:14:11: error HK001" in out, out
    assert "the quote opened here is never closed" in out, out
    assert "hint: a quote is opened and never closed" in out, out


def test_a_quote_closed_only_by_a_later_quote_is_named_where_it_opens(tmp_path: Path) -> None:
    """A quote left open runs on to the next quote in the file, and the parser trips just after
    that one, many lines down: the error points at the quote that opened the long value."""
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "flavor: The gap looked smaller from over there.", 'flavor: "The gap looked smaller from over there."')
    _edit(cards, "name: Stride", 'name: "Stride')
    rows = cards.read_text().splitlines()
    opened = next(i for i, row in enumerate(rows, 1) if 'name: "Stride' in row)
    closing = next(i for i, row in enumerate(rows, 1) if i > opened and '"' in row)
    code, out = _validate(tmp_path)
    assert code == 1
    col = rows[opened - 1].index('"') + 1
    assert f"content/fungus-wars/cards.yaml:{opened}:{col}: error HK001: YAML syntax error: the quote opened here " \
           f"is closed only at line {closing}" in out, out
    assert "hint: close the quote at the end of this value" in out, out
