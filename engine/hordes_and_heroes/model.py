"""The typed, read-only model of Hordes & Heroes built from validated content.

Why a model: the rules run millions of steps, so every card becomes a slotted object with
pre-parsed costs and effects once, and the hot loop never touches dicts or strings it must parse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LEVELS = {1: 1, 2: 2, "boss": 3}
CLASSES = ("artificer", "mage", "warrior")


@dataclass(frozen=True, slots=True)
class Effect:
    """One structured effect; unused parameters stay at their defaults."""

    kind: str
    amount: int = 0
    max_strength: int = -1      # -1: "no more than the source hero's strength"
    cls: str = ""
    other_stack: bool = False
    count: int = 1


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A card of the hero deck: a hero or an action."""

    idx: int
    id: str
    name: str
    is_action: bool
    cls: str
    strength: int
    xn: int                       # number of X in a set-of-X cost (0 for exact faces / actions)
    exact: tuple[int, ...]        # exact faces, sorted
    exact_counts: tuple[int, ...] # count per face 0..6
    faces: tuple[tuple[int, int], ...]  # (face, count) for each face of an exact cost
    steam: int                    # steam that may pay instead (0: none)
    effects: tuple[Effect, ...]
    hand_bonus: int
    value: float                  # rough worth, for the heuristic bot
    quantity: int


@dataclass(frozen=True, slots=True)
class Monster:
    idx: int
    id: str
    name: str
    level: int                    # 1, 2, or 3 for a boss
    strength: int
    xp: int
    treasure: int
    counterattack: int
    ambush: int
    effects: tuple[Effect, ...]
    quantity: int


@dataclass(frozen=True, slots=True)
class Treasure:
    idx: int
    id: str
    name: str
    half_names: tuple[str, str]
    halves: tuple[tuple[Effect, ...], tuple[Effect, ...]]
    quantity: int


@dataclass(frozen=True, slots=True)
class Town:
    idx: int
    id: str
    name: str
    xp_penalty: int
    effects: tuple[Effect, ...]
    quantity: int


@dataclass(frozen=True, slots=True)
class Rules:
    """The game's constants (content/hordes-and-heroes/rules.yaml): the print reads the same."""

    starting_hand: int
    hand_limit: int
    party_limit: int
    recruits: int
    actions: int
    dice: int
    rerolls: int
    end_draw: int


RULE_FIELDS = {"starting-hand": "starting_hand", "hand-limit": "hand_limit", "party-limit": "party_limit",
               "recruits-per-turn": "recruits", "actions-per-turn": "actions", "dice": "dice",
               "rerolls": "rerolls", "end-draw": "end_draw"}


@dataclass(frozen=True, slots=True)
class Model:
    deck: tuple[DeckCard, ...]
    monsters: tuple[Monster, ...]
    treasures: tuple[Treasure, ...]
    towns: tuple[Town, ...]
    dice: int                     # dice in the box (the rules roll 5 plus extras)
    doom_tokens: int
    by_id: dict[str, tuple[str, int]]   # id -> (space, index); space in deck/monster/treasure/town
    rules: Rules

    def find(self, space: str, ident: str) -> int:
        """Index of `ident` in a space; KeyError with a clear message otherwise."""
        got = self.by_id.get(ident)
        if got is None or got[0] != space:
            raise KeyError(f"no {space} card with id '{ident}'")
        return got[1]


_VALUE = {"extra-dice": 1.5, "extra-reroll": 1.0, "steam": 0.4, "shield": 0.7, "strength": 1.0,
          "strength-per-active": 1.5, "reduce-cost": 1.5, "activate-hero": 3.0, "capture": 0.7,
          "set-die": 1.5, "draw-cards": 1.0, "hand-size": 1.0}


def effect_from(data: dict[str, Any]) -> Effect:
    """Turn one validated effect mapping into an Effect."""
    return Effect(kind=str(data["kind"]), amount=int(data.get("amount", 0)),
                  max_strength=int(data.get("max_strength", -1)), cls=str(data.get("class", "")),
                  other_stack=data.get("from") == "other-stack", count=int(data.get("count", 1)))


def parse_dice_cost(text: str) -> tuple[int, tuple[int, ...]]:
    """'XXX' -> (3, ()); '345' -> (0, (3, 4, 5)). The schema's pattern has checked the grammar."""
    if text and set(text) == {"X"}:
        return len(text), ()
    faces = tuple(sorted(int(c) for c in text))
    if not faces or any(f < 1 or f > 6 for f in faces):
        raise ValueError(f"bad dice cost {text!r}")
    return 0, faces


_X_ODDS = (1.0, 1.0, 0.95, 0.7, 0.35, 0.1)


def activation_odds(xn: int, exact: tuple[int, ...], steam: int) -> float:
    """A rough chance to activate a hero in a turn, so the heuristic bot values cheap heroes."""
    if xn:
        odds = _X_ODDS[xn]
    else:
        distinct = len(set(exact))
        odds = max(0.03, 0.9 ** distinct * 0.55 ** (len(exact) - distinct) * (0.9 if len(exact) == 1 else 0.8))
    if steam:
        odds = min(1.0, odds + 0.25)
    return odds


def _effects(items: Any) -> tuple[Effect, ...]:
    return tuple(effect_from(e) for e in (items or []))


def build_model(content: dict[str, list[dict]]) -> Model:
    """Build the model from validated content: kind -> list of items (plain dicts)."""
    deck: list[DeckCard] = []
    by_id: dict[str, tuple[str, int]] = {}
    for item in content.get("hero", []):
        cost = item["cost"]
        xn, exact = parse_dice_cost(str(cost["dice"]))
        counts = [0] * 7
        for f in exact:
            counts[f] += 1
        effects = _effects(item.get("effects"))
        value = (float(item["strength"]) + 0.6 * sum(
            _VALUE.get(e.kind, 0.5) * (e.amount or 1) if e.kind != "capture" else 0.7 * e.max_strength
            for e in effects)) * activation_odds(xn, exact, int(cost.get("steam", 0)))
        deck.append(DeckCard(len(deck), item["id"], item["name"], False, item["class"], int(item["strength"]),
                             xn, exact, tuple(counts), tuple((f, n) for f, n in enumerate(counts) if n),
                             int(cost.get("steam", 0)), effects,
                             sum(e.amount for e in effects if e.kind == "hand-size"), value,
                             int(item.get("quantity", 1))))
    for item in content.get("action", []):
        deck.append(DeckCard(len(deck), item["id"], item["name"], True, "", 0, 0, (), (0,) * 7, (), 0,
                             _effects(item.get("effects")), 0, 2.0, int(item.get("quantity", 1))))
    for c in deck:
        by_id[c.id] = ("deck", c.idx)
    monsters = []
    for item in content.get("monster", []):
        m = Monster(len(monsters), item["id"], item["name"], LEVELS[item["level"]], int(item["strength"]),
                    int(item["xp"]), int(item.get("treasure", 0)), int(item.get("counterattack", 0)),
                    int(item.get("ambush", 0)), _effects(item.get("effects")), int(item.get("quantity", 1)))
        monsters.append(m)
        by_id[m.id] = ("monster", m.idx)
    treasures = []
    for item in content.get("treasure", []):
        t = Treasure(len(treasures), item["id"], item["name"],
                     (item["level_1"]["name"], item["level_2"]["name"]),
                     (_effects(item["level_1"]["effects"]), _effects(item["level_2"]["effects"])),
                     int(item.get("quantity", 1)))
        treasures.append(t)
        by_id[t.id] = ("treasure", t.idx)
    towns = []
    for item in content.get("town", []):
        t = Town(len(towns), item["id"], item["name"], int(item["xp_penalty"]), _effects(item.get("effects")),
                 int(item.get("quantity", 1)))
        towns.append(t)
        by_id[t.id] = ("town", t.idx)
    dice = sum(int(i.get("quantity", 1)) for i in content.get("die", [])) or 20
    doom = sum(int(i.get("quantity", 1)) for i in content.get("token", []) if i.get("role") == "doom") or 3
    bosses = sum(m.quantity for m in monsters if m.level == 3)
    if bosses < 1:
        raise ValueError("the horde needs at least one boss")
    items = content.get("rules") or []
    if len(items) != 1:
        raise ValueError("the game needs exactly one rules item (rules.yaml)")
    missing = [k for k in RULE_FIELDS if k not in items[0]]
    if missing:
        raise ValueError(f"rules.yaml lacks {', '.join(missing)}")
    rules = Rules(**{f: int(items[0][k]) for k, f in RULE_FIELDS.items()})
    return Model(tuple(deck), tuple(monsters), tuple(treasures), tuple(towns), dice, doom, by_id, rules)


def all_effect_kinds(model: Model) -> set[str]:
    """Every effect kind the content uses."""
    kinds = set()
    for c in model.deck:
        kinds.update(e.kind for e in c.effects)
    for m in model.monsters:
        kinds.update(e.kind for e in m.effects)
    for t in model.treasures:
        for half in t.halves:
            kinds.update(e.kind for e in half)
    for t in model.towns:
        kinds.update(e.kind for e in t.effects)
    return kinds


def impossible(model: Model) -> dict[str, tuple[frozenset[str], str]]:
    """The monsters no seat can ever capture: every capture compares a monster's printed strength
    with the largest strength its effect names, so a monster stronger than the largest such
    strength of any card in play is out of every capture's reach (bosses and the strongest
    monsters with the standard content). A capture that names no strength bounds nothing."""
    reaches = [e.max_strength for e in _all_effects(model) if e.kind == "capture"]
    if any(r < 0 for r in reaches):
        return {}
    top = max(reaches, default=-1)
    ids = frozenset(m.id for m in model.monsters if m.strength > top)
    if not ids:
        return {}
    why = (f"stronger than {top}, the most any capture reaches" if reaches
           else "no card of the game captures")
    return {"captured": (ids, why)}


def _all_effects(model: Model) -> list[Effect]:
    return [*(e for c in model.deck for e in c.effects), *(e for m in model.monsters for e in m.effects),
            *(e for t in model.treasures for half in t.halves for e in half),
            *(e for t in model.towns for e in t.effects)]
