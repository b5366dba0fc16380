"""The typed, read-only model of Kingdoms built from validated content (kind -> list of items).

Why a model: the rules run hundreds of thousands of steps a second, so every ability, horde and
tile becomes a slotted object with costs as resource vectors and effects pre-parsed once; the hot
loop never parses strings. Nothing here names a card: every number and rule comes from a field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HORDE_TYPES = ("humanoid", "undead", "monster")
UNIT_TYPES = ("army", "settlement", "castle", "wizard-tower")


@dataclass(frozen=True, slots=True)
class Effect:
    """One structured effect: its kind and its parameters exactly as the content gives them."""

    kind: str
    params: dict[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)


@dataclass(frozen=True, slots=True)
class Ability:
    idx: int
    id: str
    name: str
    timing: str
    spell: bool
    cost: tuple[int, ...]
    alt_costs: tuple[tuple[int, ...], ...]
    cost_to_opponent: bool
    effects: tuple[Effect, ...]
    max_per_turn: int = 0      # the ability's own printed cap a turn (0 = none); no limit raises it


@dataclass(frozen=True, slots=True)
class Kingdom:
    idx: int
    id: str
    name: str
    abilities: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Horde:
    idx: int
    id: str
    name: str
    type: int          # index into HORDE_TYPES
    hits: int
    defense: int
    attack: int


@dataclass(frozen=True, slots=True)
class Tile:
    """A basic terrain type or an advanced tile type."""

    idx: int
    id: str
    name: str
    quantity: int
    produces: tuple[int, ...]
    effects: tuple[Effect, ...] = ()
    first_settlement_effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    roll: int
    id: str
    name: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Structure:
    id: str
    name: str
    cost: tuple[int, ...]
    site: str
    max_per_turn: int
    per: str
    produces: tuple[int, ...]
    not_adjacent_to_same: bool
    variant: str | None


@dataclass(frozen=True, slots=True)
class UnitStats:
    hit_on: int | None
    hits: int
    fights_in: tuple[str, ...]


@dataclass(frozen=True)
class Model:
    resources: tuple[str, ...]
    resource_names: tuple[str, ...]
    abilities: tuple[Ability, ...]
    kingdoms: tuple[Kingdom, ...]
    hordes: tuple[Horde, ...]
    terrains: tuple[Tile, ...]
    advanced: tuple[Tile, ...]
    events: dict[int, Event]
    structures: dict[str, Structure]
    units: dict[str, UnitStats]
    variants: dict[str, dict]
    rules: dict[str, Any]
    horde_rules: tuple[Effect, ...]
    supply: dict[str, int]
    colour_supply: dict[str, int]
    cols: int
    rows: int
    rounds: int
    phases: tuple[dict, ...] = ()
    segments: dict[str, dict] = field(default_factory=dict)
    ability_index: dict[str, int] = field(default_factory=dict)
    horde_index: dict[str, int] = field(default_factory=dict)
    kingdom_index: dict[str, int] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Tables derived from the content alone (a bot's ability values), built once per model on
    first use and shared by every bot and game that plays it."""

    def vec(self, m: dict | None) -> tuple[int, ...]:
        return res_vector(self.resources, m)


def res_vector(order: tuple[str, ...], m: dict | None) -> tuple[int, ...]:
    m = m or {}
    return tuple(int(m.get(r, 0)) for r in order)


def _effects(items: list | None) -> tuple[Effect, ...]:
    out = []
    for e in items or []:
        params = {k: v for k, v in e.items() if k != "kind"}
        out.append(Effect(str(e["kind"]), params))
    return tuple(out)


def _one(data: dict, kind: str) -> dict:
    items = data.get(kind) or []
    if not items:
        raise ValueError(f"content has no '{kind}' item")
    return items[0]


def build_model(data: dict[str, list[dict]]) -> Model:
    """Build the model from validated plain data; raises ValueError on missing essentials and on
    content that breaks the game's own rules (`checks.content_problems`)."""
    from engine.kingdoms.checks import refuse
    refuse(data)
    res_items = data.get("resource") or []
    order = tuple(str(r["id"]) for r in res_items)
    names = tuple(str(r["name"]) for r in res_items)
    rules = _one(data, "rules")

    abilities = tuple(
        Ability(i, a["id"], a["name"], a["timing"], bool(a["spell"]), res_vector(order, a.get("cost")),
                tuple(res_vector(order, c) for c in a.get("alternative-costs") or []),
                a.get("cost-paid-to") == "target-opponent", _effects(a.get("effects")),
                int(a.get("max-per-turn") or 0))
        for i, a in enumerate(data.get("ability") or []))
    aidx = {a.id: a.idx for a in abilities}
    kingdoms = tuple(Kingdom(i, k["id"], k["name"], tuple(aidx[x] for x in k["starting-abilities"]))
                     for i, k in enumerate(data.get("kingdom") or []))
    hordes = tuple(Horde(i, h["id"], h["name"], HORDE_TYPES.index(h["type"]), int(h["hits"]),
                         int(h["defense"]), int(h["attack"]))
                   for i, h in enumerate(data.get("horde-counter") or []))
    terrains = tuple(Tile(i, t["id"], t["name"], int(t["quantity"]), res_vector(order, t.get("produces")))
                     for i, t in enumerate(data.get("terrain") or []))
    advanced = tuple(Tile(i, t["id"], t["name"], int(t["quantity"]), res_vector(order, t.get("produces")),
                          _effects(t.get("effects")), _effects(t.get("first-settlement-effects")))
                     for i, t in enumerate(data.get("advanced-tile") or []))
    events = {int(e["roll"]): Event(int(e["roll"]), e["id"], e["name"], _effects(e.get("effects")))
              for e in data.get("event") or []}
    structures = {s["id"]: Structure(s["id"], s["name"], res_vector(order, s.get("cost")), s["site"],
                                     int(s["max-per-turn"]), s["max-per-turn-per"],
                                     res_vector(order, s.get("produces")),
                                     bool(s.get("not-adjacent-to-same", False)), s.get("variant"))
                  for s in data.get("structure") or []}
    units = {k: UnitStats(v["hit-on"], int(v["hits"]), tuple(v["fights-in"]))
             for k, v in rules["battle"]["units"].items()}
    variants = {v["id"]: dict(v) for v in data.get("variant") or []}

    def qty(kind: str) -> int:
        return sum(int(x.get("quantity", 0)) for x in data.get(kind) or [])

    def worth(kind: str) -> int:
        """What the pieces of a kind with values (hit counters, victory tokens) stand for in all:
        a "5 hits" counter is five hit counters, changed for single ones at the table."""
        return sum(int(x.get("quantity", 0)) * int(x.get("value", 1)) for x in data.get(kind) or [])

    supply = {"hit": worth("hit-counter"), "victory": worth("victory-token"), "castle": qty("castle-marker"),
              "tower": qty("wizard-tower-marker"), "chits": min((int(x["quantity"]) for x in data.get("resource-chit") or [{"quantity": 40}]))}
    for x in data.get("resource-chit") or []:
        supply["chit-" + x["resource"]] = int(x["quantity"])
    colour = {"army": min((int(x["quantity"]) for x in data.get("army-token") or [{"quantity": 20}])),
              "settlement": min((int(x["quantity"]) for x in data.get("settlement-marker") or [{"quantity": 15}]))}
    board = rules["board"]
    return Model(order, names, abilities, kingdoms, hordes, terrains, advanced, events, structures, units,
                 variants, rules, _effects(rules["battle"].get("horde-terrain-effects")), supply, colour,
                 int(board["columns"]), int(board["rows"]), int(rules["rounds"]),
                 tuple(sorted((dict(p) for p in data.get("phase") or []), key=lambda p: int(p["order"]))),
                 {sg["id"]: dict(sg) for sg in data.get("round-segment") or []},
                 aidx, {h.id: h.idx for h in hordes}, {k.id: k.idx for k in kingdoms})


def unchoosable(model: Model) -> frozenset[str]:
    """The tiles no seat can ever choose: a tile is chosen by settling on it, and a tile whose own
    effect forbids building on its space (the `restrict` kind, which the engine applies to that
    space for everyone and for the whole game) can never hold a settlement (Chasm)."""
    return frozenset(t.id for t in (*model.terrains, *model.advanced)
                     if any(e.kind == "restrict" and "build" in (e.get("forbids") or ()) for e in t.effects))
