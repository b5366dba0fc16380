"""A careless designer's slips at the command line: each is a usage error (exit 2) with a clear
message, before any work starts, never a traceback or an endless run."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from conftest import ROOT, run_cli


def _new_game(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0


def test_a_huge_smoke_game_count_is_refused_not_played_for_ever(tmp_path: Path) -> None:
    _new_game(tmp_path)
    proc = run_cli("smoke", "fungus-wars", "-n", "99999999999999999999", cwd=tmp_path)
    assert proc.returncode == 2 and "--games" in proc.stderr and "Traceback" not in proc.stderr
    assert "at most 100,000,000" in proc.stderr, proc.stderr  # the limit in digits, not 1e+08
    assert not (tmp_path / "out").exists()


def test_a_huge_build_game_count_is_refused_too(tmp_path: Path) -> None:
    _new_game(tmp_path)
    proc = run_cli("build", "-n", "500000000", cwd=tmp_path)
    assert proc.returncode == 2 and "--games" in proc.stderr and "Traceback" not in proc.stderr


def test_preview_refuses_an_output_that_is_not_a_png(tmp_path: Path) -> None:
    _new_game(tmp_path)
    proc = run_cli("preview", "fungus-wars", "stride", "-o", "stride.pdf", cwd=tmp_path)
    assert proc.returncode == 2 and "stride.pdf" in proc.stderr and ".png" in proc.stderr
    assert not (tmp_path / "stride.pdf").exists()


def test_new_with_an_empty_name_asks_for_a_name(tmp_path: Path) -> None:
    proc = run_cli("new", "", cwd=tmp_path)
    assert proc.returncode == 2 and "needs a name" in proc.stderr and "already exists" not in proc.stderr
    assert not (tmp_path / "content").exists()


def test_the_tutorial_says_how_many_cards_the_minimal_game_prints_to_a_sheet(tmp_path: Path) -> None:
    _new_game(tmp_path)
    pdf = tmp_path / "fw.pdf"
    assert run_cli("pnp", "fungus-wars", "-o", str(pdf), cwd=tmp_path).returncode == 0
    fronts = len(PdfReader(pdf).pages) // 2  # a back sheet follows every front sheet
    per_sheet = -(-16 // fronts)
    words = {8: "eight", 9: "nine"}
    assert f"16 cards, {words[per_sheet]} to an A4 sheet" in (ROOT / "docs" / "tutorial.md").read_text()
