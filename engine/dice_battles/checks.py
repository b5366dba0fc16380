"""Dice Battles content checks that JSON Schema cannot express: army sheets against the
custom-army rules (points, unit counts, positions, faction, tile counts) and the one-card-per-unit
link between unit tiles and order cards.

Each problem names the component kind, the item's index in that kind and the key path inside the
item, so a caller holding source positions (the toolkit does) can report it at file:line:col.
`build_model` refuses content with any problem, so the engine never plays a broken army.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core.api import ContentProblem

SPACES = ("fl", "fc", "fr", "rl", "rr", "hero")


Problem = ContentProblem  # the core's type, under the name this module uses


def content_problems(content: dict[str, list[dict]]) -> list[Problem]:
    """Every game-specific problem in validated content; [] when it is sound."""
    out: list[Problem] = []
    units = {u["id"]: u for u in content.get("unit") or []}
    out += _card_links(content.get("order-card") or [], units)
    rules = (content.get("army-rules") or [{}])[0]
    setup_max = int((content.get("rules") or [{}])[0].get("setup-reinforcements-max", 4))
    for i, army in enumerate(content.get("army") or []):
        out += army_problems(army, units, rules, setup_max, i)
    return out


def _card_links(cards: list[dict], units: dict[str, dict]) -> list[Problem]:
    out = []
    seen: dict[str, int] = {}
    for i, c in enumerate(cards):
        u = units.get(c.get("unit", ""))
        if u is None:
            continue  # a dangling reference is reported by the schema's x-ref
        if c["unit"] in seen:
            out.append(Problem("order-card", i, ("unit",), f"unit '{c['unit']}' already has an order card "
                               f"('{cards[seen[c['unit']]]['id']}')", "one order card per unit"))
        seen[c["unit"]] = i
        if int(c.get("quantity", 1)) != int(u.get("quantity", 1)):
            out.append(Problem("order-card", i, ("quantity",), f"{c.get('quantity', 1)} copies of '{c['id']}' but "
                               f"{u.get('quantity', 1)} tiles of '{u['id']}'", "each tile comes with its own card"))
        for k, r in enumerate(c.get("regroups") or []):
            if units.get(r, {}).get("level") == "hero":
                out.append(Problem("order-card", i, ("regroups", k), f"'{c['id']}' regroups the hero '{r}'",
                                   "heroes never flee and never wait in reinforcements: regroup normal units"))
            elif r in units and units[r].get("faction") != u.get("faction"):
                out.append(Problem("order-card", i, ("regroups", k), f"'{c['id']}' regroups '{r}' of "
                                   f"{units[r].get('faction')}, but its unit is of {u.get('faction')}",
                                   "a card regroups units of its own army"))
        if c.get("level") != u.get("level"):
            out.append(Problem("order-card", i, ("level",), f"card level {c.get('level')} differs from its "
                               f"unit's level {u.get('level')}", "the card shows its unit's level"))
    out += _shared_pictures(units)
    out += _hero_space(units)
    for uid in units:
        if uid not in seen:
            out.append(Problem("unit", list(units).index(uid), ("id",), f"unit '{uid}' has no order card",
                               "add an order card with unit: " + uid))
    return out


def _hero_space(units: dict[str, dict]) -> list[Problem]:
    """The bottom space of a battalion is the hero's: a hero tile shows only it, a normal tile never."""
    out = []
    for i, (uid, u) in enumerate(units.items()):
        positions = list(u.get("positions") or [])
        if u.get("level") == "hero" and positions != ["hero"]:
            out.append(Problem("unit", i, ("positions",), f"hero '{uid}' shows {positions}; a hero stands only "
                               "on the hero space", "positions: [hero]"))
        elif u.get("level") != "hero" and "hero" in positions:
            k = positions.index("hero")
            out.append(Problem("unit", i, ("positions", k), f"'{uid}' is not a hero but its tile shows the hero "
                               "space", "normal units stand on fl, fc, fr, rl, rr"))
    return out


def _shared_pictures(units: dict[str, dict]) -> list[Problem]:
    """The rulebook matches order cards to tiles (activation, regrouping, the v2.0 token rule) by
    the picture they show; the engine matches them by unit. The two agree only while every unit
    of a faction shows its own picture, so a picture shared inside a faction is refused."""
    out, first = [], {}
    for i, (uid, u) in enumerate(units.items()):
        key = (u.get("faction"), u.get("picture"))
        if key in first:
            out.append(Problem("unit", i, ("picture",), f"'{uid}' shows the picture '{u.get('picture')}' of "
                               f"'{first[key]}'", "cards find their tiles by picture: give each unit its own"))
        else:
            first[key] = uid
    return out


def army_problems(army: dict, units: dict[str, dict], rules: dict, setup_max: int, index: int = 0,
                  kind: str = "army") -> list[Problem]:
    """Problems of one army sheet under the custom-army rules (also used on generated armies)."""
    out: list[Problem] = []

    def bad(path: tuple[Any, ...], msg: str, hint: str = "") -> None:
        out.append(Problem(kind, index, path, msg, hint))

    faction = army.get("faction")
    costs = rules.get("costs", {})
    points = 0
    normal = 0
    tiles: Counter[str] = Counter()
    heroes: list[str] = []
    for b, bat in enumerate(army.get("battalions") or []):
        for s in SPACES:
            uid = bat.get(s)
            u = units.get(uid or "")
            if u is None:
                continue
            tiles[uid] += 1
            where = ("battalions", b, s)
            if u["faction"] != faction and rules.get("same-faction", True):
                bad(where, f"'{uid}' belongs to {u['faction']}, not to the army's faction {faction}")
            if s == "hero":
                if u["level"] != "hero":
                    bad(where, f"'{uid}' is not a hero; the hero space takes a hero", "one hero per battalion")
                else:
                    heroes.append(uid)
                continue
            if u["level"] == "hero":
                bad(where, f"hero '{uid}' stands on {s}; heroes stand only on the hero space")
                continue
            if s not in u["positions"]:
                bad(where, f"'{uid}' may not stand on {s} (its tile allows {', '.join(u['positions'])})",
                    "move it to a space its tile shows")
            normal += 1
            points += int(costs.get(u["level"], 0))
    for r, uid in enumerate(army.get("reinforcements") or []):
        u = units.get(uid)
        if u is None:
            continue
        tiles[uid] += 1
        if u["faction"] != faction and rules.get("same-faction", True):
            bad(("reinforcements", r), f"'{uid}' belongs to {u['faction']}, not to {faction}")
        if u["level"] == "hero":
            bad(("reinforcements", r), f"hero '{uid}' cannot start in reinforcements")
            continue
        normal += 1
        points += int(costs.get(u["level"], 0))
    if len(army.get("reinforcements") or []) > setup_max:
        bad(("reinforcements",), f"{len(army['reinforcements'])} units start in reinforcements; at most {setup_max}")
    limit = int(rules.get("points", 30))
    if points > limit:
        bad(("battalions",), f"the army's normal units cost {points} points; the limit is {limit}",
            "bronze, silver and gold cost " + ", ".join(str(costs.get(lv, "?")) for lv in ("bronze", "silver", "gold")))
    units_rule = rules.get("units", {})
    lo, hi = int(units_rule.get("min", 15)), int(units_rule.get("max", 19))
    if not lo <= normal <= hi:
        bad(("reinforcements",), f"the army has {normal} normal units; it needs {lo} to {hi}")
    if rules.get("distinct-heroes", True) and len(set(heroes)) != len(heroes):
        bad(("battalions",), "a hero leads more than one battalion", "choose a different hero for each battalion")
    for uid, n in sorted(tiles.items()):
        have = int(units[uid].get("quantity", 1))
        if n > have:
            bad(("battalions",), f"the army uses {n} tiles of '{uid}' but the box has {have}")
    return out
