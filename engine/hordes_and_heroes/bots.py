"""Bots for Hordes & Heroes.

The heuristic bot reads the structured moves the rules publish next to the labels
(`state.moves`, `state.dkind`) so it never parses text; it plays the way the rulebook's tips
suggest: build a party around the strength it can really field (botplan.py estimates that from
dice odds, firing order and synergies), swap out heroes the party cannot fire, activate helpers
first and do not lock dice a stronger hero is collecting while a reroll is left, make the most of
the last roll, hit the vanguard and bosses, dig into a stack only with strength to spare.

What the bot remembers between decisions is a memo of a pure function of its key (plus the hero
picked to drop, which the very next decision uses), so its answers depend on the state alone.
"""
from __future__ import annotations

import random
from operator import attrgetter, itemgetter
from typing import Any

from engine.core.api import Decision
from engine.core.bots import RandomBot
from engine.hordes_and_heroes.botplan import game_plan
from engine.hordes_and_heroes.hidden import face_down_level
from engine.hordes_and_heroes.state import HHState, PartyHero

__all__ = ["RandomBot", "HeuristicBot"]


class HeuristicBot:
    __slots__ = ("seat", "rng", "drop", "discards", "want")
    # It reads its own hand (the options it is offered), the parties, dice, tokens and the
    # face-up horde, and of a face-down card only its level: never another hand or the deck. So
    # it chooses alike on the full and on the redacted state, and the driver need not redact for
    # it (a test plays whole games both ways).
    reads_hidden = False

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.drop: tuple | None = None      # the hero to let go when the recruit fills the party
        # memos of pure functions, so a bot may move between states safely
        self.discards: tuple | None = None  # (party key, card -> worth in hand)
        self.want: tuple | None = None      # ((faces, locks, discounts, party), dice worth keeping)

    def choose(self, state: Any, decision: Decision) -> int:
        st: HHState = state
        kind = st.dkind
        fn = _WITH_BOT.get(kind)
        if fn is not None:
            return fn(st, st.moves, self)
        fn = _BY_KIND.get(kind)
        return fn(st, st.moves) if fn else 0


def _hero_value(st: HHState, h: PartyHero | None) -> float:
    if h is None:
        return 0.0
    return st.model.deck[h.card].value + (2.0 * h.tlevel if h.treasure >= 0 else 0.0)


_SHORTLIST = 2


_ENTRY = attrgetter("card", "treasure", "tlevel")


def _party_key(party: list[PartyHero]) -> tuple:
    """The party as the planner's key: its (card, treasure, level) entries, sorted."""
    return tuple(sorted(map(_ENTRY, party)))


def _action(st: HHState, moves: list, bot: "HeuristicBot") -> int:
    cands = []
    for i, (kind, card) in enumerate(moves):
        if kind == "play":
            return i
        if kind == "recruit":
            cands.append(i)
    if not cands:
        return len(moves) - 1
    game = game_plan(st)
    plan = game.plan
    key = _party_key(st.parties[st.current])
    if len(cands) > _SHORTLIST:   # rank roughly, then look closely at the best few
        cands.sort(key=lambda i: -game.rough(key, moves[i][1]))
        del cands[_SHORTLIST:]
    cur = plan.strength(key)
    best, best_gain, best_drop = len(moves) - 1, 0.05, None
    for i in cands:
        v, drop = plan.swap(key, moves[i][1])
        if v - cur > best_gain:
            best, best_gain, best_drop = i, v - cur, drop
    bot.drop = best_drop
    return best


def _lowest_hero(st: HHState, moves: list, bot: "HeuristicBot") -> int:
    drop = bot.drop
    bot.drop = None
    if drop is not None:
        for i, h in enumerate(moves):
            if (h.card, h.treasure, h.tlevel) == drop:
                return i
    plan = game_plan(st).plan
    key = _party_key(st.parties[st.current])

    def without(h: PartyHero) -> float:
        e = (h.card, h.treasure, h.tlevel)
        i = key.index(e)
        return plan.strength(key[:i] + key[i + 1:])
    return max(range(len(moves)), key=lambda i: (without(moves[i]), -i))


def _hand_discard(st: HHState, moves: list, bot: "HeuristicBot") -> int:
    """Discard the card the party needs least (a rough look; the close one comes when recruiting)."""
    key = _party_key(st.parties[st.current])
    memo = bot.discards
    if memo is None or memo[0] != key:
        memo = bot.discards = (key, {})
    worth = memo[1]
    deck = st.model.deck
    best, best_v = 0, None
    for i, c in enumerate(moves):
        v = worth.get(c)
        if v is None:
            v = worth[c] = 1.0 if deck[c].is_action else game_plan(st).rough(key, c)
        if best_v is None or v < best_v:
            best, best_v = i, v
    return best


def _party_recs(st: HHState) -> dict:
    """id(hero) -> planner record, for the heroes of the current party."""
    plan = game_plan(st).plan
    out = {}
    for h in st.parties[st.current]:   # plain loops in the bot: a comprehension is a call
        out[id(h)] = plan.plain[h.card] if h.treasure < 0 else plan.record((h.card, h.treasure, h.tlevel))
    return out


def _rec(plan: Any, h: PartyHero) -> tuple:
    """The planner record of one party hero (for the few a roll decision reads)."""
    return plan.plain[h.card] if h.treasure < 0 else plan.record((h.card, h.treasure, h.tlevel))


_CARD_ACTIVE = attrgetter("card", "active")
def _roll(st: HHState, moves: list, bot: "HeuristicBot") -> int:
    # options come as: activations, keep/release, reroll, stop
    early = len(moves) >= 2 and moves[-2][0] == "reroll"
    if moves[0][0] == "act":
        counts = [0] * 7
        for f, lk in zip(st.faces, st.locked):
            if not lk:
                counts[f] += 1
        if not early:   # this roll is the last one (or every free die is kept): make the most of it
            best = _last_roll(st, moves, counts, _party_recs(st))
            if best >= 0:
                return best
        # 1. activate: the most valuable hero; among its payments the face we have fewest of.
        # While a reroll is left, X dice are not locked for a hero when a stronger inactive
        # X hero could still complete its set from the free dice (extra dice/rerolls excepted).
        plan = game_plan(st).plan
        worth = plan.act_worth
        waits: dict[int, bool] = {}
        bigs = None
        best, best_key = -1, None
        for i, mv in enumerate(moves):
            if mv[0] != "act":
                break
            h, pay = mv[1], mv[2]
            kind = pay[0]
            if kind == "dice" and early:
                w = waits.get(id(h))
                if w is None:
                    me = _rec(plan, h)
                    w = False
                    if not (me[2] or me[3]):
                        if bigs is None:
                            bigs = _stronger_sets(st, counts, plan)
                        sv, n = me[1], pay[2]
                        for x, sval, need in bigs:
                            if x is not h and sval > sv and need > n:
                                w = True
                                break
                    waits[id(h)] = w
                if w:
                    continue
            if kind == "dice":   # a spare payment (free, steam) adds 1 to the worth
                key = (worth[h.card], -(counts[pay[1]] - pay[2]), -pay[2])
            elif kind == "exact":
                key = (worth[h.card], 0, -pay[2])
            else:
                key = (worth[h.card] + 1.0, 0, -pay[2])
            if best_key is None or key > best_key:
                best, best_key = i, key
        if best >= 0:
            return best
    # 2. keep dice towards the most promising missing heroes (worked out once per roll)
    mkey = (tuple(st.faces), tuple(st.locked), tuple(st.discounts),
            tuple(map(_CARD_ACTIVE, st.parties[st.current])))
    memo = bot.want
    if memo is not None and memo[0] == mkey:
        want = memo[1]
    else:
        want = _wanted_dice(st)
        bot.want = (mkey, want)
    for i, mv in enumerate(moves):
        if mv[0] == "keep" and mv[1] in want:
            return i
        if mv[0] == "release" and mv[1] not in want:
            return i
    return len(moves) - 2 if early else len(moves) - 1


def _stronger_sets(st: HHState, counts: list[int], plan: Any) -> list[tuple]:
    """(hero, strength, dice needed) for the inactive X-cost heroes whose set the free dice
    could still make."""
    disc = max(st.discounts) if st.discounts else 0
    free = sum(counts)
    deck = st.model.deck
    out = []
    for x in st.parties[st.current]:
        if not x.active:
            xn = deck[x.card].xn
            if xn and xn - disc <= free:
                out.append((x, _rec(plan, x)[1], xn - disc))
    return out


def _last_roll(st: HHState, moves: list, counts: list[int], recs: dict) -> int:
    """No reroll left: pick the activation that leads to the most strength, looking one
    activation ahead and finishing greedily (a reducer first can let a bigger hero in)."""
    inactive = []
    for h in st.parties[st.current]:
        if not h.active:
            inactive.append(h)
    disc = max(st.discounts) if st.discounts else 0
    best, best_v = -1, -1.0
    for i, mv in enumerate(moves):
        if mv[0] != "act":
            continue
        h, pay = mv[1], mv[2]
        c = list(counts)
        d, steam = disc, st.steam
        if pay[0] == "dice":
            c[pay[1]] -= pay[2]
        elif pay[0] == "exact":
            f = recs[id(h)][0]
            for face, n in f.faces:
                c[face] -= n
        elif pay[0] == "steam":
            steam = 0          # steam pays one hero; the rest is lost
        if pay[3]:
            rest_disc = list(st.discounts)
            rest_disc.remove(pay[3])
            d = max(rest_disc) if rest_disc else 0
        r = recs[id(h)]
        f = r[0]
        if f.disc:
            d = max(d, f.disc)
        steam += r[4]
        rest = inactive[:]
        if h in rest:
            rest.remove(h)
        v = r[1] + _greedy_finish(rest, recs, c, d, steam, f.act_limit)
        # keep big sets whole: pay from the face we have fewest of
        v -= 0.01 * (c[pay[1]] if pay[0] == "dice" else 0)
        if v > best_v:
            best, best_v = i, v
    return best


def _greedy_finish(rest: list, recs: dict, c: list[int], disc: int, steam: int, free_limit: int) -> float:
    """Strength the remaining heroes add when activated greedily, strongest payable first
    (`rest` is the caller's own copy: activated heroes leave it)."""
    total = 0.0
    if free_limit >= 0:
        best = None
        for x in rest:   # the first of the strongest within the free activation's limit
            r = recs[id(x)]
            if r[0].strength <= free_limit and (best is None or r[1] > recs[id(best)][1]):
                best = x
        if best is not None:
            total += recs[id(best)][1]
            rest.remove(best)
    while rest:
        pick, pick_v, pick_pay = None, -1.0, None
        for x in rest:
            r = recs[id(x)]
            f = r[0]
            pay = None
            if f.steam_cost and steam >= f.steam_cost:
                pay = ("steam",)
            elif f.xn:
                need = f.xn - disc
                if need <= 0:
                    pay = ("free",)
                else:
                    face = -1
                    for g in range(1, 7):
                        if c[g] >= need and (face < 0 or c[g] < c[face]):
                            face = g
                    if face > 0:
                        pay = ("dice", face, need, disc > 0)
            elif f.faces:
                if all(c[g] >= n for g, n in f.faces):
                    pay = ("exact",)
            if pay is not None and r[1] > pick_v:
                pick, pick_v, pick_pay = x, r[1], pay
        if pick is None:
            break
        f = recs[id(pick)][0]
        kind = pick_pay[0]
        if kind == "steam":
            steam = 0
        elif kind == "free":
            disc = 0
        elif kind == "dice":
            c[pick_pay[1]] -= pick_pay[2]
            if pick_pay[3]:
                disc = 0
        else:
            for g, n in f.faces:
                c[g] -= n
        if f.disc:
            disc = max(disc, f.disc)
        steam += recs[id(pick)][4]
        total += pick_v
        rest.remove(pick)
    return total


def _wanted_dice(st: HHState) -> set[int]:
    faces, locked = st.faces, st.locked
    free, counts = [], [0] * 7
    for i, f in enumerate(faces):
        if f and not locked[i]:
            free.append(i)
            counts[f] += 1
    deck = st.model.deck
    disc = max(st.discounts) if st.discounts else 0
    plans: list[tuple[float, set[int]]] = []
    face, same = 0, set()   # every X hero collects the commonest face (the highest of a tie)
    for h in st.parties[st.current]:
        if h.active:
            continue
        c = deck[h.card]
        if c.xn:
            need = c.xn - disc
            if not face:
                face, most = 6, counts[6]
                for f in (5, 4, 3, 2, 1):
                    if counts[f] > most:
                        face, most = f, counts[f]
                same = set()
                for i in free:
                    if faces[i] == face:
                        same.add(i)
            keep = same
            missing = need - min(counts[face], need)
        elif c.exact:
            keep, missing = set(), 0
            for f in c.exact:   # the first free die showing each face the hero needs
                for i in free:
                    if faces[i] == f and i not in keep:
                        keep.add(i)
                        break
                else:
                    missing += 1
        else:
            continue
        plans.append((c.value / (1.0 + missing * missing), keep))
    plans.sort(key=itemgetter(0), reverse=True)   # stable: equal values keep party order
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
            # a face-down card shows only its level (never read who it is, even when known)
            expect = 3 if face_down_level(mons, s.cards[-1]) == 1 else 7
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
    """The die showing the face the free dice show least (the lowest such face, its first die):
    turning it is the likeliest to complete a set. Nothing with fewer than two free dice."""
    free = [f for i, f in enumerate(st.faces) if f and not st.locked[i]]
    if len(free) < 2:
        return len(moves) - 1
    faces = st.faces
    return min(range(len(moves) - 1), key=lambda k: (free.count(faces[moves[k]]), faces[moves[k]], moves[k]))


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


_WITH_BOT = {"action": _action, "party-discard": _lowest_hero, "hand-discard": _hand_discard, "roll": _roll}

_BY_KIND = {
    "attack": _attack, "damage": _damage, "treasure": _treasure, "capture": _capture,
    "activate-hero": _activate_hero, "set-die-which": _set_die_which, "set-die-face": _set_die_face,
    "move-which": _move_which, "move-where": _move_where,
}


class ExploreBot:
    """The heuristic bot, made curious so that a smoke run covers all of the content: half of
    the time it recruits or plays a card of its hand at random instead of the one it rates
    best. Balance figures from it say how the content plays when every card is tried."""

    __slots__ = ("seat", "rng", "other")
    CURIOSITY = 0.5
    reads_hidden = False   # the heuristic's reads, plus its own dice (its rng)

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.other = HeuristicBot(seat, rng)

    def choose(self, state: Any, decision: Decision) -> int:
        if state.dkind == "action" and len(state.moves) > 1 and self.rng.random() < self.CURIOSITY:
            return self.rng.randrange(len(state.moves) - 1)      # any card but "end the phase"
        return self.other.choose(state, decision)
