"""The games the benchmarks measure: every game under content/ whose manifest names a rules
engine that loads. Benchmarks loop over these instead of naming games, so a new game is measured
as soon as its content and engine exist."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@dataclass
class PlayableGame:
    id: str
    dir: Path
    loaded: Any  # toolkit.games.LoadedGame
    spec: Any  # engine.core.api.GameSpec


def playable_games(content: Path = ROOT / "content") -> tuple[list[PlayableGame], list[str]]:
    """(games that can be played, one line per game that cannot and why)."""
    from toolkit.games import find_game_dirs, load_game
    from toolkit.rules import load_rules

    games, skipped = [], []
    for gdir in find_game_dirs([content])[0]:
        loaded = load_game(gdir)
        name = loaded.game.id if loaded.game else gdir.name
        if not loaded.ok:
            skipped.append(f"{name}: content has errors")
            continue
        if not loaded.game.rules:
            skipped.append(f"{name}: no rules engine named in its manifest")
            continue
        try:
            spec = load_rules(loaded.game.rules)
        except (ImportError, LookupError) as exc:
            skipped.append(f"{name}: rules engine not available ({exc})")
            continue
        games.append(PlayableGame(name, gdir, loaded, spec))
    return games, skipped
