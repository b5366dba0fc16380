"""Art resolution (HK416): a bitmap too coarse for the box it prints in is a warning at the line
that names the file, in `hordekit validate` and `hordekit pnp` alike.

Print shops ask for 300 dpi at the printed size; an image enlarged past that prints soft or
blocky. The fixture game places a unit's art in a 10 x 8 mm box (118 x 94 pixels at 300 dpi).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from conftest import FIXTURES, run_cli

HEXFIX = FIXTURES / "hexfix"
PYLIB = FIXTURES / "pylib"


def _with_art(tmp_path: Path, pixels: tuple[int, int]) -> Path:
    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    units = game / "units.yaml"
    units.write_text(units.read_text().replace("{id: red-rider,", "{id: red-rider, art: art/rider.png,"))
    (game / "art").mkdir()
    Image.new("RGB", pixels, "#336699").save(game / "art" / "rider.png")
    return game


def _hk416(game: Path, *command: str) -> list[dict]:
    proc = run_cli(*command, str(game), "--format", "json", extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout
    return [d for d in json.loads(proc.stdout) if d["code"] == "HK416"]


def test_coarse_art_is_a_warning_at_the_line_that_names_it(tmp_path: Path) -> None:
    game = _with_art(tmp_path, (60, 48))  # 10 x 8 mm: 152 dpi
    (d,) = _hk416(game, "validate")
    line = (game / "units.yaml").read_text().splitlines()[4]
    assert d["file"].endswith("hexfix/units.yaml")
    assert (d["line"], d["col"]) == (5, line.index("art/rider.png") + 1)
    assert d["severity"] == "warning"
    assert "unit 'red-rider': art 'art/rider.png' prints at 152 dpi (60 x 48 pixels over 10.0 x 8.0 mm)" in d["message"]
    assert "print shops ask for 300 dpi, 118 x 94 pixels at this size" in d["message"]


def test_pnp_reports_it_too_and_still_prints(tmp_path: Path) -> None:
    game = _with_art(tmp_path, (60, 48))
    out = tmp_path / "art.pdf"
    proc = run_cli("pnp", str(game), "--only", "red-rider", "-o", str(out), extra_path=[PYLIB])
    assert proc.returncode == 0 and out.is_file()
    assert proc.stdout.count("HK416") == 1, proc.stdout


@pytest.mark.parametrize("pixels", [(118, 94), (4000, 3200), (30, 94)])
def test_art_at_300_dpi_or_finer_is_clean(tmp_path: Path, pixels: tuple[int, int]) -> None:
    # (30, 94): a tall narrow image fills the box's height at 300 dpi and is only 2.5 mm wide
    assert _hk416(_with_art(tmp_path, pixels), "validate") == []


def test_art_named_in_the_layout_is_reported_at_the_layout(tmp_path: Path) -> None:
    game = _with_art(tmp_path, (60, 48))
    layouts = game / "templates" / "layouts.yaml"
    text = layouts.read_text().replace('image: "{{ item.art }}", when: "item.art is defined"', "image: art/rider.png")
    layouts.write_text(text)
    found = _hk416(game, "validate")
    assert found and all(d["file"].endswith("templates/layouts.yaml") for d in found)
    line = next(n for n, ln in enumerate(text.splitlines(), 1) if "image: art/rider.png" in ln)
    assert {d["line"] for d in found} == {line}


def test_vector_art_has_no_resolution(tmp_path: Path) -> None:
    game = _with_art(tmp_path, (60, 48))
    units = game / "units.yaml"
    units.write_text(units.read_text().replace("art/rider.png", "art/rider.svg"))
    (game / "art" / "rider.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="8">'
                                            '<rect width="10" height="8" fill="#aa3322"/></svg>')
    assert _hk416(game, "validate") == []
