"""Units and colours: layouts speak millimetres and hex colours, ReportLab speaks points."""

from __future__ import annotations

import re
from functools import lru_cache

MM = 72.0 / 25.4  # points per millimetre

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

_HEX = re.compile(r"#?([0-9a-fA-F]{6})$")
_NAMED = {
    "black": "#000000", "white": "#ffffff", "none": "", "transparent": "",
}


def mm(value: float) -> float:
    return value * MM


class ColourError(ValueError):
    pass


@lru_cache(maxsize=512)
def colour(value: str | None) -> tuple[float, float, float] | None:
    """``#rrggbb`` (or black/white/none) as an RGB triple in 0..1; None means 'do not paint'."""
    if value is None:
        return None
    text = str(value).strip().lower()
    text = _NAMED.get(text, text)
    if not text:
        return None
    m = _HEX.match(text)
    if not m:
        raise ColourError(f"'{value}' is not a colour: write #rrggbb, black, white or none")
    h = m.group(1)
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)
