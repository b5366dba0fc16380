"""What each seat may see in Hordes & Heroes, and an evaluation for truncated search rollouts.

Hidden from a seat: the cards in the other players' hands (their number is public) and the
order of the hero deck. Everything else lies open on the table. Face-down horde cards and the
hero deck hold no identities in the state at all (cards are drawn when revealed), so the only
thing to hide is which cards sit in the other hands: together with the hero deck they form one
pool the seat cannot tell apart. Redacting deals the other hands canonically from that pool
(lowest card indices first); resampling deals them at random from it.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

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
    hands out fresh copies, so nothing done to a redacted state or its clones can change it."""
    hands, counts = st.hands, st.deck_counts
    others = hands[:seat] + hands[seat + 1:]
    memo = st.redactions.get(seat)
    if memo is None or memo[0] != counts or memo[1] != others:
        dealt, pool = _canonical(hands, counts, seat)
        memo = st.redactions[seat] = (counts[:], [h[:] for h in others], dealt, pool)
    dealt = memo[2]
    st.hands = [hand if dealt[q] is None else list(dealt[q]) for q, hand in enumerate(hands)]
    st.deck_counts = list(memo[3])
    return hands, counts


def restore(st: "HHState", token: Any) -> None:
    """Put back the real hands and deck counts that `redact` swapped out."""
    if token:
        st.hands, st.deck_counts = token


def resample(st: "HHState", seat: int, rng: random.Random) -> None:
    if not _pool_others(st, seat):
        return

    def pick(counts: list[int]) -> int:
        r = rng.randrange(sum(counts))
        for i, c in enumerate(counts):
            r -= c
            if r < 0:
                return i
        raise RuntimeError("empty hero deck")

    _deal(st, seat, pick)


def observation(st: "HHState", seat: int) -> dict[str, Any]:
    """Everything `seat` sees: its own hand, the sizes of the others, and the open table."""
    m = st.model
    deck, mons = m.deck, m.monsters

    def stack_view(s: Any) -> list[str]:
        # a revealed card keeps its identity (everyone saw it); a hidden slot knows only its level
        return [mons[c].id if c >= 0 else f"face-down level {-c}" for c in s.cards]

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
