"""Dice Battles print-and-play: the real command writes a PDF whose pages carry every printed kind,
with power text rendered from the same effects the engine plays."""
from __future__ import annotations

import re
import subprocess
import sys
import pypdf
import pytest

from test_db_support import ROOT, content


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> pypdf.PdfReader:
    """One real `hordekit pnp` run for the module, read back with pypdf."""
    out = tmp_path_factory.mktemp("pnp") / "db.pdf"
    run = subprocess.run([sys.executable, "-m", "toolkit", "pnp", "dice-battles", "-o", str(out)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 errors, 0 warnings" in run.stdout + run.stderr
    return pypdf.PdfReader(str(out))


def test_print_and_play_holds_tiles_cards_army_sheets_and_the_battle_mat(reader: pypdf.PdfReader) -> None:
    text = "\n".join(p.extract_text() for p in reader.pages)
    for kind in ("· unit ·", "· order-card", "· army ·", "· Battle mat (one player), copy 1 of 2, sheet"):  # cards share sheets with the legend
        assert kind in text, kind
    # the mat names its battalions and zones from the battle-mat data; die faces are icons
    for words in ("First battalion", "Third battalion", "Units fleeing", "Reinforcements", "Order deck",
                  "Regrouping order", "[face-1]", "[face-6]"):
        assert words in text, words
    for unit in content()["unit"]:
        assert unit["name"].split()[0] in text
    for army in content()["army"]:
        assert army["name"] in text
    # powers come from the effects: the v2.0 powers print their names and their templated sentence
    assert "Goblins Frenzy" in text and "Global Heal" in text
    assert "goblin or serpent-child units in this battalion" in " ".join(text.split())
    # attack dice print in their colour: one die icon per die, named after the colour
    assert "[crushing-die][crushing-die][crushing-die]" in text.replace(" ", "")


def test_each_player_gets_a_battle_mat_of_their_own(reader: pypdf.PdfReader) -> None:
    # the mat is one player's half of the table: a two-player game prints it twice, all its sheets
    footers = [line for p in reader.pages for line in p.extract_text().splitlines()
               if "· Battle mat (one player)" in line and ", sheet " in line]
    sheets = {re.search(r"sheet (\w+) of", f).group(1) for f in footers}
    assert len(sheets) >= 2  # larger than the paper: printed over several sheets
    for copy in (1, 2):
        assert {re.search(r"sheet (\w+) of", f).group(1) for f in footers if f"copy {copy} of 2," in f} == sheets
    assert len(footers) == 2 * len(sheets)


def test_every_order_card_is_printed_once_per_copy(reader: pypdf.PdfReader) -> None:
    text = " ".join(" ".join(p.extract_text() for p in reader.pages if "· order-card" in p.extract_text()).split())
    for card in content()["order-card"]:
        assert text.count(card["name"]) >= card.get("quantity", 1), card["id"]


def test_an_order_card_counts_the_units_it_regroups_instead_of_repeating_them(reader: pypdf.PdfReader) -> None:
    """Spear Rush regroups two Goblin Spearmen: the card says "2 × Goblin Spearmen"."""
    text = " ".join(" ".join(p.extract_text() for p in reader.pages if "· order-card" in p.extract_text()).split())
    cards = content()["order-card"]
    doubled = [c for c in cards if len(c.get("regroups") or []) > len(set(c.get("regroups") or []))]
    assert doubled, "some order card regroups two of one unit"
    names = {u["id"]: u["name"] for u in content()["unit"]}
    for card in doubled:
        for unit in set(card["regroups"]):
            n = card["regroups"].count(unit)
            if n > 1:
                assert f"{n} × {names[unit]}" in text, card["id"]
                assert f"{names[unit]}, {names[unit]}" not in text, card["id"]


def test_the_mat_says_how_the_fleeing_zone_pushes(reader: pypdf.PdfReader) -> None:
    """The note under 'Units fleeing' states the rule as the engine plays it (docs/games/dice-battles.md):
    a fleeing unit enters the first space, only the units in its way move on one space (a gap stops
    the push), one pushed past the last space leaves the game, and several enter lowest level first."""
    zone = next(z for mat in content()["battle-mat"] for z in mat["zones"] if z["id"] == "fleeing")
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    note = re.search(r"A fleeing unit [^.]*\.[^.]*\.[^.]*\.", text)
    assert note, "the fleeing zone's note is printed"
    said = note.group()
    assert "takes space 1" in said
    assert "the units in its way move down one space" in said and "gap stops the push" in said
    assert f"past {zone['spaces']}: out of the game" in said
    assert "Lowest level enters first" in text
    assert "the others" not in text  # not every unit in the zone moves: a gap stops the push
