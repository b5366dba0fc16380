"""What every sheet carries besides the pieces: the footer, the 100% note and a 50 mm ruler.

Home printers cannot print the outer few millimetres of a sheet, so nothing that must print
comes closer than ``SAFE_MARGIN`` to any paper edge. The furniture lives in a band just above
the bottom safe margin; sheets and boards keep their pieces above ``SAFE_MARGIN + FOOTER_BAND``.
"""

from __future__ import annotations

from typing import Any, Callable

from toolkit.pnp.drawnonce import DrawnOnce
from toolkit.pnp.units import mm

SAFE_MARGIN = 5.0  # mm from every paper edge that stays blank
FOOTER_BAND = 5.5  # mm above the bottom safe margin: footer line, 100% note and ruler
RULER_MM = 50
FOOTER_PT = 6.0  # the smallest size that reads on paper, as for text on the pieces
SCALE_NOTE = "print at 100% / actual size (no 'fit to page'): the ruler must measure 50 mm"


def sheet_boxes(c: Any, paper: tuple[float, float]) -> None:
    """TrimBox and BleedBox on every page, both the whole sheet: a sheet of pieces is printed whole
    and the pieces are cut from it along its crop marks, so the sheet itself is not trimmed and
    has no bleed of its own. A print shop's preflight asks for the boxes to be stated; the cut of
    each piece is what the crop marks show (``export pieces`` sets each piece's own boxes)."""
    whole = (0, 0, mm(paper[0]), mm(paper[1]))
    c.setTrimBox(whole)
    c.setBleedBox(whole)


def draw_furniture(c: Any, paper: tuple[float, float], footer: str, at_top: bool = False,
                   shift: tuple[float, float] = (0.0, 0.0)) -> None:
    """The footer line, the scale note and a 50 mm ruler with millimetre ticks.

    ``at_top`` puts the same band along the top edge instead: the back of a sheet turned over its
    short edge has its pieces mirrored top to bottom, so the strip its front keeps free for the
    footer is at the top of the back (behind the front's footer) and the bottom is full of pieces.
    ``shift`` (mm) moves it with the rest of a back sheet printed with ``--back-offset``, so it
    keeps its distance from the pieces and lands where the front's footer is.
    """
    from toolkit.pnp.fonts import FONTS

    W, H = paper
    base = SAFE_MARGIN + 0.7  # room for the descenders above the safe margin
    if at_top:
        base = H - SAFE_MARGIN - FOOTER_BAND + 0.7
    c.saveState()
    if shift != (0.0, 0.0):
        c.translate(mm(shift[0]), mm(shift[1]))
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.setFont(FONTS["regular"], FOOTER_PT)
    c.drawCentredString(mm(W / 2), mm(base), footer)
    _RULER.draw(c, base, lambda: _ruler(c, base + 2.4))  # the same on every sheet (at its edge)
    c.restoreState()


_RULER = DrawnOnce()


def footer_fits(paper: tuple[float, float], footer: str) -> bool:
    """Whether the footer line fits between the safe margins at its size."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from toolkit.pnp.fonts import FONTS, register_fonts

    register_fonts()
    return stringWidth(footer, FONTS["regular"], FOOTER_PT) / 72 * 25.4 <= paper[0] - 2 * SAFE_MARGIN


def fit_list(items: list[str], fits: Callable[[str], bool]) -> str:
    """``items`` joined with commas, or as many as fit followed by "and N more"."""
    for keep in range(len(items), 0, -1):
        text = ", ".join(items[:keep]) + (f" and {len(items) - keep} more" if keep < len(items) else "")
        if fits(text):
            return text
    return f"{len(items)} kinds"


def _ruler(c: Any, top: float) -> None:
    """The second footer line: the ruler on the left, the scale note beside it."""
    from toolkit.pnp.fonts import FONTS

    x0 = SAFE_MARGIN + 3.0
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.35)
    c.line(mm(x0), mm(top), mm(x0 + RULER_MM), mm(top))
    for i in range(RULER_MM + 1):
        h = 2.0 if i % 10 == 0 else 1.4 if i % 5 == 0 else 0.8
        c.line(mm(x0 + i), mm(top), mm(x0 + i), mm(top + h))
    c.setFillColorRGB(0, 0, 0)
    c.setFont(FONTS["bold"], FOOTER_PT)
    c.drawString(mm(x0 + RULER_MM + 2), mm(top + 0.2), f"{RULER_MM} mm · {SCALE_NOTE}")


def version_mark(c: Any, size: tuple[float, float], bleed: float, fingerprint: str) -> None:
    """A tiny grey ``v<fingerprint>`` inside the trim at the bottom centre: a stray old card is known."""
    c.saveState()
    _VERSION_MARKS.draw(c, (size, bleed, fingerprint), lambda: _version_mark(c, size, bleed, fingerprint))
    c.restoreState()


_VERSION_MARKS = DrawnOnce()  # the same on every piece of a size


def _version_mark(c: Any, size: tuple[float, float], bleed: float, fingerprint: str) -> None:
    from toolkit.pnp.fonts import FONTS

    c.setFillColorRGB(0.45, 0.45, 0.45)
    c.setFont(FONTS["regular"], 2.6)
    c.drawCentredString(mm(bleed + size[0] / 2), mm(bleed + 0.6), f"v{fingerprint[:8]}")
