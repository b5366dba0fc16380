"""Line breaking in printed text: an icon stays on the line of its word, a number on the line of
what it counts, and `validate` measures the same lines the printer draws.

The cards are printed by the real CLI and read back with pypdfium2: each word's position on the
page tells which line it printed on (an icon reads as its name in brackets, e.g. `[flying]`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from test_pnp import scratch_with_templates

pdfium = pytest.importorskip("pypdfium2")

FD = "fantasy-draft"
FLYERS = ["dragon", "griffin-rider", "ghost"]  # the Fantasy Draft heroes that fly


def words_on_page(pdf: Path) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """Every word printed (visible or an icon's hidden name) as (text, its extent across the line
    direction, its extent along it), read with pdfium from the page's characters.

    The cards sit turned sideways on the sheet, so a line runs along the page's y axis or its x axis;
    the direction is read from the words themselves.
    """
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    for page in doc:
        tp = page.get_textpage()
        n = tp.count_chars()
        text = tp.get_text_range(0, n)
        for m in re.finditer(r"\[[a-z0-9-]+\]|[^\s\[\]]+", text):
            boxes = [tp.get_charbox(i) for i in range(m.start(), m.end())]
            lefts, bottoms, rights, tops = zip(*boxes)
            out.append((m.group(), (min(lefts), max(rights)), (min(bottoms), max(tops))))
    return out


def _across(word: Any, sideways: bool) -> tuple[float, float]:
    return word[1] if sideways else word[2]


def same_line(a: Any, b: Any, sideways: bool) -> bool:
    """Two words overlap across the line direction: they print on one line (lines are a leading apart)."""
    (a0, a1), (b0, b1) = _across(a, sideways), _across(b, sideways)
    return a0 < b1 and b0 < a1


def print_only(tmp_path: Path, game: str, ids: list[str]) -> Path:
    pdf = tmp_path / f"{game}.pdf"
    proc = run_cli("pnp", game, "--only", ",".join(ids), "--backs", "none", "-o", str(pdf))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return pdf


def test_a_flying_heros_flying_icon_prints_on_the_line_of_its_word(tmp_path: Path) -> None:
    """The stats line '2 actions · Melee · [flying] Flying' is too long for the card and breaks once.

    The icon belongs to its word: before, the break fell between them (icon at the end of the first
    line, 'Flying' alone on the next).
    """
    words = words_on_page(print_only(tmp_path, FD, FLYERS))
    icons = [w for w in words if w[0] == "[flying]"]
    labels = [w for w in words if w[0] == "Flying"]
    melee = [w for w in words if w[0] == "Melee"]
    assert len(icons) == len(labels) == len(melee) == len(FLYERS)
    sideways = (labels[0][1][1] - labels[0][1][0]) < (labels[0][2][1] - labels[0][2][0])
    for icon, label, mel in zip(sorted(icons, key=lambda w: (w[2], w[1])), sorted(labels, key=lambda w: (w[2], w[1])),
                                sorted(melee, key=lambda w: (w[2], w[1]))):
        assert not same_line(mel, label, sideways), "the line breaks before 'Flying' (else this proves nothing)"
        assert same_line(icon, label, sideways), (icon, label)
        assert not same_line(icon, mel, sideways), (icon, mel)


def test_a_number_prints_on_the_line_of_what_it_counts_on_the_ability_reference(tmp_path: Path) -> None:
    """Kingdoms' ability reference: '+1 attack', '+1 defense', '+1 hit' each stay on one line
    (before, several broke after '+1')."""
    words = words_on_page(print_only(tmp_path, "kingdoms", ["ability-reference"]))
    sideways = False
    for w in words:
        if len(w[0]) >= 8 and w[0].isalpha():
            sideways = (w[1][1] - w[1][0]) < (w[2][1] - w[2][0])
            break
    pairs = [(a, b) for a, b in zip(words, words[1:]) if a[0] == "+1" and b[0].rstrip(".") in ("attack", "defense", "hit")]
    assert len(pairs) >= 10
    parted = [(a[0], b[0]) for a, b in pairs if not same_line(a, b, sideways)]
    assert parted == []


# --- validate measures the printer's lines ---------------------------------------------------------

def squeezed_stats(tmp_path: Path) -> Path:
    """Fantasy Draft with the hero stats box 30 mm wide and never shrunk: a flyer's stats need a third
    line once 'Flying' keeps its icon, and only two fit."""
    game = scratch_with_templates(tmp_path, FD)
    layouts = game / "print" / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    old = "{type: text, name: stats, x: 7, y: 20.5, w: 49, h: 8, align: center, valign: middle, size: 8,"
    assert old in text
    layouts.write_text(text.replace(old, old.replace("w: 49", "w: 30").replace("size: 8,", "size: 8, min-size: 8,")),
                       encoding="utf-8")
    return game


def overflowing(output: str) -> set[str]:
    return set(re.findall(r"warning HK401: text of hero '([a-z-]+)' does not fit stats", output))


def test_validate_and_pnp_report_a_card_that_needs_an_extra_line_for_its_icon(tmp_path: Path) -> None:
    game = squeezed_stats(tmp_path)
    checked = run_cli("validate", str(game))
    printed = run_cli("pnp", str(game), "--only", ",".join(FLYERS), "--backs", "none", "-o", str(tmp_path / "x.pdf"))
    assert printed.returncode == 0, printed.stdout + printed.stderr
    # griffin-rider (3 actions) overflowed anyway; dragon and ghost (2) overflow once the icon keeps its word
    assert overflowing(checked.stdout + checked.stderr) == set(FLYERS)
    assert overflowing(printed.stdout + printed.stderr) == set(FLYERS)


# --- the rules, at every width ----------------------------------------------------------------------

def line_words(lines: list[Any]) -> list[list[str]]:
    """Each laid-out line as the words a reader sees, an icon written ':name:'."""
    out = []
    for line in lines:
        words: list[str] = []
        for _, piece, space_before in line.pieces:
            if piece.text == " " and not piece.icon:
                words.append("")
                continue
            if space_before or not words:
                words.append("")
            words[-1] += f":{piece.text}:" if piece.icon else piece.text
        out.append([w for w in words if w])
    return out


KEPT = [
    ("All face-up Ambush :ambush: hits you, less your Shield :shield:.", ["Ambush", ":ambush:"]),
    ("Attack **Melee** · :flying: **Flying** and more words here", [":flying:", "Flying"]),
    ("One :army: stack you pick may move and fight once more", [":army:", "stack"]),
    ("Your castle costs 1 less :stone:. Then more text follows", ["less", ":stone:."]),
    ("Each turn you may build 1 extra settlement", ["1", "extra"]),
    ("Put 1 power on this card: +1 strength each, never above 5.", ["above", "5."]),
    ("Attack a horde next to your army: roll one die, hitting on 7+.", ["on", "7+."]),
    ("A unit pushed on from 3: out of the game, and then more words", ["from", "3:"]),
    ("Hold the Sword\u00a0of\u00a0Kings high above the crowd", ["Sword", "of", "Kings"]),
    ("Hold the Sword&nbsp;of&nbsp;Kings high above the crowd", ["Sword", "of", "Kings"]),
]


@pytest.mark.parametrize("text, kept", KEPT)
def test_tokens_that_belong_together_share_a_line_at_every_width(text: str, kept: list[str]) -> None:
    from toolkit.pnp import richtext
    from toolkit.pnp.fonts import FONTS, register_fonts

    register_fonts()
    broken = 0
    for width in range(20, 240, 4):
        lines = line_words(richtext.fit(text, FONTS["regular"], 7.0, 7.0, float(width), 1e6).lines)
        assert [w.replace("**", "") for line in lines for w in line] == text.replace("&nbsp;", " ").replace(
            "\u00a0", " ").replace("**", "").split()  # every word printed once, in order
        where = {}
        for i, line in enumerate(lines):
            for k, w in enumerate(line):
                if w in kept and w not in where:
                    where[w] = (i, k)
        assert len(where) == len(kept), (width, lines)
        rows = {where[w][0] for w in kept}
        assert len(rows) == 1, (width, lines)
        broken += len(lines) > 2
    assert broken  # narrow widths break the text many times


def test_a_no_break_space_prints_as_a_space_and_is_measured_like_one() -> None:
    from toolkit.pnp import richtext
    from toolkit.pnp.fonts import FONTS, register_fonts

    register_fonts()
    font = FONTS["regular"]
    joined = richtext.fit("a Sword\u00a0of\u00a0Kings", font, 7.0, 7.0, 500.0, 100.0)
    spaced = richtext.fit("a Sword of Kings", font, 7.0, 7.0, 500.0, 100.0)
    assert len(joined.lines) == len(spaced.lines) == 1
    assert joined.lines[0].width == pytest.approx(spaced.lines[0].width)
    assert "\u00a0" not in "".join(p.text for _, p, _ in joined.lines[0].pieces)


# --- no short word alone on a paragraph's last line --------------------------------------------------

def _sideways(words: list[Any]) -> bool:
    long = next(w for w in words if len(w[0]) >= 6 and w[0].isalpha())
    return (long[1][1] - long[1][0]) < (long[2][1] - long[2][0])


@pytest.mark.parametrize("game,piece,before,lone", [
    ("kingdoms", "barbarian-war-chief", "War", "Chief"),  # the horde's name: 'Barbarian / War Chief'
    ("dice-battles", "warboss-grukk-order", "Wolf", "Riders"),  # 'Regroups: ..., Frenzied Mob, / Wolf Riders'
])
def test_a_short_last_word_takes_the_word_before_it_down_with_it(tmp_path: Path, game: str, piece: str,
                                                                  before: str, lone: str) -> None:
    """Greedy breaking left the last word alone on its line; the word before it now goes down too,
    and the text still takes as many lines."""
    words = words_on_page(print_only(tmp_path, game, [piece]))
    sideways = _sideways(words)
    texts = [w[0] for w in words]
    at = next(i for i in range(1, len(texts)) if texts[i - 1:i + 1] == [before, lone])
    first, prev, last = words[at - 2], words[at - 1], words[at]
    assert same_line(prev, last, sideways), (prev, last)
    assert not same_line(first, prev, sideways), (first, prev)  # still two lines


TEXTS = [
    "Lock dice onto a hero whose cost they match to make that hero active, or pay its cost with steam made this turn.",
    "Each Treasure :treasure: monster gives a treasure card to tuck under an active hero, one per hero; it works "
    "from the hero's next activation.",
    "Regroups: Goblin Spearmen, Frenzied Mob, Wolf Riders",
    "Alchemy * Cast: Once a round, hand in 2 :metal: for 3 :gold:.",
]


@pytest.mark.parametrize("text", TEXTS)
def test_keeping_a_word_company_never_adds_a_line_or_widens_one(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At every width from 40 to 200 pt, the text takes as many lines as plain greedy breaking
    gives (so it fits at the same size), in the same order, and no line is wider than the box."""
    from toolkit.pnp import richtext
    from toolkit.pnp.fonts import register_fonts

    register_fonts()

    def lines(width: float) -> list[tuple[list[str], float]]:
        richtext.fit.cache_clear()
        fitted = richtext.fit(text, "HK-Vera", 8, 8, width, 10_000)
        return [([p.text for _, p, _ in ln.pieces], ln.width) for ln in fitted.lines]

    changed = 0
    for width in range(40, 201, 3):
        ours = lines(width)
        with monkeypatch.context() as m:
            m.setattr(richtext, "LONE_WORD_SHARE", 0.0)  # no word counts as short: greedy breaking
            greedy = lines(width)
        assert len(ours) == len(greedy), width
        assert [p for ln, _ in ours for p in ln] == [p for ln, _ in greedy for p in ln], width
        # a line is wider than the box only where greedy breaking's is (one word wider than the box)
        assert all(w <= max(width, g) + 0.01 for (_, w), (_, g) in zip(ours, greedy)), width
        changed += ours != greedy
    richtext.fit.cache_clear()
    assert changed, "no width of this text leaves a word alone (else this proves nothing)"
