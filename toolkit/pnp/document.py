"""From loaded content to a print-and-play PDF: plan the sheets, draw each face once, place copies.

The file is written next to its final path and moved into place with ``os.replace`` only when
everything succeeded, so a failed or interrupted run never leaves half a PDF and never destroys
the previous one.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from toolkit.diagnostics import Diagnostic, Severity, error
from toolkit.games import LoadedGame
from toolkit.paths import display
from toolkit.pnp.board import BoardPlan, board_design, board_safe_zone, choose_plan, draw_board_page, keep_clear
from toolkit.pnp.draw import Collector, DrawEnv, Target, render_design
from toolkit.pnp.drawnonce import DrawnOnce
from toolkit.pnp.faces import Face, base_context, collect_faces
from toolkit.pnp.furniture import draw_furniture, fit_list, footer_fits, sheet_boxes, version_mark
from toolkit.pnp.layoutfile import Board, Design, Layouts, effect_templates, read_layouts
from toolkit.pnp.sheets import Grid, Slot, fit_below, make_grid, used_bottom
from toolkit.pnp.glyphs import read_icons
from toolkit.pnp.safezone import default_safe_margin
from toolkit.pnp.legend import paginate_faces, unexplained_icons, widen_only
from toolkit.pnp.templating import Templates, TemplateProblem, Where
from toolkit.pnp.units import PAPERS, mm

BACK_MODES = ("duplex-long", "duplex-short", "separate", "none")
#: The papers a board's seams are checked on: a game's PDF is printed on either.
PAPER_NAMES = {"A4": PAPERS["a4"], "US letter": PAPERS["letter"]}
Progress = Callable[[int], None]


@dataclass
class PnpReport:
    """What a run printed: pages, faces per kind (copies included), file size, problems."""

    output: Path | None
    pages: int = 0
    faces: dict[str, int] = field(default_factory=dict)
    bytes: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # imposition choices worth telling (pieces turned)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


@dataclass
class Placement:
    form: str
    slot: Slot


@dataclass
class Page:
    label: str  # what the footer says this sheet holds
    placements: list[Placement] = field(default_factory=list)
    grid: Grid | None = None
    back_of: int | None = None  # index of the front page this is the back of
    front_no: int = 0  # for a back page: the page number of its front
    board: tuple[str, BoardPlan, Any] | None = None
    #: the blocks of pieces on the sheet, each a grid and how many of the placements (in order) it
    #: holds; empty: one block, ``grid`` with every placement
    blocks: list[tuple[Grid, int]] = field(default_factory=list)

    def grids(self) -> list[tuple[Grid, int]]:
        if self.blocks:
            return self.blocks
        return [(self.grid, len(self.placements))] if self.grid is not None else []


@dataclass
class BackForm:
    design: Design
    ctx: dict[str, Any]
    target: Target


@dataclass
class Prepared:
    """Everything needed to draw, checked: layouts, templates and faces."""

    layouts: Layouts
    templates: Templates
    faces: list[Face]
    env: DrawEnv
    boards: dict[str, Design] = field(default_factory=dict)  # board name -> the board as one design


def prepare(loaded: LoadedGame, only: set[str] | None = None) -> tuple[Prepared | None, list[Diagnostic]]:
    game = loaded.game
    if game is None or not loaded.ok:
        return None, [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    layouts, diags = read_layouts(game.templates_dir)
    if layouts is None:
        return None, diags
    effects, tdiags = effect_templates(game.templates_dir)
    if tdiags:
        return None, tdiags
    lookup = {str(it.get("id")): it for items in loaded.data.values() for it in items if isinstance(it, dict)}
    templates = Templates(effects, lookup)
    try:
        icons, idiags = read_icons(game.templates_dir, _icon_template_renderer(templates, loaded, game.templates_dir))
    except TemplateProblem as exc:
        return None, [error("HK403", exc.message, exc.file, exc.line, exc.col, exc.hint(
            "a die's `faces` template sees the game's components: `ref(id)` is the component of that id"))]
    if any(d.severity is Severity.ERROR for d in idiags):
        return None, idiags
    faces, fdiags = collect_faces(loaded, layouts, widen_only(only, layouts))
    faces = paginate_faces(faces, icons, layouts, only)
    env = DrawEnv(templates, layouts.defaults, game.dir, Collector(), icons)
    for d in diags + fdiags:  # the layouts' warnings, then the faces'
        env.collector.add(d)
    prepared = Prepared(layouts, templates, faces, env)
    for bname, board in layouts.boards.items():
        if only is not None and bname not in only and "board" not in only:
            continue
        try:
            prepared.boards[bname] = _board_design(board, templates, base_context(loaded))
            for d in board_safe_zone(board, prepared.boards[bname].size, PAPER_NAMES):
                env.collector.add(d)
        except (TemplateProblem, ValueError) as exc:
            message = exc.message if isinstance(exc, TemplateProblem) else str(exc)
            env.collector.add(error("HK403", f"board '{bname}': {message}", board.where.file, board.where.line))
    return prepared, []


def _board_design(board: Board, templates: Templates, ctx: dict[str, Any]) -> Design:
    """A board's columns and rows may be templates reading content (the rules' board size)."""
    cols = int(templates.render(str(board.columns), board.where, ctx))
    rows = int(templates.render(str(board.rows), board.where, ctx))
    return board_design(board, max(1, min(cols, 100)), max(1, min(rows, 100)), templates, ctx)


def _icon_template_renderer(templates: Templates, loaded: LoadedGame, folder: Path) -> Callable[[str, int, int], str]:
    """Dice faces in icons.yaml may be a template reading content (reading a die's faces with ``ref(id)``)."""
    from toolkit.pnp.glyphs import ICON_FILE

    def render(source: str, line: int, col: int = 1) -> str:
        return templates.render(source, Where(display(folder / ICON_FILE), line, col), base_context(loaded))
    return render


def _render(canvas: Any, design: Design, ctx: dict[str, Any], env: DrawEnv, target: Target, bleed: float,
            loaded: LoadedGame) -> None:
    try:
        render_design(canvas, design, ctx, env, target, bleed, loaded.data)
    except TemplateProblem as exc:
        env.collector.add(error("HK403", f"{exc.message} (while printing {target.label}, {target.file}:{target.line})",
                                exc.file, exc.line, exc.col, exc.hint("fix the template; see docs/pnp.md for what templates see")))


def check_text_fit(loaded: LoadedGame) -> list[Diagnostic]:
    """Lay every face out without drawing: text overflows (HK401) and other print problems.

    Games without a layouts.yaml have nothing to check and give no diagnostics.
    """
    game = loaded.game
    if game is None or not loaded.ok or not (game.templates_dir / "layouts.yaml").is_file():
        return []
    prepared, diags = prepare(loaded)
    if prepared is None:
        return diags
    from toolkit.pnp.fonts import register_fonts

    register_fonts()  # text is measured with the same fonts it will be printed in
    prepared.env.art_errors = True
    for face in prepared.faces:
        _render(None, face.design, face.ctx, prepared.env, face.target, 0.0, loaded)
    for bname, design in prepared.boards.items():
        where = prepared.layouts.boards[bname].where
        _render(None, design, base_context(loaded), prepared.env, Target(f"board '{bname}'", where.file, where.line),
                0.0, loaded)
    _check_backs(prepared, loaded)
    for d in unexplained_icons(prepared.env.used_icons, prepared.env.icons, prepared.layouts):
        prepared.env.collector.add(d)
    for d in prepared.env.icons.hairlines():
        prepared.env.collector.add(d)
    return prepared.env.collector.diagnostics


def _check_backs(prepared: Prepared, loaded: LoadedGame) -> None:
    for name, design in prepared.layouts.backs.items():
        if design.per_item:
            for face in prepared.faces:
                if face.design.back == name:
                    _render(None, Design(name, face.design.size, design.boxes), {**face.ctx, "deck": name},
                            prepared.env, face.target, 0.0, loaded)
            continue
        target = Target(f"back '{name}'", design.where.file if design.where else "", design.where.line if design.where else 1)
        _render(None, design, {**base_context(loaded), "deck": name}, prepared.env, target, 0.0, loaded)


def _back_form(name: str, size: tuple[float, float]) -> str:
    return f"back:{name}:{size[0]:g}x{size[1]:g}"


def _back_key(prepared: Prepared, loaded: LoadedGame, f: Face, backs: str, back_forms: dict[str, BackForm]) -> str | None:
    """The form name of face ``f``'s back (registering it in ``back_forms``), or None without one."""
    design = f.design
    back = design.back if backs != "none" else None
    if not back:
        return None
    if back == "front":  # double-sided: the face again, as its own form so pieces count once
        back_forms[f"back:front:{f.key}"] = BackForm(design, f.ctx, f.target)
        return f"back:front:{f.key}"
    bdesign = prepared.layouts.backs[back]
    key = _back_form(back, design.size) + (f":{f.key}" if bdesign.per_item else "")
    ctx = {**(f.ctx if bdesign.per_item else base_context(loaded)), "deck": back}
    target = f.target if bdesign.per_item else Target(
        f"back '{back}'", bdesign.where.file if bdesign.where else "", bdesign.where.line if bdesign.where else 1)
    back_forms[key] = BackForm(Design(bdesign.name, design.size, bdesign.boxes, where=bdesign.where), ctx, target)
    return key


def plan_pages(prepared: Prepared, loaded: LoadedGame, paper: tuple[float, float], bleed: float,
               backs: str) -> tuple[list[Page], dict[str, BackForm], list[Diagnostic], list[str]]:
    """Fronts in kind order; kinds of the same size share sheets (ganged); backs per the duplex mode."""
    fronts: list[Page] = []
    back_pages: dict[int, Page] = {}
    back_forms: dict[str, BackForm] = {}
    diags: list[Diagnostic] = []
    notes: list[str] = []
    groups: dict[tuple[float, float], list[Face]] = {}
    for face in prepared.faces:
        groups.setdefault(face.design.size, []).append(face)
    last_pages: list[int] = []        # each size's last (least full) front page
    back_keys: dict[str, str] = {}    # face form -> its back's form
    mode = "duplex-short" if backs == "duplex-short" else "duplex-long"
    for size, faces in groups.items():
        kinds = list(dict.fromkeys(f.group for f in faces))
        label = ", ".join(kinds)
        grid = make_grid(paper, size, bleed)
        if grid is None:
            where = faces[0].design.where
            diags.append(error("HK407", f"'{label}' ({size[0]:g} × {size[1]:g} mm plus {bleed:g} mm bleed) does not fit "
                               f"inside the printable area of the paper (5 mm from every edge)",
                               where.file if where else "", where.line if where else 1))
            continue
        if grid.rotated:
            notes.append(f"{label}: {grid.per_page} per sheet, turned sideways (more fit that way than upright "
                         "inside the 5 mm printable margin)")
        copies = [f for f in faces for _ in range(f.copies)]
        bforms = {f.key: k for f in faces if (k := _back_key(prepared, loaded, f, backs, back_forms))}
        back_keys.update(bforms)
        for start in range(0, len(copies), grid.per_page):
            chunk = copies[start:start + grid.per_page]
            page = Page(label, [Placement(f.key, grid.slot(i)) for i, f in enumerate(chunk)], grid)
            fronts.append(page)
            if backs != "none":
                bp = Page(label, [], grid, back_of=len(fronts) - 1)
                bp.placements = [Placement(bforms[p.form], grid.back_of(p.slot, mode))
                                 for p in page.placements if p.form in bforms]
                back_pages[len(fronts) - 1] = bp
        if copies:
            last_pages.append(len(fronts) - 1)
    fronts, back_pages = _share_sheets(fronts, back_pages, last_pages, back_keys, paper, bleed, mode)
    for bname, design in prepared.boards.items():
        board = prepared.layouts.boards[bname]
        plan, upright = choose_plan(design.size, board.overlap, paper,
                                    keep_clear(board, design.size, default_safe_margin(design.size)))
        if plan.turned:  # fewer sheets to cut and glue when turned a quarter
            notes.append(f"board '{bname}': turned sideways, {len(plan.windows)} sheet(s) instead of {upright}")
        for copy in range(1, board.quantity + 1):
            title = board.title if board.quantity == 1 else f"{board.title}, copy {copy} of {board.quantity}"
            for win in plan.windows:
                label = f"{title}, sheet {chr(65 + win.row)}{win.col + 1} of {plan.rows} × {plan.columns}"
                fronts.append(Page(label, board=(bname, plan, win)))
                if backs in ("duplex-long", "duplex-short"):
                    back_pages[len(fronts) - 1] = Page(title, back_of=len(fronts) - 1)
    pages: list[Page] = []
    if backs in ("duplex-long", "duplex-short"):
        for i, p in enumerate(fronts):
            pages.append(p)
            if i in back_pages:
                pages.append(back_pages[i])
    else:
        pages = fronts + [bp for i, bp in sorted(back_pages.items()) if bp.placements]
    numbers = {id(p): n for n, p in enumerate(pages, start=1)}
    for p in pages:
        if p.back_of is not None:
            p.front_no = numbers.get(id(fronts[p.back_of]), 0)
    return pages, back_forms, diags, notes


def _share_sheets(fronts: list[Page], back_pages: dict[int, Page], last_pages: list[int], back_keys: dict[str, str],
                  paper: tuple[float, float], bleed: float, mode: str) -> tuple[list[Page], dict[int, Page]]:
    """Move each size's last sheet under the pieces of an earlier sheet when all of it fits there
    (a block of its own, with its own crop marks), so a sheet is not spent on a lone strip; the
    backs follow their fronts."""
    gone: set[int] = set()
    for i in last_pages:
        page = fronts[i]
        assert page.grid is not None
        n = len(page.placements)
        for j in last_pages:
            if j >= i or j in gone:
                continue
            host = fronts[j]
            top = min(used_bottom(g, k) for g, k in host.grids())
            block = fit_below(paper, page.grid.size, bleed, top, n)
            if block is None:
                continue
            moved = [Placement(p.form, block.slot(k)) for k, p in enumerate(page.placements)]
            host.blocks = host.grids() + [(block, n)]
            host.placements = host.placements + moved
            host.label = ", ".join(dict.fromkeys(host.label.split(", ") + page.label.split(", ")))
            back = back_pages.get(j)
            if back is not None:
                back.label = host.label
                per_block = [(g, [p for p in host.placements[start:start + k] if p.form in back_keys])
                             for (g, k), start in zip(host.blocks, _starts(host.blocks))]
                back.blocks = [(g, len(backed)) for g, backed in per_block]
                back.placements = [Placement(back_keys[p.form], g.back_of(p.slot, mode))
                                   for g, backed in per_block for p in backed]
            gone.add(i)
            break
    keep = [i for i in range(len(fronts)) if i not in gone]
    new_index = {old: new for new, old in enumerate(keep)}
    backs = {new_index[i]: dataclasses.replace(bp, back_of=new_index[i])
             for i, bp in back_pages.items() if i not in gone}
    return [fronts[i] for i in keep], backs


def _starts(blocks: list[tuple[Grid, int]]) -> list[int]:
    out, at = [], 0
    for _, k in blocks:
        out.append(at)
        at += k
    return out


def build_pdf(loaded: LoadedGame, output: Path, *, paper: str = "a4", bleed: float = 3.0,
              backs: str = "duplex-long", crop_marks: bool = True, only: set[str] | None = None,
              progress: Progress | None = None, back_offset: tuple[float, float] = (0.0, 0.0)) -> PnpReport:
    """Write the game's print-and-play PDF to ``output`` (atomically); never raises for bad content."""
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.atomic import commit

    from toolkit.pnp.fonts import register_fonts

    report = PnpReport(output=None)
    if paper not in PAPERS:
        report.diagnostics.append(error("HK408", f"unknown paper '{paper}'", "", hint="a4 or letter"))
        return report
    if backs not in BACK_MODES:
        report.diagnostics.append(error("HK408", f"unknown backs mode '{backs}'", "", hint=", ".join(BACK_MODES)))
        return report
    bleed = max(0.0, min(float(bleed), 10.0))
    prepared, diags = prepare(loaded, only)
    if prepared is None:
        report.diagnostics = diags
        return report
    register_fonts()
    paper_mm = PAPERS[paper]
    pages, back_forms, pdiags, report.notes = plan_pages(prepared, loaded, paper_mm, bleed, backs)
    for d in pdiags:
        prepared.env.collector.add(d)
    game = loaded.game
    assert game is not None
    fp = loaded.fingerprint

    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        c = Canvas(str(tmp), pagesize=(mm(paper_mm[0]), mm(paper_mm[1])), invariant=1, pageCompression=1,
                   initialFontName="HK-Vera", initialFontSize=8)
        sheet_boxes(c, paper_mm)
        c.setTitle(f"{game.title} — print and play")
        c.setAuthor("hordekit")
        c.setCreator("hordekit pnp")
        c.setSubject(f"{game.title} ({game.id}), content fingerprint {fp}")
        c.setKeywords(f"hordekit, {game.id}, fingerprint:{fp}")
        env = prepared.env
        used = {p.form for page in pages for p in page.placements}
        for face in prepared.faces:
            if face.key not in used:
                continue
            w, h = face.design.size
            c.beginForm(face.key, 0, 0, mm(w + 2 * bleed), mm(h + 2 * bleed))
            _render(c, face.design, face.ctx, env, face.target, bleed, loaded)
            version_mark(c, face.design.size, bleed, fp)
            c.endForm()
            report.faces[face.group] = report.faces.get(face.group, 0) + face.copies
            if progress:
                progress(face.copies)
        for key, bf in back_forms.items():
            if key not in used:
                continue
            w, h = bf.design.size
            c.beginForm(key, 0, 0, mm(w + 2 * bleed), mm(h + 2 * bleed))
            _render(c, bf.design, bf.ctx, env, bf.target, bleed, loaded)
            c.endForm()
        boards_drawn: dict[str, str] = {}
        total = len(pages)
        for n, page in enumerate(pages, start=1):
            if page.board is not None:
                bname, plan, win = page.board
                if bname not in boards_drawn:
                    design = prepared.boards[bname]
                    board = prepared.layouts.boards[bname]
                    boards_drawn[bname] = f"board:{bname}"
                    w, h = design.size
                    c.beginForm(boards_drawn[bname], 0, 0, mm(w), mm(h))
                    _render(c, design, base_context(loaded), env, Target(f"board '{bname}'", board.where.file,
                                                                         board.where.line), 0.0, loaded)
                    c.endForm()
                    if plan.turned:  # the same board turned a quarter, as a form of its own
                        c.beginForm(f"board:{bname}:turned", 0, 0, mm(h), mm(w))
                        c.translate(mm(h), 0)
                        c.rotate(90)
                        c.doForm(boards_drawn[bname])
                        c.endForm()
                        boards_drawn[bname] = f"board:{bname}:turned"
                draw_board_page(c, boards_drawn[bname], plan, win)
            shift = back_offset if page.back_of is not None else (0.0, 0.0)
            for pl in page.placements:
                place_form(c, pl.form, pl.slot, bleed, back=page.back_of is not None, shift=shift,
                           short_edge=backs == "duplex-short")
            if crop_marks and page.grid is not None and page.placements:
                _crop_marks(c, page, backs, shift)
            draw_furniture(c, paper_mm, _footer(game.title, page, n, total, fp, paper_mm),
                           at_top=page.back_of is not None and backs == "duplex-short", shift=shift)
            c.showPage()
            if progress:
                progress(0)
        report.pages = total
        for d in env.icons.hairlines():
            env.collector.add(d)
        report.diagnostics = sorted(env.collector.diagnostics, key=Diagnostic.sort_key)
        if not report.ok:
            return report
        c.save()
        commit(tmp, output)  # keeps the umask's mode; never replaces a device or a link
        report.output = output
        report.bytes = output.stat().st_size
        return report
    finally:
        if tmp.exists():
            tmp.unlink()


def _footer(title: str, page: Page, n: int, total: int, fp: str, paper: tuple[float, float]) -> str:
    """The footer line; a sheet of many kinds names as many as fit and counts the rest."""
    def line(label: str) -> str:
        if page.back_of is not None:
            what = (f"back of page {page.front_no} ({label})" if page.placements
                    else f"back of page {page.front_no}: left blank")
        else:
            what = label
        return f"{title} · {what} · page {n} of {total} · content {fp}"

    if page.board is not None or footer_fits(paper, line(page.label)):
        return line(page.label)
    return line(fit_list(page.label.split(", "), lambda label: footer_fits(paper, line(label))))


def place_form(c: Any, form: str, slot: Slot, bleed: float, back: bool = False,
               shift: tuple[float, float] = (0.0, 0.0), short_edge: bool = False) -> None:
    """Place a face (drawn once as a form) in its slot, turned so that its back is upright behind it.

    A cut piece turned over sideways (about its own up-down line) shows its back upright, as a
    bought card does. Turned pieces turn a quarter and, on a sheet turned over its long edge,
    their backs the other way. A sheet turned over its short edge turns every back on it upside
    down as well, so those backs are drawn a half turn from the long-edge ones: both duplex
    modes then make the same piece.
    """
    c.saveState()
    x, y = slot.x + shift[0], slot.y + shift[1]
    turn = 0 if not slot.rotated else (-90 if back else 90)
    if back and short_edge:
        turn += 180
    turn %= 360
    w, h = slot.w + 2 * bleed, slot.h + 2 * bleed  # the slot with its bleed, as it lies on the sheet
    corner = {0: (0.0, 0.0), 90: (w, 0.0), 180: (w, h), 270: (0.0, h)}[turn]  # where the form's origin goes
    c.translate(mm(x - bleed + corner[0]), mm(y - bleed + corner[1]))
    if turn:
        c.rotate(turn)
    c.doForm(form)
    c.restoreState()


def _crop_marks(c: Any, page: Page, backs: str, shift: tuple[float, float] = (0.0, 0.0)) -> None:
    grid = page.grid
    assert grid is not None
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    marks = [mark for g, used in page.grids() if used for mark in g.crop_marks(used)]
    if page.back_of is not None:
        W, H = grid.paper
        if backs == "duplex-short":
            marks = [(x1, H - y1, x2, H - y2) for x1, y1, x2, y2 in marks]
        else:
            marks = [(W - x1, y1, W - x2, y2) for x1, y1, x2, y2 in marks]
    dx, dy = shift
    lines = tuple((mm(x1 + dx), mm(y1 + dy), mm(x2 + dx), mm(y2 + dy)) for x1, y1, x2, y2 in marks)
    _CROP_MARKS.draw(c, lines, lambda: [c.line(*line) for line in lines])  # the same on sheet after sheet
    c.restoreState()


_CROP_MARKS = DrawnOnce()


def default_output(game_id: str) -> Path:
    return Path("out") / game_id / "print-and-play.pdf"


__all__ = ["PnpReport", "build_pdf", "check_text_fit", "default_output", "display"]
