"""Imposition: where each copy goes on a sheet, where its back goes, and where the crop marks go.

Pure geometry in millimetres, with the origin at the bottom-left of the paper (PDF's own
convention), so the tests can check positions against the numbers a printer would measure.

Home printers leave the outer few millimetres blank, so every piece with its bleed and every
crop mark stays at least ``SAFE_MARGIN`` from each edge, and above the footer band. When a
piece fits more often turned a quarter (landscape on the portrait sheet), it is turned; the
plan says so and how many fit.

Pieces of different sizes share a sheet when a block of the smaller count fits under the pieces
already on it (``fit_below``): each block is a grid of its own with its own crop marks, kept
``BAND_GAP`` apart, so a lone strip (a round track, a few tokens) does not take a sheet alone.

Duplex: a sheet turned over its long edge (portrait paper, the usual default) shows its back
mirrored left-right, so the back of the piece in column c goes to column (n-1-c); turned over
its short edge the rows mirror instead. Mirroring the exact position (x' = W - x - w) rather
than the column index keeps backs aligned even when the grid does not fill the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.pnp.furniture import FOOTER_BAND, SAFE_MARGIN

MARK_GAP = 0.5  # between the bleed edge and the start of a crop mark
MARK_LEN = 4.0
MIN_MARK = 2.0  # room kept for crop marks on every side of the block of pieces
MARK_ROOM = MARK_GAP + MIN_MARK
#: between two blocks of pieces sharing a sheet: room for the upper block's bottom crop marks and
#: the lower block's top ones, full length, without either touching the other block's bleed
BAND_GAP = 2 * (MARK_GAP + MARK_LEN)


@dataclass(frozen=True)
class Slot:
    """One piece's place: its trim box (x, y, w, h) on the sheet, in mm from the paper's bottom-left.

    ``rotated`` pieces are turned a quarter: w and h are the turned box's (the design's h and w).
    """

    x: float
    y: float
    w: float
    h: float
    row: int
    col: int
    rotated: bool = False


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]
    size: tuple[float, float]  # the design's own size (before turning)
    bleed: float
    cols: int
    rows: int
    left: float  # x of the first column's bleed edge
    bottom: float  # y of the bottom row's bleed edge
    rotated: bool = False

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell(self) -> tuple[float, float]:
        """Trim size of a piece as it lies on the sheet."""
        w, h = self.size
        return (h, w) if self.rotated else (w, h)

    def slot(self, index: int) -> Slot:
        """Slots fill rows from the top-left, like reading."""
        r, c = divmod(index, self.cols)
        w, h = self.cell
        b = self.bleed
        x = self.left + c * (w + 2 * b) + b
        y = self.bottom + (self.rows - 1 - r) * (h + 2 * b) + b
        return Slot(x, y, w, h, r, c, self.rotated)

    def back_of(self, s: Slot, mode: str) -> Slot:
        W, H = self.paper
        if mode == "duplex-short":
            return Slot(s.x, H - s.y - s.h, s.w, s.h, self.rows - 1 - s.row, s.col, s.rotated)
        return Slot(W - s.x - s.w, s.y, s.w, s.h, s.row, self.cols - 1 - s.col, s.rotated)

    def crop_marks(self, used: int) -> list[tuple[float, float, float, float]]:
        """Line segments (x1, y1, x2, y2) on the trim lines, outside every piece's bleed and the safe margin."""
        W, H = self.paper
        w, h = self.cell
        b = self.bleed
        rows_used = -(-used // self.cols)
        cols_used = min(used, self.cols)
        grid_left = self.left
        grid_right = self.left + cols_used * (w + 2 * b)
        grid_top = self.bottom + self.rows * (h + 2 * b)
        grid_bottom = grid_top - rows_used * (h + 2 * b)
        marks = []
        xs = sorted({self.slot(i).x for i in range(cols_used)} | {self.slot(i).x + w for i in range(cols_used)})
        ys = sorted({self.slot(i * self.cols).y for i in range(rows_used)} |
                    {self.slot(i * self.cols).y + h for i in range(rows_used)})
        top_len = min(MARK_LEN, H - SAFE_MARGIN - grid_top - MARK_GAP)
        bottom_len = min(MARK_LEN, grid_bottom - MARK_GAP - SAFE_MARGIN - FOOTER_BAND)
        for x in xs:
            if top_len > 0.3:
                marks.append((x, grid_top + MARK_GAP, x, grid_top + MARK_GAP + top_len))
            if bottom_len > 0.3:
                marks.append((x, grid_bottom - MARK_GAP, x, grid_bottom - MARK_GAP - bottom_len))
        left_len = min(MARK_LEN, grid_left - MARK_GAP - SAFE_MARGIN)
        right_len = min(MARK_LEN, W - SAFE_MARGIN - grid_right - MARK_GAP)
        for y in ys:
            if left_len > 0.3:
                marks.append((grid_left - MARK_GAP, y, grid_left - MARK_GAP - left_len, y))
            if right_len > 0.3:
                marks.append((grid_right + MARK_GAP, y, grid_right + MARK_GAP + right_len, y))
        return marks


def printable_area(paper: tuple[float, float]) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) in mm where pieces and their crop marks may go."""
    W, H = paper
    bottom = SAFE_MARGIN + FOOTER_BAND + MARK_ROOM
    return SAFE_MARGIN + MARK_ROOM, bottom, W - 2 * (SAFE_MARGIN + MARK_ROOM), H - SAFE_MARGIN - MARK_ROOM - bottom


def _fit(paper: tuple[float, float], size: tuple[float, float], bleed: float, rotated: bool) -> Grid | None:
    left, bottom, aw, ah = printable_area(paper)
    w, h = (size[1], size[0]) if rotated else size
    pw, ph = w + 2 * bleed, h + 2 * bleed
    cols = int((aw + 1e-6) // pw)
    rows = int((ah + 1e-6) // ph)
    if cols < 1 or rows < 1:
        return None
    return Grid(paper, size, bleed, cols, rows, left + (aw - cols * pw) / 2, bottom + (ah - rows * ph) / 2, rotated)


def make_grid(paper: tuple[float, float], size: tuple[float, float], bleed: float) -> Grid | None:
    """As many pieces as fit inside the safe area, turned a quarter when that fits more; None if none fits."""
    upright = _fit(paper, size, bleed, False)
    turned = _fit(paper, size, bleed, True) if size[0] != size[1] else None
    if turned is not None and (upright is None or turned.per_page > upright.per_page):
        return turned
    return upright


def used_bottom(grid: Grid, used: int) -> float:
    """y of the bottom bleed edge of the rows the first ``used`` pieces of ``grid`` fill."""
    rows_used = -(-used // grid.cols)
    h = grid.cell[1] + 2 * grid.bleed
    return grid.bottom + (grid.rows - rows_used) * h


def fit_below(paper: tuple[float, float], size: tuple[float, float], bleed: float, top: float,
              count: int) -> Grid | None:
    """A grid holding all ``count`` pieces inside the printable area below the bleed edge at y =
    ``top`` (``BAND_GAP`` kept for both blocks' crop marks), in as few rows as fit; None if they
    do not all fit there."""
    left, bottom, aw, _ = printable_area(paper)
    ah = top - BAND_GAP - bottom
    best: Grid | None = None
    for rotated in (False, True) if size[0] != size[1] else (False,):
        w, h = (size[1], size[0]) if rotated else size
        pw, ph = w + 2 * bleed, h + 2 * bleed
        cols = min(int((aw + 1e-6) // pw), count)
        if cols < 1:
            continue
        rows = -(-count // cols)
        if rows * ph > ah + 1e-6:
            continue
        grid = Grid(paper, size, bleed, cols, rows, left + (aw - cols * pw) / 2, top - BAND_GAP - rows * ph, rotated)
        if best is None or rows * ph < best.rows * (best.cell[1] + 2 * bleed) - 1e-6:
            best = grid
    return best
