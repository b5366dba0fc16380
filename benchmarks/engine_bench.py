"""Rules-engine speed on one core, against OpenSpiel measured in the same run.

For each discovered game at two player counts: actions (decisions + chance events) per second
with the game's default bot (its heuristic when it has one) and invariant checks off; what the
invariants after every step add (what every smoke game pays by default); what full checked mode
adds (invariants, plus a clone and a replay of the log at the end: a smoke run's sampled games);
and actions per second with random bots. The anchor is OpenSpiel's pure-Python `python_block_dominoes`
with random players (benchmarks/openspiel_anchor.py, run in `.venv-bench`); the target is twice
its actions per second with heuristic bots in every game.

The machine's speed drifts over minutes (a shared host), so the anchor is measured again right
before each row and the row's ratio is to that reading; the first line gives the range of all
readings. A row meets the target only against its own anchor.

Run: .venv/bin/python benchmarks/engine_bench.py [--seconds 4]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from discover import ROOT, PlayableGame, playable_games  # noqa: E402
from engine.core.bench import bench  # noqa: E402
from engine.core.driver import play_game  # noqa: E402
from toolkit.smoke.runner import default_bot  # noqa: E402

ANCHOR_PYTHON = Path(os.environ.get("HORDEKIT_BENCH_PYTHON", ROOT / ".venv-bench" / "bin" / "python"))
TARGET_FACTOR = 2.0


def player_counts(spec: Any) -> list[int]:
    """Two player counts per game: the smallest of two or more, and four (or the nearest)."""
    lo, hi = spec.min_players, spec.max_players
    return sorted({min(max(2, lo), hi), min(max(4, lo), hi)})


def anchor(seconds: float) -> float | None:
    """OpenSpiel's block dominoes, actions per second; None when the bench environment is missing."""
    if not ANCHOR_PYTHON.is_file():
        print(f"(anchor not measured: {ANCHOR_PYTHON} missing; `make bench` creates it)")
        return None
    proc = subprocess.run([str(ANCHOR_PYTHON), str(ROOT / "benchmarks" / "openspiel_anchor.py"),
                           "--seconds", str(seconds)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"(anchor not measured: {proc.stderr.strip().splitlines()[-1:]})")
        return None
    return float(json.loads(proc.stdout)["actions_per_second"])


def measure(game: PlayableGame, model: Any, players: int, bot: str, check: bool, seconds: float,
            invariants: bool | None = None) -> float:
    """Actions per second, growing the sample until it takes `seconds`."""
    spec = game.spec
    play_game(spec, model, players, 0, [bot], check=check, invariants=invariants)  # warm-up
    games = 3
    while True:
        report = bench(spec, model, players, games, bot=bot, seed=99, check=check, invariants=invariants)
        for err in report["errors"]:
            print(f"  failed: {err}")
        if report["seconds"] >= seconds or games >= 100_000:
            return report["actions"] / report["seconds"]
        games = max(games + 1, int(games * seconds * 1.2 / max(report["seconds"], 1e-3)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per heuristic figure (others: half)")
    args = parser.parse_args()
    first = anchor(args.seconds)
    readings = [] if first is None else [first]
    if first is not None:
        print(f"anchor: OpenSpiel python_block_dominoes, random players: {first:,.0f} actions/s; "
              f"target {TARGET_FACTOR:g}x = {TARGET_FACTOR * first:,.0f} (measured again before each row)")
    games, skipped = playable_games()
    for line in skipped:
        print(f"(not measured: {line})")
    print(f"{'game':<20}{'players':>8}{'anchor':>9}{'heuristic':>11}{'x anchor':>10}{'+invariants':>13}"
          f"{'+checked':>10}{'random':>10}   actions/s, one core; +: extra time")
    for game in games:
        model = game.spec.build_model(game.loaded.data)
        bot = default_bot(game.spec)
        for players in player_counts(game.spec):
            base = anchor(args.seconds / 2) if readings else None
            if base is not None:
                readings.append(base)
            fast = measure(game, model, players, bot, False, args.seconds)
            inv = measure(game, model, players, bot, False, args.seconds / 2, invariants=True)
            checked = measure(game, model, players, bot, True, args.seconds / 2)
            rand = measure(game, model, players, "random", False, args.seconds / 2)
            ratio = f"{fast / base:.2f}" if base else "-"
            verdict = "" if base is None else ("  met" if fast >= TARGET_FACTOR * base else "  NOT MET")
            shown = f"{base:,.0f}" if base else "-"
            print(f"{game.id:<20}{players:>8}{shown:>9}{fast:>11,.0f}{ratio:>10}{100 * (fast / inv - 1):>12.0f}%"
                  f"{100 * (fast / checked - 1):>9.0f}%{rand:>10,.0f}{verdict}   ({bot} bot)", flush=True)
    if readings:
        print(f"anchor readings this run: {min(readings):,.0f} to {max(readings):,.0f} actions/s "
              f"({len(readings)} readings)")


if __name__ == "__main__":
    main()
