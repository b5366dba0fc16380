"""Scenario hooks of Fantasy Draft: build a state from a situation, and the probe of named values
a scenario's `expect` can check (see docs/games/fantasy-draft.md, "Scenarios")."""
from __future__ import annotations

from typing import Any

from engine.fantasy_draft.hidden import observation
from engine.fantasy_draft.model import Model
from engine.fantasy_draft.state import (T_EXTRA, T_FROZEN, T_OWN, T_REV, T_UNIT, T_USED, FDState)


def _unit(model: Model, name: Any) -> int:
    if str(name) not in model.by_id:
        raise ValueError(f"unknown unit '{name}' (known: {', '.join(sorted(model.by_id))})")
    return model.by_id[str(name)]


def _hex(model: Model, label: Any) -> int:
    if str(label) not in model.board.index:
        raise ValueError(f"no hex '{label}' on the board")
    return model.board.index[str(label)]


def _seat(value: Any, what: str) -> int:
    if value.__class__ is not int or value not in (0, 1):
        raise ValueError(f"{what} is {value!r}: a seat is 0 (player 1) or 1 (player 2)")
    return value


def _placeable(st: FDState, label: str, h: int, u: int, seat: int) -> None:
    """A token the rules could have brought here: one copy of each hero, on ground it may stand on."""
    unit = st.model.units[u]
    if unit.hero and (u in st.drafted[0] or u in st.drafted[1]):
        raise ValueError(f"{label}: the {unit.name} is on the board twice (there is one card of each hero)")
    if not st.can_stand(u, h):
        raise ValueError(f"{label}: the {unit.name} cannot stand on {st.model.board.terrain[h]} (it does not fly)")


def _power(model: Model, label: str, u: int, value: Any) -> int:
    """Power tokens go on hero cards, and never lift the hero above the cap."""
    unit = model.units[u]
    room = model.rules.power_cap - unit.strength
    if not unit.hero:
        raise ValueError(f"{label}: power tokens go on hero cards; the {unit.name} is a basic unit")
    if value.__class__ is not int or not 0 <= value <= room:
        raise ValueError(f"{label}: power {value!r} for the {unit.name} (strength {unit.strength}): "
                         f"0 to {max(room, 0)}, as strength never goes above {model.rules.power_cap}")
    return value


def scenario_state(model: Model, players: int, setup: dict) -> FDState:
    """A state in the draft, deployment or play phase, as the scenario's `setup` describes it."""
    st = FDState(model, {"turn_cap": setup.get("turn_cap", model.rules.turn_cap)})
    phase = str(setup.get("phase", "play"))
    if phase == "draft":
        st.mana = [int(x) for x in setup.get("mana", st.mana)]
        st.drafted = [[_unit(model, u) for u in d] for d in setup.get("drafted", [[], []])]
        taken = {u for d in st.drafted for u in d}
        pool = setup.get("pool")
        st.pool = [_unit(model, u) for u in pool] if pool is not None else [u for u in model.heroes if u not in taken]
        st.current = int(setup.get("current", model.rules.first_drafter))
    elif phase == "deploy":
        st.phase = "deploy"
        for s, army in enumerate(setup.get("armies", [[], []])):
            st.army[s] = [_unit(model, u) for u in army]
            st.to_place[s] = list(st.army[s])
            st.drafted[s] = [u for u in st.army[s] if model.units[u].hero]
    elif phase == "play":
        st.phase = "play"
        for label, spec in (setup.get("board") or {}).items():
            h = _hex(model, label)
            u = _unit(model, spec["unit"])
            s = _seat(spec.get("seat", 0), f"the seat of {label}")
            _placeable(st, label, h, u, s)
            st.board[h] = [s, u, int(bool(spec.get("revealed", False))), 0, 0, int(bool(spec.get("frozen", False))), 0, 0, -1]
            st.army[s].append(u)
            if model.units[u].hero:
                st.drafted[s].append(u)
            if spec.get("power"):
                st.power[u] = _power(model, label, u, spec["power"])
                st.supply -= st.power[u]
        if "power_supply" in setup:
            st.supply = int(setup["power_supply"])
            st.power_total = st.supply + sum(st.power)
        if st.supply < 0:
            raise ValueError(f"the heroes hold {sum(st.power)} power tokens, more than the supply of {st.power_total}")
        st.pool = [u for u in model.heroes if u not in st.drafted[0] + st.drafted[1]]
        st.mana = [0, 0]
        st.turn = int(setup.get("turn", 0))
        st.current = _seat(setup.get("current", 0), "current")
        st.actions_left = int(setup.get("actions", model.rules.actions))
        st.board_changed()
    else:
        raise ValueError(f"unknown phase '{phase}' (draft, deploy or play)")
    st._advance()
    return st


def probe(st: FDState) -> dict[str, Any]:
    """Named values; tuples are ordered, lists are compared as multisets."""
    m = st.model
    ids = [u.id for u in m.units]
    hexes: dict[str, Any] = {}
    for h, label in enumerate(m.board.labels):
        t = st.board[h]
        hexes[label] = None if t is None else {
            "unit": ids[t[T_UNIT]], "seat": t[T_OWN], "revealed": bool(t[T_REV]), "strength": st.strength(h),
            "power": st.power[t[T_UNIT]], "frozen": bool(t[T_FROZEN]), "used": t[T_USED],
            "left": st.activations_left(h), "extra": t[T_EXTRA]}
    seen = {}
    for s in (0, 1):
        board = observation(st, s)["board"]
        seen[str(s)] = {label: (board[label]["unit"] if label in board else None) for label in m.board.labels}
    return {
        "phase": st.phase, "current": st.current, "turn": st.turn, "actions_left": st.actions_left,
        "mana": tuple(st.mana), "power_supply": st.supply, "last_roll": st.last_roll,
        "drafted": tuple([ids[u] for u in d] for d in st.drafted),
        "left_out": tuple([ids[u] for u in d] for d in st.left_out),
        "removed": tuple([ids[u] for u in d] for d in st.removed),
        "army_size": tuple(len(a) for a in st.army),
        "hexes": hexes, "seen": seen,
        "terrain": {label: m.board.terrain[h] for h, label in enumerate(m.board.labels)},
    }
