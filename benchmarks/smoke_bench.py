"""Smoke-run scaling: games per second with one worker and with all workers, their ratio
(target: at least 1.8x on 2 cores) and peak memory per worker."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolkit.games import load_game  # noqa: E402
from toolkit.smoke.runner import RunPlan, default_workers, run  # noqa: E402

GAMES = {"hordes-and-heroes": 600, "kingdoms": 300}


def main() -> None:
    cores = default_workers()
    print(f"{'game':<20}{'1 worker':>12}{f'{cores} workers':>12}{'ratio':>8}{'peak RSS/worker':>18}")
    for game, n in GAMES.items():
        loaded = load_game(ROOT / "content" / game)
        if not loaded.game.rules:
            continue
        plan = RunPlan(game=game, rules=loaded.game.rules, games=n, players=(4,), seed=5, bots=("heuristic",),
                       check="none")
        one = run(plan, loaded.data, workers=1)
        many = run(plan, loaded.data, workers=cores)
        rate1, rate_n = n / one.seconds, n / many.seconds
        same = [s.scores for s in one.summaries] == [s.scores for s in many.summaries]
        print(f"{game:<20}{rate1:>9.1f} g/s{rate_n:>9.1f} g/s{rate_n / rate1:>7.2f}x{many.peak_rss_kib / 1024:>14.0f} MiB"
              f"   {'identical results' if same else 'RESULTS DIFFER'}")


if __name__ == "__main__":
    main()
