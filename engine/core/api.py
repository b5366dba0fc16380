"""The contract between a game's rules, the driver, bots and the toolkit.

Modelled on OpenSpiel: a state exposes one pending decision (a player's or chance's), a list of
labelled options, and `apply(index)`. Dice and shuffles are chance decisions resolved by the
driver's seeded RNG, so a game is fully described by its content and its action list.

A game is one declaration, `GameSpec` (OpenSpiel's GameType and GameInfo in one): its id, player
range, the content kinds its model reads, its effect vocabulary, which usage events are a seat's
own choice, and whether seats see everything (perfect information) or not. The toolkit checks a
game's manifest against it and nothing else repeats these facts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Mapping, Protocol, Sequence, runtime_checkable

CHANCE: int = -1
"""The `player` of a decision that chance (the driver's RNG or a scenario script) resolves."""


class Decision:
    """One choice to make. The action taken is an index into `options`; `n` is how many there are.

    `options` are the human-readable labels (logs, replays, scenarios, the `play` command). Bots
    read structured moves instead, so a game may give `labels`, a function that builds the labels,
    with `n`: they are then built only when someone reads `options` (most decisions of a smoke run
    never need them), and kept once built.

    `secret`: the choice is made face down (a secret order, a hidden deployment): the other seats
    do not learn which option was taken until the game reveals it (see `State.reveals`).
    """

    __slots__ = ("player", "prompt", "n", "weights", "secret", "_options", "_labels")

    def __init__(self, player: int, prompt: str, options: Sequence[str] | None = None,
                 weights: tuple[float, ...] | None = None, secret: bool = False, *,
                 n: int | None = None, labels: Callable[[], Sequence[str]] | None = None) -> None:
        self.player = player
        self.prompt = prompt
        self.weights = weights
        self.secret = secret
        if options is not None:
            self._options: tuple[str, ...] | None = tuple(options)
            self._labels = None
            self.n = len(self._options)
        elif labels is not None and n is not None:
            self._options = None
            self._labels = labels
            self.n = n
        else:
            raise TypeError("a Decision needs its options, or a labels function and n")

    @property
    def options(self) -> tuple[str, ...]:
        opts = self._options
        if opts is None:
            opts = self._options = tuple(self._labels())  # type: ignore[misc]
            self._labels = None
            if len(opts) != self.n:
                raise ValueError(f"'{self.prompt}': {len(opts)} labels for {self.n} options")
        return opts

    def _key(self) -> tuple[Any, ...]:
        return (self.player, self.prompt, self.options, self.weights, self.secret)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Decision(player={self.player!r}, prompt={self.prompt!r}, options={self.options!r}, "
                f"weights={self.weights!r}, secret={self.secret!r})")


def check_action(decision: Decision | None, action: object) -> None:
    """Raise ValueError unless `action` is a legal index for `decision` (None: the game is over).
    Every state's `apply` starts with it, so a bad log or bot reads the same in every game."""
    if decision is None:
        raise ValueError("the game is over: no decision to apply an action to")
    if action.__class__ is not int or not 0 <= action < decision.n:  # type: ignore[operator]
        raise ValueError(f"illegal action {action!r} for '{decision.prompt}' ({decision.n} options)")


@dataclass
class GameResult:
    """How a finished game ended; what the smoke runner aggregates.

    `usage[component id][event]` counts, per seat, how often a component was involved in an event
    ("recruited", "defeated", ...). The events listed in the game's `choice_events` are a seat's
    own choices; the report computes pick rates and win-rate lift for those.
    """

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


def check_all_invariants(state: State) -> list[str]:
    """Every invariant, whatever the rules noted as changed.

    A game may check after a step only what its rules marked as changed (`check_invariants`);
    such a game also offers `check_all_invariants()`, which tests everything, so that checked
    play still catches a rule that changed something without marking it. Other games check
    everything every time already."""
    full = getattr(state, "check_all_invariants", None)
    return full() if full is not None else state.check_invariants()


@dataclass(frozen=True)
class ContentProblem:
    """A game's own content rule broken (see `GameSpec.check_content`): the component kind, the
    item's position within that kind, the key path inside the item, and what is wrong."""

    kind: str
    index: int
    path: tuple[Any, ...]
    message: str
    hint: str = ""


@runtime_checkable
class HiddenState(Protocol):
    """What a state of an imperfect-information game adds (`GameSpec.information == "imperfect"`).

    - `observation(seat)`: everything `seat` may see and nothing else, as JSON-able data.
    - `redact(seat)`: hide, in place, what `seat` cannot see, putting canonical stand-ins in its
      place that depend only on what `seat` can see, so two states that differ only in hidden
      things become identical; returns a token for `restore`. The driver wraps every bot call in
      redact/restore: bots only ever read a redacted state.
    - `restore(token)`: undo `redact` exactly.
    - `resample(seat, rng)`: redraw, in place, everything `seat` cannot see at random, consistent
      with its observation (search bots call it on clones to sample what they cannot see).
    """

    def observation(self, seat: int) -> dict[str, Any]: ...
    def redact(self, seat: int) -> Any: ...
    def restore(self, token: Any) -> None: ...
    def resample(self, seat: int, rng: random.Random) -> None: ...


class Bot(Protocol):
    """Picks an option index for a decision of its seat.

    A bot class may set `reads_state = False` when it never looks at the state (the random bot):
    the driver then skips redacting hidden information for it. It may set `reads_hidden = False`
    when it reads the state but never what its seat cannot see, so that it chooses the same on
    the full state as on the redacted one: the driver skips the redaction then too, and the game
    proves the claim with a test that plays many games both ways.
    """

    def choose(self, state: State, decision: Decision) -> int: ...


BotFactory = Callable[[int, random.Random], Bot]


@dataclass(frozen=True)
class GameSpec:
    """A game's single declaration and registration.

    - `kinds`: the content kinds (manifest `components` keys) the model reads, each mapped to
      whether it is required. `build_model` receives only these; `hordekit validate` reports a
      required kind the manifest lacks, and a manifest kind the game does not know.
    - `effect_kinds`: the effect vocabulary, i.e. the keys of the game's handler registry;
      `text_kinds` the effect kinds that need a printed text template (default: all of them).
    - `choice_events`: the `GameResult.usage` events that are a seat's own choice.
    - `unchoosable(model)`: optional, the content ids the rules can never offer a seat as a choice
      whatever happens (a tile nothing may ever be built on, in a kind that is otherwise chosen by
      being built on). Smoke reports list them apart, out of coverage and of the dead, dominant
      and "never <choice>" lists, where they would read as content the players shun.
    - `impossible(model)`: optional, per usage event, the content ids the rules can never give
      that event, with the reason in a few words: `{event: (ids, why)}` (Hordes & Heroes: no
      capture effect reaches a monster stronger than the largest strength any capture names, so
      those monsters are never captured). Smoke reports leave them out of that event's "never"
      list and say how many were left out and why.
    - `unchosen_kinds`: content kinds a seat never chooses to bring into play (the game spawns
      them), even when one of their events is a choice event for other kinds (Kingdoms' horde
      counters report "used" when a seat fights one). Smoke reports leave them out of coverage.
    - `solo_scored`: the rules name no win or loss for one player (Kingdoms: the score is all a solo
      game gives), so smoke reports give solo games' scores instead of a win rate.
    - `information`: "perfect", or "imperfect" when some seats cannot see everything (the state
      then implements `HiddenState`); `simultaneous`: the game has secret simultaneous choices.
    - `evaluate(state)`: optional per-seat value in [0, 1] of an unfinished state, used by the
      search bot to score truncated rollouts.
    - `check_content(content)`: optional game rules on content that JSON Schema cannot express
      (an army's points, a card per unit); returns problems with `kind`, `index` (the item's
      position within its kind), `path` (keys inside the item), `message` and `hint`, which
      `hordekit validate` reports at file:line:col (HK309).
    - `playout_bot`: optional name of one of the game's bots that plays the search bot's
      playouts instead of random moves (stronger playouts, slower ones).
    - `bots`: the game's own bots; "random" and "search" exist for every game (engine.core).
    - `scenario_state(model, players, setup)` and `probe(state)`: optional hooks for executable
      scenarios.
    """

    id: str
    min_players: int
    max_players: int
    build_model: Callable[[dict[str, list[dict]]], Any]
    new_state: Callable[[Any, int, dict], State]
    bots: Mapping[str, BotFactory]
    effect_kinds: frozenset[str]
    text_kinds: frozenset[str] | None = None
    kinds: Mapping[str, bool] = field(default_factory=dict)
    choice_events: frozenset[str] = frozenset()
    unchoosable: Callable[[Any], Iterable[str]] | None = None
    impossible: Callable[[Any], Mapping[str, tuple[Iterable[str], str]]] | None = None
    unchosen_kinds: frozenset[str] = frozenset()
    solo_scored: bool = False
    information: Literal["perfect", "imperfect"] = "perfect"
    simultaneous: bool = False
    evaluate: Callable[[State], list[float]] | None = None
    playout_bot: str | None = None
    check_content: Callable[[dict[str, list[dict]]], list[Any]] | None = None
    scenario_state: Callable[[Any, int, dict], State] | None = None
    probe: Callable[[State], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        # Checked once here for every game, so rules need no guards of their own: the player
        # count before a state is built, the declared kinds before a model is built; and the
        # bots every game has.
        from engine.core.bots import core_bots

        raw_state, raw_model = self.new_state, self.build_model

        def new_state(model: Any, players: int, options: dict) -> State:
            self.check_players(players)
            return raw_state(model, players, options)

        def build_model(content: dict[str, list[dict]]) -> Any:
            return raw_model(self.model_content(content))

        new_state.__wrapped__ = raw_state  # type: ignore[attr-defined]
        build_model.__wrapped__ = raw_model  # type: ignore[attr-defined]
        object.__setattr__(self, "new_state", new_state)
        object.__setattr__(self, "build_model", build_model)
        object.__setattr__(self, "bots", {**self.bots, **core_bots(self)})

    @property
    def printed_kinds(self) -> frozenset[str]:
        """Effect kinds that need a text template."""
        return self.effect_kinds if self.text_kinds is None else self.text_kinds

    def check_players(self, players: int) -> None:
        """Raise ValueError when the game is not for `players` players."""
        if players.__class__ is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id} is for {self.min_players} to {self.max_players} players "
                             f"(got {players!r})")

    def model_content(self, content: Mapping[str, list[dict]]) -> dict[str, list[dict]]:
        """The part of validated content the model reads: its declared kinds, absent ones empty.

        A required kind that is missing raises KeyError naming it, so a renamed kind is an error
        instead of a game played with an empty list. A game that declares no kinds gets it all.
        """
        if not self.kinds:
            return dict(content)
        missing = [k for k, required in self.kinds.items() if required and k not in content]
        if missing:
            raise KeyError(f"{self.id} needs content kind(s) {', '.join(sorted(missing))}")
        return {k: list(content.get(k, [])) for k in self.kinds}
