"""Setting up: tiles, first player, first settlements, kingdoms, starting hordes and pieces; and
building a scenario's given situation instead.

Every random step is a chance Decision (tile draws weighted by the tiles left, d10 coordinates),
so a scenario can script it and a log replays it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from engine.core.api import CHANCE, Decision
from engine.kingdoms.areas import HORDES
from engine.kingdoms.model import Tile

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

Gen = Iterator[Decision]
COORD_TRIES = 5
HORDE_TRIES = 20


def lay_tiles(st: "KState", spaces: list[int], kinds: tuple[Tile, ...], into: list[int], what: str) -> Gen:
    left = [t.quantity for t in kinds]
    lab = st.board.labels
    for sp in spaces:
        idx = [i for i, c in enumerate(left) if c > 0]
        if not idx:
            return
        k = yield Decision(CHANCE, f"{what} for {lab[sp]}", weights=tuple(float(left[i]) for i in idx),
                           n=len(idx), labels=lambda idx=idx: [kinds[i].name for i in idx])
        into[sp] = idx[k]
        left[idx[k]] -= 1


def first_player(st: "KState") -> Gen:
    tied = list(st.kseats)
    while len(tied) > 1:
        rolls = []
        for p in tied:
            rolls.append((yield st.d10(f"First player roll for {st.seat_name(p)} (d10)")))
        top = max(rolls)
        tied = [p for p, r in zip(tied, rolls) if r == top]
    return tied[0]


def settle_ok(st: "KState", sp: int, placed: list[int], dist: int) -> bool:
    return (not st.no_enter[sp] and not st.no_build[sp] and st.owner[sp] < 0
            and all(st.board.distance(sp, q) >= dist for q in placed))


def first_settlement(st: "KState", p: int, placed: list[int]) -> Gen:
    b = st.board
    rules = st.model.rules["setup"]
    dist = int(rules["settlement-min-distance"])
    if len(st.kseats) == 1:
        cols = (b.cols // 2 - 1, b.cols // 2) if b.cols % 2 == 0 else (b.cols // 2,)
        rows = (b.rows // 2 - 1, b.rows // 2) if b.rows % 2 == 0 else (b.rows // 2,)
        central = [b.at(c, r) for r in rows for c in cols if settle_ok(st, b.at(c, r), placed, 0)]
        if central:
            k = yield st.ask(p, "first-settlement", "Place your first settlement", st.space_names(central), central)
            return central[k]
    for _ in range(COORD_TRIES):
        sp = yield from st.roll_space()
        if sp >= 0 and settle_ok(st, sp, placed, dist):
            return sp
    legal = [s for s in range(b.size) if settle_ok(st, s, placed, dist)] or \
        [s for s in range(b.size) if settle_ok(st, s, placed, 0)]
    k = yield st.ask(p, "first-settlement", "Choose a space for your first settlement", st.space_names(legal), legal)
    return legal[k]


def horde_start_ok(st: "KState", sp: int) -> bool:
    if sp < 0 or st.owner[sp] >= 0 or st.horde[sp] >= 0 or st.no_enter[sp] or st.no_spawn[sp]:
        return False
    return not any(st.sett[j] for j in st.board.adj[sp])


def starting_horde(st: "KState") -> Gen:
    h = yield from st.draw_horde("setup")
    if h < 0:
        return
    for _ in range(HORDE_TRIES):
        sp = yield from st.roll_space()
        if horde_start_ok(st, sp):
            st.place_horde(h, sp)
            return
    legal = [s for s in range(st.board.size) if horde_start_ok(st, s)]
    if not legal:
        st.pool[h] = True
        st.dirty |= HORDES
        return
    k = yield st.chance("Place the starting horde", len(legal), st.space_names(legal))
    st.place_horde(h, legal[k])


def standard_setup(st: "KState") -> Gen:
    m = st.model
    b = st.board
    st.phase = "setup"
    checker = [s for s in range(b.size) if sum(b.col_row(s)) % 2 == 0]
    yield from lay_tiles(st, checker, m.terrains, st.tile, "Terrain tile")
    if st.variants["advanced-tiles"]:
        clear = [s for s in range(b.size) if st.tile[s] < 0]
        yield from lay_tiles(st, clear, m.advanced, st.adv, "Advanced tile")
    st.apply_tiles()
    first = yield from first_player(st)
    i = st.kseats.index(first)
    st.order = st.kseats[i:] + st.kseats[:i]
    placed: list[int] = []
    for p in st.order:
        sp = yield from first_settlement(st, p, placed)
        placed.append(sp)
        st.add_unit(p, sp, "settlement")
    for p in reversed(st.order):
        yield from st.choose_kingdom(p)
    for _ in range(len(st.kseats) * int(m.rules["setup"]["starting-hordes-per-player"])):
        yield from starting_horde(st)
    for p, sp in zip(st.order, placed):
        st.found(p, sp, settlement_placed=True)
    st.phase = "play"


# ---------------------------------------------------------------------------------- scenarios
def apply_situation(st: "KState", setup: dict[str, Any]) -> tuple[str, str]:
    """Lay out a scenario's situation: tiles, players (kingdom, abilities, resources, units) and
    hordes. Returns where play starts: ('turn'|'horde'|'raid'|'end', first phase of the turn)."""
    m = st.model
    b = st.board
    terr = {t.id: t.idx for t in m.terrains}
    adv = {t.id: t.idx for t in m.advanced}
    for label, tid in (setup.get("tiles") or {}).items():
        sp = b.index[str(label)]
        if tid in terr:
            st.tile[sp] = terr[tid]
        elif tid in adv:
            st.adv[sp] = adv[tid]
        else:
            raise ValueError(f"unknown tile {tid!r}")
    st.apply_tiles()
    for p, spec in enumerate(setup.get("players") or []):
        if p >= st.n:
            raise ValueError("more players in the setup than in the game")
        spec = spec or {}
        if spec.get("kingdom"):
            kd = m.kingdoms[m.kingdom_index[spec["kingdom"]]]
            st.kingdom[p] = kd.idx
            st.kingdoms_held[p].append(kd.idx)
            for ai in kd.abilities:
                st.grant_ability(p, ai)
        for aid in spec.get("abilities") or []:
            st.grant_ability(p, m.ability_index[aid])
        for r, v in (spec.get("resources") or {}).items():
            st.gain(p, m.resources.index(r), int(v))
        st.take_victory(p, int(spec.get("victory", 0)))
        for label, units in (spec.get("units") or {}).items():
            sp = b.index[str(label)]
            for unit in ("settlement", "castle", "wizard-tower", "army"):
                if units.get(unit):
                    st.add_unit(p, sp, unit, int(units[unit]))
        st.out[p] = bool(spec.get("out", False))
    for label, h in (setup.get("hordes") or {}).items():
        sp = b.index[str(label)]
        if isinstance(h, str):
            h = {"horde": h}
        hi = m.horde_index[h["horde"]]
        st.horde[sp] = hi
        st.pool[hi] = False
        hits = int(h.get("hits", m.hordes[hi].hits))
        st.hits[sp] = hits
        st.hit_free -= hits
        st.dirty |= HORDES
    for hid in setup.get("out_of_pool") or []:
        st.pool[m.horde_index[hid]] = False
    st.dirty |= HORDES
    st.order = [int(x) for x in setup.get("order", st.kseats)]
    st.round = int(setup.get("round", 1))
    start = str(setup.get("start", "turn"))
    phase = str(setup.get("phase", ""))
    st.current = int(setup.get("current", st.order[0] if st.order else 0)) if phase else -1
    st.phase = "play"
    return start, phase
