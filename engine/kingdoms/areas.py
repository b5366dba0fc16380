"""The areas of a Kingdoms state that the invariants read, as bits of `KState.dirty`.

Why marks: the invariants run after every step of every smoke game, and most steps (a die
rolled, a horde counter drawn) leave most areas alone. Whatever changes an area sets its bit; the
next check tests only the marked areas and clears the bits once they hold. A test plays many
games and proves every change the rules make is marked (`invariants.unmarked`).
"""
from __future__ import annotations

UNITS = 1        # the pieces on the board, their owners and invaders, unit counts, marker supplies,
                 # the players' unit limits and the supply rules
MOVED = 2        # armies that moved this turn
HORDES = 4       # hordes on the board and in the pool, hit counters and their supply
PLAYERS = 8      # resource chits, victory tokens, their supplies, turns ended above the cap
ALL = 15

NAMES = {UNITS: "units", MOVED: "moved", HORDES: "hordes", PLAYERS: "players"}
