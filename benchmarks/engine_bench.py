"""Rules-engine speed on one core: games and actions (decisions + chance events) per second,
heuristic bots, invariant checks off. Target from the issues: 70,000 actions per second."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.bench import bench  # noqa: E402
from engine.core.driver import play_game  # noqa: E402
from toolkit.games import load_game  # noqa: E402
from toolkit.rules import load_rules  # noqa: E402

CASES = [("hordes-and-heroes", 2), ("hordes-and-heroes", 4), ("kingdoms", 4)]
SECONDS = 4.0


def measure(game: str, players: int) -> tuple[int, int, float]:
    loaded = load_game(ROOT / "content" / game)
    spec = load_rules(loaded.game.rules)
    model = spec.build_model(loaded.data)
    play_game(spec, model, players, 0, ["heuristic"])  # warm-up
    games = 5
    while True:  # grow the sample until it takes long enough to time
        report = bench(spec, model, players, games, seed=99)
        for err in report["errors"]:
            print(f"  failed: {err}")
        if report["seconds"] >= SECONDS or games >= 100_000:
            return games, report["actions"], report["seconds"]
        games = max(games + 1, int(games * SECONDS * 1.2 / max(report["seconds"], 1e-3)))


def main() -> None:
    print(f"{'game':<20}{'players':>8}{'games/s':>10}{'actions/s':>12}   (one core, heuristic bots, no checks)")
    for game, players in CASES:
        if not (ROOT / "content" / game / "game.yaml").is_file():
            continue
        try:
            games, actions, elapsed = measure(game, players)
        except (ImportError, LookupError) as exc:
            print(f"{game:<20}{players:>8}   no rules engine ({exc})")
            continue
        print(f"{game:<20}{players:>8}{games / elapsed:>10.1f}{actions / elapsed:>12,.0f}   target 70,000")


if __name__ == "__main__":
    main()
