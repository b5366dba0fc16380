"""The safe zone on boards (HK415): what a player reads on a board stays clear of the board's own
cut edge and of the cuts where the sheets of a board larger than the paper are joined.

A board bigger than the paper is printed over several sheets that overlap; the overlap is cut and
glued. hordekit places each cut where it runs through no text or icon when the overlap allows,
and warns at the box in layouts.yaml when no place does. Each test adds a free-layout board to a
game made by `hordekit new`, runs the real CLI and reads the PDF back.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import run_cli

PT_PER_MM = 72 / 25.4


@pytest.fixture
def game(tmp_path: Path) -> Path:
    assert run_cli("new", "trail", cwd=tmp_path).returncode == 0
    return tmp_path / "content" / "trail"


def _board(game: Path, size: str, *boxes: str) -> int:
    """Add a free-layout board of ``size`` with ``boxes``; the line of the first box."""
    path = game / "templates" / "layouts.yaml"
    text = path.read_text() + f"\nboards:\n  mat:\n    title: Mat\n    grid: none\n    size: {size}\n    boxes:\n"
    first = text.count("\n") + 1
    path.write_text(text + "".join(f"      - {b}\n" for b in boxes))
    return first


def _hk415(game: Path) -> list[dict]:
    proc = run_cli("validate", str(game), "--format", "json")
    assert proc.returncode == 0, proc.stdout
    return [d for d in json.loads(proc.stdout) if d["code"] == "HK415"]


def _cuts(pdf: Path) -> list[float]:
    """Where each sheet's red cut line runs, in mm of the board (read from the page's drawing:
    the board is placed with a translation, the red line drawn after it)."""
    cuts = []
    for page in PdfReader(pdf).pages:
        stream = page.get_contents().get_data().decode("latin-1")
        place = re.search(r"1 0 0 1 ([\d.-]+) ([\d.-]+) cm\s*/FormXob\.board:mat Do", stream)
        line = re.search(r"\.75 \.05 \.05 RG\s*\.6 w\s*n ([\d.-]+) ([\d.-]+) m ([\d.-]+) ([\d.-]+) l S", stream)
        if place and line:
            assert line.group(1) == line.group(3), "a 380 mm board on A4 or letter is split by vertical cuts"
            cuts.append((float(line.group(1)) - float(place.group(1))) / PT_PER_MM)
    return cuts


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_seam_is_cut_clear_of_the_text_it_would_run_through(game: Path, tmp_path: Path, paper: str) -> None:
    # two sheets side by side; the middle of their overlap is at x = 190 mm, inside this box
    _board(game, "[380, 180]", '{type: text, name: middle, x: 170, y: 80, w: 19, h: 10, text: "Middle", size: 9}')
    out = tmp_path / "mat.pdf"
    proc = run_cli("pnp", str(game), "--only", "board", "--paper", paper, "-o", str(out))
    assert proc.returncode == 0 and "HK415" not in proc.stdout + proc.stderr
    cuts = _cuts(out)
    assert len(cuts) == 2  # the waste strip on one sheet, the glue strip on the other: the same line
    assert all(c >= 189 + 3 - 0.01 for c in cuts), cuts  # the box ends at 189 mm; 3 mm safe margin
    assert abs(cuts[0] - cuts[1]) < 0.01


def test_text_that_no_cut_can_avoid_is_a_warning_at_its_box_for_each_paper(game: Path) -> None:
    line = _board(game, "[380, 180]", '{type: text, name: wide, x: 180, y: 80, w: 20, h: 10, text: "Wide", size: 9}')
    (d,) = _hk415(game)
    assert (d["line"], d["file"].endswith("trail/templates/layouts.yaml")) == (line, True)
    assert "text box 'wide' of board 'mat' lies on a seam" in d["message"]
    assert "on A4 the cut between sheets 1 and 2 of each row runs at x = 190.0 mm" in d["message"]
    assert "on US letter the cut between sheets 1 and 2 of each row runs at x = 190.0 mm" in d["message"]


def test_a_turned_board_names_the_cut_in_the_boards_own_coordinates(game: Path) -> None:
    # 420 x 190 mm goes on two sheets turned a quarter: one cut across the board's width at x = 210
    _board(game, "[420, 190]", '{type: text, name: banner, x: 100, y: 50, w: 220, h: 10, text: "Banner", size: 9}')
    (d,) = _hk415(game)
    assert "the cut between sheet rows A and B runs at x = 210.0 mm" in d["message"]


def test_a_box_beside_the_seam_is_clean(game: Path) -> None:
    _board(game, "[420, 190]", '{type: text, x: 100, y: 50, w: 90, h: 10, text: "Left", size: 9}',
           '{type: text, x: 230, y: 50, w: 90, h: 10, text: "Right", size: 9}')
    assert _hk415(game) == []


def test_text_near_the_boards_own_edge_is_a_warning(game: Path) -> None:
    line = _board(game, "[180, 120]", '{type: rect, x: 0, y: 0, w: 180, h: 120, fill: "#e8e0c8"}',
                  '{type: text, name: corner, x: 1, y: 60, w: 40, h: 8, text: "Corner", size: 9}')
    (d,) = _hk415(game)
    assert d["line"] == line + 1
    assert "text box 'corner' of board 'mat' reaches into the 3 mm safe margin inside the cut: 2 mm at the left edge" \
        in d["message"]


def test_the_spaces_a_grid_prints_are_not_judged(game: Path) -> None:
    # a square grid's coordinates sit in its border and its spaces run across every seam, by design
    path = game / "templates" / "layouts.yaml"
    path.write_text(path.read_text() + "\nboards:\n  grid:\n    grid: square\n    columns: 12\n    rows: 12\n"
                    "    space: 25\n")
    assert _hk415(game) == []


def test_a_board_prints_as_many_copies_as_its_quantity(game: Path, tmp_path: Path) -> None:
    _board(game, "[380, 180]", '{type: text, name: left, x: 10, y: 80, w: 30, h: 10, text: "Left", size: 9}')
    path = game / "templates" / "layouts.yaml"
    path.write_text(path.read_text().replace("    title: Mat\n", "    title: Mat\n    quantity: 3\n"))
    out = tmp_path / "mats.pdf"
    proc = run_cli("pnp", str(game), "--only", "board", "--backs", "none", "-o", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    footers = [line for page in PdfReader(out).pages for line in page.extract_text().splitlines() if "· Mat, copy" in line]
    assert [re.search(r"copy (\d) of 3, sheet (\w+)", f).groups() for f in footers] == \
        [("1", "A1"), ("1", "A2"), ("2", "A1"), ("2", "A2"), ("3", "A1"), ("3", "A2")]


@pytest.mark.parametrize("quantity", ["0", "two", "true", "1.5"])
def test_a_board_quantity_that_is_not_a_count_is_an_error_at_its_line(game: Path, quantity: str) -> None:
    _board(game, "[380, 180]", '{type: text, name: left, x: 10, y: 80, w: 30, h: 10, text: "Left", size: 9}')
    path = game / "templates" / "layouts.yaml"
    text = path.read_text().replace("    title: Mat\n", f"    title: Mat\n    quantity: {quantity}\n")
    path.write_text(text)
    line = text.splitlines().index(f"    quantity: {quantity}") + 1
    proc = run_cli("validate", str(game), "--format", "json")
    assert proc.returncode == 1, proc.stdout
    (d,) = [d for d in json.loads(proc.stdout) if "quantity" in d["message"]]
    assert d["file"].endswith("trail/templates/layouts.yaml") and d["line"] == line, d
    assert "a board's quantity must be a whole number from 1 to 100" in d["message"]
