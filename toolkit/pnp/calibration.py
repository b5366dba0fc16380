"""The calibration sheet: does the printer print at 100%, and how far does it shift the backs?

Page 1 (the front) has 100 mm scale bars and a thin cross at the centre of the paper. Page 2 (its
back, printed with the same duplex setting as the game) has two millimetre scales centred on
the same place. Hold the sheet against the light, look at the back side, and read where the
front's cross lines fall on the back's scales: those two numbers are exactly what
``--back-offset X,Y`` takes. The back's scales are drawn so that the reading needs no sign
juggling whatever the flip mode (the centre of the paper maps to itself under either mirror).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolkit.atomic import atomic_path
from toolkit.pnp.furniture import draw_furniture
from toolkit.pnp.units import PAPERS, mm

SCALE = 10  # mm either side of zero on the back's scales


def _bar(c: Any, x: float, y: float, length: float, vertical: bool) -> None:
    for i in range(int(length) + 1):
        h = 3.0 if i % 10 == 0 else 1.8 if i % 5 == 0 else 1.0
        if vertical:
            c.line(mm(x), mm(y + i), mm(x + h), mm(y + i))
        else:
            c.line(mm(x + i), mm(y), mm(x + i), mm(y + h))
    if vertical:
        c.line(mm(x), mm(y), mm(x), mm(y + length))
    else:
        c.line(mm(x), mm(y), mm(x + length), mm(y))


def write_calibration(output: Path, *, paper: str = "a4", backs: str = "duplex-long", title: str = "") -> None:
    """Write the two-page calibration PDF atomically."""
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.pnp.fonts import FONTS, register_fonts
    from toolkit.pnp.furniture import sheet_boxes

    register_fonts()
    W, H = PAPERS[paper]
    cx, cy = W / 2, H / 2
    output.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(output) as tmp:
        c = Canvas(str(tmp), pagesize=(mm(W), mm(H)), invariant=1, initialFontName="HK-Vera")
        sheet_boxes(c, (W, H))
        c.setTitle(f"{title} — printer calibration")
        # front: scale bars and the cross
        c.setFont(FONTS["bold"], 12)
        c.drawCentredString(mm(cx), mm(H - 20), "Printer calibration: front")
        c.setFont(FONTS["regular"], 8)
        for i, line in enumerate((
                "1. Print this sheet on both sides, at 100% / actual size, with the duplex setting you will use.",
                "2. Each black bar below must measure exactly 100 mm; if not, switch off 'fit to page'.",
                "3. Hold the sheet against the light and look at the BACK: read where the thin cross of this",
                "   side falls on the back's two scales. Print with --back-offset X,Y using those readings.")):
            c.drawString(mm(20), mm(H - 32 - i * 4.5), line)
        c.setLineWidth(0.4)
        _bar(c, cx - 50, H - 70, 100, False)
        c.drawString(mm(cx - 50), mm(H - 75), "100 mm")
        _bar(c, 25, cy - 50, 100, True)
        c.drawString(mm(30), mm(cy - 54), "100 mm")
        c.setLineWidth(0.25)
        c.line(mm(cx - 30), mm(cy), mm(cx + 30), mm(cy))
        c.line(mm(cx), mm(cy - 30), mm(cx), mm(cy + 30))
        draw_furniture(c, (W, H), f"{title} · calibration, front · page 1 of 2")
        c.showPage()
        # back: two scales through the centre, read from this side
        c.setFont(FONTS["bold"], 12)
        c.drawCentredString(mm(cx), mm(H - 20), "Printer calibration: back (read this side)")
        c.setFont(FONTS["regular"], 8)
        c.drawCentredString(mm(cx), mm(H - 28), "X: where the front's upright line crosses the scale below. "
                                                "Y: where its level line crosses the upright scale.")
        c.setLineWidth(0.3)
        c.line(mm(cx - SCALE - 2), mm(cy - 12), mm(cx + SCALE + 2), mm(cy - 12))
        c.line(mm(cx - 12), mm(cy - SCALE - 2), mm(cx - 12), mm(cy + SCALE + 2))
        c.setFont(FONTS["regular"], 6)
        for v in range(-SCALE, SCALE + 1):
            h = 4.0 if v % 5 == 0 else 2.0
            c.line(mm(cx + v), mm(cy - 12), mm(cx + v), mm(cy - 12 + h))
            c.line(mm(cx - 12), mm(cy + v), mm(cx - 12 + h), mm(cy + v))
            if v % 5 == 0:
                c.drawCentredString(mm(cx + v), mm(cy - 16), f"{v:+d}" if v else "0")
                c.drawRightString(mm(cx - 13), mm(cy + v - 0.7), f"{v:+d}" if v else "0")
        c.drawString(mm(cx + SCALE + 4), mm(cy - 13), "X (mm)")
        c.drawString(mm(cx - 14), mm(cy + SCALE + 4), "Y (mm)")
        draw_furniture(c, (W, H), f"{title} · calibration, back ({backs}) · page 2 of 2")
        c.showPage()
        c.save()
