"""Lines too thin for a press (HK414): a print shop's first complaint, found by validate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli

LINE = '{type: rect, x: 4, y: 4, w: 55, h: 80, stroke: "#e9d8a6", stroke-width: 1.2, radius: 3}'


def _game_with_stroke(tmp_path: Path, width: str) -> tuple[Path, int]:
    assert run_cli("new", "trail", cwd=tmp_path).returncode == 0
    folder = tmp_path / "content" / "trail"
    layouts = folder / "templates" / "layouts.yaml"
    lines = layouts.read_text().splitlines()
    (number,) = [i + 1 for i, text in enumerate(lines) if LINE in text]
    layouts.write_text(layouts.read_text().replace(LINE, LINE.replace("1.2", width)))
    return folder, number


def _hk414(folder: Path) -> list[dict]:
    proc = run_cli("validate", str(folder), "--format", "json")
    assert proc.returncode == 0, proc.stdout  # a warning: the game still validates
    return [d for d in json.loads(proc.stdout) if d["code"] == "HK414"]


@pytest.mark.parametrize("width", ["0.1", "0"])
def test_a_hairline_is_a_warning_at_its_stroke_width(tmp_path: Path, width: str) -> None:
    folder, line = _game_with_stroke(tmp_path, width)
    (d,) = _hk414(folder)
    assert d["file"].endswith("layouts.yaml") and d["line"] == line
    assert f"a {width} pt line is too thin" in d["message"]
    assert run_cli("validate", str(folder), "--strict").returncode == 1
    out = tmp_path / "trail.pdf"
    proc = run_cli("pnp", str(folder), "-o", str(out))  # pnp says so too, and still prints
    assert proc.returncode == 0 and "HK414" in proc.stdout + proc.stderr and out.is_file()


def test_a_quarter_point_line_prints(tmp_path: Path) -> None:
    folder, _line = _game_with_stroke(tmp_path, "0.25")
    assert _hk414(folder) == []


@pytest.mark.parametrize("game", ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"])
def test_shipped_layouts_have_no_hairlines(game: str) -> None:
    assert _hk414(Path(game)) == []


# --- lines inside icons: their width scales with the size the icon prints at ---------------------

ICONS = """icons:
  path:
    legend: "a step along the path"
    shapes:
      - {circle: [50, 50, 40], fill: "#e9d8a6", stroke: ink, width: 8}
      - {line: [20, 50, 80, 50], stroke: ink, width: WIDTH}
"""
MOVE = 'text: "Move {{ steps }} step'


def _game_with_icon(tmp_path: Path, width: str) -> Path:
    """The new game's cards say ':path: Move N steps' in 10 pt: the icon prints about 3.5 mm wide."""
    assert run_cli("new", "trail", cwd=tmp_path).returncode == 0
    folder = tmp_path / "content" / "trail"
    (folder / "templates" / "icons.yaml").write_text(ICONS.replace("WIDTH", width))
    layouts = folder / "templates" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace(MOVE, 'text: ":path: Move {{ steps }} step'))
    return folder


def _pnp_hk414(folder: Path, tmp_path: Path, *command: str) -> list[dict]:
    proc = run_cli(*command, str(folder), "-o", str(tmp_path / "out.pdf"), "--format", "json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if "warning" not in proc.stdout:  # a run without problems prints its summary, no JSON list
        assert "0 warnings" in proc.stdout + proc.stderr
        return []
    return [d for d in json.loads(proc.stdout) if d["code"] == "HK414"]


def test_an_icon_line_that_prints_thinner_than_a_quarter_point_is_a_warning_at_its_width(tmp_path: Path) -> None:
    folder = _game_with_icon(tmp_path, "2")  # 2 % of a 10 pt icon: 0.2 pt
    (d,) = _pnp_hk414(folder, tmp_path, "pnp")
    assert d["file"].endswith("templates/icons.yaml")
    assert (d["line"], d["col"]) == (6, ICONS.splitlines()[5].index("WIDTH") + 1)
    assert "icon 'path' is printed as small as" in d["message"] and "its line of width 2 is 0.2" in d["message"]
    assert "give the line a width of" in d["hint"]


def test_the_print_shop_export_reports_it_too(tmp_path: Path) -> None:
    folder = _game_with_icon(tmp_path, "2")
    proc = run_cli("export", "pieces", str(folder), "-o", str(tmp_path / "pieces.pdf"))
    assert proc.returncode == 0 and "warning HK414: icon 'path'" in proc.stdout + proc.stderr


def test_an_icon_line_that_prints_at_a_quarter_point_or_more_is_clean(tmp_path: Path) -> None:
    assert _pnp_hk414(_game_with_icon(tmp_path, "4"), tmp_path, "pnp") == []


@pytest.mark.parametrize("game", ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"])
def test_shipped_icons_print_no_hairlines(game: str, tmp_path: Path) -> None:
    assert _pnp_hk414(Path(game), tmp_path, "pnp") == []


def test_validate_finds_it_from_the_laid_out_text_without_printing(tmp_path: Path) -> None:
    folder = _game_with_icon(tmp_path, "2")
    (d,) = _hk414(folder)
    assert d["file"].endswith("templates/icons.yaml") and d["line"] == 6
    assert run_cli("validate", str(folder), "--strict").returncode == 1
