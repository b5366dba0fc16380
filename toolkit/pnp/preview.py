"""One component as a PNG: the same drawing code as the PDF, rasterised with pypdfium2."""

from __future__ import annotations

import io
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.atomic import commit
from toolkit.diagnostics import Diagnostic, Severity, error
from toolkit.games import LoadedGame
from toolkit.pnp.document import _render, prepare
from toolkit.pnp.faces import base_context
from toolkit.pnp.layoutfile import Design
from toolkit.pnp.safezone import cut_of, hex_corners, safe_margin
from toolkit.pnp.units import mm


@dataclass
class PreviewResult:
    output: Path | None
    width: int = 0
    height: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


def pixel_size(size_mm: tuple[float, float], bleed: float, dpi: int) -> tuple[int, int]:
    """Pixels of a piece with its bleed at ``dpi`` (63 × 88 mm + 3 mm bleed at 300 dpi: 815 × 1110)."""
    w, h = size_mm
    return round((w + 2 * bleed) / 25.4 * dpi), round((h + 2 * bleed) / 25.4 * dpi)


#: The overlay of ``preview --safe``: the trim line in red, the safe zone's edge dashed in blue.
TRIM_RGB = (0.85, 0.1, 0.1)
SAFE_RGB = (0.1, 0.35, 0.9)


def _outline(c: Any, x: float, y: float, w: float, h: float, cut: str) -> None:
    """Stroke the shape ``cut`` filling the box (mm from the bleed's bottom-left corner)."""
    if cut == "rectangle":
        c.rect(mm(x), mm(y), mm(w), mm(h), stroke=1, fill=0)
    elif cut == "round":
        c.ellipse(mm(x), mm(y), mm(x + w), mm(y + h), stroke=1, fill=0)
    else:  # the hexagon is symmetric top to bottom, so y down or up gives the same corners
        pts = hex_corners(x, y, w, h, cut == "hex-flat")
        path = c.beginPath()
        path.moveTo(mm(pts[0][0]), mm(pts[0][1]))
        for px, py in pts[1:]:
            path.lineTo(mm(px), mm(py))
        path.close()
        c.drawPath(path, stroke=1, fill=0)


def draw_safe_zone(c: Any, size: tuple[float, float], bleed: float, margin: float, cut: str = "rectangle") -> None:
    """Draw the cut line and the safe zone (``margin`` mm inside it) over a piece drawn with ``bleed``;
    a round or hex cut draws its own shape (the zone drawn as the shape shrunk by the margin on each side)."""
    w, h = size
    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeColorRGB(*TRIM_RGB)
    _outline(c, bleed, bleed, w, h, cut)
    if margin > 0:
        c.setStrokeColorRGB(*SAFE_RGB)
        c.setDash(2, 1.5)
        corner = margin * 2 / math.sqrt(3)  # a hex's pointed ends move further in than its flat sides
        ix, iy = {"hex": (margin, corner), "hex-flat": (corner, margin)}.get(cut, (margin, margin))
        _outline(c, bleed + ix, bleed + iy, w - 2 * ix, h - 2 * iy, cut)
    c.restoreState()


def render_preview(loaded: LoadedGame, item_id: str, output: Path, *, dpi: int = 300, back: bool = False,
                   bleed: float = 3.0, safe: bool = False) -> PreviewResult:
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.pnp.fonts import register_fonts

    result = PreviewResult(None)
    prepared, diags = prepare(loaded, {item_id})
    if prepared is None:
        result.diagnostics = diags
        return result
    if not prepared.faces:
        result.diagnostics = [error("HK406", f"'{item_id}' is not a printed component", "")]
        return result
    face = prepared.faces[0]
    design, ctx, target = face.design, face.ctx, face.target
    margin = safe_margin(face.design)
    cut = cut_of(face.design.boxes, face.design.size, face.design.cut)
    if back:
        if not design.back:
            result.diagnostics = [error("HK406", f"'{item_id}' has no back design", "")]
            return result
        bd = design if design.back == "front" else prepared.layouts.backs[design.back]
        design = Design(bd.name, face.design.size, bd.boxes, where=bd.where)
        margin = margin if bd.safe_margin is None else bd.safe_margin
        cut = bd.cut or cut
        ctx = {**(face.ctx if bd.per_item or bd is face.design else base_context(loaded)), "deck": face.design.back}
    register_fonts()
    w, h = design.size
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(mm(w + 2 * bleed), mm(h + 2 * bleed)), invariant=1, initialFontName="HK-Vera")
    _render(c, design, ctx, prepared.env, target, bleed, loaded)
    if safe:
        draw_safe_zone(c, (w, h), bleed, margin, cut)
    c.showPage()
    c.save()
    result.diagnostics = prepared.env.collector.diagnostics
    if not result.ok:
        return result
    pw, ph = pixel_size((w, h), bleed, dpi)
    pdf = pdfium.PdfDocument(buf.getvalue())
    page = pdf[0]
    image = page.render(scale=dpi / 72).to_pil()
    if image.size != (pw, ph):
        image = image.resize((pw, ph))
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    os.close(fd)
    try:
        image.save(tmp, format="PNG")
        commit(Path(tmp), output)  # keeps the umask's mode; never replaces a device or a link
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    result.output, result.width, result.height = output, pw, ph
    return result
