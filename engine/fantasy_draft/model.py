"""The read-only model of Fantasy Draft, built once from validated content (kind -> items).

Why a model: the rules look up neighbours, distances, strengths and abilities many thousands of
times a second, so the board becomes flat lists (neighbours and a distance table per hex) and
every hero and basic unit one slotted `UnitType`. Nothing here names a unit or a hero: every
number comes from a content field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.fantasy_draft.checks import content_problems


@dataclass(frozen=True, slots=True)
class Effect:
    """One structured effect: its kind and parameters (`max_strength` -1 = no limit)."""

    kind: str
    amount: int = 0
    max_strength: int = -1


@dataclass(frozen=True, slots=True)
class Ability:
    idx: int
    name: str
    trigger: str                 # action | victory | attacked | unit-removed
    d10: tuple[int, int] | None  # faces that make it work, inclusive
    range: int                   # maximum hexes to the target; 0 when it has none
    target: str                  # self | own | enemy | any | empty-hex
    types: frozenset[str]        # empty = any type
    once_per_turn: bool
    cost: int                    # actions of the turn a special action costs
    effects: tuple[Effect, ...]

    def works_on(self, roll: int) -> bool:
        """True when a d10 roll is inside the printed range (or there is no roll at all)."""
        return self.d10 is None or self.d10[0] <= roll <= self.d10[1]


@dataclass(frozen=True, slots=True)
class UnitType:
    """A hero or a basic unit. `count` is copies per army for basic units, 0 for heroes."""

    idx: int
    id: str
    name: str
    type: str
    strength: int
    actions: int
    attack: str                  # melee | ranged | none
    flying: bool
    hero: bool
    cost: int
    count: int
    flag: bool
    abilities: tuple[Ability, ...]


@dataclass(frozen=True, slots=True)
class Board:
    columns: int
    rows: int
    labels: tuple[str, ...]          # 'a1' ... by hex index (row-major)
    terrain: tuple[str, ...]         # terrain id per hex
    flyers_only: tuple[bool, ...]    # only flying units may stand here
    zone: tuple[int, ...]            # seat whose start zone the hex is, or -1
    neighbours: tuple[tuple[int, ...], ...]
    dist: tuple[tuple[int, ...], ...]
    rings: tuple[tuple[tuple[int, ...], ...], ...]   # per hex: hexes at distance 0, 1, 2 ...
    index: dict[str, int]
    within: tuple[tuple[tuple[int, ...], ...], ...]  # per hex, per r: hexes at distance 1..r, nearest first
    zone_hexes: tuple[tuple[int, ...], ...]          # per seat: the hexes of its start zone


@dataclass(frozen=True, slots=True)
class Rules:
    mana: int
    army_size: int
    actions: int
    melee_range: int
    ranged_range: int
    power_cap: int
    first_drafter: int               # seat (0-based)
    first_player: int                # seat (0-based)
    turn_cap: int
    power_tokens: int


@dataclass(frozen=True, slots=True)
class Model:
    rules: Rules
    board: Board
    units: tuple[UnitType, ...]      # heroes first (content order), then basic units
    heroes: tuple[int, ...]
    basics: tuple[int, ...]
    by_id: dict[str, int]
    flag: int                        # the flag's unit index
    reach: tuple[tuple[int, ...], ...] = ()
    """Per hex h: h and the hexes whose token's moves or melee attacks can involve h (its
    neighbours), so a token arriving at or leaving h changes only their options..."""
    shot_from: tuple[tuple[int, ...], ...] = ()
    """...and the hexes a ranged unit shoots at h from (at exactly the ranged range); the same
    hexes are the ones a ranged unit on h shoots at."""
    acting: tuple[tuple[Ability, ...], ...] = ()
    """Per unit: its special actions (abilities triggered as an action), in printed order."""
    aim: tuple[int, ...] = ()
    """Per unit: the longest range of its special actions (0 for none or for the unit itself)."""
    aim_by: tuple[tuple[int, int], ...] = ()
    """Per unit: the longest range of its special actions whose targets read the tokens of its
    own seat, then of the other seat (0 for none): a token of one seat arriving or leaving
    farther away changes none of its targets."""
    acts: tuple[int, ...] = ()
    """Per unit: its actions per turn (read for every token at every step)."""
    ranged: tuple[bool, ...] = ()
    """Per unit: whether it attacks at range."""
    walkers: int = 0
    """The units that do not fly, a bit per unit index (those a token on water cannot be)."""
    silent_harvesters: tuple[tuple[int, Ability, int], ...] = ()
    """(hero, ability, power tokens per use) of every hero that may gain power tokens without
    turning face up: one `unit-removed` ability, with no d10 roll (a roll would be seen), whose
    effects are all power tokens. The tokens land on its card in the open, so they tell the other
    seat something about where its face-down token stands (`FDState._watched`)."""

    def hexes_within(self, h: int, lo: int, hi: int) -> list[int] | tuple[int, ...]:
        """Hexes at distance lo..hi of h, nearest first (1..r comes from a table: the rules ask
        for it at every step)."""
        if lo == 1:
            within = self.board.within[h]
            return within[min(hi, len(within) - 1)] if hi > 0 else ()
        rings = self.board.rings[h]
        out: list[int] = []
        for d in range(lo, min(hi, len(rings) - 1) + 1):
            out += rings[d]
        return out


def _effect(e: dict[str, Any]) -> Effect:
    return Effect(str(e["kind"]), int(e.get("amount", 0)), int(e.get("max-strength", -1)))


def _ability(i: int, a: dict[str, Any]) -> Ability:
    d10 = a.get("d10")
    return Ability(
        idx=i, name=str(a["name"]), trigger=str(a["trigger"]),
        d10=(int(d10["min"]), int(d10["max"])) if d10 else None,
        range=int(a.get("range", 0)), target=str(a["target"]),
        types=frozenset(str(t) for t in a.get("types", ())),
        once_per_turn=bool(a.get("once-per-turn", False)), cost=int(a.get("action-cost", 1)),
        effects=tuple(_effect(e) for e in a.get("effects", ())))


def _unit(idx: int, item: dict[str, Any], hero: bool) -> UnitType:
    return UnitType(
        idx=idx, id=str(item["id"]), name=str(item["name"]), type=str(item["type"]),
        strength=int(item["strength"]), actions=int(item["actions"]), attack=str(item["attack"]),
        flying=bool(item.get("flying", False)), hero=hero, cost=int(item.get("cost", 0)),
        count=0 if hero else int(item.get("quantity", 1)), flag=bool(item.get("flag", False)),
        abilities=tuple(_ability(i, a) for i, a in enumerate(item.get("abilities", ()))))


def _cube(c: int, r: int) -> tuple[int, int, int]:
    """Offset rows (odd rows shifted right) to cube coordinates, where distance is easy."""
    x = c - (r - (r & 1)) // 2
    return x, -x - r, r


def build_board(item: dict[str, Any], terrain: list[dict[str, Any]]) -> Board:
    cols, rows = int(item["columns"]), int(item["rows"])
    lines = [str(s) for s in item["map"]]
    where = f"board '{item['id']}'"
    if len(lines) != rows:
        raise ValueError(f"{where}: map has {len(lines)} rows, rows says {rows}")
    symbols = {str(t["symbol"]): t for t in terrain}
    zones = {str(k): v for k, v in (item.get("zones") or {}).items()}
    by_id = {str(t["id"]): t for t in terrain}
    labels, ters, flyer, zone = [], [], [], []
    for r, line in enumerate(lines):
        if len(line) != cols:
            raise ValueError(f"{where}: map row {r + 1} has {len(line)} hexes, columns says {cols}")
        for c, ch in enumerate(line):
            labels.append(f"{chr(97 + c)}{r + 1}")
            if ch in zones:
                t = by_id.get(str(zones[ch]["terrain"]))
                z = int(zones[ch]["player"]) - 1
            else:
                t, z = symbols.get(ch), -1
            if t is None:
                raise ValueError(f"{where}: map row {r + 1} column {c + 1}: '{ch}' is no terrain symbol or zone")
            ters.append(str(t["id"]))
            flyer.append(bool(t["flyers-only"]))
            zone.append(z)
    cubes = [_cube(i % cols, i // cols) for i in range(cols * rows)]
    dist = tuple(tuple(max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) for b in cubes) for a in cubes)
    neigh = tuple(tuple(j for j, d in enumerate(row) if d == 1) for row in dist)
    rings = tuple(tuple(tuple(j for j, d in enumerate(row) if d == k) for k in range(max(row) + 1)) for row in dist)
    within = tuple(tuple(sum(ring[1:r + 1], ()) for r in range(len(ring))) for ring in rings)
    zone_hexes = tuple(tuple(h for h, z in enumerate(zone) if z == seat) for seat in (0, 1))
    return Board(cols, rows, tuple(labels), tuple(ters), tuple(flyer), tuple(zone), neigh, dist, rings,
                 {lab: i for i, lab in enumerate(labels)}, within, zone_hexes)


def _aim_reads(abilities: tuple[Ability, ...], blind_to: str) -> int:
    """The longest range of the special actions that may aim at tokens of a seat (an own unit,
    an enemy, an empty hex or any unit: all but `blind_to` and the unit itself)."""
    return max([0] + [a.range for a in abilities if a.target not in ("self", blind_to)])


def build_model(content: dict[str, list[dict[str, Any]]]) -> Model:
    """The model from validated content; raises ValueError for content the rules cannot play."""
    problems = content_problems(content)
    if problems:
        p = problems[0]
        raise ValueError(f"{p.kind} #{p.index + 1}: {p.message}")
    r = content["rules"][0]
    powers = sum(int(p.get("quantity", 1)) * int(p.get("amount", 1)) for p in content.get("power-token", []))
    rules = Rules(mana=int(r["mana"]), army_size=int(r["army-size"]), actions=int(r["actions-per-turn"]),
                  melee_range=int(r["melee-range"]), ranged_range=int(r["ranged-range"]),
                  power_cap=int(r["power-strength-cap"]), first_drafter=int(r["first-drafter"]) - 1,
                  first_player=int(r["first-player"]) - 1, turn_cap=int(r["turn-cap"]), power_tokens=powers)
    board = build_board(content["board"][0], content["terrain"])
    units: list[UnitType] = []
    for h in content["hero"]:
        units.append(_unit(len(units), h, True))
    for b in content["basic-unit"]:
        units.append(_unit(len(units), b, False))
    flags = [u.idx for u in units if u.flag]
    if len(flags) != 1 or units[flags[0]].count != 1:
        raise ValueError("basic units: exactly one unit must be the flag, with quantity 1")
    for seat in (0, 1):
        if sum(1 for z in board.zone if z == seat) < rules.army_size:
            raise ValueError(f"board: player {seat + 1}'s start zone has fewer hexes than an army has tokens")
    acting = tuple(tuple(a for a in u.abilities if a.trigger == "action") for u in units)
    reach = tuple((h,) + board.neighbours[h] for h in range(len(board.labels)))
    rr = rules.ranged_range
    shot_from = tuple(rings[rr] if 0 < rr < len(rings) else () for rings in board.rings)
    return Model(rules=rules, board=board, units=tuple(units),
                 heroes=tuple(u.idx for u in units if u.hero), basics=tuple(u.idx for u in units if not u.hero),
                 by_id={u.id: u.idx for u in units}, flag=flags[0], reach=reach, shot_from=shot_from,
                 acting=acting, aim=tuple(max([0] + [a.range for a in abs_]) for abs_ in acting),
                 aim_by=tuple((_aim_reads(abs_, "enemy"), _aim_reads(abs_, "own")) for abs_ in acting),
                 acts=tuple(u.actions for u in units), ranged=tuple(u.attack == "ranged" for u in units),
                 walkers=sum(1 << u.idx for u in units if not u.flying),
                 silent_harvesters=tuple(h for h in map(_silent_harvester, units) if h is not None))


def _silent_harvester(u: UnitType) -> tuple[int, Ability, int] | None:
    """(unit, ability, power tokens per use) when `u` gains power tokens in the open without
    turning face up (see `Model.silent_harvesters`), else None."""
    removed = [ab for ab in u.abilities if ab.trigger == "unit-removed"]
    if (len(removed) == 1 and removed[0].d10 is None and removed[0].effects
            and all(e.kind == "power" and e.amount > 0 for e in removed[0].effects)):
        return (u.idx, removed[0], sum(e.amount for e in removed[0].effects))
    return None
