"""Imposition: where each copy goes on a sheet, where its back goes, and where the crop marks go.

Pure geometry in millimetres, with the origin at the bottom-left of the paper (PDF's own
convention), so the tests can check positions against the numbers a printer would measure.

Duplex: a sheet turned over its long edge (portrait paper, the usual default) shows its back
mirrored left-right, so the back of the piece in column c goes to column (n-1-c); turned over
its short edge the rows mirror instead. Mirroring the exact position (x' = W - x - w) rather
than the column index keeps backs aligned even when the grid does not fill the page.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Smallest distances from the paper edge: left/right, and top/bottom (room for the footer line).
SIDE_MARGIN = 1.0
END_MARGIN = 5.0
MARK_GAP = 0.5  # between the bleed edge and the start of a crop mark
MARK_LEN = 4.0
FOOTER_ZONE = 3.2  # crop marks stop this far above the bottom edge: the footer lives below


@dataclass(frozen=True)
class Slot:
    """One piece's place: its trim box (x, y, w, h), in mm from the paper's bottom-left."""

    x: float
    y: float
    w: float
    h: float
    row: int
    col: int


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]
    size: tuple[float, float]
    bleed: float
    cols: int
    rows: int
    left: float  # x of the first column's bleed edge
    bottom: float  # y of the bottom row's bleed edge

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot(self, index: int) -> Slot:
        """Slots fill rows from the top-left, like reading."""
        r, c = divmod(index, self.cols)
        w, h = self.size
        b = self.bleed
        x = self.left + c * (w + 2 * b) + b
        y = self.bottom + (self.rows - 1 - r) * (h + 2 * b) + b
        return Slot(x, y, w, h, r, c)

    def back_of(self, s: Slot, mode: str) -> Slot:
        W, H = self.paper
        if mode == "duplex-short":
            return Slot(s.x, H - s.y - s.h, s.w, s.h, self.rows - 1 - s.row, s.col)
        return Slot(W - s.x - s.w, s.y, s.w, s.h, s.row, self.cols - 1 - s.col)

    def crop_marks(self, used: int) -> list[tuple[float, float, float, float]]:
        """Line segments (x1, y1, x2, y2) on the trim lines, outside every piece's bleed."""
        W, H = self.paper
        w, h = self.size
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
        top_len = min(MARK_LEN, H - grid_top - MARK_GAP - 1.0)
        bottom_len = min(MARK_LEN, grid_bottom - MARK_GAP - FOOTER_ZONE)
        for x in xs:
            if top_len > 0.3:
                marks.append((x, grid_top + MARK_GAP, x, grid_top + MARK_GAP + top_len))
            if bottom_len > 0.3:
                marks.append((x, grid_bottom - MARK_GAP, x, grid_bottom - MARK_GAP - bottom_len))
        left_len = min(MARK_LEN, grid_left - MARK_GAP - 0.2)
        right_len = min(MARK_LEN, W - grid_right - MARK_GAP - 0.2)
        for y in ys:
            if left_len > 0.3:
                marks.append((grid_left - MARK_GAP, y, grid_left - MARK_GAP - left_len, y))
            if right_len > 0.3:
                marks.append((grid_right + MARK_GAP, y, grid_right + MARK_GAP + right_len, y))
        return marks


def make_grid(paper: tuple[float, float], size: tuple[float, float], bleed: float) -> Grid | None:
    """As many pieces as fit, centred on the paper; None when one piece does not fit at all."""
    W, H = paper
    w, h = size
    pw, ph = w + 2 * bleed, h + 2 * bleed
    cols = int((W - 2 * SIDE_MARGIN + 1e-6) // pw)
    rows = int((H - 2 * END_MARGIN + 1e-6) // ph)
    if cols < 1 or rows < 1:
        return None
    left = (W - cols * pw) / 2
    bottom = (H - rows * ph) / 2
    return Grid(paper, size, bleed, cols, rows, left, bottom)
