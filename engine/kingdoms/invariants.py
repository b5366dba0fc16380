"""Invariants checked after every step: nothing created or lost, limits held.

Why this shape: every smoke game runs the check after every step, so it must cost little next to a
step. The invariants fall into areas (areas.py), each a pure function of a few of the state's lists:
the pieces on the board, the armies that moved, the hordes and hit counters, the players' chits and
tokens. The rules mark each area they change (`KState.dirty`); a check tests only the marked areas
and clears the marks once they hold, so a die roll that changes nothing the invariants read costs
one test of an integer. Each quick test builds no message and answers true only when its area is
sound; when one fails, the detailed walks name every problem, and the marks stay set so the next
check tests again.

Nothing is skipped as long as every change is marked: `unmarked` compares what each area reads
before and after a step with the marks the step left, and the tests run it over many games.
"""
from __future__ import annotations

from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING, Callable

from engine.core.marks import unmarked_areas
from engine.kingdoms.areas import ALL, HORDES, MOVED, NAMES, PLAYERS, UNITS

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

_LIMITS = attrgetter("stack_limit", "settlements_per_space", "castles_per_space")


def check(st: "KState") -> list[str]:
    """Every broken invariant of the state, named; [] when all hold. Tests the marked areas only.

    A quick test that fails hands over to the walks that name each problem; the marks stay, so
    the next check tests the same areas again."""
    for test in _PLAN[st.dirty]:
        if not test(st):
            problems = _unit_problems(st) + _horde_problems(st) + _player_problems(st)
            if problems:
                return problems
    st.dirty = 0
    return []


# ------------------------------------------------------------------ the pieces on the board
def _counts(*lists: list[int]) -> bool:
    """Every entry is a whole number from 0 to 255: bytes() accepts nothing else, and tests a
    list in C far faster than min() (a larger count merely sends the caller to its detailed
    walk)."""
    try:
        for values in lists:
            bytes(values)
    except (ValueError, TypeError):
        return False
    return True


def _units_hold(st: "KState") -> bool:
    """True exactly when `_unit_problems` finds nothing about the pieces (armies that moved aside).

    Only owned spaces do any work: a space without an owner must hold no unit, which counting the
    zeros of each list in C settles (the zeros outside the owned spaces must be all of them)."""
    owner = st.owner
    unowned = owner.count(-1)
    sett, cast, tower, arm, inv, no_enter = st.sett, st.cast, st.tower, st.arm, st.inv, st.no_enter
    n = st.n
    limits = list(map(_LIMITS, st.mods))
    counts = [[0, 0, 0, 0] for _ in range(n)]      # armies, settlements, castles, towers
    zeros = [0, 0, 0, 0]                           # zeros in the owned spaces, per list
    for sp, o in enumerate(owner):
        if o < 0:
            continue
        if o >= n:
            return False
        a, s, c, t = arm[sp], sett[sp], cast[sp], tower[sp]
        stack, per_space, castles = limits[o]
        if a < 0 or s < 0 or c < 0 or t < 0 or a > stack or s > per_space or c > castles or (t and c) \
                or no_enter[sp]:
            return False
        row = counts[o]
        row[0] += a
        row[1] += s
        row[2] += c
        row[3] += t
        zeros[0] += not a
        zeros[1] += not s
        zeros[2] += not c
        zeros[3] += not t
    if [arm.count(0), sett.count(0), cast.count(0), tower.count(0)] != [z + unowned for z in zeros]:
        return False
    if inv.count(0) != len(inv):
        owner_of, inv_owner = owner, st.inv_owner
        for sp in compress(_spaces(inv), inv):
            k, io = inv[sp], inv_owner[sp]
            if k < 0 or io < 0 or io >= n or io == owner_of[sp] or k > limits[io][0]:
                return False
            counts[io][0] += k
    m = st.model
    lim = st.limited
    colour_army, colour_sett = m.colour_supply["army"], m.colour_supply["settlement"]
    for p in range(n):
        row = counts[p]
        if row != [st.n_arm[p], st.n_set[p], st.n_cast[p], st.n_tow[p]] \
                or (lim and (row[0] > colour_army or row[1] > colour_sett)):
            return False
    return (sum(row[2] for row in counts) + st.castle_free == m.supply["castle"]
            and sum(row[3] for row in counts) + st.tower_free == m.supply["tower"]
            and not (lim and (st.castle_free < 0 or st.tower_free < 0)))


_RANGES: dict[int, range] = {}


def _spaces(values: list) -> range:
    """The space indices of a board-sized list (a range made once per board size)."""
    got = _RANGES.get(len(values))
    if got is None:
        got = _RANGES[len(values)] = range(len(values))
    return got


def _moved_hold(st: "KState") -> bool:
    """No negative count of armies that moved."""
    return _counts(st.moved)


def _unit_problems(st: "KState") -> list[str]:
    m = st.model
    out: list[str] = []
    lab = st.board.labels
    n = st.n
    arm = [0] * n
    sett = [0] * n
    cast = [0] * n
    tow = [0] * n
    for sp in range(st.board.size):
        o = st.owner[sp]
        units = st.sett[sp] + st.cast[sp] + st.tower[sp] + st.arm[sp]
        if min(st.sett[sp], st.cast[sp], st.tower[sp], st.arm[sp], st.inv[sp], st.moved[sp]) < 0:
            out.append(f"{lab[sp]}: a negative unit count")
        if o < 0 and units:
            out.append(f"{lab[sp]}: units without an owner")
        if o >= 0:
            mods = st.mods[o]
            arm[o] += st.arm[sp]
            sett[o] += st.sett[sp]
            cast[o] += st.cast[sp]
            tow[o] += st.tower[sp]
            if st.arm[sp] > mods.stack_limit:
                out.append(f"{lab[sp]}: {st.arm[sp]} armies over the stacking limit {mods.stack_limit}")
            if st.sett[sp] > mods.settlements_per_space:
                out.append(f"{lab[sp]}: {st.sett[sp]} settlements in one space")
            if st.cast[sp] > mods.castles_per_space:
                out.append(f"{lab[sp]}: {st.cast[sp]} castles in one space")
            if st.tower[sp] and st.cast[sp]:
                out.append(f"{lab[sp]}: a castle and a wizard tower in one space")
            if st.no_enter[sp]:
                out.append(f"{lab[sp]}: units in a space nothing may enter")
        if st.inv[sp]:
            io = st.inv_owner[sp]
            if io < 0 or io == o:
                out.append(f"{lab[sp]}: invaders without a rival owner")
            else:
                arm[io] += st.inv[sp]
                if st.inv[sp] > st.mods[io].stack_limit:
                    out.append(f"{lab[sp]}: invading stack over the stacking limit")
    lim = st.limited     # without the physical-supply variant a supply may run below zero
    for p in range(n):
        if (arm[p], sett[p], cast[p], tow[p]) != (st.n_arm[p], st.n_set[p], st.n_cast[p], st.n_tow[p]):
            out.append(f"player {p + 1}: unit counts out of step with the board")
        if lim and (arm[p] > m.colour_supply["army"] or sett[p] > m.colour_supply["settlement"]):
            out.append(f"player {p + 1}: more armies or settlements than the colour set has")
    if sum(cast) + st.castle_free != m.supply["castle"] or (lim and st.castle_free < 0):
        out.append("castle markers not conserved")
    if sum(tow) + st.tower_free != m.supply["tower"] or (lim and st.tower_free < 0):
        out.append("wizard tower markers not conserved")
    return out


# ------------------------------------------------------------------ hordes and hit counters
def _hordes_hold(st: "KState") -> bool:
    """True exactly when `_horde_problems` finds nothing. The spaces with hit counters must be
    the spaces with a horde: every other space holds no counter (so only the few spaces with one
    are read) and no horde (all the others hold -1); the hordes there are each on the board once,
    not in the pool, with at least one counter; the counters add up with the free ones."""
    horde, hits = st.horde, st.hits
    where = list(compress(_spaces(hits), hits))
    if horde.count(-1) != len(hits) - len(where):
        return False
    pool = st.pool
    seen = set()
    on_board = 0
    for sp in where:
        h, x = horde[sp], hits[sp]
        if h < 0 or x < 1 or pool[h] or h in seen:
            return False
        seen.add(h)
        on_board += x
    return on_board + st.hit_free == st.model.supply["hit"] and not (st.limited and st.hit_free < 0)


def _horde_problems(st: "KState") -> list[str]:
    m = st.model
    out: list[str] = []
    lab = st.board.labels
    seen: list[int] = []
    hits_on_board = 0
    for sp in range(st.board.size):
        h = st.horde[sp]
        if h >= 0:
            if st.hits[sp] < 1:
                out.append(f"{lab[sp]}: horde with {st.hits[sp]} hit counters")
            if h in seen:
                out.append(f"{m.hordes[h].id} is on the board twice")
            seen.append(h)
            if st.pool[h]:
                out.append(f"{m.hordes[h].id} is both on the board and in the pool")
            hits_on_board += st.hits[sp]
        elif st.hits[sp]:
            out.append(f"{lab[sp]}: hit counters without a horde")
    if hits_on_board + st.hit_free != m.supply["hit"] or (st.limited and st.hit_free < 0):
        out.append(f"hit counters: {hits_on_board} on the board + {st.hit_free} free != {m.supply['hit']}")
    return out


# ------------------------------------------------------------------ chits and tokens
def _players_hold(st: "KState") -> bool:
    """True exactly when `_player_problems` finds nothing."""
    m = st.model
    lim = st.limited
    chits = m.cache.get("chit-supply")
    if chits is None:
        chits = m.cache["chit-supply"] = [m.supply.get("chit-" + name, 40) for name in m.resources]
    return min(map(min, st.res)) >= 0 and min(st.vt) >= 0 and not any(st.cap_broken) \
        and sum(st.vt) + st.vt_free == m.supply["victory"] and not (lim and st.vt_free < 0) \
        and list(map(sum, zip(*st.res, st.chit_free))) == chits and not (lim and min(st.chit_free) < 0)


_TESTS: tuple[tuple[int, Callable[["KState"], bool]], ...] = (
    (MOVED, _moved_hold), (HORDES, _hordes_hold), (PLAYERS, _players_hold), (UNITS, _units_hold))
# the tests to run for each value of `KState.dirty`, so a check loops over marked areas only
_PLAN: list[tuple[Callable[["KState"], bool], ...]] = [
    tuple(test for bit, test in _TESTS if marks & bit) for marks in range(ALL + 1)]


def inputs(st: "KState") -> dict[int, str]:
    """What each area's invariants read, written out (a copy): for `unmarked`."""
    return {
        UNITS: repr((st.owner, st.sett, st.cast, st.tower, st.arm, st.inv, st.inv_owner, st.no_enter, st.n_arm,
                     st.n_set, st.n_cast, st.n_tow, st.castle_free, st.tower_free, list(map(_LIMITS, st.mods)),
                     st.limited, id(st.model))),
        MOVED: repr(st.moved),
        HORDES: repr((st.horde, st.pool, st.hits, st.hit_free, st.limited, id(st.model))),
        PLAYERS: repr((st.res, st.vt, st.vt_free, st.chit_free, st.cap_broken, st.limited, id(st.model))),
    }


def unmarked(before: dict[int, str], st: "KState") -> list[str]:
    """The areas whose contents differ from `before` (taken by `inputs`) although the state does
    not mark them changed: changes a check would miss."""
    return unmarked_areas(before, inputs(st), st.dirty, NAMES)


def _player_problems(st: "KState") -> list[str]:
    m = st.model
    out: list[str] = []
    lim = st.limited
    for p in range(st.n):
        if min(st.res[p]) < 0:
            out.append(f"player {p + 1}: negative resources {st.res[p]}")
        if st.vt[p] < 0:
            out.append(f"player {p + 1}: negative victory tokens")
    if sum(st.vt) + st.vt_free != m.supply["victory"] or (lim and st.vt_free < 0):
        out.append("victory tokens not conserved")
    for r, name in enumerate(m.resources):
        held = sum(st.res[p][r] for p in range(st.n))
        if held + st.chit_free[r] != m.supply.get("chit-" + name, 40) or (lim and st.chit_free[r] < 0):
            out.append(f"{name} chits not conserved")
    for p, over in enumerate(st.cap_broken):
        if over:
            out.append(f"player {p + 1} ended a turn above the resource cap")
    return out
