"""An icon's own colours read on every piece it is printed on: the coloured parts of Fantasy Draft's
flag on the unit-token backs stand out from what lies around them, on both players' tokens.

Each back is rendered by `hordekit preview`; the flag's coloured polygon is found from the layout
(where the icon box is) and icons.yaml (where the polygon lies in the icon), and its colour is
compared with the pixels just beyond its corners."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, run_cli
from toolkit.pnp.layoutfile import read_layouts

Image = pytest.importorskip("PIL.Image")

DPI = 300
BLEED = 3.0
OUTSIDE = 10  # icon units (of 100) beyond a corner, away from the polygon's centre
MIN_DISTANCE = 100  # RGB distance: a colour this far from its surroundings reads at a glance


def _coloured_polygons(game: str, icon: str) -> list[list[tuple[float, float]]]:
    """The icon's polygons filled with a colour of their own (not the box's ink)."""
    icons = yaml.safe_load((ROOT / "templates" / game / "icons.yaml").read_text(encoding="utf-8"))
    shapes = icons["icons"][icon]["shapes"] if "icons" in icons else icons[icon]["shapes"]
    return [[tuple(p) for p in s["polygon"]] for s in shapes
            if "polygon" in s and s.get("fill") not in (None, "ink", "none")]


@pytest.mark.parametrize("item", ["token-player-1", "token-player-2"])
def test_the_flag_on_a_unit_token_back_stands_out_on_either_players_colour(tmp_path: Path, item: str) -> None:
    layouts, _ = read_layouts(ROOT / "templates" / "fantasy-draft")
    assert layouts is not None
    box = next(b for b in layouts.backs["token-back"].boxes if b.type == "icon" and b.props["icon"] == "flag")
    side = min(box.w, box.h)
    left, top = box.x + (box.w - side) / 2, box.y + (box.h - side) / 2
    png = tmp_path / f"{item}.png"
    proc = run_cli("preview", "fantasy-draft", item, "--back", "--dpi", str(DPI), "-o", str(png))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    image = Image.open(png).convert("RGB")

    def pixel(u: float, v: float) -> tuple[int, int, int]:
        """The colour at (u, v) in the icon's 100 x 100 box."""
        x_mm, y_mm = BLEED + left + u / 100 * side, BLEED + top + v / 100 * side
        return image.getpixel((round(x_mm / 25.4 * DPI), round(y_mm / 25.4 * DPI)))

    polygons = _coloured_polygons("fantasy-draft", "flag")
    assert polygons  # the pennant
    for points in polygons:
        cu = sum(u for u, _ in points) / len(points)
        cv = sum(v for _, v in points) / len(points)
        inside = pixel(cu, cv)
        for u, v in points:
            d = math.hypot(u - cu, v - cv)
            around = pixel(u + (u - cu) / d * OUTSIDE, v + (v - cv) / d * OUTSIDE)
            assert math.dist(inside, around) >= MIN_DISTANCE, (item, (u, v), inside, around)
