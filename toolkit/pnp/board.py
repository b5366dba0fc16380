"""Boards from data: a square grid, a hex grid or a free layout, tiled across several sheets.

A board in layouts.yaml declares its geometry (``grid: square | hex | none``) and the toolkit
turns it into an ordinary design: one box per space (a rect or a hex), its coordinates, the
per-space paint the board's ``cells`` templates give, then the board's own ``boxes`` (zones,
labels, arrows, die faces) on top. Drawn once as a PDF form, the board is shown through one
window per sheet. Neighbouring windows share an overlap strip, split at its middle: on the sheet
that goes on top the half before the cut line is waste (the cutting instructions and
registration targets live there and are cut off); on the sheet underneath the half after the
line is the glue strip (its targets are covered). Nothing of either lands on the visible board.
"""

from __future__ import annotations

import dataclasses
import math
import string
from dataclasses import dataclass
from typing import Any

from toolkit.pnp.fonts import FONTS
from toolkit.pnp.furniture import FOOTER_BAND, SAFE_MARGIN
from toolkit.pnp.layoutfile import Board, Box, Design
from toolkit.pnp.templating import Templates
from toolkit.pnp.units import mm

SQRT3 = math.sqrt(3.0)
PAGE_MARGIN = SAFE_MARGIN + 1.0


@dataclass(frozen=True)
class Cell:
    """One space of a grid board: offset (col, row, 1-based), axial (q, r), its label and centre in mm."""

    col: int
    row: int
    q: int
    r: int
    label: str
    cx: float
    cy: float  # from the board's top-left, y down


def _letters(n: int) -> str:
    """1 -> A, 26 -> Z, 27 -> AA: column names as on a chess board."""
    out = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        out = string.ascii_uppercase[rem] + out
    return out


def _label(board: Board, col: int, row: int, q: int, r: int) -> str:
    if board.grid == "hex" and board.coordinates == "axial":
        return f"{q},{r}"
    if board.labels == "letters":
        return f"{_letters(col)}{row}"
    return f"{col},{row}"


def hex_radius(board: Board) -> float:
    """Centre-to-corner distance of a hex whose width across the flats is ``space``."""
    return board.space / SQRT3


def grid_cells(board: Board, columns: int, rows: int) -> tuple[list[Cell], float, float]:
    """The spaces of a grid board and the grid's width and height (mm, border excluded)."""
    s, b = board.space, board.border
    cells: list[Cell] = []
    if board.grid == "square":
        for row in range(rows):
            for col in range(columns):
                cells.append(Cell(col + 1, row + 1, col, row, _label(board, col + 1, row + 1, col, row),
                                  b + (col + 0.5) * s, b + (row + 0.5) * s))
        return cells, columns * s, rows * s
    R = hex_radius(board)
    coords: list[tuple[int, int]] = []
    if board.shape == "hexagon":
        n = board.radius
        coords = [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n]
    else:
        for row in range(rows):
            for col in range(columns):
                coords.append(_axial(board, col, row))
    points = [(q, r, *_centre(board, q, r, R)) for q, r in coords]
    minx = min(p[2] for p in points)
    miny = min(p[3] for p in points)
    half_w, half_h = (s / 2, R) if board.orientation == "pointy" else (R, s / 2)
    for q, r, x, y in points:
        col, row = _offset(board, q, r)
        cells.append(Cell(col + 1, row + 1, q, r, _label(board, col + 1, row + 1, q, r),
                          b + x - minx + half_w, b + y - miny + half_h))
    width = max(p[2] for p in points) - minx + 2 * half_w
    height = max(p[3] for p in points) - miny + 2 * half_h
    return cells, width, height


def _axial(board: Board, col: int, row: int) -> tuple[int, int]:
    """Offset (0-based) to axial coordinates; ``offset: odd`` shoves odd rows (pointy) or columns (flat)."""
    if board.orientation == "pointy":
        shift = (row - (row & 1)) // 2 if board.offset == "odd" else (row + (row & 1)) // 2
        return col - shift, row
    shift = (col - (col & 1)) // 2 if board.offset == "odd" else (col + (col & 1)) // 2
    return col, row - shift


def _offset(board: Board, q: int, r: int) -> tuple[int, int]:
    if board.orientation == "pointy":
        col = q + (r - (r & 1)) // 2 if board.offset == "odd" else q + (r + (r & 1)) // 2
        return col, r
    row = r + (q - (q & 1)) // 2 if board.offset == "odd" else r + (q + (q & 1)) // 2
    return q, row


def _centre(board: Board, q: int, r: int, R: float) -> tuple[float, float]:
    if board.orientation == "pointy":
        return SQRT3 * R * (q + r / 2), 1.5 * R * r
    return 1.5 * R * q, SQRT3 * R * (r + q / 2)


def board_size(board: Board, columns: int, rows: int) -> tuple[float, float]:
    if board.grid == "none":
        return board.size
    _, w, h = grid_cells(board, columns, rows)
    return w + 2 * board.border, h + 2 * board.border


def board_design(board: Board, columns: int, rows: int, templates: Templates, ctx: dict[str, Any]) -> Design:
    """The board as an ordinary design: background, one box per space, coordinates, then its boxes."""
    W, H = board_size(board, columns, rows)
    where = {"fill": board.where, "text": board.where, "icon": board.where, "when": board.where}
    # the background bleeds: a board exported whole for a print shop is cut at its edge like any piece
    boxes: list[Box] = [Box("rect", 0, 0, W, H, {"fill": board.background, "bleed": True}, where)]
    if board.grid != "none":
        cells, gw, gh = grid_cells(board, columns, rows)
        # a space's paint is checked (colours, icons) at the template of cells that gives it
        painted = {**where, **board.cells_where}
        for cell in cells:
            boxes += _cell_boxes(board, cell, templates, {**ctx, "col": cell.col, "row": cell.row, "q": cell.q,
                                                          "r": cell.r, "label": cell.label}, painted, where)
        if board.grid == "square":
            boxes += _border_labels(board, columns, rows, where)
    boxes += board.boxes
    return Design(f"board:{board.name}", (W, H), boxes, title=board.title, where=board.where)


def _cell_boxes(board: Board, cell: Cell, templates: Templates, ctx: dict[str, Any],
                painted: dict[str, Any], where: dict[str, Any]) -> list[Box]:
    s = board.space
    if board.grid == "square":
        x, y, w, h = cell.cx - s / 2, cell.cy - s / 2, s, s
        base = board.fill if (cell.col + cell.row) % 2 == 0 else board.alt_fill
        shape = "rect"
    else:
        R = hex_radius(board)
        w, h = (s, 2 * R) if board.orientation == "pointy" else (2 * R, s)
        x, y = cell.cx - w / 2, cell.cy - h / 2
        base = board.fill
        shape = "hex"
    paint = {k: templates.render(str(v), board.cells_where.get(k, board.where), ctx).strip()
             for k, v in board.cells.items()}
    if paint.get("when", "True") in ("", "False", "false", "0", "None"):
        return []
    out = [Box(shape, x, y, w, h, {"fill": paint.get("fill") or base, "stroke": board.line, "stroke-width": 0.8,
                                    "orientation": board.orientation}, painted)]
    if paint.get("icon"):
        side = min(w, h) * 0.5
        out.append(Box("icon", cell.cx - side / 2, cell.cy - side / 2, side, side, {"icon": paint["icon"]}, painted))
    text = paint.get("text", "")
    if text:
        out.append(Box("text", x + w * 0.15, cell.cy + h * 0.05, w * 0.7, h * 0.3,
                       {"text": text, "size": 7, "min-size": 6, "align": "center", "font": "bold"}, painted))
    if board.cell_labels:
        out.append(Box("text", x + w * 0.2, y + h * (0.12 if shape == "rect" else 0.16), w * 0.6, 3.2,
                       {"text": cell.label, "size": 6, "min-size": 6, "align": "center", "colour": board.line}, where))
    return out


def _border_labels(board: Board, columns: int, rows: int, where: dict[str, Any]) -> list[Box]:
    """Coordinates on all four sides of a square grid, in the border."""
    s, b = board.space, board.border
    W, H = columns * s + 2 * b, rows * s + 2 * b
    size = max(6.0, min(b * 0.55, 4.5) * 72 / 25.4)
    out = []
    col_name = _letters if board.labels == "letters" else str
    for i in range(columns):
        for y in (0.0, H - b):
            out.append(Box("text", b + i * s, y, s, b, {"text": col_name(i + 1), "font": "bold", "size": size, "min-size": 6,
                                                         "align": "center", "valign": "middle", "colour": "#ffffff"}, where))
    for i in range(rows):
        for x in (0.0, W - b):
            out.append(Box("text", x, b + i * s, b, s, {"text": str(i + 1), "font": "bold", "size": size, "min-size": 6,
                                                         "align": "center", "valign": "middle", "colour": "#ffffff"}, where))
    return out


# --- tiling across sheets -------------------------------------------------------------------

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
    turned: bool = False  # the board is printed turned a quarter (fewer sheets that way)
    cuts_x: tuple[float, ...] = ()  # where each seam is cut (board mm); empty: the middle of its strip
    cuts_y: tuple[float, ...] = ()

    def cut_x(self, i: int) -> float:
        return self.cuts_x[i] if self.cuts_x else sum(self.seams_x[i]) / 2

    def cut_y(self, i: int) -> float:
        return self.cuts_y[i] if self.cuts_y else sum(self.seams_y[i]) / 2


def _split(total: float, avail: float, overlap: float) -> list[float]:
    if total <= avail:
        return [0.0]
    n = math.ceil((total - overlap) / (avail - overlap))
    step = (total - avail) / (n - 1)
    return [i * step for i in range(n)]


Rect = tuple[float, float, float, float]  # left, bottom, right, top in board mm (y up)


def _place_cut(strip: tuple[float, float], overlap: float, keep_clear: list[tuple[float, float]]) -> float:
    """Where to cut an overlap strip: its middle, unless that runs through something to read; then
    the nearest place that does not, leaving at least half the overlap for glue and for waste.
    The middle when nowhere is clear (the safe-zone check then reports what it runs through)."""
    a, b = strip
    lo, hi, mid = a + overlap / 2, b - overlap / 2, (a + b) / 2
    if lo > hi:
        return mid

    def clear(x: float) -> bool:
        return all(not (k0 < x < k1) for k0, k1 in keep_clear)

    candidates = [mid] + [edge for k in keep_clear for edge in k if lo <= edge <= hi] + [lo, hi]
    fine = [x for x in candidates if lo <= x <= hi and clear(x)]
    return min(fine, key=lambda x: (abs(x - mid), x)) if fine else mid


def plan_board(size: tuple[float, float], overlap: float, paper: tuple[float, float],
               keep_clear: list[Rect] | None = None) -> BoardPlan:
    """Windows onto a board of ``size`` mm: as few sheets as fit, every window inside the safe area.

    ``keep_clear`` are the board's areas that must not be cut (what is read, grown by its safe
    margin): each seam is cut where it crosses none of them, if its overlap strip allows."""
    W, H = paper
    bw, bh = size
    aw, ah = W - 2 * PAGE_MARGIN, H - 2 * PAGE_MARGIN - FOOTER_BAND
    xs = _split(bw, aw, overlap)
    ys = _split(bh, ah, overlap)
    ww, wh = min(aw, bw), min(ah, bh)
    windows = []
    for r, y in enumerate(reversed(ys)):  # top row of sheets first
        for c, x in enumerate(xs):
            windows.append(Window(c, r, x, y, ww, wh))
    seams_x = [(xs[i + 1], xs[i] + ww) for i in range(len(xs) - 1)]
    seams_y = [(ys[i + 1], ys[i] + wh) for i in range(len(ys) - 1)]
    origin = ((W - ww) / 2, PAGE_MARGIN + FOOTER_BAND + (ah - wh) / 2)
    rects = keep_clear or []
    cuts_x = tuple(_place_cut(seam, overlap, [(r[0], r[2]) for r in rects]) for seam in seams_x)
    cuts_y = tuple(_place_cut(seam, overlap, [(r[1], r[3]) for r in rects]) for seam in seams_y)
    return BoardPlan(bw, bh, len(xs), len(ys), windows, seams_x, seams_y, origin, cuts_x=cuts_x, cuts_y=cuts_y)


def choose_plan(size: tuple[float, float], overlap: float, paper: tuple[float, float],
                keep_clear: list[Rect] | None = None) -> tuple[BoardPlan, int]:
    """The board's plan on ``paper``, turned a quarter when that needs fewer sheets (fewer to cut
    and glue), and how many sheets it would take upright. ``keep_clear`` as for ``plan_board``,
    in the board's own (upright) millimetres."""
    plan = plan_board(size, overlap, paper, keep_clear)
    # turned a quarter anticlockwise: the board's x runs up the sheets, its y (from the bottom) leftwards
    turned_clear = [(size[1] - r[3], r[0], size[1] - r[1], r[2]) for r in keep_clear or []]
    turned = plan_board((size[1], size[0]), overlap, paper, turned_clear)
    if len(turned.windows) < len(plan.windows):
        return dataclasses.replace(turned, turned=True), len(plan.windows)
    return plan, len(plan.windows)


def _target(c: Any, x: float, y: float) -> None:
    r = mm(1.5)
    c.circle(x, y, r, stroke=1, fill=0)
    c.line(x - r * 1.5, y, x + r * 1.5, y)
    c.line(x, y - r * 1.5, x, y + r * 1.5)


def _strip_text(c: Any, x: float, y: float, text: str, vertical: bool) -> None:
    c.saveState()
    c.setFillColorRGB(0.75, 0.05, 0.05)
    c.setFont(FONTS["regular"], 6)
    c.translate(x, y)
    if vertical:
        c.rotate(-90)
    c.drawCentredString(0, -2.1, text)
    c.restoreState()


def seam_strips(plan: BoardPlan, win: Window) -> list[tuple[str, str, float, float, float, float]]:
    """(role, axis, x0, y0, x1, y1) in page mm of this sheet's waste and glue strips.

    role is "waste" (cut away: on the sheet that goes on top) or "glue" (covered by the
    neighbour); the cut line is the strip's edge shared with the visible board.
    """
    ox, oy = plan.origin
    out = []
    for i, (a, b) in enumerate(plan.seams_x):
        mid = plan.cut_x(i)
        if abs(win.bx - a) < 1e-6:  # the strip is on this sheet's left edge: this sheet goes on top
            out.append(("waste", "x", ox, oy, ox + mid - a, oy + win.h))
        elif abs(win.bx + win.w - b) < 1e-6:
            out.append(("glue", "x", ox + mid - win.bx, oy, ox + win.w, oy + win.h))
    for i, (a, b) in enumerate(plan.seams_y):
        mid = plan.cut_y(i)
        if abs(win.by - a) < 1e-6:  # strip along this sheet's bottom edge: on top of the sheet below
            out.append(("waste", "y", ox, oy, ox + win.w, oy + mid - a))
        elif abs(win.by + win.h - b) < 1e-6:
            out.append(("glue", "y", ox, oy + mid - win.by, ox + win.w, oy + win.h))
    return out


def draw_board_page(c: Any, form: str, plan: BoardPlan, win: Window) -> None:
    """One sheet: its window onto the board, then its waste and glue strips with their marks."""
    ox, oy = plan.origin
    c.saveState()
    p = c.beginPath()
    p.rect(mm(ox), mm(oy), mm(win.w), mm(win.h))
    c.clipPath(p, stroke=0, fill=0)
    c.saveState()
    c.translate(mm(ox - win.bx), mm(oy - win.by))
    c.doForm(form)
    c.restoreState()
    for role, axis, x0, y0, x1, y1 in seam_strips(plan, win):
        c.setFillColorRGB(*((0.93, 0.93, 0.93) if role == "waste" else (0.97, 0.94, 0.86)))
        c.rect(mm(x0), mm(y0), mm(x1 - x0), mm(y1 - y0), stroke=0, fill=1)
        c.setStrokeColorRGB(0.75, 0.05, 0.05)
        c.setLineWidth(0.6)
        vertical = axis == "x"
        if vertical:
            line_x = x1 if role == "waste" else x0
            c.line(mm(line_x), mm(y0), mm(line_x), mm(y1))
            cx = (x0 + x1) / 2
            for f in (0.15, 0.85):
                _target(c, mm(cx), mm(y0 + (y1 - y0) * f))
            _strip_text(c, mm(cx), mm((y0 + y1) / 2), "cut off along the red line; lay the cut edge on the next "
                        "sheet's red line" if role == "waste" else "glue here: the next sheet's cut edge goes on "
                        "the red line", True)
        else:
            line_y = y1 if role == "waste" else y0
            c.line(mm(x0), mm(line_y), mm(x1), mm(line_y))
            cy = (y0 + y1) / 2
            for f in (0.15, 0.85):
                _target(c, mm(x0 + (x1 - x0) * f), mm(cy))
            _strip_text(c, mm((x0 + x1) / 2), mm(cy), "cut off along the red line; lay the cut edge on the sheet "
                        "below" if role == "waste" else "glue here: the sheet above goes on the red line", False)
    c.restoreState()
    c.setStrokeColorRGB(0.4, 0.4, 0.4)
    c.setLineWidth(0.3)
    c.rect(mm(ox), mm(oy), mm(win.w), mm(win.h), stroke=1, fill=0)


# --- what is read stays clear of the board's cuts (HK415) -------------------------------------

def _readable_boxes(board: Board) -> list[tuple[int, Box]]:
    from toolkit.pnp.safezone import READABLE_TYPES

    return [(i, b) for i, b in enumerate(board.boxes) if b.type in READABLE_TYPES]


def keep_clear(board: Board, size: tuple[float, float], margin: float) -> list[Rect]:
    """The board's own text, icon and value boxes grown by ``margin``, in board mm with y up:
    where no seam between sheets may be cut."""
    from toolkit.pnp.safezone import footprint

    H = size[1]
    out = []
    for _, b in _readable_boxes(board):
        left, top, right, bottom = footprint(b.type, b.x, b.y, b.w, b.h)
        out.append((left - margin, H - bottom - margin, right + margin, H - top + margin))
    return out


def _seams(plan: BoardPlan, height: float) -> list[tuple[str, float, int, str]]:
    """Each cut between sheets: (axis in the plan, where, seam index, how the board's layout names it)."""
    out = []
    for i in range(len(plan.seams_x)):
        c = plan.cut_x(i)
        # turned: the plan's x runs down the board (its y from the top)
        out.append(("x", c, i, f"y = {c:.1f} mm" if plan.turned else f"x = {c:.1f} mm"))
    for i in range(len(plan.seams_y)):
        c = plan.cut_y(i)
        out.append(("y", c, i, f"x = {c:.1f} mm" if plan.turned else f"y = {height - c:.1f} mm"))
    return out


def _between(plan: BoardPlan, axis: str, i: int) -> str:
    if axis == "x":
        return f"sheets {i + 1} and {i + 2} of each row"
    rows = len(plan.seams_y) + 1
    return f"sheet rows {chr(63 + rows - i)} and {chr(64 + rows - i)}"


def board_safe_zone(board: Board, size: tuple[float, float], papers: dict[str, tuple[float, float]]) -> list[Any]:
    """HK415 for the board's own readable boxes: too close to the board's outer edge (its cut), or
    run through by the cut between two of its sheets on any of ``papers`` (seams are placed clear
    of them when the overlap allows, so this is what no placement could avoid).

    The spaces, their coordinates and the border labels that the grid itself prints are laid out by
    hordekit and not checked; a grid's spaces are meant to run across seams."""
    from toolkit.diagnostics import warning
    from toolkit.pnp.layoutfile import Design, readable_elements
    from toolkit.pnp.safezone import _mm, check_design, default_safe_margin

    margin = default_safe_margin(size)
    elements = readable_elements(Design(board.name, size, board.boxes), board.where.file)
    found = check_design(f"board '{board.name}'", size, margin, elements)
    rects = keep_clear(board, size, margin)
    crossings: dict[int, list[str]] = {}
    for paper_name, paper in papers.items():
        plan, _ = choose_plan(size, board.overlap, paper, rects)
        planned = [(size[1] - r[3], r[0], size[1] - r[1], r[2]) for r in rects] if plan.turned else rects
        for axis, cut, i, named in _seams(plan, size[1]):
            for n, r in enumerate(planned):
                lo, hi = (r[0], r[2]) if axis == "x" else (r[1], r[3])
                if lo + 0.05 < cut < hi - 0.05:
                    crossings.setdefault(n, []).append(
                        f"on {paper_name} the cut between {_between(plan, axis, i)} runs at {named}")
    for n, parts in crossings.items():
        el = elements[n]
        found.append(warning(
            "HK415",
            f"{el.label} of board '{board.name}' lies on a seam between the sheets the board is printed on, "
            f"within its {_mm(margin)} mm safe margin: {'; '.join(parts)} (a {_mm(size[0])} x {_mm(size[1])} mm board)",
            el.file, el.line, el.col,
            "move the box, or leave a gap between boxes: hordekit cuts each seam where it crosses nothing to read "
            "when the sheets' overlap allows (docs/pnp.md, \"Boards larger than the paper\")"))
    return found
