"""Invariants checked after every step in checked mode.

Checked play should cost little more than unchecked play, so that every game can be checked:
one pass over the board gathers what the checks need, and the hidden-information check asks
the same function the observations are built from (`seen_unit`) about each face-down token,
instead of building both seats' whole observations.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.fantasy_draft.hidden import HIDDEN, positions_hidden, seen_unit
from engine.fantasy_draft.state import T_BONUS, T_MOVED, T_NOT, T_OWN, T_REV, T_UNIT

if TYPE_CHECKING:
    from engine.fantasy_draft.state import FDState


def check(st: "FDState") -> list[str]:
    m = st.model
    labels = m.board.labels
    flyers_only = m.board.flyers_only
    units = m.units
    power = st.power
    on_board: tuple[list[int], list[int]] = ([], [])
    where: tuple[list[int], list[int]] = ([], [])
    ground: list[str] = []
    weak: list[str] = []
    told: list[str] = []
    leaks: list[str] = []
    acts = m.acts
    over = st.phase == "over"
    secret_places = (positions_hidden(st, 0), positions_hidden(st, 1))
    for h, t in enumerate(st.board):
        if t is None:
            continue
        u = t[T_UNIT]
        on_board[t[T_OWN]].append(u)
        where[t[T_OWN]].append(h)
        # one token per hex, on ground it may stand on (only flyers-only hexes can refuse one)
        if (u < 0 or flyers_only[h]) and not st.can_stand(u, h):
            ground.append(f"{labels[h]}: {units[u].name} stands on {m.board.terrain[h]}")
        # strength never below 0 (only a negative term can take it there)
        if (t[T_BONUS] < 0 or power[u] < 0 or units[u].strength < 0) and st.strength(h) < 0:
            weak.append(f"{labels[h]}: strength below 0")
        # what both seats saw of a token holds for its unit (the samplers keep to it)
        if u >= 0 and (t[T_NOT] >> u & 1 or t[T_MOVED] > acts[u]):
            told.append(f"{labels[h]}: what was seen of the token rules out its {units[u].name}")
        # hidden identities never leak into the other seat's observation
        seat = 1 - t[T_OWN]
        if over or (t[T_REV] and not secret_places[seat]):
            continue
        seen = seen_unit(st, seat, t)
        if secret_places[seat]:
            if seen is not None:
                leaks.append(f"player {seat + 1} sees a token placed in secret at {labels[h]}")
        elif seen != HIDDEN:
            leaks.append(f"player {seat + 1} sees the face-down token at {labels[h]}")
    index = [f"player {s + 1}: the list of token hexes does not match the board"
             for s in (0, 1) if where[s] != st.hexes[s]]
    return _tokens(st, on_board) + index + ground + _power(st) + weak + told + _counters(st) + leaks


def _tokens(st: "FDState", on_board: tuple[list[int], list[int]]) -> list[str]:
    """Tokens neither created nor lost: army = on the board + still to place + removed."""
    out: list[str] = []
    if st.phase not in ("deploy", "play", "over"):
        return out
    size = st.model.rules.army_size
    for s in (0, 1):
        if sorted(on_board[s] + st.to_place[s] + st.removed[s]) != sorted(st.army[s]):
            out.append(f"player {s + 1}: tokens on the board, to place and removed do not add up to the army")
        if len(st.army[s]) > size:
            out.append(f"player {s + 1}: {len(st.army[s])} tokens, more than {size}")
    return out


def _power(st: "FDState") -> list[str]:
    """Power tokens: none created or lost, none above the cap."""
    m = st.model
    out: list[str] = []
    on_cards = sum(st.power)
    if st.supply < 0 or st.supply + on_cards != st.power_total:
        out.append(f"power tokens: {st.supply} in the supply and {on_cards} on cards")
    if on_cards:
        for u, n in enumerate(st.power):
            if n and m.units[u].strength + n > m.rules.power_cap:
                out.append(f"{m.units[u].name}: strength {m.units[u].strength + n} from power tokens, above {m.rules.power_cap}")
    return out


def _counters(st: "FDState") -> list[str]:
    if st.mana[0] < 0 or st.mana[1] < 0 or st.actions_left < 0:
        return ["negative mana or actions"]
    return []
