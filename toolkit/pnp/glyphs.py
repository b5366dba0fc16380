"""Inline icons drawn as vector paths: no image files, crisp at any print size.

Every glyph draws itself in a 100 × 100 box (origin bottom-left) that the caller places and
scales; ``draw_glyph`` does the placing. Text rendered from content writes icons as ``:name:``
tokens (``:steam:``, ``:die-4:``); ``GLYPHS`` is the full list of names a template may use.
"""

from __future__ import annotations

import math
from typing import Any, Callable

Ink = tuple[float, float, float]
Draw = Callable[[Any, Ink], None]

_WHITE = (1.0, 1.0, 1.0)
_DARK = (0.13, 0.13, 0.13)


def _hex(h: str) -> Ink:
    return (int(h[1:3], 16) / 255, int(h[3:5], 16) / 255, int(h[5:7], 16) / 255)


def _fill_stroke(c: Any, fill: Ink | None, stroke: Ink | None, width: float = 5) -> None:
    if fill is not None:
        c.setFillColorRGB(*fill)
    if stroke is not None:
        c.setStrokeColorRGB(*stroke)
        c.setLineWidth(width)


def _poly(c: Any, pts: list[tuple[float, float]], fill: Ink | None, stroke: Ink | None = None,
          width: float = 5, close: bool = True) -> None:
    _fill_stroke(c, fill, stroke, width)
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    if close:
        p.close()
    c.drawPath(p, fill=fill is not None, stroke=stroke is not None)


def _label(c: Any, text: str, x: float, y: float, size: float, ink: Ink, bold: bool = True) -> None:
    from toolkit.pnp.fonts import FONTS

    c.setFillColorRGB(*ink)
    c.setFont(FONTS["bold" if bold else "regular"], size)
    c.drawCentredString(x, y, text)


# --- dice -------------------------------------------------------------------------------------

_PIPS = {
    1: [(50, 50)], 2: [(28, 72), (72, 28)], 3: [(26, 74), (50, 50), (74, 26)],
    4: [(28, 28), (28, 72), (72, 28), (72, 72)], 5: [(26, 26), (26, 74), (50, 50), (74, 26), (74, 74)],
    6: [(28, 24), (28, 50), (28, 76), (72, 24), (72, 50), (72, 76)],
}


def _die_body(c: Any, ink: Ink, fill: Ink = _WHITE) -> None:
    _fill_stroke(c, fill, ink, 7)
    c.roundRect(6, 6, 88, 88, 16, stroke=1, fill=1)


def _die(n: int) -> Draw:
    def draw(c: Any, ink: Ink) -> None:
        _die_body(c, ink)
        c.setFillColorRGB(*ink)
        for x, y in _PIPS[n]:
            c.circle(x, y, 9, stroke=0, fill=1)
    return draw


def _any_die(c: Any, ink: Ink) -> None:
    _die_body(c, ink)
    c.setStrokeColorRGB(*ink)
    c.setLineWidth(11)
    c.setLineCap(1)
    c.line(30, 30, 70, 70)
    c.line(30, 70, 70, 30)
    c.setLineCap(0)


def _d6(c: Any, ink: Ink) -> None:
    _die_body(c, ink)
    _label(c, "d6", 50, 36, 38, ink)


def _d10(c: Any, ink: Ink) -> None:
    _poly(c, [(50, 97), (94, 56), (50, 3), (6, 56)], _WHITE, ink, 7)
    _label(c, "10", 50, 40, 30, ink)


# --- Hordes & Heroes --------------------------------------------------------------------------

def _steam(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#dfe6ea"), _hex("#52616b"), 6)
    for x, y, r in ((30, 38, 20), (52, 52, 24), (72, 36, 19), (50, 28, 18)):
        c.circle(x, y, r, stroke=1, fill=1)
    c.setFillColorRGB(*_hex("#dfe6ea"))
    for x, y, r in ((30, 38, 17), (52, 52, 21), (72, 36, 16), (50, 28, 15)):
        c.circle(x, y, r, stroke=0, fill=1)
    c.setStrokeColorRGB(*_hex("#52616b"))
    c.setLineWidth(6)
    c.bezier(40, 80, 30, 88, 50, 92, 42, 99)
    c.bezier(60, 80, 50, 88, 70, 92, 62, 99)


def _shield_path(c: Any) -> Any:
    p = c.beginPath()
    p.moveTo(12, 88)
    p.lineTo(88, 88)
    p.curveTo(88, 45, 75, 20, 50, 4)
    p.curveTo(25, 20, 12, 45, 12, 88)
    p.close()
    return p


def _shield(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#4a78b5"), ink, 6)
    c.drawPath(_shield_path(c), fill=1, stroke=1)
    c.setStrokeColorRGB(*_WHITE)
    c.setLineWidth(6)
    c.line(50, 80, 50, 18)


def _star_points(cx: float, cy: float, r: float, inner: float, n: int = 5) -> list[tuple[float, float]]:
    pts = []
    for i in range(2 * n):
        rr = r if i % 2 == 0 else inner
        a = math.pi / 2 + i * math.pi / n
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _xp(c: Any, ink: Ink) -> None:
    _poly(c, _star_points(50, 48, 50, 24), _hex("#f2c94c"), _hex("#8a6d1f"), 5)
    _label(c, "XP", 50, 38, 24, _DARK)


def _treasure(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#b07a2a"), _hex("#5a3a0e"), 6)
    c.rect(10, 12, 80, 46, stroke=1, fill=1)
    p = c.beginPath()
    p.moveTo(10, 58)
    p.curveTo(10, 92, 90, 92, 90, 58)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.setFillColorRGB(*_hex("#f2c94c"))
    c.rect(42, 44, 16, 20, stroke=1, fill=1)


def _ambush(c: Any, ink: Ink) -> None:
    c.setStrokeColorRGB(*_hex("#b3261e"))
    c.setLineWidth(12)
    c.setLineCap(1)
    for dx in (-24, 0, 24):
        c.bezier(30 + dx, 90, 44 + dx, 60, 46 + dx, 40, 62 + dx, 10)
    c.setLineCap(0)


def _counterattack(c: Any, ink: Ink) -> None:
    red = _hex("#b3261e")
    c.setStrokeColorRGB(*red)
    c.setLineWidth(12)
    p = c.beginPath()
    p.arc(14, 14, 86, 86, startAng=200, extent=-250)
    c.drawPath(p, stroke=1, fill=0)
    _poly(c, [(2, 60), (30, 62), (14, 30)], red)


def _strength(c: Any, ink: Ink) -> None:
    _poly(c, [(44, 30), (56, 30), (56, 88), (50, 98), (44, 88)], _hex("#c9d1d9"), ink, 4)
    _fill_stroke(c, _hex("#8a6d1f"), ink, 4)
    c.rect(26, 24, 48, 9, stroke=1, fill=1)
    c.rect(45, 4, 10, 20, stroke=1, fill=1)


def _warrior(c: Any, ink: Ink) -> None:
    _strength(c, ink)


def _mage(c: Any, ink: Ink) -> None:
    _poly(c, [(50, 98), (78, 22), (22, 22)], _hex("#5b3f9e"), ink, 4)
    _fill_stroke(c, _hex("#5b3f9e"), ink, 4)
    c.ellipse(6, 10, 94, 28, stroke=1, fill=1)
    _poly(c, _star_points(52, 58, 12, 5), _hex("#f2c94c"))


def _artificer(c: Any, ink: Ink) -> None:
    brass = _hex("#b58b2a")
    teeth = []
    for i in range(16):
        a = i * math.pi / 8
        r = 48 if i % 2 == 0 else 36
        teeth.append((50 + r * math.cos(a), 50 + r * math.sin(a)))
    _poly(c, teeth, brass, ink, 4)
    c.setFillColorRGB(*_WHITE)
    c.circle(50, 50, 14, stroke=1, fill=1)


def _action(c: Any, ink: Ink) -> None:
    _poly(c, [(58, 98), (20, 46), (46, 46), (36, 2), (80, 60), (52, 60)], _hex("#f2a33a"), ink, 4)


def _roman(text: str, fill: str) -> Draw:
    def draw(c: Any, ink: Ink) -> None:
        _fill_stroke(c, _hex(fill), ink, 5)
        c.circle(50, 50, 45, stroke=1, fill=1)
        _label(c, text, 50, 34, 44, _WHITE)
    return draw


def _crown(c: Any, ink: Ink) -> None:
    _poly(c, [(8, 20), (92, 20), (96, 80), (72, 50), (50, 90), (28, 50), (4, 80)], _hex("#d4a017"), ink, 5)
    c.setFillColorRGB(*_hex("#b3261e"))
    c.circle(50, 36, 8, stroke=0, fill=1)


def _skull(fill: str) -> Draw:
    def draw(c: Any, ink: Ink) -> None:
        _fill_stroke(c, _hex(fill), ink, 5)
        c.circle(50, 58, 38, stroke=1, fill=1)
        c.rect(30, 10, 40, 30, stroke=1, fill=1)
        c.setFillColorRGB(*ink)
        c.circle(35, 58, 10, stroke=0, fill=1)
        c.circle(65, 58, 10, stroke=0, fill=1)
        _poly(c, [(50, 46), (44, 34), (56, 34)], ink)
        c.setStrokeColorRGB(*ink)
        c.setLineWidth(4)
        for x in (40, 50, 60):
            c.line(x, 10, x, 24)
    return draw


def _hit(c: Any, ink: Ink) -> None:
    _poly(c, _star_points(50, 50, 48, 22, 8), _hex("#d62828"), ink, 4)


def _town(c: Any, ink: Ink) -> None:
    _poly(c, [(10, 6), (90, 6), (90, 56), (50, 94), (10, 56)], _hex("#c98b5b"), ink, 6)
    _fill_stroke(c, _hex("#5a3a0e"), None)
    c.rect(40, 6, 20, 34, stroke=0, fill=1)


# --- Kingdoms ---------------------------------------------------------------------------------

def _coin(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#f2c200"), _hex("#8a6d1f"), 6)
    c.circle(50, 50, 44, stroke=1, fill=1)
    c.circle(50, 50, 30, stroke=1, fill=0)


def _stone(c: Any, ink: Ink) -> None:
    _poly(c, [(8, 20), (22, 70), (50, 88), (84, 72), (94, 30), (70, 10), (30, 8)], _hex("#8c8c8c"), _hex("#3d3d3d"), 6)
    c.setStrokeColorRGB(*_hex("#3d3d3d"))
    c.line(30, 40, 52, 60)


def _wood(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#8b5a2b"), _hex("#4a2e12"), 6)
    c.rect(8, 30, 66, 40, stroke=1, fill=1)
    c.setFillColorRGB(*_hex("#d9a86c"))
    c.ellipse(60, 30, 92, 70, stroke=1, fill=1)
    c.circle(76, 50, 7, stroke=1, fill=0)


def _food(c: Any, ink: Ink) -> None:
    c.setStrokeColorRGB(*_hex("#7a5c12"))
    c.setLineWidth(6)
    c.line(50, 4, 50, 70)
    _fill_stroke(c, _hex("#f4d58d"), _hex("#7a5c12"), 5)
    for y in (34, 52, 70):
        c.ellipse(28, y, 48, y + 24, stroke=1, fill=1)
        c.ellipse(52, y, 72, y + 24, stroke=1, fill=1)
    c.ellipse(40, 82, 60, 100, stroke=1, fill=1)


def _metal(c: Any, ink: Ink) -> None:
    _poly(c, [(6, 24), (94, 24), (78, 70), (22, 70)], _hex("#2f6fd1"), _hex("#133a75"), 6)
    _poly(c, [(28, 62), (72, 62), (66, 50), (34, 50)], _hex("#8fb4ee"))


def _magic(c: Any, ink: Ink) -> None:
    _poly(c, [(50, 98), (84, 62), (50, 2), (16, 62)], _hex("#d62828"), _hex("#6b1010"), 6)
    _poly(c, [(50, 98), (60, 62), (50, 2), (40, 62)], _hex("#f08080"))


def _army(c: Any, ink: Ink) -> None:
    c.setStrokeColorRGB(*ink)
    c.setLineWidth(8)
    c.line(22, 4, 22, 96)
    _poly(c, [(26, 94), (92, 76), (26, 56)], _hex("#b3261e"), ink, 5)


def _settlement(c: Any, ink: Ink) -> None:
    _poly(c, [(14, 6), (86, 6), (86, 54), (50, 90), (14, 54)], _hex("#e9d8a6"), ink, 7)
    c.setFillColorRGB(*ink)
    c.rect(42, 6, 16, 26, stroke=0, fill=1)


def _castle(c: Any, ink: Ink) -> None:
    _poly(c, [(10, 4), (90, 4), (90, 86), (76, 86), (76, 72), (63, 72), (63, 86), (37, 86), (37, 72),
              (24, 72), (24, 86), (10, 86)], _hex("#a7a7a7"), ink, 6)
    c.setFillColorRGB(*ink)
    c.rect(40, 4, 20, 30, stroke=0, fill=1)


def _wizard_tower(c: Any, ink: Ink) -> None:
    _poly(c, [(30, 4), (70, 4), (66, 60), (34, 60)], _hex("#b9b0d9"), ink, 6)
    _poly(c, [(24, 60), (76, 60), (50, 98)], _hex("#5b3f9e"), ink, 6)
    c.setFillColorRGB(*_hex("#f2c94c"))
    c.rect(44, 30, 12, 16, stroke=0, fill=1)


def _horde(c: Any, ink: Ink) -> None:
    _skull("#e8e1d3")(c, ink)


def _victory(c: Any, ink: Ink) -> None:
    _poly(c, _star_points(50, 48, 50, 22), _hex("#f2c200"), _hex("#8a6d1f"), 5)


def _mountain(c: Any, ink: Ink) -> None:
    _poly(c, [(2, 8), (38, 84), (58, 46), (70, 64), (98, 8)], _hex("#8c8c8c"), _hex("#3d3d3d"), 5)
    _poly(c, [(30, 68), (38, 84), (46, 68)], _WHITE)


def _forest(c: Any, ink: Ink) -> None:
    c.setFillColorRGB(*_hex("#5a3a0e"))
    for x in (30, 68):
        c.rect(x - 5, 4, 10, 20, stroke=0, fill=1)
    _poly(c, [(6, 22), (54, 22), (30, 92)], _hex("#2e7d32"), _hex("#1b4d1e"), 4)
    _poly(c, [(44, 22), (92, 22), (68, 82)], _hex("#388e3c"), _hex("#1b4d1e"), 4)


def _farms(c: Any, ink: Ink) -> None:
    _poly(c, [(4, 10), (96, 10), (80, 70), (20, 70)], _hex("#e8c547"), _hex("#7a5c12"), 5)
    c.setStrokeColorRGB(*_hex("#7a5c12"))
    c.setLineWidth(4)
    for x0, x1 in ((30, 38), (50, 50), (70, 62)):
        c.line(x0, 12, x1, 68)


def _hills(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#9c7c4a"), _hex("#4f3b1c"), 5)
    for x0, x1, top in ((2, 66, 78), (40, 98, 60)):
        p = c.beginPath()
        p.moveTo(x0, 10)
        p.curveTo(x0 + 8, top, x1 - 8, top, x1, 10)
        p.close()
        c.drawPath(p, fill=1, stroke=1)


def _swamp(c: Any, ink: Ink) -> None:
    c.setStrokeColorRGB(*_hex("#2f6f6a"))
    c.setLineWidth(7)
    for y in (14, 34):
        c.bezier(6, y, 30, y + 14, 60, y - 14, 94, y)
    c.setStrokeColorRGB(*_hex("#4f7a28"))
    c.setLineWidth(6)
    for x, h in ((30, 94), (50, 80), (70, 90)):
        c.line(x, 44, x, h)
    c.setFillColorRGB(*_hex("#5a3a0e"))
    for x, h in ((30, 94), (70, 90)):
        c.ellipse(x - 5, h - 18, x + 5, h, stroke=0, fill=1)


def _time(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#8b5a2b"), ink, 5)
    c.rect(16, 88, 68, 8, stroke=1, fill=1)
    c.rect(16, 4, 68, 8, stroke=1, fill=1)
    _poly(c, [(24, 88), (76, 88), (54, 50), (76, 12), (24, 12), (46, 50)], _hex("#f4ead5"), ink, 5)
    _poly(c, [(34, 14), (66, 14), (50, 34)], _hex("#e0b04a"))
    _poly(c, [(38, 74), (62, 74), (50, 56)], _hex("#e0b04a"))


def _unknown(c: Any, ink: Ink) -> None:
    _fill_stroke(c, _hex("#ffe3e3"), _hex("#d62828"), 6)
    c.rect(8, 8, 84, 84, stroke=1, fill=1)
    _label(c, "?", 50, 26, 64, _hex("#d62828"))


GLYPHS: dict[str, Draw] = {
    **{f"die-{n}": _die(n) for n in range(1, 7)},
    "any-die": _any_die, "d6": _d6, "d10": _d10,
    "steam": _steam, "shield": _shield, "xp": _xp, "treasure": _treasure, "ambush": _ambush,
    "counterattack": _counterattack, "strength": _strength,
    "warrior": _warrior, "mage": _mage, "artificer": _artificer, "action": _action,
    "level-1": _roman("I", "#4f7a28"), "level-2": _roman("II", "#b86e00"), "boss": _crown,
    "doom": _skull("#d9b8b8"), "hit": _hit, "town": _town,
    "stone": _stone, "wood": _wood, "food": _food, "metal": _metal, "magic": _magic, "gold": _coin,
    "army": _army, "settlement": _settlement, "castle": _castle, "wizard-tower": _wizard_tower,
    "horde": _horde, "victory": _victory, "time": _time,
    "mountain": _mountain, "forest": _forest, "farms": _farms, "hills": _hills, "swamp": _swamp,
}


def draw_glyph(c: Any, name: str, x: float, y: float, size: float, ink: Ink = _DARK) -> bool:
    """Draw glyph ``name`` in the square (x, y, size) in points; False (and a '?') if unknown."""
    fn = GLYPHS.get(name)
    c.saveState()
    c.translate(x, y)
    c.scale(size / 100.0, size / 100.0)
    c.setLineJoin(1)
    (fn or _unknown)(c, ink)
    c.restoreState()
    return fn is not None
