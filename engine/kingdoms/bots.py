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

__all__ = ["RandomBot", "HeuristicBot", "HordeBot", "ExploreBot"]

def ability_values(model: Any) -> list[float]:
    """A rough worth of each ability, from its effects (built once per model, in its cache)."""
    got = model.cache.get("ability-values")
    if got is None:
        got = model.cache["ability-values"] = [_ability_value(a) for a in model.abilities]
    return got


def _ability_value(a: Any) -> float:
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
    return v


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
        return k if 0 <= k < decision.n else 0


def _needs(st: Any, p: int) -> list[int]:
    """Chits still missing for the next settlement, a castle and an army (plus a food to march)."""
    costs = st.mods[p].costs
    res = st.res[p]
    if st.n_cast[p] < max(1, st.n_set[p] // 2):
        need = [s + c + a - h for s, c, a, h in zip(costs["settlement"], costs["castle"], costs["army"], res)]
    else:
        need = [s + a - h for s, a, h in zip(costs["settlement"], costs["army"], res)]
    need[_food(st.model)] += 1
    return need


def _food(model: Any) -> int:
    """Where food sits in the resource vectors (the first resource if the content has none)."""
    got = model.cache.get("food")
    if got is None:
        got = model.cache["food"] = model.resources.index("food") if "food" in model.resources else 0
    return got


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
            elif mv[1] == "castle":
                v += 1.0 * sum(1 for j in adj[sp] if st.horde[j] >= 0)
            elif mv[1] == "wizard-tower":
                # a tower trains no army and takes one hit, but yields a magic every turn: worth
                # it on a quiet space once another castle trains the armies and spells want magic
                quiet = not any(st.horde[j] >= 0 for j in adj[sp])
                spells = any(st.model.abilities[ai].spell for ai in st.abil[p])
                v += 0.5 if quiet and spells and st.n_cast[p] > 0 else -1.0
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
        if mv[0] == "ability":
            v = _move_ability_value(st, p, mv)
        elif mv[0] == "move":
            _, sp, d, n = mv
            v = 0.0
            if st.horde[d] >= 0 and can_beat(st, p, sp, n, d):
                v = 10.0 - st.hits[d] - 0.1 * (st.arm[sp] - n)   # the whole stack if it can
            elif st.pvp and st.owner[d] not in (-1, p) and st.horde[d] < 0:
                # player versus player: invade a rival's space the stack clearly outnumbers
                # (a castle takes two hits, so it counts twice)
                held = st.arm[d] + st.sett[d] + 2 * st.cast[d] + st.tower[d]
                if n >= 2 and n > held:
                    v = 3.0 + 0.1 * (n - held)
        else:
            continue
        if v > bv:
            best, bv = i, v
    return best


def _threat(st: Any, sp: int) -> int:
    """Hordes next to space `sp`."""
    return sum(1 for j in st.board.adj[sp] if st.horde[j] >= 0)


def _beatable_nearby(st: Any, p: int, sp: int, reach: int) -> bool:
    """A horde within `reach` steps of the stack in `sp` that the stack can beat."""
    c, r = st.board.col_row(sp)
    for h in st.horde_spaces():
        hc, hr = st.board.col_row(h)
        if 1 < abs(c - hc) + abs(r - hr) <= reach and can_beat(st, p, sp, st.arm[sp], h):
            return True
    return False


def _move_ability_value(st: Any, p: int, mv: tuple) -> float:
    """Worth of using an ability from the Move phase menu now (0: not worth it)."""
    _, ai, e, payload, cost = mv
    kind = e.kind
    if kind == "extra-move":                                   # Haste
        return 6.0 if _beatable_nearby(st, p, payload, 1 + int(e.get("amount")) + st.mods[p].extra_move) else 0.0
    if kind == "relocate":
        if e.get("piece") == "settlement":                     # Migration: away from a horde
            return 4.0 if _threat(st, payload) and not st.arm[payload] and not st.cast[payload] else 0.0
        # Gate: one army to reinforce a threatened settlement without armies
        if st.arm[payload] >= 2 and any(_threat(st, s) and not st.arm[s] for s in st.own_settlement_spaces(p)):
            return 3.0
        return 0.0
    if kind == "restrict":
        t = e.get("target")
        if t == "horde-stack":                                 # Blizzard: a horde next to our pieces
            return 5.0 if any(st.owner[j] == p for j in st.board.adj[payload]) else 0.0
        if t == "own-settlement":                              # Holy Ground: a bare settlement under threat
            return 4.0 if _threat(st, payload) and not st.arm[payload] and not st.cast[payload] else 0.0
        gold = st.res[p][st.gold]                              # Diplomacy: spare gold slows a rival
        return 2.0 if gold >= 5 and st.score(payload) >= st.score(p) else 0.0
    return 0.0


def _relocate(st: Any, p: int, moves: list) -> int:
    """Where Gate or Migration takes a piece: a settlement away from hordes, an army to the
    most threatened bare settlement."""
    best, bv = 0, -99.0
    for i, d in enumerate(moves):
        v = -2.0 * _threat(st, d)
        if st.owner[d] == p and st.sett[d] and not st.arm[d]:
            v = 3.0 + _threat(st, d)
        if v > bv:
            best, bv = i, v
    return best


def _diplomacy_space(st: Any, p: int, moves: list) -> int:
    """Forbid the empty space the rival would most like to settle: next to the most of theirs."""
    best, bv = 0, -1
    for i, sp in enumerate(moves):
        v = (st.owner[sp] < 0 and st.horde[sp] < 0) * 10 + sum(1 for j in st.board.adj[sp] if st.owner[j] >= 0)
        if v > bv:
            best, bv = i, v
    return best


def _after_attack(st: Any, p: int, moves: list) -> int:
    """Forced March when a stack can reach and beat another horde."""
    for i, mv in enumerate(moves):
        if mv[0] == "ability" and mv[2].kind == "movement-rule":
            sp = mv[3]
            if any(st.horde[d] >= 0 and can_beat(st, p, sp, st.arm[sp], d)
                   for d in st.reachable(p, sp, st.arm[sp], again=True)):
                return i
    return len(moves) - 1


def _march(st: Any, p: int, moves: list) -> int:
    src = next((sp for sp in st.own_army_spaces(p) if st.reachable(p, sp, st.arm[sp], again=True) == moves), -1)
    for i, d in enumerate(moves):
        if st.horde[d] >= 0 and (src < 0 or can_beat(st, p, src, st.arm[src], d)):
            return i
    return _far_from_hordes(st, p, moves)


def _withdraw(st: Any, p: int, moves: list) -> int:
    """Fighting Withdrawal: pull a stack that would lose out of a horde's reach."""
    for i, (sp, d) in enumerate(moves):
        if sp < 0:
            continue
        threats = [j for j in st.board.adj[sp] if st.horde[j] >= 0]
        if threats and not _threat(st, d) and not all(can_beat(st, p, sp, st.arm[sp], h) for h in threats):
            return i
    return len(moves) - 1


def _control(st: Any, p: int, moves: list) -> int:
    """Control: cast on a horde next to our pieces; then step it away from them."""
    d = st.decision()
    if d is not None and d.prompt.startswith("Cast"):
        for i, sp in enumerate(moves):
            if sp >= 0 and any(st.owner[j] == p for j in st.board.adj[sp]):
                return i
        return len(moves) - 1
    best, bv = len(moves) - 1, 99
    for i, j in enumerate(moves):
        if j < 0:
            continue
        v = sum(1 for x in st.board.adj[j] if st.owner[x] >= 0) + (5 if st.owner[j] >= 0 else 0)
        if v < bv:
            best, bv = i, v
    return best


def _gift(st: Any, p: int, moves: list) -> int:
    """Offer an exchange of a chit we have to spare for one we need; never give chits away."""
    need = _needs(st, p)
    for i, mv in enumerate(moves):
        if mv[0] == "offer" and need[mv[2]] < 0 < need[mv[3]]:
            return i
    return len(moves) - 1


def _answer_offer(st: Any, p: int, moves: list) -> int:
    """Accept a trade that brings chits we need for ones we can spare, and no fewer than we give."""
    _, _, gets, gives, n_in, n_out = moves[0]
    need = _needs(st, p)
    return 0 if need[gets] > 0 and need[gives] < 0 and n_in >= n_out else 1


_EVENT_WORTH = {"gain-unit": 4.0, "gain-ability": 4.0, "gain-resource": 2.0, "gain-victory-tokens": 4.0,
                "spawn-horde": -3.0}


def _adjust_event(st: Any, p: int, moves: list) -> int:
    """Divination or Oracles on the event roll: the best event in reach (a reroll is worth the average)."""
    ev = st.model.events

    def worth(r: int) -> float:
        e = ev.get(r)
        return sum(_EVENT_WORTH.get(x.kind, 0.0) for x in e.effects) if e else 0.0
    avg = sum(worth(r) for r in range(1, 11)) / 10
    best, bv = len(moves) - 1, worth(moves[-1][1]) + 0.5     # keeping also keeps the magic
    for i, (ai, nv) in enumerate(moves[:-1]):
        v = avg if nv == 0 else worth(nv)
        if v > bv:
            best, bv = i, v
    return best


def _adjust_amount(st: Any, p: int, moves: list) -> int:
    keep = moves[-1][1]
    best, bv = len(moves) - 1, float(keep) + 0.5   # a magic chit for at least one more
    for i, (ai, nv) in enumerate(moves[:-1]):
        v = 3.5 if nv == 0 else float(nv)
        if v > bv:
            best, bv = i, v
    return best


def _attack(st: Any, p: int, moves: list) -> int:
    for i, mv in enumerate(moves):
        if mv[0] == "ability" and mv[2].kind in ("long-range-attack", "modify-unit", "destroy-horde"):
            return i
    return len(moves) - 1


def _fit_values(st: Any, kd: int) -> list[float]:
    """Ability worth plus a bonus for sharing effect kinds with the kingdom's own abilities
    (per kingdom, built once per model, in its cache)."""
    m = st.model
    key = ("fit", kd)
    got = m.cache.get(key)
    if got is None:
        vals = ability_values(m)
        kinds: list[str] = []
        if kd >= 0:
            for ai in m.kingdoms[kd].abilities:
                kinds += [e.kind for e in m.abilities[ai].effects]
        got = m.cache[key] = [vals[a.idx] + sum(0.75 for e in a.effects if e.kind in kinds) for a in m.abilities]
    return got


def _ability(st: Any, p: int, moves: list) -> int:
    if st.round >= st.rounds:
        return _last_round_ability(st, p, moves)
    vals = _fit_values(st, st.kingdom[p])
    best, bv = 0, -99.0
    for i, ai in enumerate(moves):
        if vals[ai] > bv:
            best, bv = i, vals[ai]
    return best


def _last_round_worth(st: Any, p: int, ai: int) -> float:
    """What an ability gained in the last round can still add to the score: a one-time gift used
    at once (tokens, a unit, a horde's token) counts in points; one with nothing to act on (no
    horde for Destruction, no site for Friends) counts for nothing, below any standing bonus,
    which may still help in the last raid."""
    a = st.model.abilities[ai]
    if a.timing != "one-time":
        return 0.01 * ability_values(st.model)[ai]
    worth = -1.0
    for e in a.effects:
        k = e.kind
        if k == "gain-victory-tokens":
            worth = max(worth, float(e.get("amount")))
        elif k == "gain-unit" and any(st.unit_sites(p, u) for u in e.get("units")):
            worth = max(worth, float(e.get("amount")))
        elif k == "destroy-horde" and st.horde_spaces():
            worth = max(worth, 1.0)
        elif k == "gain-resource":    # chits score nothing, but may pay for one more ability
            worth = max(worth, 0.5 if sum(st.res[p]) + int(e.get("amount")) >= st.research_price(p) else -1.0)
    return worth


def _last_round_ability(st: Any, p: int, moves: list) -> int:
    best, bv = 0, -99.0
    for i, ai in enumerate(moves):
        v = _last_round_worth(st, p, ai)
        if v > bv:
            best, bv = i, v
    return best


def _buy(st: Any, p: int, moves: list) -> int:
    """The Research phase's menu: buy an ability with surplus chits; in the last round use every
    one-time ability still held (nothing comes after) and spend every chit that buys one."""
    last = st.round >= st.rounds
    for i, mv in enumerate(moves):
        if mv[0] == "ability" and last:
            return i
    for i, mv in enumerate(moves):
        if mv[0] == "buy" and sum(st.res[p]) >= mv[1] and (last or sum(st.res[p]) > st.mods[p].cap + 2):
            return i
    return len(moves) - 1


def _discard(st: Any, p: int, moves: list) -> int:
    need = _needs(st, p)
    best, bv = 0, 99
    for i, r in enumerate(moves):
        if need[r] < bv:
            best, bv = i, need[r]
    return best


def _pay(st: Any, p: int, moves: list) -> int:
    """A chit from the largest pile (the earlier type on ties): what is most plentiful is missed
    least."""
    res = st.res[p]
    return max(range(len(moves)), key=lambda i: (res[moves[i]], -moves[i]))


def _kingdom(st: Any, p: int, moves: list) -> int:
    """Any kingdom: the rough ability values cannot rank kingdoms (they favoured the same seven
    and left eight unplayed), and a balance report needs every kingdom played. The pick is
    spread by the round and seat, so it stays a pure function of the state."""
    return (st.round * 7 + p * 5 + len(st.actions)) % len(moves)


def _far_from_hordes(st: Any, p: int, moves: list) -> int:
    """The space farthest from every horde (orthogonal steps, counted up to 20)."""
    dist = horde_distances(st)
    best, bv = 0, -1
    for i, sp in enumerate(moves):
        if sp >= 0 and dist[sp] > bv:
            best, bv = i, dist[sp]
    return best


def horde_distances(st: Any, cap: int = 20) -> list[int]:
    """Steps from each space to the nearest horde (at most `cap`), for every space at once.

    One breadth-first pass from all hordes over the orthogonal grid: on a full grid this is the
    row-plus-column distance, found in one sweep of the board instead of once per option."""
    adj = st.board.adj
    dist = [cap] * len(adj)
    frontier = st.horde_spaces()
    for h in frontier:
        dist[h] = 0
    d = 0
    while frontier and d + 1 < cap:
        d += 1
        nxt = []
        for s in frontier:
            for j in adj[s]:
                if dist[j] > d:
                    dist[j] = d
                    nxt.append(j)
        frontier = nxt
    return dist


def _first(st: Any, p: int, moves: list) -> int:
    return 0


def _last(st: Any, p: int, moves: list) -> int:
    return len(moves) - 1


_BY_KIND = {
    "free-resource": _free_resource, "resource": _free_resource, "trade": _trade, "gift": _gift,
    "build": _build, "train": _train, "move": _move, "attack": _attack, "after-attack": _after_attack,
    "ability": _ability, "buy-ability": _buy, "pay": _pay, "discard": _discard, "kingdom": _kingdom,
    "first-settlement": _far_from_hordes, "restart": _far_from_hordes, "place": _first,
    "unit-type": _first, "adjust": _first, "negate": _first, "battle-spell": _first,
    "withdraw": _withdraw, "control": _control, "horde-keep": _first, "horde-move": _first,
    "relocate": _relocate, "diplomacy-space": _diplomacy_space, "march": _march,
    "trade-offer": _answer_offer, "trade-give": _first, "trade-get": _first,
    "adjust-event": _adjust_event, "adjust-amount": _adjust_amount,
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


class ExploreBot:
    """The heuristic bot, made curious so that a smoke run covers all of the content: it takes
    its kingdom and its researched abilities at random and, at a phase menu that offers an
    ability, uses one of them at random one time in three. Balance figures from it say how the
    content plays when every part of it is tried, not how a careful player would fare."""

    __slots__ = ("seat", "rng", "other")
    CURIOSITY = 1 / 3

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.other = HeuristicBot(seat, rng)

    def choose(self, state: Any, decision: Decision) -> int:
        kind = state.dkind
        if kind in ("kingdom", "ability"):
            return self.rng.randrange(decision.n)
        moves = state.moves
        if kind in ("trade", "build", "train", "move", "attack", "after-attack") and \
                self.rng.random() < self.CURIOSITY:
            used = [i for i, mv in enumerate(moves) if mv[0] == "ability"]
            if used:
                return self.rng.choice(used)
        if kind in ("withdraw", "control", "adjust", "negate", "battle-spell", "adjust-event",
                    "adjust-amount") and len(moves) > 1 and self.rng.random() < self.CURIOSITY:
            return self.rng.randrange(len(moves) - 1)
        return self.other.choose(state, decision)
