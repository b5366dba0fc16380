"""The Kingdoms reference card prints the end-of-round segments from segments.yaml and rules.yaml,
the same fields the engine plays, so a designer who changes a horde's priorities or the raid's hit
order sees the printed card change with them. The card is rendered with the CLI and read back."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import copy_shipped_game, run_cli

pypdf = pytest.importorskip("pypdf")


def _copy_game(tmp_path: Path) -> Path:
    return copy_shipped_game(tmp_path, "kingdoms")


def _card_text(game: Path, tmp_path: Path) -> str:
    pdf = tmp_path / "reference.pdf"
    proc = run_cli("pnp", str(game), "--only", "reference", "-o", str(pdf))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(str(pdf)).pages)
    return re.sub(r"\s+", " ", text)


def test_the_card_prints_the_horde_and_raid_segments_as_the_rulebook_orders_them(tmp_path: Path) -> None:
    text = _card_text(_copy_game(tmp_path), tmp_path)
    assert ("1. a settlement with no army or castle; 2. a settlement with armies; 3. armies alone; "
            "4. a castle with no army; 5. a castle with armies") in text, text
    assert "the horde with the fewest hit counters moves first" in text, text
    assert "Monster hordes move again if they met no player unit" in text, text
    assert "castles, then wizard towers, then armies, then settlements" in text, text
    assert "Humanoids in swamp or hills: +1 attack, +1 defense" in text, text
    assert "End after 20 rounds" in text, text


def test_a_changed_priority_and_hit_order_reach_the_printed_card(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    segments = game / "segments.yaml"
    text = segments.read_text()
    text = text.replace("      - undefended-settlement\n      - settlement-with-armies\n",
                        "      - settlement-with-armies\n      - undefended-settlement\n")
    text = text.replace("hit-allocation: [castle, wizard-tower, army, settlement]",
                        "hit-allocation: [army, castle, wizard-tower, settlement]")
    text = text.replace("second-move: {horde-types: [monster]", "second-move: {horde-types: [monster, undead]")
    segments.write_text(text)
    card = _card_text(game, tmp_path)
    assert "1. a settlement with armies; 2. a settlement with no army or castle;" in card, card
    assert "armies, then castles, then wizard towers, then settlements" in card, card
    assert "Monster and Undead hordes move again" in card, card


def test_a_template_may_name_a_kind_as_game_yaml_spells_it(tmp_path: Path) -> None:
    game = _copy_game(tmp_path)
    layouts = game / "templates" / "layouts.yaml"
    text = layouts.read_text()
    assert "kinds.round_segment" in text
    layouts.write_text(text.replace("kinds.round_segment", "kinds['round-segment']"))
    assert "castles, then wizard towers, then armies, then settlements" in _card_text(game, tmp_path)
