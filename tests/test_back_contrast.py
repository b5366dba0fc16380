"""Every printed back of every shipped game: its words stand out from its background.

A back is the side a player reads across the table, so its text must be readable at arm's
length: the WCAG contrast ratio of each text colour against the back's background is at least
4.5:1 (the figure for text of normal size)."""
from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import ROOT

LAYOUTS = sorted((ROOT / "templates").glob("*/layouts.yaml"))


def luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _literal(value: object) -> str | None:
    text = str(value or "")
    return text.lower() if text.startswith("#") and len(text) == 7 and "{" not in text else None


def _backs() -> list[tuple[str, str, str, str]]:
    """(game, back, background, text colour) for every text box on a back with plain colours."""
    out = []
    for path in LAYOUTS:
        data = YAML(typ="safe").load(path.read_text())
        for name, back in (data.get("backs") or {}).items():
            boxes = back.get("boxes") or []
            ground = next((_literal(b.get("fill")) for b in boxes if b.get("bleed") and b.get("type") == "rect"), None)
            if ground is None:
                continue
            for box in boxes:
                if box.get("type") == "text":
                    out.append((path.parent.name, name, ground, _literal(box.get("colour")) or "#000000"))
    return out


def test_the_shipped_games_have_backs_to_check() -> None:
    assert len({(g, b) for g, b, _, _ in _backs()}) >= 4


@pytest.mark.parametrize("game,back,ground,ink", _backs())
def test_text_on_a_back_stands_out_from_its_background(game: str, back: str, ground: str, ink: str) -> None:
    assert contrast(ground, ink) >= 4.5, f"{game} {back}: {ink} on {ground} is {contrast(ground, ink):.2f}:1"


def test_the_contrast_formula_matches_known_pairs() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
