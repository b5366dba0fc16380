"""Scenario hooks of Hordes & Heroes: build a state from a situation, and the probe of named
values a scenario's `expect` can check (see docs/scenarios.md)."""
from __future__ import annotations

from typing import Any

from engine.hordes_and_heroes.model import Model
from engine.hordes_and_heroes.setup import setup_number
from engine.hordes_and_heroes.state import HHState


def scenario_state(model: Model, players: int, setup: dict) -> HHState:
    options = {"max_turns": setup_number(setup, "max_turns", 300, 1)}
    return HHState(model, players, options, situation=dict(setup))


def probe(st: Any) -> dict[str, Any]:
    """Named values; tuples are ordered, lists are compared as multisets."""
    m = st.model
    deck, mons, towns, trs = m.deck, m.monsters, m.towns, m.treasures
    seat = st.current
    players = []
    for p in range(st.n):
        players.append({
            "hand": [deck[c].id for c in st.hands[p]],
            "hand_count": len(st.hands[p]),
            "party": [deck[h.card].id for h in st.parties[p]],
            "active": [deck[h.card].id for h in st.parties[p] if h.active],
            "treasures": {deck[h.card].id: trs[h.treasure].id for h in st.parties[p] if h.treasure >= 0},
            "victory": [mons[c].id for c in st.victory[p]] + [towns[t].id for t in st.towns_won[p]],
            "monsters": len(st.victory[p]),
            "xp": sum(mons[c].xp for c in st.victory[p]),
            "score": st.score(p),
        })
    stacks = tuple({"name": s.name, "top": (mons[s.cards[-1]].id if s.up and s.cards[-1] >= 0 else None),
                    "up": s.up, "size": len(s.cards)} for s in st.line)
    return {
        "current": seat, "phase": st.phase, "turn": st.turns, "doom": st.doom, "final": st.final,
        "last_player": st.last_player,
        "strength": st.total_strength(seat), "remaining": st.remaining, "shield": st.shield, "steam": st.steam,
        "rerolls": st.rerolls,
        "dice": [f for i, f in enumerate(st.faces) if not st.locked[i]],
        "locked": [f for i, f in enumerate(st.faces) if st.locked[i]],
        "kept": [f for i, f in enumerate(st.faces) if st.kept[i]],
        "active": players[seat]["active"],
        "set_aside": [mons[c].id for c in st.set_aside],
        "counterattack": st.last_counterattack[0], "counterattack_damage": st.last_counterattack[1],
        "ambush": st.last_ambush[0], "ambush_damage": st.last_ambush[1],
        "players": tuple(players),
        "stacks": stacks,
        "vanguard": stacks[-1]["top"] if stacks else None,
        "deck_size": st.deck_size, "discard": [deck[i].id for i, c in enumerate(st.discard_counts) for _ in range(c)],
        "town_left": sum(st.town_counts), "treasures_left": sum(st.treasure_counts),
        "reductions": list(st.discounts),
        "treasure_box": [trs[t].id for t in st.box],
        "treasure_discard": [trs[t].id for t in st.treasure_discard],
        "stack_count": len(st.line),
        "start_player": st.start_player,
    }
