"""A State whose rules are one generator: plain sequential Python that yields a Decision
whenever someone must choose and receives the chosen index back.

Why: rules read top to bottom like the rulebook, yet the outside sees a step API. The price is
that a generator cannot be copied, so `clone` replays the action log on a fresh state.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generator

from engine.core.api import Decision, GameResult

Rules = Generator[Decision, int, None]


class SequentialState(ABC):
    """Base class: subclasses implement `_rules()`, `_fresh()`, `result()` and `check_invariants()`."""

    def __init__(self) -> None:
        self.actions: list[int] = []
        self._gen: Rules = self._rules()
        self._current: Decision | None = next(self._gen, None)

    # --- the step API -------------------------------------------------------------------
    def decision(self) -> Decision | None:
        return self._current

    def apply(self, action: int) -> None:
        current = self._current
        if current is None:
            raise ValueError("the game is over: no decision to apply an action to")
        if action.__class__ is not int or not 0 <= action < len(current.options):
            raise ValueError(f"illegal action {action!r} for '{current.prompt}' "
                             f"({len(current.options)} options)")
        self.actions.append(action)
        try:
            self._current = self._gen.send(action)
        except StopIteration:
            self._current = None

    def is_over(self) -> bool:
        return self._current is None

    def clone(self) -> "SequentialState":
        twin = self._fresh()
        for a in self.actions:
            twin.apply(a)
        return twin

    # --- for subclasses -----------------------------------------------------------------
    @abstractmethod
    def _rules(self) -> Rules:
        """The game's rules as one generator of decisions."""

    @abstractmethod
    def _fresh(self) -> "SequentialState":
        """A new state built from the same arguments, before any action."""

    @abstractmethod
    def result(self) -> GameResult:
        """How the finished game ended."""

    @abstractmethod
    def check_invariants(self) -> list[str]:
        """Problems with the current state; [] when every invariant holds."""

    def fingerprint(self) -> Any:
        """A value equal for equal states; used by checked mode to compare clone and replay."""
        return tuple(self.actions)
