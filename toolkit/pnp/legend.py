"""The printed icon legend: each icon at its printed size, beside its rule word and what it means.

A ``legend`` box in layouts.yaml lists the game's icons from icons.yaml in the file's order (or
the ones its ``icons`` names, minus ``exclude``), so a new icon appears in the legend with no
layout change. The faces of one die share an entry: they are printed side by side, once, with
the die's word. Entries never shrink below the box's text size; in an extra (a legend card),
entries that do not fit flow onto further copies of the design, each a piece of its own
(``icon-legend``, ``icon-legend-2``, ...), and templates see ``legend.page`` and ``legend.pages``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from toolkit.diagnostics import Diagnostic, warning
from toolkit.pnp import richtext
from toolkit.pnp.fonts import font_name
from toolkit.pnp.glyphs import IconSet
from toolkit.pnp.layoutfile import Box, Design, Layouts
from toolkit.pnp.units import mm

LEGEND_BOX = "legend"
DASH = " \u2013 "  # between an entry's rule word and its meaning
STRIP_GAP = 0.2  # space between the faces of one die, in icon widths
ROW_GAP = 1.2  # mm between entries, unless the box says 'gap'


@dataclass(frozen=True)
class Entry:
    """One legend line: one icon (or all faces of a die) and the text printed beside it."""

    icons: tuple[str, ...]
    word: str
    legend: str

    @property
    def text(self) -> str:
        return f"**{self.word}**{DASH}{self.legend}"


@dataclass(frozen=True)
class Style:
    """A legend box's measures in points, read once from its properties and the layout defaults."""

    font: str
    size: float
    leading: float
    icon: float  # an icon's side
    gap: float  # between entries
    columns: int
    column_gap: float

    def gutter(self) -> float:
        """Where an entry's text starts: right of its icon, with a little air."""
        return self.icon + self.size * 0.45


@dataclass
class Laid:
    """An entry laid out in one column: the rows of its icons, its text, and its height."""

    entry: Entry
    strip: list[list[str]]  # icon rows: one row of one icon, or a die's faces wrapped to the column
    fitted: richtext.Fitted
    icon_top: float  # offsets from the entry's top, points
    text_top: float
    height: float


def entries(icons: IconSet, box: Box) -> tuple[list[Entry], list[str]]:
    """The box's entries in order, and the names it asks for that the game does not declare.

    ``icons`` may name single icons or a die (all its faces); ``exclude`` the same.
    """
    wanted = [str(n) for n in box.props.get("icons") or []]
    excluded = {str(n) for n in box.props.get("exclude") or []}
    by_group: dict[str, list[str]] = {}
    for icon in icons.icons.values():
        if icon.group:
            by_group.setdefault(icon.group, []).append(icon.name)
    if wanted:
        unknown = [n for n in wanted if n not in icons and n not in by_group]
        names = [m for n in wanted for m in by_group.get(n, [n] if n in icons else [])]
    else:
        unknown, names = [], list(icons.icons)
    out: list[Entry] = []
    seen: set[str] = set()
    for name in names:
        icon = icons.icons[name]
        if name in seen or name in excluded or (icon.group and icon.group in excluded):
            continue
        if icon.group:
            faces = tuple(n for n in by_group[icon.group] if n in names and n not in excluded)
            seen.update(faces)
            out.append(Entry(faces, icon.word, icon.group_legend))
        else:
            seen.add(name)
            out.append(Entry((name,), icon.word, icon.legend))
    return out, unknown


def style_of(box: Box, defaults: dict[str, Any]) -> Style:
    size = float(box.props.get("size", defaults.get("size", 7)))
    icon_mm = box.props.get("icon-size")
    return Style(font=font_name(str(box.props.get("font", defaults.get("font", "regular")))), size=size,
                 leading=float(box.props.get("leading", defaults.get("leading", 1.18))),
                 icon=mm(float(icon_mm)) if icon_mm else richtext.ICON_EM * size,
                 gap=mm(float(box.props.get("gap", ROW_GAP))), columns=max(1, int(box.props.get("columns", 1))),
                 column_gap=mm(float(box.props.get("column-gap", 3))))


def lay_out(entry: Entry, style: Style, width: float) -> Laid:
    """One entry in a column ``width`` points wide: a die's faces wrap into rows above its text."""
    gutter = style.gutter()
    fitted = richtext.fit(entry.text, style.font, style.size, style.size, max(width - gutter, 1.0), 1e9,
                          style.leading)
    line = fitted.leading
    if len(entry.icons) == 1:
        strip = [list(entry.icons)]
        icon_top = max(0.0, (line - style.icon) / 2)  # centred on the first line of text
        text_top = max(0.0, (style.icon - line) / 2)
        return Laid(entry, strip, fitted, icon_top, text_top, max(icon_top + style.icon, text_top + fitted.height))
    step = style.icon * (1 + STRIP_GAP)
    per_row = max(1, int((width + style.icon * STRIP_GAP) // step))
    strip = [list(entry.icons[i:i + per_row]) for i in range(0, len(entry.icons), per_row)]
    text_top = len(strip) * step
    return Laid(entry, strip, fitted, 0.0, text_top, text_top + fitted.height)


def paginate(laid: list[Laid], style: Style, height: float) -> list[list[list[Laid]]]:
    """Pages of columns of entries: a column takes entries while they fit, then the next column or page."""
    pages: list[list[list[Laid]]] = [[[]]]
    used = 0.0
    for item in laid:
        column = pages[-1][-1]
        need = item.height + (style.gap if column else 0.0)
        if column and used + need > height + 0.01:
            if len(pages[-1]) < style.columns:
                pages[-1].append([])
            else:
                pages.append([[]])
            used, need = 0.0, item.height
        pages[-1][-1].append(item)
        used += need
    return pages


def unknown_names(icons: IconSet, box: Box) -> list[tuple[str, int, str]]:
    """(key, index, name) for each name in the box's ``icons`` and ``exclude`` that is no icon or die."""
    groups = {icon.group for icon in icons.icons.values() if icon.group}
    return [(key, i, str(n)) for key in ("icons", "exclude") for i, n in enumerate(box.props.get(key) or [])
            if str(n) not in icons and str(n) not in groups]


def column_width(style: Style, width: float) -> float:
    return (width - style.column_gap * (style.columns - 1)) / style.columns


def plan(icons: IconSet, box: Box, defaults: dict[str, Any]) -> tuple[Style, list[list[list[Laid]]], list[str]]:
    """The box's pages, laid out in points (the box's own w and h are millimetres)."""
    from toolkit.pnp.fonts import register_fonts

    register_fonts()  # entries are measured in the fonts they print in
    style = style_of(box, defaults)
    found, unknown = entries(icons, box)
    width = column_width(style, mm(box.w))
    return style, paginate([lay_out(e, style, width) for e in found], style, mm(box.h)), unknown


def legend_box(design: Design) -> Box | None:
    return next((b for b in design.boxes if b.type == LEGEND_BOX), None)


# --- drawing ----------------------------------------------------------------------------------

def draw_legend(c: Any, box: Box, x: float, y: float, w: float, h: float, ctx: dict[str, Any], env: Any,
                target: Any, data: Any, index: int) -> None:
    """Draw the entries of this piece's page of the legend (page 1 outside a paged extra)."""
    from toolkit.pnp.draw import _DEFAULT_INK, _ink, _overflow, _too_small

    style, pages, _unknown = plan(env.icons, box, env.defaults)
    for key, i, name in unknown_names(env.icons, box):
        where = box.where.get(f"{key}[{i}]") or box.where.get(key)
        file, line, col = (where.file, where.line, where.col) if where else (target.file, target.line, target.col)
        left = "left out" if key == "icons" else "nothing to leave out"
        layout = f" (its legend box is at {box.place()})" if box.file and file != box.file else ""
        env.collector.add(warning(
            "HK402", f"the legend of {target.label} names {name!r} in its {key}, not an icon or die of icons.yaml "
            f"({left}){layout}", file, line, col, f"icons of this game: {', '.join(env.icons.names) or 'none'}"))
    _too_small(env, target, box, index, style.size)
    info = ctx.get("legend")
    paged = isinstance(info, dict) and "pages" in info  # an extra's legend card (a content field may be 'legend')
    page_no = int(info["page"]) if paged else 1
    colw = column_width(style, w)
    if (len(pages) > 1 and not paged) or any(
            ln.width > colw - style.gutter() + 0.01 or it.height > h + 0.01
            for page in pages for col in page for it in col for ln in it.fitted.lines):
        _overflow(env, target, box, index, style.size)
    if not 1 <= page_no <= len(pages):
        return
    if c is None:  # validate: note the sizes the icons print at (hairlines)
        for column in pages[page_no - 1]:
            for item in column:
                for row in item.strip:
                    for name in row:
                        env.icons.note(name, style.icon)
                richtext.note_icons(item.fitted, env.icons)
        return
    ink = _ink(env, box, "colour", ctx, target, env.defaults.get("colour", _DEFAULT_INK)) or (0, 0, 0)
    for ci, column in enumerate(pages[page_no - 1]):
        left = x + ci * (colw + style.column_gap)
        top = y + h
        for item in column:
            _draw_entry(c, item, style, left, top, colw, ink, env.icons)
            top -= item.height + style.gap


def _draw_entry(c: Any, item: Laid, style: Style, left: float, top: float, width: float,
                ink: tuple[float, float, float], icons: IconSet) -> None:
    step = style.icon * (1 + STRIP_GAP)
    for r, row in enumerate(item.strip):
        for i, name in enumerate(row):
            icons.draw(c, name, left + i * step, top - item.icon_top - r * step - style.icon, style.icon, ink)
    gutter = style.gutter()
    f = item.fitted
    richtext.draw(c, f, style.font, left + gutter, top - item.text_top - f.height, width - gutter, f.height,
                  "left", "top", ink, icons)


# --- a legend card that needs more than one card -------------------------------------------

def widen_only(only: set[str] | None, layouts: Layouts) -> set[str] | None:
    """``--only icon-legend-2`` (as ``--changed-since`` names later legend cards) keeps the extra."""
    if only is None:
        return None
    return only | {name for name in layouts.extras for o in only if o.startswith(f"{name}-")}


def paginate_faces(faces: list[Any], icons: IconSet, layouts: Layouts, only: set[str] | None) -> list[Any]:
    """Each extra with a legend box becomes one face per page of its legend."""
    from toolkit.pnp.faces import form_key

    out: list[Any] = []
    for face in faces:
        box = legend_box(face.design) if face.group in layouts.extras else None
        if box is None:
            out.append(face)
            continue
        _, pages, _ = plan(icons, box, layouts.defaults)
        for n in range(1, len(pages) + 1):
            pid = face.item_id if n == 1 else f"{face.item_id}-{n}"
            if only is not None and face.group not in only and pid not in only:
                continue
            ctx = {**face.ctx, "legend": {"page": n, "pages": len(pages)}}
            out.append(dataclasses.replace(face, key=form_key(face.group, pid), item_id=pid, ctx=ctx))
    return out


# --- every icon printed in text has a legend entry ----------------------------------------------

def legend_names(icons: IconSet, layouts: Layouts) -> set[str] | None:
    """The icons some legend box of the game shows; None when the game prints no legend at all."""
    designs = [*layouts.kinds.values(), *layouts.backs.values(), *layouts.extras.values()]
    boxes = [b for d in designs for b in d.boxes if b.type == LEGEND_BOX]
    boxes += [b for board in layouts.boards.values() for b in board.boxes if b.type == LEGEND_BOX]
    if not boxes:
        return None
    return {n for b in boxes for e in entries(icons, b)[0] for n in e.icons}


def unexplained_icons(used: dict[str, Any], icons: IconSet, layouts: Layouts) -> list[Diagnostic]:
    """HK412 for each icon printed on a piece that the game's legend leaves out, at the first piece printing it.

    A game that prints no legend at all is not checked: it has chosen not to print one (every
    icon still carries its ``legend`` text in icons.yaml, which the schema requires).
    """
    shown = legend_names(icons, layouts)
    if shown is None:
        return []
    return [warning("HK412", f"{target.label} prints the icon ':{name}:' but the game's legend leaves it out",
                    target.file, target.line, target.col,
                    f"players need its rule word: list it in the legend box of {layouts.file.name} "
                    "(or take it out of the box's 'exclude')")
            for name, target in sorted(used.items()) if name in icons and name not in shown]
