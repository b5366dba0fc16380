"""Scenario hooks of Dice Battles: build a state from a described table, and the probe of named
values a scenario's `expect` can check (see docs/scenarios.md and docs/games/dice-battles.md)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.dice_battles.armies import Sheet, predefined
from engine.dice_battles.model import HERO, HERO_LEVEL, SPACES, Model
from engine.dice_battles.state import DBState


def _sheet(model: Model, side: dict) -> Sheet:
    base = predefined(model, model.army(side["army"]).idx) if side.get("army") else None
    if "battalions" in side:
        bats = tuple(tuple(model.unit(b[s]).idx if b.get(s) else -1 for s in SPACES)
                     for b in list(side["battalions"]) + [{}] * (3 - len(side["battalions"])))
    elif base is not None:
        bats = base.battalions
    else:
        raise ValueError("a player needs an army or battalions")
    if "battalions" in side and len(side["battalions"]) > 3:
        raise ValueError(f"{len(side['battalions'])} battalions; an army has 3")
    for b, bat in enumerate(bats):
        for s, ut in enumerate(bat):
            if ut >= 0 and s not in model.units[ut].positions:
                shows = ", ".join(SPACES[i] for i in sorted(model.units[ut].positions))
                raise ValueError(f"b{b + 1}-{SPACES[s]}: {model.units[ut].name} may not stand on "
                                 f"{model.space_names[s].lower()} (its tile shows {shows})")
    if "reinforcements" in side:
        reinf = tuple(model.unit(u).idx for u in side["reinforcements"])
    else:
        reinf = base.reinforcements if base is not None else ()
    faction = base.faction if base is not None else next(
        (model.units[u].faction for b in bats for u in b if u >= 0), "")
    return Sheet(side.get("army", "scenario"), side.get("army", "scenario"), faction, bats, reinf)


_SETUP_KEYS = frozenset({"players", "options", "round"})
_SIDE_KEYS = frozenset({"army", "battalions", "reinforcements", "fleeing", "gone", "hand", "discard", "marks",
                        "heroes_lost"})
_MARK_KEYS = frozenset({"wounds", "poison"})


def _whole(value: Any, where: str, low: int, high: int | None = None) -> int:
    """A whole number in low..high (a YAML `true` is no number), or a ValueError naming the key."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise ValueError(f"{where}: {value!r} is not a whole number {span}")
    return value


def _ids(side: dict, key: str, where: str) -> list[str]:
    """A side's list of ids under `key` (absent: empty)."""
    value = side.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}.{key}: a list of ids")
    return value


def _check_setup(model: Model, setup: dict) -> None:
    """Refuse a described table that no game could reach, before anything is built: unknown keys,
    values of the wrong type, more tiles or cards than the box holds, another faction's pieces in
    an army, more tiles in a zone or cards in hand than it takes, heroes lost out of 0..3."""
    unknown = set(setup) - _SETUP_KEYS
    if unknown:
        raise ValueError(f"unknown setup keys: {', '.join(sorted(map(str, unknown)))} "
                         f"(a setup has {', '.join(sorted(_SETUP_KEYS))})")
    options = setup.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("options: a mapping")
    if "round" in setup:
        limit = options.get("max_rounds", model.round_limit)
        limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else model.round_limit
        _whole(setup["round"], "round", 0, limit - 1)
    sides = setup.get("players")
    if sides is None:
        return
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
        raise ValueError("players: a list of two sides (mappings), one per seat")
    for p, side in enumerate(sides):
        _check_side(model, side, f"players.{p}")


def _check_side(model: Model, side: dict, where: str) -> None:
    """One side of the table: its keys and the shape of their values, then its pieces and marks."""
    unknown = set(side) - _SIDE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys: {', '.join(sorted(map(str, unknown)))} "
                         f"(a side has {', '.join(sorted(_SIDE_KEYS))})")
    bats = side.get("battalions")
    if bats is not None and (not isinstance(bats, list) or not all(
            isinstance(b, dict) and set(b) <= set(SPACES) and all(isinstance(v, str) or v is None for v in b.values())
            for b in bats)):
        raise ValueError(f"{where}.battalions: a list of battalions, each a mapping of spaces "
                         f"({', '.join(SPACES)}) to unit ids")
    if side.get("army") is not None and not isinstance(side["army"], str):
        raise ValueError(f"{where}.army: an army id")
    _check_pieces(model, side, where)
    if "heroes_lost" in side:
        _whole(side["heroes_lost"], f"{where}.heroes_lost", 0, 3)
    _check_marks(side.get("marks") or {}, where)


def _check_pieces(model: Model, side: dict, where: str) -> None:
    """The side's tiles and cards: zones no fuller than the mat allows, one faction, no more copies
    than the box holds (an army is built from one box)."""
    army = model.army(side["army"]) if side.get("army") else None
    bats = side.get("battalions")
    tiles = [u for b in bats or [] for u in b.values() if u]
    if bats is None and army is not None:
        tiles += [model.units[u].id for b in army.battalions for u in b if u >= 0]
    reinf = _ids(side, "reinforcements", where)
    if "reinforcements" not in side and army is not None:
        reinf = [model.units[u].id for u in army.reinforcements]
    fleeing = _ids(side, "fleeing", where)
    for zone, ids in (("reinforcements", reinf), ("fleeing", fleeing)):
        for u in ids:
            if model.unit(u).level == HERO_LEVEL:
                raise ValueError(f"{zone}: the hero '{u}' cannot be there (a defeated hero leaves the game)")
    units = [model.unit(u) for u in tiles + reinf + fleeing + _ids(side, "gone", where)]
    hand = [model.card(c) for c in _ids(side, "hand", where)]
    cards = hand + [model.card(c) for c in _ids(side, "discard", where)]
    if len(reinf) > model.setup_reinforcements_max:
        raise ValueError(f"{where}.reinforcements: {len(reinf)} tiles; the zone takes "
                         f"{model.setup_reinforcements_max} at most (set-up)")
    if len(fleeing) > model.fleeing_spaces:
        raise ValueError(f"{where}.fleeing: {len(fleeing)} tiles; the zone has {model.fleeing_spaces} spaces")
    if len(hand) > model.hand_size:
        raise ValueError(f"{where}.hand: {len(hand)} cards; a hand holds {model.hand_size}")
    factions = {u.faction for u in units} | {model.units[c.unit].faction for c in cards} | (
        {army.faction} if army is not None else set())
    if len(factions) > 1:
        raise ValueError(f"{where}: pieces of {' and '.join(sorted(factions))}; an army has one faction")
    for u, n in Counter(u.idx for u in units).items():
        if n > model.units[u].quantity:
            raise ValueError(f"{where}: {n} tiles of {model.units[u].id}; the box holds {model.units[u].quantity}")
    for c, n in Counter(c.idx for c in cards).items():
        if n > model.cards[c].quantity:
            raise ValueError(f"{where}: {n} cards {model.cards[c].id} in hand and discard; the box holds "
                             f"{model.cards[c].quantity}")


def _check_marks(marks: Any, where: str) -> None:
    """Marks: place -> {wounds, poison}, whole numbers (their limits need the table: `scenario_state`)."""
    if not isinstance(marks, dict) or not all(isinstance(m, dict) for m in marks.values()):
        raise ValueError(f"{where}.marks: a mapping of places (b1-fl, fleeing-1 ...) to {{wounds, poison}}")
    for place, m in marks.items():
        unknown = set(m) - _MARK_KEYS
        if unknown:
            raise ValueError(f"{where}.marks.{place}: unknown keys: {', '.join(sorted(map(str, unknown)))} "
                             f"(a tile carries wounds and poison)")
        for key in m:
            _whole(m[key], f"{place}: {key}", 0)


def scenario_state(model: Model, players: int, setup: dict) -> DBState:
    """A table as the scenario describes it: armies or battalions, fleeing units, hands, marks."""
    _check_setup(model, setup)
    sides = list(setup.get("players") or [{}, {}])
    options = dict(setup.get("options") or {})
    st = DBState(model, 2, options, sheets=[_sheet(model, s) for s in sides], hold=True)
    for p, side in enumerate(sides):
        for u in side.get("fleeing") or []:
            st.fleeing[p].append(st.new_tile(p, model.unit(u).idx))
        for u in side.get("gone") or []:
            st.gone[p].append(st.new_tile(p, model.unit(u).idx))
        missing = sum(1 for b in st.board[p] if b[HERO] < 0)
        st.heroes_lost[p] = side.get("heroes_lost", missing)
        if st.heroes_lost[p] != missing:
            raise ValueError(f"players.{p}.heroes_lost: {st.heroes_lost[p]}, but {missing} hero spaces are empty "
                             f"(a hero lost leaves its battalion for good)")
        if missing >= 2:
            raise ValueError(f"players.{p}: {missing} heroes lost; the game ends when a player loses the second")
        for key, what in (("hand", st.hand), ("discard", None)):
            for cid in side.get(key) or []:
                c = model.card(cid).idx
                if st.deck[p][c] == 0:   # a card with no tile on the table: it still belongs to the army
                    st.deck[p][c] += 1
                    st.deck_size[p] += 1
                    st.owned[p][c] += 1
                st.deck[p][c] -= 1
                st.deck_size[p] -= 1
                if what is None:
                    st.discard[p][c] += 1
                else:
                    what[p].append(c)
            st.hand[p].sort()
        for where, marks in (side.get("marks") or {}).items():
            uid = _tile_at(st, p, where)
            unit = model.units[st.utype[uid]]
            st.wounds[uid] = int(marks.get("wounds", 0))
            st.poison[uid] = int(marks.get("poison", 0))
            if not 0 <= st.wounds[uid] <= unit.morale:
                raise ValueError(f"{where}: {st.wounds[uid]} wounds, but {unit.name} has {unit.morale} morale squares")
            if st.poison[uid] not in (0, 1):
                raise ValueError(f"{where}: poison is 0 or 1 (a tile carries one poison die at most)")
            if where.startswith("reinforcements") and (st.wounds[uid] or st.poison[uid]):
                raise ValueError(f"{where}: a tile in reinforcements carries no dice (regrouped units leave them "
                                 f"behind)")
            if where.startswith("b") and st.wounds[uid] >= unit.morale:
                raise ValueError(f"{where}: {unit.name} has every morale square covered; step 5 would have "
                                 f"taken it off the battalion")
    st.round = int(setup.get("round", 0))
    st.phase = "army"
    st.start()
    return st


def _tile_at(st: DBState, p: int, where: str) -> int:
    """'b1-fl' (battalion 1, front left), 'reinforcements-1' or 'fleeing-2' -> the tile there."""
    zone, _, rest = where.partition("-")
    if zone.startswith("b") and zone[1:].isdigit() and 1 <= int(zone[1:]) <= 3 and rest in SPACES:
        uid = st.board[p][int(zone[1:]) - 1][SPACES.index(rest)]
    elif zone in ("reinforcements", "fleeing") and rest.isdigit() and \
            1 <= int(rest) <= len(zone_tiles := (st.reinf if zone == "reinforcements" else st.fleeing)[p]):
        uid = zone_tiles[int(rest) - 1]
    else:
        raise ValueError(f"no place '{where}' (write b1-fl, b2-hero, fleeing-1 ...)")
    if uid < 0:
        raise ValueError(f"no tile at {where}")
    return uid


def probe(st: Any) -> dict[str, Any]:
    """Named values. Per player: `battalions` (tuple of {space: unit}), `tiles.b<N>-<space>`
    (unit, wounds, poison, excess), `fleeing` (in order), `reinforcements`, `gone`, `hand`,
    `discard`, `dice` (per battalion this round), `activated`, heroes lost and left."""
    m = st.model
    players = []
    for p in (0, 1):
        tiles, bats = {}, []
        for b in range(3):
            row = {}
            for s, sid in enumerate(SPACES):
                uid = st.board[p][b][s]
                row[sid] = m.units[st.utype[uid]].id if uid >= 0 else None
                if uid >= 0:
                    tiles[f"b{b + 1}-{sid}"] = {"unit": row[sid], "wounds": st.wounds[uid], "poison": st.poison[uid],
                                                "excess": st.excess[uid], "total": st.total_wounds(uid)}
            bats.append(row)
        ident = lambda uid: m.units[st.utype[uid]].id  # noqa: E731
        players.append({
            "battalions": tuple(bats), "tiles": tiles,
            "fleeing": tuple(ident(u) for u in st.fleeing[p]),
            "reinforcements": [ident(u) for u in st.reinf[p]],
            "gone": [ident(u) for u in st.gone[p]],
            "hand": [m.cards[c].id for c in st.hand[p]], "hand_count": len(st.hand[p]),
            "deck_size": st.deck_size[p],
            "discard": [m.cards[c].id for c, k in enumerate(st.discard[p]) for _ in range(k)],
            "dice": tuple(st.dice[p]), "activated": tuple(st.activated[p]),
            "heroes_lost": st.heroes_lost[p], "heroes_left": st.heroes_left(p),
            "status": tuple(st.status(p, b) for b in range(3)),
        })
    return {"round": st.round, "phase": st.phase, "over": st.is_over(), "end_reason": st.end_reason,
            "players": tuple(players), "log": list(st.log), "stats": dict(st.stats)}
