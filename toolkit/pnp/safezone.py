"""The safe zone: what a player must read stays clear of the cut (warning HK415).

A print shop's cut wanders up to about 1.5 mm either side of the trim line, so text, icons and
printed values are kept a *safe margin* inside the trim. Each design (a kind's front, a back, an
extra) has one, ``safe-margin`` in layouts.yaml, or else the default of its size class below.
Only boxes that carry something to read are checked; backgrounds, frames and art are meant to
reach the edge (or bleed past it) and are left alone.

A piece is cut along its ``cut``: a rectangle (the trim box), or a round or hexagonal die cut
inscribed in the trim box (a round chit, a hex tile). What is read is judged against that shape:
the corners of a text box on a round chit lie much closer to its cut than its square trim says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from toolkit.diagnostics import Diagnostic, warning

#: Box types whose content a player reads: their whole box must lie inside the safe zone.
READABLE_TYPES = ("text", "icon", "list", "cells", "legend")

#: Default safe margin (mm) by the piece's shorter side: (shorter side below, margin). The last
#: entry has no upper bound. Cards and larger pieces keep the print shops' usual 3 mm; a counter
#: or token cannot give up 6 mm of its width, and shops ask 1.5 to 2 mm of such small pieces.
SIZE_CLASSES: tuple[tuple[float, float, str], ...] = (
    (20.0, 1.5, "token (shorter side under 20 mm)"),
    (40.0, 2.0, "counter or tile (shorter side 20 to 40 mm)"),
    (float("inf"), 3.0, "card, sheet or larger (shorter side 40 mm or more)"),
)

#: The largest safe margin layouts.yaml accepts; more than this is a slip of the keyboard.
MAX_SAFE_MARGIN = 20.0

#: Overshoots smaller than this (mm) are rounding, not a problem worth a warning.
_TOLERANCE = 0.05


def default_safe_margin(size: tuple[float, float]) -> float:
    """The safe margin (mm) a design of ``size`` gets when its layout names none."""
    short = min(size)
    for below, margin, _ in SIZE_CLASSES:
        if short < below:
            return margin
    return SIZE_CLASSES[-1][1]


def safe_margin(design: Any) -> float:
    """The safe margin (mm) of a design with a ``size`` and a ``safe_margin`` (None: its size class's)."""
    return default_safe_margin(design.size) if design.safe_margin is None else design.safe_margin


@dataclass(frozen=True)
class Element:
    """One readable box of a design, as the safe-zone check needs it."""

    type: str
    label: str  # how the message names it: "text box 'title'" or "box 3 (icon)"
    x: float
    y: float
    w: float
    h: float
    file: str
    line: int
    col: int


#: The shapes a piece may be cut to: the trim rectangle, or a round or hexagonal die cut that fills it.
CUTS = ("rectangle", "round", "hex", "hex-flat")


def hex_corners(x: float, y: float, w: float, h: float, flat: bool) -> list[tuple[float, float]]:
    """The corners of the hexagon filling a box (y down), clockwise: pointy top, or flat top.
    The same hexagon a ``hex`` box draws."""
    if flat:
        return [(x + w / 4, y), (x + 3 * w / 4, y), (x + w, y + h / 2), (x + 3 * w / 4, y + h), (x + w / 4, y + h),
                (x, y + h / 2)]
    return [(x + w / 2, y), (x + w, y + h / 4), (x + w, y + 3 * h / 4), (x + w / 2, y + h), (x, y + 3 * h / 4),
            (x, y + h / 4)]


def cut_of(boxes: Iterable[Any], size: tuple[float, float], declared: str | None) -> str:
    """The cut of a design: the one it declares, else the shape of a first box that fills the
    whole trim (a bleeding ellipse: round; a hex: hex), else the rectangle."""
    if declared:
        return declared
    first = next(iter(boxes), None)
    if first is None or first.x > 0 or first.y > 0 or first.x + first.w < size[0] or first.y + first.h < size[1]:
        return "rectangle"
    if first.type == "ellipse" and first.props.get("bleed"):
        return "round"
    if first.type == "hex":
        return "hex-flat" if first.props.get("orientation") == "flat" else "hex"
    return "rectangle"


def _gap_to_cut(px: float, py: float, size: tuple[float, float], cut: str) -> float:
    """How far (mm) the point lies inside the cut of a piece of ``size`` (negative: outside it)."""
    width, height = size
    if cut == "round":
        a, b = width / 2, height / 2
        dx, dy = px - a, py - b
        dist = math.hypot(dx, dy)
        rho = math.hypot(dx / a, dy / b)
        return min(a, b) if rho == 0 else dist / rho - dist  # along the ray from the centre
    pts = hex_corners(0.0, 0.0, width, height, cut == "hex-flat")
    gaps = []
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        length = math.hypot(x2 - x1, y2 - y1)
        # clockwise corners with y down: the inside lies to the right of each edge
        gaps.append(((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)) / length)
    return min(gaps)


def footprint(box_type: str, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """Left, top, right, bottom (mm) of what the box prints.

    An icon is drawn as a square of the box's shorter side, centred in the box, so a wide icon box
    whose icon sits in the middle is judged by the icon. A box turned by ``rotate`` keeps its
    footprint: the drawing turns inside it.
    """
    if box_type == "icon":
        s = min(w, h)
        x, y, w, h = x + (w - s) / 2, y + (h - s) / 2, s, s
    return x, y, x + w, y + h


def overshoots(element: Element, size: tuple[float, float], margin: float,
               cut: str = "rectangle") -> list[tuple[str, float]]:
    """(where, mm) for every edge of the piece the element comes closer to than ``margin``; on a
    round or hex cut, for every corner of the element's footprint (the shape is convex, so the
    box lies inside the safe zone exactly when its four corners do)."""
    left, top, right, bottom = footprint(element.type, element.x, element.y, element.w, element.h)
    width, height = size
    if cut == "rectangle":
        gaps = {"left edge": left, "top edge": top, "right edge": width - right, "bottom edge": height - bottom}
    else:
        gaps = {f"{v}-{u} corner": _gap_to_cut(x, y, size, cut)
                for v, y in (("top", top), ("bottom", bottom)) for u, x in (("left", left), ("right", right))}
    return [(edge, margin - gap) for edge, gap in gaps.items() if margin - gap > _TOLERANCE]


def _mm(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


_CUT_NAMES = {"rectangle": "the cut", "round": "the round cut", "hex": "the hex cut", "hex-flat": "the hex cut"}


def check_design(design_label: str, size: tuple[float, float], margin: float, elements: Iterable[Element],
                 whose: str = "", cut: str = "rectangle") -> list[Diagnostic]:
    """HK415 for each readable element of one design that reaches into its safe margin.

    ``whose`` says whose size the design takes when it is not its own (a back takes its fronts');
    ``cut`` is the shape the piece is cut to (``CUTS``).
    """
    found = []
    for el in elements:
        over = overshoots(el, size, margin, cut)
        if not over:
            continue
        parts = ", ".join(f"{_mm(mm)} mm at the {edge}" + (f" ({_mm(mm - margin)} mm of it beyond the trim)"
                                                           if mm > margin + _TOLERANCE else "")
                          for edge, mm in over)
        shape = "" if cut == "rectangle" else f"{cut.replace('-flat', '').replace('hex', 'hexagonal')} "
        found.append(warning(
            "HK415",
            f"{el.label} of {design_label} reaches into the {_mm(margin)} mm safe margin inside {_CUT_NAMES[cut]}: "
            f"{parts} (a {shape}{_mm(size[0])} x {_mm(size[1])} mm piece{whose})",
            el.file, el.line, el.col,
            "move or shrink the box to keep the safe margin from the cut, which wanders about 1.5 mm "
            "(`hordekit preview GAME ID --safe` shows it); a dense small token may state a smaller 'safe-margin' "
            "(docs/pnp.md, \"The safe zone\")"))
    return found
