"""Checking text fit without drawing: the one-line shortcut must say exactly what a full layout says.

`hordekit validate` lays out every printed text to find overflows (HK401) and text below 6 pt
(HK411). Plain text that fits on one line at its box's size is answered by measuring the line;
these tests hold that answer to `richtext.fit`, on the shipped games' own texts and at the
exact widths where a line stops fitting.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import CONTENT, ROOT

GAMES = ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"]


def _names(game: str) -> list[str]:
    from toolkit.games import load_game

    loaded = load_game(CONTENT / game)
    out = []
    for items in loaded.data.values():
        for item in items:
            for key in ("name", "title", "id", "type"):
                if isinstance(item.get(key), str):
                    out.append(item[key])
    return sorted(set(out))


def _box(size: float, font: str, w: float, h: float, leading: float = 1.18) -> Any:
    from toolkit.pnp.layoutfile import Box

    return Box("text", 0, 0, w, h, {"size": size, "font": font, "leading": leading, "text": "{{ name }}"}, {})


@pytest.mark.parametrize("game", GAMES)
def test_a_plain_line_that_fits_is_what_a_full_layout_finds(game: str) -> None:
    from toolkit.pnp import richtext
    from toolkit.pnp.draw import _one_line_size
    from toolkit.pnp.fonts import font_name, register_fonts

    register_fonts()
    names = _names(game)
    assert len(names) >= 10
    answered = declined = 0
    for text in names:
        for style in ("regular", "bold"):
            font = font_name(style)
            for size in (5.0, 7.0, 11.0):
                exact = richtext.text_width(text, font) * size
                # the widths where the line stops fitting, and ordinary ones either side
                for w in (exact - 0.02, exact + 0.01 - 2e-6, exact + 0.01, exact + 0.02, exact * 0.5, exact * 2):
                    for h in (size * 1.18 - 0.02, size * 1.18 + 0.01, size * 3):
                        env = SimpleNamespace(styles={}, defaults={})
                        got = _one_line_size(env, _box(size, style, w, h), text, w, h)
                        full = richtext.fit(text, font, size, min(5.0, size), w, h, 1.18)
                        if got is None:
                            declined += 1
                            continue
                        answered += 1
                        assert (got, full.overflow, len(full.lines), full.size) == (size, False, 1, size), (text, w, h)
    assert answered > 100 and declined > 100  # both ways were tried


@pytest.mark.parametrize("text", ["Gain **2**", "Roll :d10:", "two\\nlines", "two\nlines", "   ", "", "Sword\u00a0of", "Sword&nbsp;of"])
def test_markup_icons_line_breaks_and_blank_text_get_a_full_layout(text: str) -> None:
    from toolkit.pnp.draw import _one_line_size
    from toolkit.pnp.fonts import register_fonts

    register_fonts()
    env = SimpleNamespace(styles={}, defaults={})
    assert _one_line_size(env, _box(7, "regular", 500, 100), text, 500, 100) is None


def _fit_report(game: Path, monkeypatch: pytest.MonkeyPatch, shortcut: bool) -> list[Any]:
    from toolkit.games import load_game
    from toolkit.pnp import check_text_fit, draw

    if not shortcut:
        monkeypatch.setattr(draw, "_one_line_size", lambda *args: None)
    try:
        loaded = load_game(game)
        assert loaded.ok, [str(d) for d in loaded.diagnostics]
        return [(d.code, d.file, d.line, d.col, d.message) for d in check_text_fit(loaded)]
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("game", GAMES)
def test_validation_finds_the_same_print_problems_with_the_shortcut(game: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of each game with a name box too narrow for its names and a box printed below 6 pt."""
    copy = tmp_path / game
    shutil.copytree(CONTENT / game, copy)
    if not (copy / "templates").exists():
        shutil.copytree(ROOT / "templates" / game, copy / "templates")
    layouts = copy / "templates" / "layouts.yaml"
    text = layouts.read_text()
    squeezed = re.sub(r'w: [\d.]+(, h: [\d.]+, text: "\{\{ name \}\}")', r"w: 4\1", text, count=1)  # names overflow
    small = re.sub(r"size: [\d.]+,", "size: 5.5,", squeezed, count=1)  # a box below 6 pt
    assert text != squeezed != small
    layouts.write_text(small)
    with_shortcut = _fit_report(copy, monkeypatch, True)
    without = _fit_report(copy, monkeypatch, False)
    assert with_shortcut == without
    assert {"HK401", "HK411"} <= {d[0] for d in without}, without  # the copy has both print problems to find


def _reference_fit(text: str, font: str, size: float, min_size: float, width: float, height: float,
                   leading: float, step: float = 0.25) -> Any:
    """Shrinking one step at a time from the box's size, laying the text out at every size."""
    from toolkit.pnp import richtext

    paragraphs = richtext.parse(text)
    s = size
    while True:
        lines, too_wide = richtext._wrap(paragraphs, font, s, width)
        h = len(lines) * s * leading
        fits = not too_wide and h <= height + 0.01
        if fits or s - step < min_size - 1e-6:
            return richtext.Fitted(s, s * leading, lines, not fits, h)
        s = round(s - step, 4)


@pytest.mark.parametrize("game", GAMES)
def test_shrinking_skips_only_sizes_at_which_the_text_cannot_fit(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_pnp_legend import printed_texts

    from toolkit.pnp import richtext
    from toolkit.pnp.fonts import FONTS

    texts = sorted(printed_texts(game, monkeypatch))[:12] + _names(game)[:6]
    skipped = 0
    for text in texts:
        for size, min_size in ((9.0, 5.0), (40.0, 4.0), (300.0, 0.5)):
            for width, height in ((30.0, 12.0), (90.0, 40.0), (160.0, 11.0), (500.0, 300.0)):
                got = richtext.fit(text, FONTS["regular"], size, min_size, width, height, 1.18)
                want = _reference_fit(text, FONTS["regular"], size, min_size, width, height, 1.18)
                assert (got.size, got.overflow, got.height, [ln.pieces for ln in got.lines]) == \
                       (want.size, want.overflow, want.height, [ln.pieces for ln in want.lines]), (text, size, width, height)
                skipped += got.size < size
    assert skipped > 20  # the big sizes were shrunk


def _printed_with(tmp_path: Path, file: str, old: str, new: str) -> tuple[Any, int]:
    """Print a copy of Hordes & Heroes whose templates/`file` has `old` replaced by `new`; the
    CLI's result and the first line that changed."""
    from conftest import run_cli

    game = tmp_path / "hordes-and-heroes"
    shutil.copytree(CONTENT / "hordes-and-heroes", game)
    shutil.copytree(ROOT / "templates" / "hordes-and-heroes", game / "templates")
    path = game / "templates" / file
    text = path.read_text()
    assert old in text
    changed = text.replace(old, new, 1)
    line = next(i for i, (a, b) in enumerate(zip(text.splitlines(), changed.splitlines()), start=1) if a != b)
    path.write_text(changed)
    return run_cli("pnp", str(game), "-o", str(tmp_path / "x.pdf")), line


@pytest.mark.parametrize("old,new,message", [
    ("font: bold, size: 12,", "font: bold, size: 1e9,", "'size' must be from 0.5 to 300 (pt), not 1e+09"),
    ("font: bold, size: 12,", "font: bold, size: .nan,", "'size' must be a number"),
    ("w: 51, h: 10,", "w: -51, h: 10,", "'w' must not be negative"),
    ("w: 51, h: 10,", "w: 51, h: .inf,", "'h' must be a number of millimetres"),
    ("size: 7.5", "size: 0", "'size' must be from 0.5 to 300 (pt), not 0"),
    ("    size: [63, 88]\n", "    size: [63, 88]\n    corner-radius: round\n", "'corner-radius' must be a number"),
])
def test_an_impossible_size_in_a_layout_is_an_error_at_its_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    """A text size of a billion points used to make printing shrink it a quarter point at a time, for hours."""
    proc, line = _printed_with(tmp_path, "layouts.yaml", old, new)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(rf"layouts\.yaml:{line}:\d+: error HK404: {re.escape(message)}", proc.stdout), proc.stdout
    assert "Traceback" not in proc.stderr and not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("old,new,message", [
    ("width: 7}", "width: 1e9}", "is greater than the maximum of 100"),
    ('{text: "d6", at: [50, 64], size: 38', '{text: "d6", at: [50, 64], size: 5000', "is greater than the maximum of 200"),
    ("radius: 16,", "radius: 400,", "is greater than the maximum of 100"),
])
def test_an_icon_stroke_or_text_bigger_than_its_box_is_an_error_at_its_line(tmp_path: Path, old: str, new: str,
                                                                            message: str) -> None:
    proc, line = _printed_with(tmp_path, "icons.yaml", old, new)
    assert proc.returncode == 1, proc.stdout
    assert re.search(rf"templates/icons\.yaml:{line}:\d+: error HK410: .*{re.escape(message)}", proc.stdout), proc.stdout
