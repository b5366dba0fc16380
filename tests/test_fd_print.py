"""Fantasy Draft print-and-play: the real CLI writes a PDF that is read back with pypdf."""
from __future__ import annotations

from pypdf import PdfReader

from conftest import run_cli
from test_fd_support import content


def test_pnp_prints_hero_cards_reference_cards_tokens_slot_ins_and_power_tokens(tmp_path) -> None:
    out = tmp_path / "fd.pdf"
    proc = run_cli("pnp", "fantasy-draft", "-o", str(out), "--paper", "a4")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pages = [p.extract_text() for p in PdfReader(out).pages]
    text = "\n".join(pages)
    for hero in content()["hero"]:
        assert hero["name"] in text, hero["name"]
        for ability in hero["abilities"]:
            assert ability["name"] in text
    assert "[d10] 7-9" in text, "the Rat's poison shows the d10 icon and its range"
    assert "Special action: Your unit gains" in text, "the Blessing says whose unit it boosts (an own one)"
    assert "Basic units · Player 1" in text and "Basic units · Player 2" in text
    footers = [line for p in pages for line in p.splitlines() if "page" in line and "Fantasy Draft" in line]
    kinds = {k.strip() for f in footers for k in f.split("·")[1].split(",")}  # same-size kinds share sheets
    assert {"hero", "reference-card", "unit-token", "slot-in", "power-token", "Battlefield"} <= kinds


def test_the_hex_board_is_tiled_over_letter_paper_with_every_hex_labelled(tmp_path) -> None:
    out = tmp_path / "board.pdf"
    proc = run_cli("pnp", "fantasy-draft", "-o", str(out), "--paper", "letter", "--only", "board", "--backs", "none")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pages = [p.extract_text() for p in PdfReader(out).pages]
    assert len(pages) >= 2 and all("Battlefield, sheet" in p for p in pages), "the board needs more than one sheet"
    text = " ".join(pages)
    board = content()["board"][0]
    for label in ("A1", "K1", "A9", "K9", "F5"):
        assert label in text, label
    assert text.count("[flying]") >= sum(r.count("~") for r in board["map"]), "every water hex shows the flying mark"


def test_every_unit_token_of_a_player_has_the_same_back(tmp_path) -> None:
    out = tmp_path / "tokens.pdf"
    proc = run_cli("pnp", "fantasy-draft", "-o", str(out), "--only", "token-player-1,token-player-2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    reader = PdfReader(out)
    backs = [p.extract_text() for p in reader.pages[1::2]]
    # one back per player (its colour and number), nothing that names the unit
    assert backs and all(b.count("P1") + b.count("P2") >= 20 for b in backs[:1]), backs[:1]
    assert not any(u["name"] in "".join(backs) for u in content()["basic-unit"])
