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
