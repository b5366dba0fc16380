"""Play one game with bots, deterministically, and replay logs.

Chance is resolved by `random.Random(seed)`; each bot gets its own RNG derived from
(seed, seat), so a bot's choices never shift the dice. The driver never raises on a rules
failure: it records the error with the step where it happened, which is what a smoke run needs.
"""
from __future__ import annotations

import hashlib
import random
import traceback
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from engine.core.api import CHANCE, Decision, GameResult, GameSpec, State, check_all_invariants

DEFAULT_MAX_STEPS = 2_000_000


def derive_seed(run_seed: int, index: int) -> int:
    """A 63-bit seed for game `index` of a run; stable across processes (no `hash()`)."""
    digest = hashlib.blake2b(f"{run_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def sample_chance(rng: random.Random, decision: Decision) -> int:
    """Draw an option index for a chance decision: uniform, or by its weights."""
    n = decision.n
    weights = decision.weights
    if weights is None:
        return rng.randrange(n) if n > 1 else 0
    # The running sums, added in order as a loop would (C-level: a draw from a deck of 36 kinds
    # is a common step); the first sum above r belongs to an option with weight, since the
    # sums only grow where a weight is positive.
    acc = list(accumulate(weights))
    r = rng.random() * (acc[-1] if acc else 0.0)
    i = bisect_right(acc, r)
    if i < n:
        return i
    for i in range(n - 1, -1, -1):  # float rounding: the last option with weight
        if weights[i] > 0:
            return i
    return n - 1


@dataclass
class GameRecord:
    """One played game: enough to reproduce it (seed, players, bots, actions) and its outcome."""

    seed: int
    players: int
    bots: list[str]
    actions: list[int] = field(default_factory=list)
    result: GameResult | None = None
    error: str | None = None  # "step N: Type: message (file.py:line)"
    stalemate: bool = False
    steps: int = 0
    failure: str | None = None  # the error without its place: "step N: Type: message"
    #: (file, line) of every frame the error passed through, innermost last, for a caller that
    #: names the place in its own terms (the designer's rules file as the rest of its output does)
    error_frames: list[tuple[str, int]] = field(default_factory=list)


def make_bots(spec: GameSpec, players: int, seed: int, bots: list[str]) -> list[Any]:
    """One bot per seat; a single name is used for every seat.

    A name may carry settings after a colon, `search:200` (the search bot's budget)."""
    names = list(bots) if len(bots) == players else [bots[0]] * players if len(bots) == 1 else None
    if names is None:
        raise ValueError(f"need 1 or {players} bot names, got {len(bots)}")
    out = []
    for seat, name in enumerate(names):
        base, _, setting = name.partition(":")
        if base not in spec.bots:
            raise ValueError(f"unknown bot {base!r}; known: {', '.join(sorted(spec.bots))}")
        rng = random.Random(derive_seed(seed, 1_000_003 + seat))
        out.append(spec.bots[base](seat, rng, budget=setting) if setting else spec.bots[base](seat, rng))
    return out


def bot_choice(state: State, bot: Any, decision: Decision, hidden: bool) -> int:
    """Ask a bot for its choice, showing it only what its seat may see.

    In an imperfect-information game the state is redacted for the bot's seat around the call
    (see `HiddenState`), unless the bot declares that it never reads the state, or that it reads
    only what its seat may see (`Bot`)."""
    if hidden and getattr(bot, "reads_state", True) and getattr(bot, "reads_hidden", True):
        token = state.redact(decision.player)  # type: ignore[attr-defined]
        try:
            return bot.choose(state, decision)
        finally:
            state.restore(token)  # type: ignore[attr-defined]
    return bot.choose(state, decision)


def play_game(spec: GameSpec, model: Any, players: int, seed: int, bots: list[str],
              options: dict | None = None, check: bool = False,
              max_steps: int = DEFAULT_MAX_STEPS, invariants: bool | None = None) -> GameRecord:
    """Play a whole game. `check=True` tests invariants after every step and, at the end, that a
    clone and a replay of the log reach the same result. `invariants=True` tests the invariants
    after every step without the end-of-game equivalence (by default, as `check` says)."""
    if invariants is None:
        invariants = check
    options = dict(options or {})
    record = GameRecord(seed=seed, players=players, bots=list(bots))
    steps = 0
    state: State | None = None
    try:
        seats = make_bots(spec, players, seed, bots)
        rng = random.Random(seed)
        hidden = spec.information == "imperfect"
        state = spec.new_state(model, players, options)
        record.actions = state.actions
        decision = state.decision()
        while decision is not None:
            if steps >= max_steps:
                raise RuntimeError(f"no end after {max_steps} steps")
            if decision.player == CHANCE:
                action = sample_chance(rng, decision)
            else:
                action = bot_choice(state, seats[decision.player], decision, hidden)
            state.apply(action)
            steps += 1
            if invariants:  # checked games test every invariant, not only what the rules marked
                problems = check_all_invariants(state) if check else state.check_invariants()
                if problems:
                    raise AssertionError("invariant broken: " + "; ".join(problems))
            decision = state.decision()
        record.steps = steps
        record.result = state.result()
        record.stalemate = record.result.end_reason == "stalemate"
        if check:
            _check_replay(spec, model, players, options, state)
    except Exception as exc:  # the record carries the failure; a smoke run keeps going
        record.steps = steps
        frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
        record.error_frames = [(f.filename, f.lineno or 1) for f in frames]
        where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
        record.failure = f"step {steps}: {type(exc).__name__}: {exc}"
        record.error = record.failure + where
        if state is not None:
            record.actions = list(state.actions)
    return record


def _check_replay(spec: GameSpec, model: Any, players: int, options: dict, state: State) -> None:
    """Clone and replay must reproduce the game exactly."""
    want = state.result()
    twin = state.clone()
    if twin.actions != state.actions or twin.result() != want:
        raise AssertionError("clone differs from the original game")
    again = replay(spec, model, players, list(state.actions), options)
    if again.result() != want:
        raise AssertionError("replaying the action log gives a different result")
    fp = getattr(state, "fingerprint", None)
    if fp is not None and fp() != again.fingerprint():  # type: ignore[attr-defined]
        raise AssertionError("replaying the action log gives a different end state")


def replay(spec: GameSpec, model: Any, players: int, actions: list[int],
           options: dict | None = None) -> State:
    """A fresh state with `actions` applied in order (raises ValueError on an illegal one)."""
    state = spec.new_state(model, players, dict(options or {}))
    for i, a in enumerate(actions):
        try:
            state.apply(a)
        except ValueError as exc:
            raise ValueError(f"action {i}: {exc}") from None
    return state
