"""Scenario hooks of Dice Battles: build a state from a described table, and the probe of named
values a scenario's `expect` can check (see docs/scenarios.md and docs/games/dice-battles.md)."""
from __future__ import annotations

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
    for zone in ("reinforcements", "fleeing"):
        for u in side.get(zone) or []:
            if model.unit(u).level == HERO_LEVEL:
                raise ValueError(f"{zone}: the hero '{u}' cannot be there (a defeated hero leaves the game)")
    if "reinforcements" in side:
        reinf = tuple(model.unit(u).idx for u in side["reinforcements"])
    else:
        reinf = base.reinforcements if base is not None else ()
    faction = base.faction if base is not None else next(
        (model.units[u].faction for b in bats for u in b if u >= 0), "")
    return Sheet(side.get("army", "scenario"), side.get("army", "scenario"), faction, bats, reinf)


def scenario_state(model: Model, players: int, setup: dict) -> DBState:
    """A table as the scenario describes it: armies or battalions, fleeing units, hands, marks."""
    sides = list(setup.get("players") or [{}, {}])
    options = dict(setup.get("options") or {})
    st = DBState(model, 2, options, sheets=[_sheet(model, s) for s in sides], hold=True)
    for p, side in enumerate(sides):
        for u in side.get("fleeing") or []:
            st.fleeing[p].append(st.new_tile(p, model.unit(u).idx))
        for u in side.get("gone") or []:
            st.gone[p].append(st.new_tile(p, model.unit(u).idx))
        st.heroes_lost[p] = int(side.get("heroes_lost", sum(1 for b in st.board[p] if b[HERO] < 0)))
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
