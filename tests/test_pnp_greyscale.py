"""Printed in grey (a black-and-white laser printer, a photocopy, a colour-blind player), pieces that
only their colour told apart still differ: read back from the print-and-play PDF, rasterised.

Each piece is cut out of the rendered sheet at the place its form is drawn (the PDF's own
placement operators) and compared in greyscale with the piece it must not be mistaken for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from test_pnp import page_ops

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")

DPI = 300
INK_STEP = 48  # grey levels: what an eye tells apart at once on a grey print


def _pieces(tmp_path: Path, game: str, ids: list[str], back: bool = False) -> dict[str, Any]:
    """item id -> the piece (front, or back) as a greyscale image cut from the printed sheet."""
    pdf = tmp_path / f"{game}.pdf"
    proc = run_cli("pnp", game, "--only", ",".join(ids), "--no-crop-marks", "-o", str(pdf))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    reader = pypdf.PdfReader(str(pdf))
    doc = pdfium.PdfDocument(str(pdf))
    found: dict[str, Any] = {}
    for i, page in enumerate(reader.pages):
        forms, _ = page_ops(reader, page)
        img = None
        height = float(page.mediabox.height) / 72 * 25.4
        for name, x, y, w, h in forms:
            parts = name.split(":")
            item = parts[-1] if parts[0] == "face" else None
            if parts[0] == "back" and back:  # a per-item back names its item last too
                item = parts[-1]
            elif back or item is None:
                continue
            if item not in ids or item in found:
                continue
            img = img or doc[i].render(scale=DPI / 72).to_pil().convert("L")
            px = DPI / 25.4
            found[item] = img.crop((round(x * px), round((height - y - h) * px),
                                    round((x + w) * px), round((height - y) * px)))
    assert set(found) == set(ids), (sorted(found), ids)
    return found


def _differing(a: Any, b: Any, box: tuple[float, float, float, float] | None = None) -> int:
    """Pixels that differ by more than INK_STEP grey levels (within ``box``, mm from the piece's
    top-left corner, bleed included), with the two laid over each other as well as they go: two
    pieces placed at different spots on a sheet land up to a pixel apart."""
    from PIL import ImageChops, ImageFilter

    # a copy lands a fraction of a pixel off: its edges are smoothed by less than INK_STEP by a
    # 5-pixel (0.4 mm) blur, while a mark one piece has and the other lacks is not
    a, b = a.filter(ImageFilter.BoxBlur(2)), b.filter(ImageFilter.BoxBlur(2))
    px = DPI / 25.4
    x0, y0, x1, y1 = (round(v * px) for v in box) if box else (0, 0, min(a.width, b.width), min(a.height, b.height))
    m = 1  # pixels either way
    x0, y0, x1, y1 = max(x0, m), max(y0, m), min(x1, a.width - m, b.width - m), min(y1, a.height - m, b.height - m)
    fixed = b.crop((x0, y0, x1, y1))
    return min(ImageChops.difference(a.crop((x0 + dx, y0 + dy, x1 + dx, y1 + dy)), fixed)
               .point(lambda v: 255 if v > INK_STEP else 0).histogram()[255]
               for dx in range(-m, m + 1) for dy in range(-m, m + 1))


def _assert_all_told_apart(pieces: dict[str, Any], least: int, box: tuple[float, ...] | None = None) -> None:
    ids = sorted(pieces)
    alike = [(a, b, n) for i, a in enumerate(ids) for b in ids[i + 1:]
             if (n := _differing(pieces[a], pieces[b], box)) < least]
    assert not alike, alike


KINGDOMS_COLOURS = ["green", "purple", "orange", "black", "teal", "pink"]


@pytest.mark.parametrize("kind", ["army-token", "settlement-marker"])
def test_kingdoms_player_colours_are_told_apart_in_grey(tmp_path: Path, kind: str) -> None:
    pieces = _pieces(tmp_path, "kingdoms", [f"{kind}-{c}" for c in KINGDOMS_COLOURS])
    _assert_all_told_apart(pieces, 150)


@pytest.mark.parametrize("back", [False, True], ids=["front", "back"])
def test_fantasy_draft_unit_tokens_tell_their_owner_in_grey(tmp_path: Path, back: bool) -> None:
    pieces = _pieces(tmp_path, "fantasy-draft", ["token-player-1", "token-player-2"], back=back)
    _assert_all_told_apart(pieces, 60)


def test_dice_battles_unit_levels_are_told_apart_in_grey(tmp_path: Path) -> None:
    # a bronze, a silver, a gold unit and a hero of one faction: their level squares (3 mm bleed + 1.5, 2.3)
    pieces = _pieces(tmp_path, "dice-battles", ["goblin-spearmen", "wolf-riders", "cave-troll", "warboss-grukk"])
    _assert_all_told_apart(pieces, 20, box=(4.5, 5.3, 7.9, 8.7))
