"""Invariants checked after every step in checked mode."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from engine.fantasy_draft.hidden import HIDDEN, observation, positions_hidden
from engine.fantasy_draft.state import T_OWN, T_REV, T_UNIT

if TYPE_CHECKING:
    from engine.fantasy_draft.state import FDState


def check(st: "FDState") -> list[str]:
    m = st.model
    out: list[str] = []
    # tokens neither created nor lost: army = on the board + still to place + removed
    if st.phase in ("deploy", "play", "over"):
        for s in (0, 1):
            have = Counter(t[T_UNIT] for t in st.board if t is not None and t[T_OWN] == s)
            have.update(st.to_place[s])
            have.update(st.removed[s])
            if have != Counter(st.army[s]):
                out.append(f"player {s + 1}: tokens on the board, to place and removed do not add up to the army")
            if len(st.army[s]) > m.rules.army_size:
                out.append(f"player {s + 1}: {len(st.army[s])} tokens, more than {m.rules.army_size}")
    # one token per hex, on ground it may stand on
    for h, t in enumerate(st.board):
        if t is not None and not st.can_stand(t[T_UNIT], h):
            out.append(f"{m.board.labels[h]}: {m.units[t[T_UNIT]].name} stands on {m.board.terrain[h]}")
    # power tokens: none created or lost, none above the cap, strength never below 0
    if st.supply < 0 or st.supply + sum(st.power) != st.power_total:
        out.append(f"power tokens: {st.supply} in the supply and {sum(st.power)} on cards")
    for u, n in enumerate(st.power):
        if n and m.units[u].strength + n > m.rules.power_cap:
            out.append(f"{m.units[u].name}: strength {m.units[u].strength + n} from power tokens, above {m.rules.power_cap}")
    for h, t in enumerate(st.board):
        if t is not None and st.strength(h) < 0:
            out.append(f"{m.board.labels[h]}: strength below 0")
    if any(x < 0 for x in st.mana) or st.actions_left < 0:
        out.append("negative mana or actions")
    # hidden identities never leak into the other seat's observation
    for seat in (0, 1):
        seen = observation(st, seat)["board"]
        for h, t in enumerate(st.board):
            if t is None or t[T_OWN] == seat or st.phase == "over":
                continue
            entry = seen.get(m.board.labels[h])
            if positions_hidden(st, seat):
                if entry is not None:
                    out.append(f"player {seat + 1} sees a token placed in secret at {m.board.labels[h]}")
            elif not t[T_REV] and (entry is None or entry["unit"] != HIDDEN):
                out.append(f"player {seat + 1} sees the face-down token at {m.board.labels[h]}")
    return out
