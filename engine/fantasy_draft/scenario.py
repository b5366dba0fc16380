"""Scenario hooks of Fantasy Draft: build a state from a situation, and the probe of named values
a scenario's `expect` can check (see docs/games/fantasy-draft.md, "Scenarios")."""
from __future__ import annotations

from typing import Any, Union

from engine.core.scenario import SetupError
from engine.fantasy_draft.hidden import observation
from engine.fantasy_draft.model import Model, UnitType
from engine.fantasy_draft.state import (T_EXTRA, T_FROZEN, T_OWN, T_REV, T_UNIT, T_USED, FDState)


SETUP_KEYS = {
    "play": ("phase", "board", "current", "actions", "turn", "turn_cap", "power_supply"),
    "draft": ("phase", "mana", "pool", "drafted", "current", "turn_cap"),
    "deploy": ("phase", "armies", "turn_cap"),
}
"""The setup keys each phase reads (docs/games/fantasy-draft.md, "Scenarios"); any other key is a
typo or a value for another phase, refused rather than quietly ignored."""

TOKEN_KEYS = ("unit", "seat", "revealed", "power", "frozen")
Path = tuple[Union[str, int], ...]
"""Where in a scenario's setup a value lies (keys and list indexes), for SetupError."""


def _unit(model: Model, name: Any, where: str = "unit", at: Path = ()) -> int:
    if name.__class__ is not str or name not in model.by_id:
        raise SetupError(f"{where}: unknown unit {name!r} (known: {', '.join(sorted(model.by_id))})", at)
    return model.by_id[name]


def _hex(model: Model, label: Any) -> int:
    if str(label) not in model.board.index:
        raise SetupError(f"board: no hex '{label}' on the board (a1 to {model.board.labels[-1]})", ("board", label))
    return model.board.index[str(label)]


def _seat(value: Any, what: str, at: Path) -> int:
    if value.__class__ is not int or value not in (0, 1):
        raise SetupError(f"{what} is {value!r}: a seat is 0 (player 1) or 1 (player 2)", at)
    return value


def _whole(value: Any, what: str, low: int, high: int, at: Path) -> int:
    """A whole number from `low` to `high` (a bool, a string or a float is refused, not converted)."""
    if value.__class__ is not int or not low <= value <= high:
        raise SetupError(f"{what} is {value!r}: a whole number from {low} to {high}", at)
    return value


def _flag(value: Any, what: str, at: Path) -> bool:
    if value.__class__ is not bool:
        raise SetupError(f"{what} is {value!r}: true or false", at)
    return value


def _pair(value: Any, what: str) -> list:
    """A list with one entry per seat (the setup key `what`)."""
    if not isinstance(value, list) or len(value) != 2:
        raise SetupError(f"{what} is {value!r}: a list of two entries, player 1's then player 2's", (what,))
    return value


def _units(model: Model, value: Any, what: str, at: Path) -> list[int]:
    if not isinstance(value, list):
        raise SetupError(f"{what} is {value!r}: a list of unit ids", at)
    return [_unit(model, u, what, (*at, i)) for i, u in enumerate(value)]


def _heroes(model: Model, value: Any, what: str, at: Path) -> list[int]:
    units = _units(model, value, what, at)
    for i, u in enumerate(units):
        if not model.units[u].hero:
            raise SetupError(f"{what}: the {model.units[u].name} is a basic unit, not a hero card", (*at, i))
    return units


def _one_of_each_hero(model: Model, armies: list[list[int]], what: str) -> None:
    """There is one card of each hero, and an army holds no more of a basic unit than its
    reference card, one flag and `army_size` tokens at most (`what`: the setup key they come from)."""
    seen: set[int] = set()
    for s, army in enumerate(armies):
        at: Path = (what, s) if what != "board" else (what,)
        if len(army) > model.rules.army_size:
            raise SetupError(f"{what}: player {s + 1} has {len(army)} tokens; an army has at most "
                             f"{model.rules.army_size}", at)
        for u in sorted(set(army)):
            unit, n = model.units[u], army.count(u)
            where = (*at, army.index(u)) if what != "board" else at
            if unit.hero and (n > 1 or u in seen):
                raise SetupError(f"{what}: the {unit.name} is there twice (there is one card of each hero)", where)
            if not unit.hero and n > unit.count:
                raise SetupError(f"{what}: player {s + 1} has {n} of the {unit.name}; the reference card has "
                                 f"{unit.count}", where)
        seen.update(army)


def _keys(spec: Any, allowed: tuple[str, ...], what: str, at: Path) -> dict:
    if not isinstance(spec, dict):
        raise SetupError(f"{what} is {spec!r}: a mapping with the keys {', '.join(allowed)}", at)
    unknown = [str(k) for k in spec if k not in allowed]
    if unknown:
        raise SetupError(f"{what}: unknown key '{unknown[0]}' (known: {', '.join(allowed)})", (*at, unknown[0]))
    return spec


def _placeable(st: FDState, label: str, h: int, u: int, seat: int) -> None:
    """A token the rules could have brought here: one copy of each hero, on ground it may stand on."""
    unit = st.model.units[u]
    if unit.hero and (u in st.drafted[0] or u in st.drafted[1]):
        raise SetupError(f"{label}: the {unit.name} is on the board twice (there is one card of each hero)",
                         ("board", label, "unit"))
    if not st.can_stand(u, h):
        raise SetupError(f"{label}: the {unit.name} cannot stand on {st.model.board.terrain[h]} (it does not fly)",
                         ("board", label))


def _power(model: Model, label: str, u: int, value: Any) -> int:
    """Power tokens go on hero cards, and never lift the hero above the cap."""
    unit = model.units[u]
    room = model.rules.power_cap - unit.strength
    if not unit.hero:
        raise SetupError(f"{label}: power tokens go on hero cards; the {unit.name} is a basic unit",
                         ("board", label, "power"))
    if value.__class__ is not int or not 0 <= value <= room:
        raise SetupError(f"{label}: power {value!r} for the {unit.name} (strength {unit.strength}): "
                         f"0 to {max(room, 0)}, as strength never goes above {model.rules.power_cap}",
                         ("board", label, "power"))
    return value


def _affordable(model: Model, armies: list[list[int]], what: str, left: list[int] | None = None) -> None:
    """Each seat's heroes were paid for out of its mana (`left`: the mana still unspent)."""
    for s, army in enumerate(armies):
        cost = sum(model.units[u].cost for u in army if model.units[u].hero)
        spent = cost + (left[s] if left else 0)
        if spent > model.rules.mana:
            more = f" with {left[s]} still unspent" if left else ""
            raise SetupError(f"{what}: player {s + 1}'s heroes cost {cost} mana{more}; a player has "
                             f"{model.rules.mana} to spend", (what, s) if what != "board" else (what,))


def _one_flag(model: Model, armies: list[list[int]], what: str) -> None:
    """Each army has its flag and at least one unit besides it (a player left with only the flag
    has lost)."""
    for s, army in enumerate(armies):
        at: Path = (what, s) if what != "board" else (what,)
        if model.flag not in army:
            raise SetupError(f"{what}: player {s + 1} has no flag (every army has one, and the game ends "
                             "when it is taken)", at)
        if all(u == model.flag for u in army):
            raise SetupError(f"{what}: player {s + 1} has no unit besides the flag, so that player has "
                             "already lost", at)


def _gains_power_face_down(unit: UnitType) -> bool:
    """Whether a hero can get power tokens and stay face down: only from an ability that fires when
    a unit is removed nearby. A special action turns the hero face up, and so does a fight it won."""
    return any(ab.trigger == "unit-removed" and any(e.kind == "power" for e in ab.effects)
               for ab in unit.abilities)


def _reached(st: FDState) -> None:
    """What a game in play always has (see docs/games/fantasy-draft.md, "Scenarios"): a flag and a
    unit per seat, heroes the seat could pay for, face up what only a face-up token can be."""
    m = st.model
    for h, t in enumerate(st.board):
        if t is None or t[T_REV]:
            continue
        label, unit = m.board.labels[h], m.units[t[T_UNIT]]
        if t[T_FROZEN]:
            raise SetupError(f"{label}: a frozen token is face up (freezing turns its target face up); "
                             "add revealed: true", ("board", label, "frozen"))
        if st.power[t[T_UNIT]] and not _gains_power_face_down(unit):
            raise SetupError(f"{label}: the {unit.name} gets power tokens only by acting or winning a fight, "
                             "which turns it face up; add revealed: true", ("board", label, "power"))
    _one_flag(m, st.army, "board")
    _affordable(m, st.army, "board")
    rules = m.rules
    if st.actions_left > rules.actions and not any(
            t[T_REV] and any(e.kind == "extra-actions" for ab in m.units[t[T_UNIT]].abilities for e in ab.effects)
            for h in st.hexes[st.current] if (t := st.board[h]) is not None):
        raise SetupError(f"actions is {st.actions_left}: more than {rules.actions} only after an ability "
                         f"that gives actions, and player {st.current + 1} has no face-up hero with one", ("actions",))


def most_actions(model: Model) -> int:
    """The most actions a turn can have left: the rules' actions and what abilities add."""
    gain = [e.amount - ab.cost for u in model.units for ab in u.abilities for e in ab.effects
            if e.kind == "extra-actions"]
    return model.rules.actions + max([0] + gain)


def scenario_state(model: Model, players: int, setup: dict) -> FDState:
    """A state in the draft, deployment or play phase, as the scenario's `setup` describes it;
    a SetupError (a ValueError) at the key for anything the rules could never reach."""
    rules = model.rules
    phase = setup.get("phase", "play")
    if phase not in SETUP_KEYS:
        raise SetupError(f"phase is {phase!r}: draft, deploy or play", ("phase",))
    _keys(setup, SETUP_KEYS[phase], f"setup for phase {phase}", ())
    cap = _whole(setup.get("turn_cap", rules.turn_cap), "turn_cap", 1, 1_000_000, ("turn_cap",))
    st = FDState(model, {"turn_cap": cap})
    if phase == "draft":
        st.mana = [_whole(x, "mana", 0, rules.mana, ("mana", s))
                   for s, x in enumerate(_pair(setup.get("mana", st.mana), "mana"))]
        st.drafted = [_heroes(model, d, "drafted", ("drafted", s))
                      for s, d in enumerate(_pair(setup.get("drafted", [[], []]), "drafted"))]
        _one_of_each_hero(model, st.drafted, "drafted")
        _affordable(model, st.drafted, "drafted", st.mana)
        taken = {u for d in st.drafted for u in d}
        pool = setup.get("pool")
        st.pool = _heroes(model, pool, "pool", ("pool",)) if pool is not None else [u for u in model.heroes if u not in taken]
        again = [i for i, u in enumerate(st.pool) if u in taken or st.pool.count(u) > 1]
        if again:
            raise SetupError(f"pool: the {model.units[st.pool[again[0]]].name} is already drafted or listed twice "
                             "(there is one card of each hero)", ("pool", again[-1]))
        st.current = _seat(setup.get("current", rules.first_drafter), "current", ("current",))
    elif phase == "deploy":
        st.phase = "deploy"
        armies = [_units(model, a, "armies", ("armies", s))
                  for s, a in enumerate(_pair(setup.get("armies", [[], []]), "armies"))]
        _one_of_each_hero(model, armies, "armies")
        _one_flag(model, armies, "armies")
        _affordable(model, armies, "armies")
        for s, army in enumerate(armies):
            st.army[s] = army
            st.to_place[s] = list(army)
            st.drafted[s] = [u for u in army if model.units[u].hero]
    else:
        st.phase = "play"
        board = setup.get("board") or {}
        if not isinstance(board, dict):
            raise SetupError(f"board is {board!r}: a mapping of hex labels to tokens", ("board",))
        for label, spec in board.items():
            h = _hex(model, label)
            where = f"board.{label}"
            at: Path = ("board", label)
            spec = _keys(spec, TOKEN_KEYS, where, at)
            if "unit" not in spec:
                raise SetupError(f"{where}: a token needs a unit", at)
            u = _unit(model, spec["unit"], f"{where}.unit", (*at, "unit"))
            s = _seat(spec.get("seat", 0), f"the seat of {label}", (*at, "seat"))
            _placeable(st, label, h, u, s)
            revealed, frozen = (_flag(spec.get(k, False), f"{where}.{k}", (*at, k)) for k in ("revealed", "frozen"))
            st.board[h] = [s, u, int(revealed), 0, 0, int(frozen), 0, 0, -1, 0]
            st.army[s].append(u)
            if model.units[u].hero:
                st.drafted[s].append(u)
            if spec.get("power"):
                st.power[u] = _power(model, label, u, spec["power"])
                st.supply -= st.power[u]
        _one_of_each_hero(model, st.army, "board")
        if st.supply < 0:
            raise SetupError(f"the heroes hold {sum(st.power)} power tokens, more than the supply of "
                             f"{st.power_total}", ("board",))
        if "power_supply" in setup:
            st.supply = _whole(setup["power_supply"], "power_supply", 0, st.supply, ("power_supply",))
            st.power_total = st.supply + sum(st.power)
        st.pool = [u for u in model.heroes if u not in st.drafted[0] + st.drafted[1]]
        st.mana = [0, 0]
        st.current = _seat(setup.get("current", 0), "current", ("current",))
        first = (st.current - rules.first_player) % 2  # the seats take turns, the first player's turn is turn 0
        if "turn" not in setup and first >= cap:
            raise SetupError(f"turn_cap is {cap}: player {st.current + 1}'s first turn is turn {first}", ("turn_cap",))
        st.turn = _whole(setup.get("turn", first), "turn", 0, cap - 1, ("turn",))
        if st.turn % 2 != first:
            raise SetupError(f"turn is {st.turn}: player {rules.first_player + 1} plays the even turns (0, 2, ...) "
                             f"and player {2 - rules.first_player} the odd ones, so turn {st.turn} is not player "
                             f"{st.current + 1}'s", ("turn",))
        st.actions_left = _whole(setup.get("actions", rules.actions), "actions", 1, most_actions(model), ("actions",))
        st.board_changed()
        _reached(st)
        if "actions" not in setup:  # the turn begins: a player who cannot act at all loses
            st._start_turn(st.current)
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
