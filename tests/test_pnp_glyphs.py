"""Characters the print font cannot draw are found before anything is printed (HK413).

A designer pastes a name from the web or a chat: an emoji, a word in another script, a zero-width
space. The embedded font has no glyph for them, so the sheet would show empty boxes; validate and
pnp say so at the field that holds them (else at the piece), naming each character.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli


def _new_game(tmp_path: Path, name: str) -> Path:
    assert run_cli("new", "trail", cwd=tmp_path).returncode == 0
    folder = tmp_path / "content" / "trail"
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert "name: Stride" in text
    cards.write_text(text.replace("name: Stride", f'name: "{name}"', 1), encoding="utf-8")
    return folder


def _warnings(folder: Path, *extra: str) -> tuple[int, list[dict]]:
    proc = run_cli("validate", str(folder), "--format", "json", *extra)
    return proc.returncode, [d for d in json.loads(proc.stdout) if d["code"] == "HK413"]


def test_emoji_other_scripts_and_zero_width_spaces_are_named_at_the_name_that_holds_them(tmp_path: Path) -> None:
    folder = _new_game(tmp_path, "St\u200bride \U0001F409 \u05e9\u05dc\u05d5\u05dd")
    code, found = _warnings(folder)
    assert code == 0  # a warning: the game still validates
    assert found, "no HK413 for characters Vera has no glyph for"
    d = found[0]
    assert Path(d["file"]).name == "cards.yaml"  # at the name that holds them, where they are to be replaced
    name_line = (folder / "cards.yaml").read_text(encoding="utf-8").splitlines()[d["line"] - 1]
    assert name_line[d["col"] - 1:].startswith('"St\u200bride'), (d, name_line)
    for point in ("U+200B", "U+1F409", "U+05E9"):
        assert point in d["message"]
    assert run_cli("validate", str(folder), "--strict").returncode == 1


def test_pnp_warns_too_and_still_prints(tmp_path: Path) -> None:
    folder = _new_game(tmp_path, "Stride \U0001F409")
    out = tmp_path / "trail.pdf"
    proc = run_cli("pnp", str(folder), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "HK413" in proc.stdout + proc.stderr and "U+1F409" in proc.stdout + proc.stderr
    assert out.stat().st_size > 0


def test_western_european_letters_and_typographic_punctuation_print(tmp_path: Path) -> None:
    folder = _new_game(tmp_path, "\u00c9lodie\u2019s Caf\u00e9 \u2014 \u201cna\u00efve\u201d \u00d7 2 \u00b1 \u00bd")
    code, found = _warnings(folder)
    assert code == 0 and found == []


@pytest.mark.parametrize("game", ["hordes-and-heroes", "kingdoms", "fantasy-draft", "dice-battles"])
def test_shipped_games_print_every_character(game: str) -> None:
    code, found = _warnings(Path(game))
    assert code == 0 and found == [], found
