"""The mistakes a designer new to YAML and to hordekit makes in the first hour, each made in a game
made by `hordekit new`: every one is reported at its file:line:col, with exit code 1 (2 for a
mistake on the command line), a hint that leads to the fix, and no traceback."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def _game(tmp_path: Path) -> Path:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    return tmp_path / "content" / "fungus-wars"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1))


def _validate(tmp_path: Path) -> tuple[int, str]:
    proc = run_cli("validate", cwd=tmp_path)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_tab_before_a_key_is_named_as_a_tab(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "    steps: 3\n", "\tsteps: 3\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:16:1: error HK001" in out, out
    assert "hint: YAML indents with spaces only: replace the tab" in out, out


def test_a_key_indented_too_deep_says_so(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "    quantity: 6\n", "      quantity: 6\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:15:15: error HK001" in out, out
    assert "hint: this line is indented deeper than the key above it" in out, out


def test_a_key_indented_too_little_says_so(tmp_path: Path) -> None:
    cards = _game(tmp_path) / "cards.yaml"
    _edit(cards, "    steps: 3\n", "   steps: 3\n")
    code, out = _validate(tmp_path)
    assert code == 1
    assert "content/fungus-wars/cards.yaml:16:4: error HK001" in out, out
    assert "hint: this line is indented differently from the entries around it" in out, out
