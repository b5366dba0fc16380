"""Print-and-play PDFs: `hordekit pnp` and `hordekit preview`, run as a designer would.

The PDFs are read back with pypdf: what is placed where (each face is a PDF form placed once per
copy, named ``face:<kind>:<id>``), which text can be extracted, which fonts are embedded.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import CONTENT, ROOT, run_cli

pypdf = pytest.importorskip("pypdf")
from pypdf.generic import ContentStream  # noqa: E402

MM = 72 / 25.4
A4 = (210 * MM, 297 * MM)
LETTER = (215.9 * MM, 279.4 * MM)
HH = "hordes-and-heroes"
FURNITURE_TOP = 5.0 + 5.5  # the footer band: footer line, 100% note and ruler sit below this


# --- reading PDFs back ------------------------------------------------------------------------

def _mul(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """a × b for PDF matrices [a b c d e f]."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def page_ops(reader: Any, page: Any) -> tuple[list[tuple[str, float, float, float, float]], list[tuple[float, float, float, float]]]:
    """Forms placed on the page (name, x, y, w, h in mm) and page-level line segments (mm)."""
    ops = ContentStream(page.get_contents(), reader).operations
    xobjects = page["/Resources"].get("/XObject", {})
    ctm: tuple[float, ...] = (1, 0, 0, 1, 0, 0)
    stack = []
    forms, lines = [], []
    cur = (0.0, 0.0)
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            name = str(operands[0])
            bbox = [float(v) for v in xobjects[name].get_object()["/BBox"]]
            corners = [_apply(ctm, bx, by) for bx in (bbox[0], bbox[2]) for by in (bbox[1], bbox[3])]
            x0, y0 = min(c[0] for c in corners), min(c[1] for c in corners)
            x1, y1 = max(c[0] for c in corners), max(c[1] for c in corners)
            forms.append((name.removeprefix("/FormXob."), x0 / MM, y0 / MM, (x1 - x0) / MM, (y1 - y0) / MM))
        elif op == b"m":
            cur = _apply(ctm, float(operands[0]), float(operands[1]))
        elif op == b"l":
            end = _apply(ctm, float(operands[0]), float(operands[1]))
            if max(cur[1], end[1]) / MM > FURNITURE_TOP:  # the ruler in the footer band is not a crop mark
                lines.append((cur[0] / MM, cur[1] / MM, end[0] / MM, end[1] / MM))
            cur = end
    return forms, lines


def faces_per_kind(reader: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for page in reader.pages:
        forms, _ = page_ops(reader, page)
        for name, *_ in forms:
            if name.startswith("face:"):
                kind = name.split(":")[1]
                counts[kind] = counts.get(kind, 0) + 1
    return counts


def front_and_back_pages(reader: Any) -> list[tuple[int, int]]:
    """(front, back) page indexes in a duplex PDF: every other page is a back."""
    return [(i, i + 1) for i in range(0, len(reader.pages) - 1, 2)]


def game_counts(game: str) -> dict[str, Any]:
    rows = json.loads(run_cli("games", "--json", str(CONTENT / game)).stdout)
    return rows[0]


def norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


# --- fixtures: each PDF is built once per test session ----------------------------------------

@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pnp")


def _build(out_dir: Path, name: str, *args: str) -> tuple[Path, Any]:
    pdf = out_dir / name
    if not pdf.exists():
        proc = run_cli("pnp", *args, "-o", str(pdf))
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return pdf, pypdf.PdfReader(str(pdf))


@pytest.fixture(scope="module")
def hh_long(out_dir: Path) -> tuple[Path, Any]:
    return _build(out_dir, "hh-long.pdf", HH)


@pytest.fixture(scope="module")
def hh_short(out_dir: Path) -> tuple[Path, Any]:
    return _build(out_dir, "hh-short.pdf", HH, "--backs", "duplex-short")


@pytest.fixture(scope="module")
def kingdoms_pdf(out_dir: Path) -> tuple[Path, Any]:
    return _build(out_dir, "kingdoms.pdf", "kingdoms")


# --- what is printed --------------------------------------------------------------------------

def test_pages_are_a4_by_default(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(A4[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(A4[1], abs=0.01)


def test_every_piece_is_printed_as_many_times_as_its_quantity(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    expected = {k: n for k, n in game_counts(HH)["counts"].items() if k != "die"}  # dice are bought
    counts = faces_per_kind(reader)
    assert {k: counts.get(k, 0) for k in expected} == expected
    assert counts["quick-reference"] == 5


def test_poker_cards_are_63_by_88_and_eight_to_an_a4_page_turned_sideways(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    forms, _ = page_ops(reader, reader.pages[0])
    assert len(forms) == 8  # nine upright would reach within 5 mm of the paper's edge
    for _, _, _, w, h in forms:
        assert (w, h) == (pytest.approx(88 + 6), pytest.approx(63 + 6))  # turned, with 3 mm bleed all round


def test_letter_paper_has_letter_pages_and_still_every_piece(out_dir: Path) -> None:
    _, reader = _build(out_dir, "hh-letter.pdf", HH, "--paper", "letter")
    assert float(reader.pages[0].mediabox.width) == pytest.approx(LETTER[0], abs=0.01)
    assert float(reader.pages[0].mediabox.height) == pytest.approx(LETTER[1], abs=0.01)
    expected = {k: n for k, n in game_counts(HH)["counts"].items() if k != "die"}
    counts = faces_per_kind(reader)
    assert {k: counts.get(k, 0) for k in expected} == expected


def _effect_sentences(game: str) -> dict[str, str]:
    """The effect templates rendered here with plain Jinja2, independently of the renderer."""
    import jinja2
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((ROOT / "templates" / game / "text.yaml").read_text())


def _sentence(templates: dict[str, str], effects: list[dict[str, Any]]) -> str:
    import jinja2

    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    out = []
    for e in effects:
        ctx = {k.replace("-", "_"): v for k, v in e.items()}
        out.append(" ".join(env.from_string(templates[e["kind"]]).render(ctx).split()))
    return re.sub(r":([a-z0-9-]+):", r"[\1]", " ".join(out))


def test_every_card_title_and_rules_text_can_be_read_from_the_pdf(hh_long: tuple[Path, Any]) -> None:
    from ruamel.yaml import YAML

    _, reader = hh_long
    text = norm("".join(page.extract_text() for page in reader.pages))
    templates = _effect_sentences(HH)
    yaml = YAML(typ="safe")
    checked = 0
    for file in ("heroes", "actions", "monsters", "town", "treasures"):
        for item in yaml.load((CONTENT / HH / f"{file}.yaml").read_text())["items"]:
            assert norm(item["name"]) in text, item["name"]
            for effects in [item.get("effects")] + [item.get(h, {}).get("effects") for h in ("level_1", "level_2")]:
                if effects:
                    assert norm(_sentence(templates, effects)) in text, (item["id"], _sentence(templates, effects))
                    checked += 1
    assert checked > 50


def test_fonts_are_embedded_truetype(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    fonts: dict[str, bool] = {}

    def walk(resources: Any) -> None:
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            fonts[str(font.get("/BaseFont"))] = desc is not None and "/FontFile2" in desc.get_object()
        for xo in (resources.get("/XObject") or {}).values():
            xo = xo.get_object()
            if "/Resources" in xo:
                walk(xo["/Resources"].get_object())

    for page in reader.pages[:4]:
        walk(page["/Resources"].get_object())
    assert fonts and all(fonts.values()), fonts
    assert any("Vera" in name for name in fonts)


def test_crop_marks_sit_on_the_trim_lines_outside_the_bleed(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    forms, lines = page_ops(reader, reader.pages[0])
    trim_x = {round(v, 2) for _, x, _, w, _ in forms for v in (x + 3, x + w - 3)}
    trim_y = {round(v, 2) for _, _, y, _, h in forms for v in (y + 3, y + h - 3)}
    verticals = [ln for ln in lines if abs(ln[0] - ln[2]) < 1e-6]
    horizontals = [ln for ln in lines if abs(ln[1] - ln[3]) < 1e-6]
    assert {round(ln[0], 2) for ln in verticals} == trim_x
    assert {round(ln[1], 2) for ln in horizontals} == trim_y
    for x1, y1, x2, y2 in lines:  # never inside any piece's bleed area
        for _, fx, fy, fw, fh in forms:
            inside_x = fx - 1e-6 < min(x1, x2) and max(x1, x2) < fx + fw + 1e-6
            inside_y = fy - 1e-6 < min(y1, y2) and max(y1, y2) < fy + fh + 1e-6
            assert not (inside_x and inside_y)


def test_no_crop_marks_when_asked(out_dir: Path) -> None:
    _, reader = _build(out_dir, "hh-nomarks.pdf", HH, "--no-crop-marks", "--only", "squire")
    _, lines = page_ops(reader, reader.pages[0])
    assert lines == []


DECKS = {"hero": "hero-deck", "action": "hero-deck", "monster": "horde-deck", "treasure": "treasure-deck",
         "town": "town-deck", "token": "token-back"}


def _check_backs(reader: Any, mirror: str) -> None:
    """Behind every card, at the mirrored place, is its own deck's back."""
    W, H = 210.0, 297.0
    checked = 0
    for front_i, back_i in front_and_back_pages(reader):
        fronts, _ = page_ops(reader, reader.pages[front_i])
        backs, _ = page_ops(reader, reader.pages[back_i])
        at = {(round(x, 3), round(y, 3)): name for name, x, y, *_ in backs}
        for name, x, y, w, h in fronts:
            kind = name.split(":")[1]
            if kind not in DECKS:
                continue
            bx, by = (W - x - w, y) if mirror == "columns" else (x, H - y - h)
            assert at[(round(bx, 3), round(by, 3))].startswith(f"back:{DECKS[kind]}"), name
            checked += 1
    assert checked > 150


def test_long_edge_duplex_mirrors_columns(hh_long: tuple[Path, Any]) -> None:
    _check_backs(hh_long[1], "columns")


def test_short_edge_duplex_mirrors_rows(hh_short: tuple[Path, Any]) -> None:
    _check_backs(hh_short[1], "rows")


def test_a_part_filled_sheet_has_its_backs_behind_the_right_cards(out_dir: Path) -> None:
    _, reader = _build(out_dir, "hh-squire.pdf", HH, "--only", "squire", "--no-crop-marks")
    fronts, _ = page_ops(reader, reader.pages[0])
    backs, _ = page_ops(reader, reader.pages[1])
    assert 0 < len(fronts) == len(backs) < 8  # fewer copies than a sheet holds
    assert {(round(210 - x - w, 3), round(y, 3)) for _, x, y, w, _ in fronts} == \
        {(round(x, 3), round(y, 3)) for _, x, y, *_ in backs}


def test_every_sheet_and_the_metadata_carry_the_fingerprint(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    fp = game_counts(HH)["fingerprint"]
    meta = reader.metadata
    assert fp in meta.subject and fp in meta.get("/Keywords", "")
    assert "Hordes & Heroes" in meta.title
    total = len(reader.pages)
    for n, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        assert fp in text and f"page {n} of {total}" in text and "Hordes & Heroes" in text


def test_treasures_have_both_halves(hh_long: tuple[Path, Any]) -> None:
    _, reader = hh_long
    text = "".join(p.extract_text() for p in reader.pages)
    for name in ("Blessed Charm", "Lucky Charm", "Pressure Keg", "Binding Twig", "Wand of Binding"):
        assert name in text


# --- Kingdoms ---------------------------------------------------------------------------------

def test_kingdoms_prints_every_physical_piece(kingdoms_pdf: tuple[Path, Any]) -> None:
    _, reader = kingdoms_pdf
    expected = {k: n for k, n in game_counts("kingdoms")["counts"].items() if k != "die"}
    counts = faces_per_kind(reader)
    assert {k: counts.get(k, 0) for k in expected} == expected


def test_kingdoms_player_sheet_lists_every_kingdom_and_ability(kingdoms_pdf: tuple[Path, Any]) -> None:
    from ruamel.yaml import YAML

    _, reader = kingdoms_pdf
    sheets = [p.extract_text() for p in reader.pages if "player-sheet, ability-reference ·" in p.extract_text()]
    assert any("player sheet" in t for t in sheets) and any("abilities" in t for t in sheets)
    text = norm("".join(sheets))
    yaml = YAML(typ="safe")
    for file in ("abilities", "kingdoms", "events"):
        for item in yaml.load((CONTENT / "kingdoms" / f"{file}.yaml").read_text())["items"]:
            assert norm(item["name"]) in text, item["name"]


def test_kingdoms_board_spans_several_sheets_with_overlap_marks(kingdoms_pdf: tuple[Path, Any]) -> None:
    _, reader = kingdoms_pdf
    board_pages = [p for p in reader.pages if "Board, sheet" in p.extract_text()]
    assert len(board_pages) >= 2
    for page in board_pages:
        forms, lines = page_ops(reader, page)
        assert [f[0] for f in forms] == ["board:board"]
        assert lines  # seam lines and registration targets
    joined = " ".join(p.extract_text() for p in board_pages)
    assert "cut off along the red line" in joined and "glue here" in joined


# --- the command line ------------------------------------------------------------------------

def test_default_output_goes_to_out_game_folder(tmp_path: Path) -> None:
    shutil.copytree(CONTENT / HH, tmp_path / "content" / HH)
    shutil.copytree(ROOT / "templates" / HH, tmp_path / "content" / HH / "templates")  # a copy is its own game
    proc = run_cli("pnp", HH, "--only", "squire", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / HH / "print-and-play.pdf").is_file()
    assert proc.stderr.count("\n") <= 2  # no progress bar when not on a terminal


def test_only_prints_the_named_components(out_dir: Path) -> None:
    _, reader = _build(out_dir, "hh-only.pdf", HH, "--only", "squire,ice-giant")
    assert faces_per_kind(reader) == {"hero": 4, "monster": 1}


def test_unknown_id_game_or_option_is_a_usage_error(tmp_path: Path) -> None:
    for args in (("pnp", HH, "--only", "squirre"), ("pnp", "no-such-game"), ("pnp", HH, "--paper", "a3"),
                 ("pnp", HH, "--backs", "sideways")):
        proc = run_cli(*args, "-o", str(tmp_path / "x.pdf"))
        assert proc.returncode == 2, args
    assert "did you mean `squire`" in run_cli("pnp", HH, "--only", "squirre").stderr
    assert not (tmp_path / "x.pdf").exists()


def test_bad_content_reports_diagnostics_and_exits_1(tmp_path: Path) -> None:
    game = tmp_path / HH
    shutil.copytree(CONTENT / HH, game)
    path = game / "heroes.yaml"
    path.write_text(path.read_text().replace("strength: 1\n", "strength: lots\n", 1))
    proc = run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 1
    assert "heroes.yaml:" in proc.stdout and "error" in proc.stdout
    assert not (tmp_path / "x.pdf").exists()


def scratch_with_templates(tmp_path: Path, game_id: str = HH) -> Path:
    """A game folder of one's own: a shipped game's content with its templates beside it."""
    game = tmp_path / game_id
    shutil.copytree(CONTENT / game_id, game)
    shutil.copytree(ROOT / "templates" / game_id, game / "print")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("schemas: hordekit\n", "schemas: hordekit\ntemplates: print\n"))
    return game


def test_a_failed_run_leaves_the_previous_pdf_untouched(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path)
    pdf = tmp_path / "out" / "hh.pdf"
    assert run_cli("pnp", str(game), "-o", str(pdf)).returncode == 0
    before = pdf.read_bytes()
    layouts = game / "print" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace('text: "{{ name }}", font: bold, size: 11, min-size: 7}',
                                                   'text: "{{ name.no.such.field }}", font: bold, size: 11, min-size: 7}', 1))
    proc = run_cli("pnp", str(game), "-o", str(pdf))
    assert proc.returncode == 1
    assert re.search(r"print/layouts\.yaml:\d+:\d+: error HK403", proc.stdout), proc.stdout
    assert pdf.read_bytes() == before
    assert sorted(p.name for p in pdf.parent.iterdir()) == ["hh.pdf"]  # no temporary file left behind


def test_a_template_error_in_text_yaml_names_its_file_and_line(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path)
    text = game / "print" / "text.yaml"
    lines = text.read_text().splitlines()
    n = next(i for i, ln in enumerate(lines) if ln.startswith("steam:"))
    lines[n] = 'steam: "Get {{ amount + }} :steam:."'
    text.write_text("\n".join(lines) + "\n")
    proc = run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 1
    assert f"print/text.yaml:{n + 1}:" in proc.stdout


def test_templates_cannot_compute_without_bound(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path)
    layouts = game / "print" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace('text: "{{ name }}", font: bold, size: 11, min-size: 7}',
                                                   'text: "{{ 7 ** 20000000 }}", font: bold, size: 11, min-size: 7}', 1))
    start = time.perf_counter()
    proc = run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf"))
    assert time.perf_counter() - start < 20
    assert proc.returncode == 1 and "HK403" in proc.stdout and "exponent" in proc.stdout


def test_an_unknown_icon_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path)
    text = game / "print" / "text.yaml"
    text.write_text(text.read_text().replace('steam: "Get {{ amount }} :steam:."', 'steam: "Get {{ amount }} :vapour:."'))
    proc = run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning HK402" in proc.stdout and ":vapour:" in proc.stdout


def test_overlong_text_is_reported_at_the_field_it_prints(tmp_path: Path) -> None:
    game = tmp_path / HH
    shutil.copytree(CONTENT / HH, game)
    shutil.copytree(ROOT / "templates" / HH, game / "templates")  # a copy is its own game
    heroes = game / "heroes.yaml"
    text = heroes.read_text()
    many = ", ".join(["{kind: capture, max_strength: 3}"] * 8)
    text = text.replace("    effects: [{kind: shield, amount: 1}]\n", f"    effects: [{many}]\n", 1)  # Squire's
    heroes.write_text(text)
    # at the effects the ability box prints, the words to shorten
    line = next(i for i, ln in enumerate(text.splitlines(), start=1) if "{kind: capture, max_strength: 3}" in ln)
    proc = run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 0  # a warning: the sheet is still printed
    assert re.search(rf"heroes\.yaml:{line}:14: warning HK401: text of hero 'squire' does not fit", proc.stdout), proc.stdout

    from toolkit.games import load_game
    from toolkit.pnp import check_text_fit

    found = [d for d in check_text_fit(load_game(game)) if d.code == "HK401"]
    assert [(Path(d.file).name, d.line, d.severity.value) for d in found] == [("heroes.yaml", line, "warning")]


def test_shipped_games_have_no_print_problems() -> None:
    from toolkit.games import load_game
    from toolkit.pnp import check_text_fit

    for game in (HH, "kingdoms"):
        assert check_text_fit(load_game(CONTENT / game)) == []


def test_changed_since_prints_only_what_changed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(CONTENT / HH, repo / "content" / HH)
    shutil.copytree(ROOT / "templates" / HH, repo / "content" / HH / "templates")  # a copy is its own game

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)

    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "content")
    monsters = repo / "content" / HH / "monsters.yaml"
    monsters.write_text(monsters.read_text().replace("name: Ice Giant, level: 2, strength: 9", "name: Ice Giant, level: 2, strength: 10"))
    pdf = tmp_path / "reprint.pdf"
    proc = run_cli("pnp", HH, "--changed-since", "HEAD", "-o", str(pdf), cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert faces_per_kind(pypdf.PdfReader(str(pdf))) == {"monster": 1}
    assert "ice-giant" in proc.stderr
    assert run_cli("pnp", HH, "--changed-since", "no-such-ref", cwd=repo).returncode == 2


def test_preview_writes_a_png_of_the_pieces_size(tmp_path: Path) -> None:
    png = tmp_path / "card.png"
    proc = run_cli("preview", HH, "ice-giant", "-o", str(png), "--dpi", "150")
    assert proc.returncode == 0, proc.stderr
    assert png_size(png) == (round(69 / 25.4 * 150), round(94 / 25.4 * 150))
    back = tmp_path / "back.png"
    assert run_cli("preview", "kingdoms", "kobold-commander", "--back", "-o", str(back), "--dpi", "100").returncode == 0
    assert png_size(back) == (round(31 / 25.4 * 100), round(31 / 25.4 * 100))
    assert run_cli("preview", HH, "nobody", "-o", str(png)).returncode == 2


def test_help_stays_fast_without_reportlab() -> None:
    code = "import sys, toolkit.cli; print(any(m.startswith(('reportlab', 'pypdfium2', 'jinja2')) for m in sys.modules))"
    proc = subprocess.run([__import__("sys").executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout.strip() == "False"


def test_a_white_round_chit_has_a_line_to_cut_along(tmp_path: Path) -> None:
    """Kingdoms' food chits are white (the rulebook's colour): on white paper their round cut
    would be invisible, so a grey line runs on the cut (read back from the rendered piece)."""
    from PIL import Image

    png = tmp_path / "food.png"
    proc = run_cli("preview", "kingdoms", "resource-chit-food", "-o", str(png), "--dpi", "254")
    assert proc.returncode == 0, proc.stderr
    img = Image.open(png).convert("L")
    assert img.size == (220, 220)                      # 16 mm and 3 mm of bleed a side, 10 px per mm
    cx = cy = 110
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):  # the trim circle lies 80 px from the centre
        ring = [img.getpixel((cx + dx * r, cy + dy * r)) for r in range(77, 84)]
        assert min(ring) < 200, ring
    assert img.getpixel((cx + 90, cy)) > 240           # the bleed beyond stays white
