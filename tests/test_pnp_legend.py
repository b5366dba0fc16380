"""Printed text equals the rules (issue 11): every icon that stands for a rule word has that word in
a legend printed with the game, and a number never wraps away from its icon.

The legend is checked in real PDFs written by the CLI and read back with pypdf (text, font sizes)
and pypdfium2 (the rasterised margin); the line breaking with the four games' own printed text.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import CONTENT, FIXTURES, ROOT, run_cli
from test_pnp import game_counts, page_ops, scratch_with_templates
from test_pnp_print_shop import pages_printing_near_the_edge

pypdf = pytest.importorskip("pypdf")

GAMES = ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"]
LEGEND = "icon-legend"


def rule_words(icons_yaml: Path) -> dict[str, str]:
    """Icon (or die) name -> the rule word icons.yaml gives it (the name itself when it gives none)."""
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load(icons_yaml.read_text(encoding="utf-8"))
    words = {name: str(raw.get("word", name.replace("-", " "))) for name, raw in (data.get("icons") or {}).items()}
    words.update({name: str(raw.get("word", name)) for name, raw in (data.get("dice") or {}).items()})
    return words


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each shipped game printed as `hordekit pnp GAME` prints it: the PDF and what the run said."""
    out = tmp_path_factory.mktemp("legend")
    runs = {}
    for game in GAMES:
        pdf = out / f"{game}.pdf"
        proc = run_cli("pnp", game, "-o", str(pdf))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        runs[game] = (pdf, proc.stdout + proc.stderr)
    return runs


@pytest.fixture(scope="module")
def legend_only(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each game's legend cards alone (`--only icon-legend`): their text is the legend's only."""
    out = tmp_path_factory.mktemp("legend-only")
    readers = {}
    for game in GAMES:
        pdf = out / f"{game}.pdf"
        proc = run_cli("pnp", game, "--only", LEGEND, "--backs", "none", "-o", str(pdf))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        readers[game] = pypdf.PdfReader(str(pdf))
    return readers


def legend_pages(reader: Any) -> list[int]:
    """The sheets (from 0) on which a legend card is placed."""
    return [i for i, page in enumerate(reader.pages)
            if any(form[0].startswith(f"face:{LEGEND}:") for form in page_ops(reader, page)[0])]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_prints_the_rule_word_of_every_icon_in_its_legend(printed: dict, legend_only: dict,
                                                                     game: str) -> None:
    pdf, _ = printed[game]
    assert legend_pages(pypdf.PdfReader(str(pdf))), f"{game}: `hordekit pnp` places no legend card"
    reader = legend_only[game]
    text = flat(" ".join(page.extract_text() for page in reader.pages))
    words = rule_words(ROOT / "templates" / game / "icons.yaml")
    assert len(words) >= 5
    for name, word in words.items():
        assert flat(word) in text, f"{game}: the legend lacks the word of '{name}' ({word})"
    for name in words:  # each icon itself is drawn beside its word (copying the PDF reads [name])
        assert f"[{name}" in text, f"{game}: the legend does not draw '{name}'"


def _text_sizes(reader: Any, page: Any) -> list[tuple[str, float]]:
    """Every piece of visible text on a page with the size it prints at, in points."""
    out: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        a, b, c, d = (tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                      tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])
        if text.strip():
            out.append((text, size * math.sqrt(abs(a * d - b * c))))

    page.extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_legend_words_print_at_6_pt_or_more(printed: dict, legend_only: dict, game: str) -> None:
    _, said = printed[game]
    assert not re.search(rf"warning HK4(01|11): text of extra '{LEGEND}", said), said
    reader = legend_only[game]
    words = set(rule_words(ROOT / "templates" / game / "icons.yaml").values())
    sizes: dict[str, float] = {}  # each word is a bold run of its own; icons may draw tiny labels too
    for page in reader.pages:
        for text, size in _text_sizes(reader, page):
            if text.strip() in words:
                sizes[text.strip()] = max(size, sizes.get(text.strip(), 0.0))
    assert set(sizes) == words and min(sizes.values()) >= 6 - 1e-3, sizes


@pytest.mark.parametrize("game", GAMES)
def test_legend_sheets_keep_the_5_mm_margin(printed: dict, game: str) -> None:
    pdf, _ = printed[game]
    pages = legend_pages(pypdf.PdfReader(str(pdf)))
    assert pages and pages_printing_near_the_edge(pdf, pages) == []


@pytest.mark.parametrize("game", GAMES)
def test_each_legend_card_carries_the_version_mark(legend_only: dict, game: str) -> None:
    reader = legend_only[game]
    fp = game_counts(game)["fingerprint"]
    cards = sum(len(page_ops(reader, page)[0]) for page in reader.pages)
    assert cards >= 2 and sum(p.extract_text().count(f"v{fp[:8]}") for p in reader.pages) == cards


# --- the legend is laid out from the icon data ----------------------------------------------

def _legend_text(tmp_path: Path, game: Path, *extra: str) -> tuple[str, Any, str]:
    pdf = tmp_path / "legend.pdf"
    proc = run_cli("pnp", str(game), "--only", LEGEND, "--backs", "none", "-o", str(pdf), *extra)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    reader = pypdf.PdfReader(str(pdf))
    return flat(" ".join(p.extract_text() for p in reader.pages)), reader, proc.stdout + proc.stderr


MORALE = '''  morale:
    word: "Morale"
    legend: "how long a unit holds before it flees"
    shapes:
      - {circle: [50, 50, 40], fill: "#c04040", stroke: ink, width: 6}
'''


def test_a_new_icon_in_icons_yaml_appears_in_the_legend_with_no_layout_change(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path, "dice-battles")
    layouts_before = (game / "print" / "layouts.yaml").read_text()
    before, _, _ = _legend_text(tmp_path, game)
    assert "Morale" not in before
    icons = game / "print" / "icons.yaml"
    icons.write_text(icons.read_text().replace("icons:\n", "icons:\n" + MORALE, 1))
    after, _, _ = _legend_text(tmp_path, game)
    assert "Morale – how long a unit holds before it flees" in after and "[morale]" in after
    assert (game / "print" / "layouts.yaml").read_text() == layouts_before


def test_a_legend_too_long_for_one_card_continues_on_more_cards(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path, "fantasy-draft")
    icons = game / "print" / "icons.yaml"
    extra = "".join(MORALE.replace("morale", f"morale{n}").replace("Morale", f"Morale {n}") for n in range(1, 16))
    icons.write_text(icons.read_text().replace("icons:\n", "icons:\n" + extra, 1))
    text, reader, said = _legend_text(tmp_path, game)
    pages = int(re.search(r"icons 1/(\d+)", text).group(1))
    assert pages >= 2 and all(f"icons {n}/{pages}" in text for n in range(1, pages + 1))
    for n in range(1, 16):
        assert f"Morale {n} –" in text
    assert "HK401" not in said and "HK411" not in said  # nothing shrinks or overflows: it pages
    faces = {name for page in reader.pages for name in page["/Resources"]["/XObject"]}
    assert faces == {f"/FormXob.face:{LEGEND}:{LEGEND}"} | {f"/FormXob.face:{LEGEND}:{LEGEND}-{n}" for n in range(2, pages + 1)}


def test_a_legend_box_shows_only_the_icons_it_names(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path, "kingdoms")
    layouts = game / "print" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("- {type: legend,", "- {type: legend, icons: [gold, d10],", 1))
    text, _, _ = _legend_text(tmp_path, game)
    assert "Gold –" in text and "d10 –" in text and "Wood –" not in text


# --- an icon printed on a piece always has a legend entry -----------------------------------------

def test_the_icons_schema_requires_a_legend_for_every_icon(tmp_path: Path) -> None:
    game = tmp_path / "hexfix"
    shutil.copytree(FIXTURES / "hexfix", game)
    icons = game / "templates" / "icons.yaml"
    lines = icons.read_text().splitlines()
    n = next(i for i, ln in enumerate(lines) if ln.strip() == 'legend: "moves: hexes per turn"')
    lines[n] = '    legend: ""'
    icons.write_text("\n".join(lines) + "\n")
    proc = run_cli("validate", str(game), extra_path=[FIXTURES / "pylib"])
    assert proc.returncode == 1
    assert re.search(rf"templates/icons\.yaml:{n + 1}:\d+: error HK410", proc.stdout), proc.stdout
    del lines[n]  # no legend at all
    icons.write_text("\n".join(lines) + "\n")
    proc = run_cli("validate", str(game), extra_path=[FIXTURES / "pylib"])
    assert proc.returncode == 1 and re.search(r"templates/icons\.yaml:\d+:\d+: error HK410.*legend", proc.stdout), proc.stdout


def test_an_icon_printed_in_card_text_that_the_legend_leaves_out_is_reported_at_the_card(tmp_path: Path) -> None:
    game = scratch_with_templates(tmp_path, "hordes-and-heroes")
    layouts = game / "print" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("- {type: legend,", "- {type: legend, exclude: [shield],", 1))
    proc = run_cli("validate", str(game))
    found = re.findall(r"(\S+\.yaml):(\d+):(\d+): warning HK412: (\w+) '([^']+)' prints the icon ':shield:'", proc.stdout)
    assert len(found) == 1, proc.stdout
    file, line, col, kind, item = found[0]
    source = (tmp_path / file).read_text() if (tmp_path / file).is_file() else Path(file).read_text()
    assert f"id: {item}" in source.splitlines()[int(line) - 1]  # the line of the piece that prints it


# --- a number never wraps away from its icon --------------------------------------------------------

def printed_texts(game: str, monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every text the game prints (card text, lists, references), caught as the print lays it out."""
    from toolkit.games import load_game
    from toolkit.pnp import document, richtext

    seen: set[str] = set()
    fit = richtext.fit

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        seen.add(text)
        return fit(text, *args, **kwargs)

    monkeypatch.setattr(richtext, "fit", spy)
    document.check_text_fit(load_game(CONTENT / game))
    monkeypatch.setattr(richtext, "fit", fit)
    return {t for t in seen if ":" in t}


# "3 :gold:", "+1 :strength:", "2x :die-6:" (nothing after the amount); ":range: 3", ":shield: 1.", ":d10: 4-9"
AMOUNT_BEFORE = re.compile(r"\(?[+\-−]?\d+(?:[-–]\d+)?\+?[x×]?")
AMOUNT_AFTER = re.compile(r"[x×]?[+\-−]?\d+(?:[-–]\d+)?\+?[.,;:)]*")


def atoms(line: Any) -> list[tuple[str | None, bool, bool]]:
    """A laid-out line as the words a reader sees: (text, starts with an icon, ends with an icon).

    The text of a word with an icon inside ("2:magic:)") is None: it is no bare amount.
    """
    out: list[list[Any]] = []
    for _, piece, space_before in line.pieces:
        if piece.text == " " and not piece.icon:
            out.append([])
            continue
        if space_before or not out:
            out.append([])
        out[-1].append(piece)
    return [(None if any(p.icon for p in w) else "".join(p.text for p in w), w[0].icon, w[-1].icon) for w in out if w]


def breaks_between_amount_and_icon(lines: list[Any]) -> list[str]:
    """Line ends where an amount and what it counts were parted.

    An amount counts the icon right before it unless an earlier amount counts that icon
    (":d10: 4-9 :range: 2" is a d10 range and a range); else the token right after it: an icon,
    or a word, its unit ("+1 attack"); when it ends its clause, the word before it ("above 5.").
    """
    words = [(i, *a) for i, line in enumerate(lines) for a in atoms(line)]
    bad = []
    counted: set[int] = set()
    for k, (line, text, _i0, _i1) in enumerate(words):
        prev = words[k - 1] if k else None
        nxt = words[k + 1] if k + 1 < len(words) else None
        if text is None:
            continue
        if prev is not None and prev[3] and k - 1 not in counted and AMOUNT_AFTER.fullmatch(text):
            counted.add(k - 1)
            if prev[0] != line:
                bad.append(f"{prev[1]!r} | {text!r}")
        elif nxt is not None and AMOUNT_BEFORE.fullmatch(text) and (nxt[2] or (nxt[1] or "")[:1].isalpha()):
            if nxt[2]:
                counted.add(k + 1)
            if nxt[0] != line:
                bad.append(f"{text!r} | {nxt[1]!r}")
        elif (prev is not None and AMOUNT_AFTER.fullmatch(text) and not AMOUNT_AFTER.fullmatch(prev[1] or "")
              and (nxt is None or not AMOUNT_BEFORE.fullmatch(text)) and prev[0] != line):
            bad.append(f"{prev[1]!r} | {text!r} (it ends its clause)")
    return bad


def _layouts(text: str) -> Iterator[tuple[float, list[Any]]]:
    from toolkit.pnp import richtext
    from toolkit.pnp.fonts import FONTS, register_fonts

    register_fonts()
    for paragraph in text.split("\n"):  # authors' own line breaks are not the printer's
        for width in range(24, 240, 6):
            yield width, richtext.fit(paragraph, FONTS["regular"], 7.0, 7.0, float(width), 1e6).lines


@pytest.mark.parametrize("game", GAMES)
def test_a_number_never_wraps_away_from_its_icon_in_the_games_printed_text(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = printed_texts(game, monkeypatch)
    assert len(texts) >= 5
    forced = 0
    for text in sorted(texts):
        for width, lines in _layouts(text):
            assert breaks_between_amount_and_icon(lines) == [], (game, width, text)
            forced += len(lines) > 1
    assert forced > 100  # the widths are narrow enough to break the lines many times


FORMS = ["Gain 3 :gold: and 10 :gold: more", "+1 :strength: until the end", "+2 :any-die: against monsters",
         "Roll 2x :die-6: twice", "**Blink** :range: 3 then :shield: 1. again", "**Boulder** :d10: 4-9 and on",
         "armour :shield: x2 each round", "· :strength: 2 · 1 :action: · ×5", "**Curse** :d10: 5-9 :range: 2 now",
         "Every army gets +1 attack and -1 defense", "attacks an enemy exactly 2 hexes away", "Pay 3 :gold: 2 :wood: then"]


@pytest.mark.parametrize("text", FORMS)
def test_each_form_of_amount_and_icon_stays_on_one_line(text: str) -> None:
    broken = 0
    for width, lines in _layouts(text):
        assert breaks_between_amount_and_icon(lines) == [], (width, [atoms(ln) for ln in lines])
        broken += len(lines) > 2
    assert broken  # some widths force several breaks inside the sentence
