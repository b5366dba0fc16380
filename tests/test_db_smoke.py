"""`hordekit smoke dice-battles`: predefined and custom armies play to the end, and the report
gives win rates per faction, per army and per order card, how games end and how long they last."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_db_support import ROOT, content


def test_smoke_report_has_factions_armies_order_cards_endings_and_length(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "toolkit", "smoke", "dice-battles", "-n", "40", "--workers", "1",
                          "--json", "-o", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["games_finished"] == 40 and report["errors"] == []
    comps = report["components"]
    for faction in ("goblins", "serpent-children"):
        assert comps[faction]["kind"] == "faction" and comps[faction]["win_rate_when_used"] is not None
    fielded = [a["id"] for a in content()["army"] if comps[a["id"]]["seat_games_used"]]
    assert len(fielded) >= 2                                   # predefined sheets were played ...
    assert comps["custom-army"]["seat_games_used"] > 0         # ... and custom armies too
    played = [c["id"] for c in content()["order-card"] if comps[c["id"]]["events"].get("played")]
    assert len(played) >= 15
    assert set(report["end_reasons"]) <= {"two-heroes-lost", "round-limit"}
    assert report["turns"]["count"] == 40 and report["turns"]["mean"] > 3
