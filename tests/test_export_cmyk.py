"""`hordekit export pieces --cmyk`: files for print shops that ask for CMYK.

Every colour operator in the PDF (pages and the forms they place) is a CMYK one, black and greys
use black ink only, and bitmaps are CMYK images that keep their transparency.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pypdf
import pytest

from conftest import FIXTURES, run_cli

HEXFIX = FIXTURES / "hexfix"
PYLIB = FIXTURES / "pylib"
_OPS = re.compile(r"(?:^|\s)(-?[\d.]+(?:\s+-?[\d.]+){0,3})\s+(rg|RG|k|K|g|G|sc|scn|SC|SCN)(?=\s)")


def _streams(reader: pypdf.PdfReader) -> list[tuple[str, Any]]:
    """(content, resources) of every page and of every form XObject, each form once."""
    out: list[tuple[str, Any]] = []
    seen: set[int] = set()

    def forms(resources: Any) -> None:
        for obj in (resources or {}).get("/XObject", {}).values():
            ref = obj.idnum if hasattr(obj, "idnum") else id(obj)
            form = obj.get_object()
            if ref in seen or form.get("/Subtype") != "/Form":
                continue
            seen.add(ref)
            out.append((form.get_data().decode("latin-1"), form))
            forms(form.get("/Resources"))

    for page in reader.pages:
        out.append((page.get_contents().get_data().decode("latin-1"), page))
        forms(page.get("/Resources"))
    return out


def _colour_ops(pdf: Path) -> dict[str, list[str]]:
    ops: dict[str, list[str]] = {}
    for data, _owner in _streams(pypdf.PdfReader(str(pdf))):
        for values, op in _OPS.findall(data):
            ops.setdefault(op, []).append(" ".join(values.split()))
    return ops


def test_rgb_to_cmyk_puts_black_and_greys_in_black_ink_only() -> None:
    from toolkit.pnp.cmyk import rgb_to_cmyk

    assert rgb_to_cmyk(0, 0, 0) == (0, 0, 0, 1)
    assert rgb_to_cmyk(1, 1, 1) == (0, 0, 0, 0)
    assert rgb_to_cmyk(0.25, 0.25, 0.25) == (0, 0, 0, 0.75)
    assert rgb_to_cmyk(1, 0, 0) == (0, 1, 1, 0)
    assert rgb_to_cmyk(0.2, 0.4, 0.6) == pytest.approx((2 / 3, 1 / 3, 0, 0.4), abs=1e-4)


def test_a_shipped_game_exports_with_cmyk_colours_only(tmp_path: Path) -> None:
    cmyk, rgb = tmp_path / "cmyk.pdf", tmp_path / "rgb.pdf"
    assert run_cli("export", "pieces", "kingdoms", "--cmyk", "-o", str(cmyk)).returncode == 0
    assert run_cli("export", "pieces", "kingdoms", "-o", str(rgb)).returncode == 0
    got, before = _colour_ops(cmyk), _colour_ops(rgb)
    assert before.get("rg") and before.get("RG")  # the plain export draws in RGB ...
    assert not {"rg", "RG"} & set(got), {op: got[op][:3] for op in ("rg", "RG") if op in got}
    assert got.get("k") and got.get("K")  # ... this one in CMYK, as many fills and strokes
    assert len(got["k"]) == len(before["rg"]) and len(got["K"]) == len(before["RG"])
    from toolkit.pnp.cmyk import rgb_to_cmyk, text_ink

    for cmyk_op, rgb_op in (("k", "rg"), ("K", "RG")):  # the same colours, in the same order, converted
        for ink, colour in zip(got[cmyk_op], before[rgb_op]):
            values = [float(v) for v in colour.split()]
            # near-black text is black ink alone (see the test below): either conversion is right here
            wants = [rgb_to_cmyk(*values), text_ink(*values)] if cmyk_op == "k" else [rgb_to_cmyk(*values)]
            assert any([float(v) for v in ink.split()] == pytest.approx(want, abs=2e-4) for want in wants), (ink, colour)
    greys = [ink for ink, colour in zip(got["k"], before["rg"]) if len(set(colour.split())) == 1]
    assert greys and all(ink.split()[:3] == ["0", "0", "0"] for ink in greys)  # greys: black ink alone
    assert len(pypdf.PdfReader(str(cmyk)).pages) == len(pypdf.PdfReader(str(rgb)).pages)


_TEXT_OPS = re.compile(r"(?:^|\s)(-?[\d.]+\s+-?[\d.]+\s+-?[\d.]+\s+-?[\d.]+)\s+k(?=\s)|\s(Tj|TJ)(?=\s)")


def _text_and_fill_inks(pdf: Path) -> tuple[set[tuple[float, ...]], set[tuple[float, ...]]]:
    """The CMYK fill colours text is shown in, and every CMYK fill colour set, over the whole PDF."""
    text: set[tuple[float, ...]] = set()
    fills: set[tuple[float, ...]] = set()
    for data, _owner in _streams(pypdf.PdfReader(str(pdf))):
        current: tuple[float, ...] | None = None
        for ink, show in _TEXT_OPS.findall(data):
            if ink:
                current = tuple(float(v) for v in ink.split())
                fills.add(current)
            elif current is not None:
                text.add(current)
    return text, fills


def test_near_black_text_prints_in_black_ink_alone(tmp_path: Path) -> None:
    # Hordes & Heroes sets its text in #2b2118, a near-black brown: plainly converted it is
    # 0/23/44/83 %, three inks whose plates never register exactly under 6 to 8 pt type
    from toolkit.pnp.cmyk import rgb_to_cmyk

    pdf = tmp_path / "cmyk.pdf"
    assert run_cli("export", "pieces", "hordes-and-heroes", "--cmyk", "-o", str(pdf)).returncode == 0
    text, fills = _text_and_fill_inks(pdf)
    brown = (0x2B / 255, 0x21 / 255, 0x18 / 255)
    rich = rgb_to_cmyk(*brown)
    assert all(not (c == pytest.approx(rich, abs=2e-4)) for c in text), "near-black text in four inks"
    dark = [c for c in text if c[3] >= 0.75]
    assert dark and all(c[:3] == (0, 0, 0) for c in dark), dark  # every dark text: black ink only
    luma = 0.299 * brown[0] + 0.587 * brown[1] + 0.114 * brown[2]
    assert any(c == pytest.approx((0, 0, 0, 1 - luma), abs=2e-4) for c in text)  # as dark as it looks
    # fills keep the designer's colour: the token's dark ring and the hero card's dot stay brown
    assert any(c == pytest.approx(rich, abs=2e-4) for c in fills)


def test_coloured_text_keeps_its_colour(tmp_path: Path) -> None:
    pdf = tmp_path / "cmyk.pdf"
    assert run_cli("export", "pieces", "hordes-and-heroes", "--cmyk", "-o", str(pdf)).returncode == 0
    text, _ = _text_and_fill_inks(pdf)
    assert any(sum(c[:3]) > 0.5 for c in text)  # red and gold words stay in colour


def test_art_becomes_a_cmyk_image_that_keeps_its_transparency(tmp_path: Path) -> None:
    from PIL import Image

    game = tmp_path / "hexfix"
    shutil.copytree(HEXFIX, game)
    units = game / "units.yaml"
    units.write_text(units.read_text().replace("{id: red-rider,", "{id: red-rider, art: art/rider.png,"))
    (game / "art").mkdir()
    art = Image.new("RGBA", (60, 48), (51, 102, 153, 255))
    art.paste((0, 0, 0, 0), (0, 0, 30, 48))  # the left half transparent
    art.save(game / "art" / "rider.png")
    pdf = tmp_path / "pieces.pdf"
    proc = run_cli("export", "pieces", str(game), "--cmyk", "-o", str(pdf), extra_path=[PYLIB])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    images = []
    for _data, owner in _streams(pypdf.PdfReader(str(pdf))):
        for obj in (owner.get("/Resources") or {}).get("/XObject", {}).values():
            xobj = obj.get_object()
            if xobj.get("/Subtype") == "/Image":
                images.append(xobj)
    assert images, "the art was not placed"
    for image in images:
        assert image["/ColorSpace"] == "/DeviceCMYK"
        assert "/SMask" in image
        mask = image["/SMask"].get_object()
        alpha = mask.get_data()
        assert min(alpha) == 0 and max(alpha) == 255  # transparent and opaque halves kept
        data = image.get_data()
        opaque = [data[i:i + 4] for i in range(0, len(data), 4) if alpha[i // 4] == 255]
        assert opaque and all(tuple(px) == (170, 85, 0, 102) for px in opaque)  # #336699 as ink


@pytest.mark.parametrize("game", ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"])
def test_no_colour_asks_for_more_than_300_percent_ink(tmp_path: Path, game: str) -> None:
    # shops refuse dark fills over 300 % total ink: the paper cannot take it and sheets set off
    pdf = tmp_path / "cmyk.pdf"
    assert run_cli("export", "pieces", game, "--cmyk", "-o", str(pdf)).returncode == 0
    inks = _colour_ops(pdf)
    coverage = [sum(float(v) for v in ink.split()) for op in ("k", "K") for ink in inks.get(op, [])]
    assert coverage and max(coverage) <= 3.0, max(coverage)
