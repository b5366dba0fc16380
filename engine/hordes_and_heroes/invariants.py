"""Invariants checked after every step in checked mode: nothing created or lost, limits held."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hordes_and_heroes.state import HIDDEN_L1, HIDDEN_L2

if TYPE_CHECKING:
    from engine.hordes_and_heroes.state import HHState


def check(st: "HHState") -> list[str]:
    m = st.model
    out: list[str] = []
    # hero-deck cards: deck + discard + hands + parties + in play (+ left out by a scenario)
    have = list(st.deck_counts)
    for i, c in enumerate(st.discard_counts):
        have[i] += c
    for hand in st.hands:
        for c in hand:
            have[c] += 1
    for party in st.parties:
        for h in party:
            have[h.card] += 1
    for c in st.in_play:
        have[c] += 1
    box = getattr(st, "deck_box", None)
    for card in m.deck:
        extra = box[card.idx] if box else 0
        if have[card.idx] + extra != card.quantity:
            out.append(f"{card.id}: {have[card.idx] + extra} copies in play, expected {card.quantity}")
    if sum(st.deck_counts) != st.deck_size or sum(st.discard_counts) != st.discard_size:
        out.append("hero deck or discard size out of step with its counts")
    # monsters: hidden pool + stacks + set aside + victory piles (+ scenario box)
    mons = [0] * len(m.monsters)
    hidden1 = hidden2 = 0
    for s in st.line:
        if not s.cards:
            out.append(f"{s.name} is empty but still in the line")
        for c in s.cards:
            if c >= 0:
                mons[c] += 1
            elif c == HIDDEN_L1:
                hidden1 += 1
            elif c == HIDDEN_L2:
                hidden2 += 1
        if s.up and s.cards and s.cards[-1] < 0:
            out.append(f"{s.name} shows a hidden card face up")
    for c in st.set_aside:
        mons[c] += 1
    for v in st.victory:
        for c in v:
            mons[c] += 1
    mbox = getattr(st, "monster_box", None)
    for x in m.monsters:
        total = mons[x.idx] + st.pool[x.idx] + (mbox[x.idx] if mbox else 0)
        if total != x.quantity:
            out.append(f"{x.id}: {total} copies, expected {x.quantity}")
    if hidden1 != sum(st.pool[i] for i in st.l1_ids):
        out.append("hidden level 1 slots differ from unrevealed level 1 monsters")
    if hidden2 != sum(st.pool[i] for i in st.l2_ids) + sum(st.pool[i] for i in st.boss_ids):
        out.append("hidden level 2 slots differ from unrevealed level 2 monsters and bosses")
    # treasures and town
    tre = list(st.treasure_counts)
    for t in st.treasure_discard + st.box:
        tre[t] += 1
    if st.pending_treasure >= 0:
        tre[st.pending_treasure] += 1
    for party in st.parties:
        for h in party:
            if h.treasure >= 0:
                tre[h.treasure] += 1
                if h.tlevel not in (1, 2):
                    out.append(f"treasure on {m.deck[h.card].id} shows level {h.tlevel}")
    for t in m.treasures:
        if tre[t.idx] != t.quantity:
            out.append(f"{t.id}: {tre[t.idx]} copies, expected {t.quantity}")
    town = list(st.town_counts)
    for won in st.towns_won:
        for t in won:
            town[t] += 1
    tbox = getattr(st, "town_box", None)
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
