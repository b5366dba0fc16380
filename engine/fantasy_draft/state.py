"""The rules of Fantasy Draft as an explicit state machine over plain data.

Why not a generator (engine.core.sequential): the search bot clones states thousands of times,
and a generator can only be cloned by replaying the whole log. Here the state is lists of ints,
so `clone()` copies about a hundred short lists whatever the length of the game.

A token on the board is a short list (see the T_* indexes): who owns it, which unit it is,
whether it is face up (0, or 1 + the log length when it turned face up, so a label read late
still says what was known when it was offered; 1 for a token set up face up), how often it acted
this turn, its strength bonus for this turn, whether it is frozen, extra activations, the most
activations it was seen using in one turn (0: it never acted), the log position of the secret
choice that placed it, and the units it is known in the open not to be (a bit per unit index: a
token once seen on water flies; an ability its owner aimed at it says which units it may be; a
turn that ends with actions left says that no unit able to move or attack stands under a token
that could have; a face-down Necromancer's power tokens say near which falls it stands).

Hidden information is exactly the unit of the other seat's face-down tokens (and, during
deployment, where the other seat put them). The last fields record what both seats saw, so the
search bot's guesses about a face-down token keep within it (`hidden.resample`).
"""
from __future__ import annotations

import random
from bisect import insort
from typing import Any, Callable, Sequence

from engine.core.api import CHANCE, Decision, GameResult, check_action
from engine.fantasy_draft.effects import HANDLERS, NEAR_ONLY, Ctx, always
from engine.fantasy_draft.model import Ability, Model, UnitType

T_OWN, T_UNIT, T_REV, T_USED, T_BONUS, T_FROZEN, T_EXTRA, T_MOVED, T_STEP, T_NOT = range(10)
D10 = tuple(str(i) for i in range(10))
Labels = Callable[[], list[str]]
"""Builds a decision's option labels; called only when someone reads them (bots read moves)."""

_TAKE: dict[int, str] = {}
"""The prompt of a play decision per count of actions left (built once: one per decision is a
string format a step need not pay)."""

_ROLLS: dict[str, Decision] = {}
"""The d10 decision of each ability name: the same every time, so built once."""


def roll_decision(name: str) -> Decision:
    """Chance's d10 roll for the ability called `name` (shared: a Decision is never changed)."""
    d = _ROLLS.get(name)
    if d is None:
        d = _ROLLS[name] = Decision(CHANCE, f"Roll d10 for {name}", D10)
    return d


_CHECKS: dict[int, tuple[Ability, tuple, bool]] = {}


def _checks(ab: Ability) -> tuple:
    """The (allowed, effect) pairs a special action's targets must pass (none for effects that
    fit any target); the same for every use of the ability, so worked out once."""
    return _ability_facts(ab)[1]


def _keeps(ab: Ability) -> bool:
    """Whether a special action's targets may be kept between steps (see `_token_specials`)."""
    return _ability_facts(ab)[2]


def _ability_facts(ab: Ability) -> tuple[Ability, tuple, bool]:
    known = _CHECKS.get(id(ab))
    if known is None or known[0] is not ab:
        known = _CHECKS[id(ab)] = (ab, tuple((HANDLERS[e.kind][1], e) for e in ab.effects
                                             if HANDLERS[e.kind][1] is not always),
                                   all(HANDLERS[e.kind][1] in NEAR_ONLY for e in ab.effects))
    return known


def _touched(board: list[list[int] | None]) -> list[list[int]]:
    """The tokens on `board` with a count for the turn that is not 0 (see `FDState._touched`)."""
    return [t for t in board if t is not None and (t[T_USED] or t[T_BONUS] or t[T_FROZEN] or t[T_EXTRA])]


class FDState:
    """A game of Fantasy Draft from the draft to the end (or from a scenario's situation)."""

    def __init__(self, model: Model, options: dict | None = None) -> None:
        m = model
        r = m.rules
        self.model = m
        self.options = dict(options or {})
        self.turn_cap = int(self.options.get("turn_cap", r.turn_cap))
        self.actions: list[int] = []
        self.reveals: list[tuple[int, tuple[int, ...]]] = []
        self.plays: tuple | None = None
        """The log positions of play choices, newest first, as a chain of (position, seat, rest)
        that a clone shares (it only grows). Which option a choice was depends on the units under
        the chooser's face-down tokens (a hero's special actions come before the moves of the
        tokens after it), so a redaction blanks the other seat's (see `hidden.redact`)."""
        self.phase = "draft"
        self.current = r.first_drafter
        self.turn = 0
        self.actions_left = 0
        self.mana = [r.mana, r.mana]
        self.pool: list[int] = list(m.heroes)
        self.drafted: list[list[int]] = [[], []]
        self.draft_done = [False, False]
        self.left_out: list[list[int]] = [[], []]
        self.army: list[list[int]] = [[], []]
        self.to_place: list[list[int]] = [[], []]
        self.board: list[list[int] | None] = [None] * len(m.board.labels)
        self.removed: list[list[int]] = [[], []]
        self.power = [0] * len(m.units)
        self.supply = r.power_tokens
        self.power_total = r.power_tokens
        self.once_used: list[tuple[int, int]] = []
        self.pending: list[tuple] = []
        self.winners: list[int] = []
        self.end_reason = ""
        self.last_roll = -1
        self.usage: dict[str, list[list[int]]] = {
            e: [[0, 0] for _ in m.units] for e in ("drafted", "left-out", "lost", "ability")}
        self.stats = {"units_removed": 0, "attacks": 0, "abilities": 0, "moves": 0}
        self._decision: Decision | None = None
        self.moves: list[tuple] = []
        self.dkind = ""
        self._turn_moves: tuple[list[tuple], list[tuple]] | None = None  # found by _start_turn, used by the next _play_step
        self._steps: dict[int, tuple[int, tuple]] = {}  # hex -> (unit, its moves and attacks): see `play_moves`
        self._specials: dict[int, tuple] = {}  # hex -> (unit, its special actions): see `play_moves`
        self.shown = [0, 0]
        """Per seat, bumped whenever what both seats know of its army changes (a token placed,
        turned face up or removed, a power token moved, a strength bonus given), so a bot may
        keep what it derived from the other seat's army until it changes."""
        self.groups: list[tuple] = []
        """The play moves of the decision in runs that share the acting token: its moves and
        attacks, then the targets of each of its special actions. A run kept from an earlier
        decision (see `play_moves`) is the same tuple object, so a bot may keep what it derived
        from it too."""
        self.watch: tuple | None = None
        """While the work queued by a removal is being resolved: what the other seat may learn
        from the power tokens a face-down hero gains then (see `_watch_removal`): a tuple (the
        heroes' power before, as (unit, power) pairs; the removals, as (unit, seat, hexes of its
        seat's face-down tokens in range); the lowest the power supply went). Never changed in
        place, so clones may share it."""
        self.hexes: list[list[int]] = [[], []]
        """Per seat, the hexes of its tokens on the board in hex order (kept with the board, so
        the rules and bots visit a seat's few tokens instead of every hex)."""
        self._touched: list[list[int]] = []
        """The tokens whose counts for the turn (T_USED, T_BONUS, T_FROZEN, T_EXTRA) may not be
        0, so the turn's end clears those few instead of every token (a token may be listed twice)."""

    # ------------------------------------------------------------------ the step API
    def decision(self) -> Decision | None:
        return self._decision

    def is_over(self) -> bool:
        return self.phase == "over"

    def apply(self, action: int) -> None:
        d = self._decision
        check_action(d, action)
        self.actions.append(action)
        if d.player == CHANCE:
            task = self.pending.pop(0)
            self.last_roll = action
            self._execute(task, action)
        else:
            self._player_move(self.moves[action])
        self._advance()

    def clone(self) -> "FDState":
        twin = FDState.__new__(FDState)
        d = self.__dict__
        twin.__dict__.update(d)
        twin.actions = list(self.actions)
        twin.reveals = list(self.reveals)
        twin.mana = list(self.mana)
        twin.shown = list(self.shown)
        twin.pool = list(self.pool)
        twin.drafted = [list(x) for x in self.drafted]
        twin.draft_done = list(self.draft_done)
        twin.left_out = [list(x) for x in self.left_out]
        twin.army = [list(x) for x in self.army]
        twin.to_place = [list(x) for x in self.to_place]
        twin.board = [t[:] if t is not None else None for t in self.board]
        twin._touched = _touched(twin.board)
        twin.hexes = [list(self.hexes[0]), list(self.hexes[1])]
        twin.removed = [list(x) for x in self.removed]
        twin.power = list(self.power)
        twin.once_used = list(self.once_used)
        twin.pending = list(self.pending)
        twin.winners = list(self.winners)
        twin.usage = {e: [c[:] for c in v] for e, v in self.usage.items()}
        twin.stats = dict(self.stats)
        twin.moves = list(self.moves)
        twin.groups = list(self.groups)
        twin._steps = dict(self._steps)
        twin._specials = dict(self._specials)
        return twin

    def result(self) -> GameResult:
        units = self.model.units
        usage: dict[str, dict[str, list[int]]] = {}  # component id -> event -> per seat
        for event, rows in self.usage.items():
            for i, c in enumerate(rows):
                if c[0] or c[1]:
                    usage.setdefault(units[i].id, {})[event] = list(c)
        scores = [len(self.hexes[0]), len(self.hexes[1])]
        return GameResult(scores=scores, winners=list(self.winners), end_reason=self.end_reason or "unfinished",
                          turns=self.turn, usage=usage, stats={k: float(v) for k, v in self.stats.items()})

    def check_invariants(self) -> list[str]:
        from engine.fantasy_draft.invariants import check
        return check(self)

    def fingerprint(self) -> Any:
        return (self.phase, self.current, self.turn, self.actions_left, tuple(self.mana), tuple(self.pool),
                tuple(map(tuple, self.drafted)), tuple(map(tuple, self.army)), tuple(map(tuple, self.removed)),
                tuple(tuple(t) if t else None for t in self.board), tuple(self.power), self.supply,
                tuple(self.pending), tuple(self.winners), self.end_reason)

    # ------------------------------------------------------------------ queries used by effects and bots
    def unit_at(self, h: int) -> int:
        t = self.board[h]
        return t[T_UNIT] if t is not None else -1

    def is_revealed(self, h: int) -> bool:
        t = self.board[h]
        return t is not None and bool(t[T_REV])

    def base_strength(self, unit: int) -> int:
        return self.model.units[unit].strength + self.power[unit]

    def strength(self, h: int) -> int:
        t = self.board[h]
        assert t is not None
        s = self.model.units[t[T_UNIT]].strength + self.power[t[T_UNIT]] + t[T_BONUS]
        return s if s > 0 else 0

    def can_stand(self, unit: int, h: int) -> bool:
        return unit >= 0 and (not self.model.board.flyers_only[h] or self.model.units[unit].flying)

    def power_room(self, unit: int) -> int:
        cap = self.model.rules.power_cap
        return max(0, min(self.supply, cap - self.base_strength(unit)))

    def activations_left(self, h: int) -> int:
        t = self.board[h]
        assert t is not None
        return self.model.units[t[T_UNIT]].actions + t[T_EXTRA] - t[T_USED]

    # ------------------------------------------------------------------ changes used by effects
    def add_bonus(self, h: int, amount: int) -> None:
        t = self.board[h]
        if t is not None:
            t[T_BONUS] += amount
            self._touched.append(t)
            self.shown[t[T_OWN]] += 1

    def add_power(self, unit: int, amount: int) -> None:
        n = min(amount, self.power_room(unit))
        self.power[unit] += n
        self.supply -= n
        if self.watch is not None and self.supply < self.watch[2]:
            self.watch = (self.watch[0], self.watch[1], self.supply)
        self.shown[0] += 1  # a hero's owner is not at hand; power moves seldom
        self.shown[1] += 1

    def add_activations(self, h: int, amount: int) -> None:
        t = self.board[h]
        if t is not None:
            t[T_EXTRA] += amount
            self._touched.append(t)

    def freeze(self, h: int) -> None:
        t = self.board[h]
        if t is not None:
            t[T_FROZEN] = 1
            self._touched.append(t)

    def reveal(self, h: int) -> None:
        """Turn a token face up for good; its secret placement becomes visible in the log."""
        t = self.board[h]
        if t is not None and not t[T_REV]:
            t[T_REV] = len(self.actions) + 1  # truthy, and says when (see `play_labels`)
            self.shown[t[T_OWN]] += 1
            if self._specials:
                self._aimed_at(h)
            if t[T_STEP] >= 0:
                self.reveals.append((len(self.actions), (t[T_STEP],)))

    def swap(self, a: int, b: int) -> None:
        board = self.board
        ta, tb = board[a], board[b]
        board[a], board[b] = tb, ta
        wet = self.model.board.flyers_only
        if ta is not None:
            self._left(ta[T_OWN], a, b)
            if wet[b]:
                ta[T_NOT] |= self.model.walkers
        if tb is not None:
            self._left(tb[T_OWN], b, a)
            if wet[a]:
                tb[T_NOT] |= self.model.walkers
        owners = {t[T_OWN] for t in (ta, tb) if t is not None}
        owner = owners.pop() if len(owners) == 1 else -1  # tokens of both seats changed places
        self._moved(a, owner)
        self._moved(b, owner)

    def relocate(self, a: int, b: int) -> None:
        t = self.board[a]
        self.board[b], self.board[a] = t, None
        owner = -1
        if t is not None:
            owner = t[T_OWN]
            self._left(owner, a, b)
            if self.model.board.flyers_only[b]:  # seen on water: it flies, wherever it goes next
                t[T_NOT] |= self.model.walkers
        self._moved(a, owner)
        self._moved(b, owner)

    def _left(self, seat: int, a: int, b: int) -> None:
        """`seat`'s token went from hex a to hex b (-1: off the board) in `hexes`."""
        where = self.hexes[seat]
        where.remove(a)
        if b >= 0:
            insort(where, b)

    def _moved(self, h: int, owner: int = -1) -> None:
        """A token of seat `owner` (-1: either) arrived at or left hex h: the tokens whose
        options can involve h list them again when next asked (see `play_moves`); for special
        actions, those that can aim at a token of that seat there (`Model.aim_by`)."""
        steps = self._steps
        if steps:
            m = self.model
            pop = steps.pop
            for x in m.reach[h]:
                pop(x, None)
            ranged = m.ranged
            for x in m.shot_from[h]:
                known = steps.get(x)
                if known is not None and ranged[known[0]]:
                    del steps[x]
        specials = self._specials
        if specials:
            m = self.model
            near = m.board.dist[h]
            aim = m.aim
            if owner < 0:
                gone = [x for x, (unit, _) in specials.items() if near[x] <= aim[unit]]
            else:
                board = self.board
                by = m.aim_by
                gone = [x for x, (unit, _) in specials.items() if near[x] <= aim[unit] and (
                        (t := board[x]) is None or near[x] <= by[unit][t[T_OWN] != owner])]
            for x in gone:
                del specials[x]

    def _aimed_at(self, h: int) -> None:
        """Hex h changed: the special actions that can aim at it are listed again."""
        specials = self._specials
        near = self.model.board.dist[h]
        aim = self.model.aim
        for x in [x for x, (unit, _) in specials.items() if near[x] <= aim[unit]]:
            del specials[x]

    def take_off(self, seat: int) -> list[tuple[int, list[int]]]:
        """Lift `seat`'s tokens off the board (a redaction during deployment); returns them with
        their hexes for `put_back`."""
        board = self.board
        placed = [(h, board[h]) for h in self.hexes[seat]]
        for h, _ in placed:
            board[h] = None
            self._moved(h, seat)
        self.hexes[seat] = []
        return placed  # type: ignore[return-value]

    def put_back(self, placed: list[tuple[int, list[int]]]) -> None:
        """Undo `take_off`."""
        board = self.board
        for h, t in placed:
            board[h] = t
            self.hexes[t[T_OWN]].append(h)
            self._moved(h, t[T_OWN])
        for where in self.hexes:
            where.sort()

    def board_changed(self) -> None:
        """Tokens were put on or taken off the board from outside the rules (a scenario, a
        redaction, a test): the seats' token hexes are read again and every token lists its
        moves again."""
        self._steps = {}
        self._specials = {}
        self.shown = [self.shown[0] + 1, self.shown[1] + 1]
        self.hexes = [[], []]
        for h, t in enumerate(self.board):
            if t is not None:
                self.hexes[t[T_OWN]].append(h)
        self._touched = _touched(self.board)

    def units_changed(self) -> None:
        """The units under some tokens were changed in place (a redaction, its undoing, a
        resample): the kept targets of special actions, which may read them, are listed again.
        (Moves and attacks read only where tokens stand and whose they are.)"""
        self._specials = {}

    def remove(self, h: int) -> None:
        """A unit leaves the game: its power tokens return, triggers fire, a lost flag ends the game."""
        t = self.board[h]
        if t is None:
            return
        self.reveal(h)
        self.board[h] = None
        self.shown[t[T_OWN]] += 1
        self._left(t[T_OWN], h, -1)
        self._moved(h, t[T_OWN])
        owner, unit = t[T_OWN], t[T_UNIT]
        self.removed[owner].append(unit)
        self.usage["lost"][unit][owner] += 1
        self.stats["units_removed"] += 1
        self.supply += self.power[unit]
        self.power[unit] = 0
        if unit == self.model.flag:
            self._end([1 - owner], "flag-captured")
            return
        self._queue_removal_triggers(h, owner, unit)

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run everything that needs nobody's choice, then publish the next decision."""
        while True:
            if self.phase == "over":
                self._decision, self.moves = None, []
                return
            if self.pending:
                if self._drain():
                    return
                continue
            if self.watch is not None:
                self._watched()
            phase = self.phase
            if (self._play_step() if phase == "play" else self._deploy_step() if phase == "deploy"
                    else self._draft_step() if phase == "draft" else self._prepare_step()):
                return

    def _publish(self, player: int, kind: str, prompt: str, moves: list[tuple], labels: Labels,
                 secret: bool = False) -> bool:
        """Offer `moves` to `player`; `labels` builds their text only if someone reads it."""
        self.dkind = kind
        self.moves = moves
        self._decision = Decision(player, prompt, n=len(moves), labels=labels, secret=secret)
        return True

    # --- draft ---------------------------------------------------------------------------
    def affordable(self, seat: int) -> list[int]:
        if len(self.drafted[seat]) >= self.model.rules.army_size - 1:
            return []
        units = self.model.units
        return [u for u in self.pool if units[u].cost <= self.mana[seat]]

    def _draft_step(self) -> bool:
        for _ in range(2):
            s = self.current
            if not self.draft_done[s] and not self.affordable(s):
                self.draft_done[s] = True
            if not self.draft_done[s]:
                units = self.model.units
                picks = self.affordable(s)
                moves = [("recruit", u) for u in picks] + [("stop",)]
                return self._publish(s, "draft", f"Draft a hero ({self.mana[s]} mana left)", moves,
                                     lambda: [f"Recruit {units[u].name} ({units[u].cost} mana)" for u in picks]
                                     + ["Stop drafting"])
            self.current = 1 - s
        self.phase = "prepare"
        self.current = 0
        return False

    # --- unit preparation ----------------------------------------------------------------
    def to_leave_out(self, seat: int) -> int:
        basics = sum(self.model.units[u].count for u in self.model.basics)
        return max(0, len(self.drafted[seat]) + basics - self.model.rules.army_size) - len(self.left_out[seat])

    def _prepare_step(self) -> bool:
        m = self.model
        for s in (0, 1):
            need = self.to_leave_out(s)
            if need > 0:
                self.current = s
                left = [u for u in m.basics if not m.units[u].flag
                        and m.units[u].count - self.left_out[s].count(u) > 0]
                return self._publish(s, "leave-out", f"Leave out a basic unit ({need} to go)",
                                     [("leave", u) for u in left], lambda: [f"Leave out a {m.units[u].name}" for u in left])
        for s in (0, 1):
            basics = []
            for u in m.basics:
                basics += [u] * (m.units[u].count - self.left_out[s].count(u))
            basics.sort(key=lambda u: not m.units[u].flag)  # the flag is placed first
            self.army[s] = basics[:1] + list(self.drafted[s]) + basics[1:]
            self.to_place[s] = list(self.army[s])
        self.phase = "deploy"
        self.current = 0
        return False

    # --- deployment ------------------------------------------------------------------------
    def _deploy_step(self) -> bool:
        for s in (0, 1):
            if self.to_place[s]:
                self.current = s
                unit = self.model.units[self.to_place[s][0]]
                board = self.model.board
                tokens, flyers_only, flying = self.board, board.flyers_only, unit.flying
                free = [h for h in board.zone_hexes[s] if tokens[h] is None and (flying or not flyers_only[h])]  # can_stand
                return self._publish(s, "deploy", f"Deploy your army in secret: place the {unit.name}",
                                     [("place", h) for h in free], lambda: [f"Place {unit.name} on {board.labels[h]}" for h in free],
                                     secret=True)
        self.phase = "play"
        self._start_turn(self.model.rules.first_player)
        return False

    # --- play -----------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.actions_left = self.model.rules.actions
        self.once_used = []
        listed = self._play_options(seat)
        if not listed[0]:
            self._end([1 - seat], "no-actions")
            return
        self._turn_moves = listed  # nothing changes before _play_step asks for them again

    def _end_turn(self) -> None:
        seat = self.current
        frozen = []  # the other seat's frozen tokens stay frozen through its next turn
        for t in self._touched:
            t[T_USED] = t[T_BONUS] = t[T_EXTRA] = 0
            if t[T_FROZEN]:
                if t[T_OWN] == seat:
                    t[T_FROZEN] = 0
                else:
                    frozen.append(t)
        self._touched = frozen
        self.turn += 1
        if self.turn >= self.turn_cap:
            self._end([], "stalemate")
            return
        self._start_turn(1 - seat)

    def _play_step(self) -> bool:
        if self._check_armies():
            return False
        listed, self._turn_moves = self._turn_moves, None
        if self.actions_left > 0:
            if listed is None:
                listed = self._play_options(self.current)
            moves, self.groups = listed
            if moves:
                board = self.board[:]  # the labels name the units standing here now
                at = len(self.actions) + 1  # tokens turned face up later have a larger T_REV
                left = self.actions_left
                prompt = _TAKE.get(left) or _TAKE.setdefault(left, f"Take an action ({left} left)")
                return self._publish(self.current, "play", prompt, moves,
                                     lambda: play_labels(self.model, board, moves, at))
            self._stuck(self.current)
        self._end_turn()
        return False

    def _stuck(self, seat: int) -> None:
        """`seat`'s turn ends with actions left: none of its tokens had anything to do, which the
        other seat sees. A face-down token that is not frozen rules out, in the open, every unit
        that would still have had an activation and a move or an attack from where it stands (its
        special actions are left out: whether they had a target may hang on other face-down units)."""
        m = self.model
        units, acts = m.units, m.acts
        board = self.board
        for h in self.hexes[seat]:
            t = board[h]
            if t[T_REV] or t[T_FROZEN]:  # type: ignore[index]
                continue
            out = t[T_NOT]  # type: ignore[index]
            for u in range(len(units)):
                if (not out >> u & 1 and acts[u] + t[T_EXTRA] - t[T_USED] > 0  # type: ignore[index]
                        and self._token_steps(seat, h, units[u])):
                    out |= 1 << u
            t[T_NOT] = out  # type: ignore[index]

    def _check_armies(self) -> bool:
        """A player without units (the flag is no unit) has lost; the game ends at once."""
        flag = self.model.flag
        board = self.board
        # a seat has units when it has two tokens (one is the flag at most) or one that is not the flag
        h0, h1 = self.hexes
        if ((len(h0) > 1 or h0 and board[h0[0]][T_UNIT] != flag)  # type: ignore[index]
                and (len(h1) > 1 or h1 and board[h1[0]][T_UNIT] != flag)):  # type: ignore[index]
            return False
        alive = [len(where) > 1 or bool(where) and board[where[0]][T_UNIT] != flag for where in self.hexes]  # type: ignore[index]
        self._end([s for s in (0, 1) if alive[s]], "no-units")
        return True

    def _end(self, winners: list[int], reason: str) -> None:
        if self.phase == "over":
            return
        self.phase = "over"
        self.winners = winners
        self.end_reason = reason
        self.pending = []
        hidden = tuple(sorted(t[T_STEP] for t in self.board if t is not None and not t[T_REV] and t[T_STEP] >= 0))
        if hidden:
            self.reveals.append((len(self.actions), hidden))

    # ------------------------------------------------------------------ legal moves of a turn
    def play_moves(self, seat: int) -> list[tuple]:
        """Every legal action of `seat` now, as structured moves (their text: `play_labels`)."""
        return self._play_options(seat)[0]

    def _play_options(self, seat: int) -> tuple[list[tuple], list[tuple]]:
        """`play_moves`, and the same moves in runs that share the acting token (`groups`).

        What a token may do depends on its unit and on the tokens within reach of it,
        and on the turn only through actions left, abilities used once and power tokens. So each
        token's moves and attacks (`_steps`), and the targets of its special actions that read
        only the tokens near it (`_token_specials`, `_specials`), are kept per hex and listed
        again only after a token within reach arrives or leaves (`_moved`) or, for special
        actions, turns face up (`_aimed_at`) or has its unit changed in place
        (`units_changed`); the rest is listed afresh."""
        m = self.model
        acts = m.acts
        acting = m.acting
        board = self.board
        steps = self._steps
        specials = self._specials
        left = self.actions_left
        moves: list[tuple] = []
        groups: list[tuple] = []
        for h in self.hexes[seat]:
            t = board[h]
            if t[T_FROZEN]:  # type: ignore[index]
                continue
            unit = t[T_UNIT]
            if acts[unit] + t[T_EXTRA] - t[T_USED] <= 0:
                continue
            known = steps.get(h)
            if known is None or known[0] != unit:
                known = steps[h] = (unit, self._token_steps(seat, h, m.units[unit]))
            run = known[1]
            if run:
                moves += run
                groups.append(run)
            if acting[unit]:
                aims = specials.get(h)
                if aims is None or aims[0] != unit:
                    aims = specials[h] = (unit, self._token_specials(seat, h, unit))
                for ab, aimed in aims[1]:
                    if ab.cost > left or ab.once_per_turn and (unit, ab.idx) in self.once_used:
                        continue
                    run = aimed if aimed is not None else self._special_moves(seat, h, unit, ab)
                    if run:
                        moves += run
                        groups.append(run)
        return moves, groups

    def _token_specials(self, seat: int, h: int, unit: int) -> tuple[tuple[Ability, tuple | None], ...]:
        """Each special action of the unit with its moves from hex h when they can be kept, else
        None (listed afresh every time). They can be kept when they read nothing but the acting
        unit and the tokens within its range: checks in `NEAR_ONLY` (the types an ability asks
        for are read from those tokens too). A redaction or a resample changes the units under
        face-down tokens in place, so they drop what was kept (`units_changed`)."""
        return tuple([(ab, self._special_moves(seat, h, unit, ab) if _keeps(ab) else None)
                      for ab in self.model.acting[unit]])

    def _special_moves(self, seat: int, h: int, unit: int, ab: Ability) -> tuple:
        if ab.target == "self":  # the one target, the hero's own hex, if the checks let it be
            ctx = Ctx(seat, h, unit, h)
            for allowed, e in _checks(ab):
                if not allowed(self, ctx, e):
                    return ()
            return (("ability", h, ab.idx, h),)
        return tuple([("ability", h, ab.idx, tg) for tg in self.ability_targets(seat, h, unit, ab)])

    def _token_steps(self, seat: int, h: int, u: UnitType) -> tuple[tuple, ...]:
        """The moves, then the attacks, then the shots of `seat`'s unit `u` standing on hex h."""
        m = self.model
        board = self.board
        flyers_only = m.board.flyers_only
        flying = u.flying
        melee = u.attack == "melee"
        moves: list[tuple] = []
        attacks: list[tuple] = []
        for n in m.board.neighbours[h]:
            o = board[n]
            if o is None:
                if flying or not flyers_only[n]:
                    moves.append(("move", h, n))
            elif melee and o[T_OWN] != seat:
                attacks.append(("attack", h, n))
        moves += attacks  # a unit's moves are listed before its attacks
        if u.attack == "ranged":
            for n in m.shot_from[h]:  # the hexes at the ranged range
                o = board[n]
                if o is not None and o[T_OWN] != seat:
                    moves.append(("shoot", h, n))
        return tuple(moves)

    def ability_targets(self, seat: int, h: int, unit: int, ab: Ability) -> list[int]:
        """Hexes a special action may be aimed at (the hero's own hex for `self`), nearest first."""
        cands = [h] if ab.target == "self" else self._aim(seat, self.model.hexes_within(h, 1, ab.range), ab)
        checks = _checks(ab)
        if not checks:
            return cands
        out = []
        ctx = Ctx(seat, h, unit, h)  # one context, aimed at each candidate in turn (checks only read it)
        for tg in cands:
            ctx.target = tg
            for allowed, e in checks:
                if not allowed(self, ctx, e):
                    break
            else:
                out.append(tg)
        return out

    def _aim(self, seat: int, hexes: Sequence[int], ab: Ability) -> list[int]:
        """The hexes among `hexes` that hold what the ability aims at. An ability aimed at an
        enemy may be aimed at a face-down token whatever its types: the unit is unknown to the
        one aiming. One aimed at an own unit never takes the flag, which is no unit (a player
        left with only the flag has no units), so no swap moves it and no boost lends it strength."""
        board = self.board
        units = self.model.units
        types = ab.types
        target = ab.target
        if target == "empty-hex":
            return [n for n in hexes if board[n] is None]
        if target == "own":  # an own unit: the flag is no unit
            flag = self.model.flag
            return [n for n in hexes if (o := board[n]) is not None and o[T_OWN] == seat and o[T_UNIT] != flag
                    and (not types or units[o[T_UNIT]].type in types)]
        if target == "enemy":
            return [n for n in hexes if (o := board[n]) is not None and o[T_OWN] != seat
                    and (not types or not o[T_REV] or units[o[T_UNIT]].type in types)]
        return [n for n in hexes if (o := board[n]) is not None
                and (not types or (o[T_OWN] == seat or o[T_REV]) and units[o[T_UNIT]].type in types)]

    # ------------------------------------------------------------------ doing a player's move
    def _player_move(self, mv: tuple) -> None:
        kind = mv[0]
        s = self.current
        if kind == "recruit":
            u = mv[1]
            self.pool.remove(u)
            self.drafted[s].append(u)
            self.mana[s] -= self.model.units[u].cost
            self.usage["drafted"][u][s] += 1
            if not self.draft_done[1 - s]:
                self.current = 1 - s
        elif kind == "stop":
            self.draft_done[s] = True
            self.current = 1 - s
        elif kind == "leave":
            self.left_out[s].append(mv[1])
            self.usage["left-out"][mv[1]][s] += 1
        elif kind == "place":
            u = self.to_place[s].pop(0)
            self.board[mv[1]] = [s, u, 0, 0, 0, 0, 0, 0, len(self.actions) - 1, 0]
            insort(self.hexes[s], mv[1])
            self.shown[s] += 1
            self._moved(mv[1], s)
        elif kind == "move":
            self.plays = (len(self.actions) - 1, s, self.plays)
            self._activate(mv[1])
            self.relocate(mv[1], mv[2])
            self.stats["moves"] += 1
        elif kind in ("attack", "shoot"):
            self.plays = (len(self.actions) - 1, s, self.plays)
            self._activate(mv[1])
            self.stats["attacks"] += 1
            self.reveal(mv[1])
            self.reveal(mv[2])
            self.pending.insert(0, ("attack", mv[1], mv[2], kind == "shoot", 0))
        elif kind == "ability":
            self.plays = (len(self.actions) - 1, s, self.plays)
            h, ab_idx, tg = mv[1], mv[2], mv[3]
            ab = self.model.units[self.board[h][T_UNIT]].abilities[ab_idx]  # type: ignore[index]
            if tg != h and (o := self.board[tg]) is not None and o[T_OWN] == s and not o[T_REV]:
                self._aimed_own(s, h, ab, o, tg)
            t = self._activate(h)
            self.actions_left -= ab.cost - 1
            self.reveal(h)
            self.stats["abilities"] += 1
            self.usage["ability"][t[T_UNIT]][s] += 1
            if ab.once_per_turn:
                self.once_used.append((t[T_UNIT], ab_idx))
            self.pending.insert(0, ("ability", s, h, t[T_UNIT], ab_idx, tg))

    def _aimed_own(self, seat: int, h: int, ab: Ability, o: list[int], tg: int) -> None:
        """`seat` aims ability `ab` of its hero on h at its own face-down token `o` on tg: the other
        seat learns that the token is a unit the ability may be aimed at (never the flag; of the
        types it names; one a swap may bring to h). Every unit that would not have been offered
        there is ruled out in the open (T_NOT)."""
        unit = o[T_UNIT]
        hero = self.board[h][T_UNIT]  # type: ignore[index]
        out = o[T_NOT]
        try:
            for u in range(len(self.model.units)):
                o[T_UNIT] = u
                if tg not in self.ability_targets(seat, h, hero, ab):
                    out |= 1 << u
        finally:
            o[T_UNIT] = unit
        o[T_NOT] = out

    def _activate(self, h: int) -> list[int]:
        t = self.board[h]
        assert t is not None
        t[T_USED] += 1
        if t[T_USED] - t[T_EXTRA] > t[T_MOVED]:
            t[T_MOVED] = t[T_USED] - t[T_EXTRA]
        self._touched.append(t)
        self.actions_left -= 1
        return t

    # ------------------------------------------------------------------ chance and triggers
    def _task_ability(self, task: tuple) -> Ability | None:
        kind = task[0]
        units = self.model.units
        if kind == "ability":
            return units[task[3]].abilities[task[4]]
        if kind == "attacked":
            t = self.board[task[2]]
            return units[t[T_UNIT]].abilities[task[4]] if t is not None else None
        if kind == "trigger":
            return units[task[2]].abilities[task[3]]
        return None

    def _drain(self) -> bool:
        """Resolve queued work in order; stop (True) when the next item needs a d10 roll."""
        while self.pending and self.phase != "over":
            task = self.pending[0]
            ab = self._task_ability(task)
            if ab is not None and ab.d10 is not None and self._task_live(task):
                self._decision, self.moves, self.dkind = roll_decision(ab.name), [], "roll"
                return True
            self.pending.pop(0)
            self._execute(task, -1)
        return False

    def _task_live(self, task: tuple) -> bool:
        """A queued ability whose hero has left its hex (or the game) does nothing."""
        if task[0] == "ability":
            return self.unit_at(task[2]) == task[3]
        if task[0] == "trigger":
            return self.unit_at(task[1]) == task[2]
        return True

    def _execute(self, task: tuple, roll: int) -> None:
        kind = task[0]
        if kind == "attack":
            self._attack(task[1], task[2], task[3], task[4])
        elif kind == "attacked":
            _, a, b, ranged, i = task
            ab = self._task_ability(task)
            ctx = Ctx(self.board[b][T_OWN], b, self.unit_at(b), a)  # type: ignore[index]
            if ab is not None and ab.works_on(roll):
                self.usage["ability"][ctx.unit][ctx.seat] += 1
                self._run_effects(ab, ctx)
            if not ctx.evaded:
                self.pending.insert(0, ("attack", a, b, ranged, i + 1))
        elif kind == "ability":
            _, seat, h, unit, ab_idx, tg = task
            ab = self.model.units[unit].abilities[ab_idx]
            if self._task_live(task) and ab.works_on(roll):
                self._run_effects(ab, Ctx(seat, h, unit, tg))
        elif kind == "trigger":
            _, h, unit, ab_idx = task
            ab = self.model.units[unit].abilities[ab_idx]
            if self._task_live(task) and ab.works_on(roll):
                self.usage["ability"][unit][self.board[h][T_OWN]] += 1  # type: ignore[index]
                self._run_effects(ab, Ctx(self.board[h][T_OWN], h, unit, h))  # type: ignore[index]

    def _run_effects(self, ab: Ability, ctx: Ctx) -> None:
        for e in ab.effects:
            HANDLERS[e.kind][0](self, ctx, e)
            if self.phase == "over":
                return

    def _attack(self, a: int, b: int, ranged: bool, first: int) -> None:
        """An attack after the defender's `attacked` abilities from index `first` on."""
        att, dfd = self.board[a], self.board[b]
        if att is None or dfd is None:
            return
        for ab in self.model.units[dfd[T_UNIT]].abilities[first:]:
            if ab.trigger == "attacked":
                self.pending.insert(0, ("attacked", a, b, ranged, ab.idx))
                return
        sa, sb = self.strength(a), self.strength(b)
        if ranged:
            if sa >= sb:
                loser = dfd[T_UNIT]
                self.remove(b)
                self._victory(a, loser)
            return
        if sa > sb:
            loser = dfd[T_UNIT]
            self.remove(b)
            if self.can_stand(att[T_UNIT], b):
                self.relocate(a, b)
                a = b
            self._victory(a, loser)
        elif sa < sb:
            loser = att[T_UNIT]
            self.remove(a)
            self._victory(b, loser)
        else:
            self.remove(a)
            self.remove(b)

    def _victory(self, h: int, loser: int) -> None:
        t = self.board[h]
        if t is None or self.phase == "over":
            return
        units = self.model.units
        for ab in units[t[T_UNIT]].abilities:
            if ab.trigger != "victory" or (ab.types and units[loser].type not in ab.types):
                continue
            if ab.once_per_turn:
                if (t[T_UNIT], ab.idx) in self.once_used:
                    continue
                self.once_used.append((t[T_UNIT], ab.idx))
            self.pending.append(("trigger", h, t[T_UNIT], ab.idx))

    def _watch_removal(self, h: int, owner: int, unit: int) -> None:
        """A unit was removed on h: note, for each hero that gains power tokens in the open while
        its token stays face down (`Model.silent_harvesters`), which face-down tokens of its seat stand
        in its range, so `_watched` can say which of them it may be once the power is handed out."""
        m = self.model
        units = m.units
        dist = m.board.dist[h]
        board = self.board
        for hero, ab, _ in m.silent_harvesters:
            if ab.types and units[unit].type not in ab.types:
                continue
            for s in (0, 1):
                if ab.target == "own" and owner != s or ab.target == "enemy" and owner == s:
                    continue
                down = [x for x in self.hexes[s] if not board[x][T_REV]]  # type: ignore[index]
                if not any(board[x][T_UNIT] == hero for x in down):  # type: ignore[index]
                    continue  # drafted by the other seat, removed or face up: the open record says so
                watch = self.watch or ((), (), self.supply)
                before = watch[0] if any(u == hero for u, _ in watch[0]) else watch[0] + ((hero, self.power[hero]),)
                near = tuple(x for x in down if dist[x] <= ab.range)
                self.watch = (before, watch[1] + ((hero, s, near),), watch[2])

    def _watched(self) -> None:
        """The work queued by removals is done: rule out, in the open, each watched hero under the
        face-down tokens its power tokens say it is not under. It gained P tokens of A per removal
        in range; a token within range of fewer than P / A of the removals is not the hero, and
        when nothing can have held a token back (the supply never ran dry, the hero is below the
        cap) a token within range of another number of them is not the hero either."""
        before, events, low = self.watch  # type: ignore[misc]
        self.watch = None
        board = self.board
        cap = self.model.rules.power_cap
        for hero, ab, amount in self.model.silent_harvesters:
            p0 = next((p for u, p in before if u == hero), None)
            if p0 is None:
                continue
            mine = [e for e in events if e[0] == hero]
            s = mine[0][1]
            down = [x for x in self.hexes[s] if not board[x][T_REV]]  # type: ignore[index]
            if not any(board[x][T_UNIT] == hero for x in down):  # type: ignore[index]
                continue  # turned face up or removed meanwhile: nothing left to guess
            gained = self.power[hero] - p0
            fired = -(-gained // amount)
            exact = low > 0 and self.base_strength(hero) < cap
            bit = 1 << hero
            for x in down:
                n = sum(x in near for _, _, near in mine)
                if n < fired or exact and n * amount != gained:
                    board[x][T_NOT] |= bit  # type: ignore[index]

    def _queue_removal_triggers(self, h: int, owner: int, unit: int) -> None:
        units = self.model.units
        dist = self.model.board.dist[h]
        board = self.board
        if self.model.silent_harvesters:
            self._watch_removal(h, owner, unit)
        for x in sorted(self.hexes[0] + self.hexes[1]):
            t = board[x]
            for ab in units[t[T_UNIT]].abilities:
                if ab.trigger != "unit-removed" or dist[x] > ab.range:
                    continue
                if ab.types and units[unit].type not in ab.types:
                    continue
                if ab.target == "own" and owner != t[T_OWN] or ab.target == "enemy" and owner == t[T_OWN]:
                    continue
                self.pending.append(("trigger", x, t[T_UNIT], ab.idx))

    # ------------------------------------------------------------------ hidden information
    def visible_to(self, seat: int, t: list[int]) -> bool:
        """Whether `seat` knows which unit token `t` is."""
        return t[T_OWN] == seat or bool(t[T_REV]) or self.phase == "over"

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything `seat` may see, and nothing else, as JSON-able data."""
        from engine.fantasy_draft.hidden import observation
        return observation(self, seat)

    def redact(self, seat: int) -> Any:
        from engine.fantasy_draft.hidden import redact
        return redact(self, seat)

    def restore(self, token: Any) -> None:
        from engine.fantasy_draft.hidden import restore
        restore(self, token)

    def resample(self, seat: int, rng: random.Random) -> None:
        from engine.fantasy_draft.hidden import resample
        resample(self, seat, rng)


def play_labels(model: Model, board: list[list[int] | None], moves: list[tuple], at: int = 1 << 62) -> list[str]:
    """The text of each play move, naming the units that stand on `board` (a copy taken when the
    moves were offered) where the opponent knows them.

    A label is the open record of a choice (logs and `replay --as` show it to the other seat), so
    it says only what a player would say aloud at the table: a move names its unit only when the
    token was face up when offered (turned face up at or before log length `at`, see T_REV); an attack, a shot or a special action
    turns the acting token face up anyway, so it always names the unit."""
    lab = model.board.labels
    units = model.units
    out: list[str] = []
    for mv in moves:
        kind, h = mv[0], mv[1]
        u = units[board[h][T_UNIT]]  # type: ignore[index]
        if kind == "move":
            rev = board[h][T_REV]  # type: ignore[index]
            out.append(f"Move {lab[h]} to {lab[mv[2]]} ({u.name})" if 0 < rev <= at else f"Move {lab[h]} to {lab[mv[2]]}")
        elif kind == "attack":
            out.append(f"Attack {lab[mv[2]]} from {lab[h]} ({u.name})")
        elif kind == "shoot":
            out.append(f"Shoot {lab[mv[2]]} from {lab[h]} ({u.name})")
        else:
            tg = mv[3]
            out.append(f"{u.name} {lab[h]} {u.abilities[mv[2]].name}" + ("" if tg == h else f" on {lab[tg]}"))
    return out
