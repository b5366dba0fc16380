"""Turn game summaries into the smoke report: what a designer tunes balance with.

The report is plain JSON (format ``hordekit-smoke/1``, documented in docs/smoke.md). Win rates
carry Wilson confidence intervals; flags are raised only when the data says more than chance.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from toolkit.smoke.runner import GameSummary

FORMAT = "hordekit-smoke/1"
#: Usage events that mean a seat chose to use a component. Win-rate lift is measured on these
#: only: defeating a monster or losing a hero says how a game went, not how strong a card is.
CHOICE_EVENTS = frozenset({"recruited", "played", "drafted", "picked", "activated", "used", "bought",
                           "researched", "built", "trained"})
Z95 = 1.959964


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest even for small samples and rates near 0."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_proportion_z(w1: float, n1: int, w2: float, n2: int) -> float:
    """z statistic of the difference between two win rates (0 when either side is empty)."""
    if n1 == 0 or n2 == 0:
        return 0.0
    p1, p2 = w1 / n1, w2 / n2
    pooled = (w1 + w2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return (p1 - p2) / se if se > 0 else 0.0


def _share(summary: GameSummary, seat: int) -> float:
    """A seat's share of the win: ties split it."""
    return 1.0 / len(summary.winners) if seat in summary.winners else 0.0


def _distribution(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    n = len(ordered)

    def q(f: float) -> float:
        return ordered[min(n - 1, int(f * n))]

    lo, hi = ordered[0], ordered[-1]
    bins = 12
    width = max(1e-9, (hi - lo) / bins)
    counts = [0] * bins
    for v in ordered:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    return {"count": n, "mean": round(sum(ordered) / n, 3), "min": lo, "p10": q(0.1), "median": q(0.5),
            "p90": q(0.9), "max": hi,
            "histogram": {"start": lo, "width": round(width, 6), "counts": counts}}


def build_report(summaries: list[GameSummary], *, game: str, title: str, fingerprint: str,
                 plan: dict[str, Any], seconds: float, workers: int, backend: str,
                 interrupted: bool, components: dict[str, str]) -> dict[str, Any]:
    """Aggregate everything. ``components`` maps each content id to its kind, for dead-card flags."""
    finished = [s for s in summaries if s.error is None]
    errors = [s for s in summaries if s.error is not None]
    report: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "title": title,
        "fingerprint": fingerprint,
        "players": list(plan["players"]),
        "seed": plan["seed"],
        "bots": list(plan["bots"]),
        "check": plan["check"],
        "games_requested": plan["games"],
        "games_played": len(summaries),
        "games_finished": len(finished),
        "interrupted": interrupted,
        "stalemates": sum(1 for s in finished if s.stalemate),
        "errors": [{"index": s.index, "seed": s.seed, "players": s.players, "bots": s.bots,
                    "message": s.error, "log": None, "command": None} for s in errors],
        "games_checked": sum(1 for s in summaries if s.checked),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(summaries) / seconds, 2) if seconds > 0 else None,
        "actions": sum(s.steps for s in summaries),
        "workers": workers,
        "backend": backend,
    }
    report["seat_games"] = sum(s.players for s in finished)
    report["end_reasons"] = dict(sorted(_count(s.end_reason for s in finished).items()))
    report["win_rate_by_seat"] = _seats(finished)
    report["turns"] = _distribution([s.turns for s in finished])
    report["scores"] = _distribution([float(x) for s in finished for x in s.scores])
    report["winning_margin"] = _distribution(
        [float(sorted(s.scores)[-1] - sorted(s.scores)[-2]) for s in finished if len(s.scores) > 1])
    report["stats"] = {k: _distribution(v) for k, v in sorted(_stat_values(finished).items())}
    report["components"], report["never"] = _components(finished, components)
    report["flags"] = _flags(report, finished)
    return report


def _count(values: Any) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for v in values:
        out[v] += 1
    return dict(out)


def _stat_values(finished: list[GameSummary]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for s in finished:
        for k, v in s.stats.items():
            if isinstance(v, (int, float)):
                out[k].append(float(v))
    return out


def _seats(finished: list[GameSummary]) -> dict[str, list[dict[str, Any]]]:
    """Win rate of each seat, per player count (seat 0 moves first)."""
    by_count: dict[int, list[GameSummary]] = defaultdict(list)
    for s in finished:
        by_count[s.players].append(s)
    out = {}
    for players, games in sorted(by_count.items()):
        rows = []
        for seat in range(players):
            wins = sum(_share(s, seat) for s in games)
            lo, hi = wilson(wins, len(games))
            rows.append({"seat": seat, "games": len(games), "wins": round(wins, 3),
                         "rate": round(wins / len(games), 4), "ci_low": round(lo, 4), "ci_high": round(hi, 4),
                         "expected": round(1 / players, 4)})
        out[str(players)] = rows
    return out


def _components(finished: list[GameSummary], components: dict[str, str]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Per component: event totals, games used, win rate when its owner used it, and the lift."""
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    used_seats: dict[str, list[tuple[int, float]]] = defaultdict(list)  # (game index, win share)
    seat_games = 0
    total_share = 0.0
    for s in finished:
        seat_games += s.players
        total_share += sum(_share(s, seat) for seat in range(s.players))
        for cid, events in s.usage.items():
            seats_used = set()
            for event, per_seat in events.items():
                totals[cid][event] += sum(per_seat)
                if event in CHOICE_EVENTS:
                    seats_used.update(i for i, n in enumerate(per_seat) if n)
            for seat in sorted(seats_used):
                used_seats[cid].append((s.index, _share(s, seat)))
    out: dict[str, Any] = {}
    for cid in sorted(set(totals) | set(components)):
        uses = used_seats.get(cid, [])
        n_used = len(uses)
        wins_used = sum(w for _, w in uses)
        n_other = seat_games - n_used
        wins_other = total_share - wins_used
        rate_used = wins_used / n_used if n_used else None
        rate_other = wins_other / n_other if n_other else None
        lo, hi = wilson(wins_used, n_used)
        out[cid] = {
            "kind": components.get(cid, ""),
            "events": dict(sorted(totals.get(cid, {}).items())),
            "seat_games_used": n_used,
            "games_used": len({i for i, _ in uses}),
            "win_rate_when_used": round(rate_used, 4) if rate_used is not None else None,
            "ci_low": round(lo, 4), "ci_high": round(hi, 4),
            "lift": round(rate_used - rate_other, 4) if rate_used is not None and rate_other is not None else None,
            "z": round(two_proportion_z(wins_used, n_used, wins_other, n_other), 2),
        }
    # "Never X": for each event, the kinds it applies to are those of components that had it at
    # least once; components of those kinds that never had it are listed.
    never: dict[str, list[str]] = {}
    events = sorted({e for t in totals.values() for e in t})
    for event in events:
        kinds = {components.get(cid) for cid, t in totals.items() if t.get(event)} - {None, ""}
        never[event] = sorted(cid for cid, kind in components.items()
                              if kind in kinds and not totals.get(cid, {}).get(event))
    return out, never


def _flags(report: dict[str, Any], finished: list[GameSummary]) -> dict[str, Any]:
    comps = report["components"]
    dead = sorted(cid for cid, c in comps.items() if c["kind"] and not c["events"])
    dominant = sorted(
        (cid for cid, c in comps.items() if c["lift"] is not None and c["seat_games_used"] >= 30
         and c["lift"] > 0.1 and c["z"] > 3.0),
        key=lambda cid: -comps[cid]["lift"])
    first_player = {}
    for players, rows in report["win_rate_by_seat"].items():
        seat0 = rows[0]
        expected = seat0["expected"]
        if seat0["ci_low"] > expected or seat0["ci_high"] < expected:
            first_player[players] = {"rate": seat0["rate"], "expected": expected,
                                     "ci": [seat0["ci_low"], seat0["ci_high"]]}
    n = len(finished)
    return {
        "dead_components": dead,
        "dominant_components": dominant,
        "stalemate_rate": round(report["stalemates"] / n, 4) if n else 0.0,
        "stalemates_flagged": bool(n and report["stalemates"] / n > 0.05),
        "first_player_advantage": first_player,
        "errors": len(report["errors"]),
    }


def compare(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """What moved between two reports; a shift is marked when |z| > 2.58 (about 1 in 100 by chance)."""
    moved_seats = []
    for players, rows in new.get("win_rate_by_seat", {}).items():
        old_rows = {r["seat"]: r for r in old.get("win_rate_by_seat", {}).get(players, [])}
        for r in rows:
            o = old_rows.get(r["seat"])
            if o is None:
                continue
            z = two_proportion_z(r["wins"], r["games"], o["wins"], o["games"])
            moved_seats.append({"players": int(players), "seat": r["seat"], "old": o["rate"], "new": r["rate"],
                                "change": round(r["rate"] - o["rate"], 4), "z": round(z, 2),
                                "significant": abs(z) > 2.58})
    moved_components = []
    for cid, c in new.get("components", {}).items():
        o = old.get("components", {}).get(cid)
        if not o or c["win_rate_when_used"] is None or o.get("win_rate_when_used") is None:
            continue
        n1, n2 = c["seat_games_used"], o["seat_games_used"]
        z = two_proportion_z(c["win_rate_when_used"] * n1, n1, o["win_rate_when_used"] * n2, n2)
        moved_components.append({"id": cid, "old": o["win_rate_when_used"], "new": c["win_rate_when_used"],
                                 "change": round(c["win_rate_when_used"] - o["win_rate_when_used"], 4),
                                 "z": round(z, 2), "significant": abs(z) > 2.58})
    moved_components.sort(key=lambda r: -abs(r["z"]))
    turns_old, turns_new = old.get("turns", {}).get("mean"), new.get("turns", {}).get("mean")
    return {
        "old_fingerprint": old.get("fingerprint"), "new_fingerprint": new.get("fingerprint"),
        "seats": moved_seats,
        "components": moved_components,
        "turns": {"old": turns_old, "new": turns_new},
        "significant": [f"seat {r['seat']} ({r['players']}p)" for r in moved_seats if r["significant"]]
                       + [r["id"] for r in moved_components if r["significant"]],
    }
