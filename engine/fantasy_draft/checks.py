"""Fantasy Draft's own content rules, the ones JSON Schema cannot express: the board map agrees
with its size and its terrain, each start zone holds a whole army, there is one flag, and each
ability's effects fit its trigger and target (and the target fits the printed sentence).
`hordekit validate` reports each problem at its file:line:col (GameSpec.check_content, HK309);
`build_model` refuses the same content."""
from __future__ import annotations

from typing import Any

from engine.core.api import ContentProblem

ACTION_ONLY = {"teleport": "empty-hex", "swap": "own"}
"""Effects that move the hero, and the target each one needs."""


SELF_ONLY = ("victory", "unit-removed")
"""Triggers whose effects land on the hero itself (their `target` only says which fights or
removals count, as Devour's 'human or animal')."""

ON_TARGET = {"destroy": "remove the hero", "weaken": "weaken the hero", "freeze": "freeze the hero",
             "reveal": "only reveal the hero"}
"""Effects meant for another unit, and what they would do to the hero under a `SELF_ONLY` trigger."""

PRINTED_TARGET = {"boost": ("own", "self"), "destroy": ("enemy",), "weaken": ("enemy",), "freeze": ("enemy",),
                  "reveal": ("enemy",)}
"""Effects whose printed sentence (templates/fantasy-draft/text.yaml) names whose unit it acts
on ("your unit", "the enemy"), and the special-action targets that sentence fits."""

Problem = ContentProblem  # the core's type, under the name this module uses


def content_problems(content: dict[str, list[dict]]) -> list[Problem]:
    """Every game-specific problem in validated content; [] when it is sound."""
    out: list[Problem] = []
    rules = (content.get("rules") or [{}])[0]
    army = int(rules.get("army-size", 26))
    for i, board in enumerate(content.get("board") or []):
        out += _board(i, board, content.get("terrain") or [], army)
    flags = [(i, b) for i, b in enumerate(content.get("basic-unit") or []) if b.get("flag")]
    if len(flags) != 1:
        out.append(Problem("basic-unit", flags[1][0] if len(flags) > 1 else 0, (),
                           f"{len(flags)} units are marked as the flag", "exactly one basic unit has flag: true"))
    elif int(flags[0][1].get("quantity", 1)) != 1:
        out.append(Problem("basic-unit", flags[0][0], ("quantity",), "an army has exactly one flag", "quantity: 1"))
    for i, hero in enumerate(content.get("hero") or []):
        for j, ab in enumerate(hero.get("abilities") or []):
            out += _ability(i, j, ab)
    return out


def _board(i: int, board: dict, terrain: list[dict], army: int) -> list[Problem]:
    out: list[Problem] = []
    rows, cols = int(board.get("rows", 0)), int(board.get("columns", 0))
    lines = [str(x) for x in board.get("map") or []]
    zones = {str(k): v for k, v in (board.get("zones") or {}).items()}
    symbols = {str(t.get("symbol")) for t in terrain}
    flyers_only = {str(t.get("id")) for t in terrain if t.get("flyers-only")}
    for key, zone in zones.items():
        if str(zone.get("terrain")) in flyers_only:
            out.append(Problem("board", i, ("zones", key, "terrain"),
                               f"player {zone.get('player')}'s start zone is {zone.get('terrain')}, where only flyers may stand",
                               "the flag and the basic units walk: give the start zone ground they can stand on"))
    if len(lines) != rows:
        out.append(Problem("board", i, ("map",), f"the map has {len(lines)} rows, rows says {rows}"))
    count = {int(z.get("player", 0)): 0 for z in zones.values()}
    for r, line in enumerate(lines):
        if len(line) != cols:
            out.append(Problem("board", i, ("map", r), f"map row {r + 1} has {len(line)} hexes, columns says {cols}"))
        for c, ch in enumerate(line):
            if ch in zones:
                count[int(zones[ch].get("player", 0))] += 1
            elif ch not in symbols:
                out.append(Problem("board", i, ("map", r), f"map row {r + 1}, hex {c + 1}: '{ch}' is neither a terrain symbol nor a zone",
                                   f"terrain symbols: {' '.join(sorted(symbols))}; zones: {' '.join(sorted(zones))}"))
    for player in (1, 2):
        if count.get(player, 0) < army:
            out.append(Problem("board", i, ("zones",), f"player {player}'s start zone has {count.get(player, 0)} hexes for an army of {army}",
                               "each player deploys every token on their own zone"))
    return out


def _ability(i: int, j: int, ab: dict) -> list[Problem]:
    out: list[Problem] = []
    where = ("abilities", j)
    d10 = ab.get("d10")
    if d10 and int(d10["min"]) > int(d10["max"]):
        out.append(Problem("hero", i, where + ("d10",), f"d10 range {d10['min']}-{d10['max']} is empty", "min is at most max"))
    target, trigger = ab.get("target"), ab.get("trigger")
    if target not in ("self",) and trigger == "action" and not ab.get("range"):
        out.append(Problem("hero", i, where, f"ability '{ab.get('name')}' aims at '{target}' but has no range", "add range: N"))
    if trigger == "unit-removed" and not ab.get("range"):
        out.append(Problem("hero", i, where, f"ability '{ab.get('name')}' watches for removed units but has no range",
                           "add range: N (without one it would never fire)"))
    for k, e in enumerate(ab.get("effects") or []):
        kind = e.get("kind")
        if kind == "evade" and trigger != "attacked":
            out.append(Problem("hero", i, where + ("effects", k), "evade only works on an attack: trigger must be 'attacked'"))
        if kind in ON_TARGET and trigger in SELF_ONLY:
            out.append(Problem("hero", i, where + ("effects", k),
                               f"a '{trigger}' ability's effects act on the hero itself: {kind} would {ON_TARGET[kind]}",
                               "make it a special action (trigger: action) to aim it at another unit"))
        if kind in PRINTED_TARGET and trigger == "action" and target not in PRINTED_TARGET[kind]:
            fits = " or ".join(f"'{t}'" for t in PRINTED_TARGET[kind])
            out.append(Problem("hero", i, where + ("target",),
                               f"ability '{ab.get('name')}' aims {kind} at '{target}', but its printed text speaks of "
                               f"{'your unit' if kind == 'boost' else 'the enemy'}", f"target: {fits}"))
        if kind in ACTION_ONLY and (trigger != "action" or target != ACTION_ONLY[kind]):
            out.append(Problem("hero", i, where + ("effects", k),
                               f"{kind} is a special action aimed at target '{ACTION_ONLY[kind]}'"))
    return out
