"""The safe zone (HK415): text, icons and values a player reads stay clear of the print shop's cut.

A shop's cut wanders about 1.5 mm either side of the trim line, so what must be read keeps a safe
margin inside it: 3 mm on cards, less on small tokens, or what a design's `safe-margin` says.
Each test edits a real layouts.yaml of a game made by `hordekit new` and runs the CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from conftest import run_cli
from toolkit.pnp.safezone import default_safe_margin

TITLE = '{type: text, name: title, x: 6, y: 6, w: 38, h: 8, text: "{{ name }}", font: bold, size: 12, min-size: 8}'
BACK_TEXT = '{type: text, x: 6, y: 38, w: 51, h: 12, text: "{{ game.title }}"'
CARD_HEAD = "  card:\n    size: [63, 88]\n"
ICONS = """icons:
  dot:
    legend: "a plain dot"
    shapes:
      - {circle: [50, 50, 40], fill: ink}
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A fresh game from `hordekit new` (two cards on 63 x 88 mm, a shared back)."""
    assert run_cli("new", "trail", cwd=tmp_path).returncode == 0
    return tmp_path / "content" / "trail"


def _layouts(game: Path) -> Path:
    return game / "templates" / "layouts.yaml"


def _edit(game: Path, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in layouts.yaml; the 1-based line where ``new`` now starts."""
    path = _layouts(game)
    text = path.read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path.write_text(text)
    return text[: text.index(new)].count("\n") + 1


def _col(game: Path, line: int, needle: str) -> int:
    return _layouts(game).read_text().splitlines()[line - 1].index(needle) + 1


def _validate(game: Path, *extra: str) -> tuple[int, list[dict]]:
    proc = run_cli("validate", str(game), "--format", "json", *extra)
    return proc.returncode, json.loads(proc.stdout)


def _hk415(game: Path) -> list[dict]:
    code, diags = _validate(game)
    assert code == 0, diags  # a warning: the game still validates
    return [d for d in diags if d["code"] == "HK415"]


def test_a_layout_that_keeps_3_mm_from_the_cut_is_clean(game: Path) -> None:
    # The new game's card: full-bleed background and a frame at 3 mm (not read), text at 6 mm.
    assert _hk415(game) == []


def test_text_in_the_margin_is_a_warning_at_its_box_with_edge_and_millimetres(game: Path) -> None:
    line = _edit(game, TITLE, TITLE.replace("x: 6, y: 6", "x: 1.5, y: 2"))
    (d,) = _hk415(game)
    assert d["file"].endswith("trail/templates/layouts.yaml")
    assert (d["line"], d["col"]) == (line, _col(game, line, "{type: text, name: title"))
    assert d["severity"] == "warning"
    assert "text box 'title' of kind 'card'" in d["message"]
    assert "3 mm safe margin" in d["message"]
    assert "1.5 mm at the left edge" in d["message"] and "1 mm at the top edge" in d["message"]
    assert "right" not in d["message"] and "bottom" not in d["message"]


def test_text_past_the_trim_says_how_much_of_it_is_cut_away(game: Path) -> None:
    _edit(game, TITLE, TITLE.replace("x: 6, y: 6, w: 38", "x: 30, y: 6, w: 35"))
    (d,) = _hk415(game)
    assert "5 mm at the right edge (2 mm of it beyond the trim)" in d["message"]


def test_it_shows_in_validate_and_fails_strict_runs(game: Path) -> None:
    _edit(game, TITLE, TITLE.replace("x: 6", "x: 2"))
    proc = run_cli("validate", str(game))
    assert proc.returncode == 0 and "warning HK415" in proc.stdout
    assert run_cli("validate", str(game), "--strict").returncode == 1


def test_pnp_reports_it_and_still_prints(game: Path, tmp_path: Path) -> None:
    _edit(game, TITLE, TITLE.replace("x: 6", "x: 2"))
    out = tmp_path / "trail.pdf"
    proc = run_cli("pnp", str(game), "-o", str(out))
    assert proc.returncode == 0 and out.is_file()
    assert (proc.stdout + proc.stderr).count("HK415") == 1


def test_reported_once_per_layout_element_not_per_piece(game: Path) -> None:
    assert len([ln for ln in (game / "cards.yaml").read_text().splitlines() if ln.startswith("  - id:")]) >= 2
    _edit(game, TITLE, TITLE.replace("x: 6", "x: 2"))
    assert len(_hk415(game)) == 1


def test_backgrounds_frames_lines_and_art_may_reach_the_edge(game: Path) -> None:
    frame = '{type: rect, x: 3, y: 3, w: 57, h: 82, stroke: "#2f5d50", stroke-width: 0.8, radius: 2.5}'
    _edit(game, frame, frame + "\n"
          '      - {type: ellipse, x: 50, y: 75, w: 20, h: 20, fill: "#2f5d50"}\n'
          '      - {type: line, x: 0, y: 44, w: 63, h: 0, stroke: "#2f5d50", stroke-width: 0.5}\n'
          '      - {type: hex, x: -2, y: 70, w: 12, h: 12, fill: "#2f5d50"}\n'
          '      - {type: arrow, x: 55, y: 40, w: 10, h: 6, stroke: "#2f5d50"}\n'
          '      - {type: image, x: 0, y: 0, w: 63, h: 40, image: "{{ item.art }}", when: "item.art is defined"}')
    assert _hk415(game) == []


def test_an_icon_is_judged_by_the_square_it_prints_in(game: Path) -> None:
    (game / "templates" / "icons.yaml").write_text(ICONS)
    _edit(game, TITLE, TITLE + "\n"
          "      - {type: icon, name: centred, x: 0, y: 70, w: 63, h: 8, icon: dot}\n"  # an 8 mm square in the middle
          "      - {type: icon, name: cornered, x: 1, y: 60, w: 8, h: 8, icon: dot}")
    (d,) = _hk415(game)
    assert "icon box 'cornered'" in d["message"] and "2 mm at the left edge" in d["message"]


def test_values_in_a_track_count_as_text(game: Path) -> None:
    _edit(game, TITLE, TITLE + "\n      - {type: cells, x: 6, y: 80, w: 51, h: 7, count: 5, columns: 5}")
    (d,) = _hk415(game)
    assert "cells box 4 of kind 'card'" in d["message"] and "2 mm at the bottom edge" in d["message"]


def test_a_back_is_checked_at_the_size_of_its_fronts(game: Path) -> None:
    line = _edit(game, BACK_TEXT, BACK_TEXT.replace("x: 6, y: 38, w: 51", "x: 1, y: 38, w: 61"))
    (d,) = _hk415(game)
    assert d["line"] == line
    assert "text box 3 of back 'path-deck'" in d["message"] and "fronts of 'card'" in d["message"]
    assert "2 mm at the left edge" in d["message"] and "2 mm at the right edge" in d["message"]


def test_a_design_states_its_own_safe_margin(game: Path) -> None:
    _edit(game, TITLE, TITLE.replace("x: 6", "x: 2"))
    _edit(game, CARD_HEAD, CARD_HEAD + "    safe-margin: 2   # this deck is cut by a die, not a guillotine\n")
    assert _hk415(game) == []


def test_a_larger_safe_margin_is_held_too(game: Path) -> None:
    _edit(game, CARD_HEAD, CARD_HEAD + "    safe-margin: 7\n")
    found = _hk415(game)
    assert found and all("7 mm safe margin" in d["message"] for d in found)
    assert any("text box 'title'" in d["message"] and "1 mm at the left edge" in d["message"] for d in found)


@pytest.mark.parametrize(("size", "value", "why"), [
    ("[63, 88]", "-1", "'safe-margin' must be from 0 to 20 (mm), not -1"),
    ("[63, 88]", "25", "'safe-margin' must be from 0 to 20 (mm), not 25"),
    ("[63, 88]", "three", "'safe-margin' must be a number"),
    ("[63, 88]", ".nan", "'safe-margin' must be a number"),
    ("[16, 16]", "8", "'safe-margin' of 8 mm leaves no room on a 16 x 16 mm piece"),
])
def test_a_negative_or_absurd_safe_margin_is_hk404_at_its_value(game: Path, size: str, value: str, why: str) -> None:
    line = _edit(game, CARD_HEAD, f"  card:\n    size: {size}\n    safe-margin: {value}\n") + 2
    code, diags = _validate(game)
    assert code == 1
    (d,) = [d for d in diags if d["code"] == "HK404"]
    assert (d["line"], d["col"]) == (line, len("    safe-margin: ") + 1)
    assert why in d["message"]


@pytest.mark.parametrize(("size", "margin"), [
    ((13, 13), 1.5), ((16, 16), 1.5), ((19.9, 30), 1.5),   # tokens
    ((20, 20), 2.0), ((25, 25), 2.0), ((30, 50), 2.0),    # counters and tiles
    ((40, 40), 3.0), ((63, 88), 3.0), ((180, 250), 3.0),  # cards, sheets
])
def test_the_default_safe_margin_follows_the_size_class(size: tuple[float, float], margin: float) -> None:
    assert default_safe_margin(size) == margin


def test_a_small_token_gets_the_smaller_default(game: Path) -> None:
    _edit(game, CARD_HEAD + "    back: path-deck\n", "  card:\n    size: [16, 16]\n")
    text = _layouts(game).read_text()
    start = text.index("      - {type: rect, x: 0, y: 0, w: 63, h: 88, fill: \"#f4efe1\"")
    text = text[:start] + ('      - {type: rect, x: 0, y: 0, w: 16, h: 16, fill: "#f4efe1", bleed: true}\n'
                           '      - {type: text, name: steps, x: 1.6, y: 4, w: 12.8, h: 8, text: "{{ steps }}", size: 12}\n')
    _layouts(game).write_text(text)
    assert _hk415(game) == []
    _edit(game, "x: 1.6, y: 4, w: 12.8", "x: 1.2, y: 4, w: 12.8")
    (d,) = _hk415(game)
    assert "1.5 mm safe margin" in d["message"] and "0.3 mm at the left edge" in d["message"]


def test_preview_safe_draws_the_trim_line_and_the_safe_zone(game: Path, tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.png", tmp_path / "marked.png"
    assert run_cli("preview", str(game), "stride", "-o", str(plain), "--dpi", "300").returncode == 0
    assert run_cli("preview", str(game), "stride", "-o", str(marked), "--dpi", "300", "--safe").returncode == 0

    def column(path: Path, mm_from_left: float) -> list[tuple[int, int, int]]:
        image = Image.open(path).convert("RGB")
        x0 = round(mm_from_left / 25.4 * 300)
        rows = range(image.height // 2 - 30, image.height // 2 + 30)  # longer than a dash and its gap
        return [image.getpixel((x, y)) for x in range(x0 - 2, x0 + 3) for y in rows]

    def red(px: tuple[int, int, int]) -> bool:
        return px[0] > 150 and px[1] < 110 and px[2] < 110

    def blue(px: tuple[int, int, int]) -> bool:
        return px[2] > 150 and px[0] < 110

    trim, safe = 3.0, 3.0 + 3.0  # 3 mm bleed, then the card's 3 mm safe margin
    assert any(red(px) for px in column(marked, trim)) and not any(red(px) for px in column(plain, trim))
    assert any(blue(px) for px in column(marked, safe)) and not any(blue(px) for px in column(plain, safe))


@pytest.mark.parametrize("name", ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"])
def test_shipped_games_keep_what_is_read_inside_the_safe_zone(name: str) -> None:
    code, diags = _validate(Path(name), "--strict")
    assert [d for d in diags if d["code"] == "HK415"] == []
    assert code == 0, diags


# --- round and hexagonal cuts ----------------------------------------------------------------

def _chit(game: Path, head: str, boxes: str) -> int:
    """Make the game's card a 24 mm chit: ``head`` (design properties) and ``boxes`` (YAML lines);
    returns the line of the first of ``boxes``."""
    path = _layouts(game)
    text = path.read_text()
    text = text[: text.index("kinds:")] + "kinds:\n  card:\n    size: [24, 24]\n" + head
    start = text.count("\n") + 2
    path.write_text(text + "    boxes:\n" + boxes)
    return start


ROUND_BG = '      - {type: ellipse, x: 0, y: 0, w: 24, h: 24, fill: "#f4efe1", bleed: true}\n'
# 2 mm from every edge of the square trim: fine on a square counter, its corners lie 1.3 mm
# outside a round cut of the same size
CORNER_TEXT = '      - {type: text, name: value, x: 2, y: 2, w: 20, h: 20, text: "{{ steps }}", size: 12}\n'


def test_a_round_chit_is_judged_against_its_round_cut(game: Path) -> None:
    line = _chit(game, "", ROUND_BG + CORNER_TEXT) + 1
    (d,) = _hk415(game)
    assert d["line"] == line
    assert "text box 'value' of kind 'card'" in d["message"]
    assert "2 mm safe margin inside the round cut" in d["message"]
    # the box's corner lies 10 * sqrt(2) = 14.1 mm from the centre, the cut 12 mm: 2.1 mm beyond it
    assert "4.1 mm at the top-left corner (2.1 mm of it beyond the trim)" in d["message"]
    assert "a round 24 x 24 mm piece" in d["message"]


def test_the_same_box_on_a_square_counter_is_clean(game: Path) -> None:
    _chit(game, "", '      - {type: rect, x: 0, y: 0, w: 24, h: 24, fill: "#f4efe1", bleed: true}\n' + CORNER_TEXT)
    assert _hk415(game) == []


def test_a_box_inside_the_circle_less_the_margin_is_clean_on_a_round_chit(game: Path) -> None:
    # corners 7 mm across and down from the centre: 9.9 mm, inside the 10 mm the 2 mm margin leaves
    _chit(game, "", ROUND_BG + '      - {type: text, x: 5, y: 5, w: 14, h: 14, text: "{{ steps }}", size: 12}\n')
    assert _hk415(game) == []


def test_a_declared_cut_overrides_what_the_background_suggests(game: Path) -> None:
    # a round background printed on a square-cut counter: the layout says it is cut square
    _chit(game, "    cut: rectangle\n", ROUND_BG + CORNER_TEXT)
    assert _hk415(game) == []


@pytest.mark.parametrize(("cut", "corner_box", "edge_box"), [
    # pointy top: corners at top and bottom centre, flat sides left and right
    ("hex", "{x: 3, y: 3, w: 18, h: 4}", "{x: 2.5, y: 10, w: 19, h: 4}"),
    # flat top: flat at top and bottom, corners at left and right middle
    ("hex-flat", "{x: 3, y: 3, w: 4, h: 18}", "{x: 10, y: 2.5, w: 4, h: 19}"),
])
def test_a_hex_tile_is_judged_against_its_hexagon(game: Path, cut: str, corner_box: str, edge_box: str) -> None:
    def box(name: str, geometry: str) -> str:
        return f'      - {{type: text, name: {name}, {geometry[1:-1]}, text: "{{{{ steps }}}}", size: 7}}\n'

    _chit(game, f"    cut: {cut}\n", box("slanted", corner_box) + box("flat", edge_box))
    found = _hk415(game)
    # 'slanted' keeps 3 mm from the square trim but sits in the hexagon's cut-away corners;
    # 'flat' keeps 2.5 mm from the hexagon's flat sides and its ends stay clear of the slants
    assert [("box 'slanted'" in d["message"], "inside the hex cut" in d["message"]) for d in found] == [(True, True)]
    assert "a hexagonal 24 x 24 mm piece" in found[0]["message"]


def test_a_hex_background_makes_a_hex_tile(game: Path) -> None:
    _chit(game, "", '      - {type: hex, x: 0, y: 0, w: 24, h: 24, fill: "#f4efe1"}\n'
          '      - {type: text, name: top, x: 3, y: 3, w: 18, h: 4, text: "{{ steps }}", size: 7}\n')
    (d,) = _hk415(game)
    assert "inside the hex cut" in d["message"] and "top-left corner" in d["message"]


def test_the_back_of_a_round_chit_is_judged_against_the_same_circle(game: Path) -> None:
    path = _layouts(game)
    text = path.read_text().replace("w: 63, h: 88, fill: \"#2f5d50\"", "w: 24, h: 24, fill: \"#2f5d50\"")
    text = text.replace('{type: text, x: 6, y: 38, w: 51, h: 12,', '{type: text, x: 2, y: 16, w: 20, h: 6,')
    path.write_text(text)
    _chit(game, "    back: path-deck\n", ROUND_BG)
    (d,) = _hk415(game)
    assert "back 'path-deck'" in d["message"] and "round cut" in d["message"] and "bottom-left corner" in d["message"]


def test_an_unknown_cut_is_hk404_at_its_value(game: Path) -> None:
    line = _chit(game, "    cut: oval\n", ROUND_BG) - 2  # the line above "boxes:"
    code, diags = _validate(game)
    assert code == 1
    (d,) = [d for d in diags if d["code"] == "HK404"]
    assert (d["line"], d["col"]) == (line, len("    cut: ") + 1)
    assert "unknown cut 'oval'" in d["message"] and "round" in d["hint"]


def test_preview_safe_draws_a_round_chits_cut_and_zone_as_circles(game: Path, tmp_path: Path) -> None:
    _chit(game, "", ROUND_BG)
    out = tmp_path / "chit.png"
    assert run_cli("preview", str(game), "stride", "-o", str(out), "--dpi", "600", "--safe").returncode == 0
    image = Image.open(out).convert("RGB")
    px_per_mm = 600 / 25.4

    def has(colour: str, x_mm: float, y_mm: float, radius_mm: float = 0.6) -> bool:
        """Whether a pixel of the overlay's red or blue lies within ``radius_mm`` of the point (bleed included)."""
        cx, cy, r = (x_mm + 3) * px_per_mm, (y_mm + 3) * px_per_mm, radius_mm * px_per_mm
        for x in range(int(cx - r), int(cx + r) + 1):
            for y in range(int(cy - r), int(cy + r) + 1):
                p = image.getpixel((x, y))
                if (colour == "red" and p[0] > 150 and p[1] < 110 and p[2] < 110) or \
                        (colour == "blue" and p[2] > 150 and p[0] < 110):
                    return True
        return False

    diagonal = 12 - 12 / 2 ** 0.5  # where the circle crosses the diagonal, mm from the trim's corner
    inner = 12 - 10 / 2 ** 0.5  # the same for the circle 2 mm inside
    assert has("red", diagonal, diagonal) and not has("red", 0, 0)
    assert has("blue", inner, inner, 1.2) and not has("blue", 2, 2)
