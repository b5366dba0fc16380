"""Bots for Kingdoms.

The heuristic bot reads the structured moves the rules publish next to the labels
(`state.moves`, `state.dkind`), never the text. It grows its economy (free resources towards the
next settlement, castle and armies), builds whenever it can, attacks hordes it expects to beat,
spends surplus chits on extra abilities rather than discarding them, and researches abilities
that fit its kingdom. The horde bot plays the horde player's seat: it keeps the strongest counter
drawn and marches on the weakest targets, like the programmed movement but by choice.
"""
from __future__ import annotations

import random
from typing import Any

from engine.core.api import Decision
from engine.core.bots import RandomBot

__all__ = ["RandomBot", "HeuristicBot", "HordeBot"]

_VALUES: dict[int, list[float]] = {}


def ability_values(model: Any) -> list[float]:
    """A rough worth of each ability, from its effects (cached per model)."""
    key = id(model)
    if key in _VALUES:
        return _VALUES[key]
    out = []
    for a in model.abilities:
        v = 0.0
        for e in a.effects:
            k = e.kind
            if k == "extra-resource":
                v += 3
            elif k == "modify-unit":
                part = 3.0 * int(e.get("attack", 0)) + 2.0 * int(e.get("defense", 0)) + 2.0 * int(e.get("hits", 0))
                if e.get("vs") or e.get("phase") or e.get("terrain") or e.get("scope") != "all":
                    part *= 0.5
                v += part if e.get("unit") == "army" else part * 0.7
            elif k == "build-cost":
                v -= 0.5 * int(e.get("delta"))
            elif k == "gain-victory-tokens":
                v += 5 if a.timing == "one-time" else 2
            elif k in ("gain-unit", "extra-build", "extra-attack"):
                v += 2.5
            elif k in ("gain-resource", "limit", "recover-army", "long-range-attack"):
                v += 1.5
            else:
                v += 0.5
        out.append(v)
    _VALUES[key] = out
    return out


def horde_odds(st: Any, p: int, sp: int, n: int, h: int) -> tuple[float, float]:
    """(chance an army hits, chance the horde kills an army) for `p` attacking the horde in `h`."""
    m = st.model
    hz = m.hordes[st.horde[h]]
    hatk, hdef = st.horde_mods(h)
    att, dfn = st.unit_bonus(p, "army", hz.type, "attack", sp)
    need = m.units["army"].hit_on - att + hdef
    hneed = hz.attack - hatk + dfn
    return max(0.0, min(1.0, (11 - need) / 10)), max(0.0, min(1.0, (11 - hneed) / 10))


def can_beat(st: Any, p: int, sp: int, n: int, h: int) -> bool:
    ph, qh = horde_odds(st, p, sp, n, h)
    hits = st.hits[h]
    return ph > 0 and n * n * ph > 1.4 * hits * hits * qh


class HeuristicBot:
    __slots__ = ("seat", "rng")

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, state: Any, decision: Decision) -> int:
        fn = _BY_KIND.get(state.dkind)
        if fn is None:
            return 0
        k = fn(state, self.seat, state.moves)
        return k if 0 <= k < len(decision.options) else 0


def _needs(st: Any, p: int) -> list[int]:
    """Chits still missing for the next settlement, a castle and an army (plus a food to march)."""
    want = list(st.cost_of(p, "settlement"))
    if st.n_cast[p] < max(1, st.n_set[p] // 2):
        for i, c in enumerate(st.cost_of(p, "castle")):
            want[i] += c
    for i, c in enumerate(st.cost_of(p, "army")):
        want[i] += c
    food = st.model.resources.index("food") if "food" in st.model.resources else 0
    want[food] += 1
    res = st.res[p]
    return [w - h for w, h in zip(want, res)]


def _free_resource(st: Any, p: int, moves: list) -> int:
    need = _needs(st, p)
    best, bv = 0, -99
    for i, r in enumerate(moves):
        if need[r] > bv:
            best, bv = i, need[r]
    return best


def _trade(st: Any, p: int, moves: list) -> int:
    need = _needs(st, p)
    for i, mv in enumerate(moves):
        if mv[0] == "ability":
            a = st.model.abilities[mv[1]]
            kind = mv[2].kind
            if kind in ("gain-resource", "gain-victory-tokens"):
                if not any(mv[4]) or sum(st.res[p]) > st.mods[p].cap:
                    return i
            elif kind == "convert":
                f, t = mv[3]
                if need[t] > 0 and need[f] < 0:
                    return i
            del a
    for i, mv in enumerate(moves):
        if mv[0] == "gold" and need[mv[1]] > 0:
            return i
    return len(moves) - 1


def _build(st: Any, p: int, moves: list) -> int:
    best, bv = len(moves) - 1, 0.0
    adj = st.board.adj
    for i, mv in enumerate(moves):
        if mv[0] == "build":
            sp = mv[2]
            v = 5.0
            if mv[1] == "settlement":
                v += 1.0 if st.tile[sp] >= 0 else 0.0
                v -= 2.0 * sum(1 for j in adj[sp] if st.horde[j] >= 0)
            elif mv[1] in ("castle", "wizard-tower"):
                v += 1.0 * sum(1 for j in adj[sp] if st.horde[j] >= 0)
            if v > bv:
                best, bv = i, v
        elif mv[0] == "ability" and bv <= 0 and sum(st.res[p]) >= 6:
            best, bv = i, 0.5
    return best


def _train(st: Any, p: int, moves: list) -> int:
    for i, mv in enumerate(moves):
        if mv[0] == "train":
            return i
    for i, mv in enumerate(moves):
        if mv[0] == "ability" and mv[2].kind == "gain-unit":
            return i
    return len(moves) - 1


def _move(st: Any, p: int, moves: list) -> int:
    best, bv = len(moves) - 1, 0.0
    for i, mv in enumerate(moves):
        if mv[0] != "move":
            continue
        _, sp, d, n = mv
        if st.horde[d] >= 0 and n == st.arm[sp] and can_beat(st, p, sp, n, d):
            v = 10.0 - st.hits[d]
            if v > bv:
                best, bv = i, v
    return best


def _attack(st: Any, p: int, moves: list) -> int:
    for i, mv in enumerate(moves):
        if mv[0] == "ability" and mv[2].kind in ("long-range-attack", "modify-unit", "destroy-horde"):
            return i
    return len(moves) - 1


_FIT: dict[tuple[int, int], list[float]] = {}


def _fit_values(st: Any, kd: int) -> list[float]:
    """Ability worth plus a bonus for sharing effect kinds with the kingdom's own abilities."""
    key = (id(st.model), kd)
    got = _FIT.get(key)
    if got is None:
        vals = ability_values(st.model)
        kinds: list[str] = []
        if kd >= 0:
            for ai in st.model.kingdoms[kd].abilities:
                kinds += [e.kind for e in st.model.abilities[ai].effects]
        got = [vals[a.idx] + sum(0.75 for e in a.effects if e.kind in kinds) for a in st.model.abilities]
        _FIT[key] = got
    return got


def _ability(st: Any, p: int, moves: list) -> int:
    vals = _fit_values(st, st.kingdom[p])
    best, bv = 0, -99.0
    for i, ai in enumerate(moves):
        if vals[ai] > bv:
            best, bv = i, vals[ai]
    return best


def _buy(st: Any, p: int, moves: list) -> int:
    price = moves[0][1]
    return 0 if sum(st.res[p]) - price >= 0 and sum(st.res[p]) > st.mods[p].cap + 2 else 1


def _discard(st: Any, p: int, moves: list) -> int:
    need = _needs(st, p)
    best, bv = 0, 99
    for i, r in enumerate(moves):
        if need[r] < bv:
            best, bv = i, need[r]
    return best


def _kingdom(st: Any, p: int, moves: list) -> int:
    vals = ability_values(st.model)
    best, bv = 0, -99.0
    for i, k in enumerate(moves):
        v = sum(vals[a] for a in st.model.kingdoms[k].abilities)
        if v > bv:
            best, bv = i, v
    return best


def _far_from_hordes(st: Any, p: int, moves: list) -> int:
    cols = st.board.cols
    hordes = [(h % cols, h // cols) for h in st.horde_spaces()]
    best, bv = 0, -1
    for i, sp in enumerate(moves):
        if sp < 0:
            continue
        c, r = sp % cols, sp // cols
        d = 20
        for hc, hr in hordes:
            x = abs(c - hc) + abs(r - hr)
            if x < d:
                d = x
        if d > bv:
            best, bv = i, d
    return best


def _first(st: Any, p: int, moves: list) -> int:
    return 0


def _last(st: Any, p: int, moves: list) -> int:
    return len(moves) - 1


_BY_KIND = {
    "free-resource": _free_resource, "resource": _free_resource, "trade": _trade, "gift": _last,
    "build": _build, "train": _train, "move": _move, "attack": _attack, "after-attack": _last,
    "ability": _ability, "buy-ability": _buy, "discard": _discard, "kingdom": _kingdom,
    "first-settlement": _far_from_hordes, "restart": _far_from_hordes, "place": _first,
    "unit-type": _first, "adjust": _first, "negate": _first, "battle-spell": _first,
    "withdraw": _last, "control": _last, "horde-keep": _first, "horde-move": _first,
}


class HordeBot:
    """The horde player's seat: keep the strongest counter, march on the weakest target in reach.
    In any other seat it plays like the heuristic bot."""

    __slots__ = ("seat", "rng", "other")

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.other = HeuristicBot(seat, rng)

    def choose(self, state: Any, decision: Decision) -> int:
        st = state
        if st.dkind == "horde-keep":
            hz = st.model.hordes
            return max(range(len(st.moves)), key=lambda i: (hz[st.moves[i]].hits * (11 - hz[st.moves[i]].attack), -i))
        if st.dkind == "horde-move":
            prio = st.horde_seg.get("target-priority") or []
            best, bv = len(st.moves) - 1, -1.0
            for i, j in enumerate(st.moves):
                if j < 0:
                    continue
                kind = st.target_kind(j)
                v = (len(prio) - prio.index(kind)) * 10.0 if kind in prio else \
                    float(sum(1 for x in st.board.adj[j] if st.owner[x] >= 0))
                if v > bv:
                    best, bv = i, v
            return best
        return self.other.choose(state, decision)
