"""Bots every game can use: `random`, and `search` (engine.core.search) for any registered game."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.core.api import Decision, State

if TYPE_CHECKING:
    from engine.core.api import BotFactory, GameSpec


class RandomBot:
    """Picks uniformly among the legal options: the cheapest way to explore every rule."""

    __slots__ = ("seat", "rng")
    reads_state = False  # never looks at the state, so hidden information needs no redacting

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, state: State, decision: Decision) -> int:
        return self.rng.randrange(decision.n)


def core_bots(spec: "GameSpec") -> dict[str, "BotFactory"]:
    """The bots every game has, bound to its declaration."""

    def search(seat: int, rng: random.Random, **settings: object):  # noqa: ANN202
        from engine.core.search import SearchBot

        return SearchBot(spec, seat, rng, **settings)  # type: ignore[arg-type]

    return {"random": RandomBot, "search": search}
