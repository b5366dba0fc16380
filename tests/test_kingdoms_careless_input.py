"""Kingdoms with careless input: a scenario whose situation the rules could never reach, and broken
copies of content/kingdoms. Each is refused with a message that says what is wrong and where, exit
code 1, no traceback; nothing is played from a broken board."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

SCENARIO = """name: a careless situation
game: kingdoms
players: 2
setup:
  start: turn
  phase: move-phase
  current: 0
{extra}steps: []
"""

# (what is wrong, the lines added under setup, words the message must hold)
SITUATIONS = [
    ("unknown-space", "  hordes: {z99: troll-king}\n", "unknown space 'z99' (the board runs from a1 to j10)"),
    ("unknown-horde", "  hordes: {c3: nobody}\n", "unknown horde 'nobody'"),
    ("unknown-ability", "  players: [{abilities: [flying]}]\n", "unknown ability 'flying'"),
    ("unknown-resource", "  players: [{resources: {unobtainium: 1}}]\n", "unknown resource 'unobtainium'"),
    ("unknown-tile", "  tiles: {c3: lava}\n", "unknown tile 'lava'"),
    ("unknown-unit", "  players: [{units: {c3: {dragon: 1}}}]\n", "c3: unknown unit 'dragon'"),
    ("count-not-a-number", "  players: [{units: {c3: {army: many}}}]\n", "c3: army must be a whole number"),
    ("negative-hits", "  hordes: {c3: {horde: troll-king, hits: -5}}\n", "c3: hits must be a whole number"),
    ("horde-without-hits", "  hordes: {c3: {horde: troll-king, hits: 0}}\n", "at least one hit counter"),
    ("over-the-stacking-limit", "  players: [{units: {c3: {army: 9}}}]\n", "9 armies over the stacking limit 4"),
    ("two-settlements-in-a-space", "  players: [{units: {c3: {settlement: 2}}}]\n", "2 settlements in one space"),
    ("two-players-in-a-space", "  players: [{units: {c3: {army: 1}}}, {units: {c3: {army: 1}}}]\n",
     "player 2's units would share the space with player 1's"),
    ("units-on-a-chasm", "  tiles: {c3: chasm}\n  players: [{units: {c3: {army: 1}}}]\n",
     "units in a space nothing may enter"),
    ("more-players-than-the-game", "  players: [{}, {}, {}]\n", "the setup describes 3 players, the game has 2"),
    ("round-past-the-end", "  round: 21\n", "round 21 is outside the game's 1 to 20"),
]


@pytest.mark.parametrize("extra,message", [s[1:] for s in SITUATIONS], ids=[s[0] for s in SITUATIONS])
def test_a_situation_the_rules_never_reach_is_refused(tmp_path: Path, extra: str, message: str) -> None:
    path = tmp_path / "careless.yaml"
    path.write_text(SCENARIO.format(extra=extra))
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"FAIL {path}:5:3: "), proc.stdout     # the setup, by line and column
    assert "cannot build the starting situation" in proc.stdout and message in proc.stdout, proc.stdout


@pytest.mark.parametrize("setup,message", [
    ("  start: sideways\n", "unknown start 'sideways' (one of: turn, horde, raid, end)"),
    ("  start: turn\n  phase: nap-phase\n", "unknown phase 'nap-phase'"),
    ("  start: raid\n  phase: move-phase\n", "it needs start: turn"),
    ("  start: turn\n  current: 1\n", "give the phase too"),
    ("  start: turn\n  phase: move-phase\n  current: 5\n", "current seat 5 takes no turn"),
    ("  start: turn\n  order: [0, 0]\n", "must list each seat that takes turns once"),
], ids=["unknown-start", "unknown-phase", "phase-outside-a-turn", "current-without-phase", "current-not-a-seat",
        "order-repeats-a-seat"])
def test_where_play_starts_must_be_a_real_place(tmp_path: Path, setup: str, message: str) -> None:
    path = tmp_path / "careless.yaml"
    path.write_text(f"name: a careless start\ngame: kingdoms\nplayers: 2\nsetup:\n{setup}steps: []\n")
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert message in proc.stdout, proc.stdout
