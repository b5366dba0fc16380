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


@pytest.mark.parametrize("text", ["Gain **2**", "Roll :d10:", "two\\nlines", "two\nlines", "   ", ""])
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
