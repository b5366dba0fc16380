"""A value for an unfinished game of Kingdoms, for the search bot's truncated rollouts."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.kingdoms.state import KState


def evaluate(st: "KState") -> list[float]:
    """Each seat's value in [0, 1]: its score so far plus a little for resources in hand and
    abilities held, compared with the best other seat (alone: against a par of two points a
    round)."""
    worth = [st.score(p) + 0.1 * sum(st.res[p]) + 0.5 * len(st.abil[p]) for p in range(st.n)]
    if st.n == 1:
        par = 2.0 * st.round
        return [1.0 / (1.0 + math.exp(-(worth[0] - par) / 5.0))]
    out = []
    for p in range(st.n):
        best_other = max(w for q, w in enumerate(worth) if q != p)
        out.append(1.0 / (1.0 + math.exp(-(worth[p] - best_other) / 4.0)))
    return out
