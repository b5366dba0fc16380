"""Scenario hooks of Kingdoms: build a state from a given situation, and the probe of named values
a scenario's `expect` can check (see docs/scenarios.md)."""
from __future__ import annotations

from typing import Any

from engine.kingdoms.model import Model
from engine.kingdoms.state import KState


def scenario_state(model: Model, players: int, setup: dict) -> KState:
    options = dict(setup.get("options") or {})
    return KState(model, players, options, situation=dict(setup))


def probe(st: Any) -> dict[str, Any]:
    """Named values: `spaces.<label>` (units, horde, hits), `players.<n>` (resources, units, score,
    abilities), `hordes` (label -> horde id), and the round and phase. Tuples compare in order,
    lists as multisets."""
    m = st.model
    lab = st.board.labels
    spaces: dict[str, dict] = {}
    for sp in range(st.board.size):
        if st.owner[sp] >= 0 or st.horde[sp] >= 0 or st.inv[sp]:
            spaces[lab[sp]] = {
                "owner": st.owner[sp], "settlements": st.sett[sp], "castles": st.cast[sp],
                "towers": st.tower[sp], "armies": st.arm[sp], "invaders": st.inv[sp],
                "horde": m.hordes[st.horde[sp]].id if st.horde[sp] >= 0 else None, "hits": st.hits[sp],
                "castle_damage": st.castle_dmg[sp], "moved": st.moved[sp]}
    players = []
    for p in range(st.n):
        players.append({
            "resources": {r: st.res[p][i] for i, r in enumerate(m.resources)},
            "resource_total": sum(st.res[p]),
            "kingdom": m.kingdoms[st.kingdom[p]].id if st.kingdom[p] >= 0 else None,
            "abilities": [m.abilities[a].id for a in st.abil[p]],
            "settlements": st.n_set[p], "armies": st.n_arm[p], "castles": st.n_cast[p], "towers": st.n_tow[p],
            "victory": st.vt[p], "score": st.score(p), "out": st.out[p],
            "uses_left": {m.abilities[a].id: min(st.uses_left(p, m.abilities[a]), 99) for a in st.abil[p]},
        })
    return {
        "round": st.round, "phase": st.phase, "current": st.current, "over": st.is_over(),
        "spaces": spaces, "players": tuple(players),
        "hordes": {lab[s]: m.hordes[st.horde[s]].id for s in st.horde_spaces()},
        "horde_count": len(st.horde_spaces()),
        "stats": dict(st.stats), "end_reason": st.end_reason,
        "hit_supply": st.hit_free,
        "supply": {"hit-counters": st.hit_free, "victory-tokens": st.vt_free, "castles": st.castle_free,
                   "towers": st.tower_free,
                   "chits": {r: st.chit_free[i] for i, r in enumerate(m.resources)},
                   "horde-pool": sum(st.pool)},
        "forbidden": {lab[sp]: [o for o in range(st.n) if (st.dip[sp] >> o) & 1]
                      for sp in range(st.board.size) if st.dip[sp]},
    }
