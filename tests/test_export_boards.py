"""Boards in the exports: a print shop's order and a Tabletop Simulator table hold the board too.

`hordekit pnp` tiles a board over several sheets to be glued; a print shop prints it whole, so
`export pieces` gives each board one page of its full size with bleed, `export png` one picture,
and `export tts` a Custom_Board object. Tabletop Simulator advises images of at most 4,096 pixels
a side: sheets and boards are rendered at a lower resolution when the asked one would pass it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import CONTENT, run_cli
from test_pnp import MM
from toolkit.pnp.layoutfile import read_layouts

pypdf = pytest.importorskip("pypdf")
Image = pytest.importorskip("PIL.Image")

GAME = "dice-battles"  # a board (the battle mat) and an army sheet wider than 4,096 pixels at 150 dpi


def _boards(game: str) -> dict:
    from toolkit.games import load_game

    layouts, _ = read_layouts(load_game(CONTENT / game).game.templates_dir)
    return layouts.boards


def test_pieces_pdf_ends_with_each_board_whole_at_its_size_with_bleed(tmp_path: Path) -> None:
    pdf = tmp_path / "pieces.pdf"
    proc = run_cli("export", "pieces", GAME, "-o", str(pdf))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    boards = _boards(GAME)
    assert boards
    pages = pypdf.PdfReader(str(pdf)).pages
    for page, board in zip(pages[-len(boards):], boards.values()):
        trim, media = page.trimbox, page.mediabox
        assert float(trim.width) / MM == pytest.approx(board_size(board)[0], abs=0.01)
        assert float(trim.height) / MM == pytest.approx(board_size(board)[1], abs=0.01)
        assert float(media.width) - float(trim.width) == pytest.approx(6 * MM, abs=1e-3)  # 3 mm of bleed each side
        assert "Reinforcements" in page.extract_text()  # a space the battle mat names


def board_size(board) -> tuple[float, float]:
    """The board's size in mm, from the same preparation `pnp` uses."""
    from toolkit.games import load_game
    from toolkit.pnp.document import prepare

    prepared, _ = prepare(load_game(CONTENT / GAME))
    return prepared.boards[board.name].size


def test_png_export_writes_the_board_as_one_picture(tmp_path: Path) -> None:
    proc = run_cli("export", "png", GAME, "-d", str(tmp_path), "--dpi", "72")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name, board in _boards(GAME).items():
        trim = Image.open(tmp_path / "board" / f"{name}-front-trim.png")
        w, h = board_size(board)
        assert abs(trim.width - w / 25.4 * 72) <= 1 and abs(trim.height - h / 25.4 * 72) <= 1


def test_tts_save_holds_each_board_and_no_image_passes_4096_pixels(tmp_path: Path) -> None:
    proc = run_cli("export", "tts", GAME, "-d", str(tmp_path))  # the default 150 dpi
    assert proc.returncode == 0, proc.stdout + proc.stderr
    save = json.loads((tmp_path / f"{GAME}.json").read_text())
    objects = save["ObjectStates"]
    boards = [o for o in objects if o["Name"] == "Custom_Board"]
    # one object per printed copy: the battle mat is one player's half of the table, printed twice
    expected = sorted(f"board '{n}'" for n, b in _boards(GAME).items() for _ in range(b.quantity))
    assert sorted(o["Description"] for o in boards) == expected and len(expected) > len(_boards(GAME))
    mats = [o["Transform"] for o in boards]
    assert len({(t["posZ"], t["rotY"]) for t in mats}) == len(mats), "copies do not lie on each other"
    images = set()
    for o in boards:
        url = o["CustomImage"]["ImageURL"]
        assert url.startswith("file://") and o["Locked"] is True
        images.add(url)
    guids = []
    for o in objects:
        guids.append(o["GUID"])
        for card in o.get("ContainedObjects", []):
            guids.append(card["GUID"])
        for entry in o.get("CustomDeck", {}).values():
            images |= {entry["FaceURL"], entry["BackURL"]}
    assert len(guids) == len(set(guids)), "every object and card has its own GUID"
    assert all(len(g) == 6 for g in guids)
    for url in images:
        size = Image.open(url[len("file://"):]).size
        assert max(size) <= 4096, (url, size)
    faces = [Image.open(e["FaceURL"][len("file://"):]).size for o in objects for e in o.get("CustomDeck", {}).values()]
    assert max(w for w, _ in faces) > 3000  # the army sheet kept as much detail as the limit allows


def test_a_boards_background_reaches_into_its_bleed_on_every_side(tmp_path: Path) -> None:
    # a print shop cuts the board at its trim with a drift of a millimetre or so: what lies beyond
    # the trim must be the board's own colour, never white paper
    pypdfium2 = pytest.importorskip("pypdfium2")
    pdf = tmp_path / "pieces.pdf"
    assert run_cli("export", "pieces", GAME, "-o", str(pdf)).returncode == 0
    boards = _boards(GAME)
    document = pypdfium2.PdfDocument(str(pdf))
    for index, board in zip(range(len(document) - len(boards), len(document)), boards.values()):
        image = document[index].render(scale=72 / 72).to_pil().convert("RGB")
        w, h = image.size
        background = tuple(int(board.background[i:i + 2], 16) for i in (1, 3, 5))
        bleed_px = 3 * MM  # 3 mm at 72 dpi, in pixels
        edge = int(bleed_px / 2)  # the middle of the bleed strip on each side
        samples = [(edge, y) for y in range(int(bleed_px), h - int(bleed_px), 7)] + \
                  [(w - 1 - edge, y) for y in range(int(bleed_px), h - int(bleed_px), 7)] + \
                  [(x, edge) for x in range(int(bleed_px), w - int(bleed_px), 7)] + \
                  [(x, h - 1 - edge) for x in range(int(bleed_px), w - int(bleed_px), 7)]
        off = [p for p in samples if max(abs(a - b) for a, b in zip(image.getpixel(p), background)) > 8]
        assert not off, f"{len(off)} of {len(samples)} bleed samples are not the board's colour, e.g. {off[:3]}"
