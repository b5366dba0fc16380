"""Writing a smoke run's outputs: report JSON, one CSV per table, replay logs of failed games."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from toolkit.atomic import open_text, write_text

LOG_FORMAT = "hordekit-log/1"
#: Largest game log `replay` reads; a long game logs a few thousand actions.
LOG_MAX_BYTES = 64 * 1024 * 1024


def clear_logs(folder: Path) -> None:
    """Remove the failure logs of an earlier run, so that only this run's failures stand beside
    its report (a clean run leaves no stale log suggesting it failed)."""
    if folder.is_dir():
        for old in folder.glob("game-*-seed-*.json"):
            old.unlink(missing_ok=True)


def read_report(path: Path) -> dict[str, Any]:
    """An earlier smoke-report.json for --compare; ValueError when it is not one."""
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read(64 * 1024 * 1024))
    except (OSError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("win_rate_by_seat"), dict):
        raise ValueError("not a smoke report (no 'win_rate_by_seat')")
    return data


def save_log(folder: Path, game_dir: str, game: str, fingerprint: str, failed: dict[str, Any],
             options: dict[str, Any]) -> Path:
    """A failed game as a replayable log: content fingerprint plus every action, chance included.

    ``failed`` is one of a tally's kept errors: index, seed, players, bots, message, actions."""
    path = folder / f"game-{failed['index']:05d}-seed-{failed['seed']}.json"
    log = {"format": LOG_FORMAT, "game": game, "content": game_dir, "fingerprint": fingerprint,
           "players": failed["players"], "seed": failed["seed"], "bots": failed["bots"], "options": options,
           "error": failed["message"], "actions": failed["actions"]}
    write_text(path, json.dumps(log, separators=(",", ":")) + "\n")
    return path


def write_csvs(report: dict[str, Any], folder: Path) -> list[Path]:
    """One CSV per table of the report, for spreadsheets."""
    written = []

    def table(name: str, header: list[str], rows: list[list[Any]]) -> None:
        path = folder / f"smoke-{name}.csv"
        with open_text(path) as fh:
            w = csv.writer(fh)
            w.writerow(header)
            w.writerows(rows)
        written.append(path)

    table("seats", ["players", "seat", "games", "wins", "rate", "ci_low", "ci_high", "expected"],
          [[p, r["seat"], r["games"], r["wins"], r["rate"], r["ci_low"], r["ci_high"], r["expected"]]
           for p, rows in report["win_rate_by_seat"].items() for r in rows])
    events = sorted({e for c in report["components"].values() for e in c["events"]})
    table("components", ["id", "kind", *events, "games_used", "pick_rate", "win_rate_when_used", "ci_low", "ci_high",
                         "lift", "z", "never_choosable"],
          [[cid, c["kind"], *[c["events"].get(e, 0) for e in events], c["games_used"], c["pick_rate"],
            c["win_rate_when_used"], c["ci_low"], c["ci_high"], c["lift"], c["z"], c.get("never_choosable", False)]
           for cid, c in report["components"].items()])
    table("end-reasons", ["reason", "games"], [[k, v] for k, v in report["end_reasons"].items()])
    table("errors", ["index", "seed", "players", "message", "log", "command"],
          [[e["index"], e["seed"], e["players"], e["message"], e["log"], e["command"]] for e in report["errors"]])
    return written


def write_json(report: dict[str, Any], path: Path) -> None:
    write_text(path, json.dumps(report, indent=1) + "\n")
