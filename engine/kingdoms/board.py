"""Board geometry: space indices, labels, orthogonal and diagonal neighbours.

A space is an int `row * cols + col`; labels read like a chess board ("a1" is column 1, row 1)
so scenarios and logs stay readable while the hot loop only touches ints and tuples.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    cols: int
    rows: int
    labels: tuple[str, ...]
    adj: tuple[tuple[int, ...], ...]
    diag: tuple[tuple[int, ...], ...]
    index: dict[str, int]

    @property
    def size(self) -> int:
        return self.cols * self.rows

    def at(self, col: int, row: int) -> int:
        return row * self.cols + col

    def col_row(self, sp: int) -> tuple[int, int]:
        return sp % self.cols, sp // self.cols

    def distance(self, a: int, b: int) -> int:
        """Orthogonal steps between two spaces."""
        ca, ra = a % self.cols, a // self.cols
        cb, rb = b % self.cols, b // self.cols
        return abs(ca - cb) + abs(ra - rb)


def column_name(c: int) -> str:
    return chr(97 + c) if c < 26 else f"c{c + 1}-"


def make_board(cols: int, rows: int) -> Board:
    labels = tuple(f"{column_name(c)}{r + 1}" for r in range(rows) for c in range(cols))
    adj, diag = [], []
    for r in range(rows):
        for c in range(cols):
            adj.append(tuple(rr * cols + cc for cc, rr in ((c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1))
                             if 0 <= cc < cols and 0 <= rr < rows))
            diag.append(tuple(rr * cols + cc for cc, rr in ((c - 1, r - 1), (c + 1, r - 1), (c - 1, r + 1),
                                                           (c + 1, r + 1))
                              if 0 <= cc < cols and 0 <= rr < rows))
    return Board(cols, rows, labels, tuple(adj), tuple(diag), {lab: i for i, lab in enumerate(labels)})
