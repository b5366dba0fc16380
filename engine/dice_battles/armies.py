"""Predefined and custom armies: the unit tiles each player brings to the battle mat.

A custom army is built from a variant number with its own `random.Random(f"{faction}:{n}")`, so
the rules themselves hold no RNG: a chance decision picks the variant, and the same variant always
gives the same army (replays and scenarios stay exact).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from engine.dice_battles.model import HERO, Model

CUSTOM_VARIANTS = 40
_GROUPS = tuple((g, tuple(s for s in range(5) if g >> s & 1)) for g in range(1, 32))  # sets of space kinds


@dataclass(frozen=True, slots=True)
class Sheet:
    """An army as placed at set-up: a unit index (or -1) per battalion space, and reinforcements."""

    id: str                                   # army id, or "custom-army" for a built one
    label: str
    faction: str
    battalions: tuple[tuple[int, ...], ...]
    reinforcements: tuple[int, ...]


def predefined(model: Model, idx: int) -> Sheet:
    a = model.armies[idx]
    return Sheet(a.id, a.name, a.faction, a.battalions, a.reinforcements)


def custom(model: Model, faction: str, variant: int) -> Sheet:
    """A legal custom army of `faction` (30 points, 15-19 normal units, one hero per battalion),
    built once per model: the same variant always gives the same sheet."""
    key = ("custom-army", faction, variant)
    sheet = model.derived.get(key)
    if sheet is None:
        sheet = model.derived[key] = _build_custom(model, faction, variant)
    return sheet


def _build_custom(model: Model, faction: str, variant: int) -> Sheet:
    rng = random.Random(f"{faction}:{variant}")
    normal = [u for u in model.units if u.faction == faction and u.level < 3]
    heroes = [u.idx for u in model.units if u.faction == faction and u.level == 3]
    for _ in range(500):
        bag = [u for u in normal for _ in range(u.quantity)]
        rng.shuffle(bag)
        want = rng.randint(model.min_units, min(model.max_units, 15 + model.setup_reinforcements_max))
        picked, points = [], 0
        for u in bag:
            cost = model.costs[u.level]
            if len(picked) < want and points + cost <= model.points:
                picked.append(u)
                points += cost
        if len(picked) < model.min_units:
            continue
        placed = _place(picked, rng)
        if placed is None:
            continue
        spaces, rest = placed
        chosen = rng.sample(heroes, 3)
        bats = tuple(tuple(spaces[b * 5 + s] if s < HERO else chosen[b] for s in range(6)) for b in range(3))
        return Sheet("custom-army", f"custom {faction} army #{variant}", faction, bats, tuple(rest))
    raise ValueError(f"cannot build a custom {faction} army from the unit tiles")


def _place(units: list, rng: random.Random) -> tuple[list[int], list[int]] | None:
    """Fill the 15 battalion spaces (each unit on a space its tile allows); the rest wait in
    reinforcements. Backtracking over the most constrained space first; None when impossible.

    Why the pruning: a branch is entered only while the spaces left can still all be filled
    (Hall's condition over the five space kinds, exact for this matching), so the search never
    explores a dead subtree. Pruning only dead subtrees keeps the depth-first order, hence the
    first solution found, exactly as without it."""
    slots = [s for _ in range(3) for s in range(5)]
    order = sorted(range(15), key=lambda i: sum(1 for u in units if slots[i] in u.positions))
    fill = [-1] * 15
    used = [False] * len(units)
    idx = list(range(len(units)))
    rng.shuffle(idx)
    masks = [sum(1 << s for s in u.positions if s < HERO) for u in units]
    free = [0] * 32                      # unused units per position mask
    for m in masks:
        free[m] += 1
    need = [0] * 5                       # spaces left to fill per space kind
    for s in slots:
        need[s] += 1

    def fillable() -> bool:
        kinds = [m for m in range(32) if free[m]]
        for group, members in _GROUPS:
            demand = 0
            for s in members:
                demand += need[s]
            if demand and demand > sum([free[m] for m in kinds if m & group]):
                return False
        return True

    def go(k: int) -> bool:
        if k == 15:
            return True
        slot = order[k]
        kind = slots[slot]
        tried = set()
        need[kind] -= 1
        for i in idx:
            u = units[i]
            if used[i] or u.idx in tried or kind not in u.positions:
                continue
            tried.add(u.idx)
            used[i] = True
            free[masks[i]] -= 1
            fill[slot] = u.idx
            if fillable() and go(k + 1):
                return True
            used[i] = False
            free[masks[i]] += 1
        need[kind] += 1
        return False

    if not fillable() or not go(0):
        return None
    return fill, [units[i].idx for i in idx if not used[i]]
