"""The speed anchor of `make bench`: OpenSpiel's pure-Python `python_block_dominoes`, played with
uniform random players (OpenSpiel has no heuristic bot for it), chance nodes sampled by their
probabilities. Prints one JSON line: games and actions (decisions + chance outcomes) per second.

Runs in the separate bench environment (`.venv-bench`, made by `make bench`), so OpenSpiel and its
numpy never enter the project's own environment.

Run: .venv-bench/bin/python benchmarks/openspiel_anchor.py [--seconds 4]
"""

from __future__ import annotations

import argparse
import json
import random
import time


def measure(seconds: float, seed: int = 0) -> dict[str, float]:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  registers the Python game

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_second": games / elapsed, "actions_per_second": actions / elapsed, "games": games}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    print(json.dumps(measure(args.seconds)))
