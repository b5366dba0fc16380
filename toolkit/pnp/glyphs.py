"""Icons as data: each game's ``templates/<game>/icons.yaml`` declares its glyphs and dice.

The toolkit knows no game's icons. A game lists named icons, each a legend and a few vector
shapes (circle, rect, ellipse, polygon, line, SVG-style path, text) in a 100 × 100 box with y
running down, and dice whose face icons are drawn here from a shape, colours and a face list
(pips for 1–6, numbers otherwise). Text written from content names icons as ``:name:``; every
icon stays vector, crisp at any print size. An unknown name is drawn as a red '?'.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from toolkit.diagnostics import Diagnostic, error
from toolkit.paths import display
from toolkit.pnp.cmyk import set_text_fill
from toolkit.pnp.drawnonce import DrawnOnce

ICON_FILE = "icons.yaml"
Ink = tuple[float, float, float]
_DARK: Ink = (0.13, 0.13, 0.13)
_SCHEMA = Path(__file__).resolve().parent / "icons.schema.json"
_PATH_TOKENS = re.compile(r"[MLCZ]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?")


@dataclass(frozen=True)
class Icon:
    """One named glyph: its legend and its shapes (dicts as written in icons.yaml).

    ``word`` is the rule word the icon stands for; the faces of one die share a ``group`` (the
    die's name), so a legend prints them once, side by side, with the die's ``group_legend``.
    """

    name: str
    legend: str
    shapes: tuple[dict[str, Any], ...]
    word: str = ""
    group: str = ""
    group_legend: str = ""
    #: The thinnest line it strokes: (width in box units, line, column of that width in icons.yaml).
    thin: tuple[float, int, int] | None = None


@dataclass
class IconSet:
    """A game's icons by name; ``draw`` places one in a square on a ReportLab canvas."""

    icons: dict[str, Icon] = field(default_factory=dict)
    file: str = ICON_FILE  # icons.yaml as messages name it
    #: The smallest size (pt) each icon with strokes has been drawn at: see ``hairlines``.
    smallest: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    #: The operators of each (icon, ink) in its 100 × 100 box: a game prints the same few icons
    #: hundreds of times (see toolkit.pnp.drawnonce).
    _drawn: DrawnOnce = field(default_factory=DrawnOnce, repr=False, compare=False)

    @property
    def names(self) -> list[str]:
        return sorted(self.icons)

    def __contains__(self, name: object) -> bool:
        return name in self.icons

    def draw(self, c: Any, name: str, x: float, y: float, size: float, ink: Ink = _DARK) -> bool:
        """Draw icon ``name`` in the square (x, y, size), points, origin bottom-left; False if unknown."""
        icon = self.icons.get(name)
        shapes = icon.shapes if icon else _UNKNOWN
        self.note(name, size)
        c.saveState()
        c.translate(x, y + size)
        c.scale(size / 100.0, -size / 100.0)  # icon boxes run y downwards, like layouts
        self._drawn.draw(c, (name, ink), lambda: _draw_shapes(c, shapes, ink))
        c.restoreState()
        _hidden_name(c, name, x, y + size * 0.16, size)
        return icon is not None


    def note(self, name: str, size: float) -> None:
        """Note that icon ``name`` prints ``size`` pt wide (drawn, or laid out by validate): see ``hairlines``."""
        icon = self.icons.get(name)
        if icon is not None and icon.thin is not None and size < self.smallest.get(name, math.inf):
            self.smallest[name] = size

    def hairlines(self) -> list[Diagnostic]:
        """HK414 for each icon whose thinnest line, at the smallest size it was drawn, is thinner
        than a press prints (a line of 3 box units is 0.22 pt in a 2.6 mm icon, inline in 7 pt text)."""
        from toolkit.diagnostics import warning
        from toolkit.pnp.layoutfile import HAIRLINE_PT

        found = []
        for name, size in sorted(self.smallest.items()):
            thin = self.icons[name].thin
            assert thin is not None
            width, line, col = thin
            printed = width * size / 100
            if printed < HAIRLINE_PT - 1e-6:
                found.append(warning(
                    "HK414",
                    f"icon '{name}' is printed as small as {size * 25.4 / 72:.1f} mm, where its line of width "
                    f"{width:g} is {printed:.2f} pt, too thin to print reliably (presses hold {HAIRLINE_PT:g} pt and up)",
                    self.file, line, col,
                    f"give the line a width of {math.ceil(HAIRLINE_PT * 100 / size * 2) / 2:g} or more, or print the "
                    "icon larger"))
        return found


def _thinnest(shapes: list[dict[str, Any]], pos: Callable[[int, bool], tuple[int, int]]) -> tuple[float, int, int] | None:
    """The thinnest stroked line of an icon's shapes and where its width is written (``pos(i, has_width)``)."""
    best = None
    for i, shape in enumerate(shapes):
        if shape.get("stroke") in (None, "none"):
            continue
        width = float(shape.get("width", 5))
        if width > 0 and (best is None or width < best[0]):
            best = (width, *pos(i, "width" in shape))
    return best


def _draw_shapes(c: Any, shapes: tuple[dict[str, Any], ...], ink: Ink) -> None:
    c.setLineJoin(1)
    for shape in shapes:
        _draw_shape(c, shape, ink)


def _hidden_name(c: Any, name: str, x: float, y: float, size: float) -> None:
    """Invisible text behind the icon: copying or searching the PDF reads ``[name]``."""
    from toolkit.pnp.fonts import FONTS

    t = c.beginText(x, y)
    t.setTextRenderMode(3)
    t.setFont(FONTS["regular"], max(size * 0.28, 0.5))
    t.textOut(f"[{name}]")
    t.setTextRenderMode(0)
    c.drawText(t)


def _paint(value: Any, ink: Ink) -> Ink | None:
    from toolkit.pnp.units import colour

    if value is None:
        return None
    return ink if value == "ink" else colour(str(value))


def _draw_shape(c: Any, s: dict[str, Any], ink: Ink) -> None:
    fill, stroke = _paint(s.get("fill"), ink), _paint(s.get("stroke"), ink)
    if fill is not None:
        if s.get("fill") == "ink":  # drawn like the text around it (black ink alone when near-black)
            set_text_fill(c, fill)
        else:
            c.setFillColorRGB(*fill)
    if stroke is not None:
        if s.get("stroke") == "ink":
            set_text_fill(c, stroke, stroke=True)
        else:
            c.setStrokeColorRGB(*stroke)
        c.setLineWidth(float(s.get("width", 5)))
        c.setLineCap({"butt": 0, "round": 1, "square": 2}[s.get("cap", "butt")])
    f, st = int(fill is not None), int(stroke is not None)
    if "text" in s:
        _text(c, s, fill or ink, s.get("fill") in (None, "ink"))
    elif "circle" in s:
        c.circle(*s["circle"], stroke=st, fill=f)
    elif "rect" in s:
        x, y, w, h = s["rect"]
        if s.get("radius"):
            c.roundRect(x, y, w, h, s["radius"], stroke=st, fill=f)
        else:
            c.rect(x, y, w, h, stroke=st, fill=f)
    elif "ellipse" in s:
        x, y, w, h = s["ellipse"]
        c.ellipse(x, y, x + w, y + h, stroke=st, fill=f)
    elif "line" in s:
        if st:
            c.line(*s["line"])
    elif "polygon" in s:
        p = c.beginPath()
        p.moveTo(*s["polygon"][0])
        for pt in s["polygon"][1:]:
            p.lineTo(*pt)
        p.close()
        c.drawPath(p, fill=f, stroke=st)
    elif "path" in s:
        c.drawPath(_path(c, str(s["path"])), fill=f, stroke=st)


def _path(c: Any, d: str) -> Any:
    """An SVG-style path of absolute M, L, C and Z commands as a ReportLab path."""
    p = c.beginPath()
    tokens = _PATH_TOKENS.findall(d)
    i, cmd = 0, "M"
    while i < len(tokens):
        if tokens[i] in "MLCZ":
            cmd = tokens[i]
            i += 1
            if cmd == "Z":
                p.close()
            continue
        n = 6 if cmd == "C" else 2
        args = [float(v) for v in tokens[i:i + n]]
        i += n
        if len(args) < n:
            break
        {"M": p.moveTo, "L": p.lineTo, "C": p.curveTo}[cmd](*args)
        if cmd == "M":
            cmd = "L"  # further pairs after a move are lines, as in SVG
    return p


def _text(c: Any, s: dict[str, Any], ink: Ink, text_ink: bool) -> None:
    from toolkit.pnp.fonts import FONTS

    x, y = s["at"]
    c.saveState()
    c.translate(x, y)
    c.scale(1, -1)  # text stays upright inside the y-down icon box
    if text_ink:
        set_text_fill(c, ink)
    else:
        c.setFillColorRGB(*ink)
    c.setFont(FONTS[s.get("font", "bold")], float(s.get("size", 30)))
    c.drawCentredString(0, 0, str(s["text"]))
    c.restoreState()


_UNKNOWN: tuple[dict[str, Any], ...] = (
    {"rect": [8, 8, 84, 84], "fill": "#ffe3e3", "stroke": "#d62828", "width": 6},
    {"text": "?", "at": [50, 74], "size": 64, "font": "bold", "fill": "#d62828"},
)

# --- dice: one icon per face, from a shape, colours and a face list -------------------------

_PIPS = {
    1: [(50, 50)], 2: [(28, 28), (72, 72)], 3: [(26, 26), (50, 50), (74, 74)],
    4: [(28, 72), (28, 28), (72, 72), (72, 28)], 5: [(26, 74), (26, 26), (50, 50), (74, 74), (74, 26)],
    6: [(28, 76), (28, 50), (28, 24), (72, 76), (72, 50), (72, 24)],
}
_OUTLINES: dict[str, dict[str, Any]] = {
    "square": {"rect": [6, 6, 88, 88], "radius": 16},
    "kite": {"polygon": [[50, 3], [94, 44], [50, 97], [6, 44]]},
    "circle": {"circle": [50, 50, 44]},
    "triangle": {"polygon": [[50, 6], [95, 88], [5, 88]]},
    "hexagon": {"polygon": [[27, 8], [73, 8], [96, 50], [73, 92], [27, 92], [4, 50]]},
}
_NUMBER_AT = {"square": (64, 38), "kite": (60, 30), "circle": (64, 36), "triangle": (78, 30), "hexagon": (64, 36)}


def die_face_shapes(face: str, shape: str, style: str, fill: str, ink: str) -> tuple[dict[str, Any], ...]:
    """The shapes of one die face: the outline, then pips (1–6) or the face's number."""
    out: list[dict[str, Any]] = [{**_OUTLINES[shape], "fill": fill, "stroke": ink, "width": 7}]
    if style == "pips" and face.isdigit() and int(face) in _PIPS:
        out += [{"circle": [x, y, 9], "fill": ink} for x, y in _PIPS[int(face)]]
    else:
        base, size = _NUMBER_AT[shape]
        size = size if len(face) < 2 else size * 0.8
        out.append({"text": face, "at": [50, base], "size": size, "font": "bold", "fill": ink})
    return tuple(out)


# --- reading icons.yaml ---------------------------------------------------------------------

Render = Callable[[str, int, int], str]  # (template source, its line, its column) -> text


def read_icons(templates_dir: Path, render: Render | None = None) -> tuple[IconSet, list[Diagnostic]]:
    """The game's icons; an empty set when it has no icons.yaml. Problems are located diagnostics."""
    from toolkit.games import read_yaml
    from toolkit.schemaval import SchemaChecker, SchemaStore

    path = templates_dir / ICON_FILE
    if not path.is_file():
        return IconSet(file=display(path)), []  # named so a message can say where to declare one
    doc, diags = read_yaml(path)
    if diags:
        return IconSet(), diags
    name = display(path)
    if not isinstance(doc.data, dict):
        return IconSet(), [error("HK410", "icons.yaml must be a mapping with 'icons' and/or 'dice'", name)]
    problems = SchemaChecker(SchemaStore([_SCHEMA.parent]), _SCHEMA).check(doc, name)
    if problems:
        return IconSet(), [_recode(d) for d in problems]
    icons: dict[str, Icon] = {}
    for section in doc.data:  # the file's own order is the legend's order
        if section == "icons":
            for iname, raw in (doc.data.get("icons") or {}).items():
                def pos(i: int, own: bool, iname: Any = iname) -> tuple[int, int]:
                    at = doc.pos(("icons", iname, "shapes", i) + (("width",) if own else ()))
                    return at.line, at.col
                icons[str(iname)] = Icon(str(iname), str(raw["legend"]), tuple(raw["shapes"]),
                                         str(raw.get("word", str(iname).replace("-", " "))),
                                         thin=_thinnest(list(raw["shapes"]), pos))
        elif section == "dice":
            for dname, raw in (doc.data.get("dice") or {}).items():
                at = doc.pos(("dice", dname, "faces"))
                icons.update(_die_icons(str(dname), raw, (at.line, at.col), render))
    return IconSet(icons, file=name), []


def _die_icons(dname: str, raw: dict[str, Any], faces_at: tuple[int, int], render: Render | None) -> dict[str, Icon]:
    """One icon per face of a die, drawn from its shape, colours and face list."""
    faces = raw["faces"]
    if isinstance(faces, str):
        text = render(faces, *faces_at) if render else faces
        faces = [f for f in re.split(r"[\s,\[\]']+", text) if f]
    pattern = str(raw.get("icon", f"{dname}-{{face}}"))
    legend = str(raw.get("legend", f"{dname} showing {{face}}"))
    summary = str(raw.get("legend-all", legend.replace("{face}", "that face")))
    shape, style = str(raw.get("shape", "square")), str(raw.get("style", "number"))
    out: dict[str, Icon] = {}
    for face in map(str, faces):
        n = pattern.replace("{face}", face)
        out[n] = Icon(n, legend.replace("{face}", face),
                      die_face_shapes(face, shape, style, str(raw.get("fill", "#ffffff")), str(raw.get("ink", "ink"))),
                      str(raw.get("word", dname)), dname, summary)
    return out


def _recode(d: Diagnostic) -> Diagnostic:
    """Schema problems in icons.yaml carry the print code HK410 (the message says what is wrong)."""
    return error("HK410", d.message, d.file, d.line, d.col, d.hint)
