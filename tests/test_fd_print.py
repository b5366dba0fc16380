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
    assert "Basic units · Player 1" in text and "Basic units · Player 2" in text
    footers = [line for p in pages for line in p.splitlines() if "page" in line and "Fantasy Draft" in line]
    kinds = {f.split("·")[1].strip() for f in footers}
    assert {"hero", "reference-card", "unit-token", "slot-in", "power-token"} <= kinds


def test_every_unit_token_of_a_player_has_the_same_back(tmp_path) -> None:
    out = tmp_path / "tokens.pdf"
    proc = run_cli("pnp", "fantasy-draft", "-o", str(out), "--only", "token-player-1,token-player-2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    reader = PdfReader(out)
    backs = [p.extract_text() for p in reader.pages[1::2]]
    assert backs and all(b.count("FD") >= 20 for b in backs[:1]), "one identical back per token, nothing that names the unit"
    assert not any(u["name"] in "".join(backs) for u in content()["basic-unit"])
