"""Fantasy Draft bots: a heuristic player and the evaluation function for the search bot.

The heuristic reads the structured moves the rules publish (`state.moves`, in play their runs
`state.groups`, and `state.dkind`) and only what its seat may see: its own tokens, face-up enemy
tokens, and for a face-down enemy the odds over the units that token could still be
(`hidden_counts`). It never looks at a face-down token's unit, so it plays the same on the full
state and on a redacted one.
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from engine.core.api import Decision
from engine.fantasy_draft.hidden import hidden_counts
from engine.fantasy_draft.model import Ability, Model
from engine.fantasy_draft.state import T_BONUS, T_OWN, T_REV, T_UNIT, FDState

FLAG_VALUE = 12.0
"""What a face-down enemy token is worth per unit of probability that it is the flag."""

_TOP = 5
"""Strengths above this count as this on the odds of a hidden unit (the printed maximum)."""

_EFFECT_VALUE = {"boost": 0.6, "weaken": 0.6, "destroy": 0.0, "power": 1.4, "reveal": 0.35, "swap": 0.05,
                 "teleport": 0.3, "freeze": 0.8, "evade": 1.2, "extra-actions": 2.0, "refresh": 0.8}
"""Rough worth of each effect kind, for drafting and for choosing special actions."""


class Planner:
    """What the heuristic derives from content alone, built once per model and shared by every
    bot and game on it: each unit's worth and printed strength, and per seat how far each hex is
    from the enemy's start zone."""

    __slots__ = ("values", "front", "strength", "lanes", "fixed", "striker")

    def __init__(self, model: Model) -> None:
        self.values = [_value(model, u) for u in range(len(model.units))]
        self.strength = [u.strength for u in model.units]
        b = model.board
        self.front = tuple(_front(b.dist, [h for h, z in enumerate(b.zone) if z == 1 - seat]) for seat in (0, 1))
        self.lanes = _lanes(b.neighbours)
        self.fixed = tuple(tuple(_fixed_score(ab) for ab in u.abilities) for u in model.units)
        self.striker = [u.actions > 0 and u.attack == "melee" for u in model.units]
        """Per unit: whether it can step up and attack (what `View.threat` fears of a face-up enemy)."""


_PLANNERS: dict[int, tuple[Model, Planner]] = {}


def planner(model: Model) -> Planner:
    """The model's shared planner (models are immutable, so it never goes stale)."""
    cached = _PLANNERS.get(id(model))
    if cached is None or cached[0] is not model:
        cached = _PLANNERS[id(model)] = (model, Planner(model))
    return cached[1]


def _front(dist: tuple[tuple[int, ...], ...], enemy: list[int]) -> list[int]:
    """Per hex: distance to the nearest enemy start-zone hex (small = front line)."""
    return [min(dist[h][e] for e in enemy) for h in range(len(dist))]


def unit_value(model: Model, unit: int, power: int = 0) -> float:
    """What keeping a unit is worth: its strength, its reach, and for heroes its abilities."""
    return planner(model).values[unit] + (0 if model.units[unit].flag else power)


def _value(model: Model, unit: int) -> float:
    u = model.units[unit]
    if u.flag:
        return FLAG_VALUE
    v = 1.0 + u.strength + 0.35 * u.actions + (0.6 if u.flying else 0) + (0.8 if u.attack == "ranged" else 0)
    return v + sum(_ability_worth(a) for a in u.abilities)


def _ability_worth(ab: Ability) -> float:
    odds = 1.0 if ab.d10 is None else (ab.d10[1] - ab.d10[0] + 1) / 10
    return odds * sum(_EFFECT_VALUE.get(e.kind, 0.3) + (1.5 if e.kind == "destroy" else 0) for e in ab.effects)


_READS_BOARD = frozenset({"destroy", "boost", "weaken", "freeze", "teleport"})
"""Effects whose worth depends on the target and the board (see `HeuristicBot._ability_score`)."""


def _fixed_score(ab: Ability) -> float | None:
    """The heuristic's score of a special action whose effects are worth the same on any target
    (summed in the same order as `_ability_score`); None when it depends on the target."""
    if any(e.kind in _READS_BOARD for e in ab.effects):
        return None
    score = 0.0
    for e in ab.effects:
        score += _EFFECT_VALUE.get(e.kind, 0.2)
    return _odds(ab) * score


def _odds(ab: Ability) -> float:
    return 1.0 if ab.d10 is None else (ab.d10[1] - ab.d10[0] + 1) / 10


def _nearest_map(neighbours: tuple[tuple[int, ...], ...], targets: list[int]) -> list[int]:
    """Per hex: steps to the closest of `targets`, by one breadth-first sweep."""
    near = [-1] * len(neighbours)
    frontier = list(targets)
    for x in frontier:
        near[x] = 0
    for x in frontier:  # grows while it is read: a queue without a deque
        d = near[x] + 1
        for n in neighbours[x]:
            if near[n] < 0:
                near[n] = d
                frontier.append(n)
    return near


_HIGH: dict[int, int] = {}
"""Per board size: the top bit of every 8-bit lane (see `_lanes`)."""


def _lanes(neighbours: tuple[tuple[int, ...], ...]) -> tuple[int, ...] | None:
    """Per hex h, the steps from h to every hex packed one byte per hex into one integer, so
    that the nearest of many targets is found for the whole board at once (`_nearest_lanes`);
    None when some hex is 128 steps away or cannot be reached (the sweep then does it)."""
    rows = [_nearest_map(neighbours, [h]) for h in range(len(neighbours))]
    if any(d < 0 or d > 127 for row in rows for d in row):
        return None
    return tuple(int.from_bytes(bytes(row), "little") for row in rows)


def _nearest_lanes(lanes: tuple[int, ...], targets: list[int]) -> bytes:
    """`_nearest_map` from packed rows: the lane-wise minimum of the targets' rows, eight bits
    per hex, in a few operations on whole integers per target (steps are below 128, so a lane
    never borrows from the next)."""
    n = len(lanes)
    high = _HIGH.get(n)
    if high is None:
        high = _HIGH[n] = int.from_bytes(b"\x80" * n, "little")
    near = lanes[targets[0]]
    for t in targets[1:]:
        row = lanes[t]
        smaller = ((((near | high) - row) & high) >> 7) * 255  # 255 in the lanes where row <= near
        near ^= (near ^ row) & smaller
    return near.to_bytes(n, "little")


def count_hidden(st: FDState, counts: list[int], values: list[float]) -> tuple[int, list[int], bool, float]:
    """What the face-down enemy tokens may be, from how many of each unit they hide
    (`hidden_counts`): how many there are (at least 1, it divides), how many are weaker than each
    strength (`below[k]`: strength under k, capped at 5 as on the odds table), whether the flag is among
    them, and their mean worth."""
    units = st.model.units
    power = st.power
    per_strength = [0] * (_TOP + 1)
    hidden = 0
    total = 0.0
    for u, c in enumerate(counts):
        if c <= 0:
            continue
        hidden += c
        p = power[u]
        per_strength[min(_TOP, units[u].strength + p)] += c
        worth = values[u] + (0 if units[u].flag else p)
        for _ in range(c):  # added one by one, as the mean always was
            total += worth
    below = [0] * (_TOP + 2)
    for k in range(_TOP + 1):
        below[k + 1] = below[k] + per_strength[k]
    n = max(1, hidden)
    return n, below, counts[st.model.flag] > 0, total / n if hidden else 0.0


class View:
    """What one seat knows of the board at one decision, and the maps its options are scored
    from: each is computed once per decision (or once per strength asked about), so scoring an
    option is a few lookups instead of a search over the board."""

    def __init__(self, st: FDState, seat: int, memo: "Memo | None" = None) -> None:
        m = st.model
        self.st, self.seat, self.m = st, seat, m
        self.enemy = enemy = 1 - seat
        self.plan = plan = planner(m)
        self.values = plan.values
        board = st.board
        self.enemies = enemies = st.hexes[enemy]  # read only
        self._memo = memo = memo if memo is not None else Memo()
        self.hidden_n, self.below, self.flag_hidden, self.hidden_value, self._odds = memo.hidden(st, enemy, self.values)
        # worth walking to: face-down tokens (one may be the flag) and enemies that can move; a
        # revealed trap is only in the way
        acts = m.acts
        self.targets = [x for x in enemies if not (t := board[x])[T_REV] or acts[t[T_UNIT]] > 0]  # type: ignore[index]
        if not self.targets:
            self.targets = enemies
        self._near: Sequence[int] | None = None
        self._adjacent: dict[int, list[int]] | None = None
        self._threat: dict[int, float] = {}

    @property
    def near(self) -> Sequence[int]:
        """Per hex: steps to the closest enemy worth reaching (see `Memo`)."""
        if self._near is None:
            self._near = self._memo.near(self.m.board.neighbours, self.targets, self.plan.lanes)
        return self._near

    @property
    def adjacent(self) -> dict[int, list[int]]:
        """Hex -> the enemy hexes next to it; a hex with no enemy beside it is absent."""
        if self._adjacent is None:
            self._adjacent = self._memo.adjacent(self.m.board.neighbours, self.enemies)
        return self._adjacent

    def nearest_enemy(self, h: int) -> int:
        """Hexes from h to the closest enemy worth reaching."""
        return self.near[h]

    def known(self, h: int) -> int:
        t = self.st.board[h]
        if t is None:
            return -1
        return t[T_UNIT] if t[T_OWN] == self.seat or t[T_REV] else -1

    def count_below(self, strength: int) -> int:
        """How many hidden units have a strength under `strength`."""
        return self.below[max(0, min(strength, _TOP + 1))]

    def hidden_odds(self, mine: int) -> tuple[float, float, float, float]:
        """(lower, equal, higher, value) of a face-down enemy against strength `mine`."""
        odds = self._odds.get(mine)
        if odds is None:
            n = self.hidden_n
            lower = self.count_below(mine) / n
            equal = (self.count_below(mine + 1) - self.count_below(mine)) / n
            val = self.hidden_value + (FLAG_VALUE / n if self.flag_hidden else 0.0)
            odds = self._odds[mine] = (lower, equal, 1.0 - lower - equal, val)
        return odds

    def fight_odds(self, mine: int, h: int, ranged: bool) -> tuple[float, float, float, float]:
        """(win, tie, loss, value of the target) for an attack of strength `mine` on hex h."""
        st = self.st
        u = self.known(h)
        if u >= 0:
            e = st.strength(h)
            val = self.values[u] + (0 if self.m.units[u].flag else st.power[u])
            if ranged:
                return (1.0, 0.0, 0.0, val) if mine >= e else (0.0, 0.0, 0.0, val)
            return (float(mine > e), float(mine == e), float(mine < e), val)
        lower, equal, higher, val = self.hidden_odds(mine)
        if ranged:
            return lower + equal, 0.0, 0.0, val
        return lower, equal, higher, val

    def threat(self, h: int, mine: int) -> float:
        """The likeliest attack on a unit of strength `mine` standing on hex h: the highest
        chance, over the enemies next to h, that one can and would attack it and win or tie."""
        enemies = (self._adjacent if self._adjacent is not None else self.adjacent).get(h)
        if enemies is None:
            return 0.0
        key = mine << 16 | h
        worst = self._threat.get(key)
        if worst is None:
            st = self.st
            board, power = st.board, st.power
            plan = self.plan
            striker, printed = plan.striker, plan.strength
            worst = 0.0
            for n in enemies:
                t = board[n]
                if t[T_REV]:  # type: ignore[index]
                    u = t[T_UNIT]  # type: ignore[index]
                    if striker[u] and (printed[u] + power[u] + t[T_BONUS] >= mine or mine <= 0):  # type: ignore[index]  # st.strength(n) >= mine
                        worst = 1.0
                        break  # no chance is higher
                elif worst == 0.0:
                    worst = (self.below[-1] - self.count_below(mine)) / self.hidden_n * 0.6
            self._threat[key] = worst
        return worst

    def danger(self, h: int, mine: int, value: float) -> float:
        """Expected loss from enemies next to hex h that could attack a unit of strength `mine`
        worth `value` (>= 0, so the worst attacker is the one most likely to attack)."""
        return self.threat(h, mine) * value


class Memo:
    """Maps a bot keeps from one decision to the next while their inputs are the same. Enemies
    only move in their own turn, so within a turn the enemy positions (and the targets worth
    walking to) mostly stay put; the maps are rebuilt only when they change."""

    __slots__ = ("_targets", "_near", "_enemies", "_adjacent", "_state", "_seen", "_hidden")

    def __init__(self) -> None:
        self._targets: list[int] | None = None
        self._near: Sequence[int] = []
        self._enemies: list[int] | None = None
        self._adjacent: dict[int, list[int]] = {}
        self._state: FDState | None = None
        self._seen = -1
        self._hidden: tuple = ()

    def hidden(self, st: FDState, enemy: int, values: list[float]) -> tuple:
        """What the face-down tokens of `enemy` may be (`count_hidden`), kept while the same
        state shows the same enemy army (`FDState.shown`); with the odds asked of it so far."""
        if st is not self._state or st.shown[enemy] != self._seen:
            board = st.board
            face_up = [board[x][T_UNIT] for x in st.hexes[enemy] if board[x][T_REV]]  # type: ignore[index]
            self._state, self._seen = st, st.shown[enemy]
            self._hidden = count_hidden(st, hidden_counts(st, enemy, face_up), values) + ({},)
        return self._hidden

    def near(self, neighbours: tuple[tuple[int, ...], ...], targets: list[int],
             lanes: tuple[int, ...] | None = None) -> Sequence[int]:
        """Per hex: steps to the closest of `targets` (from the packed rows when there are some)."""
        if targets != self._targets:
            self._targets = list(targets)
            self._near = (_nearest_lanes(lanes, targets) if lanes is not None and targets
                          else _nearest_map(neighbours, targets))
        return self._near

    def adjacent(self, neighbours: tuple[tuple[int, ...], ...], enemies: list[int]) -> dict[int, list[int]]:
        """Hex -> the hexes of `enemies` next to it (in no particular order: readers take the
        worst of them). Between decisions only the enemies that left or came are updated."""
        old = self._enemies
        if enemies != old:
            adj = self._adjacent
            if old is None:
                gone: Iterable[int] = ()
                came: Iterable[int] = enemies
            else:
                gone, came = set(old).difference(enemies), set(enemies).difference(old)
            for e in gone:
                for n in neighbours[e]:
                    near = adj[n]
                    near.remove(e)
                    if not near:
                        del adj[n]
            for e in came:
                for n in neighbours[e]:
                    if n in adj:
                        adj[n].append(e)
                    else:
                        adj[n] = [e]
            self._enemies = list(enemies)
        return self._adjacent


LAST_STAND = 4
"""With this many units able to act or fewer, each of them is worth FLAG_VALUE shared among
them on top of its own worth: a side whose last acting units fall cannot act and loses."""


def _stake(st: FDState, seat: int) -> float:
    """What each of `seat`'s acting units is worth beyond its own worth (see LAST_STAND)."""
    acts, board = st.model.acts, st.board
    n = 0
    for h in st.hexes[seat]:
        if acts[board[h][T_UNIT]] > 0:  # type: ignore[index]
            n += 1
    return FLAG_VALUE / n if 0 < n <= LAST_STAND else 0.0


NOISE = 0.05
"""The heuristic's noise per play option: uniform in [0, NOISE), added to the option's score."""


def _noisy_pick(outs: list[list[float]], tops: list[float], cut: float, rnd: Any) -> int:
    """The index, counted over every run, of the best score plus noise among the options
    scoring above `cut` (the best score less NOISE: no option at or below it can win), each
    drawing its noise in option order; the first of equal sums wins."""
    pick = 0
    high = -1e18
    off = 0
    for out, top in zip(outs, tops):
        if top > cut:
            i = off
            for s in out:
                if s > cut:
                    s += rnd() * NOISE
                    if s > high:
                        high, pick = s, i
                i += 1
        off += len(out)
    return pick


class HeuristicBot:
    """Drafts by value for mana, guards its flag with traps, attacks what it can beat and
    advances its strong units; a little noise keeps games varied."""

    __slots__ = ("seat", "rng", "_memo", "_last", "_turn", "_seen", "_enemies", "_runs", "_stake")
    reads_hidden = False  # reads only its own tokens, face-up ones and public counts (see the module)

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._memo = Memo()
        self._last: View | None = None  # the view of the last play decision, and what it read:
        self._turn = self._seen = -1
        self._enemies: list[int] = []
        self._runs: dict[int, tuple] = {}  # id(run) -> (run, epoch, its scores, best, strength, worth)
        self._stake: tuple = (None, -1, 0.0)  # (state, FDState.shown of the seat, `_stake`)

    def choose(self, state: Any, decision: Decision) -> int:
        st: FDState = state
        kind = st.dkind
        if kind == "play":
            return self._play(st)
        if kind == "deploy":
            return self._deploy(st)
        if kind == "draft":
            return self._draft(st)
        if kind == "leave-out":
            return self._leave_out(st)
        return self.rng.randrange(decision.n)

    # ------------------------------------------------------------------ setup
    def _draft(self, st: FDState) -> int:
        m = st.model
        best, pick = -1.0, len(st.moves) - 1
        for i, mv in enumerate(st.moves):
            if mv[0] != "recruit":
                continue
            u = m.units[mv[1]]
            score = unit_value(m, u.idx) / (u.cost + 1.5) * self.rng.uniform(0.7, 1.3)
            if score > best:
                best, pick = score, i
        return pick

    def _leave_out(self, st: FDState) -> int:
        m = st.model
        return min(range(len(st.moves)), key=lambda i: unit_value(m, st.moves[i][1]))

    def _deploy(self, st: FDState) -> int:
        m = st.model
        b = m.board
        unit = m.units[st.to_place[self.seat][0]]
        depth = planner(m).front[self.seat]
        cols = b.columns
        board = st.board
        flag_hex = next((h for h in st.hexes[self.seat] if board[h][T_UNIT] == m.flag), -1)  # type: ignore[index]
        traps_left = sum(1 for u in st.to_place[self.seat][1:] if m.units[u].actions == 0)
        keep = set(b.neighbours[flag_hex]) if flag_hex >= 0 and (traps_left or unit.actions == 0) else set()
        best, pick = -1e9, 0
        for i, mv in enumerate(st.moves):
            h = mv[1]
            col = h % cols
            noise = self.rng.random()
            if unit.actions > 0 and h in keep:
                score = -1e6 + noise  # the hexes around the flag are kept for the traps
            elif unit.flag:
                score = depth[h] * 10 - abs(col - cols // 2) * 0.4 + noise * 3
            elif unit.actions == 0 or (unit.strength >= 4 and unit.actions == 1 and self.rng.random() < 0.3):
                score = -b.dist[h][flag_hex] * 10 - depth[h] * 0.5 + noise if flag_hex >= 0 else noise
            else:
                score = -depth[h] * (unit.strength + unit.actions) + noise * 4
            if score > best:
                best, pick = score, i
        return pick

    # ------------------------------------------------------------------ play
    def _view(self, st: FDState) -> View:
        """This decision's view: the last one while nothing it reads changed (same state, turn,
        armies as both seats know them, enemy hexes), and then the scores kept with it hold too."""
        enemy = 1 - self.seat
        enemies = st.hexes[enemy]
        view = self._last
        if (view is None or view.st is not st or self._turn != st.turn or self._seen != st.shown[enemy]
                or self._enemies != enemies):
            view = self._last = View(st, self.seat, self._memo)
            self._turn, self._seen, self._enemies = st.turn, st.shown[enemy], list(enemies)
            self._runs = {}
        return view

    def _play(self, st: FDState) -> int:
        """Score every option and take the best, with a little noise. Options come in runs that
        share the acting token (`FDState.groups`); the scores of a run of moves and attacks
        depend only on the view, the turn and the token's strength and worth, so they are kept
        with the view, with the run's best score, and worked out again only for the runs the
        rules listed anew.

        The noise is uniform in [0, NOISE) per option, so only options within NOISE of the best
        score can be picked: only those draw it, in option order (the same odds for each of
        them as a draw for every option, with fewer draws)."""
        view = self._view(st)
        urge = min(1.5, st.turn / 50)
        board, power, values, units = st.board, st.power, view.values, st.model.units
        plan = view.plan
        printed, fixed = plan.strength, plan.fixed
        kept = self._runs
        epoch = st.shown[self.seat]  # bumped by any change to the strength or worth of own tokens
        if self._stake[0] is not st or self._stake[1] != epoch:
            self._stake = (st, epoch, _stake(st, self.seat))
        stake = self._stake[2]
        outs = []  # each run's scores, and its best one
        tops = []
        best = -1e18
        scoring = False  # what scoring a run reads, looked up at the first run to score
        for run in st.groups:
            known = kept.get(id(run))
            if known is not None and known[0] is run and known[1] == epoch:
                outs.append(known[2])
                top = known[3]
                tops.append(top)
                if top > best:
                    best = top
                continue
            first = run[0]
            h = first[1]
            if first[0] == "ability":
                score = fixed[board[h][T_UNIT]][first[2]]  # type: ignore[index]
                if score is None:  # read from the board: scored at every decision
                    out = [self._ability_score(st, view, mv, urge) for mv in run]
                    top = max(out)
                else:
                    out, top = [score] * len(run), score
                    kept[id(run)] = (run, epoch, out, top)
                outs.append(out)
                tops.append(top)
                if top > best:
                    best = top
                continue
            t = board[h]
            u = t[T_UNIT]  # type: ignore[index]
            mine = printed[u] + power[u] + t[T_BONUS]  # type: ignore[index]  # = st.strength(h)
            if mine < 0:
                mine = 0
            my_val = values[u] + (0 if units[u].flag else power[u] + stake)
            if known is not None and known[0] is run and known[4] == mine and known[5] == my_val:
                out, top = known[2], known[3]
                kept[id(run)] = (run, epoch, out, top, mine, my_val)
                outs.append(out)
                tops.append(top)
                if top > best:
                    best = top
                continue
            if not scoring:
                scoring = True
                calm = 1 - 0.5 * urge
                fights = bool(view.enemies)
                near = view.near if fights else ()
                adjacent = view.adjacent
                threat, threats = view.threat, view._threat
                fight_odds = view.fight_odds
                keen, wary, eager = 0.3 * urge, 1 - 0.3 * urge, 0.5 * urge
                pull0 = 2 * urge
            # the run's moves, attacks and shots from hex h
            if fights:
                pull = 0.15 + 0.1 * mine + pull0
                here = threat(h, mine) * my_val if h in adjacent else 0.0  # = danger(h)
                near_h = near[h]  # type: ignore[index]
                free = here * calm  # the danger term of a move to a hex no enemy is next to
                out = []
                for mv in run:
                    b = mv[2]
                    if mv[0] == "move":
                        if b in adjacent:
                            w = threats.get(mine << 16 | b)
                            danger = (threat(b, mine) if w is None else w) * my_val
                            out.append(pull * (near_h - near[b]) - (danger - here) * calm)  # type: ignore[index]
                        else:
                            out.append(pull * (near_h - near[b]) + free)  # type: ignore[index]
                    else:
                        win, tie, loss, val = fight_odds(mine, b, mv[0] == "shoot")
                        out.append((win + keen) * val - loss * my_val * wary + tie * (val - my_val) * 0.5 + eager)
            else:  # no enemy left to walk to or fight
                out = [0.0] * len(run)
            top = max(out)
            kept[id(run)] = (run, epoch, out, top, mine, my_val)
            outs.append(out)
            tops.append(top)
            if top > best:
                best = top
        if best <= -1e9:
            return 0
        return _noisy_pick(outs, tops, best - NOISE, self.rng.random)

    def _move_score(self, st: FDState, view: View, a: int, b: int, mine: int, my_val: float, urge: float) -> float:
        if not view.enemies:
            return 0.0
        before = view.nearest_enemy(a)
        after = view.nearest_enemy(b)
        drive = (0.15 + 0.1 * mine + 2 * urge) * (before - after)
        threat = view.danger(b, mine, my_val) - view.danger(a, mine, my_val)
        return drive - threat * (1 - 0.5 * urge)

    def _ability_score(self, st: FDState, view: View, mv: tuple, urge: float) -> float:
        m = st.model
        _, h, ab_idx, tg = mv
        ab = m.units[st.board[h][T_UNIT]].abilities[ab_idx]  # type: ignore[index]
        odds = _odds(ab)
        score = 0.0
        for e in ab.effects:
            if e.kind == "destroy":
                if view.known(tg) >= 0:
                    p = 1.0 if e.max_strength < 0 or st.strength(tg) <= e.max_strength else 0.0
                    val = unit_value(m, view.known(tg))
                else:
                    cap = 5 if e.max_strength < 0 else e.max_strength
                    p = view.count_below(cap + 1) / view.hidden_n
                    val = view.hidden_value + (FLAG_VALUE / view.hidden_n if view.flag_hidden else 0.0)
                score += p * val
            elif e.kind == "boost":
                score += self._boost_gain(st, view, tg, e.amount)
            elif e.kind in ("weaken", "freeze"):
                near = any(st.board[n] is not None and st.board[n][T_OWN] == self.seat for n in m.board.neighbours[tg])
                score += _EFFECT_VALUE[e.kind] * (1.5 if near else 0.4)
            elif e.kind == "teleport":
                score += self._move_score(st, view, h, tg, st.strength(h), 0.0, urge) * 0.8
            else:
                score += _EFFECT_VALUE.get(e.kind, 0.2)
        return odds * score

    def _boost_gain(self, st: FDState, view: View, tg: int, amount: int) -> float:
        """A boost is worth what it adds to the best attack the boosted unit could make."""
        m = st.model
        if st.activations_left(tg) <= 0:
            return 0.0
        s = st.strength(tg)
        gain = 0.0
        for n in m.board.neighbours[tg]:
            t = st.board[n]
            if t is not None and t[T_OWN] == view.enemy:
                w0, _, l0, val = view.fight_odds(s, n, False)
                w1, _, l1, _ = view.fight_odds(s + amount, n, False)
                gain = max(gain, (w1 - w0) * val + (l0 - l1) * 2)
        return gain


def evaluate(state: Any) -> list[float]:
    """Per-seat value in [0, 1] of an unfinished game: the share of fighting strength left,
    with a lost flag or army deciding it outright."""
    st: FDState = state
    if st.phase == "over":
        return [1.0 if s in st.winners else 0.0 for s in (0, 1)] if st.winners else [0.5, 0.5]
    m = st.model
    worth = [1.0, 1.0]
    for h, t in enumerate(st.board):
        if t is not None and t[T_UNIT] != m.flag:
            worth[t[T_OWN]] += unit_value(m, t[T_UNIT], st.power[t[T_UNIT]])
    total = worth[0] + worth[1]
    return [worth[0] / total, worth[1] / total]
