"""Print-and-play that survives a home printer, a print shop and a virtual table (issue 12).

Every check reads the real output back: PDFs with pypdf and pypdfium2 (rasterised pages),
PNG files with Pillow, the Tabletop Simulator JSON with json.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import CONTENT, FIXTURES, ROOT, run_cli
from test_pnp import FURNITURE_TOP, MM, game_counts, page_ops
from toolkit.pnp.layoutfile import read_layouts

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")

HH = "hordes-and-heroes"
HEXFIX = FIXTURES / "hexfix"
PYLIB = FIXTURES / "pylib"
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("print-shop")


def _pnp(out: Path, name: str, *args: str, extra: list[Path] | None = None) -> Any:
    pdf = out / name
    if not pdf.exists():
        proc = run_cli("pnp", *args, "-o", str(pdf), extra_path=extra)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return pypdf.PdfReader(str(pdf))


@pytest.fixture(scope="module")
def kingdoms(out: Path) -> Any:
    return _pnp(out, "kingdoms.pdf", "kingdoms")


@pytest.fixture(scope="module")
def hh_letter(out: Path) -> Any:
    return _pnp(out, "hh-letter.pdf", HH, "--paper", "letter")


# --- real printers --------------------------------------------------------------------------

@pytest.mark.parametrize("game,paper", [("kingdoms", "a4"), (HH, "letter"), (HH, "a4"), ("kingdoms", "letter")])
def test_nothing_prints_within_5_mm_of_the_paper_edge(out: Path, game: str, paper: str) -> None:
    _pnp(out, f"{game}-{paper}.pdf", game, "--paper", paper)
    assert pages_printing_near_the_edge(out / f"{game}-{paper}.pdf") == []


def pages_printing_near_the_edge(pdf: Path, pages: list[int] | None = None) -> list[int]:
    """The pages (numbered from 1) that, rasterised, put ink within 5 mm of the paper's edge."""
    doc = pdfium.PdfDocument(str(pdf))
    dpi = 60
    band = math.floor(4.8 / 25.4 * dpi)  # pixels wholly inside the outer 5 mm
    bad = []
    for i in (pages if pages is not None else range(len(doc))):
        img = doc[i].render(scale=dpi / 72).to_pil().convert("L")
        w, h = img.size
        boxes = ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h))
        if any(img.crop(box).getextrema()[0] < 250 for box in boxes):
            bad.append(i + 1)
    return bad


def _all_lines(reader: Any, page: Any) -> list[tuple[float, float, float, float]]:
    from pypdf.generic import ContentStream

    ops = ContentStream(page.get_contents(), reader).operations
    lines, cur = [], (0.0, 0.0)
    for operands, op in ops:
        if op == b"m":
            cur = (float(operands[0]) / MM, float(operands[1]) / MM)
        elif op == b"l":
            end = (float(operands[0]) / MM, float(operands[1]) / MM)
            lines.append((*cur, *end))
            cur = end
    return lines


def test_every_sheet_says_print_at_100_percent_and_carries_a_50_mm_ruler(kingdoms: Any) -> None:
    for page in kingdoms.pages:
        assert "print at 100% / actual size" in page.extract_text()
        ruler = [ln for ln in _all_lines(kingdoms, page)
                 if abs(ln[1] - ln[3]) < 1e-6 and abs(abs(ln[2] - ln[0]) - 50) < 0.01]
        assert ruler and all(5 <= ln[1] <= FURNITURE_TOP for ln in ruler)


def test_calibration_sheet_measures_scale_and_duplex_offset(tmp_path: Path) -> None:
    pdf = tmp_path / "cal.pdf"
    proc = run_cli("pnp", HH, "--calibration", "-o", str(pdf))
    assert proc.returncode == 0, proc.stderr
    reader = pypdf.PdfReader(str(pdf))
    assert len(reader.pages) == 2
    front, back = (p.extract_text() for p in reader.pages)
    assert "calibration: front" in front and "100 mm" in front and "--back-offset" in front
    assert "calibration: back" in back and "X (mm)" in back and "Y (mm)" in back


def test_back_offset_shifts_every_back_and_no_front(out: Path) -> None:
    plain = _pnp(out, "squire.pdf", HH, "--only", "squire")
    shifted = _pnp(out, "squire-shifted.pdf", HH, "--only", "squire", "--back-offset", "1.5,-0.5")
    assert page_ops(plain, plain.pages[0])[0] == page_ops(shifted, shifted.pages[0])[0]
    before, after = page_ops(plain, plain.pages[1])[0], page_ops(shifted, shifted.pages[1])[0]
    assert len(before) == len(after) > 0
    for (_, x0, y0, *_), (_, x1, y1, *_) in zip(before, after):
        assert (x1 - x0, y1 - y0) == (pytest.approx(1.5, abs=1e-4), pytest.approx(-0.5, abs=1e-4))
    assert run_cli("pnp", HH, "--back-offset", "left", "-o", str(out / "x.pdf")).returncode == 2


def test_board_seam_instructions_and_targets_sit_on_waste_and_glue_strips(kingdoms: Any) -> None:
    from toolkit.pnp.board import plan_board, seam_strips

    board_pages = [p.extract_text() for p in kingdoms.pages if "Board, sheet" in p.extract_text()]
    assert len(board_pages) >= 2
    assert any("cut off along the red line" in t for t in board_pages)
    assert any("glue here" in t for t in board_pages)
    plan = plan_board((266.0, 266.0), 12.0, PAPER["a4"])
    visible = 0.0
    for win in plan.windows:
        strips = seam_strips(plan, win)
        assert strips, "every sheet of a tiled board has a waste or glue strip"
        ox = plan.origin[0]
        left, right = ox, ox + win.w
        for role, axis, x0, y0, x1, y1 in strips:
            assert x1 - x0 >= 4.5  # room for a 2.25 mm target either side of its centre
            if role == "waste":
                assert x0 == pytest.approx(left)  # from the sheet's own edge to the cut line
                left = x1
            else:
                assert x1 == pytest.approx(right)  # from the cut line to the sheet's edge: covered
                right = x0
        visible += right - left
    assert visible == pytest.approx(plan.width)  # the visible parts tile the board exactly once


def test_small_pieces_of_the_same_size_share_sheets(kingdoms: Any) -> None:
    pages: dict[tuple[float, float], int] = {}
    copies: dict[tuple[float, float], int] = {}
    per_page: dict[tuple[float, float], int] = {}
    mixed = 0
    for page in kingdoms.pages:
        forms, _ = page_ops(kingdoms, page)
        fronts = [f for f in forms if f[0].startswith("face:")]
        if not fronts:
            continue
        size = tuple(sorted((round(fronts[0][3], 1), round(fronts[0][4], 1))))
        pages[size] = pages.get(size, 0) + 1
        copies[size] = copies.get(size, 0) + len(fronts)
        per_page[size] = max(per_page.get(size, 0), len(fronts))
        mixed += len({f[0].split(":")[1] for f in fronts}) > 1
    assert mixed >= 3
    for size in pages:  # no kind starts a sheet of its own: only the last sheet of a size is part-filled
        assert pages[size] == math.ceil(copies[size] / per_page[size]), size


def test_text_below_6_pt_is_a_warning_at_the_pieces_line(tmp_path: Path) -> None:
    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    layouts = game / "templates" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("font: bold, size: 6.5, min-size: 6, align: center}",
                                                   "font: bold, size: 5, min-size: 4, align: center}"))
    proc = run_cli("validate", str(game), extra_path=[PYLIB])
    assert re.search(r"units\.yaml:4:\d+: warning HK411: text of unit 'red-spear' in name prints at 5 pt", proc.stdout), proc.stdout


def test_each_cut_piece_carries_a_version_mark(out: Path) -> None:
    reader = _pnp(out, "squire.pdf", HH, "--only", "squire")
    fp = game_counts(HH)["fingerprint"]
    forms, _ = page_ops(reader, reader.pages[0])
    assert reader.pages[0].extract_text().count(f"v{fp[:8]}") == len(forms) > 0


# --- changed-only reprints ------------------------------------------------------------------

@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding the fixture game (content and templates)."""
    root = tmp_path / "repo"
    shutil.copytree(HEXFIX, root / "hexfix")
    for args in (("init", "-q"), ("add", "."), ("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "v1")):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root


def _reprint(repo: Path, *extra: str) -> tuple[set[str], Any]:
    pdf = repo / "reprint.pdf"
    proc = run_cli("pnp", "hexfix", "--changed-since", "HEAD", *extra, "-o", str(pdf), cwd=repo, extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if "nothing changed" in proc.stderr:
        return set(), None
    ids = set(proc.stderr.split(": ", 1)[1].splitlines()[0].split(", "))
    return ids, pypdf.PdfReader(str(pdf))


def test_changed_since_catches_an_edited_text_template(repo: Path) -> None:
    text = repo / "hexfix" / "templates" / "text.yaml"
    text.write_text(text.read_text().replace("when it moved this turn", "after a move"))
    assert _reprint(repo)[0] == {"reference"}  # the unit abilities are printed on the reference card


def test_changed_since_catches_a_redrawn_icon(repo: Path) -> None:
    icons = repo / "hexfix" / "templates" / "icons.yaml"
    icons.write_text(icons.read_text().replace('fill: "#f2c94c"', 'fill: "#e0a030"'))  # the battle die's colour
    assert _reprint(repo)[0] == {"reference", "mat"}  # the pieces and boards that show a battle die face


def test_changed_since_catches_content_that_another_sheet_derives_from(repo: Path) -> None:
    dice = repo / "hexfix" / "dice.yaml"  # a die is not printed, but the faces it lists are drawn elsewhere
    dice.write_text(dice.read_text().replace("faces: [1, 1, 2, 2, 3, X]", "faces: [1, 1, 2, 2, 4, X]"))
    assert _reprint(repo)[0] == {"reference", "mat"}


def test_changed_since_catches_a_layout_change_and_ignores_reformatting(repo: Path) -> None:
    layouts = repo / "hexfix" / "templates" / "layouts.yaml"
    layouts.write_text("# a comment\n" + layouts.read_text().replace("stroke-width: 0.6}", "stroke-width: 0.9}"))
    ids, reader = _reprint(repo)
    assert ids == {"red-spear", "red-rider", "red-flag", "blue-spear", "blue-rider", "blue-flag"}
    assert sum(1 for p in reader.pages for name, *_ in page_ops(reader, p)[0] if name.startswith("face:unit:")) == 8


def test_changed_since_reprints_a_changed_board_and_only_board_prints_boards(repo: Path) -> None:
    layouts = repo / "hexfix" / "templates" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace('fill: "#e9e4cf"', 'fill: "#e0dcc0"'))
    ids, reader = _reprint(repo)
    assert ids == {"field"}
    assert all(name.startswith("board:field") for p in reader.pages for name, *_ in page_ops(reader, p)[0])
    pdf = repo / "boards.pdf"
    assert run_cli("pnp", "hexfix", "--only", "board", "-o", str(pdf), cwd=repo, extra_path=[PYLIB]).returncode == 0
    names = {n.split(":")[1] for p in pypdf.PdfReader(str(pdf)).pages for n, *_ in page_ops(pypdf.PdfReader(str(pdf)), p)[0]}
    assert names == {"field", "mat"}


def test_a_board_that_needs_fewer_sheets_turned_is_turned_and_says_so(tmp_path: Path) -> None:
    pdf = tmp_path / "field.pdf"
    proc = run_cli("pnp", str(HEXFIX), "--only", "field", "-o", str(pdf), extra_path=[PYLIB])
    assert proc.returncode == 0
    assert "board 'field': turned sideways, 1 sheet(s) instead of 2" in proc.stderr
    reader = pypdf.PdfReader(str(pdf))
    (name, x, y, w, h), = page_ops(reader, reader.pages[0])[0]
    assert name == "board:field:turned" and h > w  # 240 mm wide upright: on A4 only turned
    assert x >= 5 and y >= 5 and x + w <= 205 and y + h <= 292


# --- art --------------------------------------------------------------------------------------

def _with_art(tmp_path: Path, art: str) -> Path:
    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    units = game / "units.yaml"
    units.write_text(units.read_text().replace("{id: red-rider,", f"{{id: red-rider, art: {art},"))
    return game


def test_art_is_placed_in_its_box_and_downsampled_to_300_dpi(tmp_path: Path) -> None:
    from PIL import Image

    game = _with_art(tmp_path, "art/rider.png")
    (game / "art").mkdir()
    Image.new("RGB", (4000, 3200), "#336699").save(game / "art" / "rider.png")
    pdf = tmp_path / "art.pdf"
    proc = run_cli("pnp", str(game), "--only", "red-rider", "-o", str(pdf), extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout
    reader = pypdf.PdfReader(str(pdf))
    images = [img for p in reader.pages for img in p.images]
    assert images
    # the art box is 10 x 8 mm: at 300 DPI at most 118 x 94 pixels
    for img in images:
        assert img.image.width <= 119 and img.image.height <= 95


def test_svg_art_is_drawn_as_vectors(tmp_path: Path) -> None:
    game = _with_art(tmp_path, "art/rider.svg")
    (game / "art").mkdir()
    (game / "art" / "rider.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="80">'
                                            '<rect x="0" y="0" width="100" height="80" fill="#aa3322"/></svg>')
    pdf = tmp_path / "svg.pdf"
    proc = run_cli("pnp", str(game), "--only", "red-rider", "-o", str(pdf), extra_path=[PYLIB])
    assert proc.returncode == 0 and "HK405" not in proc.stdout, proc.stdout
    assert not [img for p in pypdf.PdfReader(str(pdf)).pages for img in p.images]


def test_missing_art_is_a_validation_error_and_a_placeholder_in_print(tmp_path: Path) -> None:
    game = _with_art(tmp_path, "art/nowhere.png")
    proc = run_cli("validate", str(game), extra_path=[PYLIB])
    assert proc.returncode == 1
    assert re.search(r"units\.yaml:5:\d+: error HK405: unit 'red-rider': art 'art/nowhere.png' not found", proc.stdout), proc.stdout
    pdf = tmp_path / "ph.pdf"
    proc = run_cli("pnp", str(game), "--only", "red-rider", "-o", str(pdf), extra_path=[PYLIB])
    assert proc.returncode == 0 and "warning HK405" in proc.stdout
    assert "art missing" in pypdf.PdfReader(str(pdf)).pages[0].extract_text()


def test_art_outside_the_game_folder_is_refused_by_the_schema(tmp_path: Path) -> None:
    game = _with_art(tmp_path, "../secret.png")
    proc = run_cli("validate", str(game), extra_path=[PYLIB])
    assert proc.returncode == 1 and re.search(r"units\.yaml:5:\d+: error", proc.stdout), proc.stdout


# --- exports ----------------------------------------------------------------------------------

def _unique_pieces(game_dir: Path) -> dict[str, int]:
    from toolkit.games import load_game

    loaded = load_game(game_dir)
    return {str(it["id"]): int(it.get("quantity", 1)) for it in loaded.data["unit"]}


def test_export_png_writes_every_piece_front_and_back_with_and_without_bleed(tmp_path: Path) -> None:
    from PIL import Image

    proc = run_cli("export", "png", str(HEXFIX), "-d", str(tmp_path), extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for unit in _unique_pieces(HEXFIX):
        for side in ("front", "back"):
            full = Image.open(tmp_path / "unit" / f"{unit}-{side}.png")
            trim = Image.open(tmp_path / "unit" / f"{unit}-{side}-trim.png")
            for got, mm_ in ((full.size, 31), (trim.size, 25)):  # 25 mm and 3 mm bleed at 300 DPI
                assert all(abs(v - mm_ / 25.4 * 300) <= 1 for v in got), (got, mm_)
            assert round(full.info["dpi"][0]) == 300
    assert (tmp_path / "reference" / "reference-front.png").is_file()


def test_pieces_pdf_has_one_piece_per_page_with_trim_and_bleed_boxes(tmp_path: Path) -> None:
    pdf = tmp_path / "pieces.pdf"
    assert run_cli("export", "pieces", str(HEXFIX), "-o", str(pdf), extra_path=[PYLIB]).returncode == 0
    reader = pypdf.PdfReader(str(pdf))
    boards = len(read_layouts(HEXFIX / "templates")[0].boards)
    assert boards  # units front and back, the reference card, then each board whole
    assert len(reader.pages) == 2 * len(_unique_pieces(HEXFIX)) + 1 + boards
    for page in reader.pages:
        bleed, trim = page.bleedbox, page.trimbox
        assert float(bleed.width) == pytest.approx(float(page.mediabox.width), abs=1e-3)
        assert float(trim.left) == pytest.approx(3 * MM, abs=1e-3) and float(trim.bottom) == pytest.approx(3 * MM, abs=1e-3)
        assert float(bleed.width) - float(trim.width) == pytest.approx(6 * MM, abs=1e-3)


def test_export_tts_writes_decks_tabletop_simulator_reads_with_every_card(tmp_path: Path) -> None:
    from PIL import Image

    proc = run_cli("export", "tts", "kingdoms", "-d", str(tmp_path), "--dpi", "60")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    save = json.loads((tmp_path / "kingdoms.json").read_text())
    assert isinstance(save["ObjectStates"], list) and save["ObjectStates"]
    seen: dict[str, int] = {}
    for obj in save["ObjectStates"]:
        if obj["Name"] == "Custom_Board":  # boards: tests/test_export_boards.py
            continue
        cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]
        for card in cards:
            assert card["Name"] == "Card"
            sheet = str(card["CardID"] // 100)
            entry = card["CustomDeck"][sheet]
            assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
            assert card["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"]
            for url in (entry["FaceURL"], entry["BackURL"]):
                assert url.startswith("file://") and Path(url[len("file://"):]).is_file()
            face = Image.open(entry["FaceURL"][len("file://"):])
            assert face.width % entry["NumWidth"] == 0 and face.height % entry["NumHeight"] == 0
            kid = re.search(r"'([^']+)'", card["Description"]).group(1)
            seen[kid] = seen.get(kid, 0) + 1
    expected = {k: n for k, n in game_counts("kingdoms")["counts"].items() if k != "die"}
    from toolkit.games import load_game

    loaded = load_game(CONTENT / "kingdoms")
    for kind in expected:
        for item in loaded.data.get(kind, []):
            assert seen.get(item["id"]) == int(item.get("quantity", 1)), item["id"]
    assert max(len(o.get("CustomDeck", {})) for o in save["ObjectStates"]) >= 2  # 71 horde counters: two sheets
