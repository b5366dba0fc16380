"""Reading ``templates/<game>/layouts.yaml``: the size and design of every printed thing.

The file is data a designer edits (see docs/pnp.md): per component kind its size in mm, the
boxes drawn on it, and the name of its back design; plus ``backs``, ``extras`` (printed things
that are not content, such as a quick-reference card) and ``boards`` (a grid printed across
several pages). Problems are diagnostics at ``layouts.yaml:line:col``, never exceptions.
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from toolkit.diagnostics import Diagnostic, Severity, did_you_mean, error, warning
from toolkit.paths import display
from toolkit.pnp.safezone import CUTS, MAX_SAFE_MARGIN, READABLE_TYPES, Element, check_design, cut_of, safe_margin
from toolkit.pnp.templating import Where
from toolkit.pnp.units import ColourError, colour

LAYOUT_FILE = "layouts.yaml"

ALIGNMENTS = {"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom")}
#: the words people write for them: centre is center across, middle down
ALIGNMENT_WORDS = {"align": {"centre": "center", "middle": "center", "centered": "center", "centred": "center"},
                   "valign": {"center": "middle", "centre": "middle", "centered": "middle", "centred": "middle"}}
BOX_KEYS: dict[str, set[str]] = {
    "rect": {"fill", "stroke", "stroke-width", "radius", "bleed"},
    "ellipse": {"fill", "stroke", "stroke-width", "bleed"},
    "hex": {"fill", "stroke", "stroke-width", "orientation"},
    "arrow": {"direction", "stroke", "stroke-width", "head"},
    "line": {"stroke", "stroke-width", "dash"},
    "text": {"text", "font", "size", "min-size", "leading", "align", "valign", "colour"},
    "icon": {"icon", "colour"},
    "image": {"image"},
    "list": {"source", "row", "columns", "tick", "sort", "font", "size", "min-size", "leading", "colour", "gap"},
    "cells": {"count", "columns", "text", "fill", "stroke", "stroke-width", "font", "size", "colour", "highlight",
              "highlight-fill"},
    "legend": {"icons", "exclude", "font", "size", "leading", "colour", "icon-size", "gap", "columns", "column-gap"},
}
COMMON_KEYS = {"type", "x", "y", "w", "h", "when", "rotate", "name"}
FONTS = {"regular", "bold", "italic", "bold-italic"}
DESIGN_KEYS = {"size", "back", "boxes", "print", "quantity", "fields", "title", "note", "corner-radius", "per-item",
               "safe-margin", "cut"}


@dataclass
class Box:
    type: str
    x: float
    y: float
    w: float
    h: float
    props: dict[str, Any]
    where: dict[str, Where]  # prop -> where its value is written (for template errors)
    when: str | None = None
    rotate: int = 0
    at: tuple[int, int] = (1, 1)  # line and column of the box itself in layouts.yaml
    file: str = ""  # layouts.yaml as it is named in messages

    def place(self) -> str:
        """``file:line:col`` of the box in layouts.yaml, for messages reported elsewhere."""
        return f"{self.file}:{self.at[0]}:{self.at[1]}" if self.file else ""


@dataclass
class Design:
    """One printable design: a kind's front, a back, or an extra."""

    name: str
    size: tuple[float, float]
    boxes: list[Box]
    back: str | None = None
    print: bool = True
    quantity: int = 1
    fields: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    where: Where | None = None
    corner_radius: float = 0.0
    per_item: bool = False  # a back that shows the component's own fields (a token's other side)
    safe_margin: float | None = None  # mm kept clear of the cut for what is read; None: its size class's
    cut: str | None = None  # the shape it is cut to (safezone.CUTS); None: told by its first box


ARROW_DIRECTIONS = ("right", "left", "up", "down", "up-right", "up-left", "down-right", "down-left")
BOARD_KEYS = {"title", "grid", "columns", "rows", "space", "border", "overlap", "labels", "fill", "alt-fill",
              "background", "line", "orientation", "coordinates", "offset", "shape", "radius", "cells",
              "cell-labels", "size", "boxes", "quantity"}
BOARD_CHOICES = {"grid": ("square", "hex", "none"), "labels": ("numbers", "letters"),
                 "orientation": ("pointy", "flat"), "coordinates": ("offset", "axial"), "offset": ("odd", "even"),
                 "shape": ("rectangle", "hexagon")}


@dataclass
class Board:
    """A board's geometry as data: a square or hex grid (with coordinates), or a free layout."""

    name: str
    columns: Any
    rows: Any
    space: float
    border: float
    overlap: float
    title: str
    labels: str
    fill: str
    alt_fill: str
    where: Where
    grid: str = "square"
    background: str = "#5a4530"
    line: str = "#3f3324"
    orientation: str = "pointy"
    coordinates: str = "offset"
    offset: str = "odd"
    shape: str = "rectangle"
    radius: int = 3
    cells: dict[str, str] = field(default_factory=dict)
    cell_labels: bool = False
    size: tuple[float, float] = (0.0, 0.0)
    boxes: list[Box] = field(default_factory=list)
    quantity: int = 1  # copies printed: a board each player has in front of them is printed per player
    cells_where: dict[str, Where] = field(default_factory=dict)  # where each of ``cells`` is written


@dataclass
class Layouts:
    file: Path
    defaults: dict[str, Any]
    kinds: dict[str, Design]
    backs: dict[str, Design]
    extras: dict[str, Design]
    boards: dict[str, Board]


def _num(value: Any) -> bool:
    """A finite number (YAML's .nan and .inf are not sizes)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


#: The range of each numeric box property: (lowest, highest, unit). A text size beyond the top
#: prints nothing a card can hold, and shrinking it to fit would take millions of steps.
LIMITS: dict[str, tuple[float, float, str]] = {
    "size": (0.5, 300.0, "pt"), "min-size": (0.5, 300.0, "pt"), "leading": (0.5, 5.0, "times the size"),
    "icon-size": (0.5, 300.0, "mm"), "stroke-width": (0.0, 50.0, "pt"), "radius": (0.0, 1000.0, "mm"),
    "head": (0.0, 1000.0, "mm"), "gap": (0.0, 1000.0, "mm"), "column-gap": (0.0, 1000.0, "mm"),
}
DESIGN_LIMITS = {"corner-radius": (0.0, 1000.0, "mm"), "safe-margin": (0.0, MAX_SAFE_MARGIN, "mm")}
#: Thinner lines may break up or vanish on a press (print shops ask for 0.25 pt, about 0.09 mm).
HAIRLINE_PT = 0.25


def out_of_range(key: str, value: Any) -> str | None:
    """Why ``value`` is no good for box property ``key`` (None when it is)."""
    lo, hi, unit = LIMITS.get(key) or DESIGN_LIMITS[key]
    if not _num(value):
        return f"'{key}' must be a number"
    if not lo <= value <= hi:
        return f"'{key}' must be from {lo:g} to {hi:g} ({unit}), not {value:g}"
    return None


def read_layouts(templates_dir: Path) -> tuple[Layouts | None, list[Diagnostic]]:
    """Read and check a game's layouts.yaml; (None, diagnostics) when it is missing or broken,
    else (layouts, warnings)."""
    from toolkit.games import read_yaml

    path = templates_dir / LAYOUT_FILE
    name = display(path)
    if not path.is_file():
        return None, [error("HK404", f"no print layouts: {name} not found", name, 1, 1,
                            "write one; docs/pnp.md describes the format")]
    doc, diags = read_yaml(path)
    if diags:
        return None, diags
    data = doc.data
    if not isinstance(data, dict):
        return None, [error("HK404", "layouts.yaml must be a mapping with 'kinds'", name)]

    problems: list[Diagnostic] = []

    def bad(p: tuple[Any, ...], message: str, hint: str = "") -> None:
        pos = doc.pos(p)
        problems.append(error("HK404", message, name, pos.line, pos.col, hint))

    text = path.read_text(encoding="utf-8-sig")  # a byte order mark is no column (the loader skips it too)
    lines = text.splitlines()
    starts: list[tuple[int, int]] = []  # where every key and value of the file begins, in order
    offsets: list[int] = []  # where each line begins in the text

    def written(line: int, col: int) -> tuple[int, int, str]:
        """The text of the value at line:col as written: up to where the next key or value begins."""
        if not starts:
            starts.extend(sorted({(p.line, p.col) for p in (*doc.values.values(), *doc.keys.values())}))
            offsets.extend(itertools.accumulate((len(row) + 1 for row in text.split("\n")), initial=0))
        i = bisect.bisect_right(starts, (line, col))
        end = starts[i] if i < len(starts) else None

        def at(ln: int, cl: int) -> int:
            return min(offsets[min(ln, len(offsets)) - 1] + cl - 1, len(text))

        return line, col, text[at(line, col):len(text) if end is None else at(*end)]

    def where(p: tuple[Any, ...]) -> Where:
        line, col = doc.pos(p)
        source = written(line, col) if tuple(p) in doc.values else None
        return Where(name, line + 1, 1, source) if _is_block(lines, line) else Where(name, line, col, source)

    def read_box(p: tuple[Any, ...], raw: Any) -> Box | None:
        if not isinstance(raw, dict):
            bad(p, "a box is a mapping with type, x, y, w, h")
            return None
        kind = raw.get("type")
        if kind not in BOX_KEYS:
            bad(p + ("type",), f"unknown box type '{kind}'", f"one of: {', '.join(sorted(BOX_KEYS))}")
            return None
        for key in raw:
            if key not in COMMON_KEYS and key not in BOX_KEYS[kind]:
                takes = sorted(COMMON_KEYS | BOX_KEYS[kind])
                guess = did_you_mean(str(key), takes)
                bad(p + (key,), f"'{key}' is not a property of a {kind} box",
                    f"{guess + ' (' if guess else ''}{kind} boxes take: {', '.join(takes)}{')' if guess else ''}")
        for key, choices in ALIGNMENTS.items():
            v = raw.get(key)
            if key in BOX_KEYS[kind] and v is not None and not (isinstance(v, str) and "{" in v) and v not in choices:
                alias = ALIGNMENT_WORDS[key].get(str(v).lower())
                guess = f"did you mean `{alias}`?" if alias else did_you_mean(str(v), choices)
                bad(p + (key,), f"{key} '{v}' is not one of: {', '.join(choices)}",
                    guess)
        geo = []
        for key in ("x", "y", "w", "h"):
            v = raw.get(key, 0)
            if not _num(v) or abs(v) > 10_000:
                bad(p + (key,), f"'{key}' must be a number of millimetres")
                v = 0
            elif key in ("w", "h") and v < 0:
                bad(p + (key,), f"'{key}' must not be negative", "place the box with x and y; w and h are its size")
                v = 0
            geo.append(float(v))
        if raw.get("rotate", 0) not in (0, 90, 180, 270):
            bad(p + ("rotate",), "rotate must be 0, 90, 180 or 270")
        for key in ("fill", "stroke", "colour", "highlight-fill"):
            v = raw.get(key)
            if isinstance(v, str) and "{" not in v:
                try:
                    colour(v)
                except ColourError as exc:
                    bad(p + (key,), str(exc))
        if kind == "arrow" and raw.get("direction", "right") not in ARROW_DIRECTIONS:
            bad(p + ("direction",), f"unknown arrow direction '{raw.get('direction')}'", f"one of: {', '.join(ARROW_DIRECTIONS)}")
        if kind == "hex" and raw.get("orientation", "pointy") not in ("pointy", "flat"):
            bad(p + ("orientation",), "orientation must be pointy or flat")
        if "font" in raw and raw["font"] not in FONTS:
            guess = did_you_mean(str(raw["font"]), sorted(FONTS))
            bad(p + ("font",), f"unknown font '{raw['font']}'",
                f"{guess} (one of: {', '.join(sorted(FONTS))})" if guess else f"one of: {', '.join(sorted(FONTS))}")
        for key in LIMITS:
            why = out_of_range(key, raw[key]) if key in raw else None
            if why:
                bad(p + (key,), why)
        thin = raw.get("stroke-width")
        if _num(thin) and thin < HAIRLINE_PT and (thin > 0 or raw.get("stroke") is not None):
            pos = doc.pos(p + ("stroke-width",))
            problems.append(warning(
                "HK414", f"a {thin:g} pt line is too thin to print reliably (presses hold {HAIRLINE_PT:g} pt and up)",
                name, pos.line, pos.col,
                "give it 0.25 pt or more; 0 pt means the thinnest line a device can draw, invisible on a press"))
        for key in ("icons", "exclude"):
            if key in raw and not (isinstance(raw[key], list) and all(isinstance(v, str) for v in raw[key])):
                bad(p + (key,), f"'{key}' must be a list of icon (or die) names from icons.yaml")
        if kind == "legend" and not (isinstance(raw.get("columns", 1), int) and 1 <= raw.get("columns", 1) <= 6):
            bad(p + ("columns",), "columns must be a whole number from 1 to 6")
        props = {k: v for k, v in raw.items() if k not in COMMON_KEYS or k == "name"}  # name: for messages
        wheres = {k: where(p + (k,)) for k in list(props) + ["when"]}
        for key in ("icons", "exclude"):  # a legend's names, each at its own place
            if isinstance(raw.get(key), list):
                wheres.update({f"{key}[{i}]": where(p + (key, i)) for i in range(len(raw[key]))})
        return Box(kind, *geo, props=props, where=wheres,
                   when=str(raw["when"]) if "when" in raw else None, rotate=int(raw.get("rotate", 0) or 0),
                   at=tuple(doc.pos(p)), file=name)

    def read_design(p: tuple[Any, ...], dname: str, raw: Any, need_size: bool = True) -> Design | None:
        if not isinstance(raw, dict):
            bad(p, f"'{dname}' must be a mapping")
            return None
        for key in raw:
            if key not in DESIGN_KEYS:
                bad(p + (key,), f"'{key}' is not a layout property", f"one of: {', '.join(sorted(DESIGN_KEYS))}")
        if raw.get("print", True) is False:
            return Design(dname, (0.0, 0.0), [], print=False, where=where(p))
        corner = raw.get("corner-radius", 0) or 0
        why = out_of_range("corner-radius", corner)
        if why:
            bad(p + ("corner-radius",), why)
            corner = 0
        size = raw.get("size")
        own_size = isinstance(size, list) and len(size) == 2 and all(_num(v) and v > 0 for v in size)
        if not own_size:
            if need_size:
                bad(p + ("size",), "size must be [width, height] in millimetres")
            size = [10, 10]
        boxes = []
        for i, b in enumerate(raw.get("boxes") or []):
            box = read_box(p + ("boxes", i), b)
            if box is not None:
                boxes.append(box)
        q = raw.get("quantity", 1)
        if not (isinstance(q, int) and 1 <= q <= 1000):
            bad(p + ("quantity",), "quantity must be a whole number from 1 to 1000")
            q = 1
        back = raw.get("back")
        return Design(dname, (float(size[0]), float(size[1])), boxes, back=str(back) if back else None,
                      quantity=q, fields=dict(raw.get("fields") or {}), title=str(raw.get("title", dname)),
                      where=where(p), corner_radius=float(corner),
                      per_item=bool(raw.get("per-item", False)),
                      safe_margin=read_safe_margin(p, raw, size if own_size else None),
                      cut=read_cut(p, raw))

    def read_cut(p: tuple[Any, ...], raw: dict[str, Any]) -> str | None:
        """The design's own ``cut`` (None when it names none, or names an unknown shape: HK404)."""
        if "cut" not in raw:
            return None
        if raw["cut"] not in CUTS:
            bad(p + ("cut",), f"unknown cut '{raw['cut']}'", f"one of: {', '.join(CUTS)} (docs/pnp.md, \"The safe zone\")")
            return None
        return str(raw["cut"])

    def read_safe_margin(p: tuple[Any, ...], raw: dict[str, Any], size: list[float] | None) -> float | None:
        """The design's own ``safe-margin`` (None when it names none, or names a bad one: HK404)."""
        if "safe-margin" not in raw:
            return None
        margin = raw["safe-margin"]
        why = out_of_range("safe-margin", margin)
        if why is None and size is not None and 2 * margin >= min(size):
            why = (f"'safe-margin' of {margin:g} mm leaves no room on a {size[0]:g} x {size[1]:g} mm piece "
                   f"(it must be less than half its shorter side)")
        if why:
            bad(p + ("safe-margin",), why, "the distance in mm that text and icons keep from the cut; "
                "3 for cards, 1.5 to 2 for small tokens (docs/pnp.md, \"The safe zone\")")
            return None
        return float(margin)

    def read_board(p: tuple[Any, ...], bname: str, raw: Any) -> Board | None:
        if not isinstance(raw, dict):
            bad(p, "a board is a mapping")
            return None
        for key in raw:
            if key not in BOARD_KEYS:
                bad(p + (key,), f"'{key}' is not a board property", f"one of: {', '.join(sorted(BOARD_KEYS))}")
        for key, choices in BOARD_CHOICES.items():
            if key in raw and raw[key] not in choices:
                bad(p + (key,), f"{key} must be one of: {', '.join(choices)}")
        for key in ("space", "border", "overlap"):
            if key in raw and not (_num(raw[key]) and raw[key] >= 0):
                bad(p + (key,), f"'{key}' must be a number of millimetres")
        for key in ("fill", "alt-fill", "background", "line"):
            if key in raw:
                try:
                    colour(str(raw[key]))
                except ColourError as exc:
                    bad(p + (key,), str(exc))
        grid = str(raw.get("grid", "square"))
        size = raw.get("size")
        if grid == "none" and not (isinstance(size, list) and len(size) == 2 and all(_num(v) and v > 0 for v in size)):
            bad(p + ("size",), "a free-layout board (grid: none) needs size: [width, height] in millimetres")
            size = [10, 10]
        cells = raw.get("cells") or {}
        if not isinstance(cells, dict) or any(k not in ("fill", "text", "icon", "when") for k in cells):
            bad(p + ("cells",), "cells takes fill, text, icon and when (templates that see col, row, q, r, label)")
            cells = {}
        radius = raw.get("radius", 3)
        if not (isinstance(radius, int) and 1 <= radius <= 30):
            bad(p + ("radius",), "radius must be a whole number from 1 to 30 (hexes from the centre to the edge)")
            radius = 3
        boxes = []
        for i, b in enumerate(raw.get("boxes") or []):
            box = read_box(p + ("boxes", i), b)
            if box is not None:
                boxes.append(box)
        quantity = raw.get("quantity", 1)
        if isinstance(quantity, bool) or not (isinstance(quantity, int) and 1 <= quantity <= 100):
            bad(p + ("quantity",), "a board's quantity must be a whole number from 1 to 100 (copies printed)")
            quantity = 1
        return Board(
            name=bname, columns=raw.get("columns", 10), rows=raw.get("rows", 10),
            space=float(raw.get("space", 25)), border=float(raw.get("border", 8 if grid == "square" else 6)),
            overlap=float(raw.get("overlap", 12)), title=str(raw.get("title", bname)),
            labels=str(raw.get("labels", "numbers")), fill=str(raw.get("fill", "#f3efe2")),
            alt_fill=str(raw.get("alt-fill", raw.get("fill", "#e6dfc8") if grid == "hex" else "#e6dfc8")),
            where=where(p), grid=grid, background=str(raw.get("background", "#5a4530")),
            line=str(raw.get("line", "#3f3324")), orientation=str(raw.get("orientation", "pointy")),
            coordinates=str(raw.get("coordinates", "offset")), offset=str(raw.get("offset", "odd")),
            shape=str(raw.get("shape", "rectangle")), radius=radius, cells={str(k): str(v) for k, v in cells.items()},
            cell_labels=bool(raw.get("cell-labels", grid == "hex")),
            size=(float(size[0]), float(size[1])) if isinstance(size, list) and len(size) == 2 else (0.0, 0.0),
            boxes=boxes, quantity=quantity, cells_where={str(k): where(p + ("cells", k)) for k in cells})

    _check_defaults(data.get("defaults"), bad)
    for key in data:
        if key not in ("defaults", "kinds", "backs", "extras", "boards"):
            bad((key,), f"unknown section '{key}'", "sections: defaults, kinds, backs, extras, boards")

    sections: dict[str, dict[str, Design]] = {"kinds": {}, "backs": {}, "extras": {}}
    for section in sections:
        raw_section = data.get(section) or {}
        if not isinstance(raw_section, dict):
            bad((section,), f"'{section}' must be a mapping of names to designs")
            continue
        for dname, raw in raw_section.items():
            d = read_design((section, dname), str(dname), raw, need_size=section != "backs")
            if d is not None:
                sections[section][str(dname)] = d
    # A back takes the size of the fronts that name it.
    for design in list(sections["kinds"].values()) + list(sections["extras"].values()):
        if design.back and design.back != "front" and design.back not in sections["backs"]:
            section = "kinds" if design.name in sections["kinds"] else "extras"
            backs = sorted(sections["backs"])
            bad((section, design.name, "back"), f"back design '{design.back}' is not defined under 'backs'",
                did_you_mean(design.back, backs) or (f"the backs defined: {', '.join(backs)}; or 'front' for a "
                                                     "double-sided piece" if backs else
                                                     "add it under 'backs' (docs/pnp.md), or leave 'back' out"))
            design.back = None

    problems += _safe_zone(sections, name)
    boards: dict[str, Board] = {}
    for bname, raw in (data.get("boards") or {}).items():
        board = read_board(("boards", bname), str(bname), raw)
        if board is not None:
            boards[str(bname)] = board
    if any(d.severity is Severity.ERROR for d in problems):
        return None, problems
    defaults = dict(data.get("defaults") or {})
    return Layouts(path, defaults, sections["kinds"], sections["backs"], sections["extras"], boards), problems


def readable_elements(design: Design, file: str) -> list[Element]:
    """The boxes of ``design`` a player reads (text, icons, values), for the safe-zone check."""
    return [Element(b.type, f"{b.type} box '{b.props['name']}'" if b.props.get("name") else f"{b.type} box {i + 1}",
                    b.x, b.y, b.w, b.h, file, *b.at)
            for i, b in enumerate(design.boxes) if b.type in READABLE_TYPES]


def _safe_zone(sections: dict[str, dict[str, Design]], file: str) -> list[Diagnostic]:
    """HK415 for every readable box too close to the cut, once per box (a back once, however many
    fronts name it: at the first front size it does not fit)."""
    found: list[Diagnostic] = []
    for section, label in (("kinds", "kind"), ("extras", "extra")):
        for design in sections[section].values():
            found += check_design(f"{label} '{design.name}'", design.size, safe_margin(design),
                                  readable_elements(design, file), cut=cut_of(design.boxes, design.size, design.cut))
    fronts = list(sections["kinds"].values()) + list(sections["extras"].values())
    for bname, back in sections["backs"].items():
        reported: set[tuple[int, int]] = set()
        for front in fronts:
            if front.back != bname or not front.print:
                continue
            margin = safe_margin(front) if back.safe_margin is None else back.safe_margin
            cut = back.cut or cut_of(front.boxes, front.size, front.cut)  # the back of a piece is cut with it
            todo = [el for el in readable_elements(back, file) if (el.line, el.col) not in reported]
            for d in check_design(f"back '{bname}'", front.size, margin, todo, f" like the fronts of '{front.name}'",
                                  cut):
                reported.add((d.line, d.col))
                found.append(d)
    return found


def _is_block(lines: list[str], line: int) -> bool:
    """Whether the value on ``line`` is a block scalar (``>-``, ``|``): its text starts a line lower."""
    if not 1 <= line <= len(lines):
        return False
    return lines[line - 1].rstrip().endswith((">-", ">", "|", "|-", ">+", "|+"))


def _check_defaults(raw: Any, bad: Callable[..., None]) -> None:
    """``defaults`` is checked like a text box: every box that does not say otherwise uses it."""
    if raw is None:
        return
    if not isinstance(raw, dict):
        bad(("defaults",), "'defaults' must be a mapping (font, size, min-size, colour)")
        return
    for key, v in raw.items():
        if key == "colour":
            try:
                colour(v if isinstance(v, str) else "?")
            except ColourError as exc:
                bad(("defaults", key), str(exc))
        elif key == "font" and v not in FONTS:
            bad(("defaults", key), f"unknown font '{v}'", f"one of: {', '.join(sorted(FONTS))}")
        elif key in ("size", "min-size", "leading") and out_of_range(key, v):
            bad(("defaults", key), str(out_of_range(key, v)))
        elif key not in ("colour", "font", "size", "min-size", "leading"):
            bad(("defaults", key), f"'{key}' is not a default", "defaults take: colour, font, size, min-size, leading")


def effect_templates(templates_dir: Path) -> tuple[dict[str, tuple[str, Where]], list[Diagnostic]]:
    """text.yaml as effect kind -> (template source, where it is written)."""
    from toolkit.games import read_yaml

    path = templates_dir / "text.yaml"
    if not (path.exists() or path.is_symlink()):
        return {}, []
    doc, diags = read_yaml(path)
    if diags:
        return {}, diags
    if not isinstance(doc.data, dict):
        return {}, [error("HK403", "text.yaml must map each effect kind to its sentence", display(path), 1, 1)]
    name = display(path)
    text = path.read_text(encoding="utf-8-sig")
    lines = text.splitlines()
    offsets = list(itertools.accumulate((len(row) + 1 for row in text.split("\n")), initial=0))
    starts = sorted((doc.pos((k,), key=True).line, doc.pos((k,), key=True).col) for k in doc.data)

    def written(line: int, col: int) -> tuple[int, int, str]:
        """The value as written, up to the next key: a word in it (an icon) can be pointed at."""
        i = bisect.bisect_right(starts, (line, col))
        at = min(offsets[min(line, len(offsets)) - 1] + col - 1, len(text))
        end = len(text) if i >= len(starts) else offsets[min(starts[i][0], len(offsets)) - 1]
        return line, col, text[at:max(at, end)]

    out = {}
    for k, v in doc.data.items():
        line = doc.pos((k,)).line
        col = doc.pos((k,)).col
        source = written(line, col)
        out[str(k)] = (str(v), Where(name, line + 1, 1, source) if _is_block(lines, line)
                       else Where(name, line, col, source))
    return out, []
