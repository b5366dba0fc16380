"""Bots for Hordes & Heroes.

The heuristic bot reads the structured moves the rules publish next to the labels
(`state.moves`, `state.dkind`) so it never parses text; it plays the way the rulebook's tips
suggest: build a party, activate what the dice allow, keep dice towards the best missing hero,
hit the vanguard and bosses, dig into a stack only with strength to spare.
"""
from __future__ import annotations

import random
from typing import Any

from engine.core.api import Decision
from engine.core.bots import RandomBot
from engine.hordes_and_heroes.state import HIDDEN_L1, HHState, PartyHero

__all__ = ["RandomBot", "HeuristicBot"]


class HeuristicBot:
    __slots__ = ("seat", "rng")

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, state: Any, decision: Decision) -> int:
        st: HHState = state
        fn = _BY_KIND.get(st.dkind)
        return fn(st, st.moves) if fn else 0


def _value(st: HHState, card: int) -> float:
    return st.model.deck[card].value


def _hero_value(st: HHState, h: PartyHero | None) -> float:
    if h is None:
        return 0.0
    return st.model.deck[h.card].value + (2.0 * h.tlevel if h.treasure >= 0 else 0.0)


def _action(st: HHState, moves: list) -> int:
    seat = st.current
    party = st.parties[seat]
    best, best_v = len(moves) - 1, -1.0
    for i, (kind, card) in enumerate(moves):
        if kind == "play":
            return i
        if kind == "recruit":
            v = _value(st, card) - sum(1.5 for h in party if h.card == card)
            if len(party) >= 5:
                worst = min(_hero_value(st, h) for h in party)
                if v <= worst + 0.5:
                    continue
            if v > best_v:
                best, best_v = i, v
    return best


def _lowest_hero(st: HHState, moves: list) -> int:
    return min(range(len(moves)), key=lambda i: (_hero_value(st, moves[i]), i))


def _hand_discard(st: HHState, moves: list) -> int:
    return min(range(len(moves)), key=lambda i: (_value(st, moves[i]), i))


def _roll(st: HHState, moves: list) -> int:
    deck = st.model.deck
    # 1. activate: the most valuable hero; among its payments the face we have fewest of
    counts = [0] * 7
    for i, f in enumerate(st.faces):
        if not st.locked[i]:
            counts[f] += 1
    best, best_key = -1, None
    for i, mv in enumerate(moves):
        if mv[0] == "act":
            h, pay = mv[1], mv[2]
            c = deck[h.card]
            support = 2.0 if c.effects and c.effects[0].kind in ("extra-dice", "extra-reroll", "reduce-cost", "steam") else 0.0
            spare = 1.0 if pay[0] in ("free", "steam") else 0.0
            key = (c.value + support + spare, -(counts[pay[1]] - pay[2]) if pay[0] == "dice" else 0, -pay[2])
            if best_key is None or key > best_key:
                best, best_key = i, key
    if best >= 0:
        return best
    # 2. keep dice towards the most promising missing hero
    want = _wanted_dice(st)
    for i, mv in enumerate(moves):
        if mv[0] == "keep" and mv[1] in want:
            return i
        if mv[0] == "release" and mv[1] not in want:
            return i
    for i, mv in enumerate(moves):
        if mv[0] == "reroll":
            return i
    return len(moves) - 1


def _wanted_dice(st: HHState) -> set[int]:
    faces, locked = st.faces, st.locked
    free = [i for i in range(len(faces)) if not locked[i] and faces[i]]
    counts = [0] * 7
    for i in free:
        counts[faces[i]] += 1
    deck = st.model.deck
    disc = max(st.discounts) if st.discounts else 0
    plans: list[tuple[float, set[int]]] = []
    for h in st.parties[st.current]:
        if h.active:
            continue
        c = deck[h.card]
        if c.xn:
            need = c.xn - disc
            face = max(range(1, 7), key=lambda f: (counts[f], f))
            have = min(counts[face], need)
            keep = {i for i in free if faces[i] == face}
            missing = need - have
        elif c.exact:
            keep, missing, used = set(), 0, [0] * 7
            for f in c.exact:
                got = [i for i in free if faces[i] == f and i not in keep]
                if got:
                    keep.add(got[0])
                else:
                    missing += 1
        else:
            continue
        plans.append((c.value / (1.0 + missing * missing), keep))
    plans.sort(key=lambda p: -p[0])
    chosen: set[int] = set()
    for _, keep in plans[:2]:  # the two most promising heroes, if they want different dice
        if not keep & chosen:
            chosen |= keep
    return chosen


def _attack(st: HHState, moves: list) -> int:
    mons = st.model.monsters
    line = st.line
    best, best_v = -1, -1.0
    for i, (kind, s) in enumerate(moves):
        if kind == "attack":
            m = mons[s.cards[-1]]
            v = m.xp * 2.0 + (4.0 if s is line[-1] else 0.0) + (10.0 if m.level == 3 else 0.0) + m.ambush \
                - m.counterattack * 0.5 + m.strength * 0.1
            if v > best_v:
                best, best_v = i, v
    if best >= 0:
        return best
    remaining = st.remaining
    for i, (kind, s) in enumerate(moves):
        if kind == "flip":
            top = s.cards[-1]
            expect = 3 if top == HIDDEN_L1 else (mons[top].strength if top >= 0 else 7)
            if remaining >= expect:
                return i
    return len(moves) - 1


def _damage(st: HHState, moves: list) -> int:
    deck = st.model.deck
    dmg = st.pending_damage
    soak = [i for i, h in enumerate(moves) if deck[h.card].strength >= dmg]
    if soak:
        return min(soak, key=lambda i: (_hero_value(st, moves[i]), i))
    return max(range(len(moves)), key=lambda i: (deck[moves[i].card].strength, -i))


def _treasure(st: HHState, moves: list) -> int:
    best, best_v = len(moves) - 1, -1.0
    for i, h in enumerate(moves):
        if h is not None and h.treasure < 0 and _hero_value(st, h) > best_v:
            best, best_v = i, _hero_value(st, h)
    return best


def _capture(st: HHState, moves: list) -> int:
    mons = st.model.monsters
    return max(range(len(moves)), key=lambda i: (mons[moves[i].cards[-1]].xp if moves[i] is not None else -1, -i))


def _activate_hero(st: HHState, moves: list) -> int:
    deck = st.model.deck
    return max(range(len(moves)), key=lambda i: (deck[moves[i].card].value if moves[i] is not None else -1, -i))


def _set_die_which(st: HHState, moves: list) -> int:
    free = [f for i, f in enumerate(st.faces) if f and not st.locked[i]]
    if len(free) < 2:
        return len(moves) - 1
    return min(range(len(moves) - 1), key=lambda i: (free.count(moves[i]), i))


def _set_die_face(st: HHState, moves: list) -> int:
    free = [f for i, f in enumerate(st.faces) if f and not st.locked[i]]
    return max(range(len(moves)), key=lambda i: (free.count(moves[i]), moves[i]))


def _move_which(st: HHState, moves: list) -> int:
    mons = st.model.monsters
    van = st.line[-1]
    if van.up and mons[van.cards[-1]].strength >= 7:
        return moves.index(van)
    return len(moves) - 1


def _move_where(st: HHState, moves: list) -> int:
    return 0


_BY_KIND = {
    "action": _action, "party-discard": _lowest_hero, "hand-discard": _hand_discard, "roll": _roll,
    "attack": _attack, "damage": _damage, "treasure": _treasure, "capture": _capture,
    "activate-hero": _activate_hero, "set-die-which": _set_die_which, "set-die-face": _set_die_face,
    "move-which": _move_which, "move-where": _move_where,
}
