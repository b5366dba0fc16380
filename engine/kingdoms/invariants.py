"""Invariants checked after every step in checked mode: nothing created or lost, limits held.

Why in three parts, each remembered: checked play runs these after every action, and most actions
(a die roll, a resource taken) leave the board alone. Each part is a pure function of a few of the
state's lists (the pieces on the board; the hordes and hit counters; the players' chits and
tokens), so a part whose lists equal those it last checked gives the same answer without walking
the board again. Comparing lists is done in C and costs far less than the walk. The inputs
include the supply rules (the model, the physical-supply flag), which never change in a game.
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

_LIMITS = attrgetter("stack_limit", "settlements_per_space", "castles_per_space")


class Memo:
    """What each part last saw (copies of its inputs) and found. Shared by a state's clones,
    which is safe: an answer is reused only for inputs equal to those it was found for."""

    __slots__ = ("seen", "found", "units", "units_found", "layout", "where", "layout_ok", "counters",
                 "hordes_found", "chits", "players_found")

    def __init__(self) -> None:
        self.seen: tuple = ()            # every part's inputs at the last check, and
        self.found: list[str] = []       # what the parts found then
        self.units: tuple = ()
        self.units_found: list[str] = []
        self.layout: tuple = ()          # (horde per space, pool): where the hordes are
        self.where: list[int] = []       # the spaces holding a horde, for that layout
        self.layout_ok = True            # no horde twice, none both on the board and in the pool
        self.counters: tuple = ()        # (hit counters per space, free ones, supply rules)
        self.hordes_found: list[str] = []
        self.chits: tuple = ()
        self.players_found: list[str] = []


def check(st: "KState") -> list[str]:
    memo: Memo = st.invariant_memo
    units = _unit_inputs(st)
    layout = (st.horde, st.pool)
    counters = (st.hits, st.hit_free, st.limited, st.model)
    chits = (st.res, st.vt, st.vt_free, st.chit_free, st.cap_broken, st.limited, st.model)
    if (units, layout, counters, chits) == memo.seen:      # most actions: nothing to look at again
        return memo.found[:]
    if units != memo.units:
        memo.units_found = _units(st)
        memo.units = _copy(units)
    new_layout = layout != memo.layout
    if new_layout:
        memo.where, memo.layout_ok = _horde_layout(st)
        memo.layout = (st.horde[:], st.pool[:])
    if new_layout or counters != memo.counters:
        memo.hordes_found = _hordes(st, memo.where, memo.layout_ok)
        memo.counters = (st.hits[:],) + counters[1:]
    if chits != memo.chits:
        memo.players_found = _players(st)
        memo.chits = _copy(chits)
    memo.seen = (memo.units, memo.layout, memo.counters, memo.chits)
    memo.found = memo.units_found + memo.hordes_found + memo.players_found
    return memo.found[:]


def _copy(key: tuple) -> tuple:
    """A copy of a part's inputs that later changes to the state cannot reach (lists of lists,
    the players' chits, are copied row by row)."""
    return tuple((x[:] if not x or x[0].__class__ is not list else [row[:] for row in x])
                 if x.__class__ is list else x for x in key)


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


def _unit_inputs(st: "KState") -> tuple:
    return (st.owner, st.sett, st.cast, st.tower, st.arm, st.inv, st.moved, st.inv_owner, st.no_enter,
            st.n_arm, st.n_set, st.n_cast, st.n_tow, st.castle_free, st.tower_free,
            list(map(_LIMITS, st.mods)), st.limited, st.model)


def _units(st: "KState") -> list[str]:
    """No problem if the quick walk (owned spaces only do any work) passes; else the full walk
    names each one."""
    return [] if _units_ok(st) else _unit_problems(st)


def _units_ok(st: "KState") -> bool:
    """True exactly when `_unit_problems` finds nothing."""
    sett, cast, tower, arm, inv = st.sett, st.cast, st.tower, st.arm, st.inv
    if not _counts(sett, cast, tower, arm, inv, st.moved):
        return False
    n = st.n
    limits = list(map(_LIMITS, st.mods))
    counts = [[0, 0, 0, 0] for _ in range(n)]      # armies, settlements, castles, towers
    no_enter = st.no_enter
    for sp, o in enumerate(st.owner):
        if o < 0:
            continue
        a, s, c, t = arm[sp], sett[sp], cast[sp], tower[sp]
        stack, per_space, castles = limits[o]
        if a > stack or s > per_space or c > castles or (t and c) or no_enter[sp]:
            return False
        row = counts[o]
        row[0] += a
        row[1] += s
        row[2] += c
        row[3] += t
    # counts are not negative, so units in a space without an owner show as a board total
    # above the owned spaces' total
    owned = [sum(col) for col in zip(*counts)] if n else [0, 0, 0, 0]
    if owned != [sum(arm), sum(sett), sum(cast), sum(tower)]:
        return False
    if any(inv):
        owner, inv_owner = st.owner, st.inv_owner
        for sp, k in enumerate(inv):
            if k:
                io = inv_owner[sp]
                if io < 0 or io == owner[sp] or k > limits[io][0]:
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
    return (sum(cast) + st.castle_free == m.supply["castle"] and sum(tower) + st.tower_free == m.supply["tower"]
            and not (lim and (st.castle_free < 0 or st.tower_free < 0)))


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
def _horde_layout(st: "KState") -> tuple[list[int], bool]:
    """The spaces holding a horde, and whether no horde is there twice or also in the pool."""
    where = [sp for sp, h in enumerate(st.horde) if h >= 0]
    on = [st.horde[sp] for sp in where]
    pool = st.pool
    return where, len(set(on)) == len(on) and not any(pool[h] for h in on)


def _hordes(st: "KState", where: list[int], layout_ok: bool) -> list[str]:
    """No problem if the quick test passes: it passes exactly when the detailed walk finds
    nothing (counts are not negative, so hit counters summing to the hordes' own sit only on
    hordes); else the detailed walk names each problem."""
    hits = st.hits
    total = sum(hits)
    on_board = 0
    for sp in where:
        x = hits[sp]
        if x < 1:
            return _horde_problems(st)
        on_board += x
    if layout_ok and on_board == total and _counts(hits) and total + st.hit_free == st.model.supply["hit"] \
            and not (st.limited and st.hit_free < 0):
        return []
    return _horde_problems(st)


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
def _players(st: "KState") -> list[str]:
    """No problem if the quick test in C passes; else the detailed one names each."""
    m = st.model
    lim = st.limited
    chits = m.cache.get("chit-supply")
    if chits is None:
        chits = m.cache["chit-supply"] = [m.supply.get("chit-" + name, 40) for name in m.resources]
    if min(map(min, st.res)) >= 0 and min(st.vt) >= 0 and not any(st.cap_broken) \
            and sum(st.vt) + st.vt_free == m.supply["victory"] and not (lim and st.vt_free < 0) \
            and list(map(sum, zip(*st.res, st.chit_free))) == chits and not (lim and min(st.chit_free) < 0):
        return []
    return _player_problems(st)


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
