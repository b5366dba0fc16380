"""Scenario hooks of Dice Battles: build a state from a described table, and the probe of named
values a scenario's `expect` can check (see docs/scenarios.md and docs/games/dice-battles.md)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Union

from engine.core.scenario import SetupError
from engine.dice_battles.armies import Sheet, predefined
from engine.dice_battles.model import HERO, HERO_LEVEL, SPACES, Model
from engine.dice_battles.state import DBState


Path = tuple[Union[str, int], ...]
"""Where in a scenario's setup a value lies (keys and list indexes), for SetupError."""


def _found(lookup: Any, ident: Any, at: Path) -> Any:
    """`lookup(ident)` (a unit, card or army by id), or a SetupError at `at` saying there is none."""
    try:
        return lookup(ident)
    except KeyError as exc:
        raise SetupError(str(exc.args[0]) if exc.args else f"unknown id {ident!r}", at) from None


def _sheet(model: Model, side: dict, p: int) -> Sheet:
    at: Path = ("players", p)
    base = predefined(model, _found(model.army, side["army"], (*at, "army")).idx) if side.get("army") else None
    if "battalions" in side:
        bats = tuple(tuple(_found(model.unit, b[s], (*at, "battalions", i, s)).idx if b.get(s) else -1
                           for s in SPACES)
                     for i, b in enumerate(list(side["battalions"]) + [{}] * (3 - len(side["battalions"]))))
    elif base is not None:
        bats = base.battalions
    else:
        raise SetupError("a player needs an army or battalions", at)
    if "battalions" in side and len(side["battalions"]) > 3:
        raise SetupError(f"{len(side['battalions'])} battalions; an army has 3", (*at, "battalions"))
    for b, bat in enumerate(bats):
        for s, ut in enumerate(bat):
            if ut >= 0 and s not in model.units[ut].positions:
                shows = ", ".join(SPACES[i] for i in sorted(model.units[ut].positions))
                raise SetupError(f"b{b + 1}-{SPACES[s]}: {model.units[ut].name} may not stand on "
                                 f"{model.space_names[s].lower()} (its tile shows {shows})",
                                 (*at, "battalions", b, SPACES[s]) if "battalions" in side else (*at, "army"))
    if "reinforcements" in side:
        reinf = tuple(_found(model.unit, u, (*at, "reinforcements", i)).idx
                      for i, u in enumerate(side["reinforcements"]))
    else:
        reinf = base.reinforcements if base is not None else ()
    faction = base.faction if base is not None else next(
        (model.units[u].faction for b in bats for u in b if u >= 0), "")
    return Sheet(side.get("army", "scenario"), side.get("army", "scenario"), faction, bats, reinf)


_SETUP_KEYS = frozenset({"players", "options", "round"})
_SIDE_KEYS = frozenset({"army", "battalions", "reinforcements", "fleeing", "gone", "hand", "discard", "marks",
                        "heroes_lost"})
_MARK_KEYS = frozenset({"wounds", "poison"})


def _whole(value: Any, where: str, low: int, high: int | None = None, at: Path = ()) -> int:
    """A whole number in low..high (a YAML `true` is no number), or a SetupError naming the key."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise SetupError(f"{where}: {value!r} is not a whole number {span}", at)
    return value


def _ids(side: dict, key: str, where: str, at: Path) -> list[str]:
    """A side's list of ids under `key` (absent: empty)."""
    value = side.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SetupError(f"{where}.{key}: a list of ids", (*at, key))
    return value


def _check_setup(model: Model, setup: dict) -> None:
    """Refuse a described table that no game could reach, before anything is built: unknown keys,
    values of the wrong type, more tiles or cards than the box holds, another faction's pieces in
    an army, more tiles in a zone or cards in hand than it takes, heroes lost out of 0..3."""
    unknown = set(setup) - _SETUP_KEYS
    if unknown:
        raise SetupError(f"unknown setup keys: {', '.join(sorted(map(str, unknown)))} "
                         f"(a setup has {', '.join(sorted(_SETUP_KEYS))})", (min(map(str, unknown)),))
    options = setup.get("options") or {}
    if not isinstance(options, dict):
        raise SetupError("options: a mapping", ("options",))
    if "round" in setup:
        limit = options.get("max_rounds", model.round_limit)
        limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else model.round_limit
        _whole(setup["round"], "round", 0, limit - 1, ("round",))
    sides = setup.get("players")
    if sides is None:
        return
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
        raise SetupError("players: a list of two sides (mappings), one per seat", ("players",))
    for p, side in enumerate(sides):
        _check_side(model, side, f"players.{p}", ("players", p))


def _check_side(model: Model, side: dict, where: str, at: Path) -> None:
    """One side of the table: its keys and the shape of their values, then its pieces and marks."""
    unknown = set(side) - _SIDE_KEYS
    if unknown:
        raise SetupError(f"{where}: unknown keys: {', '.join(sorted(map(str, unknown)))} "
                         f"(a side has {', '.join(sorted(_SIDE_KEYS))})", (*at, min(map(str, unknown))))
    bats = side.get("battalions")
    if bats is not None and (not isinstance(bats, list) or not all(
            isinstance(b, dict) and set(b) <= set(SPACES) and all(isinstance(v, str) or v is None for v in b.values())
            for b in bats)):
        raise SetupError(f"{where}.battalions: a list of battalions, each a mapping of spaces "
                         f"({', '.join(SPACES)}) to unit ids", (*at, "battalions"))
    if side.get("army") is not None and not isinstance(side["army"], str):
        raise SetupError(f"{where}.army: an army id", (*at, "army"))
    _check_pieces(model, side, where, at)
    if "heroes_lost" in side:
        _whole(side["heroes_lost"], f"{where}.heroes_lost", 0, 3, (*at, "heroes_lost"))
    _check_marks(side.get("marks") or {}, where, at)


def _check_pieces(model: Model, side: dict, where: str, at: Path) -> None:
    """The side's tiles and cards: zones no fuller than the mat allows, one faction, no more copies
    than the box holds (an army is built from one box)."""
    army = _found(model.army, side["army"], (*at, "army")) if side.get("army") else None
    bats = side.get("battalions")
    tiles = [(u, (*at, "battalions", i, s)) for i, b in enumerate(bats or []) for s, u in b.items() if u]
    if bats is None and army is not None:
        tiles += [(model.units[u].id, (*at, "army")) for b in army.battalions for u in b if u >= 0]

    def listed(key: str) -> list[tuple[str, Path]]:
        return [(u, (*at, key, i)) for i, u in enumerate(_ids(side, key, where, at))]

    reinf = listed("reinforcements")
    if "reinforcements" not in side and army is not None:
        reinf = [(model.units[u].id, (*at, "army")) for u in army.reinforcements]
    fleeing = listed("fleeing")
    for zone, ids in (("reinforcements", reinf), ("fleeing", fleeing)):
        for u, path in ids:
            if _found(model.unit, u, path).level == HERO_LEVEL:
                raise SetupError(f"{zone}: the hero '{u}' cannot be there (a defeated hero leaves the game)", path)
    units = [_found(model.unit, u, path) for u, path in tiles + reinf + fleeing + listed("gone")]
    hand = [_found(model.card, c, path) for c, path in listed("hand")]
    cards = hand + [_found(model.card, c, path) for c, path in listed("discard")]
    if len(reinf) > model.setup_reinforcements_max:
        raise SetupError(f"{where}.reinforcements: {len(reinf)} tiles; the zone takes "
                         f"{model.setup_reinforcements_max} at most (set-up)", (*at, "reinforcements"))
    if len(fleeing) > model.fleeing_spaces:
        raise SetupError(f"{where}.fleeing: {len(fleeing)} tiles; the zone has {model.fleeing_spaces} spaces",
                         (*at, "fleeing"))
    if len(hand) > model.hand_size:
        raise SetupError(f"{where}.hand: {len(hand)} cards; a hand holds {model.hand_size}", (*at, "hand"))
    factions = {u.faction for u in units} | {model.units[c.unit].faction for c in cards} | (
        {army.faction} if army is not None else set())
    if len(factions) > 1:
        raise SetupError(f"{where}: pieces of {' and '.join(sorted(factions))}; an army has one faction", at)
    for u, n in Counter(u.idx for u in units).items():
        if n > model.units[u].quantity:
            raise SetupError(f"{where}: {n} tiles of {model.units[u].id}; the box holds {model.units[u].quantity}",
                             at)
    for c, n in Counter(c.idx for c in cards).items():
        if n > model.cards[c].quantity:
            raise SetupError(f"{where}: {n} cards {model.cards[c].id} in hand and discard; the box holds "
                             f"{model.cards[c].quantity}", at)


def _check_marks(marks: Any, where: str, at: Path) -> None:
    """Marks: place -> {wounds, poison}, whole numbers (their limits need the table: `scenario_state`)."""
    if not isinstance(marks, dict) or not all(isinstance(m, dict) for m in marks.values()):
        raise SetupError(f"{where}.marks: a mapping of places (b1-fl, fleeing-1 ...) to {{wounds, poison}}",
                         (*at, "marks"))
    for place, m in marks.items():
        unknown = set(m) - _MARK_KEYS
        if unknown:
            raise SetupError(f"{where}.marks.{place}: unknown keys: {', '.join(sorted(map(str, unknown)))} "
                             f"(a tile carries wounds and poison)", (*at, "marks", place, min(map(str, unknown))))
        for key in m:
            _whole(m[key], f"{place}: {key}", 0, at=(*at, "marks", place, key))


def scenario_state(model: Model, players: int, setup: dict) -> DBState:
    """A table as the scenario describes it: armies or battalions, fleeing units, hands, marks."""
    _check_setup(model, setup)
    sides = list(setup.get("players") or [{}, {}])
    options = dict(setup.get("options") or {})
    st = DBState(model, 2, options, sheets=[_sheet(model, s, p) for p, s in enumerate(sides)], hold=True)
    for p, side in enumerate(sides):
        for u in side.get("fleeing") or []:
            st.fleeing[p].append(st.new_tile(p, model.unit(u).idx))
            st.fleeing_at[p].append(len(st.fleeing_at[p]))
        for u in side.get("gone") or []:
            st.gone[p].append(st.new_tile(p, model.unit(u).idx))
        missing = sum(1 for b in st.board[p] if b[HERO] < 0)
        st.heroes_lost[p] = side.get("heroes_lost", missing)
        if st.heroes_lost[p] != missing:
            raise SetupError(f"players.{p}.heroes_lost: {st.heroes_lost[p]}, but {missing} hero spaces are empty "
                             f"(a hero lost leaves its battalion for good)", ("players", p, "heroes_lost"))
        if missing >= 2:
            raise SetupError(f"players.{p}: {missing} heroes lost; the game ends when a player loses the second",
                             ("players", p))
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
        if st.deck_size[p] == 0 and any(st.discard[p]):
            raise SetupError(f"players.{p}.discard: {sum(st.discard[p])} cards, but the order deck is empty; the "
                             f"discard pile becomes the new deck as soon as the deck runs out",
                             ("players", p, "discard"))
        for where, marks in (side.get("marks") or {}).items():
            at = ("players", p, "marks", where)
            uid = _tile_at(st, p, where, at)
            unit = model.units[st.utype[uid]]
            st.wounds[uid] = int(marks.get("wounds", 0))
            st.poison[uid] = int(marks.get("poison", 0))
            if not 0 <= st.wounds[uid] <= unit.morale:
                raise SetupError(f"{where}: {st.wounds[uid]} wounds, but {unit.name} has {unit.morale} morale "
                                 f"squares", (*at, "wounds"))
            if st.poison[uid] not in (0, 1):
                raise SetupError(f"{where}: poison is 0 or 1 (a tile carries one poison die at most)",
                                 (*at, "poison"))
            if where.startswith("reinforcements") and (st.wounds[uid] or st.poison[uid]):
                raise SetupError(f"{where}: a tile in reinforcements carries no dice (regrouped units leave them "
                                 f"behind)", at)
            if where.startswith("b") and st.wounds[uid] >= unit.morale:
                raise SetupError(f"{where}: {unit.name} has every morale square covered; step 5 would have "
                                 f"taken it off the battalion", (*at, "wounds"))
    st.round = int(setup.get("round", 0))
    st.phase = "army"
    st.start()
    return st


def _tile_at(st: DBState, p: int, where: str, at: Path) -> int:
    """'b1-fl' (battalion 1, front left), 'reinforcements-1' or 'fleeing-2' -> the tile there."""
    zone, _, rest = where.partition("-")
    if zone.startswith("b") and zone[1:].isdigit() and 1 <= int(zone[1:]) <= 3 and rest in SPACES:
        uid = st.board[p][int(zone[1:]) - 1][SPACES.index(rest)]
    elif zone in ("reinforcements", "fleeing") and rest.isdigit() and \
            1 <= int(rest) <= len(zone_tiles := (st.reinf if zone == "reinforcements" else st.fleeing)[p]):
        uid = zone_tiles[int(rest) - 1]
    else:
        raise SetupError(f"no place '{where}' (write b1-fl, b2-hero, fleeing-1 ...)", at)
    if uid < 0:
        raise SetupError(f"no tile at {where}", at)
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
