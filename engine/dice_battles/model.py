"""The typed, read-only model of Dice Battles, built once from validated plain content.

Why a model: the rules run many thousand steps a second, so ids become indices, lists become
tuples and frozensets, and the hot loop never looks anything up by string.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SPACES = ("fl", "fc", "fr", "rl", "rr", "hero")
FRONT = (0, 1, 2)
HERO = 5
LEVELS = ("bronze", "silver", "gold", "hero")
HERO_LEVEL = LEVELS.index("hero")
COLOURS = ("normal", "poisoned", "crushing")
ARMOURS = ("none", "normal", "golden")


@dataclass(frozen=True, slots=True)
class Effect:
    """One power; parameters a kind does not use keep their defaults."""

    kind: str
    name: str = ""
    amount: int = 0
    vs_class: frozenset[str] = frozenset()
    min_matching: int = 0
    folk: frozenset[str] = frozenset()
    except_class: frozenset[str] = frozenset()
    except_units: frozenset[str] = frozenset()   # unit ids
    zones: frozenset[str] = frozenset()
    classes: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Unit:
    idx: int
    id: str
    name: str
    faction: str
    folk: str
    level: int                    # index into LEVELS; 3 is a hero
    positions: frozenset[int]     # indices into SPACES
    morale: int
    armour: int                   # index into ARMOURS
    picture: str
    quantity: int
    card: int                     # index of its order card (-1 until linked)


@dataclass(frozen=True, slots=True)
class Card:
    idx: int
    id: str
    name: str
    unit: int
    level: int
    dice: int
    colour: int                   # index into COLOURS
    cls: str
    effects: tuple[Effect, ...]
    regroups: tuple[int, ...]     # unit indices
    quantity: int

    @property
    def is_hero(self) -> bool:
        return self.level == HERO_LEVEL


@dataclass(frozen=True, slots=True)
class Army:
    idx: int
    id: str
    name: str
    faction: str
    battalions: tuple[tuple[int, ...], ...]   # per battalion, a unit index (or -1) per space
    reinforcements: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Face:
    front: int
    behind: int
    arrow: int                    # -1: no arrow printed


@dataclass(frozen=True, slots=True)
class Model:
    units: tuple[Unit, ...]
    cards: tuple[Card, ...]
    armies: tuple[Army, ...]
    factions: tuple[str, ...]
    faces: tuple[Face, ...]       # index 0 is face 1
    battalion_names: tuple[str, ...]
    space_names: tuple[str, ...]
    fleeing_spaces: int
    reinforcement_spaces: int
    hand_size: int
    flee_max_wounds: int
    fleeing_order: tuple[int, ...]        # level -> rank when several units flee at once
    blocks: tuple[tuple[int, ...], ...]   # [armour][colour] -> which die is blocked (0: none)
    excess_counts: bool
    regroup_until_full: bool
    reinforce_active_only: bool
    setup_reinforcements_max: int
    round_limit: int
    points: int
    costs: tuple[int, ...]                # per level
    min_units: int
    max_units: int
    by_id: dict[str, int]                 # unit, card and army ids -> index in their tuple
    # Tables that depend only on the content (custom army sheets, the bots' per-card figures),
    # built on first use and kept for every game played with this model: games must not pay
    # for them again at every start or every step.
    derived: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def unit(self, ident: str) -> Unit:
        i = self.by_id.get("unit:" + ident)
        if i is None:
            raise KeyError(f"no unit '{ident}'")
        return self.units[i]

    def card(self, ident: str) -> Card:
        i = self.by_id.get("card:" + ident)
        if i is None:
            raise KeyError(f"no order card '{ident}'")
        return self.cards[i]

    def army(self, ident: str) -> Army:
        i = self.by_id.get("army:" + ident)
        if i is None:
            raise KeyError(f"no army '{ident}'")
        return self.armies[i]


def effect_from(data: dict[str, Any]) -> Effect:
    """Turn one validated effect mapping into an Effect."""
    return Effect(kind=str(data["kind"]), name=str(data.get("name", "")), amount=int(data.get("amount", 0)),
                  vs_class=frozenset(data.get("vs-class", ())), min_matching=int(data.get("min-matching", 0)),
                  folk=frozenset(data.get("folk", ())), except_class=frozenset(data.get("except-class", ())),
                  except_units=frozenset(data.get("except-units", ())),
                  zones=frozenset(data.get("zones", ())), classes=frozenset(data.get("classes", ())))


def _one(content: dict[str, list[dict]], kind: str) -> dict:
    items = content.get(kind) or []
    if len(items) != 1:
        raise ValueError(f"Dice Battles needs exactly one '{kind}' item, found {len(items)}")
    return items[0]


def build_model(content: dict[str, list[dict]]) -> Model:
    """Build the model from validated content (kind -> list of plain items)."""
    from engine.dice_battles.checks import content_problems

    problems = content_problems(content)
    if problems:
        raise ValueError("; ".join(p.message for p in problems[:5]))
    rules, arules, mat = _one(content, "rules"), _one(content, "army-rules"), _one(content, "battle-mat")
    card_of = {c["unit"]: i for i, c in enumerate(content["order-card"])}
    uidx = {u["id"]: i for i, u in enumerate(content["unit"])}
    units = tuple(Unit(i, u["id"], u["name"], u["faction"], u["folk"], LEVELS.index(u["level"]),
                       frozenset(SPACES.index(s) for s in u["positions"]), int(u["morale"]),
                       ARMOURS.index(u["armour"]), u["picture"], int(u.get("quantity", 1)), card_of[u["id"]])
                  for i, u in enumerate(content["unit"]))
    cards = tuple(Card(i, c["id"], c["name"], uidx[c["unit"]], LEVELS.index(c["level"]), int(c["attack"]["dice"]),
                       COLOURS.index(c["attack"]["colour"]), c["class"],
                       tuple(effect_from(e) for e in c.get("effects") or ()),
                       tuple(uidx[r] for r in c["regroups"]), int(c.get("quantity", 1)))
                  for i, c in enumerate(content["order-card"]))
    armies = tuple(Army(i, a["id"], a["name"], a["faction"],
                        tuple(tuple(uidx[b[s]] for s in SPACES) for b in a["battalions"]),
                        tuple(uidx[r] for r in a.get("reinforcements") or ()))
                   for i, a in enumerate(content.get("army") or ()))
    faces = [Face(0, 0, -1)] * 6
    for f in mat["faces"]:
        faces[int(f["face"]) - 1] = Face(SPACES.index(f["front"]), SPACES.index(f["behind"]),
                                         SPACES.index(f["arrow"]) if "arrow" in f else -1)
    zones = {z["id"]: int(z["spaces"]) for z in mat["zones"]}
    armour = {a["id"]: a["blocks"] for a in rules["armour"]}
    blocks = tuple(tuple(int(armour.get(a, {}).get(c, 0)) for c in COLOURS) for a in ARMOURS)
    space_name = {s["id"]: s["name"] for s in mat["spaces"]}
    by_id = {**{"unit:" + u.id: u.idx for u in units}, **{"card:" + c.id: c.idx for c in cards},
             **{"army:" + a.id: a.idx for a in armies}}
    order = rules.get("fleeing-order", ["bronze", "silver", "gold"])
    return Model(
        units=units, cards=cards, armies=armies, factions=tuple(f["id"] for f in content.get("faction") or ()),
        faces=tuple(faces), battalion_names=tuple(b["name"] for b in mat["battalions"]),
        space_names=tuple(space_name.get(s, s) for s in SPACES),
        fleeing_spaces=zones.get("fleeing", 3), reinforcement_spaces=zones.get("reinforcements", 3),
        hand_size=int(rules["hand-size"]), flee_max_wounds=int(rules["flee-max-wounds"]),
        fleeing_order=tuple(order.index(lv) if lv in order else len(order) for lv in LEVELS),
        blocks=blocks, excess_counts=rules.get("excess-dice", "count-toward-annihilation") != "lost",
        regroup_until_full=rules.get("regroup-when-zone-fills", "move-until-full") == "move-until-full",
        reinforce_active_only=rules.get("reinforce-to", "own-hero-present") == "active-only",
        setup_reinforcements_max=int(rules.get("setup-reinforcements-max", 4)),
        round_limit=int(rules.get("round-limit", 80)),
        points=int(arules["points"]), costs=tuple(int(arules["costs"][lv]) for lv in LEVELS),
        min_units=int(arules["units"]["min"]), max_units=int(arules["units"]["max"]), by_id=by_id)


def all_effect_kinds(model: Model) -> set[str]:
    """Every effect kind the content uses."""
    return {e.kind for c in model.cards for e in c.effects}
