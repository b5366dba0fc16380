"""Rules-engine speed on one core: games and actions (decisions + chance events) per second,
each discovered game's default bot (its heuristic when it has one), invariant checks off.
Target from the issues: 70,000 actions per second."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from discover import PlayableGame, playable_games  # noqa: E402
from engine.core.bench import bench  # noqa: E402
from engine.core.driver import play_game  # noqa: E402
from toolkit.smoke.runner import default_bot  # noqa: E402

SECONDS = 4.0


def player_counts(spec: Any) -> list[int]:
    """Two player counts per game: the smallest of two or more, and four (or the nearest)."""
    lo, hi = spec.min_players, spec.max_players
    return sorted({min(max(2, lo), hi), min(max(4, lo), hi)})


def measure(game: PlayableGame, players: int) -> tuple[int, int, float]:
    spec = game.spec
    model = spec.build_model(game.loaded.data)
    play_game(spec, model, players, 0, [default_bot(spec)])  # warm-up
    games = 5
    while True:  # grow the sample until it takes long enough to time
        report = bench(spec, model, players, games, bot=default_bot(spec), seed=99)
        for err in report["errors"]:
            print(f"  failed: {err}")
        if report["seconds"] >= SECONDS or games >= 100_000:
            return games, report["actions"], report["seconds"]
        games = max(games + 1, int(games * SECONDS * 1.2 / max(report["seconds"], 1e-3)))


def main() -> None:
    games, skipped = playable_games()
    for line in skipped:
        print(f"(not measured: {line})")
    print(f"{'game':<20}{'players':>8}{'games/s':>10}{'actions/s':>12}   (one core, default bot, no checks)")
    for game in games:
        for players in player_counts(game.spec):
            played, actions, elapsed = measure(game, players)
            print(f"{game.id:<20}{players:>8}{played / elapsed:>10.1f}{actions / elapsed:>12,.0f}   "
                  f"target 70,000 ({default_bot(game.spec)} bot)")


if __name__ == "__main__":
    main()
