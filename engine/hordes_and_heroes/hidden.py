"""What each seat may see in Hordes & Heroes, and an evaluation for truncated search rollouts.

Hidden from a seat: the cards in the other players' hands (their number is public) and the
order of the hero deck. Everything else lies open on the table. Face-down horde cards and the
hero deck hold no identities in the state at all (cards are drawn when revealed), so the only
thing to hide is which cards sit in the other hands: together with the hero deck they form one
pool the seat cannot tell apart. Redacting deals the other hands canonically from that pool
(lowest card indices first); resampling deals them at random from it. A scenario may name the
cards under the stack tops: those are face down too, so they are dealt again among their places
in the same way (`_rearrange`), and the observation shows only their backs.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Callable

from engine.hordes_and_heroes.areas import CARDS, HORDE, LIMITS

if TYPE_CHECKING:
    from engine.hordes_and_heroes.state import HHState


def _pool_others(st: "HHState", seat: int) -> list[tuple[int, list[int]]]:
    """Move every other hand into the deck counts; return what was there, to put it back."""
    counts = st.deck_counts
    taken = []
    for q, hand in enumerate(st.hands):
        if q != seat and hand:
            taken.append((q, hand[:]))
            for c in hand:
                counts[c] += 1
    return taken


def _deal(st: "HHState", seat: int, pick) -> None:  # noqa: ANN001
    """Refill the other hands, in place and to their sizes, with cards `pick` takes from the deck."""
    counts = st.deck_counts
    for q, hand in enumerate(st.hands):
        if q != seat and hand:
            for i in range(len(hand)):
                c = pick(counts)
                counts[c] -= 1
                hand[i] = c


def _canonical(hands: list[list[int]], counts: list[int], seat: int) -> tuple[tuple, tuple[int, ...]]:
    """The other hands dealt the lowest card indices of the unseen pool, seat by seat (None for
    the seat's own hand and for empty ones), and the deck counts left; one walk up the pool."""
    pool = counts[:]
    for q, hand in enumerate(hands):
        if q != seat:
            for c in hand:
                pool[c] += 1
    dealt: list[tuple[int, ...] | None] = []
    i = 0
    for q, hand in enumerate(hands):
        if q == seat or not hand:
            dealt.append(None)
            continue
        cards = []
        for _ in hand:
            while not pool[i]:
                i += 1
            pool[i] -= 1
            cards.append(i)
        dealt.append(tuple(cards))
    return tuple(dealt), tuple(pool)


def redact(st: "HHState", seat: int) -> Any:
    """Deal the other hands canonically: the lowest card indices of the unseen pool.

    The redacted hands and deck counts are new lists swapped in for the real ones, which the
    token keeps, so restoring is two assignments. The seat's own hand stays the same list, so
    rules holding it keep working. The canonical deal is remembered per seat with the deck
    counts and other hands it was made from: bots decide many times between two draws (every
    step of a roll), and comparing short lists is far cheaper than dealing again. The memo only
    hands out fresh copies, so nothing done to a redacted state or its clones can change it, and
    it is swapped out with the real hands while the state is redacted, so no bot can read it."""
    hands, counts = st.hands, st.deck_counts
    others = hands[:seat] + hands[seat + 1:]
    memo = st.redactions.get(seat)
    if memo is None or memo[0] != counts or memo[1] != others:
        dealt, pool = _canonical(hands, counts, seat)
        memo = st.redactions[seat] = (counts[:], [h[:] for h in others], dealt, pool)
    dealt = memo[2]
    st.hands = [hand if dealt[q] is None else list(dealt[q]) for q, hand in enumerate(hands)]
    st.deck_counts = list(memo[3])
    token = hands, counts, _rearrange(st, sorted), st.redactions
    # The memo holds the real hands: the token keeps it while a bot reads the state, which gets
    # an empty one of its own.
    st.redactions = {}
    return token


def restore(st: "HHState", token: Any) -> None:
    """Put back the real hands, deck counts, stacks and memo that `redact` swapped out."""
    if token:
        st.hands, st.deck_counts, stacks, st.redactions = token
        for s, cards in stacks:
            s.cards = cards


def _rearrange(st: "HHState", order: Callable[[list[int]], list[int]]) -> list[tuple[Any, list[int]]]:
    """Deal the named face-down horde cards again among their own places, level by level, in
    the order `order` gives; return each changed stack with its real cards, for `restore`.

    A game set up by the rules never names a face-down card (it is drawn when revealed), but a
    scenario lays out named cards under the tops. A seat sees only their backs, so a redacted
    state deals them canonically (sorted) and a resampled one at random; which cards lie face
    down is known, as in a real game (every card not yet seen)."""
    if st.situation is None:
        return []
    mons = st.model.monsters
    places: dict[int, list[tuple[Any, int]]] = {}
    for s in st.line:
        top = len(s.cards) - 1
        for i, c in enumerate(s.cards):
            if c >= 0 and not (i == top and s.up):
                places.setdefault(face_down_level(mons, c), []).append((s, i))
    saved: dict[int, tuple[Any, list[int]]] = {}
    for spots in places.values():
        cards = order([s.cards[i] for s, i in spots])
        for (s, i), c in zip(spots, cards):
            if id(s) not in saved:
                saved[id(s)] = (s, s.cards)
                s.cards = s.cards[:]
            s.cards[i] = c
    return list(saved.values())


def resample(st: "HHState", seat: int, rng: random.Random) -> None:
    if _rearrange(st, lambda cards: rng.sample(cards, len(cards))):
        st.dirty |= HORDE
    if not _pool_others(st, seat):
        return
    st.dirty |= CARDS | LIMITS

    def pick(counts: list[int]) -> int:
        r = rng.randrange(sum(counts))
        for i, c in enumerate(counts):
            r -= c
            if r < 0:
                return i
        raise RuntimeError("empty hero deck")

    _deal(st, seat, pick)


def face_down_level(mons: Any, card: int) -> int:
    """The level a face-down horde card shows on its back: 1, or 2 for level 2 and bosses alike.
    `card` is a monster index or a hidden slot (HIDDEN_L1 is -1, HIDDEN_L2 is -2)."""
    return min(mons[card].level, 2) if card >= 0 else -card


def observation(st: "HHState", seat: int) -> dict[str, Any]:
    """Everything `seat` sees: its own hand, the sizes of the others, and the open table."""
    m = st.model
    deck, mons = m.deck, m.monsters

    def stack_view(s: Any) -> list[str]:
        # Only a face-up top is named. A face-down card shows its back, which tells level 1 from
        # level 2 and nothing more: a boss looks like any level 2 card. A scenario may name the
        # cards under a top; they are face down all the same.
        top = len(s.cards) - 1
        return [mons[c].id if i == top and s.up else f"face-down level {face_down_level(mons, c)}"
                for i, c in enumerate(s.cards)]

    return {
        "seat": seat, "turn": st.turns, "current": st.current, "phase": st.phase,
        "hand": sorted(deck[c].id for c in st.hands[seat]),
        "hand_sizes": [len(h) for h in st.hands],
        "hero_deck_and_other_hands": sum(st.deck_counts) + sum(len(h) for q, h in enumerate(st.hands) if q != seat),
        "discard": {deck[i].id: n for i, n in enumerate(st.discard_counts) if n},
        "parties": [[{"hero": deck[h.card].id, "active": h.active,
                      "treasure": m.treasures[h.treasure].id if h.treasure >= 0 else None, "level": h.tlevel}
                     for h in p] for p in st.parties],
        "horde": [{"stack": s.name, "cards": stack_view(s), "up": s.up} for s in st.line],
        "victory": [sorted(mons[c].id for c in v) for v in st.victory],
        "towns_destroyed": [sorted(m.towns[t].id for t in v) for v in st.towns_won],
        "dice": list(st.faces), "doom": st.doom, "final_round": st.final,
    }


def evaluate(st: "HHState") -> list[float]:
    """Each seat's chance-like value in [0, 1]: experience plus the fighting power of its party
    and hand, compared with the best other seat. Used to score truncated rollouts."""
    deck = st.model.deck
    worth = []
    for s in range(st.n):
        party = sum(deck[h.card].value + deck[h.card].strength for h in st.parties[s])
        hand = sum(deck[c].value for c in st.hands[s])
        worth.append(st.score(s) + 0.5 * party + 0.2 * hand)
    if st.n == 1:
        return [1.0 / (1.0 + math.exp(-worth[0] / 10.0))]
    out = []
    for s in range(st.n):
        best_other = max(w for q, w in enumerate(worth) if q != s)
        out.append(1.0 / (1.0 + math.exp(-(worth[s] - best_other) / 6.0)))
    return out
