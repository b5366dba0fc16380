"""Invariants checked after every step: nothing created or lost, limits held.

Why this shape: every smoke game runs the check after every step, so it must cost little next
to a step. The invariants fall into areas (areas.py), each a pure function of a few pieces of the
state: the hero-deck cards, the horde, the treasures, the town cards, the limits, the tokens and
the dice. The rules mark each area they change (`HHState.dirty`); a check tests only the marked
areas and clears the marks once they hold, so a step that changes nothing the invariants read
(choosing a stack to attack, say) costs one test of an integer. The quick tests build no
message; only when one fails does `_problems` walk the state again to name each broken
invariant, and the marks stay set so the next check tests again.

Nothing is skipped as long as every change is marked: `unmarked` compares what each area reads
before and after a step with the marks the step left, and the tests run it over many games.
"""
from __future__ import annotations

from itertools import chain, compress
from operator import add, and_, attrgetter, sub
from typing import TYPE_CHECKING, Any, Callable

from engine.core.marks import unmarked_areas
from engine.hordes_and_heroes.areas import (ALL, CARDS, DICE, HIDDEN_L1, HIDDEN_L2, HORDE, LIMITS, NAMES, TOKENS,
                                            TOWNS, TREASURES)

if TYPE_CHECKING:
    from engine.hordes_and_heroes.model import Model
    from engine.hordes_and_heroes.state import HHState

_CARD = attrgetter("card")
_CARDS = attrgetter("cards")
_ACTIVE = attrgetter("active")
_TREASURE = attrgetter("treasure", "tlevel")


class Totals:
    """What the invariants compare with, per model: the copies of each hero-deck card, monster,
    treasure and town card, the limits, and which monsters hide in which kind of slot."""

    __slots__ = ("model", "deck", "monsters", "treasures", "towns", "hand_bonus", "bonus_never_lowers",
                 "party_limit", "hand_limit", "level1", "level2", "discard_seen", "not_discarded")

    def __init__(self, m: "Model") -> None:
        self.model = m
        self.deck = [c.quantity for c in m.deck]
        self.monsters = [x.quantity for x in m.monsters]
        self.treasures = [t.quantity for t in m.treasures]
        self.towns = [t.quantity for t in m.towns]
        self.hand_bonus = [c.hand_bonus for c in m.deck]
        self.bonus_never_lowers = min(self.hand_bonus, default=0) >= 0
        self.party_limit = m.rules.party_limit
        self.hand_limit = m.rules.hand_limit
        self.level1 = [x.level == 1 for x in m.monsters]     # hide in level 1 slots
        self.level2 = [x.level != 1 for x in m.monsters]     # level 2 monsters and bosses
        self.discard_seen: list[int] = []
        self.not_discarded: list[int] = []

    def outside_discard(self, discard: list[int]) -> list[int]:
        """The copies of each hero-deck card not in a discard pile of these counts. Remembered for
        the last pile seen: the pile changes far less often than the deck and the hands."""
        if discard != self.discard_seen:
            self.discard_seen = discard[:]
            self.not_discarded = list(map(sub, self.deck, discard))
        return self.not_discarded


_last: Totals | None = None    # the totals of the model last checked: one model per process, usually


def _totals(m: "Model") -> Totals:
    global _last
    last = _last
    if last is None or last.model is not m:
        last = _last = Totals(m)
    return last


def check(st: "HHState") -> list[str]:
    """Every broken invariant of the state, named; [] when all hold. Tests the marked areas only.

    A quick test that fails hands over to the walk that names each problem; the marks stay, so
    the next check tests the same areas again."""
    tot = _totals(st.model)
    for test in _PLAN[st.dirty]:
        if not test(st, tot):
            problems = _problems(st)
            if problems:
                return problems
    st.dirty = 0
    return []


def _hero_card_copies(st: "HHState") -> list[int]:
    """Copies of each hero-deck card in the deck, the discard pile, the hands, the parties, in
    play and (in a scenario) left in the box."""
    have = _add_held(st, list(map(add, st.deck_counts, st.discard_counts)))
    return list(map(add, have, st.deck_box)) if st.deck_box else have


def _add_held(st: "HHState", have: list[int]) -> list[int]:
    """`have` with the hero-deck cards in the hands, the parties and in play added, by card."""
    for c in chain(chain.from_iterable(st.hands), st.in_play):
        have[c] += 1
    for h in chain.from_iterable(st.parties):
        have[h.card] += 1
    return have


def _monster_copies(st: "HHState") -> tuple[list[int], int, int]:
    """Copies of each monster (hidden pool, stacks, set aside, victory piles, scenario box), and
    the hidden level 1 and level 2 slots in the stacks."""
    mons = [0] * (len(st.pool) + 2)   # hidden slots count at the end (HIDDEN_L1 is -1, HIDDEN_L2 -2)
    for c in chain(chain.from_iterable(map(_CARDS, st.line)), st.set_aside, chain.from_iterable(st.victory)):
        mons[c] += 1
    hidden1, hidden2 = mons[HIDDEN_L1], mons[HIDDEN_L2]
    del mons[-2:]
    mons = list(map(add, mons, st.pool))
    return (list(map(add, mons, st.monster_box)) if st.monster_box else mons), hidden1, hidden2


def _hidden_in_pool(st: "HHState") -> tuple[int, int]:
    """Unrevealed level 1 monsters, and unrevealed level 2 monsters and bosses."""
    tot = _totals(st.model)
    return sum(compress(st.pool, tot.level1)), sum(compress(st.pool, tot.level2))


def _treasure_copies(st: "HHState") -> list[int]:
    """Copies of each treasure in the deck, the discard, the box, being drawn or on a hero."""
    tre = list(st.treasure_counts)
    for t in chain(st.treasure_discard, st.box):
        tre[t] += 1
    if st.pending_treasure >= 0:
        tre[st.pending_treasure] += 1
    for h in chain.from_iterable(st.parties):
        if h.treasure >= 0:
            tre[h.treasure] += 1
    return tre


def _town_copies(st: "HHState") -> list[int]:
    """Copies of each town card in the town deck or won (the scenario box not counted)."""
    town = list(st.town_counts)
    for t in chain.from_iterable(st.towns_won):
        town[t] += 1
    return town


def _no_negative(*counts: list[int]) -> bool:
    """No list holds a negative count (min() of an empty list would raise)."""
    for values in counts:
        if values and min(values) < 0:
            return False
    return True


def _cards_hold(st: "HHState", tot: Totals) -> bool:
    """No hero-deck card created or lost; deck and discard sizes in step; no negative count."""
    deck, disc = st.deck_counts, st.discard_counts
    if sum(deck) != st.deck_size or sum(disc) != st.discard_size or not _no_negative(deck, disc):
        return False
    have = _add_held(st, deck[:])
    if st.deck_box:
        have = list(map(add, have, st.deck_box))
    return have == tot.outside_discard(disc)


def _horde_holds(st: "HHState", tot: Totals) -> bool:
    """No monster created or lost; hidden slots match the unrevealed monsters; no empty stack in
    the line, no hidden card face up; no negative count."""
    for s in st.line:
        if not s.cards or (s.up and s.cards[-1] < 0):
            return False
    if not _no_negative(st.pool):
        return False
    mons, hidden1, hidden2 = _monster_copies(st)
    return mons == tot.monsters and (hidden1, hidden2) == _hidden_in_pool(st)


def _treasures_hold(st: "HHState", tot: Totals) -> bool:
    """No treasure created or lost; a treasure on a hero shows level 1 or 2; no negative count."""
    for h in chain.from_iterable(st.parties):
        if h.treasure >= 0 and h.tlevel != 1 and h.tlevel != 2:
            return False
    return _no_negative(st.treasure_counts) and _treasure_copies(st) == tot.treasures


def _towns_hold(st: "HHState", tot: Totals) -> bool:
    """No town card created or lost; no negative count."""
    town = _town_copies(st)
    if st.town_box:
        town = list(map(add, town, st.town_box))
    return town == tot.towns and _no_negative(st.town_counts)


def _limits_hold(st: "HHState", tot: Totals) -> bool:
    """Parties within the limit; outside their turn, players within their hand limit and with no
    active hero. When no card lowers the hand limit, hands no larger than the base limit need no
    bonus summed."""
    parties, hands, current = st.parties, st.hands, st.current
    if max(map(len, parties)) > tot.party_limit:
        return False
    if True in map(_ACTIVE, chain.from_iterable(parties[:current] + parties[current + 1:])):
        return False
    others = hands[:current] + hands[current + 1:]
    if tot.bonus_never_lowers and (not others or max(map(len, others)) <= tot.hand_limit):
        return True
    return all(seat == current or len(hand) <= st.hand_limit(seat) for seat, hand in enumerate(hands))


def _tokens_hold(st: "HHState", tot: Totals) -> bool:
    """No negative token."""
    return min(st.steam, st.shield, st.rerolls, st.doom, st.bonus_strength) >= 0


def _dice_hold(st: "HHState", tot: Totals) -> bool:
    """Dice faces 0-6 (0: not rolled yet), no die both locked and kept."""
    faces = st.faces
    if faces and (min(faces) < 0 or max(faces) > 6):
        return False
    return True not in map(and_, st.locked, st.kept)


Test = Callable[["HHState", Totals], bool]
_TESTS: tuple[tuple[int, Test], ...] = (
    (DICE, _dice_hold), (LIMITS, _limits_hold), (CARDS, _cards_hold), (TOKENS, _tokens_hold),
    (HORDE, _horde_holds), (TREASURES, _treasures_hold), (TOWNS, _towns_hold))
# the tests to run for each value of `HHState.dirty`, so a check loops over marked areas only
_PLAN: list[tuple[Test, ...]] = [tuple(test for bit, test in _TESTS if marks & bit) for marks in range(ALL + 1)]


def inputs(st: "HHState") -> dict[int, str]:
    """What each area's invariants read, written out (a copy): for `unmarked`."""
    heroes = list(chain.from_iterable(st.parties))
    party_cards = [list(map(_CARD, p)) for p in st.parties]
    return {
        CARDS: repr((st.deck_counts, st.discard_counts, st.hands, st.in_play, party_cards, st.deck_box,
                     st.deck_size, st.discard_size)),
        HORDE: repr(([(id(s), s.cards, s.up) for s in st.line], st.set_aside, st.victory, st.pool, st.monster_box)),
        TREASURES: repr((st.treasure_counts, st.treasure_discard, st.box, st.pending_treasure,
                         [_TREASURE(h) for h in heroes if h.treasure >= 0])),
        TOWNS: repr((st.town_counts, st.towns_won, st.town_box)),
        LIMITS: repr((st.current, party_cards, list(map(len, st.hands)), list(map(_ACTIVE, heroes)))),
        TOKENS: repr((st.steam, st.shield, st.rerolls, st.doom, st.bonus_strength)),
        DICE: repr((st.faces, st.locked, st.kept)),
    }


def unmarked(before: dict[int, str], st: "HHState") -> list[str]:
    """The areas whose contents differ from `before` (taken by `inputs`) although the state does
    not mark them changed: changes a check would miss."""
    return unmarked_areas(before, inputs(st), st.dirty, NAMES)


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
