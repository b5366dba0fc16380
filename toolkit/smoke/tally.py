"""Running totals of a smoke run: each game is folded in as it finishes, then forgotten.

A run of 100,000 games must not keep 100,000 summaries: memory would grow with the run. A
``Tally`` holds only counts, sums and value histograms, so its size depends on the content (how
many components, how many distinct scores) and never on the number of games. Tallies merge:
each worker folds its own games, the parent merges what the workers send. Every total is an
integer count or an exact histogram, so the merged result does not depend on which worker
played which game, or in which order the chunks came back.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

#: How many failed games keep their whole action log (the lowest game indices): enough to
#: reproduce every kind of failure without letting a run where everything fails eat memory.
MAX_LOGGED_ERRORS = 100
#: A histogram keeps exact values up to this many distinct ones; past it, values are binned.
MAX_DISTINCT = 4096
#: Statistics whose name starts with this count a supply running short.
SHORTAGE_PREFIX = "shortage"


class Histogram:
    """Value -> how many times it was seen. Exact for the integer-like figures games report.

    When a figure takes more than MAX_DISTINCT distinct values, values are binned into bins of
    width 2**level (the smallest level that fits). Bins of one level nest exactly in those of the
    next, so the binned result is the same whichever way the parts were merged.
    """

    __slots__ = ("counts", "level")

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.level: int | None = None  # None: exact values

    def add(self, value: float, n: int = 1) -> None:
        self.counts[self._bin(value)] += n
        if len(self.counts) > MAX_DISTINCT:
            self._coarsen()

    def merge(self, other: "Histogram") -> None:
        if other.level is not None and (self.level is None or other.level > self.level):
            self._rebin(other.level)
        for value, n in other.counts.items():
            self.counts[self._bin(value)] += n
        if len(self.counts) > MAX_DISTINCT:
            self._coarsen()

    def _bin(self, value: float) -> float:
        if self.level is None:
            return value
        width = 2.0 ** self.level
        return math.floor(value / width) * width

    def _rebin(self, level: int) -> None:
        old, self.counts, self.level = self.counts, Counter(), level
        for value, n in old.items():
            self.counts[self._bin(value)] += n

    def _coarsen(self) -> None:
        level = -16 if self.level is None else self.level + 1
        while True:
            self._rebin(level)
            if len(self.counts) <= MAX_DISTINCT:
                return
            level += 1

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> dict[str, Any]:
        """count, mean, min, p10, median, p90, max and a 12-bin histogram between min and max."""
        n = self.n
        if n == 0:
            return {"count": 0}
        ordered = sorted(self.counts.items())
        total = 0.0
        for value, c in ordered:
            total += value * c

        def q(f: float) -> float:
            rank, seen = min(n - 1, int(f * n)), 0
            for value, c in ordered:
                seen += c
                if seen > rank:
                    return value
            return ordered[-1][0]

        lo, hi = ordered[0][0], ordered[-1][0]
        bins = 12
        width = max(1e-9, (hi - lo) / bins)
        counts = [0] * bins
        for value, c in ordered:
            counts[min(bins - 1, int((value - lo) / width))] += c
        out = {"count": n, "mean": round(total / n, 3), "min": lo, "p10": q(0.1), "median": q(0.5),
               "p90": q(0.9), "max": hi, "histogram": {"start": lo, "width": round(width, 6), "counts": counts}}
        if self.level is not None:
            out["binned"] = 2.0 ** self.level  # values were rounded down to multiples of this
        return out


@dataclass
class ComponentTally:
    """One component over the run: event totals, and the seats that chose to use it."""

    events: Counter = field(default_factory=Counter)
    seats_used: int = 0
    games_used: int = 0
    #: number of winners of the game -> seats that used it and were among them (ties split a win)
    wins_used: Counter = field(default_factory=Counter)

    def merge(self, other: "ComponentTally") -> None:
        self.events.update(other.events)
        self.seats_used += other.seats_used
        self.games_used += other.games_used
        self.wins_used.update(other.wins_used)


def win_share(wins_by_ties: Counter) -> Fraction:
    """Wins counted by the number of winners of their game -> exact win total (a tie splits a win)."""
    return sum((Fraction(c, k) for k, c in wins_by_ties.items() if k), Fraction(0))


@dataclass
class Tally:
    """Everything the smoke report needs, as totals that merge (see the module docstring).

    ``choice_events`` are the usage events that mean a seat chose to use a component: the game's
    declaration (``GameSpec.choice_events``).
    """

    choice_events: frozenset[str] = frozenset()
    played: int = 0
    finished: int = 0
    failed: int = 0
    checked: int = 0
    #: games whose invariants were checked after every step
    invariants: int = 0
    stalemates: int = 0
    actions: int = 0
    seat_games: int = 0
    #: finished games that had at least one winner: the total win share of all seats
    decided: int = 0
    end_reasons: Counter = field(default_factory=Counter)
    #: player count -> games; and player count -> seat -> wins by number of winners
    games_by_count: Counter = field(default_factory=Counter)
    seat_wins: dict[int, list[Counter]] = field(default_factory=dict)
    turns: Histogram = field(default_factory=Histogram)
    scores: Histogram = field(default_factory=Histogram)
    #: the player's score in one-player games
    solo_scores: Histogram = field(default_factory=Histogram)
    margin: Histogram = field(default_factory=Histogram)
    stats: dict[str, Histogram] = field(default_factory=dict)
    #: statistic -> [games where it was above zero, total]
    shortages: dict[str, list[float]] = field(default_factory=dict)
    components: dict[str, ComponentTally] = field(default_factory=dict)
    #: failed games with the lowest indices, each with its action log (see MAX_LOGGED_ERRORS)
    errors: list[dict[str, Any]] = field(default_factory=list)

    # -- folding games in ----------------------------------------------------------------------

    def add(self, s: Any) -> None:
        """Fold in one game's summary (a ``GameSummary``)."""
        self.played += 1
        self.actions += s.steps
        self.checked += bool(s.checked)
        self.invariants += bool(s.invariants)
        if s.error is not None:
            self.failed += 1
            self._keep_error({"index": s.index, "seed": s.seed, "players": s.players, "bots": list(s.bots),
                              "message": s.error, "actions": list(s.actions or [])})
            return
        self.finished += 1
        self.stalemates += bool(s.stalemate)
        self.seat_games += s.players
        self.end_reasons[s.end_reason] += 1
        k = len(s.winners)
        self.decided += bool(k)
        self.games_by_count[s.players] += 1
        seats = self.seat_wins.setdefault(s.players, [Counter() for _ in range(s.players)])
        for seat in s.winners:
            seats[seat][k] += 1
        self.turns.add(s.turns)
        for x in s.scores:
            self.scores.add(float(x))
        if s.players == 1 and s.scores:
            self.solo_scores.add(float(s.scores[0]))
        if len(s.scores) > 1:
            top = sorted(s.scores)
            self.margin.add(float(top[-1] - top[-2]))
        for key, value in s.stats.items():
            if isinstance(value, (int, float)):
                self.stats.setdefault(key, Histogram()).add(float(value))
                if key.startswith(SHORTAGE_PREFIX):
                    row = self.shortages.setdefault(key, [0, 0.0])
                    row[0] += value > 0
                    row[1] += value
        self._add_usage(s.usage, s.winners, k)

    def _add_usage(self, usage: dict[str, dict[str, list[int]]], winners: list[int], k: int) -> None:
        choice = self.choice_events
        for cid, events in usage.items():
            comp = self.components.get(cid)
            if comp is None:
                comp = self.components[cid] = ComponentTally()
            used: set[int] = set()
            for event, per_seat in events.items():
                comp.events[event] += sum(per_seat)
                if event in choice:
                    used.update(i for i, n in enumerate(per_seat) if n)
            if used:
                comp.seats_used += len(used)
                comp.games_used += 1
                comp.wins_used[k] += sum(1 for seat in used if seat in winners)

    def _keep_error(self, entry: dict[str, Any]) -> None:
        self.errors.append(entry)
        if len(self.errors) > MAX_LOGGED_ERRORS:
            self.errors.sort(key=lambda e: e["index"])
            del self.errors[MAX_LOGGED_ERRORS:]

    # -- merging -------------------------------------------------------------------------------

    def merge(self, other: "Tally") -> "Tally":
        """Add another tally's games to this one (returns self)."""
        for name in ("played", "finished", "failed", "checked", "invariants", "stalemates", "actions", "seat_games", "decided"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.end_reasons.update(other.end_reasons)
        self.games_by_count.update(other.games_by_count)
        for players, seats in other.seat_wins.items():
            mine = self.seat_wins.setdefault(players, [Counter() for _ in range(players)])
            for a, b in zip(mine, seats):
                a.update(b)
        self.turns.merge(other.turns)
        self.scores.merge(other.scores)
        self.solo_scores.merge(other.solo_scores)
        self.margin.merge(other.margin)
        for key, hist in other.stats.items():
            self.stats.setdefault(key, Histogram()).merge(hist)
        for key, (games, total) in other.shortages.items():
            row = self.shortages.setdefault(key, [0, 0.0])
            row[0] += games
            row[1] += total
        for cid, comp in other.components.items():
            self.components.setdefault(cid, ComponentTally()).merge(comp)
        for entry in other.errors:
            self._keep_error(entry)
        return self

    @classmethod
    def of(cls, summaries: Iterable[Any], choice_events: frozenset[str] = frozenset()) -> "Tally":
        """A tally of the given summaries, folded one by one."""
        tally = cls(choice_events)
        for s in summaries:
            tally.add(s)
        return tally

    def sorted_errors(self) -> list[dict[str, Any]]:
        return sorted(self.errors, key=lambda e: e["index"])
