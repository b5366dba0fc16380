"""Careless input is reported at the text that is wrong, not near it: the printed file:line:col is
read back from the broken file, in every output format of `hordekit validate`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_cli, edit_once as _edit

TEXT_POS = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning) (?P<code>HK\d+)",
                      re.M)
GITHUB_POS = re.compile(r"^::(?P<severity>error|warning) file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
                        r"title=(?P<code>HK\d+)::", re.M)


def _game(tmp_path: Path, *source: str) -> Path:
    assert run_cli("new", "demo", *source, cwd=tmp_path).returncode == 0
    return tmp_path / "content" / "demo"


def _at(path: Path, line: int, col: int) -> str:
    """The rest of the line from line:col (both counted from 1)."""
    return path.read_text().splitlines()[line - 1][col - 1:]


def _positions(code: str, *args: str, cwd: Path, severity: str = "error") -> list[tuple[str, int, int]]:
    """Where each output format puts the diagnostics with this code: (file, line, col), the same in all three."""
    rc = 1 if severity == "error" else 0
    text = run_cli("validate", *args, cwd=cwd)
    assert text.returncode == rc, text.stdout + text.stderr
    found = [(m["file"], int(m["line"]), int(m["col"])) for m in TEXT_POS.finditer(text.stdout)
             if m["code"] == code and m["severity"] == severity]
    as_json = run_cli("validate", *args, "--format", "json", cwd=cwd)
    assert as_json.returncode == rc
    assert [(d["file"], d["line"], d["col"]) for d in json.loads(as_json.stdout)
            if d["code"] == code and d["severity"] == severity] == found
    github = run_cli("validate", *args, "--format", "github", cwd=cwd)
    assert github.returncode == rc
    assert [(m["file"], int(m["line"]), int(m["col"])) for m in GITHUB_POS.finditer(github.stdout)
            if m["code"] == code and m["severity"] == severity] == found
    assert found, text.stdout
    return found


def test_a_quote_never_closed_points_at_the_quote(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "name: Stride", 'name: "Stride')
    [(file, line, col)] = _positions("HK001", cwd=tmp_path)
    assert file == "content/demo/cards.yaml"
    assert _at(tmp_path / file, line, col) == '"Stride'
    out = run_cli("validate", cwd=tmp_path).stdout
    last = len(cards.read_text().splitlines()) + 1
    assert f"never closed (the parser found unexpected end of stream at line {last}, column 1)" in out, out


def test_a_single_quote_never_closed_before_a_document_end_points_at_the_quote(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "flavor: The gap", "flavor: 'The gap")
    cards.write_text(cards.read_text() + "---\n")
    [(file, line, col)] = _positions("HK001", cwd=tmp_path)
    assert _at(tmp_path / file, line, col).startswith("'The gap looked")


def test_an_unknown_icon_in_a_boards_cells_points_at_its_name(tmp_path: Path) -> None:
    layouts = _game(tmp_path, "--from", "fantasy-draft") / "templates" / "layouts.yaml"
    _edit(layouts, "%}flying{%", "%}flyingx{%")
    [(file, line, col)] = _positions("HK402", cwd=tmp_path, severity="warning")
    assert file == "content/demo/templates/layouts.yaml"
    assert _at(tmp_path / file, line, col) == "flyingx{% endfor %}"


def test_an_unknown_icon_in_a_boards_boxes_points_at_the_value_or_the_word(tmp_path: Path) -> None:
    layouts = _game(tmp_path, "--from", "fantasy-draft") / "templates" / "layouts.yaml"
    _edit(layouts, "    cells:\n", "    boxes:\n"
          "      - {type: icon, x: 2, y: 2, w: 5, h: 5, icon: \"{{ 'ban' ~ 'nr' }}\"}\n"
          "      - {type: text, x: 10, y: 1, w: 60, h: 6, size: 8,\n"
          "         text: \"Deploy :flag: here, :flying: there,\n           :swordz: nowhere\"}\n"
          "    cells:\n")
    found = _positions("HK402", cwd=tmp_path, severity="warning")
    assert len(found) == 2, found
    written = sorted(_at(tmp_path / file, line, col) for file, line, col in found)
    # the name made by the template is not written anywhere: the value that makes it is pointed at
    assert written == ["\"{{ 'ban' ~ 'nr' }}\"}", ":swordz: nowhere\"}"], written


def _line_of(path: Path, text: str) -> int:
    return next(n for n, row in enumerate(path.read_text().splitlines(), 1) if text in row)


def test_text_that_overflows_a_card_names_the_field_it_prints_and_the_layouts_text_box(tmp_path: Path) -> None:
    game = _game(tmp_path, "--from", "hordes-and-heroes")
    layouts = game / "templates" / "layouts.yaml"
    # the heroes' ability box made too low for any effect sentence: it prints the hero's effects alone
    _edit(layouts, "{type: text, name: ability, x: 8, y: 59.5, w: 47, h: 19,",
          "{type: text, name: ability, x: 8, y: 59.5, w: 47, h: 2,")
    found = _positions("HK401", cwd=tmp_path, severity="warning")
    heroes = game / "heroes.yaml"
    effects = _line_of(heroes, "- id: squire") + 6
    assert _at(heroes, effects, 5).startswith("effects: ")
    squire = ("content/demo/heroes.yaml", effects, 14)
    assert squire in found, found
    assert _at(tmp_path / squire[0], squire[1], squire[2]) == "[{kind: shield, amount: 1}]"
    out = run_cli("validate", cwd=tmp_path).stdout
    [line] = [row for row in out.splitlines() if row.startswith("content/demo/heroes.yaml:%d:14: warning HK401" % effects)]
    assert "hero 'squire' does not fit ability" in line, line
    place = re.search(r"its text box is at (\S+):(\d+):(\d+)\)", line)
    assert place, line
    assert place[1] == "content/demo/templates/layouts.yaml"
    assert _at(tmp_path / place[1], int(place[2]), int(place[3])).startswith("{type: text, name: ability,"), line


def test_a_name_too_long_for_its_box_is_reported_at_the_name(tmp_path: Path) -> None:
    game = _game(tmp_path, "--from", "hordes-and-heroes")
    heroes = game / "heroes.yaml"
    long_name = "Squire-Captain-General of the Northern Mountain Marches"
    _edit(heroes, "    name: Squire\n", f"    name: {long_name}\n")
    found = _positions("HK401", cwd=tmp_path, severity="warning")
    line = _line_of(heroes, long_name)
    assert ("content/demo/heroes.yaml", line, 11) in found, found
    assert _at(heroes, line, 11) == long_name


def test_a_box_that_prints_two_fields_is_reported_at_the_card(tmp_path: Path) -> None:
    game = _game(tmp_path, "--from", "hordes-and-heroes")
    layouts = game / "templates" / "layouts.yaml"
    # the ability box prints the class too, and is made too low for any of it: no one field to name
    _edit(layouts, "{type: text, name: ability, x: 8, y: 59.5, w: 47, h: 19,",
          "{type: text, name: ability, x: 8, y: 59.5, w: 47, h: 2,")
    _edit(layouts, 'text: "{% if effects is defined %}{{ effect_text(effects) }}{% endif %}"',
          'text: "{{ class }}: {% if effects is defined %}{{ effect_text(effects) }}{% endif %}"')
    found = _positions("HK401", cwd=tmp_path, severity="warning")
    heroes = game / "heroes.yaml"
    squire = ("content/demo/heroes.yaml", _line_of(heroes, "- id: squire"), 9)
    assert squire in found, found
    assert _at(heroes, squire[1], squire[2]) == "squire"


def test_text_that_overflows_an_extra_is_reported_at_its_text_box(tmp_path: Path) -> None:
    layouts = _game(tmp_path, "--from", "hordes-and-heroes") / "templates" / "layouts.yaml"
    text = layouts.read_text()
    at = text.index("        name: summary\n")
    height = re.compile(r"^        h: [\d.]+$", re.M).search(text, at)
    layouts.write_text(text[:height.start()] + "        h: 12" + text[height.end():])  # the turn summary made too low
    [(file, line, col)] = _positions("HK401", cwd=tmp_path, severity="warning")
    assert file == "content/demo/templates/layouts.yaml"
    assert _at(tmp_path / file, line, col) == "type: text"
    assert _at(tmp_path / file, line + 1, col) == "name: summary"


def test_an_unknown_icon_on_a_card_names_the_sentence_and_the_layouts_text_box(tmp_path: Path) -> None:
    game = _game(tmp_path, "--from", "hordes-and-heroes")
    _edit(game / "templates" / "text.yaml", 'shield: ":shield:', 'shield: ":shieldx:')
    found = _positions("HK402", cwd=tmp_path, severity="warning")
    text_yaml = game / "templates" / "text.yaml"
    line = _line_of(text_yaml, ":shieldx:")
    sentence = ("content/demo/templates/text.yaml", line, text_yaml.read_text().splitlines()[line - 1].index(":shieldx:") + 1)
    assert sentence in found, found
    out = run_cli("validate", "--format", "json", cwd=tmp_path).stdout
    [d] = [d for d in json.loads(out) if (d["code"], d["file"], d["line"]) == ("HK402", *sentence[:2])]
    place = re.search(r"its text box is at (\S+):(\d+):(\d+)\)", d["message"])
    assert place, d["message"]
    assert _at(tmp_path / place[1], int(place[2]), int(place[3])).startswith("{type: text, name: ability,")


def test_each_unknown_name_of_a_legend_is_reported_where_it_is_written(tmp_path: Path) -> None:
    layouts = _game(tmp_path, "--from", "hordes-and-heroes") / "templates" / "layouts.yaml"
    _edit(layouts, "      - {type: legend, x: 5.5, y: 12, w: 52, h: 72, size: 7}",
          "      - type: legend\n        x: 5.5\n        y: 12\n        w: 52\n        h: 72\n        size: 7\n"
          "        icons:\n          - shield\n          - sheild\n          - strength\n          - xpp\n"
          "        exclude: [die, stength]")
    found = _positions("HK402", cwd=tmp_path, severity="warning")
    assert {file for file, _, _ in found} == {"content/demo/templates/layouts.yaml"}
    written = sorted(_at(tmp_path / file, line, col) for file, line, col in found)
    assert written == ["sheild", "stength]", "xpp"], written
    out = run_cli("validate", cwd=tmp_path).stdout
    assert len([row for row in out.splitlines() if "HK402" in row]) == 3, out


def test_a_byte_order_mark_does_not_shift_columns_on_the_first_line(tmp_path: Path) -> None:
    """Editors on Windows may save a UTF-8 file with a byte order mark, which no editor shows as a column."""
    layouts = _game(tmp_path) / "templates" / "layouts.yaml"
    text = layouts.read_text()
    start = text.index("backs:")
    end = text.index("kinds:")
    first = ('backs: {path-deck: {boxes: [{type: text, x: 6, y: 38, w: 51, h: 12, text: "go :flagx: now"}]}}\n')
    layouts.write_bytes(b"\xef\xbb\xbf" + (first + text[:start] + text[end:]).encode())
    [(file, line, col)] = _positions("HK402", cwd=tmp_path, severity="warning")
    assert (file, line) == ("content/demo/templates/layouts.yaml", 1)
    assert layouts.read_text(encoding="utf-8-sig").splitlines()[0][col - 1:].startswith(":flagx: now"), col


def test_a_byte_order_mark_does_not_shift_the_column_of_art_named_on_the_first_line(tmp_path: Path) -> None:
    import yaml

    heroes = _game(tmp_path, "--from", "hordes-and-heroes") / "heroes.yaml"
    data = yaml.safe_load(heroes.read_text())
    data["items"][0]["art"] = "art/nowhere.png"
    heroes.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode() + b"\n")  # JSON is YAML, on one line
    [(file, line, col)] = _positions("HK405", cwd=tmp_path)
    assert (file, line) == ("content/demo/heroes.yaml", 1)
    assert heroes.read_text(encoding="utf-8-sig")[col - 1:].startswith("art/nowhere.png"), col
