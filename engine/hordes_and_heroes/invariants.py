"""Invariants checked after every step in checked mode: nothing created or lost, limits held.

Why this shape: checked mode runs the check after every step, so it must cost little next to a
step. The invariants fall into groups, each a pure function of a few pieces of the state (the
hero-deck cards, the horde, the treasures, the town cards, the party and hand limits). Each
group's inputs are compared, in C, with the inputs it last found sound (kept on the state); a
group is tested again only when they differ, which most steps (dice, keeping dice) never cause.
The tests compare whole lists against totals made once per model and build no message; only
when one fails does `_problems` walk the state again to name each broken invariant. Nothing is
skipped: a group whose inputs equal sound inputs is sound.
"""
from __future__ import annotations

from itertools import chain
from operator import add, and_, attrgetter
from typing import TYPE_CHECKING, Any

from engine.hordes_and_heroes.state import HIDDEN_L1, HIDDEN_L2

if TYPE_CHECKING:
    from engine.hordes_and_heroes.model import Model
    from engine.hordes_and_heroes.state import HHState

_TOTALS: dict[int, tuple[Any, ...]] = {}
_TREASURE = attrgetter("treasure", "tlevel")
_ACTIVE = attrgetter("active")


def check(st: "HHState") -> list[str]:
    """Every broken invariant of the state, named; [] when all hold."""
    parties = st.parties
    heroes = list(chain.from_iterable(parties))
    groups = (
        (_cards_hold, (st.deck_counts, st.discard_counts, st.hands, st.in_play, parties, st.deck_box,
                       st.deck_size, st.discard_size)),
        (_horde_holds, (st.line, [s.cards for s in st.line], [s.up for s in st.line], st.set_aside, st.victory,
                        st.pool, st.monster_box)),
        (_treasures_hold, (st.treasure_counts, st.treasure_discard, st.box, st.pending_treasure, heroes,
                           list(map(_TREASURE, heroes)))),
        (_towns_hold, (st.town_counts, st.towns_won, st.town_box)),
        (_limits_hold, (st.current, parties, st.hands, list(map(_ACTIVE, heroes)))),
    )
    sound = st.sound
    for test, inputs in groups:
        if sound.get(test) != inputs:
            if not test(st):
                return _problems(st)
            sound[test] = _kept(inputs)
    return [] if _signs_hold(st) else _problems(st)


def _kept(value: Any) -> Any:
    """A copy of a group's inputs to compare later: lists and tuples copied at every level, other
    objects (heroes, stacks) kept as they are, since the inputs compare them by identity."""
    if value.__class__ is list:
        return [_kept(v) for v in value] if value and value[0].__class__ in (list, tuple) else value[:]
    if value.__class__ is tuple:
        return tuple([_kept(v) for v in value])
    return value


def _totals(m: "Model") -> tuple[Any, ...]:
    """Per model: the copies of each hero-deck card, monster, treasure and town card."""
    got = _TOTALS.get(id(m))
    if got is None or got[0] is not m:
        if len(_TOTALS) > 8:
            _TOTALS.clear()
        got = _TOTALS[id(m)] = (m, [c.quantity for c in m.deck], [x.quantity for x in m.monsters],
                                [t.quantity for t in m.treasures], [t.quantity for t in m.towns])
    return got


def _hero_card_copies(st: "HHState") -> list[int]:
    """Copies of each hero-deck card in the deck, the discard pile, the hands, the parties, in
    play and (in a scenario) left in the box."""
    have = list(map(add, st.deck_counts, st.discard_counts))
    for hand in st.hands:
        for c in hand:
            have[c] += 1
    for party in st.parties:
        for h in party:
            have[h.card] += 1
    for c in st.in_play:
        have[c] += 1
    return list(map(add, have, st.deck_box)) if st.deck_box else have


def _monster_copies(st: "HHState") -> tuple[list[int], int, int]:
    """Copies of each monster (hidden pool, stacks, set aside, victory piles, scenario box), and
    the hidden level 1 and level 2 slots in the stacks."""
    mons = [0] * (len(st.pool) + 2)   # hidden slots count at the end (HIDDEN_L1 is -1, HIDDEN_L2 -2)
    for s in st.line:
        for c in s.cards:
            mons[c] += 1
    for c in st.set_aside:
        mons[c] += 1
    for v in st.victory:
        for c in v:
            mons[c] += 1
    hidden1, hidden2 = mons[HIDDEN_L1], mons[HIDDEN_L2]
    del mons[-2:]
    mons = list(map(add, mons, st.pool))
    return (list(map(add, mons, st.monster_box)) if st.monster_box else mons), hidden1, hidden2


def _hidden_in_pool(st: "HHState") -> tuple[int, int]:
    """Unrevealed level 1 monsters, and unrevealed level 2 monsters and bosses."""
    get = st.pool.__getitem__
    return sum(map(get, st.l1_ids)), sum(map(get, st.l2_ids)) + sum(map(get, st.boss_ids))


def _treasure_copies(st: "HHState") -> list[int]:
    """Copies of each treasure in the deck, the discard, the box, being drawn or on a hero."""
    tre = list(st.treasure_counts)
    for t in st.treasure_discard:
        tre[t] += 1
    for t in st.box:
        tre[t] += 1
    if st.pending_treasure >= 0:
        tre[st.pending_treasure] += 1
    for party in st.parties:
        for h in party:
            if h.treasure >= 0:
                tre[h.treasure] += 1
    return tre


def _town_copies(st: "HHState") -> list[int]:
    """Copies of each town card in the town deck or won (the scenario box not counted)."""
    town = list(st.town_counts)
    for won in st.towns_won:
        for t in won:
            town[t] += 1
    return town


def _cards_hold(st: "HHState") -> bool:
    """No hero-deck card created or lost; deck and discard sizes in step; no negative count."""
    return _hero_card_copies(st) == _totals(st.model)[1] and sum(st.deck_counts) == st.deck_size \
        and sum(st.discard_counts) == st.discard_size \
        and min(st.deck_counts, default=0) >= 0 and min(st.discard_counts, default=0) >= 0


def _horde_holds(st: "HHState") -> bool:
    """No monster created or lost; hidden slots match the unrevealed monsters; no empty stack in
    the line, no hidden card face up; no negative count."""
    for s in st.line:
        if not s.cards or (s.up and s.cards[-1] < 0):
            return False
    mons, hidden1, hidden2 = _monster_copies(st)
    return mons == _totals(st.model)[2] and min(st.pool, default=0) >= 0 \
        and (hidden1, hidden2) == _hidden_in_pool(st)


def _treasures_hold(st: "HHState") -> bool:
    """No treasure created or lost; a treasure on a hero shows level 1 or 2; no negative count."""
    for party in st.parties:
        for h in party:
            if h.treasure >= 0 and h.tlevel != 1 and h.tlevel != 2:
                return False
    return _treasure_copies(st) == _totals(st.model)[3] and min(st.treasure_counts, default=0) >= 0


def _towns_hold(st: "HHState") -> bool:
    """No town card created or lost; no negative count."""
    town = _town_copies(st)
    if st.town_box:
        town = list(map(add, town, st.town_box))
    return town == _totals(st.model)[4] and min(st.town_counts, default=0) >= 0


def _limits_hold(st: "HHState") -> bool:
    """Parties within the limit; outside their turn, players within their hand limit and with no
    active hero."""
    limit = st.model.rules.party_limit
    for seat, party in enumerate(st.parties):
        if len(party) > limit:
            return False
        if seat != st.current:
            if len(st.hands[seat]) > st.hand_limit(seat):
                return False
            for h in party:
                if h.active:
                    return False
    return True


def _signs_hold(st: "HHState") -> bool:
    """No negative token or size, dice faces 0-6, no die both locked and kept: cheap, so always
    run (negative card counts are tested with their group)."""
    if min(st.steam, st.shield, st.rerolls, st.doom, st.deck_size, st.discard_size, st.bonus_strength) < 0:
        return False
    faces = st.faces
    if faces and (min(faces) < 0 or max(faces) > 6):
        return False
    return not any(map(and_, st.locked, st.kept))


def _problems(st: "HHState") -> list[str]:
    """Every broken invariant, each named: the slow walk, run only when a quick test fails."""
    m = st.model
    out: list[str] = []
    have = _hero_card_copies(st)
    for card in m.deck:
        if have[card.idx] != card.quantity:
            out.append(f"{card.id}: {have[card.idx]} copies in play, expected {card.quantity}")
    if sum(st.deck_counts) != st.deck_size or sum(st.discard_counts) != st.discard_size:
        out.append("hero deck or discard size out of step with its counts")
    for s in st.line:
        if not s.cards:
            out.append(f"{s.name} is empty but still in the line")
        elif s.up and s.cards[-1] < 0:
            out.append(f"{s.name} shows a hidden card face up")
    mons, hidden1, hidden2 = _monster_copies(st)
    for x in m.monsters:
        if mons[x.idx] != x.quantity:
            out.append(f"{x.id}: {mons[x.idx]} copies, expected {x.quantity}")
    in_pool1, in_pool2 = _hidden_in_pool(st)
    if hidden1 != in_pool1:
        out.append("hidden level 1 slots differ from unrevealed level 1 monsters")
    if hidden2 != in_pool2:
        out.append("hidden level 2 slots differ from unrevealed level 2 monsters and bosses")
    for party in st.parties:
        for h in party:
            if h.treasure >= 0 and h.tlevel not in (1, 2):
                out.append(f"treasure on {m.deck[h.card].id} shows level {h.tlevel}")
    tre = _treasure_copies(st)
    for t in m.treasures:
        if tre[t.idx] != t.quantity:
            out.append(f"{t.id}: {tre[t.idx]} copies, expected {t.quantity}")
    town = _town_copies(st)
    tbox = st.town_box
    for t in m.towns:
        if town[t.idx] + (tbox[t.idx] if tbox else 0) != t.quantity:
            out.append(f"{t.id}: {town[t.idx]} copies, expected {t.quantity}")
    # limits and counts
    for seat in range(st.n):
        if len(st.parties[seat]) > st.model.rules.party_limit:
            out.append(f"player {seat + 1} has {len(st.parties[seat])} heroes in the party")
        if seat != st.current and len(st.hands[seat]) > st.hand_limit(seat):
            out.append(f"player {seat + 1} holds {len(st.hands[seat])} cards outside their turn")
        if any(h.active for h in st.parties[seat]) and seat != st.current:
            out.append(f"player {seat + 1} has active heroes outside their turn")
    for name in ("steam", "shield", "rerolls", "doom", "deck_size", "discard_size", "bonus_strength"):
        if getattr(st, name) < 0:
            out.append(f"{name} is negative")
    if any(c < 0 for c in st.deck_counts + st.discard_counts + st.pool + st.town_counts + st.treasure_counts):
        out.append("a negative card count")
    if any(f < 0 or f > 6 for f in st.faces) or any(lk and k for lk, k in zip(st.locked, st.kept)):
        out.append("dice in an impossible state")
    return out
