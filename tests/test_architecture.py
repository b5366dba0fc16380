"""The engine is a library: every game plays from plain data without the toolkit, YAML, Typer or
ReportLab; games never import each other.

Games are discovered from the manifests under content/, so a new game is covered as soon as it
ships, without editing this file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CONTENT, ROOT


def shipped_games() -> list[tuple[str, str, int]]:
    """(game id, rules package, smallest player count) of every game whose engine ships in engine/."""
    from toolkit.games import find_game_dirs, read_manifest

    out = []
    for gdir in find_game_dirs([CONTENT])[0]:
        game, _, _ = read_manifest(gdir)
        if game is not None and game.rules and (ROOT / "engine" / game.rules / "__init__.py").is_file():
            out.append((game.id, game.rules, game.players[0]))
    return out


def engine_packages() -> list[str]:
    return sorted(p.parent.name for p in (ROOT / "engine").glob("*/__init__.py") if p.parent.name != "core")


PROBE = """
import json, sys
from engine.core.driver import play_game
from engine.core.registry import load_spec
rules, players, data_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
spec = load_spec(rules)
rec = play_game(spec, spec.build_model(json.load(open(data_file))), players, 1, ["random"])
assert rec.error is None, rec.error
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("toolkit", "ruamel", "reportlab", "typer", "jinja2", "jsonschema"))
print(json.dumps(heavy))
"""


def test_every_shipped_game_is_discovered() -> None:
    ids = [g for g, _, _ in shipped_games()]
    assert len(ids) >= 2 and len(set(ids)) == len(ids)
    assert {rules for _, rules, _ in shipped_games()} <= set(engine_packages())


@pytest.mark.parametrize("game,rules,players", shipped_games())
def test_engine_plays_from_plain_data_without_the_toolkit(game: str, rules: str, players: int, tmp_path: Path) -> None:
    from toolkit.games import load_game

    data = tmp_path / "data.json"
    data.write_text(json.dumps(load_game(CONTENT / game).data))
    proc = subprocess.run([sys.executable, "-c", PROBE, rules, str(players), str(data)], cwd=ROOT,
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


@pytest.mark.parametrize("game", engine_packages())
def test_games_never_import_each_other(game: str) -> None:
    others = [o for o in engine_packages() if o != game]
    for path in (ROOT / "engine" / game).rglob("*.py"):
        text = path.read_text()
        named = [o for o in others if f"engine.{o}" in text]
        assert not named, f"{path.relative_to(ROOT)} imports {named}"
