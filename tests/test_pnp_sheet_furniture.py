"""The furniture of every sheet (footer line, 100% note, ruler) stays clear of pieces and crop marks.

Read back from real PDFs with pypdfium2: the boxes of the footer's characters against the
bounds of every piece (a form) and every crop mark (a path) placed on the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import run_cli

pdfium = pytest.importorskip("pypdfium2")
raw = pytest.importorskip("pypdfium2.raw")

MM = 72 / 25.4
HH = "hordes-and-heroes"


def _pnp(tmp_path: Path, name: str, *args: str) -> Path:
    pdf = tmp_path / name
    proc = run_cli("pnp", *args, "-o", str(pdf))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return pdf


def _chars(textpage: Any, needle: str) -> Iterator[tuple[int, tuple[float, float, float, float]]]:
    """(index, box in mm) of every drawn character of every occurrence of ``needle`` on the page."""
    search = textpage.search(needle)
    while (hit := search.get_next()) is not None:
        start, count = hit
        for i in range(start, start + count):
            left, bottom, right, top = textpage.get_charbox(i)
            if right > left:
                yield i, (left / MM, bottom / MM, right / MM, top / MM)


def _found(textpage: Any, needle: str) -> list[tuple[float, float, float, float]]:
    """The boxes (mm) of every character of every occurrence of ``needle`` on the page."""
    return [box for _, box in _chars(textpage, needle)]


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def furniture_clashes(pdf: Path) -> list[str]:
    """Pages where a piece or a crop mark touches a character of the footer or the 100% note."""
    doc = pdfium.PdfDocument(str(pdf))
    clashes = []
    for n in range(len(doc)):
        page = doc[n]
        tp = page.get_textpage()
        text = _found(tp, "ruler must measure 50 mm") + _found(tp, f"page {n + 1} of {len(doc)}")
        assert len(text) >= 25, f"page {n + 1}: footer not found"
        width, height = (v / MM for v in page.get_size())
        for obj in page.get_objects(max_depth=1):
            if obj.type not in (raw.FPDF_PAGEOBJ_FORM, raw.FPDF_PAGEOBJ_PATH):
                continue
            left, bottom, right, top = (v / MM for v in obj.get_bounds())
            if left < 0 or bottom < 0 or right > width or top > height:
                continue  # a board shown through a clipped window (the board tests check those)
            what = "piece" if obj.type == raw.FPDF_PAGEOBJ_FORM else "line"
            if any(_overlaps((left, bottom, right, top), box) for box in text):
                clashes.append(f"page {n + 1}: {what} at ({left:.1f}, {bottom:.1f})-({right:.1f}, {top:.1f}) mm")
    return clashes


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short", "separate"])
def test_footer_stays_clear_of_pieces_and_crop_marks_front_and_back(tmp_path: Path, backs: str) -> None:
    # Squires fill the top rows of their sheet; on a back turned over the short edge they land at
    # the bottom, where the front keeps its footer band.
    pdf = _pnp(tmp_path, f"squires-{backs}.pdf", HH, "--only", "squire", "--backs", backs)
    assert furniture_clashes(pdf) == []


def test_footer_stays_clear_on_full_short_edge_sheets_with_no_bleed(tmp_path: Path) -> None:
    pdf = _pnp(tmp_path, "dice-battles.pdf", "dice-battles", "--backs", "duplex-short", "--bleed", "0")
    assert furniture_clashes(pdf) == []


def test_short_edge_backs_carry_their_footer_behind_the_fronts_footer(tmp_path: Path) -> None:
    pdf = _pnp(tmp_path, "squires-short.pdf", HH, "--only", "squire", "--backs", "duplex-short")
    doc = pdfium.PdfDocument(str(pdf))
    height = doc[0].get_size()[1] / MM
    front = _found(doc[0].get_textpage(), "ruler must measure")
    back = _found(doc[1].get_textpage(), "ruler must measure")
    assert max(b[3] for b in front) < 15  # along the bottom edge of the front
    assert min(b[1] for b in back) > height - 15  # along the top of the back: the same paper edge


def _footer_chars(textpage: Any, needle: str) -> list[tuple[float, tuple[float, float, float, float]]]:
    """(font size in pt, box in mm) of every character of every occurrence of ``needle``."""
    return [(raw.FPDFText_GetFontSize(textpage.raw, i), box) for i, box in _chars(textpage, needle)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_footer_and_scale_note_print_at_6_pt_inside_the_safe_margins(tmp_path: Path, paper: str) -> None:
    # Kingdoms gangs eight kinds of token on one sheet: the longest footers of the shipped games.
    pdf = _pnp(tmp_path, f"kingdoms-{paper}.pdf", "kingdoms", "--paper", paper)
    doc = pdfium.PdfDocument(str(pdf))
    shortened = 0
    for n in range(len(doc)):
        page = doc[n]
        width, height = (v / MM for v in page.get_size())
        tp = page.get_textpage()
        text = tp.get_text_range()
        footer = next(line for line in text.splitlines() if f"page {n + 1} of {len(doc)}" in line)
        chars = _footer_chars(tp, footer.strip()) + _footer_chars(tp, "ruler must measure 50 mm")
        assert len(chars) > 40, f"page {n + 1}: {footer!r} not found whole"
        for size, (left, bottom, right, top) in chars:
            assert size >= 6.0, f"page {n + 1}: footer at {size:.2f} pt"
            assert left >= 5 and right <= width - 5 and bottom >= 5 and top <= height - 5, \
                f"page {n + 1}: footer reaches ({left:.1f}, {bottom:.1f})-({right:.1f}, {top:.1f}) mm"
        if " more" in footer:
            shortened += 1
            assert "hit-counter, victory-token" in footer, footer  # the first kinds are named
    assert shortened > 0  # the ganged token sheets name the first kinds and count the rest


def _placed(reader: Any, page: Any) -> list[tuple[str, tuple[float, float, float, float], tuple[float, float]]]:
    """Every form placed on the page: its name, its box on the sheet (mm) and where its own 'up' points."""
    from pypdf.generic import ContentStream

    xobjects = page["/Resources"].get("/XObject", {})
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack, placed = [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"Do":
            name = str(operands[0]).removeprefix("/FormXob.")
            x0, y0, x1, y1 = (float(v) for v in xobjects[str(operands[0])].get_object()["/BBox"])
            pts = [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]) for x in (x0, x1) for y in (y0, y1)]
            box = (min(p[0] for p in pts) / MM, min(p[1] for p in pts) / MM, max(p[0] for p in pts) / MM, max(p[1] for p in pts) / MM)
            placed.append((name, box, (round(ctm[2]), round(ctm[3]))))  # the image of the form's (0, 1)
    return placed


def _ups_behind_fronts(pdf: Path, backs: str) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """For every piece: its front's up and its back's up, both as seen looking at the front of the sheet."""
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(str(pdf))
    width, height = (float(v) / MM for v in reader.pages[0].mediabox[2:])
    pairs = []
    for i in range(0, len(reader.pages) - 1, 2):
        backs_at = {tuple(round(v, 2) for v in box): (name, up) for name, box, up in _placed(reader, reader.pages[i + 1])}
        for name, (x0, y0, x1, y1), up in _placed(reader, reader.pages[i]):
            if not name.startswith("face:"):
                continue
            seen = (width - x1, y0, width - x0, y1) if backs == "duplex-long" else (x0, height - y1, x1, height - y0)
            back_name, (bx, by) = backs_at[tuple(round(v, 2) for v in seen)]
            # the back sheet seen through the paper: a long-edge turn mirrors x, a short-edge turn y
            through = (-bx, by) if backs == "duplex-long" else (bx, -by)
            pairs.append((name, up, through))
    return pairs


@pytest.mark.parametrize("game,only", [(HH, "squire,doom-token"), ("kingdoms", "army-token-green,kobold-commander")])
def test_a_cut_piece_turned_over_sideways_shows_its_back_upright_in_both_duplex_modes(
        tmp_path: Path, game: str, only: str) -> None:
    # Hordes & Heroes cards lie turned a quarter on the sheet, its tokens and Kingdoms' counters upright.
    for backs in ("duplex-long", "duplex-short"):
        pdf = _pnp(tmp_path, f"{backs}.pdf", game, "--only", only, "--backs", backs)
        pairs = _ups_behind_fronts(pdf, backs)
        assert len(pairs) >= 4
        wrong = [f"{name}: front up {up}, back up {through}" for name, up, through in pairs if up != through]
        assert wrong == [], backs


@pytest.mark.parametrize("backs,offset", [("duplex-long", "0,-4"), ("duplex-short", "3,4")])
def test_a_back_offset_moves_the_backs_footer_with_its_pieces(tmp_path: Path, backs: str, offset: str) -> None:
    # a printer that needs the backs moved 4 mm towards the footer band: the band moves with them
    plain = _pnp(tmp_path, "plain.pdf", HH, "--only", "squire", "--backs", backs)
    shifted = _pnp(tmp_path, "shifted.pdf", HH, "--only", "squire", "--backs", backs, "--back-offset", offset)
    assert furniture_clashes(shifted) == []
    dx, dy = (float(v) for v in offset.split(","))
    before, after = pdfium.PdfDocument(str(plain)), pdfium.PdfDocument(str(shifted))
    for n, (move_x, move_y) in enumerate([(0.0, 0.0), (dx, dy)]):  # the front stays, the back moves
        (b, *_), (a, *_) = _found(before[n].get_textpage(), "ruler must"), _found(after[n].get_textpage(), "ruler must")
        assert (a[0] - b[0], a[1] - b[1]) == (pytest.approx(move_x, abs=0.01), pytest.approx(move_y, abs=0.01)), n
