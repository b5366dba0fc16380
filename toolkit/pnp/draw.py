"""Drawing one design (a card face, a back, a counter, a sheet) from its boxes.

``render_design`` runs with a ReportLab canvas to draw, or with ``canvas=None`` to only lay text
out: ``check_text_fit`` uses the latter to find overflows without producing a PDF.
Coordinates: boxes are given in mm from the top-left corner of the trim; the canvas origin is
the bottom-left corner of the bleed area.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.diagnostics import Diagnostic, error, warning
from toolkit.pnp import richtext
from toolkit.pnp.fonts import font_name, unprintable
from toolkit.pnp.glyphs import IconSet
from toolkit.pnp.layoutfile import Box, Design
from toolkit.pnp.templating import Templates, TemplateProblem, Where
from toolkit.pnp.units import ColourError, colour, mm


@dataclass
class Target:
    """What is being drawn, for messages: a component id and where it is written."""

    label: str  # e.g. "hero 'squire'"
    file: str
    line: int
    col: int = 1
    #: a component's own fields: where each value is written in ``file`` (line, col), by Jinja name
    fields: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)


@dataclass
class Collector:
    """Diagnostics met while drawing, without duplicates (many copies share one face)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    _seen: set[tuple[str, str, int, str]] = field(default_factory=set)

    def add(self, d: Diagnostic) -> None:
        key = (d.code, d.file, d.line, d.message)
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(d)


@dataclass
class DrawEnv:
    templates: Templates
    defaults: dict[str, Any]
    game_dir: Path
    collector: Collector
    icons: IconSet = field(default_factory=IconSet)
    art_errors: bool = False  # validate: missing art is an error; printing: a warning and a placeholder
    used_icons: dict[str, Target] = field(default_factory=dict)  # icon -> the first piece that prints it
    #: A text box's layout by (its rendered text, the box, its size): see ``_laid_out``.
    layouts: dict[tuple[str, int, float, float], tuple[Any, ...]] = field(default_factory=dict)
    #: A text box's (box, font, size, leading) by the box's id: see ``_one_line_size``.
    styles: dict[int, tuple[Any, str, float, float]] = field(default_factory=dict)


_DEFAULT_INK = "#222222"


def _ink(env: DrawEnv, box: Box, key: str, ctx: dict[str, Any], target: Target, fallback: str | None) -> tuple[float, float, float] | None:
    value = box.props.get(key, fallback)
    if value is None:
        return None
    where = box.where.get(key) or _nowhere(target)
    text = env.templates.render(str(value), where, ctx).strip()
    try:
        return colour(text)
    except ColourError as exc:
        env.collector.add(warning("HK404", f"{target.label}: {exc}", where.file, where.line))
        return None


def _nowhere(target: Target) -> Where:
    return Where(target.file, target.line)


def render_design(canvas: Any, design: Design, ctx: dict[str, Any], env: DrawEnv, target: Target,
                  bleed: float, data: dict[str, list[dict[str, Any]]]) -> None:
    """Draw (or, without canvas, lay out) every box of ``design`` for one component."""
    W, H = design.size
    for i, box in enumerate(design.boxes):
        if box.when is not None:
            cond = env.templates.render(box.when if "{" in box.when else "{{ " + box.when + " }}",
                                        box.where["when"], ctx).strip()
            if cond in ("", "False", "false", "0", "None", "[]", "{}"):
                continue
        x, y, w, h = box.x, box.y, box.w, box.h
        if box.type in ("rect", "ellipse") and box.props.get("bleed"):
            x0 = x - bleed if x <= 0 else x
            y0 = y - bleed if y <= 0 else y
            x1 = x + w + bleed if x + w >= W else x + w
            y1 = y + h + bleed if y + h >= H else y + h
            x, y, w, h = x0, y0, x1 - x0, y1 - y0
        px, py, pw, ph = mm(bleed + x), mm(bleed + H - y - h), mm(w), mm(h)
        if canvas is not None:
            canvas.saveState()
            if box.rotate:
                canvas.translate(px + pw / 2, py + ph / 2)
                canvas.rotate(box.rotate)
                if box.rotate in (90, 270):
                    pw, ph = ph, pw
                canvas.translate(-pw / 2, -ph / 2)
                px, py = 0.0, 0.0
        elif box.rotate in (90, 270):
            pw, ph = ph, pw
        try:
            _BOX_DRAW[box.type](canvas, box, px, py, pw, ph, ctx, env, target, data, i)
        finally:
            if canvas is not None:
                canvas.restoreState()


def _rect(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
          target: Target, data: Any, index: int) -> None:
    fill = _ink(env, box, "fill", ctx, target, None)
    stroke = _ink(env, box, "stroke", ctx, target, None)
    if c is None or (fill is None and stroke is None):
        return
    if fill:
        c.setFillColorRGB(*fill)
    if stroke:
        c.setStrokeColorRGB(*stroke)
        c.setLineWidth(float(box.props.get("stroke-width", 0.6)))
    r = mm(float(box.props.get("radius", 0)))
    if box.type == "ellipse":
        c.ellipse(x, y, x + w, y + h, stroke=stroke is not None, fill=fill is not None)
    elif r > 0:
        c.roundRect(x, y, w, h, r, stroke=stroke is not None, fill=fill is not None)
    else:
        c.rect(x, y, w, h, stroke=stroke is not None, fill=fill is not None)


def _hex(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
         target: Target, data: Any, index: int) -> None:
    """A hexagon filling the box: pointy top (corners at top and bottom) or flat top."""
    fill = _ink(env, box, "fill", ctx, target, None)
    stroke = _ink(env, box, "stroke", ctx, target, None)
    if c is None or (fill is None and stroke is None):
        return
    if box.props.get("orientation", "pointy") == "flat":
        pts = [(x + w / 4, y), (x + 3 * w / 4, y), (x + w, y + h / 2), (x + 3 * w / 4, y + h), (x + w / 4, y + h), (x, y + h / 2)]
    else:
        pts = [(x + w / 2, y + h), (x + w, y + 3 * h / 4), (x + w, y + h / 4), (x + w / 2, y), (x, y + h / 4), (x, y + 3 * h / 4)]
    _polygon(c, pts, fill, stroke, float(box.props.get("stroke-width", 0.6)))


def _polygon(c: Any, pts: list[tuple[float, float]], fill: Any, stroke: Any, width: float) -> None:
    if fill:
        c.setFillColorRGB(*fill)
    if stroke:
        c.setStrokeColorRGB(*stroke)
        c.setLineWidth(width)
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    p.close()
    c.drawPath(p, fill=fill is not None, stroke=stroke is not None)


_ARROW = {"right": (-1, 0, 1, 0), "left": (1, 0, -1, 0), "up": (0, -1, 0, 1), "down": (0, 1, 0, -1),
          "up-right": (-1, -1, 1, 1), "up-left": (1, -1, -1, 1), "down-right": (-1, 1, 1, -1), "down-left": (1, 1, -1, -1)}


def _arrow(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
           target: Target, data: Any, index: int) -> None:
    """An arrow across the box towards ``direction`` (right, up-left, ...), with a filled head."""

    stroke = _ink(env, box, "stroke", ctx, target, _DEFAULT_INK)
    if c is None or stroke is None:
        return
    fx, fy, tx, ty = _ARROW[str(box.props.get("direction", "right"))]
    cx, cy = x + w / 2, y + h / 2
    x1, y1, x2, y2 = cx + fx * w / 2, cy + fy * h / 2, cx + tx * w / 2, cy + ty * h / 2
    head = mm(float(box.props.get("head", 3)))
    ang = math.atan2(y2 - y1, x2 - x1)
    bx, by = x2 - head * math.cos(ang), y2 - head * math.sin(ang)
    c.setStrokeColorRGB(*stroke)
    c.setLineWidth(float(box.props.get("stroke-width", 1.5)))
    c.line(x1, y1, bx, by)
    side = head * 0.55
    pts = [(x2, y2), (bx + side * math.sin(ang), by - side * math.cos(ang)), (bx - side * math.sin(ang), by + side * math.cos(ang))]
    _polygon(c, pts, stroke, None, 0)


def _line(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
          target: Target, data: Any, index: int) -> None:
    stroke = _ink(env, box, "stroke", ctx, target, _DEFAULT_INK)
    if c is None or stroke is None:
        return
    c.setStrokeColorRGB(*stroke)
    c.setLineWidth(float(box.props.get("stroke-width", 0.6)))
    if box.props.get("dash"):
        c.setDash(2, 2)
    c.line(x, y + h, x + w, y)


def _check_icons(text: str, box: Box, key: str, env: DrawEnv, target: Target) -> None:
    """Unknown icons are HK402; known ones are noted, so an icon no legend explains can be found."""
    for name in richtext.icon_names(text):
        if name in env.icons:
            env.used_icons.setdefault(name, target)
            continue
        file, line, col = _icon_written(box.where.get(key), name, key, target, env)
        layout = f" (its {box.type} box is at {box.place()})" if box.file and file != box.file else ""
        from toolkit.diagnostics import did_you_mean

        guess = did_you_mean(name, env.icons.names)
        known = f"icons of this game: {', '.join(env.icons.names)}" if env.icons.names else "this game has no icons yet"
        hint = (f"{guess} ({known})" if guess else
                f"{known}; declare it in {env.icons.file} (docs/pnp.md, \"Icons and dice\")")
        env.collector.add(warning(
            "HK402", f"{target.label}: unknown icon ':{name}:' (drawn as '?'){layout}", file, line, col, hint))


def _icon_written(where: Where | None, name: str, key: str, target: Target,
                  env: DrawEnv | None = None) -> tuple[str, int, int]:
    """Where an unknown icon is written, so the message leads to the word to fix. When the layout
    itself is what is drawn (a board, a back, an extra): the name in the layout's value (as
    ``:name:`` in a text), else the value that makes it. On a component's face: the ``:name:`` in
    one of the component's own fields (its flavour text), else in the layout's template, else in the
    sentence text.yaml prints for one of its effects; else the component, as its other problems."""
    word = re.escape(name)
    pattern = re.compile(rf":{word}:" if key == "text" else rf"(?<![\w-]){word}(?![\w-])")
    if where is not None and where.file == target.file:
        found = where.find(pattern)
        if found is not None:
            return where.file, found[0], found[1]
        return where.file, where.line, where.col
    literal = where is not None and where.source is not None and "{" not in where.source[2]
    if literal and where is not None:  # the layout names the icon itself (icon: shel)
        found = where.find(pattern)
        if found is not None:
            return where.file, found[0], found[1]
    found_here = _in_component(target, pattern)
    if found_here is not None:
        return found_here
    effects = [w for _, w in env.templates.effects.values()] if env is not None and key == "text" else []
    for place in ([where] if where is not None else []) + effects:
        found = place.find(pattern)
        if found is not None:
            return place.file, found[0], found[1]
    return target.file, target.line, target.col


def _in_component(target: Target, pattern: re.Pattern[str]) -> tuple[str, int, int] | None:
    """The line and column of ``pattern`` in the component's own lines of its file, if there."""
    try:
        lines = Path(target.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    first = lines[target.line - 1] if 0 < target.line <= len(lines) else ""
    indent = len(first) - len(first.lstrip())
    for n in range(target.line - 1, len(lines)):
        text = lines[n]
        if n > target.line - 1 and text.lstrip().startswith("- ") and len(text) - len(text.lstrip()) <= indent:
            break  # the next item
        if text.lstrip().startswith("#"):
            continue
        m = pattern.search(text)
        if m is not None:
            return target.file, n + 1, m.start() + 1
    return None


def _text(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
          target: Target, data: Any, index: int) -> None:
    rendered = env.templates.render(str(box.props.get("text", "")), box.where.get("text") or _nowhere(target), ctx)
    if not rendered.isascii():
        _check_glyphs(env, box, rendered, target, index)
    if c is None:
        size = _one_line_size(env, box, rendered, w, h)
        if size is not None:  # checking only: plain text on one line at the box's own size
            _too_small(env, target, box, index, size)
            return
    _box, text, font, min_size, fitted = _laid_out(env, box, rendered, w, h)
    if fitted is None:
        return
    if ":" in text:
        _check_icons(text, box, "text", env, target)
    if fitted.overflow:
        _overflow(env, target, box, index, min_size)
    _too_small(env, target, box, index, fitted.size)
    if c is None:
        richtext.note_icons(fitted, env.icons)  # validate: the sizes icons print at (hairlines)
    else:
        ink = _ink(env, box, "colour", ctx, target, env.defaults.get("colour", _DEFAULT_INK)) or (0, 0, 0)
        richtext.draw(c, fitted, font, x, y, w, h, str(box.props.get("align", "left")),
                      str(box.props.get("valign", "top")), ink, env.icons)


def _laid_out(env: DrawEnv, box: Box, rendered: str, w: float, h: float) -> tuple[Any, ...]:
    """(box, text, font, min-size, fitted text or None when blank) for one box and rendered text.

    Kept per run: most boxes print the same text on many pieces (a cost, a type line, an effect
    sentence), and cleaning the text and reading the box's style is then done once, not per
    piece. The entry holds the box itself, so its ``id`` in the key cannot be reused meanwhile.
    """
    key = (rendered, id(box), w, h)
    laid = env.layouts.get(key)
    if laid is not None:
        return laid
    # runs of white space become one space, keeping line breaks and no-break spaces (U+00A0)
    text = richtext.BREAKS.sub(" ", rendered.replace("\n", "\x00")).strip(" ").replace("\x00", "\n")
    text = text.replace(" \n ", "\n")
    text = text.replace("\\n", "\n").strip()
    if not text.strip():
        laid = env.layouts[key] = (box, text, "", 0.0, None)
        return laid
    d = env.defaults
    font = font_name(str(box.props.get("font", d.get("font", "regular"))))
    size = float(box.props.get("size", d.get("size", 7)))
    min_size = float(box.props.get("min-size", d.get("min-size", min(size, 5))))
    fitted = richtext.fit(text, font, size, min(min_size, size), w, h,
                          float(box.props.get("leading", d.get("leading", 1.18))))
    laid = env.layouts[key] = (box, text, font, min_size, fitted)
    return laid


_NOT_PLAIN = ("*", ":", "\n", "\\", richtext.NBSP, "&nbsp;")  # bold, icons, line breaks (also \n), no-break spaces


def _one_line_size(env: DrawEnv, box: Box, rendered: str, w: float, h: float) -> float | None:
    """The size a plain text prints at when it fits on one line at its box's own size, else None.

    Checking a big game lays out thousands of short, distinct texts (names, titles) that fit at
    once; measuring the whole line answers what ``richtext.fit`` would, without building lines
    nobody draws. Anything else (markup, icons, several lines, a near miss) returns None and is
    laid out in full.
    """
    if any(mark in rendered for mark in _NOT_PLAIN):
        return None
    text = " ".join(rendered.split())
    if not text:
        return None
    style = env.styles.get(id(box))
    if style is None or style[0] is not box:
        d = env.defaults
        font = font_name(str(box.props.get("font", d.get("font", "regular"))))
        style = env.styles[id(box)] = (box, font, float(box.props.get("size", d.get("size", 7))),
                                       float(box.props.get("leading", d.get("leading", 1.18))))
    _box, font, size, leading = style
    width = richtext.text_width(text, font) * size
    if width > w + 0.01 - 1e-6 or 1 * size * leading > h + 0.01:
        return None
    return size


MIN_PRINT_PT = 6.0  # below this, printed text is hard to read at arm's length


def _too_small(env: DrawEnv, target: Target, box: Box, index: int, size: float) -> None:
    """Text that prints below 6 pt (as set, or after shrinking to fit) is a warning at the piece's line."""
    if size < MIN_PRINT_PT - 1e-6:
        name = box.props.get("name") or f"box {index + 1} ({box.type})"
        file, line, col, layout = _reported_at(target, box, env)
        env.collector.add(warning(
            "HK411", f"text of {target.label} in {name} prints at {size:g} pt, below {MIN_PRINT_PT:g} pt{layout}",
            file, line, col,
            "give the box more room or shorter text, or raise its size and min-size in layouts.yaml"))


def _check_glyphs(env: DrawEnv, box: Box, rendered: str, target: Target, index: int) -> None:
    """Characters the box's font has no glyph for print as empty boxes (HK413), once per piece and box."""
    d = env.defaults
    missing = unprintable(rendered, font_name(str(box.props.get("font", d.get("font", "regular")))))
    if not missing:
        return
    name = box.props.get("name") or f"box {index + 1} ({box.type})"
    shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" if ch.isprintable() else f"U+{ord(ch):04X}" for ch in missing[:5])
    more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
    file, line, col, layout = _reported_at(target, box, env)
    env.collector.add(warning(
        "HK413", f"text of {target.label} in {name} has characters the font cannot print: {shown}{more}{layout}",
        file, line, col,
        "they would print as empty boxes; the print font covers Western European letters and common "
        "punctuation: replace them, or use an icon (:name:) for a symbol"))


def _reported_at(target: Target, box: Box, env: DrawEnv) -> tuple[str, int, int, str]:
    """Where a problem of one box's text on one piece is reported, and the words naming the box's place.

    A piece made from content (a card) is reported in its content file, and the message names the
    box's ``file:line:col`` in layouts.yaml too: the fix is in one or the other. The place in the
    content file is the one field of the component the box's text reads (``{{ name }}``,
    ``{{ effect_text(effects) }}``), where its words are written; else (no field, or several) the
    component's own line. A piece the layout file itself makes (a back, an extra, a board) is
    reported at the box.
    """
    if not box.file:  # a box hordekit makes itself (a board's spaces and labels)
        return target.file, target.line, target.col, ""
    if box.file == target.file:
        return box.file, box.at[0], box.at[1], ""
    line, col = target.line, target.col
    read = [n for n in env.templates.names_read(str(box.props.get("text", ""))) if n in target.fields]
    if len(read) == 1:
        line, col = target.fields[read[0]]
    return target.file, line, col, f" (its {box.type} box is at {box.place()})"


def _overflow(env: DrawEnv, target: Target, box: Box, index: int, min_size: float) -> None:
    name = box.props.get("name") or f"box {index + 1} ({box.type})"
    file, line, col, layout = _reported_at(target, box, env)
    env.collector.add(warning(
        "HK401", f"text of {target.label} does not fit {name} even at {min_size:g} pt{layout}",
        file, line, col,
        "shorten the text, or give the box more room or a smaller min-size in layouts.yaml"))


def _icon(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
          target: Target, data: Any, index: int) -> None:
    name = env.templates.render(str(box.props.get("icon", "")), box.where.get("icon", _nowhere(target)), ctx).strip().strip(":")
    if not name:
        return
    _check_icons(f":{name}:", box, "icon", env, target)
    s = min(w, h)
    if c is None:
        env.icons.note(name, s)
    else:
        ink = _ink(env, box, "colour", ctx, target, _DEFAULT_INK) or (0, 0, 0)
        env.icons.draw(c, name, x + (w - s) / 2, y + (h - s) / 2, s, ink)


ART_DPI = 300  # art is downsampled to this resolution at its printed size; coarser art is HK416
ART_DPI_TOLERANCE = 0.02  # a pixel short of 300 dpi (rounding the box to whole pixels) is no warning
ART_TYPES = (".png", ".jpg", ".jpeg", ".svg")


def _art_problem(env: DrawEnv, target: Target, message: str, hint: str = "", where: Where | None = None) -> None:
    """Art problems: an error for ``hordekit validate``, a warning (and a placeholder) when printing;
    at the line that names the file (the component's ``art``, or the layout's ``image``)."""
    make = error if env.art_errors else warning
    file, line, col = (where.file, where.line, where.col) if where is not None else (target.file, target.line, target.col)
    env.collector.add(make("HK405", f"{target.label}: {message}", file, line, col, hint))


def _image(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
           target: Target, data: Any, index: int) -> None:
    """Art (PNG, JPEG or SVG) from the game's folder, scaled to fit the box; a placeholder when missing."""
    rel = env.templates.render(str(box.props.get("image", "")), box.where.get("image", _nowhere(target)), ctx).strip()
    if not rel:
        return
    from toolkit.games import inside

    root = env.game_dir.resolve()
    path = root / rel
    at = _art_where(box, target, rel)
    if not inside(path, root):  # symbolic links followed; a link loop counts as outside
        _art_problem(env, target, f"art '{rel}' lies outside the game's folder", "keep art inside the game's folder", at)
    elif path.suffix.lower() not in ART_TYPES:
        _art_problem(env, target, f"art '{rel}' is not PNG, JPEG or SVG", where=at)
    elif not path.is_file():
        _art_problem(env, target, f"art '{rel}' not found", f"looked for {path}", at)
    else:
        try:
            art = _open_art(path)  # validate: the file must be readable
        except Exception:  # a broken image file is the designer's content, not our bug
            _art_problem(env, target, f"art '{rel}' cannot be read as an image; a placeholder is printed",
                         "save the art as PNG, JPEG or SVG", at)
        else:
            if path.suffix.lower() != ".svg":
                _check_resolution(env, box, target, rel, art, w, h)
            if c is not None:
                _draw_art(c, path, art, x, y, w, h)
            return
    if c is not None:
        _placeholder(c, x, y, w, h)


def _open_art(path: Path) -> Any:
    if path.suffix.lower() == ".svg":
        from svglib.svglib import svg2rlg

        drawing = svg2rlg(str(path))
        if drawing is None:
            raise ValueError("not an SVG drawing")
        return drawing
    from PIL import Image

    img = Image.open(path)
    img.load()
    return img


def art_dpi(pixels: tuple[int, int], w: float, h: float) -> float:
    """The resolution (pixels per inch) of a bitmap of ``pixels`` scaled to fit a box of w x h pt."""
    scale = min(w / pixels[0], h / pixels[1])  # pt per pixel
    return 72 / scale


def _check_resolution(env: DrawEnv, box: Box, target: Target, rel: str, art: Any, w: float, h: float) -> None:
    """HK416 when a bitmap is coarser than ART_DPI at the size it prints, at the line naming it."""
    dpi = art_dpi(art.size, w, h)
    if dpi >= ART_DPI * (1 - ART_DPI_TOLERANCE):
        return
    scale = 72 / dpi
    printed = (art.size[0] * scale / 72 * 25.4, art.size[1] * scale / 72 * 25.4)
    need = (round(printed[0] / 25.4 * ART_DPI), round(printed[1] / 25.4 * ART_DPI))
    where = _art_where(box, target, rel)
    env.collector.add(warning(
        "HK416",
        f"{target.label}: art '{rel}' prints at {dpi:.0f} dpi ({art.size[0]} x {art.size[1]} pixels over "
        f"{printed[0]:.1f} x {printed[1]:.1f} mm); print shops ask for {ART_DPI} dpi, "
        f"{need[0]} x {need[1]} pixels at this size",
        where.file, where.line, where.col,
        "export the art at a higher resolution (enlarging a small image adds no detail), or print it smaller"))


def _art_where(box: Box, target: Target, rel: str) -> Where:
    """Where the art is named: the layout's ``image`` when it names the file itself, else the line
    of the component (from its own line on) that holds the path, else the component."""
    source = str(box.props.get("image", ""))
    if "{" not in source:
        return box.where.get("image", _nowhere(target))
    try:
        lines = Path(target.file).read_text(encoding="utf-8-sig").splitlines()  # a byte order mark is no column
    except (OSError, UnicodeDecodeError):
        return _nowhere(target)
    first = lines[target.line - 1] if 0 < target.line <= len(lines) else ""
    indent = len(first) - len(first.lstrip())
    for n in range(target.line - 1, len(lines)):
        text = lines[n]
        if n > target.line - 1 and text.lstrip().startswith("- ") and len(text) - len(text.lstrip()) <= indent:
            break  # the next item (a list inside this one, its effects say, is still this item)
        col = text.find(rel)
        if col >= 0:
            return Where(target.file, n + 1, col + 1)
    return _nowhere(target)


def _draw_art(c: Any, path: Path, art: Any, x: float, y: float, w: float, h: float) -> None:
    """Scale to fit, centred; bitmaps above 300 DPI at that size are downsampled first."""
    import hashlib

    c.addLiteral(f"% art {hashlib.sha256(path.read_bytes()).hexdigest()[:16]}")  # what changed-since compares
    if path.suffix.lower() == ".svg":
        from reportlab.graphics import renderPDF

        scale = min(w / max(art.width, 1e-6), h / max(art.height, 1e-6))
        c.saveState()
        c.translate(x + (w - art.width * scale) / 2, y + (h - art.height * scale) / 2)
        c.scale(scale, scale)
        if hasattr(c, "_doc"):
            renderPDF.draw(art, c, 0, 0)
        c.restoreState()
        return
    from toolkit.pnp.cmyk import image_for

    scale = min(w / art.width, h / art.height)
    dw, dh = art.width * scale, art.height * scale
    need = (max(1, round(dw / 72 * ART_DPI)), max(1, round(dh / 72 * ART_DPI)))
    if art.width > need[0] or art.height > need[1]:
        art = art.resize(need)
    c.drawImage(image_for(c, art), x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, mask="auto")


def _placeholder(c: Any, x: float, y: float, w: float, h: float) -> None:
    """Missing art prints as a grey crossed box saying so, never as an empty hole."""
    from toolkit.pnp.fonts import FONTS

    c.setFillColorRGB(0.9, 0.9, 0.9)
    c.setStrokeColorRGB(0.55, 0.55, 0.55)
    c.setLineWidth(0.5)
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.line(x, y, x + w, y + h)
    c.line(x, y + h, x + w, y)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    c.setFont(FONTS["bold"], 6)
    c.drawCentredString(x + w / 2, y + h / 2 - 2, "art missing")


def _list(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
          target: Target, data: dict[str, list[dict[str, Any]]], index: int) -> None:
    """Rows rendered from the items of another kind, flowed into columns, optionally with tick boxes."""
    from toolkit.pnp.templating import context_of

    d = env.defaults
    items = list(data.get(str(box.props.get("source", "")), []))
    sort = box.props.get("sort")
    if sort:
        items.sort(key=lambda it: (str(type(it.get(sort))), it.get(sort)))
    row_src = str(box.props.get("row", "{{ name }}"))
    rows = []
    for it in items:
        text = env.templates.render(row_src, box.where.get("row", _nowhere(target)), {**ctx, **context_of(it), "item": it})
        text = " ".join(text.split())
        _check_icons(text, box, "row", env, target)
        if not text.isascii():
            _check_glyphs(env, box, text, target, index)
        rows.append(text)
    columns = max(1, int(box.props.get("columns", 1)))
    gap = mm(float(box.props.get("gap", 3)))
    tick = bool(box.props.get("tick", False))
    font = font_name(str(box.props.get("font", d.get("font", "regular"))))
    size = float(box.props.get("size", d.get("size", 7)))
    min_size = float(box.props.get("min-size", d.get("min-size", 4)))
    leading = float(box.props.get("leading", 1.12))
    colw = (w - gap * (columns - 1)) / columns
    s = size
    while True:
        tickw = s * 1.4 if tick else 0.0
        laid = [richtext.fit(r, font, s, s, colw - tickw, 1e9, leading) for r in rows]
        cols: list[list[int]] = [[]]
        used = 0.0
        ok = True
        for i, f in enumerate(laid):
            rh = f.height + s * 0.25
            if used + rh > h + 0.01 and cols[-1]:
                cols.append([])
                used = 0.0
            if any(ln.width > colw - tickw + 0.01 for ln in f.lines):
                ok = False
            cols[-1].append(i)
            used += rh
        if len(cols) > columns:
            ok = False
        if ok or s - 0.25 < min_size:
            break
        s = round(s - 0.25, 2)
    if not ok:
        _overflow(env, target, box, index, min_size)
    _too_small(env, target, box, index, s)
    if c is None:
        for f in laid:
            richtext.note_icons(f, env.icons)
        return
    ink = _ink(env, box, "colour", ctx, target, d.get("colour", _DEFAULT_INK)) or (0, 0, 0)
    for ci, col in enumerate(cols):
        cx = x + ci * (colw + gap)
        top = y + h
        for i in col:
            f = laid[i]
            if tick:
                c.setStrokeColorRGB(*ink)
                c.setLineWidth(0.5)
                c.setFillColorRGB(1, 1, 1)
                c.rect(cx, top - s * 0.95, s * 0.85, s * 0.85, stroke=1, fill=1)
            richtext.draw(c, f, font, cx + tickw, top - f.height, colw - tickw, f.height, "left", "top", ink, env.icons)
            top -= f.height + s * 0.25


def _cells(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
           target: Target, data: Any, index: int) -> None:
    """A numbered track: ``count`` cells in ``columns`` columns, e.g. the rounds of a game."""
    d = env.defaults
    try:
        count = int(env.templates.render(str(box.props.get("count", 1)), box.where.get("count", _nowhere(target)), ctx))
    except ValueError:
        count = 1
    count = max(1, min(count, 400))
    columns = max(1, int(box.props.get("columns", count)))
    rows = -(-count // columns)
    cw, chh = w / columns, h / rows
    if c is None:
        return
    stroke = _ink(env, box, "stroke", ctx, target, _DEFAULT_INK)
    ink = _ink(env, box, "colour", ctx, target, d.get("colour", _DEFAULT_INK)) or (0, 0, 0)
    font = font_name(str(box.props.get("font", "bold")))
    size = float(box.props.get("size", 9))
    for n in range(1, count + 1):
        r, col = divmod(n - 1, columns)
        cx, cy = x + col * cw, y + h - (r + 1) * chh
        cctx = {**ctx, "n": n}
        fill = _ink(env, box, "fill", cctx, target, None)
        hl = box.props.get("highlight")
        if hl and env.templates.render("{{ " + str(hl) + " }}" if "{" not in str(hl) else str(hl), box.where["highlight"], cctx).strip() in ("True", "true", "1"):
            fill = _ink(env, box, "highlight-fill", cctx, target, "#f6d7b0")
        if fill:
            c.setFillColorRGB(*fill)
        if stroke:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(float(box.props.get("stroke-width", 0.8)))
        c.rect(cx, cy, cw, chh, stroke=stroke is not None, fill=fill is not None)
        label = env.templates.render(str(box.props.get("text", "{{ n }}")), box.where.get("text", _nowhere(target)), cctx)
        fitted = richtext.fit(label, font, size, 4, cw * 0.9, chh * 0.9)
        richtext.draw(c, fitted, font, cx + cw * 0.05, cy + chh * 0.05, cw * 0.9, chh * 0.9, "center", "middle", ink, env.icons)


def _legend(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: DrawEnv,
            target: Target, data: Any, index: int) -> None:
    """The game's icon legend (toolkit.pnp.legend), imported only by layouts that have one."""
    from toolkit.pnp.legend import draw_legend

    draw_legend(c, box, x, y, w, h, ctx, env, target, data, index)


_BOX_DRAW = {"rect": _rect, "ellipse": _rect, "hex": _hex, "arrow": _arrow, "line": _line, "text": _text, "icon": _icon, "image": _image,
             "list": _list, "cells": _cells, "legend": _legend}

__all__ = ["render_design", "DrawEnv", "Target", "Collector", "TemplateProblem"]
