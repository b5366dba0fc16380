"""Fonts as a print shop's preflight sees them: every font embedded as a TrueType subset (no
Type 3, nothing left to the shop's substitution), and each subset named by its own glyphs, so
that shops merging or imposing several PDFs never take two different subsets for one font.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdf
import pytest

from conftest import run_cli


def _fonts(pdf: Path) -> dict[str, Any]:
    """Every font dictionary of the PDF (pages and the forms they place), by its BaseFont."""
    found: dict[str, Any] = {}
    seen: set[int] = set()

    def walk(resources: Any) -> None:
        resources = resources.get_object() if resources is not None else {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = font
        for xobject in (resources.get("/XObject") or {}).values():
            ref = xobject.idnum if hasattr(xobject, "idnum") else id(xobject)
            if ref not in seen:
                seen.add(ref)
                walk(xobject.get_object().get("/Resources"))

    for page in pypdf.PdfReader(str(pdf)).pages:
        walk(page.get("/Resources"))
    return found


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("fonts")
    files = {}
    for game in ("kingdoms", "dice-battles"):
        files[game] = out / f"{game}.pdf"
        assert run_cli("export", "pieces", game, "-o", str(files[game])).returncode == 0
    files["kingdoms-cmyk"] = out / "kingdoms-cmyk.pdf"
    assert run_cli("export", "pieces", "kingdoms", "--cmyk", "-o", str(files["kingdoms-cmyk"])).returncode == 0
    return files


def test_every_font_is_an_embedded_truetype_subset(exports: dict[str, Path]) -> None:
    for pdf in exports.values():
        fonts = _fonts(pdf)
        assert fonts
        for name, font in fonts.items():
            assert font["/Subtype"] == "/TrueType", (pdf.name, name)  # no Type 3 bitmaps, no base-14 stand-ins
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), (pdf.name, name)  # embedded
            assert name[1:7].isalpha() and name[1:7].isupper() and name[7] == "+", name  # a subset


def test_subsets_are_named_by_their_glyphs_not_by_their_count(exports: dict[str, Path]) -> None:
    kingdoms, dice = _fonts(exports["kingdoms"]), _fonts(exports["dice-battles"])

    def glyphs(font: Any) -> bytes:
        return font["/ToUnicode"].get_object().get_data()

    roman = [(k, d) for k in kingdoms for d in dice if k.endswith("VeraSans-Roman") and d.endswith("VeraSans-Roman")]
    assert roman
    for k, d in roman:  # the two games print different characters in the regular face ...
        assert glyphs(kingdoms[k]) != glyphs(dice[d])
        assert k != d  # ... so its subsets carry different names
    for name in set(kingdoms) & set(dice):  # a name the two files share is the very same subset
        assert glyphs(kingdoms[name]) == glyphs(dice[name])


def test_the_names_do_not_change_from_run_to_run(exports: dict[str, Path], tmp_path: Path) -> None:
    again = tmp_path / "again.pdf"
    assert run_cli("export", "pieces", "kingdoms", "-o", str(again)).returncode == 0
    assert again.read_bytes() == exports["kingdoms"].read_bytes()
