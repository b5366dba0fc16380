"""A State whose rules are one generator: plain sequential Python that yields a Decision
whenever someone must choose and receives the chosen index back.

Why: rules read top to bottom like the rulebook, yet the outside sees a step API. A generator
cannot be copied, so a clone is rebuilt: from the latest checkpoint, a copy of the state's data
taken where the rules hold nothing in local variables (the top of a turn), plus the few actions
taken since. Its cost does not grow with the length of the game. Rules that never call
`checkpoint` still clone correctly, by replaying the whole log.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, Generator, Sequence

from engine.core.api import CHANCE, Decision, GameResult, check_action
from engine.core.snapshot import copy_data

Rules = Generator[Decision, int, None]

_LIVE = ("actions", "_owners", "_gen", "_current", "_cp", "_keep_cp", "_redacted_for")
_MARK = object()  # `_keep_cp` value: note where checkpoints are, copy nothing


class MaskedLog:
    """The action log as a redacted state shows it to one seat: every chance outcome (a card
    drawn, a die rolled), every secret choice of another seat not yet revealed and every open
    choice of another seat reads as -1; its length and the seat's own choices read as played.

    Why: the log is the state's replay record, so replaying it would otherwise deal a bot the
    other players' hands. An open choice is hidden too because its number ranks the option among
    options built from what its player holds (the cards of a hand, say): what was chosen is
    public in the state, but option 2 of 4 would tell how that hand is made up. The view costs nothing to make (the positions to hide are worked out
    only when an entry is read); actions appended to it (a bot playing out a clone) go to the
    real log and are shown. Clones are rebuilt from the real log.
    """

    __slots__ = ("log", "_state", "_seat", "_hidden", "_known")

    def __init__(self, log: list[int], state: "SequentialState", seat: int) -> None:
        self.log = log
        self._state = state
        self._seat = seat
        self._hidden: set[int] = set()
        self._known = -1  # how many actions and reveals `_hidden` was worked out from

    def _masked(self) -> set[int]:
        owners, reveals = self._state._owners, self._state.reveals
        if self._known != len(owners) + len(reveals):
            shown = {p for _, positions in reveals for p in positions}
            seat = self._seat
            self._hidden = {p for p, (who, secret) in enumerate(owners) if who != seat and not (secret and p in shown)}
            self._known = len(owners) + len(reveals)
        return self._hidden

    def __len__(self) -> int:
        return len(self.log)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.log)))]
        value = self.log[i]
        return -1 if (i + len(self.log) if i < 0 else i) in self._masked() else value

    def __iter__(self) -> Any:
        hidden = self._masked()
        return iter([-1 if p in hidden else a for p, a in enumerate(self.log)])

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, MaskedLog)) else NotImplemented

    def append(self, action: int) -> None:
        self.log.append(action)


class SequentialState(ABC):
    """Base class: subclasses implement `_rules(resume)`, `_fresh()`, `result()` and
    `check_invariants()`; they call `checkpoint(resume)` at points where `_rules(resume)` can
    pick the game up again from the state's data alone.

    `SHARED` names attributes that never change during a game (the model, the options, caches
    of immutable values): clones share them instead of copying.
    """

    SHARED: frozenset[str] = frozenset({"model", "options", "situation"})

    def __init__(self) -> None:
        self.actions: list[int] = []
        self._owners: list[tuple[int, bool]] = []  # per log position: who chose it (CHANCE too), and whether in secret
        self.moves: Any = ()
        self.dkind = ""
        self.reveals: list[tuple[int, tuple[int, ...]]] = []
        self._cp: tuple[dict[str, Any], int, Any] | None = None
        self._keep_cp: Any = False
        self._redacted_for: int | None = None
        self._gen: Rules = self._rules()  # type: ignore[call-arg]  # rules that never checkpoint may take no argument
        self._current: Decision | None = next(self._gen, None)

    # --- the step API -------------------------------------------------------------------
    def decision(self) -> Decision | None:
        return self._current

    def apply(self, action: int) -> None:
        current = self._current
        check_action(current, action)
        # every action is someone's: a seat sees only its own (see MaskedLog); a secret choice
        # shows once revealed, and chance outcomes and other open choices never do
        self._owners.append((current.player, current.secret))  # type: ignore[union-attr]
        self.actions.append(action)
        try:
            self._current = self._gen.send(action)
        except StopIteration:
            self._current = None

    def is_over(self) -> bool:
        return self._current is None

    def ask(self, seat: int, kind: str, prompt: str, labels: Sequence[str] | Callable[[], Sequence[str]],
            moves: list, secret: bool = False) -> Decision:
        """A player's decision, with its structured twin for bots.

        `moves[i]` is what option `i` means as data (`("recruit", card)`), published as
        `self.moves`, and `kind` names the sort of decision (`self.dkind`), so a bot never parses
        option labels. Both are plain state: redacted, cloned and replayed like the rest.
        `labels` may be a function building them: they are then built only when read."""
        self.dkind = kind
        self.moves = moves
        if callable(labels):
            return Decision(seat, prompt, n=len(moves), labels=labels, secret=secret)
        return Decision(seat, prompt, labels, secret=secret)

    def clone(self) -> "SequentialState":
        """An independent copy with the same future. While the state is redacted for a seat
        (a bot is looking at it), the clone is redacted for that seat too, for good."""
        if not self._keep_cp:
            self._start_checkpoints()
        cp = self._cp
        log = self._log()
        if cp is None:  # the rules have not reached a checkpoint yet (or never call it)
            twin = self._fresh()
            for a in log:
                twin.apply(a)
        else:
            data, k, resume = cp
            twin = self._from_checkpoint(data, k, resume)
            for a in log[k:]:
                twin.apply(a)
        if self._redacted_for is not None:
            twin.redact(self._redacted_for)  # type: ignore[attr-defined]
        return twin

    def _log(self) -> list[int]:
        """The real action log, also while the state is shown to a seat (`mask_log`)."""
        log = self.actions
        return log.log if type(log) is MaskedLog else log

    def mask_log(self, seat: int) -> None:
        """Show `seat` the log through a `MaskedLog`: called by a game's `redact`."""
        if type(self.actions) is not MaskedLog:
            self.actions = MaskedLog(self.actions, self, seat)  # type: ignore[assignment]

    def unmask_log(self) -> None:
        """Put the real log back: called by a game's `restore`."""
        self.actions = self._log()

    def reveal(self, positions: tuple[int, ...] | list[int]) -> None:
        """Record that the secret choices at these positions of `actions` are now public."""
        self.reveals.append((len(self.actions), tuple(positions)))

    # --- checkpoints --------------------------------------------------------------------
    def checkpoint(self, resume: Any = None) -> None:
        """Called by the rules where `_rules(resume)` can continue from the data alone.

        Snapshots are kept only once someone clones this state, so plain smoke games pay
        nothing for them. `_keep_cp` is False (none), True (a snapshot at every checkpoint),
        `_MARK` (only note where the checkpoint is) or an action count (a snapshot only there)."""
        keep = self._keep_cp
        if keep is False:
            return
        if keep is _MARK:
            self._cp = (None, len(self.actions), resume)  # type: ignore[assignment]
        elif keep is True or keep == len(self.actions):
            memo: dict[int, Any] = {}
            shared = self.SHARED
            data = {k: (v if k in shared else copy_data(v, memo))
                    for k, v in self.__dict__.items() if k not in _LIVE}
            self._cp = (data, len(self.actions), resume)

    def _start_checkpoints(self) -> None:
        """Find this game's latest checkpoint: replay the log once noting where the checkpoints
        are, then replay up to the last one and take its snapshot (one copy, not one per turn)."""
        self._cp = None
        self._keep_cp = True
        marker = self._replayed(_MARK, len(self.actions))
        if marker._cp is None or marker._cp[1] == 0:  # none yet, or only at the start: replay all
            return
        k = marker._cp[1]
        self._cp = self._replayed(k, k)._cp

    def _replayed(self, keep: Any, upto: int) -> "SequentialState":
        twin = self._fresh()
        twin._keep_cp = keep
        for a in self._log()[:upto]:
            twin.apply(a)
        return twin

    def _from_checkpoint(self, data: dict[str, Any], k: int, resume: Any) -> "SequentialState":
        twin = object.__new__(type(self))
        memo: dict[int, Any] = {}
        shared = self.SHARED
        twin.__dict__.update({key: (v if key in shared else copy_data(v, memo)) for key, v in data.items()})
        twin.actions = self._log()[:k]
        twin._owners = self._owners[:k]
        twin._cp = None
        twin._keep_cp = False
        twin._redacted_for = None
        twin._gen = twin._rules(resume)
        twin._current = next(twin._gen, None)
        return twin

    # --- for subclasses -----------------------------------------------------------------
    @abstractmethod
    def _rules(self, resume: Any = None) -> Rules:
        """The game's rules as one generator of decisions; `resume` is None for a new game, or
        the value given to `checkpoint` when continuing a clone from there."""

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
