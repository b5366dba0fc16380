"""The four faces of Bitstream Vera, shipped inside ReportLab, registered once so they embed.

Registered TrueType fonts are embedded (as subsets) in every PDF that uses them, so a sheet
prints the same on any machine; the PDF base-14 fonts would be substituted by the viewer.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: Layout font names -> ReportLab font names.
FONTS = {"regular": "HK-Vera", "bold": "HK-VeraBd", "italic": "HK-VeraIt", "bold-italic": "HK-VeraBI"}
_FILES = {"HK-Vera": "Vera.ttf", "HK-VeraBd": "VeraBd.ttf", "HK-VeraIt": "VeraIt.ttf", "HK-VeraBI": "VeraBI.ttf"}


@cache
def register_fonts() -> dict[str, str]:
    import reportlab
    from reportlab.pdfbase import pdfmetrics

    folder = Path(reportlab.__file__).resolve().parent / "fonts"
    font_class = _remembering_font_class()
    for name, file in _FILES.items():
        pdfmetrics.registerFont(font_class(name, str(folder / file)))
    pdfmetrics.registerFontFamily("HK-Vera", normal="HK-Vera", bold="HK-VeraBd",
                                  italic="HK-VeraIt", boldItalic="HK-VeraBI")
    return FONTS


def _remembering_font_class() -> type:
    """ReportLab's TrueType font, remembering how each text it prints splits into glyph subsets.

    Every string drawn in an embedded font is first mapped, character by character in Python, to
    the font's subsets in that PDF (``splitString``); a game's PDF prints the same costs, names,
    icon names and footers hundreds of times. A character keeps its place in a document's subsets
    once given one, so the mapping of a text, once made, is the same for the rest of the document:
    it is kept per document and per text.

    Each embedded subset is named with a tag made from its own glyphs (``subset_tag``) rather
    than ReportLab's count (``AAAAAA+`` for the first subset of every font in every PDF): a print
    shop that merges or imposes several PDFs may take two fonts of one name for the same font and
    print one file's text with the other's glyphs.
    """
    from weakref import WeakKeyDictionary

    from reportlab.pdfbase.ttfonts import TTFont

    class RememberingTTFont(TTFont):
        def __init__(self, name: str, filename: str) -> None:
            super().__init__(name, filename)
            self._splits: WeakKeyDictionary[Any, dict[Any, Any]] = WeakKeyDictionary()

        def splitString(self, text: Any, doc: Any, encoding: str = "utf-8") -> Any:
            known = self._splits.get(doc)
            if known is None:
                known = self._splits[doc] = {}
            split = known.get((text, encoding))
            if split is None:
                split = known[(text, encoding)] = super().splitString(text, doc, encoding)
            return split

        def addObjects(self, doc: Any) -> None:
            import reportlab.pdfbase.ttfonts as ttfonts

            state = self.state.get(doc)
            counted = ttfonts.SUBSETN
            if state is not None:  # ReportLab names subset n with SUBSETN(n) while it writes them
                ttfonts.SUBSETN = lambda n, *_: subset_tag(self.face.name, state.subsets[n])
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = counted

    return RememberingTTFont


def subset_tag(face: bytes, subset: list[int]) -> bytes:
    """Six capital letters naming a font subset by its font and glyphs: the same subset, the same
    tag (so a PDF stays the same byte for byte), different subsets, different tags."""
    import hashlib

    digest = hashlib.sha256(face + b"|" + ",".join(map(str, subset)).encode("ascii")).digest()
    return bytes(65 + b % 26 for b in digest[:6])


def font_name(style: str) -> str:
    """The registered font for a layout font name (regular, bold, italic, bold-italic)."""
    return FONTS.get(style, FONTS["regular"])


def styled(base: str, bold: bool, italic: bool) -> str:
    """The registered font for ``base`` with bold and/or italic switched on by inline markup."""
    is_bold = bold or base in (FONTS["bold"], FONTS["bold-italic"])
    is_italic = italic or base in (FONTS["italic"], FONTS["bold-italic"])
    key = "bold-italic" if is_bold and is_italic else "bold" if is_bold else "italic" if is_italic else "regular"
    return FONTS[key]


@cache
def _printable(font: str) -> frozenset[str]:
    """The characters a registered font has a glyph for."""
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    return frozenset(map(chr, pdfmetrics.getFont(font).face.charToGlyph))


def unprintable(text: str, font: str) -> list[str]:
    """The characters of ``text`` (spaces and line breaks aside) that ``font`` would print as an
    empty box, each once, in order: emoji, other scripts, zero-width and other invisible marks."""
    if text.isascii():
        return [ch for ch in dict.fromkeys(text) if not ch.isprintable() and not ch.isspace()]
    have = _printable(font)
    return [ch for ch in dict.fromkeys(text) if ch not in have and not ch.isspace()]
