"""The areas of a Hordes & Heroes state that the invariants read, as bits of `HHState.dirty`.

Why marks: the invariants run after every step of every smoke game, and most steps (a die
rolled, a die kept) leave most areas alone. Whatever changes an area sets its bit; the next
check tests only the marked areas and clears the bits once they hold. A test plays many games
and proves every change the rules make is marked (`invariants.unmarked`).
"""
from __future__ import annotations

CARDS = 1        # hero-deck cards: deck, discard pile, hands, parties, in play, scenario box
HORDE = 2        # monsters: the line of stacks, set aside, victory piles, hidden pool, box
TREASURES = 4    # treasure deck, discard, box, the one being drawn, those on heroes
TOWNS = 8        # town deck and the towns destroyed
LIMITS = 16      # whose turn it is, party and hand sizes, active heroes
TOKENS = 32      # steam, shield, rerolls, doom, bonus strength
DICE = 64        # faces, locked and kept dice
ALL = 127

# A face-down horde card is a slot that knows only its level (state.py); its entry in a stack.
HIDDEN_L1 = -1
HIDDEN_L2 = -2

NAMES = {CARDS: "cards", HORDE: "horde", TREASURES: "treasures", TOWNS: "towns", LIMITS: "limits",
         TOKENS: "tokens", DICE: "dice"}
