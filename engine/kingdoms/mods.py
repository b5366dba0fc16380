"""A player's standing modifiers, folded from the effects of the abilities they own.

Why: battles, builds and moves ask "what bonus applies here?" thousands of times a game; the
answer is recomputed only when a player's abilities change (gain, restart), never per roll.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class UnitMod:
    """A permanent modify-unit effect with scope 'all' (or a tile's 'this-space')."""

    unit: str            # army | settlement | castle | player-unit
    attack: int
    defense: int
    hits: int
    vs: int              # horde type index, -1 = every horde
    phase: str           # '' | attack | raid
    terrains: tuple[int, ...] | None   # terrain indices, None = anywhere

    def applies(self, unit: str, vs: int, phase: str, terrain: int) -> bool:
        return ((self.unit == unit or self.unit == "player-unit")
                and (self.vs < 0 or self.vs == vs)
                and (not self.phase or self.phase == phase)
                and (self.terrains is None or terrain in self.terrains))


@dataclass(slots=True)
class Mods:
    extra_res: list[int]
    unit_mods: list[UnitMod] = field(default_factory=list)
    cost: dict[str, list[int]] = field(default_factory=dict)
    sites: list[tuple[str, str, bool]] = field(default_factory=list)   # (structure, site, army present)
    free_builds: list[tuple[tuple[str, ...], int]] = field(default_factory=list)
    stack_limit: int = 0
    settlements_per_space: int = 0
    castles_per_space: int = 0
    cap: int = 0
    spell_uses: int = 0
    paid_uses: int = 0
    extra_move: int = 0
    diagonal: bool = False
    roads: bool = False
    research_delta: dict[int, int] = field(default_factory=dict)
    rally: int = 0
    medicine: list[tuple[int, int]] = field(default_factory=list)       # (ability, armies)
    bards: list[tuple[int, int]] = field(default_factory=list)          # (ability, tokens)
    battle_start: list[tuple[int, int, int, bool]] = field(default_factory=list)  # (ability, rolls, hit_on, army mods)
    battle_spells: list[int] = field(default_factory=list)              # extra-attack any-battle-round
    negate: list[int] = field(default_factory=list)
    adjust: list[int] = field(default_factory=list)
    withdrawal: list[int] = field(default_factory=list)
    control: list[int] = field(default_factory=list)
    menus: dict[str, list[int]] = field(default_factory=dict)            # phase -> abilities usable there
    castle_hits: int = 0
    costs: dict[str, tuple[int, ...]] = field(default_factory=dict)     # what each structure costs now

    def refresh_costs(self, base: dict[str, tuple[int, ...]]) -> None:
        """Settle the price of every structure (`base`, already settled, unless an ability
        changed it; never below zero) once per change of abilities, not at every lookup."""
        if self.cost:
            self.costs = {**base, **{sid: tuple(x if x > 0 else 0 for x in c) for sid, c in self.cost.items()}}
        else:
            self.costs = base

    def attack(self, unit: str, vs: int, phase: str, terrain: int) -> int:
        return sum(m.attack for m in self.unit_mods if m.attack and m.applies(unit, vs, phase, terrain))

    def defense(self, unit: str, vs: int, phase: str, terrain: int) -> int:
        return sum(m.defense for m in self.unit_mods if m.defense and m.applies(unit, vs, phase, terrain))
