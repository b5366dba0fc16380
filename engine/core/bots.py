"""Bots every game can use."""
from __future__ import annotations

import random

from engine.core.api import Decision, State


class RandomBot:
    """Picks uniformly among the legal options: the cheapest way to explore every rule."""

    __slots__ = ("seat", "rng")

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, state: State, decision: Decision) -> int:
        return self.rng.randrange(len(decision.options))
