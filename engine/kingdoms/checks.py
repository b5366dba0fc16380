"""Kingdoms' own content rules, the ones JSON Schema cannot express: the event table has one line
per face of its die, the phases come in a clear order and build what the structures say, the round
ends with a horde move and a raid whose hits can reach every kind of unit, the board fits its dice
and its tiles, and no conversion turns a resource into itself. `hordekit validate`
reports each problem at its file:line:col (GameSpec.check_content, HK309); `build_model` refuses
the same content, so a smoke run never plays a table with a missing line."""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core.api import ContentProblem as Problem

EVENT_DIE = 10
"""The Event phase rolls one d10 (the face 0 reads 10): the table needs a line for each face."""
COORDINATE_DIE = 10
"""Settlements and hordes are placed by rolling a d10 for the column and one for the row."""


def content_problems(content: dict[str, list[dict]]) -> list[Problem]:
    """Every game-specific problem in validated content; [] when it is sound."""
    rules = (content.get("rules") or [{}])[0]
    return (_events(content.get("event") or []) + _phases(content.get("phase") or [], content.get("structure") or [])
            + _segments(rules, content.get("round-segment") or []) + _board(rules, content)
            + _conversions(content))


def _events(events: list[dict]) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[int, int] = {}
    for i, ev in enumerate(events):
        roll = int(ev.get("roll", 0))
        if roll in seen:
            out.append(Problem("event", i, ("roll",), f"roll {roll} already selects event '{events[seen[roll]].get('id')}'",
                               "each face of the event die selects exactly one event"))
        seen.setdefault(roll, i)
    missing = [r for r in range(1, EVENT_DIE + 1) if r not in seen]
    if missing and events:
        out.append(Problem("event", len(events) - 1, (),
                           f"no event for the roll(s) {', '.join(map(str, missing))} of the d{EVENT_DIE}",
                           "give every face of the event die one line of the table"))
    return out


def _phases(phases: list[dict], structures: list[dict]) -> list[Problem]:
    out: list[Problem] = []
    orders = Counter(int(ph.get("order", 0)) for ph in phases)
    for i, ph in enumerate(phases):
        if orders[int(ph.get("order", 0))] > 1:
            out.append(Problem("phase", i, ("order",), f"another phase also has order {ph.get('order')}",
                               "each phase has its own place in the turn"))
    builds = {ph.get("id"): list(ph.get("builds") or []) for ph in phases}
    for i, s in enumerate(structures):
        phase = s.get("build-phase")
        if phase in builds and s.get("id") not in builds[phase]:
            out.append(Problem("structure", i, ("build-phase",),
                               f"'{s.get('id')}' is built in '{phase}', but that phase's builds do not list it",
                               f"add {s.get('id')} to the builds of {phase} in phases.yaml"))
    where = {s.get("id"): s.get("build-phase") for s in structures}
    for i, ph in enumerate(phases):
        for j, sid in enumerate(ph.get("builds") or []):
            if sid in where and where[sid] != ph.get("id"):
                out.append(Problem("phase", i, ("builds", j),
                                   f"'{sid}' is listed here but its build-phase is '{where[sid]}'",
                                   "a structure is built in exactly one phase"))
    return out


def _segments(rules: dict, segments: list[dict]) -> list[Problem]:
    """The end of the round needs a segment that moves the hordes and one that fights the raids,
    and raid hits must be able to reach every kind of unit."""
    out: list[Problem] = []
    for key, what in (("target-priority", "where the hordes move (target-priority)"),
                      ("hit-allocation", "how raid hits are taken (hit-allocation)")):
        if segments and not any(key in seg for seg in segments):
            out.append(Problem("round-segment", len(segments) - 1, (), f"no segment says {what}",
                               f"give the {'Horde' if key == 'target-priority' else 'Raid'} segment its {key}"))
    units = list(((rules.get("battle") or {}).get("units") or {}))
    for i, seg in enumerate(segments):
        order = seg.get("hit-allocation")
        if order is None:
            continue
        missing = [u for u in units if u not in order]
        if missing:
            out.append(Problem("round-segment", i, ("hit-allocation",),
                               f"horde hits can never reach {', '.join(missing)}",
                               "list every unit type of rules.yaml battle.units, in the order hits are taken"))
    return out


def _conversions(content: dict[str, list[dict]]) -> list[Problem]:
    """A conversion into the very resource it takes does nothing: the engine would never offer it."""
    out: list[Problem] = []
    for kind in ("ability", "event", "advanced-tile"):
        for i, item in enumerate(content.get(kind) or []):
            for j, e in enumerate(item.get("effects") or []):
                if e.get("kind") == "convert" and e.get("from") == e.get("to"):
                    out.append(Problem(kind, i, ("effects", j, "to"), f"converts {e.get('from')} into itself",
                                       "give 'to' another resource (or any-other)"))
    return out


def _board(rules: dict, content: dict[str, list[dict]]) -> list[Problem]:
    out: list[Problem] = []
    board = rules.get("board") or {}
    cols, rows = int(board.get("columns", 0)), int(board.get("rows", 0))
    setup, spawn = rules.get("setup") or {}, rules.get("spawn") or {}
    if "d10-coordinates" in (setup.get("first-settlement"), spawn.get("placement")) and \
            (cols > COORDINATE_DIE or rows > COORDINATE_DIE):
        out.append(Problem("rules", 0, ("board", "columns" if cols > COORDINATE_DIE else "rows"),
                           f"a {cols} x {rows} board has spaces that d{COORDINATE_DIE} coordinates never reach",
                           f"keep columns and rows at {COORDINATE_DIE} or less"))
    squares = (cols * rows + 1) // 2          # the checkerboard's dark squares get the basic tiles
    tiles = sum(int(t.get("quantity", 0)) for t in content.get("terrain") or [])
    if board.get("tile-layout") == "random-checkerboard" and tiles != squares and content.get("terrain"):
        out.append(Problem("rules", 0, ("board", "tile-layout"),
                           f"{tiles} terrain tiles for the {squares} checkerboard spaces of a {cols} x {rows} board",
                           "one basic tile for every other space"))
    advanced = sum(int(t.get("quantity", 0)) for t in content.get("advanced-tile") or [])
    if advanced > cols * rows - squares:
        out.append(Problem("advanced-tile", 0, ("quantity",),
                           f"{advanced} advanced tiles for the {cols * rows - squares} spaces the basic tiles leave clear",
                           "at most one advanced tile for each clear space"))
    return out


def refuse(content: dict[str, Any]) -> None:
    """Raise ValueError naming the first problem: the model is never built from such content."""
    problems = content_problems(content)
    if problems:
        p = problems[0]
        raise ValueError(f"{p.kind} #{p.index + 1}: {p.message}")
