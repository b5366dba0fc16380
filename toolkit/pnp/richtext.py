"""Card text with inline icons and **bold**: parse, wrap, shrink to fit, draw.

Why our own and not ReportLab's Paragraph: a sheet holds hundreds of boxes and each box may be
tried at several sizes; measuring words directly is an order of magnitude faster, and icons are
the game's vector icons rather than images. Layout (``fit``) is pure, so ``check_text_fit`` can find
overflows without drawing anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from toolkit.pnp.cmyk import set_text_fill
from toolkit.pnp.fonts import styled
from toolkit.pnp.glyphs import IconSet

ICON_RE = re.compile(r":([a-z][a-z0-9]*(?:-[a-z0-9]+)*):")
_SPLIT = re.compile(r"(\*\*|:[a-z][a-z0-9]*(?:-[a-z0-9]+)*:|\n)")
ICON_EM = 1.05  # an icon's width, in ems
ICON_GAP = 0.06  # space either side of an icon, in ems
# Where a line may break: any run of white space but the no-break space U+00A0, as in ReportLab's
# Paragraph (reportlab.platypus.paragraph.split keeps U+00A0 inside words). Text may also write it
# as Paragraph markup does, ``&nbsp;``.
NBSP = "\u00a0"
BREAKS = re.compile(r"([^\S\u00a0]+)")
# An amount printed before the token it counts ("3 :gold:", "+1 :strength:", "2x :die-6:",
# "+1 attack", "2 hexes"; a threshold "7+" too) or after the icon it counts (":range: 3", ":shield: 1.", ":d10: 4-9",
# ":die-6: x2"): the two never part at a line break.
AMOUNT_BEFORE = re.compile(r"\(?[+\-\u2212]?\d+(?:[-\u2013]\d+)?\+?[x\u00d7]?")
AMOUNT_AFTER = re.compile(r"[x\u00d7]?[+\-\u2212]?\d+(?:[-\u2013]\d+)?\+?[.,;:!?)]*")
_PUNCT = re.compile(r"[.,;:!?)\]\u2019'\"]+")


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of text in one font, or an icon (text is then the icon name)."""

    text: str
    bold: bool
    icon: bool = False


@dataclass(slots=True)
class Line:
    pieces: list[tuple[float, Piece, bool]] = field(default_factory=list)  # (x offset, piece, space before)
    width: float = 0.0


@dataclass(slots=True)
class Fitted:
    size: float
    leading: float
    lines: list[Line]
    overflow: bool
    height: float


def icon_names(text: str) -> list[str]:
    """The icon names written in ``text`` (``:name:``), each once, in order."""
    return list(dict.fromkeys(m.group(1) for m in ICON_RE.finditer(text)))


@lru_cache(maxsize=8192)
def parse(text: str) -> list[list[list[Piece]]]:
    """Paragraphs -> words -> pieces. Spaces separate words; icons glue to adjacent text.

    A word is what a line never breaks inside: text written with a no-break space (U+00A0 or
    ``&nbsp;``), and tokens that belong together (``_bind``: an amount and what it counts, an icon
    and its word), which keep their space as a piece of the word.
    Cached, and only read afterwards: a list box lays each of its rows out at every size it tries.
    """
    paragraphs: list[list[list[Piece]]] = [[]]
    word: list[Piece] = []
    bold = False

    def end_word() -> None:
        nonlocal word
        if word:
            paragraphs[-1].append(word)
            word = []

    for part in _SPLIT.split(text.replace("&nbsp;", NBSP)):
        if not part:
            continue
        if part == "**":
            bold = not bold
        elif part == "\n":
            end_word()
            paragraphs.append([])
        elif ICON_RE.fullmatch(part):
            word.append(Piece(part[1:-1], bold, icon=True))
        else:
            for chunk in BREAKS.split(part):
                if not chunk:
                    continue
                if BREAKS.fullmatch(chunk):
                    end_word()
                    continue
                for i, bit in enumerate(chunk.split(NBSP)):
                    if i:
                        word.append(Piece(" ", bold))  # a no-break space: printed as a space
                    if bit:
                        word.append(Piece(bit, bold))
    end_word()
    return [_bind(para) for para in paragraphs]


def _plain(word: list[Piece]) -> str | None:
    """The text of a word without icons, else None."""
    return None if any(p.icon for p in word) else "".join(p.text for p in word)


def _is_amount(word: list[Piece], pattern: re.Pattern[str]) -> bool:
    text = _plain(word)
    return text is not None and pattern.fullmatch(text) is not None


def _icon_word(word: list[Piece]) -> bool:
    """An icon standing as a word: icons only, perhaps with punctuation after (":stone:.", ":castle::")."""
    return word[0].icon and all(p.icon or _PUNCT.fullmatch(p.text) for p in word)


def _starts_with_letter(word: list[Piece]) -> bool:
    return not word[0].icon and word[0].text[:1].isalpha()


def _names(word: list[Piece], icon: str) -> bool:
    """The word is the icon's own name ("Ambush" for :ambush:, "Flying" for :flying:)."""
    text = _plain(word)
    return text is not None and text.strip(".,;:!?()").lower() == icon.replace("-", " ")


def _bind(words: list[list[Piece]]) -> list[list[Piece]]:
    """Join the tokens of a paragraph that must not part at a line break.

    1. An amount belongs to the icon right before it, unless an earlier amount already counts that
       icon (":range: 3", ":d10: 4-9", ":shield: 1."); else to the token right after it: an icon
       ("3 :gold:", "+1 :strength:") or a word, its unit ("2 hexes", "+1 attack"). An amount that
       ends its clause (punctuation after it, or the paragraph's end) stays with the word before
       it, unless that is an amount too ("never above 5.", "hitting on 7+.", "faces 1, 2, 3").
    2. An icon that counts no amount belongs to its own name next to it ("Ambush :ambush:",
       ":flying: Flying"); else to the word right after it (":army: stacks"); an icon that ends
       its clause (punctuation after it, or the paragraph's end) to the word right before it
       ("less :stone:.").
    The joined words keep their space (as a piece) but never part at a line break.
    """
    n = len(words)
    joins: set[int] = set()  # i in joins: word i and word i + 1 are one
    counted: set[int] = set()  # icon words an amount belongs to
    for i, word in enumerate(words):
        before = words[i - 1] if i > 0 else None
        if before is not None and before[-1].icon and i - 1 not in counted and _is_amount(word, AMOUNT_AFTER):
            joins.add(i - 1)
            counted.add(i - 1)
        elif i + 1 < n and _is_amount(word, AMOUNT_BEFORE) and (words[i + 1][0].icon or _starts_with_letter(words[i + 1])):
            joins.add(i)
            if words[i + 1][0].icon:
                counted.add(i + 1)
        elif (before is not None and _is_amount(word, AMOUNT_AFTER) and not _is_amount(before, AMOUNT_AFTER)
              and (i + 1 == n or not _is_amount(word, AMOUNT_BEFORE))):
            joins.add(i - 1)  # it ends its clause: never alone at a line's start ("above 5.", "from 3:")
    for i, word in enumerate(words):
        if i in counted or not _icon_word(word):
            continue
        name = word[0].text
        before = words[i - 1] if i > 0 else None
        after = words[i + 1] if i + 1 < n else None
        if before is not None and _names(before, name):
            joins.add(i - 1)
        elif after is not None and _names(after, name):
            joins.add(i)
        elif after is not None and word[-1].icon and _starts_with_letter(after):
            joins.add(i)
        elif before is not None and (after is None or not word[-1].icon):
            joins.add(i - 1)
    if not joins:
        return words
    out: list[list[Piece]] = []
    for i, word in enumerate(words):
        if i - 1 in joins:
            out[-1] = out[-1] + [Piece(" ", False)] + word
        else:
            out.append(word)
    return out


@lru_cache(maxsize=65536)
def text_width(text: str, font: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, 1.0)


def _piece_width(p: Piece, base_font: str) -> float:
    if p.icon:
        return ICON_EM + 2 * ICON_GAP
    return text_width(p.text, styled(base_font, p.bold, False))


def _wrap(paragraphs: list[list[list[Piece]]], base_font: str, size: float, width: float) -> tuple[list[Line], bool]:
    """Greedy line breaking at ``size``; the flag says a single word was wider than the box.

    A paragraph whose last line would hold one short word alone takes a word down from the line
    before when both still fit (see ``_no_lone_last_word``): the line count, and so the size the
    text fits at, never changes.
    """
    space = text_width(" ", base_font) * size
    lines: list[Line] = []
    too_wide = False
    for para in paragraphs:
        line = Line()
        words: list[list[tuple[Piece, float]]] = []  # the words of this paragraph's last two lines
        before: list[list[tuple[Piece, float]]] = []
        for word in para:
            widths = [_piece_width(p, base_font) * size for p in word]
            w = sum(widths)
            if w > width + 0.01:
                too_wide = True
            start = line.width + (space if line.pieces else 0.0)
            if line.pieces and start + w > width + 0.01:
                lines.append(line)
                line = Line()
                start = 0.0
                before, words = words, []
            _place(line, list(zip(word, widths)), start)
            words.append(list(zip(word, widths)))
        if len(words) == 1 and len(before) >= 2:
            _no_lone_last_word(lines[-1], line, before, words, space, width)
        lines.append(line)
    return lines, too_wide


LONE_WORD_SHARE = 1 / 3  # a last line holding one word narrower than this share of the box is a lone word


def _place(line: Line, word: list[tuple[Piece, float]], start: float) -> None:
    x = start
    first = True
    for p, pw in word:
        line.pieces.append((x, p, first and bool(line.pieces)))
        first = False
        x += pw
    line.width = x


def _no_lone_last_word(prev: Line, last: Line, before: list[list[tuple[Piece, float]]],
                       words: list[list[tuple[Piece, float]]], space: float, width: float) -> None:
    """Move the last word of ``prev`` down beside the lone short word on ``last``, when both lines
    still fit and ``prev`` stays at least as long as the new last line (the shape stays a
    paragraph's, not a step). Lines are laid out again in place; nothing happens otherwise."""
    moved, lone = before[-1], words[0]
    lone_w = sum(pw for _, pw in lone)
    if lone_w >= width * LONE_WORD_SHARE:
        return
    new_last = sum(pw for _, pw in moved) + space + lone_w
    new_prev = sum(sum(pw for _, pw in w) for w in before[:-1]) + space * (len(before) - 2)
    if new_last > width + 0.01 or new_prev < new_last:
        return
    prev.pieces.clear()
    prev.width = 0.0
    for w in before[:-1]:
        _place(prev, w, prev.width + (space if prev.pieces else 0.0))
    last.pieces.clear()
    last.width = 0.0
    for w in (moved, lone):
        _place(last, w, last.width + (space if last.pieces else 0.0))


@lru_cache(maxsize=8192)
def fit(text: str, base_font: str, size: float, min_size: float, width: float, height: float,
        leading: float = 1.18, step: float = 0.25) -> Fitted:
    """Lay ``text`` out in a width × height box (points), shrinking from size down to min_size.

    ``overflow`` is True when even the minimum size does not fit: the caller reports it.
    Cached: many pieces print the same text in the same box (costs, effect sentences), and a
    ``Fitted`` is only read afterwards.
    """
    paragraphs = parse(text)
    s = _first_size_worth_trying(paragraphs, base_font, size, min_size, width, height, leading, step)
    while True:
        lines, too_wide = _wrap(paragraphs, base_font, s, width)
        h = len(lines) * s * leading
        fits = not too_wide and h <= height + 0.01
        if fits or s - step < min_size - 1e-6:
            return Fitted(s, s * leading, lines, not fits, h)
        s = round(s - step, 4)


def _first_size_worth_trying(paragraphs: list[list[list[Piece]]], base_font: str, size: float, min_size: float,
                             width: float, height: float, leading: float, step: float) -> float:
    """The first size on the way down from ``size`` at which the text could fit at all.

    A size at which one line is taller than the box, or one word wider, fails whatever the
    wrapping, so laying the text out there is skipped (a box set at 300 pt would otherwise be
    laid out over a thousand times). The margins keep a size at the exact edge for the full test.
    """
    s = size
    if s - step < min_size - 1e-6:
        return s  # no smaller size to try (a list box tries one size at a time)
    widest = max((sum(_piece_width(p, base_font) for p in word) for para in paragraphs for word in para), default=0.0)
    while s - step >= min_size - 1e-6 and (s * leading > height + 0.01 + 1e-6 or s * widest > width + 0.01 + 1e-6):
        s = round(s - step, 4)
    return s


def draw(c: Any, fitted: Fitted, base_font: str, x: float, y: float, width: float, height: float,
         align: str = "left", valign: str = "top", ink: tuple[float, float, float] = (0, 0, 0),
         icons: IconSet | None = None) -> None:
    """Draw fitted text in the box whose bottom-left corner is (x, y), all in points."""
    s = fitted.size
    if valign == "middle":
        top = y + (height + fitted.height) / 2
    elif valign == "bottom":
        top = y + fitted.height
    else:
        top = y + height
    ascent = s * 0.80 + (fitted.leading - s) / 2
    set_text_fill(c, ink)
    for i, line in enumerate(fitted.lines):
        if align == "center":
            x0 = x + (width - line.width) / 2
        elif align == "right":
            x0 = x + width - line.width
        else:
            x0 = x
        base = top - ascent - i * fitted.leading
        run: list[str] = []
        run_x = 0.0
        run_font = ""
        for off, p, space_before in line.pieces:
            font = styled(base_font, p.bold, False)
            if run and (p.icon or font != run_font):
                _flush(c, run, run_font, s, run_x, base)
                run = []
            if p.icon:
                gx = x0 + off + ICON_GAP * s
                (icons or IconSet()).draw(c, p.text, gx, base - 0.17 * s, ICON_EM * s, ink)
                set_text_fill(c, ink)
                continue
            if not run and p.text == " ":
                continue  # a joined space after an icon: the next piece is placed past it anyway
            if not run:
                run_x, run_font = x0 + off, font
                run.append(p.text)
            else:
                run.append((" " if space_before else "") + p.text)
        if run:
            _flush(c, run, run_font, s, run_x, base)


def note_icons(fitted: Fitted, icons: IconSet) -> None:
    """Note the size every inline icon of laid-out text prints at (what ``draw`` would draw)."""
    for line in fitted.lines:
        for _off, p, _space in line.pieces:
            if p.icon:
                icons.note(p.text, ICON_EM * fitted.size)


def _flush(c: Any, run: list[str], font: str, size: float, x: float, y: float) -> None:
    c.setFont(font, size)
    c.drawString(x, y, "".join(run))
