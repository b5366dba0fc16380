"""A search bot for any registered game: information-set Monte Carlo tree search.

Every playout starts from a clone of the state the bot was shown. In an imperfect-information
game that state is already redacted for the bot's seat, and the clone's hidden parts are drawn
afresh (`resample`) from what the seat can see, so the bot never learns anything its seat
cannot see (single-observer ISMCTS, as in Cowling, Powley and Whitehouse 2012, and OpenSpiel's
`ismcts.py`). In a perfect-information game this is plain UCT.

The tree is open loop: a node stands for a sequence of the players' chosen options (by label,
since the legal options differ between sampled worlds) and chance is sampled, not branched.
Selection is PUCT (as in AlphaZero-style search): mean value plus exploration weighted by a
prior, which is uniform, or concentrated on the game's playout bot's own pick when the game
declares one, so that a small budget checks and refines a good policy rather than sampling
blindly among dozens of options.

Playouts are random (or played by the bot the game names as `playout_bot`) and stop after
`depth` player decisions; an unfinished playout is scored by
the game's `evaluate(state)` when it declares one (per-seat values in [0, 1]), otherwise as a
draw. A finished one scores 1 for a winner (shared among tied winners) and 0 otherwise.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.core.api import CHANCE, Decision, GameSpec, State
from engine.core.driver import sample_chance

DEFAULT_PLAYOUTS = 64
DEFAULT_DEPTH = 24
EXPLORATION = 1.5
PICK_PRIOR = 0.6     # share of the prior on the playout policy's own pick
FIRST_PLAY = 0.4     # value assumed for an option not tried yet
MAX_ROLLOUT_STEPS = 5_000


@dataclass(slots=True)
class _Node:
    visits: int = 0
    value: float = 0.0
    pick: str | None = None   # the playout policy's choice here, asked once
    children: dict[str, "_Node"] = field(default_factory=dict)


def parse_budget(budget: Any) -> tuple[int, float, int | None]:
    """`200` -> 200 playouts; `"50ms"` -> as many as fit in 50 milliseconds; a suffix `@D` sets
    the playout depth in player decisions (`"64@8"`)."""
    if budget is None or budget == "":
        return DEFAULT_PLAYOUTS, 0.0, None
    text = str(budget).strip().lower()
    depth: int | None = None
    try:
        if "@" in text:
            text, _, d = text.partition("@")
            depth = int(d)
            if depth < 0:
                raise ValueError
        if text.endswith("ms"):
            ms = float(text[:-2])
            if ms <= 0:
                raise ValueError
            return 1_000_000_000, ms / 1000.0, depth
        n = int(text)
        if n < 1:
            raise ValueError
        return n, 0.0, depth
    except ValueError:
        raise ValueError(f"a search budget is a number of playouts (200) or milliseconds (50ms), "
                         f"optionally with a playout depth (64@8), not {budget!r}") from None


class SearchBot:
    """Monte Carlo tree search with a budget per decision; see the module docstring."""

    def __init__(self, spec: GameSpec, seat: int, rng: random.Random, budget: Any = None,
                 depth: int = DEFAULT_DEPTH) -> None:
        self.spec = spec
        self.seat = seat
        self.rng = rng
        self.playouts, self.seconds, chosen_depth = parse_budget(budget)
        self.depth = depth if chosen_depth is None else chosen_depth
        self.hidden = spec.information == "imperfect"
        self.evaluate = spec.evaluate
        self.spent = 0  # playouts run so far, for reports
        # the game's own playout policy, one bot per seat, or uniform random moves
        self.policy: list[Any] | None = None
        if spec.playout_bot:
            factory = spec.bots[spec.playout_bot]
            self.policy = [factory(s, random.Random(rng.random())) for s in range(16)]

    def choose(self, state: State, decision: Decision) -> int:
        options = decision.options
        if len(options) == 1:
            return 0
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else 0.0
        done = 0
        while done < self.playouts:
            self._playout(state, root)
            done += 1
            if deadline and time.perf_counter() >= deadline:
                break
        self.spent += done
        best, best_key = 0, (-1, -1.0)
        for i, label in enumerate(options):
            child = root.children.get(label)
            key = (child.visits, child.value / child.visits) if child is not None and child.visits else (0, -1.0)
            if key > best_key:  # most visited, then best on average
                best, best_key = i, key
        return best

    # ---------------------------------------------------------------------------------------
    def _world(self, state: State) -> State:
        """A clone of the state, with what the seat cannot see drawn afresh."""
        sim = state.clone()
        if self.hidden:
            sim.resample(self.seat, self.rng)  # type: ignore[attr-defined]
        return sim

    def _playout(self, state: State, root: _Node) -> None:
        rng = self.rng
        sim = self._world(state)
        node = root
        path: list[tuple[_Node, int]] = []
        expanded = False
        d = sim.decision()
        while d is not None and not expanded:
            if d.player == CHANCE:
                sim.apply(sample_chance(rng, d))
                d = sim.decision()
                continue
            i = self._select(node, sim, d)
            label = d.options[i]
            child = node.children.get(label)
            if child is None:
                child = node.children[label] = _Node()
                expanded = True
            path.append((child, d.player))
            node.visits += 1
            sim.apply(i)
            node = child
            d = sim.decision()
        values = self._rollout(sim)
        for child, player in path:
            child.visits += 1
            child.value += values[player] if values is not None and player < len(values) else 0.5

    def _select(self, node: _Node, sim: State, d: Decision) -> int:
        """PUCT: mean value plus an exploration term weighted by a prior. With a playout policy,
        its pick carries most of the prior, so a small budget refines the policy's choice instead
        of sampling blindly among many options; without one the prior is uniform. An option not
        tried yet counts as a modest value (first-play urgency)."""
        labels = d.options
        k = len(labels)
        if self.policy is not None and node.pick is None:
            node.pick = labels[self.policy[d.player].choose(sim, d)]
        pick = node.pick
        spread = math.sqrt(node.visits + 1)
        other = (1.0 - PICK_PRIOR) / (k - 1) if k > 1 else 1.0
        best, best_score = 0, -1.0
        children = node.children
        for i, label in enumerate(labels):
            c = children.get(label)
            n = c.visits if c is not None else 0
            q = c.value / n if n else FIRST_PLAY
            prior = (PICK_PRIOR if label == pick else other) if pick is not None else 1.0 / k
            score = q + EXPLORATION * prior * spread / (1 + n)
            if score > best_score:
                best, best_score = i, score
        return best

    def _rollout(self, sim: State) -> list[float] | None:
        """Per-seat values of a random playout from `sim`; None when it could not be scored."""
        rng = self.rng
        choices = steps = 0
        d = sim.decision()
        while d is not None:
            if d.player != CHANCE:
                if choices >= self.depth and self.evaluate is not None:
                    return list(self.evaluate(sim))
                choices += 1
                policy = self.policy
                sim.apply(policy[d.player].choose(sim, d) if policy is not None else rng.randrange(d.n))
            else:
                sim.apply(sample_chance(rng, d))
            steps += 1
            if steps >= MAX_ROLLOUT_STEPS:
                break
            d = sim.decision()
        if d is not None:  # no evaluation and no end in sight: call it even
            return None
        result = sim.result()
        n = len(result.scores)
        winners = result.winners
        share = 1.0 / len(winners) if winners else 0.0
        return [share if p in winners else 0.0 for p in range(n)]
