"""Invariants checked after every step in checked mode: nothing created or lost, limits held."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.kingdoms.state import KState


def check(st: "KState") -> list[str]:
    m = st.model
    out: list[str] = []
    lab = st.board.labels
    n = st.n
    arm = [0] * n
    sett = [0] * n
    cast = [0] * n
    tow = [0] * n
    seen: list[int] = []
    hits_on_board = 0
    for sp in range(st.board.size):
        o = st.owner[sp]
        units = st.sett[sp] + st.cast[sp] + st.tower[sp] + st.arm[sp]
        if min(st.sett[sp], st.cast[sp], st.tower[sp], st.arm[sp], st.inv[sp], st.moved[sp]) < 0:
            out.append(f"{lab[sp]}: a negative unit count")
        if o < 0 and units:
            out.append(f"{lab[sp]}: units without an owner")
        if o >= 0:
            mods = st.mods[o]
            arm[o] += st.arm[sp]
            sett[o] += st.sett[sp]
            cast[o] += st.cast[sp]
            tow[o] += st.tower[sp]
            if st.arm[sp] > mods.stack_limit:
                out.append(f"{lab[sp]}: {st.arm[sp]} armies over the stacking limit {mods.stack_limit}")
            if st.sett[sp] > mods.settlements_per_space:
                out.append(f"{lab[sp]}: {st.sett[sp]} settlements in one space")
            if st.cast[sp] > mods.castles_per_space:
                out.append(f"{lab[sp]}: {st.cast[sp]} castles in one space")
            if st.tower[sp] and st.cast[sp]:
                out.append(f"{lab[sp]}: a castle and a wizard tower in one space")
            if st.no_enter[sp]:
                out.append(f"{lab[sp]}: units in a space nothing may enter")
        if st.inv[sp]:
            io = st.inv_owner[sp]
            if io < 0 or io == o:
                out.append(f"{lab[sp]}: invaders without a rival owner")
            else:
                arm[io] += st.inv[sp]
                if st.inv[sp] > st.mods[io].stack_limit:
                    out.append(f"{lab[sp]}: invading stack over the stacking limit")
        h = st.horde[sp]
        if h >= 0:
            if st.hits[sp] < 1:
                out.append(f"{lab[sp]}: horde with {st.hits[sp]} hit counters")
            if h in seen:
                out.append(f"{m.hordes[h].id} is on the board twice")
            seen.append(h)
            if st.pool[h]:
                out.append(f"{m.hordes[h].id} is both on the board and in the pool")
            hits_on_board += st.hits[sp]
        elif st.hits[sp]:
            out.append(f"{lab[sp]}: hit counters without a horde")
    lim = st.limited     # without the physical-supply variant a supply may run below zero
    if hits_on_board + st.hit_free != m.supply["hit"] or (lim and st.hit_free < 0):
        out.append(f"hit counters: {hits_on_board} on the board + {st.hit_free} free != {m.supply['hit']}")
    for p in range(n):
        if (arm[p], sett[p], cast[p], tow[p]) != (st.n_arm[p], st.n_set[p], st.n_cast[p], st.n_tow[p]):
            out.append(f"player {p + 1}: unit counts out of step with the board")
        if lim and (arm[p] > m.colour_supply["army"] or sett[p] > m.colour_supply["settlement"]):
            out.append(f"player {p + 1}: more armies or settlements than the colour set has")
        if min(st.res[p]) < 0:
            out.append(f"player {p + 1}: negative resources {st.res[p]}")
        if st.vt[p] < 0:
            out.append(f"player {p + 1}: negative victory tokens")
    if sum(cast) + st.castle_free != m.supply["castle"] or (lim and st.castle_free < 0):
        out.append("castle markers not conserved")
    if sum(tow) + st.tower_free != m.supply["tower"] or (lim and st.tower_free < 0):
        out.append("wizard tower markers not conserved")
    if sum(st.vt) + st.vt_free != m.supply["victory"] or (lim and st.vt_free < 0):
        out.append("victory tokens not conserved")
    for r, name in enumerate(m.resources):
        held = sum(st.res[p][r] for p in range(n))
        if held + st.chit_free[r] != m.supply.get("chit-" + name, 40) or (lim and st.chit_free[r] < 0):
            out.append(f"{name} chits not conserved")
    for p, over in enumerate(st.cap_broken):
        if over:
            out.append(f"player {p + 1} ended a turn above the resource cap")
    return out
