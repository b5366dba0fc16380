"""Speed measurement for any game: unchecked games with the same bot in every seat."""
from __future__ import annotations

import collections
import time
from typing import Any

from engine.core.api import GameSpec
from engine.core.driver import derive_seed, play_game


def bench(spec: GameSpec, model: Any, players: int, games: int, bot: str = "heuristic", seed: int = 0,
          options: dict | None = None, check: bool = False, invariants: bool | None = None) -> dict:
    """Play `games` games; report actions (decisions + chance events) per second and endings.
    `check=True` plays them in checked mode (invariants after every step, clone and replay);
    `invariants=True` checks the invariants only (see `play_game`)."""
    endings: collections.Counter[str] = collections.Counter()
    steps = turns = 0
    errors = []
    start = time.perf_counter()
    for i in range(games):
        rec = play_game(spec, model, players, derive_seed(seed, i), [bot], options=options, check=check,
                        invariants=invariants)
        steps += rec.steps
        if rec.error:
            errors.append(rec.error)
        elif rec.result is not None:
            endings[rec.result.end_reason] += 1
            turns += rec.result.turns
    elapsed = time.perf_counter() - start
    return {"game": spec.id, "players": players, "games": games, "bot": bot, "seconds": round(elapsed, 3),
            "actions": steps, "actions_per_second": round(steps / elapsed) if elapsed else 0,
            "games_per_second": round(games / elapsed, 2) if elapsed else 0,
            "mean_turns": round(turns / max(1, games - len(errors)), 1),
            "endings": dict(sorted(endings.items())), "errors": errors[:5]}
