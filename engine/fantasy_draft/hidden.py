"""What a seat may see of a Fantasy Draft game, and how a bot's view is made from it.

Hidden: which unit each face-down enemy token is, and during deployment where the other seat has
placed its tokens. Everything else (the draft, left-out units, removed units, power tokens on
hero cards, which token moved or acted this turn, frozen and boosted tokens) happens in the open.

`redact` hides in place by giving the hidden tokens canonical identities that depend only on what
the seat sees (so two states that differ only in hidden things become identical); `restore`
undoes it exactly; `resample` draws identities at random, consistent with what the seat saw:
the units it cannot see are exactly those dealt out, and each token gets a unit that fits what
was seen of it (the most activations it used in one turn, whether it stands on water, and the
units ruled out in the open, see `state.py`), and neither the stand-ins nor the samples read the
units under the face-down tokens. During deployment the other seat's placed units are put back
at random on its start zone.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from engine.fantasy_draft.state import T_EXTRA, T_MOVED, T_NOT, T_OWN, T_REV, T_STEP, T_UNIT, T_USED

if TYPE_CHECKING:
    from engine.fantasy_draft.state import FDState

HIDDEN = "hidden"


def positions_hidden(st: "FDState", seat: int) -> bool:
    """During deployment a seat does not see where the other seat's tokens are."""
    return st.phase in ("draft", "prepare", "deploy")


def seen_unit(st: "FDState", seat: int, t: list[int]) -> str | None:
    """What `seat` sees of token `t`: nothing (None, a token placed in secret), a face-down
    token (HIDDEN) or the unit's id. Observations and the invariant checks both ask this."""
    if t[T_OWN] != seat and positions_hidden(st, seat):
        return None
    return st.model.units[t[T_UNIT]].id if st.visible_to(seat, t) else HIDDEN


def observation(st: "FDState", seat: int) -> dict[str, Any]:
    m = st.model
    ids = [u.id for u in m.units]
    board: dict[str, Any] = {}
    for h, t in enumerate(st.board):
        if t is None:
            continue
        unit = seen_unit(st, seat, t)
        if unit is None:
            continue
        board[m.board.labels[h]] = {
            "seat": t[T_OWN], "unit": unit,
            "revealed": bool(t[T_REV]), "used": t[T_USED], "bonus": t[4], "frozen": bool(t[5]),
            "extra": t[T_EXTRA], "moved": bool(t[T_MOVED]), "acted": t[T_MOVED],
            "ruled_out": [ids[u] for u in range(len(ids)) if t[T_NOT] >> u & 1]}
    return {
        "seat": seat, "phase": st.phase, "current": st.current, "turn": st.turn,
        "actions_left": st.actions_left, "mana": list(st.mana),
        "pool": [ids[u] for u in st.pool], "drafted": [[ids[u] for u in d] for d in st.drafted],
        "left_out": [[ids[u] for u in d] for d in st.left_out],
        "to_place": [len(p) if s != seat else [ids[u] for u in p] for s, p in enumerate(st.to_place)],
        "removed": [[ids[u] for u in d] for d in st.removed],
        "power": {ids[u]: n for u, n in enumerate(st.power) if n}, "power_supply": st.supply,
        "once_used": sorted([ids[u], a] for u, a in st.once_used),
        "pending_roll": st.dkind == "roll", "last_roll": st.last_roll,
        "board": board, "winners": list(st.winners), "end_reason": st.end_reason,
    }


def hidden_units(st: "FDState", enemy: int, face_up: list[int] | None = None) -> list[int]:
    """The units of `enemy` that `1 - enemy` cannot tell apart: army less removed less face up
    (`face_up`: the units of `enemy`'s face-up tokens on the board, when the caller has them)."""
    out: list[int] = []
    for u, n in enumerate(hidden_counts(st, enemy, face_up)):
        if n > 0:
            out += [u] * n
    return out


def hidden_counts(st: "FDState", enemy: int, face_up: list[int] | None = None) -> list[int]:
    """`hidden_units` as a count per unit (a count at or below 0: none).

    Counted in a list indexed by unit (a Counter is several times slower here, and bots ask at
    every decision)."""
    left = [0] * len(st.model.units)
    for u in st.army[enemy]:
        left[u] += 1
    for u in st.removed[enemy]:
        left[u] -= 1
    for u in st.to_place[enemy]:
        left[u] -= 1
    if face_up is None:
        face_up = [t[T_UNIT] for t in st.board if t is not None and t[T_REV] and t[T_OWN] == enemy]
    for u in face_up:
        left[u] -= 1
    return left


def _need(st: "FDState", t: list[int]) -> int:
    """Fewest actions the unit under token `t` must have, from what everyone saw it do: the most
    activations it used in one turn (this turn's count less extra activations an ability gave)."""
    acted, most = t[T_USED] - t[T_EXTRA], t[T_MOVED]
    return acted if acted > most else most


def _deal(st: "FDState", hidden: list[tuple[int, list[int]]], units: list[int],
          rng: random.Random | None) -> None:
    """Give each face-down token (hex, token) of `hidden` one of `units` (as many), each a unit
    that fits what was seen of it: enough actions (`_need`), able to stand on its hex (a token on
    water flies), not ruled out in the open (T_NOT). Reads nothing but those public facts.

    Tokens with such a constraint are served first, those with the fewest fitting units first
    (ties in hex order), each taking a unit that fits: at random with `rng`, else the first in
    unit order (the canonical stand-ins of `redact`). When none that fits is left, units already
    given are passed on along an augmenting path (a deal always exists: the true units are one).
    The tokens nothing is known of take the rest: shuffled with `rng`, else in unit order by hex."""
    m = st.model
    acts, wet = m.acts, m.board.flyers_only
    pool = sorted(units)
    if rng is not None:
        rng.shuffle(pool)
    loose: list[list[int]] = []
    tight: list[tuple[int, int, int, list[int]]] = []
    for h, t in hidden:
        need = _need(st, t)
        if need > 0 or t[T_NOT] or wet[h]:
            tight.append((need, h, t[T_NOT] | (m.walkers if wet[h] else 0), t))
        else:
            loose.append(t)
    if tight:
        fits = [[i for i, u in enumerate(pool) if acts[u] >= need and not banned >> u & 1]
                for need, _, banned, _ in tight]
        order = sorted(range(len(tight)), key=lambda k: (len(fits[k]), tight[k][1]))
        tight = [tight[k] for k in order]
        fits = [fits[k] for k in order]
        owner = [-1] * len(pool)  # pool index -> tight index holding it
        held = [-1] * len(tight)
        for k, options in enumerate(fits):
            free = [i for i in options if owner[i] < 0]
            if free:
                i = free[0] if rng is None else free[rng.randrange(len(free))]
                owner[i], held[k] = k, i
            elif not _augment(k, fits, owner, held, set()):
                # the constraints admit no deal (a hand-made position): any unit left will do
                i = owner.index(-1)
                owner[i], held[k] = k, i
        for k, (_, _, _, t) in enumerate(tight):
            t[T_UNIT] = pool[held[k]]
        rest = [u for i, u in enumerate(pool) if owner[i] < 0]
    else:
        rest = pool
    for t, u in zip(loose, rest):
        t[T_UNIT] = u


def _augment(k: int, fits: list[list[int]], owner: list[int], held: list[int], seen: set[int]) -> bool:
    """Kuhn's augmenting path: find token k a unit, moving holders on to other units that fit."""
    for i in fits[k]:
        if i in seen:
            continue
        seen.add(i)
        if owner[i] < 0 or _augment(owner[i], fits, owner, held, seen):
            owner[i], held[k] = k, i
            return True
    return False


def redact(st: "FDState", seat: int) -> Any:
    """Hide from `seat` what it cannot see, in place; the token lists only what was changed.

    Every bot call is wrapped in redact/restore, so both touch only what is hidden: the other
    seat's tokens during deployment, the unit and placement step of face-down tokens in play."""
    if st.phase == "over":
        return None
    if positions_hidden(st, seat):
        return _lift(st, 1 - seat)
    return _disguise(st, 1 - seat)


def _lift(st: "FDState", enemy: int) -> Any:
    """Deployment: `enemy`'s tokens leave the board and their placements leave the log."""
    placed = st.take_off(enemy)
    return (placed, (), _blank(st, [t[T_STEP] for _, t in placed if not t[T_REV]]), {})


def _disguise(st: "FDState", enemy: int) -> Any:
    """Play: `enemy`'s face-down tokens get canonical stand-in units and no placement step, and
    `enemy`'s play choices leave the log (`_plays`).

    The stand-ins are the hidden units themselves, given out in a canonical order. During play
    every token is on the board or removed, so the units under face-down tokens are exactly the
    army less removed and face-up units (`hidden_units`), which the seat knows."""
    board = st.board
    hidden = [(h, t) for h in st.hexes[enemy] if not (t := board[h])[T_REV]]  # type: ignore[index]
    saved = [(t, t[T_UNIT], t[T_STEP]) for _, t in hidden]
    steps = _blank(st, [step for _, _, step in saved] + _plays(st, enemy))
    for _, t in hidden:
        t[T_STEP] = -1
    _deal(st, hidden, [u for _, u, _ in saved], None)
    if saved:
        st.units_changed()
    return ((), saved, steps, _forget(st, [h for h, _ in hidden]))


def _plays(st: "FDState", seat: int) -> list[int]:
    """The log positions of `seat`'s play choices. The move a choice made is open (the labels, the
    board), but its number among the options is not: the options are listed token by token, so it
    counts the moves and special actions of the chooser's tokens before the one that acted, which
    tells a face-down hero from a basic unit and a trap from a Wolf."""
    out = []
    link = st.plays
    while link is not None:
        if link[1] == seat:
            out.append(link[0])
        link = link[2]
    return out


def _forget(st: "FDState", hexes: list[int]) -> dict[int, tuple]:
    """Take out the moves the state keeps for the tokens on `hexes` (`FDState._steps`): each entry
    names the unit it was listed for, which is the real unit of a face-down token; returns them."""
    kept = st._steps
    return {h: kept.pop(h) for h in hexes if h in kept}


def _blank(st: "FDState", positions: list[int]) -> list[tuple[int, int]]:
    """Set the secret choices at these log positions to 0; returns what they were."""
    actions = st.actions
    steps = [(i, actions[i]) for i in positions if 0 <= i < len(actions)]
    for i, _ in steps:
        actions[i] = 0
    return steps


def restore(st: "FDState", token: Any) -> None:
    if token is None:
        return
    placed, saved, steps, forgotten = token
    st._steps.update(forgotten)
    if placed:
        st.put_back(placed)
    for t, unit, step in saved:
        t[T_UNIT] = unit
        t[T_STEP] = step
    if saved:
        st.units_changed()
    actions = st.actions
    for i, a in steps:
        actions[i] = a


def resample(st: "FDState", seat: int, rng: random.Random) -> None:
    """Draw afresh, at random, everything `seat` cannot see, consistent with what it saw; the
    draw reads only what `seat` sees, so it is the same on the full state as on the redacted one.

    Deployment: the other seat's placed tokens (all of them are secret) are taken off and its
    placed units (the army in placing order less those still to place, an open count) put back
    on random hexes of its start zone where they may stand. Play: the units `seat` cannot tell
    apart are dealt over the other seat's face-down tokens (`_deal`)."""
    enemy = 1 - seat
    if st.phase == "over":
        return
    board = st.board
    if positions_hidden(st, seat):
        army = st.army[enemy]
        placed = army[:len(army) - len(st.to_place[enemy])]
        for h in st.hexes[enemy]:
            board[h] = None
        free = [h for h in st.model.board.zone_hexes[enemy] if board[h] is None]
        rng.shuffle(free)
        for u in sorted(placed):
            h = next(x for x in free if st.can_stand(u, x))
            free.remove(h)
            board[h] = [enemy, u, 0, 0, 0, 0, 0, 0, -1, 0]
        st.board_changed()
        return
    hidden = [(h, t) for h in st.hexes[enemy] if not (t := board[h])[T_REV]]  # type: ignore[index]
    _deal(st, hidden, hidden_units(st, enemy), rng)
    st.units_changed()
