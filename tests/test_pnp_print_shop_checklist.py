"""A print shop's checklist, run on the print-and-play PDF of every shipped game on A4 and on US
letter, read back.

Fonts embedded, page boxes stated, one page size throughout, crop marks outside every piece and
on its trim lines, and every back behind its front for the flip the PDF is made for. (Greyscale
is checked in test_pnp_greyscale.py; a piece's own boxes in `export pieces` in
test_pnp_print_shop.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, run_cli
from test_pnp import FURNITURE_TOP, page_ops
from test_pnp_fonts_for_print import _fonts
from toolkit.pnp.layoutfile import read_layouts

pypdf = pytest.importorskip("pypdf")

GAMES = ["hordes-and-heroes", "fantasy-draft", "kingdoms", "dice-battles"]
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
BLEED = 3.0


@pytest.fixture(scope="module", params=sorted(PAPERS))
def paper(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory, paper: str) -> dict[tuple[str, str], Path]:
    """Every game in both duplex flips, and the calibration sheet, on one paper size."""
    out = tmp_path_factory.mktemp(f"checklist-{paper}")
    files = {}
    for game in GAMES:
        for backs in ("duplex-long", "duplex-short"):
            files[game, backs] = out / f"{game}-{backs}.pdf"
            proc = run_cli("pnp", game, "--paper", paper, "--backs", backs, "-o", str(files[game, backs]))
            assert proc.returncode == 0, proc.stdout + proc.stderr
    files["calibration", "duplex-long"] = out / "calibration.pdf"
    proc = run_cli("pnp", "kingdoms", "--paper", paper, "--calibration", "-o", str(files["calibration", "duplex-long"]))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return files


def test_every_font_is_embedded(pdfs: dict[tuple[str, str], Path]) -> None:
    for pdf in pdfs.values():
        fonts = _fonts(pdf)
        assert fonts, pdf.name
        for name, font in fonts.items():
            assert font["/Subtype"] == "/TrueType", (pdf.name, name)
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), (pdf.name, name)


def test_every_page_states_its_trim_and_bleed_boxes_and_all_pages_are_one_size(pdfs: dict[tuple[str, str], Path],
                                                                                paper: str) -> None:
    width, height = PAPERS[paper]
    for pdf in pdfs.values():
        reader = pypdf.PdfReader(str(pdf))
        sizes = set()
        for n, page in enumerate(reader.pages, start=1):
            media = [round(float(v), 2) for v in page["/MediaBox"]]
            sizes.add(tuple(media))
            for box in ("/TrimBox", "/BleedBox"):
                assert box in page, (pdf.name, n, box)  # stated, not left to the reader's default
                assert [round(float(v), 2) for v in page[box]] == media, (pdf.name, n, box)
            assert page.get("/Rotate", 0) == 0, (pdf.name, n)
        assert sizes == {(0.0, 0.0, round(width * 72 / 25.4, 2), round(height * 72 / 25.4, 2))}, (pdf.name, sizes)


def _sheets(pdf: Path, paper: str) -> list[tuple[int, list[tuple[str, float, float, float, float]], list[tuple[float, ...]]]]:
    """(page, pieces placed, crop-mark lines) of every sheet of pieces (board sheets are not cut
    along crop marks: they carry seam lines and targets instead)."""
    reader = pypdf.PdfReader(str(pdf))
    out = []
    for n, page in enumerate(reader.pages, start=1):
        forms, lines = page_ops(reader, page)
        if any(name.startswith("board") for name, *_ in forms):
            continue
        lines = [ln for ln in lines if min(ln[1], ln[3]) < PAPERS[paper][1] - FURNITURE_TOP]  # a short-edge back's footer
        out.append((n, forms, lines))
    return out


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("game", GAMES)
def test_crop_marks_lie_outside_every_piece_on_its_trim_lines(pdfs: dict[tuple[str, str], Path], game: str,
                                                               backs: str, paper: str) -> None:
    marks = 0
    for n, forms, lines in _sheets(pdfs[game, backs], paper):
        trims_x = {round(v, 2) for _, x, _, w, _ in forms for v in (x + BLEED, x + w - BLEED)}
        trims_y = {round(v, 2) for _, _, y, _, h in forms for v in (y + BLEED, y + h - BLEED)}
        for x1, y1, x2, y2 in lines:
            marks += 1
            for name, fx, fy, fw, fh in forms:  # never over a piece or its bleed
                over_x = fx + 1e-3 < max(x1, x2) and min(x1, x2) < fx + fw - 1e-3
                over_y = fy + 1e-3 < max(y1, y2) and min(y1, y2) < fy + fh - 1e-3
                assert not (over_x and over_y), (n, name, (x1, y1, x2, y2))
            if abs(x1 - x2) < 1e-6:
                assert round(x1, 2) in trims_x, (n, x1)
            else:
                assert abs(y1 - y2) < 1e-6 and round(y1, 2) in trims_y, (n, y1)
    assert marks > 100


def _backed(game: str) -> set[str]:
    """The designs (kinds and extras) that print a back."""
    layouts, _ = read_layouts(ROOT / "templates" / game)
    return {name for name, d in {**layouts.kinds, **layouts.extras}.items() if d.back}


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("game", GAMES)
def test_every_back_lies_behind_its_front_for_the_documented_flip(pdfs: dict[tuple[str, str], Path], game: str,
                                                                  backs: str, paper: str) -> None:
    """Long edge: a front at x lands at paper width - x - w on the back; short edge: at height - y - h."""
    width, height = PAPERS[paper]
    backed = _backed(game)
    sheets = {n: forms for n, forms, _ in _sheets(pdfs[game, backs], paper)}
    checked = 0
    for n, forms in sheets.items():
        fronts = [f for f in forms if f[0].startswith("face:") and f[0].split(":")[1] in backed]
        if not fronts:
            continue
        behind = {(round(x, 2), round(y, 2), round(w, 2), round(h, 2)) for _, x, y, w, h in sheets.get(n + 1, [])}
        for name, x, y, w, h in fronts:
            bx, by = (width - x - w, y) if backs == "duplex-long" else (x, height - y - h)
            assert (round(bx, 2), round(by, 2), round(w, 2), round(h, 2)) in behind, (n, name)
            checked += 1
    assert checked > 20
