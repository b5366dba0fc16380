"""Turn a smoke run's totals into the report: what a designer tunes balance with.

The report is plain JSON (format ``hordekit-smoke/1``, documented in docs/smoke.md). Win rates
carry Wilson confidence intervals; flags are raised only when the data says more than chance.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from toolkit.smoke.tally import ComponentTally, Tally, win_share

FORMAT = "hordekit-smoke/1"
Z95 = 1.959964
#: A choosable component counts as covered when at least this share of all seats chose it.
COVERAGE_MIN = 0.01


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


def build_report(tally: Tally, *, game: str, title: str, fingerprint: str, plan: dict[str, Any], seconds: float,
                 workers: int, backend: str, interrupted: bool, components: dict[str, str],
                 unchoosable: frozenset[str] = frozenset(),
                 impossible: dict[str, tuple[frozenset[str], str]] | None = None,
                 unchosen_kinds: frozenset[str] = frozenset(), solo_scored: bool = False) -> dict[str, Any]:
    """The report from a run's totals. ``components`` maps each content id to its kind;
    ``unchoosable`` holds the ids the game's rules can never offer as a choice (`GameSpec.unchoosable`);
    ``impossible`` maps a usage event to the ids the rules can never give it and why
    (`GameSpec.impossible`); ``unchosen_kinds`` are the kinds no seat chooses (`GameSpec.unchosen_kinds`);
    ``solo_scored``: the rules name no win or loss for one player, so solo games are reported by score
    (`GameSpec.solo_scored`)."""
    t = tally
    report: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "title": title,
        "fingerprint": fingerprint,
        "players": list(plan["players"]),
        "seed": plan["seed"],
        "bots": list(plan["bots"]),
        "variants": list(plan.get("variants") or []),
        "check": plan["check"],
        "games_requested": plan["games"],
        "games_played": t.played,
        "games_finished": t.finished,
        "games_failed": t.failed,
        "interrupted": interrupted,
        "stalemates": t.stalemates,
        "errors": [{"index": e["index"], "seed": e["seed"], "players": e["players"], "bots": e["bots"],
                    "message": e["message"], "log": None, "command": None} for e in t.sorted_errors()],
        "games_checked": t.checked,
        "games_invariants_checked": t.invariants,
        "seconds": round(seconds, 3),
        "games_per_second": round(t.played / seconds, 2) if seconds > 0 else None,
        "actions": t.actions,
        "workers": workers,
        "backend": backend,
    }
    report["seat_games"] = t.seat_games
    report["end_reasons"] = dict(sorted(t.end_reasons.items()))
    report["win_rate_by_seat"] = _seats(t)
    report["solo"] = _solo(t, solo_scored)
    report["turns"] = t.turns.summary()
    report["scores"] = t.scores.summary()
    report["winning_margin"] = t.margin.summary()
    report["stats"] = {k: h.summary() for k, h in sorted(t.stats.items())}
    report["shortages"] = {k: {"games": int(games), "total": total} for k, (games, total) in sorted(t.shortages.items())}
    report["components"], report["never"], report["never_impossible"] = _components(
        t, components, unchoosable, impossible or {})
    report["coverage"] = _coverage(report["components"], t.seat_games, t.choice_events, unchosen_kinds)
    report["flags"] = _flags(report, t)
    return report


def _rate_row(wins: Fraction, games: int) -> dict[str, Any]:
    lo, hi = wilson(float(wins), games)
    return {"games": games, "wins": round(float(wins), 3), "rate": round(float(wins) / games, 4) if games else 0.0,
            "ci_low": round(lo, 4), "ci_high": round(hi, 4)}


def _seats(t: Tally) -> dict[str, list[dict[str, Any]]]:
    """Win rate of each seat, per player count (seat 0 moves first); solo games are apart."""
    out = {}
    for players, seats in sorted(t.seat_wins.items()):
        if players < 2:
            continue
        games = t.games_by_count[players]
        out[str(players)] = [{"seat": seat, **_rate_row(win_share(wins), games), "expected": round(1 / players, 4)}
                             for seat, wins in enumerate(seats)]
    return out


def _solo(t: Tally, scored: bool = False) -> dict[str, Any] | None:
    """One player against the game: how often the player beat it (the game names the winner), and
    the player's scores. A game whose rules name no win or loss for one player (``scored``) gets
    its scores only: a win rate there would only repeat that the lone player is named the winner."""
    if 1 not in t.seat_wins:
        return None
    games = t.games_by_count[1]
    if scored:
        return {"games": games, "scored_only": True, "scores": t.solo_scores.summary()}
    row = _rate_row(win_share(t.seat_wins[1][0]), games)
    return {"games": games, "scored_only": False, "won": int(row["wins"]), "lost": games - int(row["wins"]),
            "win_rate": row["rate"], "ci_low": row["ci_low"], "ci_high": row["ci_high"],
            "scores": t.solo_scores.summary()}


def _components(t: Tally, components: dict[str, str], unchoosable: frozenset[str],
                impossible: dict[str, tuple[frozenset[str], str]],
                ) -> tuple[dict[str, Any], dict[str, list[str]], dict[str, dict[str, Any]]]:
    """Per component: event totals, games used, win rate when its owner chose it, and the lift;
    whether the rules can ever offer it as a choice. Then the "never" lists, and per event the
    components left out of its list because the rules can never give them that event."""
    seat_games, total_share = t.seat_games, Fraction(t.decided)
    out: dict[str, Any] = {}
    for cid in sorted(set(t.components) | set(components)):
        comp = t.components.get(cid) or ComponentTally()
        n_used, wins_used = comp.seats_used, win_share(comp.wins_used)
        n_other, wins_other = seat_games - n_used, total_share - wins_used
        rate_used = float(wins_used / n_used) if n_used else None
        rate_other = float(wins_other / n_other) if n_other else None
        lo, hi = wilson(float(wins_used), n_used)
        out[cid] = {
            "kind": components.get(cid, ""),
            "events": dict(sorted(comp.events.items())),
            "seat_games_used": n_used,
            "pick_rate": round(n_used / seat_games, 4) if seat_games else 0.0,
            "games_used": comp.games_used,
            "win_rate_when_used": round(rate_used, 4) if rate_used is not None else None,
            "ci_low": round(lo, 4), "ci_high": round(hi, 4),
            "lift": round(rate_used - rate_other, 4) if rate_used is not None and rate_other is not None else None,
            "z": round(two_proportion_z(float(wins_used), n_used, float(wins_other), n_other), 2),
            "never_choosable": cid in unchoosable,
        }
    # "Never X": for each event, the kinds it applies to are those of components that had it at
    # least once; components of those kinds that never had it are listed (for a choice event, not
    # those the rules never offer as a choice); nor those the rules can never give that event,
    # which are counted apart with the reason.
    never: dict[str, list[str]] = {}
    left_out: dict[str, dict[str, Any]] = {}
    for event in sorted({e for c in t.components.values() for e in c.events}):
        kinds = {components.get(cid) for cid, c in t.components.items() if c.events.get(event)} - {None, ""}
        skip = unchoosable if event in t.choice_events else frozenset()
        cannot, why = impossible.get(event, (frozenset(), ""))
        missing = [cid for cid, kind in components.items() if kind in kinds and cid not in skip
                   and not t.components.get(cid, ComponentTally()).events.get(event)]
        never[event] = sorted(cid for cid in missing if cid not in cannot)
        apart = sorted(cid for cid in missing if cid in cannot)
        if apart:
            left_out[event] = {"ids": apart, "why": why}
    return out, never, left_out


def _coverage(comps: dict[str, Any], seat_games: int, choice: frozenset[str],
              unchosen_kinds: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Share of the choosable components that at least COVERAGE_MIN of all seats chose.

    A kind is choosable when the game reports a choice event for its components (a kind whose
    components the game never reports a choice for, such as tiles or tokens, is left out, and so is
    a kind the game declares no seat chooses, ``unchosen_kinds``, listed as ``unchosen_kinds``). Of a
    choosable kind, the components the game's rules never offer as a choice are listed apart
    (``never_choosable``), neither covered nor below.
    """
    reported = {c["kind"] for c in comps.values() if c["kind"] and any(e in choice for e in c["events"])}
    kinds = reported - unchosen_kinds
    apart = sorted(cid for cid, c in comps.items() if c["kind"] in kinds and c["never_choosable"])
    rows = {cid: c for cid, c in comps.items() if c["kind"] in kinds and not c["never_choosable"]}
    below = sorted(({"id": cid, "kind": c["kind"], "pick_rate": c["pick_rate"]} for cid, c in rows.items()
                    if c["pick_rate"] < COVERAGE_MIN), key=lambda r: (r["kind"], r["pick_rate"], r["id"]))
    by_kind = {}
    for kind in sorted(kinds):
        ids = [cid for cid, c in rows.items() if c["kind"] == kind]
        by_kind[kind] = {"choosable": len(ids),
                         "covered": sum(1 for cid in ids if rows[cid]["pick_rate"] >= COVERAGE_MIN),
                         "never_choosable": sum(1 for cid in apart if comps[cid]["kind"] == kind)}
    return {"threshold": COVERAGE_MIN, "choosable": len(rows), "covered": len(rows) - len(below),
            "share": round((len(rows) - len(below)) / len(rows), 4) if rows else None,
            "by_kind": by_kind, "below": below, "never_choosable": apart,
            "unchosen_kinds": sorted(reported & unchosen_kinds), "seat_games": seat_games}


def _flags(report: dict[str, Any], t: Tally) -> dict[str, Any]:
    comps = report["components"]
    # a kind none of whose items ever had an event is one the rules do not report on (a die, a rules
    # item, a marker): its items are not dead, only not counted
    tracked = {c["kind"] for c in comps.values() if any(c["events"].values())}
    dead = sorted(cid for cid, c in comps.items()
                  if c["kind"] in tracked and not c["never_choosable"] and not any(c["events"].values()))
    dominant = sorted(
        (cid for cid, c in comps.items() if not c["never_choosable"] and c["lift"] is not None
         and c["seat_games_used"] >= 30
         and c["lift"] > 0.1 and c["z"] > 3.0),
        key=lambda cid: -comps[cid]["lift"])
    first_player = {}
    for players, rows in report["win_rate_by_seat"].items():
        seat0 = rows[0]
        expected = seat0["expected"]
        if seat0["ci_low"] > expected or seat0["ci_high"] < expected:
            first_player[players] = {"rate": seat0["rate"], "expected": expected,
                                     "ci": [seat0["ci_low"], seat0["ci_high"]]}
    n = t.finished
    return {
        "dead_components": dead,
        "dominant_components": dominant,
        "stalemate_rate": round(t.stalemates / n, 4) if n else 0.0,
        "stalemates_flagged": bool(n and t.stalemates / n > 0.05),
        "first_player_advantage": first_player,
        "errors": t.failed,
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
