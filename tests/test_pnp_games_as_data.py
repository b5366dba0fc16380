"""A game is data: icons, dice faces and board geometry come from the game's own files.

The fixture game under tests/fixtures/hexfix (a hex board, its own icons, its own dice, a free
layout with arrows) is validated and printed with no change to the toolkit; the PDFs are read
back with pypdf.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, ROOT, run_cli

pypdf = pytest.importorskip("pypdf")

HEXFIX = FIXTURES / "hexfix"
PYLIB = FIXTURES / "pylib"


@pytest.fixture(scope="module")
def hexfix_pdf(tmp_path_factory: pytest.TempPathFactory) -> Any:
    pdf = tmp_path_factory.mktemp("hexfix") / "hexfix.pdf"
    proc = run_cli("pnp", str(HEXFIX), "-o", str(pdf), extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return pypdf.PdfReader(str(pdf))


def _text(reader: Any) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_fixture_game_validates_cleanly() -> None:
    proc = run_cli("validate", str(HEXFIX), extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout
    assert "0 errors, 0 warnings" in proc.stdout or proc.stdout.strip().endswith("ok"), proc.stdout


def test_the_fixture_game_plays_smoke_games(tmp_path: Path) -> None:
    proc = run_cli("smoke", str(HEXFIX), "--games", "20", "-o", str(tmp_path), extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hex_board_is_printed_with_its_coordinates(hexfix_pdf: Any) -> None:
    text = _text(hexfix_pdf)
    assert "Battlefield, sheet" in text
    # nine columns named A-I, eight rows: every space's coordinate is printed in it
    for label in ("A1", "E1", "I1", "A8", "E8", "I8", "D4"):
        assert label in text, label


def test_icons_are_the_games_own(hexfix_pdf: Any) -> None:
    text = _text(hexfix_pdf)
    for token in ("[sword]", "[boot]", "[flag]"):
        assert token in text, token


def test_dice_faces_come_from_content(hexfix_pdf: Any) -> None:
    text = _text(hexfix_pdf)
    for token in ("[battle-1]", "[battle-2]", "[battle-3]", "[battle-x]", "[d10-0]", "[d10-9]"):
        assert token in text, token


def test_a_new_die_face_in_content_becomes_a_known_icon(tmp_path: Path) -> None:
    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    ref = game / "templates" / "layouts.yaml"
    ref.write_text(ref.read_text().replace("Capture the enemy :flag: to win.", "A :battle-4: is a critical hit."))
    assert "HK402" in run_cli("validate", str(game), extra_path=[PYLIB]).stdout  # no face 4 yet
    dice = game / "dice.yaml"
    dice.write_text(dice.read_text().replace("faces: [1, 1, 2, 2, 3, X]", "faces: [1, 2, 3, 4, 5, X]"))
    proc = run_cli("validate", str(game), extra_path=[PYLIB])
    assert proc.returncode == 0 and "HK402" not in proc.stdout, proc.stdout


def test_an_icon_the_game_does_not_declare_is_reported(tmp_path: Path) -> None:
    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    icons = game / "templates" / "icons.yaml"
    icons.write_text(icons.read_text().replace("  boot:", "  shoe:"))
    proc = run_cli("validate", str(game), extra_path=[PYLIB])
    # written in the layout's template: reported there, once, where the word is fixed
    assert re.search(r"templates/layouts\.yaml:26:105: warning HK402: unit '\S+': unknown icon ':boot:'",
                     proc.stdout), proc.stdout


def test_a_broken_icon_is_reported_at_its_line(tmp_path: Path) -> None:
    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    icons = game / "templates" / "icons.yaml"
    lines = icons.read_text().splitlines()
    n = next(i for i, ln in enumerate(lines) if "circle" in ln or "polygon: [[46, 4]" in ln)
    lines[n] = lines[n].replace("fill: \"#c9d1d9\"", "fill: greenish")
    icons.write_text("\n".join(lines) + "\n")
    proc = run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf"), extra_path=[PYLIB])
    assert proc.returncode == 1
    assert re.search(rf"templates/icons\.yaml:{n + 1}:\d+: error HK410", proc.stdout), proc.stdout
    assert not (tmp_path / "x.pdf").exists()


def test_free_layout_board_carries_its_zones_arrows_and_die_faces(hexfix_pdf: Any) -> None:
    page = next(p for p in hexfix_pdf.pages if "Dice mat" in p.extract_text())
    text = page.extract_text()
    assert "Front row" in text and "[battle-1]" in text and "[battle-3]" in text


# --- board geometry, as numbers --------------------------------------------------------------

def _board(**kw: Any) -> Any:
    from toolkit.pnp.layoutfile import Board
    from toolkit.pnp.templating import Where

    base = dict(name="b", columns=5, rows=4, space=20.0, border=5.0, overlap=10.0, title="B", labels="numbers",
                fill="#ffffff", alt_fill="#eeeeee", where=Where("x", 1), grid="hex")
    base.update(kw)
    return Board(**base)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("offset", ["odd", "even"])
def test_neighbouring_hexes_sit_one_space_apart(orientation: str, offset: str) -> None:
    from toolkit.pnp.board import grid_cells

    cells, _, _ = grid_cells(_board(orientation=orientation, offset=offset), 5, 4)
    by_axial = {(c.q, c.r): c for c in cells}
    assert len(by_axial) == 20
    for c in cells:
        for dq, dr in ((1, 0), (0, 1), (-1, 1)):
            other = by_axial.get((c.q + dq, c.r + dr))
            if other:
                assert math.dist((c.cx, c.cy), (other.cx, other.cy)) == pytest.approx(20.0)


def test_offset_coordinates_round_trip_through_axial() -> None:
    from toolkit.pnp.board import _axial, _offset

    for orientation in ("pointy", "flat"):
        for offset in ("odd", "even"):
            b = _board(orientation=orientation, offset=offset)
            for col in range(6):
                for row in range(6):
                    assert _offset(b, *_axial(b, col, row)) == (col, row)


def test_a_hexagon_shaped_board_has_axial_coordinates() -> None:
    from toolkit.pnp.board import grid_cells

    cells, w, h = grid_cells(_board(shape="hexagon", radius=2, coordinates="axial"), 0, 0)
    assert len(cells) == 19  # 1 + 6 + 12
    assert {c.label for c in cells} >= {"0,0", "2,-2", "-2,2"}


def test_the_toolkit_names_no_icon_of_a_game() -> None:
    from ruamel.yaml import YAML

    names: set[str] = set()
    for icons in list((ROOT / "templates").glob("*/icons.yaml")) + [HEXFIX / "templates" / "icons.yaml"]:
        names |= set((YAML(typ="safe").load(icons.read_text()).get("icons") or {}))
    assert {"steam", "castle", "sword"} <= names
    printing = [*(ROOT / "toolkit" / "pnp").rglob("*.py"), *(ROOT / "toolkit").glob("pnp_cli.py"),
                *(ROOT / "toolkit").glob("export*.py")]
    source = "\n".join(p.read_text() for p in printing)
    named = {n for n in names if re.search(rf"[\"']{re.escape(n)}[\"']", source)}
    assert named == set(), named
