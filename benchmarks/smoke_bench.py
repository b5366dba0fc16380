"""Smoke runs at scale, for every discovered game: games per second on one worker and on all
workers (target: at least 1.8x on 2 cores, identical reports); then memory: peak RSS of a
10,000-game run against a 1,000-game run (target: within 1.2x) on one worker, on two and on a
Dask cluster, and the Dask workers' memory after each of five runs on one cluster (target: flat).

The memory runs use the fastest setting of the shipped games (player count and bot, measured
first) so that the whole bench takes minutes; the setting is printed. Each run is a fresh
process, because peak RSS only ever grows within a process.

Run: .venv/bin/python benchmarks/smoke_bench.py [--small 1000] [--large 10000] [--dask-runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from discover import ROOT, PlayableGame, playable_games  # noqa: E402

SPEED_SECONDS = 8.0  # per one-worker run: long enough that starting workers does not dominate


def _plan(game: PlayableGame, games: int, players: int, bot: str, seed: int = 5) -> Any:
    from toolkit.smoke.runner import RunPlan

    return RunPlan(game=game.id, rules=game.loaded.game.rules, games=games, players=(players,), seed=seed,
                   bots=(bot,), check="none")


def _report(outcome: Any, game: PlayableGame) -> dict[str, Any]:
    """The parts of the report that must not depend on the worker count."""
    from toolkit.smoke.stats import build_report

    report = build_report(outcome.tally, game=game.id, title="", fingerprint="", seconds=1.0, workers=0, backend="",
                          plan={"players": (), "seed": 0, "bots": (), "check": "none", "games": 0},
                          interrupted=False, components={})
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_second", "workers", "backend")}


def speed(games: list[PlayableGame], cores: int) -> None:
    from toolkit.smoke.runner import default_bot, run

    print(f"{'game':<20}{'players':>8}{'1 worker':>12}{f'{cores} workers':>12}{'ratio':>8}"
          f"{'peak RSS/worker':>18}   (default bot, no checks; target 1.8x on 2 cores)")
    for game in games:
        spec = game.spec
        players = min(max(4, spec.min_players), spec.max_players)
        bot = default_bot(spec)
        probe = run(_plan(game, 20, players, bot), game.loaded.data, workers=1)
        n = max(100, int(20 / probe.seconds * SPEED_SECONDS))
        one = run(_plan(game, n, players, bot), game.loaded.data, workers=1)
        many = run(_plan(game, n, players, bot), game.loaded.data, workers=cores)
        rate1, rate_n = n / one.seconds, n / many.seconds
        same = _report(one, game) == _report(many, game)
        print(f"{game.id:<20}{players:>8}{rate1:>9.1f} g/s{rate_n:>9.1f} g/s{rate_n / rate1:>7.2f}x"
              f"{many.peak_rss_kib / 1024:>14.0f} MiB   {n} games, {'identical reports' if same else 'REPORTS DIFFER'}")


def fastest_setting(games: list[PlayableGame]) -> tuple[PlayableGame, int, str, float]:
    """The game, player count and bot that play the most games per second (one worker). The search
    bot is left out: it is slow by design, and benchmarks/search_bench.py measures it."""
    from toolkit.smoke.runner import known_bots, run

    best = None
    for game in games:
        for bot in (b for b in known_bots(game.spec) if b != "search"):
            plan = _plan(game, 30, game.spec.min_players, bot)
            outcome = run(plan, game.loaded.data, workers=1)
            rate = 30 / outcome.seconds
            if outcome.tally.failed == 0 and (best is None or rate > best[3]):
                best = (game, game.spec.min_players, bot, rate)
    assert best is not None, "no game plays cleanly"
    return best


# -- one measured run, in its own process --------------------------------------------------------

CHILD = """
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from toolkit.games import load_game
from toolkit.smoke.runner import RunPlan, run
loaded = load_game(Path({game_dir!r}))
plan = RunPlan(game=loaded.game.id, rules=loaded.game.rules, games={games}, players=({players},), seed=7,
               bots=({bot!r},), check="none")
start = time.perf_counter()
outcome = run(plan, loaded.data, workers={workers}, backend={backend!r}, scheduler={scheduler!r})
print(json.dumps({{"seconds": time.perf_counter() - start,
                  "parent_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "worker_kib": outcome.peak_rss_kib}}))
"""


def measured_run(game: PlayableGame, players: int, bot: str, games: int, workers: int, backend: str = "process",
                 scheduler: str | None = None, root: Path = ROOT) -> dict[str, Any]:
    code = CHILD.format(root=str(root), game_dir=str(game.dir), games=games, players=players, bot=bot,
                        workers=workers, backend=backend, scheduler=scheduler)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _cluster(profile: bool = False) -> Any:
    """Two local Dask workers; ``profile``: with Dask's task profiler on (its default), or off as
    docs/smoke.md recommends for long-lived smoke workers."""
    import dask
    import distributed

    with dask.config.set({"distributed.worker.profile.enabled": profile}):
        return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                    silence_logs=50)


def _worker_rss(cluster: Any) -> list[float]:
    """Current RSS of each worker process, MiB."""
    import distributed

    def rss() -> int:
        import psutil

        return psutil.Process().memory_info().rss

    with distributed.Client(cluster) as client:
        return [v / 2**20 for _, v in sorted(client.run(rss).items())]


def memory(game: PlayableGame, players: int, bot: str, small: int, large: int, dask_runs: int,
           root: Path = ROOT, only_dask: bool = False) -> None:
    print(f"memory: {game.id}, {players} player(s), bot {bot}, no checks; {small:,} against {large:,} games"
          " (target: within 1.2x)")
    print(f"  {'where':<12}{'process':<12}{f'{small:,} games':>14}{f'{large:,} games':>14}{'ratio':>8}")

    def row(where: str, what: str, a: float, b: float) -> None:
        print(f"  {where:<12}{what:<12}{a / 1024:>10.1f} MiB{b / 1024:>10.1f} MiB{b / a:>7.2f}x")

    for workers in () if only_dask else (1, 2):
        a = measured_run(game, players, bot, small, workers, root=root)
        b = measured_run(game, players, bot, large, workers, root=root)
        row(f"{workers} worker{'s' if workers > 1 else ''}", "parent", a["parent_kib"], b["parent_kib"])
        if workers > 1:
            row("", "workers", a["worker_kib"], b["worker_kib"])
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("  dask: not installed (pip install 'hordekit[dask]')")
        return
    peaks = []
    for n in (small, large):  # a fresh cluster each, so each worker peak is this run's
        with _cluster() as cluster:
            peaks.append(measured_run(game, players, bot, n, 0, "dask", cluster.scheduler_address, root))
    row("dask", "client", peaks[0]["parent_kib"], peaks[1]["parent_kib"])
    row("", "workers", peaks[0]["worker_kib"], peaks[1]["worker_kib"])
    print("  (Dask: two local workers started with the task profiler off, as docs/smoke.md recommends)")
    print(f"  dask workers' RSS (MiB, worker 1/worker 2) when idle, then after each of {dask_runs} runs of "
          f"{small:,} games on one cluster (target: flat):")
    for profile in (True, False):
        dask_runs_on_one_cluster(game, players, bot, small, dask_runs, root, profile)


def dask_runs_on_one_cluster(game: PlayableGame, players: int, bot: str, games: int, runs: int, root: Path,
                             profile: bool) -> None:
    """Workers' RSS when idle and after each of ``runs`` runs on one cluster (target: flat)."""
    with _cluster(profile) as cluster:
        before = _worker_rss(cluster)
        after = []
        for _ in range(runs):
            measured_run(game, players, bot, games, 0, "dask", cluster.scheduler_address, root)
            after.append(_worker_rss(cluster))
    cells = "  ".join("/".join(f"{v:.0f}" for v in run) for run in [before, *after])
    growth = max(max(a) for a in after) - max(after[0])
    label = "profiler on (Dask's default)" if profile else "profiler off (docs/smoke.md)"
    print(f"    {label:<30} {cells}   run 1 to highest: {growth:+.1f} MiB", flush=True)


def main() -> None:
    from toolkit.smoke.runner import default_workers

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--dask-runs", type=int, default=5)
    parser.add_argument("--no-speed", action="store_true", help="only the memory figures")
    parser.add_argument("--only-dask", action="store_true", help="of the memory figures, only Dask's")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="measure the memory of another checkout of hordekit (e.g. before a change)")
    args = parser.parse_args()
    if args.root != ROOT:  # the measured runs and the Dask workers (spawned with this path) import that checkout
        os.environ["PYTHONPATH"] = str(args.root.resolve())
    games, skipped = playable_games()
    for line in skipped:
        print(f"(not measured: {line})")
    if not args.no_speed:
        speed(games, default_workers())
    game, players, bot, rate = fastest_setting(games)
    print(f"fastest setting: {game.id}, {players} player(s), bot {bot}: {rate:.0f} games/s on one worker")
    t = time.perf_counter()
    if args.root != ROOT:
        sys.path.insert(0, str(args.root.resolve()))
    memory(game, players, bot, args.small, args.large, args.dask_runs, args.root.resolve(), args.only_dask)
    print(f"  (memory runs took {time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
