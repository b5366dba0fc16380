"""Exports for where designers test before printing: print shops and Tabletop Simulator.

- ``pieces_pdf``: one piece per page (front, then its back), each page exactly the piece with
  its bleed, with TrimBox and BleedBox set: what print-on-demand shops ask for; in RGB, or with
  every colour and image in CMYK for shops that ask for CMYK files.
- ``export_png``: every distinct piece as its own PNG at 300 DPI, front and back, with and
  without bleed (rasterised from that PDF with pypdfium2, so pixels match the print).
- ``export_tts``: Tabletop Simulator deck sheets (up to 10 × 7 faces) and one back image per
  deck, plus a saved-object JSON whose CustomDeck entries point at the images as local files.

Pieces come from the same layout code as ``hordekit pnp``; copies of one face are exported once
(a TTS deck holds them as repeated card ids).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.atomic import atomic_path, write_text
from toolkit.diagnostics import Diagnostic, Severity
from toolkit.games import LoadedGame

TTS_COLUMNS, TTS_ROWS = 10, 7


@dataclass
class Piece:
    """One distinct printed face and where its pages are in the pieces PDF."""

    item_id: str
    kind: str
    name: str
    copies: int
    size: tuple[float, float]
    front_page: int
    back_page: int | None  # None: no back design
    deck: str  # what TTS groups by: the back design's name, or the kind
    back_key: str | None = None  # the back's form: shared by a deck, or one per piece
    board: bool = False  # a board of the layouts file: one page, whole (never tiled over sheets)


@dataclass
class ExportResult:
    files: list[Path] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


def _pieces_pdf_bytes(loaded: LoadedGame, bleed: float, cmyk: bool = False) -> tuple[bytes, list[Piece], list[Diagnostic]]:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.pnp.cmyk import as_cmyk

    from toolkit.pnp.document import BackForm, Target, _back_key, _render, base_context, prepare
    from toolkit.pnp.fonts import register_fonts
    from toolkit.pnp.furniture import version_mark
    from toolkit.pnp.units import mm

    prepared, diags = prepare(loaded)
    if prepared is None:
        return b"", [], diags
    register_fonts()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=1, initialFontName="HK-Vera",
               enforceColorSpace=as_cmyk if cmyk else None)
    c.setTitle(f"{loaded.game.title if loaded.game else ''} — one piece per page")
    c.setCreator("hordekit export")
    pieces: list[Piece] = []
    back_forms: dict[str, BackForm] = {}
    page = 0

    def one_page(design: Any, ctx: dict[str, Any], target: Any, mark: bool) -> int:
        nonlocal page
        w, h = design.size
        c.setPageSize((mm(w + 2 * bleed), mm(h + 2 * bleed)))
        box = (mm(bleed), mm(bleed), mm(bleed + w), mm(bleed + h))
        c.setTrimBox(box)
        c.setArtBox(box)
        c.setBleedBox((0, 0, mm(w + 2 * bleed), mm(h + 2 * bleed)))
        _render(c, design, ctx, prepared.env, target, bleed, loaded)
        if mark:
            version_mark(c, design.size, bleed, loaded.fingerprint)
        c.showPage()
        page += 1
        return page - 1

    for face in prepared.faces:
        front = one_page(face.design, face.ctx, face.target, True)
        key = _back_key(prepared, loaded, face, "duplex-long", back_forms)
        back = None
        if key:
            bf = back_forms[key]
            back = one_page(bf.design, bf.ctx, bf.target, False)
        deck = face.design.back if face.design.back and face.design.back != "front" else face.group
        pieces.append(Piece(face.item_id, face.group, str(face.ctx.get("name", face.item_id)), face.copies,
                            face.design.size, front, back, deck, key))
    for bname, design in prepared.boards.items():  # whole, at full size: a shop prints it on one sheet
        board = prepared.layouts.boards[bname]
        target = Target(f"board '{bname}'", board.where.file, board.where.line)
        page_no = one_page(design, base_context(loaded), target, True)
        pieces.append(Piece(bname, "board", board.title or bname, board.quantity, design.size, page_no, None, "board",
                            board=True))
    for d in prepared.env.icons.hairlines():
        prepared.env.collector.add(d)
    diags = sorted(prepared.env.collector.diagnostics, key=Diagnostic.sort_key)
    if any(d.severity is Severity.ERROR for d in diags):
        return b"", [], diags
    c.save()
    return buf.getvalue(), pieces, diags


def pieces_pdf(loaded: LoadedGame, output: Path, *, bleed: float = 3.0, cmyk: bool = False) -> ExportResult:
    """One piece per page with TrimBox and BleedBox, for print shops (written atomically);
    ``cmyk``: every colour and image in DeviceCMYK (toolkit.pnp.cmyk)."""
    data, pieces, diags = _pieces_pdf_bytes(loaded, bleed, cmyk)
    result = ExportResult(pieces=pieces, diagnostics=diags)
    if result.ok:
        with atomic_path(output) as tmp:
            tmp.write_bytes(data)
        result.files.append(output)
    return result


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "piece"


def _render_page(pdf: Any, index: int, dpi: int) -> Any:
    return pdf[index].render(scale=dpi / 72).to_pil().convert("RGB")


def _trim(image: Any, size: tuple[float, float], bleed: float, dpi: int) -> Any:
    """The piece without its bleed: the trim box, to the pixel."""
    px = round(bleed / 25.4 * dpi)
    return image.crop((px, px, px + round(size[0] / 25.4 * dpi), px + round(size[1] / 25.4 * dpi)))


def _save_png(image: Any, path: Path, dpi: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        image.save(tmp, format="PNG", dpi=(dpi, dpi))
    return path


def export_png(loaded: LoadedGame, out_dir: Path, *, dpi: int = 300, bleed: float = 3.0) -> ExportResult:
    """Every distinct piece as PNGs: <kind>/<id>-front.png, -front-trim.png, -back.png, -back-trim.png."""
    import pypdfium2 as pdfium

    data, pieces, diags = _pieces_pdf_bytes(loaded, bleed)
    result = ExportResult(pieces=pieces, diagnostics=diags)
    if not result.ok:
        return result
    pdf = pdfium.PdfDocument(data)
    for p in pieces:
        for side, index in (("front", p.front_page), ("back", p.back_page)):
            if index is None:
                continue
            image = _render_page(pdf, index, dpi)
            base = out_dir / _safe(p.kind) / f"{_safe(p.item_id)}-{side}"
            result.files.append(_save_png(image, base.with_name(base.name + ".png"), dpi))
            result.files.append(_save_png(_trim(image, p.size, bleed, dpi), base.with_name(base.name + "-trim.png"), dpi))
    return result


# --- Tabletop Simulator -------------------------------------------------------------------

def _transform(x: float) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


TTS_MAX_PIXELS = 4096
"""Tabletop Simulator's advice for the longer side of an image (a texture); larger ones may not load."""


def _fit_dpi(dpi: int, size_mm: tuple[float, float]) -> int:
    """``dpi``, or less when an image of ``size_mm`` would pass TTS_MAX_PIXELS on a side."""
    longest = max(size_mm) / 25.4
    return max(1, min(dpi, int((TTS_MAX_PIXELS - TTS_COLUMNS) / longest))) if longest > 0 else dpi  # less the rounding of each piece


def export_tts(loaded: LoadedGame, out_dir: Path, *, dpi: int = 150) -> ExportResult:
    """Deck sheets, back images and ``<game>.json`` (a TTS saved object) into ``out_dir``."""
    import pypdfium2 as pdfium
    from PIL import Image

    data, pieces, diags = _pieces_pdf_bytes(loaded, 0.0)
    result = ExportResult(pieces=pieces, diagnostics=diags)
    if not result.ok:
        return result
    pdf = pdfium.PdfDocument(data)
    game_id = loaded.game.id if loaded.game else "game"
    decks: dict[str, list[Piece]] = {}
    for p in pieces:
        if not p.board:
            decks.setdefault(f"{p.deck}@{p.size[0]:g}x{p.size[1]:g}", []).append(p)
    objects: list[dict[str, Any]] = []
    guids = iter(range(1, 1 << 24))  # every object and card its own GUID (TTS expects them unique)
    sheet_id = 0
    for n, (deck, members) in enumerate(decks.items()):
        name = deck.split("@")[0]
        unique_back = len({p.back_key for p in members}) > 1
        ids: list[int] = []
        cards: list[dict[str, Any]] = []
        custom: dict[str, dict[str, Any]] = {}
        per_sheet = TTS_COLUMNS * TTS_ROWS
        for start in range(0, len(members), per_sheet):
            chunk = members[start:start + per_sheet]
            sheet_id += 1
            cols = min(TTS_COLUMNS, max(2, len(chunk)))  # TTS reads sheets of at least 2 x 2
            rows = max(2, -(-len(chunk) // cols))
            sheet_dpi = _fit_dpi(dpi, (chunk[0].size[0] * cols, chunk[0].size[1] * rows))
            fronts = [_render_page(pdf, p.front_page, sheet_dpi) for p in chunk]
            cw, ch = fronts[0].size
            face_sheet = Image.new("RGB", (cw * cols, ch * rows), "white")
            for i, im in enumerate(fronts):
                face_sheet.paste(im.resize((cw, ch)), ((i % cols) * cw, (i // cols) * ch))
            face_path = _save_png(face_sheet, out_dir / f"{_safe(game_id)}-{_safe(name)}-{sheet_id}-faces.png", 72)
            if unique_back:
                back_sheet = Image.new("RGB", face_sheet.size, "white")
                for i, p in enumerate(chunk):
                    if p.back_page is not None:
                        back_sheet.paste(_render_page(pdf, p.back_page, sheet_dpi).resize((cw, ch)),
                                         ((i % cols) * cw, (i // cols) * ch))
                back_path = _save_png(back_sheet, out_dir / f"{_safe(game_id)}-{_safe(name)}-{sheet_id}-backs.png", 72)
            elif chunk[0].back_page is not None:
                back_path = _save_png(_render_page(pdf, chunk[0].back_page, sheet_dpi).resize((cw, ch)),
                                      out_dir / f"{_safe(game_id)}-{_safe(name)}-back.png", 72)
            else:
                back_path = _save_png(Image.new("RGB", (cw, ch), "#808080"),
                                      out_dir / f"{_safe(game_id)}-{_safe(name)}-back.png", 72)
            result.files += [face_path, back_path]
            entry = {"FaceURL": face_path.resolve().as_uri(), "BackURL": back_path.resolve().as_uri(),
                     "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
            custom[str(sheet_id)] = entry
            for i, p in enumerate(chunk):
                card_id = sheet_id * 100 + i
                for _ in range(p.copies):
                    ids.append(card_id)
                    cards.append({"Name": "Card", "Nickname": p.name, "Description": f"{p.kind} '{p.item_id}'",
                                  "CardID": card_id, "CustomDeck": {str(sheet_id): entry},
                                  "Transform": _transform(n * 4.0), "GUID": f"{next(guids):06x}"})
        if len(cards) == 1:
            obj = {**cards[0], "Nickname": cards[0]["Nickname"]}
        else:
            obj = {"Name": "DeckCustom", "Nickname": name, "Description": f"{game_id}: {len(cards)} cards",
                   "Transform": _transform(n * 4.0), "DeckIDs": ids, "CustomDeck": custom,
                   "ContainedObjects": cards, "GUID": f"{next(guids):06x}"}
        objects.append(obj)
    for p in pieces:
        if p.board:  # a board is one picture on the table, at most TTS_MAX_PIXELS on its longer side
            image = _render_page(pdf, p.front_page, _fit_dpi(dpi, p.size))
            path = _save_png(image, out_dir / f"{_safe(game_id)}-board-{_safe(p.item_id)}.png", 72)
            result.files.append(path)
            for copy in range(max(1, p.copies)):
                # copies face each other across the table, as one player's half of a mat does:
                # the first on the near side, the second on the far side turned round, and so on
                side, row = (-1.0 if copy % 2 == 0 else 1.0), copy // 2
                objects.append({"Name": "Custom_Board", "Nickname": p.name, "Description": f"board '{p.item_id}'",
                                "Transform": {**_transform(0.0), "posZ": side * (12.0 + 24.0 * row), "rotZ": 0.0,
                                              "rotY": 180.0 if copy % 2 == 0 else 0.0},
                                "Locked": True,
                                "CustomImage": {"ImageURL": path.resolve().as_uri(), "ImageSecondaryURL": "",
                                                "WidthScale": 0.0},
                                "GUID": f"{next(guids):06x}"})
    save = {"SaveName": loaded.game.title if loaded.game else game_id, "GameMode": "", "Date": "", "Table": "",
            "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
    json_path = out_dir / f"{_safe(game_id)}.json"
    out_dir.mkdir(parents=True, exist_ok=True)
    write_text(json_path, json.dumps(save, indent=2, ensure_ascii=False))
    result.files.append(json_path)
    return result
