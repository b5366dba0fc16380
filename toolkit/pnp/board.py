"""A board larger than the paper, printed across several sheets that overlap.

The board is drawn once (a PDF form) and shown through a window on each sheet. Neighbouring
windows share at least ``overlap`` mm; in each shared strip both sheets carry the same
registration targets, and the sheet that goes on top has a dashed cut line through the middle
of the strip. Trim along it, lay the sheet over its neighbour so the targets meet, and glue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from toolkit.pnp.fonts import FONTS
from toolkit.pnp.layoutfile import Board
from toolkit.pnp.units import colour, mm

PAGE_MARGIN = 6.0
FOOTER = 5.0


@dataclass(frozen=True)
class Window:
    """One sheet's share of the board: board coordinates (mm, from the board's bottom-left)."""

    col: int
    row: int  # 0 = top row of sheets
    bx: float
    by: float
    w: float
    h: float


@dataclass(frozen=True)
class BoardPlan:
    width: float
    height: float
    columns: int
    rows: int
    windows: list[Window]
    seams_x: list[tuple[float, float]]  # overlap strips along x: (start, end) in board mm
    seams_y: list[tuple[float, float]]
    origin: tuple[float, float]  # where a window's bottom-left sits on the paper


def _split(total: float, avail: float, overlap: float) -> list[float]:
    if total <= avail:
        return [0.0]
    n = math.ceil((total - overlap) / (avail - overlap))
    step = (total - avail) / (n - 1)
    return [i * step for i in range(n)]


def plan_board(board: Board, columns: int, rows: int, paper: tuple[float, float]) -> BoardPlan:
    W, H = paper
    bw = columns * board.space + 2 * board.border
    bh = rows * board.space + 2 * board.border
    aw, ah = W - 2 * PAGE_MARGIN, H - 2 * PAGE_MARGIN - FOOTER
    xs = _split(bw, aw, board.overlap)
    ys = _split(bh, ah, board.overlap)
    ww, wh = min(aw, bw), min(ah, bh)
    windows = []
    for r, y in enumerate(reversed(ys)):  # top row of sheets first
        for c, x in enumerate(xs):
            windows.append(Window(c, r, x, y, ww, wh))
    seams_x = [(xs[i + 1], xs[i] + ww) for i in range(len(xs) - 1)]
    seams_y = [(ys[i + 1], ys[i] + wh) for i in range(len(ys) - 1)]
    origin = ((W - ww) / 2, PAGE_MARGIN + FOOTER + (ah - wh) / 2)
    return BoardPlan(bw, bh, len(xs), len(ys), windows, seams_x, seams_y, origin)


def draw_board_form(c: Any, board: Board, columns: int, rows: int, plan: BoardPlan, title: str) -> str:
    """Draw the whole board into a form; returns its name."""
    name = f"board:{board.name}"
    c.beginForm(name, 0, 0, mm(plan.width), mm(plan.height))
    s, b = board.space, board.border
    fill, alt = colour(board.fill) or (1, 1, 1), colour(board.alt_fill) or (1, 1, 1)
    c.setFillColorRGB(0.35, 0.27, 0.18)
    c.rect(0, 0, mm(plan.width), mm(plan.height), stroke=0, fill=1)
    for r in range(rows):
        for col in range(columns):
            c.setFillColorRGB(*(fill if (r + col) % 2 == 0 else alt))
            c.rect(mm(b + col * s), mm(b + (rows - 1 - r) * s), mm(s), mm(s), stroke=0, fill=1)
    c.setStrokeColorRGB(0.25, 0.2, 0.14)
    c.setLineWidth(0.8)
    for i in range(columns + 1):
        c.line(mm(b + i * s), mm(b), mm(b + i * s), mm(b + rows * s))
    for i in range(rows + 1):
        c.line(mm(b), mm(b + i * s), mm(b + columns * s), mm(b + i * s))
    c.setFillColorRGB(1, 1, 1)
    fs = min(b * 0.55, 4.5) * 72 / 25.4
    c.setFont(FONTS["bold"], fs)
    for i in range(columns):
        label = str(i + 1)
        x = mm(b + (i + 0.5) * s)
        c.drawCentredString(x, mm(b / 2) - fs * 0.35, label)
        c.drawCentredString(x, mm(plan.height - b / 2) - fs * 0.35, label)
    for i in range(rows):
        label = str(i + 1)
        y = mm(plan.height - b - (i + 0.5) * s) - fs * 0.35
        c.drawCentredString(mm(b / 2), y, label)
        c.drawCentredString(mm(plan.width - b / 2), y, label)
    c.endForm()
    return name


def _target(c: Any, x: float, y: float) -> None:
    r = mm(2.5)
    c.circle(x, y, r, stroke=1, fill=0)
    c.line(x - r * 1.6, y, x + r * 1.6, y)
    c.line(x, y - r * 1.6, x, y + r * 1.6)


def _seam_label(c: Any, x: float, y: float, text: str, vertical: bool) -> None:
    c.saveState()
    c.setFillColorRGB(0.85, 0.1, 0.1)
    c.setFont(FONTS["regular"], 6)
    c.translate(x, y)
    if vertical:
        c.rotate(-90)
    c.drawString(0, 2, text)
    c.restoreState()


def draw_board_page(c: Any, form: str, plan: BoardPlan, win: Window) -> None:
    """One sheet: its window onto the board, registration targets, cut lines and its label."""
    ox, oy = plan.origin
    c.saveState()
    p = c.beginPath()
    p.rect(mm(ox), mm(oy), mm(win.w), mm(win.h))
    c.clipPath(p, stroke=0, fill=0)
    c.saveState()
    c.translate(mm(ox - win.bx), mm(oy - win.by))
    c.doForm(form)
    c.restoreState()

    def to_page(bx: float, by: float) -> tuple[float, float]:
        return mm(ox + bx - win.bx), mm(oy + by - win.by)

    c.setStrokeColorRGB(0.85, 0.1, 0.1)
    c.setLineWidth(0.6)
    marks_y = [plan.height * f for f in (0.2, 0.5, 0.8)]
    marks_x = [plan.width * f for f in (0.2, 0.5, 0.8)]
    # The sheet whose overlap strip is on its left (or bottom) edge goes on top: it carries a
    # dashed cut line through the middle of the strip. The sheet underneath carries a solid line
    # at the same place; targets sit on that line on both, so the cut edge meets them.
    for a, b in plan.seams_x:
        mid = (a + b) / 2
        if win.bx <= a and b <= win.bx + win.w + 1e-6:
            on_top = abs(win.bx - a) < 1e-6
            for my in marks_y:
                _target(c, *to_page(mid, my))
            x, _ = to_page(mid, 0)
            c.setDash(*((3, 2) if on_top else (1, 0)))
            c.line(x, mm(oy), x, mm(oy + win.h))
            c.setDash()
            _seam_label(c, x, mm(oy + win.h) - 9, "cut here, lay over the sheet to the left" if on_top
                        else "lay the next sheet's cut edge on this line", vertical=True)
    for a, b in plan.seams_y:
        mid = (a + b) / 2
        if win.by <= a and b <= win.by + win.h + 1e-6:
            on_top = abs(win.by - a) < 1e-6
            for mx in marks_x:
                _target(c, *to_page(mx, mid))
            _, y = to_page(0, mid)
            c.setDash(*((3, 2) if on_top else (1, 0)))
            c.line(mm(ox), y, mm(ox + win.w), y)
            c.setDash()
            _seam_label(c, mm(ox) + 9, y, "cut here, lay over the sheet below" if on_top
                        else "lay the next sheet's cut edge on this line", vertical=False)
    c.restoreState()
    c.setStrokeColorRGB(0.4, 0.4, 0.4)
    c.setLineWidth(0.3)
    c.rect(mm(ox), mm(oy), mm(win.w), mm(win.h), stroke=1, fill=0)
