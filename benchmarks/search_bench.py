"""Clones and the search bot, for every game in content/ that has a rules engine.

Prints (nothing is asserted):
- clone time at move 50 and move 1,000 beside the time to replay the log that far
  (target: a clone under 5% of the replay at move 1,000);
- the search bot's win rate against `random` (target >= 90%) and against the game's
  `heuristic` bot (target >= 55%) over two-player games with seats alternated, with the budget,
  the seconds per game, and the share of choosable components search used that heuristic never
  did.

Settings by environment: HORDEKIT_BENCH_SEARCH_GAMES (default 200 per pairing),
HORDEKIT_BENCH_SEARCH_BUDGET (default "16@6"), HORDEKIT_BENCH_WORKERS (default 2).
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = int(os.environ.get("HORDEKIT_BENCH_SEARCH_GAMES", "200"))
BUDGET = os.environ.get("HORDEKIT_BENCH_SEARCH_BUDGET", "16@6")
WORKERS = int(os.environ.get("HORDEKIT_BENCH_WORKERS", "2"))


def discovered() -> list[tuple[str, str]]:
    """(game folder name, rules name) of every shipped game whose rules import (benchmarks/discover.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from discover import playable_games

    return [(g.dir.name, g.loaded.game.rules) for g in playable_games()[0]]


_CACHE: dict[str, tuple] = {}


def _load(game: str, rules: str) -> tuple:
    if game not in _CACHE:
        from toolkit.games import load_game
        from toolkit.rules import load_rules

        spec = load_rules(rules)
        _CACHE[game] = (spec, spec.build_model(load_game(ROOT / "content" / game).data))
    return _CACHE[game]


def clone_figures(game: str, rules: str) -> list[str]:
    from engine.core.driver import play_game, replay

    spec, model = _load(game, rules)
    players = max(2, spec.min_players)
    bot = "heuristic" if "heuristic" in spec.bots else "random"
    rec = play_game(spec, model, players, 3, [bot])
    for seed in range(4, 40):  # a game long enough to clone at move 1,000
        if len(rec.actions) > 1000:
            break
        rec = play_game(spec, model, players, seed, [bot])
    lines = []
    for at in (50, 1000):
        if len(rec.actions) < at:
            lines.append(f"  {game}: the game ended before move {at}")
            continue
        best_replay = min(_timed(lambda: replay(spec, model, players, rec.actions[:at])) for _ in range(5))
        state = replay(spec, model, players, rec.actions[:at])
        state.clone()  # the first clone turns checkpoints on
        best_clone = min(_timed(state.clone) for _ in range(20))
        lines.append(f"  {game} move {at:>5}: clone {best_clone * 1e3:7.3f} ms, replay {best_replay * 1e3:7.2f} ms, "
                     f"clone/replay {best_clone / best_replay:6.1%} (target at move 1000: < 5%)")
    return lines


def _timed(fn) -> float:  # noqa: ANN001
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _one(args: tuple) -> tuple[float, float, dict, int]:
    game, rules, bot, other, index = args
    from engine.core.driver import derive_seed, play_game

    spec, model = _load(game, rules)
    seat = index % 2
    lineup = [bot, other] if seat == 0 else [other, bot]
    start = time.perf_counter()
    rec = play_game(spec, model, 2, derive_seed(2026, index), lineup)
    took = time.perf_counter() - start
    if rec.error or rec.result is None:
        return 0.0, took, {}, 1
    winners = rec.result.winners
    win = (seat in winners) / len(winners) if winners else 0.0  # a game nobody wins is no win (a shared win is half)
    used: dict[str, list[int]] = {}
    for comp, events in rec.result.usage.items():
        for event, counts in events.items():
            if event in spec.choice_events:
                row = used.setdefault(comp, [0, 0])
                row[0] += counts[seat]
                row[1] += counts[1 - seat]
    return win, took, used, 0


def match(game: str, rules: str, bot: str, other: str, games: int) -> tuple[float, float, dict, int]:
    wins = seconds = 0.0
    errors = 0
    used: dict[str, list[int]] = {}
    jobs = [(game, rules, bot, other, i) for i in range(games)]
    with ProcessPoolExecutor(WORKERS) as pool:
        for win, took, u, err in pool.map(_one, jobs, chunksize=1):
            wins += win
            seconds += took
            errors += err
            for comp, (mine, theirs) in u.items():
                row = used.setdefault(comp, [0, 0])
                row[0] += mine
                row[1] += theirs
    return wins / max(1, games - errors), seconds / max(1, games), used, errors


def main() -> None:
    games = discovered()
    print("clone cost (best of several runs, one core):")
    for game, rules in games:
        for line in clone_figures(game, rules):
            print(line, flush=True)
    print(f"search bot, budget {BUDGET} per decision, {GAMES} two-player games per pairing, seats alternated:")
    for game, rules in games:
        spec, _ = _load(game, rules)
        bot = f"search:{BUDGET}"
        rate, secs, _, err = match(game, rules, bot, "random", GAMES)
        print(f"  {game}: search vs random    win rate {rate:6.1%} (target >= 90%), {secs:6.1f} s/game, "
              f"{err} errors", flush=True)
        if "heuristic" not in spec.bots:
            continue
        rate, secs, used, err = match(game, rules, bot, "heuristic", GAMES)
        only = sorted(c for c, (mine, theirs) in used.items() if mine and not theirs)
        chosen = sorted(c for c, (mine, _) in used.items() if mine)
        share = len(only) / len(chosen) if chosen else 0.0
        print(f"  {game}: search vs heuristic win rate {rate:6.1%} (target >= 55%), {secs:6.1f} s/game, "
              f"{err} errors; components search used that heuristic never did: {len(only)} of {len(chosen)} "
              f"({share:.0%})", flush=True)


if __name__ == "__main__":
    main()
