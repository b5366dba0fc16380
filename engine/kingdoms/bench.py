"""Speed measurement: unchecked games with the same bot in every seat."""
from __future__ import annotations

import collections
import time
from typing import Any

from engine.core.driver import derive_seed, play_game


def bench(model: Any, players: int, games: int, bot: str = "heuristic", seed: int = 0,
          options: dict | None = None) -> dict:
    """Play `games` games; report actions (decisions + chance events) per second and endings."""
    from engine.kingdoms import SPEC
    endings: collections.Counter[str] = collections.Counter()
    steps = turns = 0
    errors = []
    start = time.perf_counter()
    for i in range(games):
        rec = play_game(SPEC, model, players, derive_seed(seed, i), [bot], options=options)
        steps += rec.steps
        if rec.error:
            errors.append(rec.error)
        elif rec.result is not None:
            endings[rec.result.end_reason] += 1
            turns += rec.result.turns
    elapsed = time.perf_counter() - start
    return {"players": players, "games": games, "bot": bot, "seconds": round(elapsed, 3),
            "actions": steps, "actions_per_second": round(steps / elapsed) if elapsed else 0,
            "games_per_second": round(games / elapsed, 2) if elapsed else 0,
            "mean_rounds": round(turns / max(1, games - len(errors)), 1),
            "endings": dict(sorted(endings.items())), "errors": errors[:5]}


if __name__ == "__main__":  # pragma: no cover - a convenience for profiling from the shell
    import sys
    from pathlib import Path

    from toolkit.games import load_game
    from engine.kingdoms.model import build_model
    m = build_model(load_game(Path(sys.argv[1] if len(sys.argv) > 1 else "content/kingdoms")).data)
    for p in (2, 4):
        print(bench(m, p, int(sys.argv[2]) if len(sys.argv) > 2 else 20))
