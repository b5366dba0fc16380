"""Pieces of different sizes share a sheet when a block of them fits under the pieces already
there, each block with its own crop marks: Kingdoms' time track (one 180 × 46 mm strip) no longer
takes a sheet of its own. Read back from real PDFs with pypdfium2."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from toolkit.pnp.sheets import BAND_GAP, Grid, fit_below, make_grid, printable_area, used_bottom

pdfium = pytest.importorskip("pypdfium2")
raw = pytest.importorskip("pypdfium2.raw")

MM = 72 / 25.4
BLEED = 3.0
TRACK = (180 + 2 * BLEED, 46 + 2 * BLEED)   # the time track's piece with its bleed, in mm
Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box, slack: float = 0.05) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def _objects(page) -> tuple[list[Box], list[Box]]:  # noqa: ANN001
    """(pieces, lines) placed on the page, as boxes in mm."""
    forms, paths = [], []
    for obj in page.get_objects(max_depth=1):
        box = tuple(v / MM for v in obj.get_bounds())
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            forms.append(box)
        elif obj.type == raw.FPDF_PAGEOBJ_PATH:
            paths.append(box)
    return forms, paths


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_time_track_shares_a_sheet_and_stays_whole_readable_and_cuttable(tmp_path: Path, paper: str) -> None:
    pdf = tmp_path / f"kingdoms-{paper}.pdf"
    proc = run_cli("pnp", "kingdoms", "--paper", paper, "-o", str(pdf))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = pdfium.PdfDocument(str(pdf))
    pages = [n for n in range(len(doc)) if "Time Track" in doc[n].get_textpage().get_text_range()]
    assert len(pages) == 1
    page = doc[pages[0]]
    text = page.get_textpage().get_text_range()
    assert all(f"{n}" in text.split() for n in range(1, 21))          # the 20 round numbers
    forms, paths = _objects(page)
    tracks = [b for b in forms if abs(b[2] - b[0] - TRACK[0]) < 0.1 and abs(b[3] - b[1] - TRACK[1]) < 0.1]
    assert len(tracks) == 1, "the track is printed at its full size, once"
    track = tracks[0]
    others = [b for b in forms if b is not track]
    assert others, "the time track has a sheet to itself"
    for i, a in enumerate(forms):
        for b in forms[i + 1:]:
            assert not _overlap(a, b), (a, b)
    # the other block is at least BAND_GAP away, so both blocks' crop marks fit between them
    for b in others:
        gap = max(b[1] - track[3], track[1] - b[3])
        assert gap >= BAND_GAP - 0.05, (b, track)
    # crop marks touch no piece, and the track's trim edges are marked above and below it
    for p in paths:
        assert not any(_overlap(p, b) for b in forms), p
    left, right = track[0] + BLEED, track[2] - BLEED
    for x in (left, right):
        marks = [p for p in paths if p[2] - p[0] < 0.5 and abs(p[0] - x) < 0.3]
        assert any(p[1] >= track[3] for p in marks) and any(p[3] <= track[1] for p in marks), x


def test_fit_below_places_a_block_under_used_rows_or_refuses() -> None:
    paper = (210.0, 297.0)
    chips = make_grid(paper, (20.0, 20.0), BLEED)
    assert chips is not None
    top = used_bottom(chips, chips.cols * 2)            # two rows of chips used
    block = fit_below(paper, (180.0, 46.0), BLEED, top, 1)
    assert block is not None and (block.rows, block.cols) == (1, 1)
    slot = block.slot(0)
    assert slot.y + 46 + BLEED <= top - BAND_GAP + 1e-6
    assert slot.y - BLEED >= printable_area(paper)[1] - 1e-6
    full = used_bottom(chips, chips.per_page)            # a full sheet leaves no room
    assert fit_below(paper, (180.0, 46.0), BLEED, full, 1) is None
    # more than fit below: refused, not split
    assert fit_below(paper, (180.0, 46.0), BLEED, top, 10) is None
    assert isinstance(block, Grid)
