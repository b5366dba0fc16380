"""A game's own content rules (GameSpec.check_content) are reported by `hordekit validate` at
file:line:col, like schema errors: here Dice Battles' army-sheet rules on a scratch copy."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import ROOT, run_cli


def _copy(tmp_path: Path) -> Path:
    game = tmp_path / "dice-battles"
    shutil.copytree(ROOT / "content" / "dice-battles", game)
    return game


def test_an_army_with_a_serpent_in_a_goblin_warband_is_reported_at_its_space(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    armies = game / "armies.yaml"
    text = armies.read_text()
    bad = "      - {fl: wolf-riders, fc: shield-goblins, fr: wolf-riders, rl: goblin-archers, rr: goblin-spearmen, hero: warboss-grukk}"
    assert bad in text
    armies.write_text(text.replace(bad, bad.replace("fc: shield-goblins", "fc: scale-guard"), 1))
    proc = run_cli("validate", str(game), "--format", "json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    diags = data["diagnostics"] if isinstance(data, dict) else data
    found = [d for d in diags if d["code"] == "HK309"]
    assert found, diags
    line = next(i for i, l in enumerate(armies.read_text().splitlines(), 1) if "fc: scale-guard" in l)
    assert any(d["line"] == line and d["file"].endswith("armies.yaml") for d in found), found


def test_the_shipped_armies_keep_the_rules() -> None:
    proc = run_cli("validate", str(ROOT / "content" / "dice-battles"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
