"""The contract between a game's rules, the driver, bots and the toolkit.

Modelled on OpenSpiel: a state exposes one pending decision (a player's or chance's), a list of
labelled options, and `apply(index)`. Dice and shuffles are chance decisions resolved by the
driver's seeded RNG, so a game is fully described by its content and its action list.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

CHANCE: int = -1
"""The `player` of a decision that chance (the driver's RNG or a scenario script) resolves."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice to make. The action taken is an index into `options`."""

    player: int
    prompt: str
    options: tuple[str, ...]
    weights: tuple[float, ...] | None = None


@dataclass
class GameResult:
    """How a finished game ended; what the smoke runner aggregates."""

    scores: list[int]
    winners: list[int]
    end_reason: str
    turns: int
    usage: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)


class State(Protocol):
    """A game in progress. Implementations keep `actions`, the full log, chance included."""

    actions: list[int]

    def decision(self) -> Decision | None: ...
    def apply(self, action: int) -> None: ...
    def is_over(self) -> bool: ...
    def result(self) -> GameResult: ...
    def check_invariants(self) -> list[str]: ...
    def clone(self) -> "State": ...


class Bot(Protocol):
    """Picks an option index for a decision of its seat."""

    def choose(self, state: State, decision: Decision) -> int: ...


@dataclass(frozen=True)
class GameSpec:
    """Everything the toolkit needs to play one game: its single registration.

    `scenario_state` and `probe` are optional hooks for executable scenarios: the first builds a
    state from a scenario's `setup` mapping, the second exposes named values to check.
    """

    id: str
    min_players: int
    max_players: int
    build_model: Callable[[dict[str, list[dict]]], Any]
    new_state: Callable[[Any, int, dict], State]
    bots: dict[str, Callable[[int, random.Random], Bot]]
    effect_kinds: frozenset[str]
    text_kinds: frozenset[str] = frozenset()
    scenario_state: Callable[[Any, int, dict], State] | None = None
    probe: Callable[[State], dict[str, Any]] | None = None
