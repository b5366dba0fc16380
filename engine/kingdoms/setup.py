"""Setting up: tiles, first player, first settlements, kingdoms, starting hordes and pieces; and
building a scenario's given situation instead.

Every random step is a chance Decision (tile draws weighted by the tiles left, d10 coordinates),
so a scenario can script it and a log replays it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Union

from engine.core.api import CHANCE, Decision
from engine.core.scenario import SetupError
from engine.kingdoms.areas import HORDES
from engine.kingdoms.model import UNIT_TYPES, Tile

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
STARTS = ("turn", "horde", "raid", "end")
SETUP_KEYS = ("start", "phase", "current", "round", "order", "options", "tiles", "players", "hordes",
              "out_of_pool")
PLAYER_KEYS = ("kingdom", "abilities", "resources", "victory", "units", "out")
HORDE_KEYS = ("horde", "hits")
Path = tuple[Union[str, int], ...]
"""Where in a scenario's setup a value lies (keys and list indexes), for SetupError."""


def _only(entry: dict, keys: tuple[str, ...], what: str, at: Path = ()) -> None:
    """Refuse a key the situation does not know: a misspelt one would otherwise be ignored."""
    unknown = [k for k in entry if k not in keys]
    if unknown:
        raise SetupError(f"{what} has no key {', '.join(map(repr, unknown))} (it knows {', '.join(keys)})",
                         (*at, unknown[0]))


def _known(table: dict[str, Any], key: Any, what: str, at: Path = ()) -> Any:
    """`table[key]`, or a SetupError at `at` that names the unknown `what` and the ones there are."""
    if isinstance(key, str) and key in table:
        return table[key]
    if what == "space":
        first, last = list(table)[0], list(table)[-1]
        raise SetupError(f"unknown space {key!r} (the board runs from {first} to {last})", at)
    names = sorted(table)
    listed = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    raise SetupError(f"unknown {what} {key!r} (known: {listed})", at)


def _mapping(value: Any, what: str, at: Path = ()) -> dict:
    """`value` as a mapping ({} when absent), or a SetupError that says what `what` should be."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SetupError(f"{what} must be a mapping, not {value!r}", at)
    return value


def _count(value: Any, what: str, box: int | None = None, pieces: str = "", at: Path = ()) -> int:
    """A whole number of 0 or more; with `box`, no more than the box holds of those `pieces`
    (a starting situation is laid out from the box, so a larger count is a typing slip)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupError(f"{what} must be a whole number of 0 or more, not {value!r}", at)
    if box is not None and value > box:
        raise SetupError(f"{what} is {value}, more than the {box} {pieces} in the box", at)
    return value


def apply_situation(st: "KState", setup: dict[str, Any]) -> tuple[str, str]:
    """Lay out a scenario's situation: tiles, players (kingdom, abilities, resources, units) and
    hordes. Returns where play starts: ('turn'|'horde'|'raid'|'end', first phase of the turn).

    A situation the rules could never reach (an unknown id or space, two players in one space,
    limits broken, a horde without hit counters) is refused with a SetupError (a ValueError) that says what is
    wrong, instead of a game that silently plays from a broken board."""
    _only(setup, SETUP_KEYS, "setup")
    _lay_tiles(st, _mapping(setup.get("tiles"), "tiles", ("tiles",)))
    players = setup.get("players") or []
    if not isinstance(players, list):
        raise SetupError(f"players must be a list, one entry per seat, not {players!r}", ("players",))
    if len(players) > st.n:
        raise SetupError(f"the setup describes {len(players)} players, the game has {st.n}", ("players",))
    for p, spec in enumerate(players):
        _place_player(st, p, _mapping(spec, f"player {p + 1}", ("players", p)))
    _place_hordes(st, _mapping(setup.get("hordes"), "hordes", ("hordes",)), setup.get("out_of_pool") or [])
    start, phase = _where_play_starts(st, setup)
    problems = st.check_all_invariants()
    if problems:
        raise ValueError("the situation breaks the rules: " + "; ".join(problems))
    st.phase = "play"
    return start, phase


def _lay_tiles(st: "KState", tiles: dict) -> None:
    m = st.model
    known = {**{t.id: ("tile", t.idx) for t in m.terrains}, **{t.id: ("adv", t.idx) for t in m.advanced}}
    for label, tid in tiles.items():
        sp = _known(st.board.index, str(label), "space", ("tiles", label))
        kind, idx = _known(known, tid, "tile", ("tiles", label))
        (st.tile if kind == "tile" else st.adv)[sp] = idx
    st.apply_tiles()


def _place_player(st: "KState", p: int, spec: dict) -> None:
    m = st.model
    at: Path = ("players", p)
    _only(spec, PLAYER_KEYS, f"player {p + 1}", at)
    if spec.get("kingdom"):
        kd = m.kingdoms[_known(m.kingdom_index, spec["kingdom"], "kingdom", (*at, "kingdom"))]
        st.kingdom[p] = kd.idx
        st.kingdoms_held[p].append(kd.idx)
        for ai in kd.abilities:
            st.grant_ability(p, ai)
    abilities = spec.get("abilities") or []
    if not isinstance(abilities, list):
        raise SetupError(f"player {p + 1}'s abilities must be a list of ability ids, not {abilities!r}",
                         (*at, "abilities"))
    for i, aid in enumerate(abilities):
        ai = _known(m.ability_index, aid, "ability", (*at, "abilities", i))
        if st.has[p][ai]:
            raise SetupError(f"player {p + 1} holds {aid} twice (no player has two copies of an ability; "
                             "a kingdom's starting abilities are held already)", (*at, "abilities", i))
        st.grant_ability(p, ai)
    resources = {r: i for i, r in enumerate(m.resources)}
    for r, v in _mapping(spec.get("resources"), f"player {p + 1}'s resources", (*at, "resources")).items():
        ri = _known(resources, r, "resource", (*at, "resources", r))
        st.gain(p, ri, _count(v, f"player {p + 1}'s {r}", m.supply.get("chit-" + r, 40), f"{r} chits",
                              (*at, "resources", r)))
    st.take_victory(p, _count(spec.get("victory", 0), f"player {p + 1}'s victory tokens",
                              m.supply["victory"], "victory tokens", (*at, "victory")))
    out = spec.get("out", False)
    if out.__class__ is not bool:
        raise SetupError(f"player {p + 1}'s out is true or false, not {out!r}", (*at, "out"))
    for label, units in _mapping(spec.get("units"), f"player {p + 1}'s units", (*at, "units")).items():
        where: Path = (*at, "units", label)
        units = _mapping(units, f"{label}'s units", where)
        sp = _known(st.board.index, str(label), "space", where)
        if st.owner[sp] >= 0 and st.owner[sp] != p:
            raise SetupError(f"{label}: player {p + 1}'s units would share the space with player "
                             f"{st.owner[sp] + 1}'s (one player holds a space)", where)
        for unit in units:
            if unit not in UNIT_TYPES:
                raise SetupError(f"{label}: unknown unit {unit!r} ({', '.join(UNIT_TYPES)})", (*where, unit))
        for unit in UNIT_TYPES:
            n = _count(units.get(unit, 0), f"{label}: {unit}", at=(*where, unit))
            if n:
                st.add_unit(p, sp, unit, n)
    st.out[p] = out


def _place_hordes(st: "KState", hordes: dict, out_of_pool: list) -> None:
    m = st.model
    for label, h in hordes.items():
        where: Path = ("hordes", label)
        sp = _known(st.board.index, str(label), "space", where)
        h = _mapping({"horde": h} if isinstance(h, str) else h, f"{label}'s horde", where)
        _only(h, HORDE_KEYS, f"{label}'s horde", where)
        hi = _known(m.horde_index, h.get("horde"), "horde", where)
        hits = _count(h.get("hits", m.hordes[hi].hits), f"{label}: hits", m.supply["hit"], "hit counters", where)
        if hits < 1:
            raise SetupError(f"{label}: a horde on the board has at least one hit counter", where)
        if st.no_enter[sp]:
            raise SetupError(f"{label}: no horde may be in this space (its tile lets nothing in)", where)
        st.horde[sp] = hi
        st.pool[hi] = False
        st.hits[sp] = hits
        st.hit_free -= hits
    if not isinstance(out_of_pool, list):
        raise SetupError(f"out_of_pool must be a list of horde ids, not {out_of_pool!r}", ("out_of_pool",))
    for i, hid in enumerate(out_of_pool):
        st.pool[_known(m.horde_index, hid, "horde", ("out_of_pool", i))] = False
    st.dirty |= HORDES


def _where_play_starts(st: "KState", setup: dict) -> tuple[str, str]:
    """The round, turn order, start and phase of a situation, each checked against the rules."""
    st.order = [int(x) for x in setup.get("order", st.kseats)]
    if sorted(st.order) != sorted(st.kseats):
        raise SetupError(f"order {st.order} must list each seat that takes turns once: {st.kseats}", ("order",))
    st.round = _count(setup.get("round", 1), "round", at=("round",))
    if not 1 <= st.round <= st.rounds:
        raise SetupError(f"round {st.round} is outside the game's 1 to {st.rounds}", ("round",))
    start = str(setup.get("start", "turn"))
    if start not in STARTS:
        raise SetupError(f"unknown start {start!r} (one of: {', '.join(STARTS)})", ("start",))
    phase = str(setup.get("phase", ""))
    phases = [ph["id"] for ph in st.model.phases]
    if phase and phase not in phases:
        raise SetupError(f"unknown phase {phase!r} (one of: {', '.join(phases)})", ("phase",))
    if phase and start != "turn":
        raise SetupError(f"a phase is where a turn starts: it needs start: turn, not {start!r}", ("start",))
    if "current" in setup and not phase:
        raise SetupError("current names whose turn a phase belongs to: give the phase too", ("current",))
    st.current = int(setup.get("current", st.order[0] if st.order else 0)) if phase else -1
    if phase and st.current not in st.order:
        raise SetupError(f"current seat {st.current} takes no turn (seats: {st.order})", ("current",))
    return start, phase
