"""The engine is a library: it plays from plain data without the toolkit, YAML, Typer or ReportLab."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

PROBE = """
import json, sys
from engine.core.driver import play_game
from engine.core.registry import load_spec
loaded = {}
for game, players in (("hordes_and_heroes", 3), ("kingdoms", 2)):
    spec = load_spec(game)
    data = json.load(open(sys.argv[1] + "/" + game + ".json"))
    rec = play_game(spec, spec.build_model(data), players, 1, ["heuristic"])
    assert rec.error is None, rec.error
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("toolkit", "ruamel", "reportlab", "typer", "jinja2", "jsonschema"))
print(json.dumps(heavy))
"""


def test_engine_plays_from_plain_data_without_the_toolkit(tmp_path) -> None:  # noqa: ANN001
    import json

    from toolkit.games import load_game

    for game in ("hordes-and-heroes", "kingdoms"):
        data = load_game(ROOT / "content" / game).data
        (tmp_path / f"{game.replace('-', '_')}.json").write_text(json.dumps(data))
    proc = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_games_never_import_each_other() -> None:
    for game, other in (("hordes_and_heroes", "kingdoms"), ("kingdoms", "hordes_and_heroes")):
        files = (ROOT / "engine" / game).rglob("*.py")
        offenders = [f.name for f in files if f"engine.{other}" in f.read_text()]
        assert not offenders, (game, offenders)
