"""The print reads the rules' constants: the quick reference and card footers of Hordes & Heroes
are rendered from content/hordes-and-heroes/rules.yaml, the same item the engine plays with."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from test_hh_support import CONTENT, ROOT


def _print(tmp_path: Path, change: dict[str, tuple[str, str]] | None = None) -> str:
    """Copy the game, apply text changes to its files, print the quick reference and an action
    card, and return the PDF's text with whitespace collapsed."""
    game = tmp_path / "hordes-and-heroes"
    shutil.copytree(CONTENT, game)
    shutil.copytree(ROOT / "templates" / "hordes-and-heroes", game / "print")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("schemas: hordekit\n", "schemas: hordekit\ntemplates: print\n"))
    for name, (old, new) in (change or {}).items():
        path = game / name
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new))
    pdf = tmp_path / "x.pdf"
    run = subprocess.run([sys.executable, "-m", "toolkit", "pnp", str(game), "-o", str(pdf),
                          "--only", "quick-reference,by-the-power-of,steamasaur"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(pdf).pages))


def test_the_quick_reference_prints_the_rules_numbers(tmp_path: Path) -> None:
    text = _print(tmp_path)
    for phrase in ("Bring up to 2 heroes", "(5 at most)", "up to 2 action cards", "Roll 5 dice",
                   "up to 2 times", "Draw 4, keep at most 5", "play up to 2 a turn"):
        assert phrase in text, phrase


def test_the_quick_reference_states_the_attack_and_treasure_limits(tmp_path: Path) -> None:
    """The summary of the Attack step names the choice, the lock after a flip and the end on a
    flip too strong; that of the Treasure step, one treasure per hero, idle until the next
    activation (the rulebook's Attack and Treasure steps and its Using Treasures)."""
    text = _print(tmp_path)
    for phrase in ("take face-up monsters whose strength you equal or beat",
                   "after a flip you stay in that stack",
                   "a flipped monster you cannot beat ends the attack",
                   "one per hero; it works from the hero's next activation"):
        assert phrase in text, phrase


def test_changing_a_rule_constant_changes_the_print(tmp_path: Path) -> None:
    text = _print(tmp_path, {"rules.yaml": ("    end-draw: 4\n    notes", "    end-draw: 3\n    notes")})
    assert "Draw 3, keep at most 5" in text and "Draw 4" not in text


def test_changing_a_rule_constant_changes_play() -> None:
    from engine.hordes_and_heroes import SPEC
    from test_hh_support import content
    data = dict(content())
    data["rules"] = [dict(data["rules"][0], **{"end-draw": 3})]
    st = SPEC.scenario_state(SPEC.build_model(data), 2, {"phase": "end", "players": [{"party": ["squire"]}, {}],
                                                         "stacks": [["imp"]]})
    draws = 0
    d = st.decision()
    while d is not None and d.prompt == "Draw from the hero deck":
        draws += 1
        st.apply(0)
        d = st.decision()
    assert draws == 3


def test_a_steam_cost_prints_as_an_alternative_to_dice(tmp_path: Path) -> None:
    text = _print(tmp_path)
    assert " or 4" in text and "+4" not in text


def test_a_hero_cards_footer_line_stays_clear_of_the_cards_frame(tmp_path: Path) -> None:
    # One piece per page, with its 3 mm bleed: the frame's 0.8 mm line is drawn 3 mm inside the
    # trim, so its inner edge runs 6.4 mm above the page's bottom edge.
    pypdfium2 = pytest.importorskip("pypdfium2")
    pdf = tmp_path / "pieces.pdf"
    run = subprocess.run([sys.executable, "-m", "toolkit", "export", "pieces", "hordes-and-heroes", "-o", str(pdf)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    mm = 72 / 25.4
    checked = 0
    for page in pypdfium2.PdfDocument(str(pdf)):
        tp = page.get_textpage()
        hit = tp.search("Hero · activate").get_next()
        if hit is None:
            continue
        start = hit[0]
        rest = tp.get_text_range(start, min(160, tp.count_chars() - start))
        end = start + rest.index("\r\nv")  # the footer's lines, up to the version mark below them
        boxes = [tp.get_charbox(i) for i in range(start, end) if tp.get_charbox(i)[2] > tp.get_charbox(i)[0]]
        line = tp.get_text_range(start, end - start)
        bottoms = [b[1] / mm for b in boxes]
        assert min(bottoms) > 6.4 + 0.3, f"{line!r} reaches {min(bottoms):.2f} mm: onto the frame"
        assert max(bottoms) - min(bottoms) < 1.5, f"{line!r} wraps onto a second line"
        checked += 1
    assert checked >= 20  # every hero, with a steam cost or without


def _ink_inside_border(tmp_path: Path, game: str, piece: str) -> dict[str, float]:
    """mm between a reference card's border line and the nearest ink inside it, on each side, read
    from the piece rendered at 300 dpi (its border: the design's first stroked rectangle)."""
    from PIL import Image

    from toolkit.pnp.layoutfile import read_layouts

    layouts, _ = read_layouts(ROOT / "templates" / game)
    design = layouts.extras.get(piece) or layouts.kinds[piece]
    border = next(b for b in design.boxes if b.type == "rect" and b.props.get("stroke"))
    item = piece if piece in layouts.extras else {"reference-card": "reference-player-2"}[piece]
    png = tmp_path / f"{game}-{piece}.png"
    run = subprocess.run([sys.executable, "-m", "toolkit", "preview", game, item, "-o", str(png), "--dpi", "300"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    img = Image.open(png).convert("L")
    dots = 300 / 25.4
    inset = 1.2 + float(border.props.get("radius", 0)) * 0.3  # clear of the line and its rounded corners
    left, top = border.x + inset, border.y + inset
    right, bottom = border.x + border.w - inset, border.y + border.h - inset
    box = tuple(round((v + 3) * dots) for v in (left, top, right, bottom))  # 3 mm bleed around the trim
    inner = img.crop(box).point(lambda v: 255 if v < 110 else 0)
    x0, y0, x1, y1 = inner.getbbox()
    return {"left": x0 / dots + inset, "top": y0 / dots + inset,
            "right": (box[2] - box[0] - x1) / dots + inset, "bottom": (box[3] - box[1] - y1) / dots + inset}


def test_the_quick_reference_keeps_the_inner_margin_of_the_other_reference_cards(tmp_path: Path) -> None:
    ours = _ink_inside_border(tmp_path, "hordes-and-heroes", "quick-reference")
    others = [_ink_inside_border(tmp_path, "kingdoms", "reference"),
              _ink_inside_border(tmp_path, "fantasy-draft", "reference-card")]
    for side in ("left", "right", "bottom"):  # the body text: 3 mm of the border, at least
        assert ours[side] >= 2.9, (side, ours)
    for side in ("left", "top"):  # where every card's text starts: no closer than on the others
        assert ours[side] >= min(o[side] for o in others) - 0.1, (side, ours, others)
