"""Secret simultaneous choices and hidden information, on a game built outside hordekit.

Sealed Bid (tests/fixtures/sealedbid, rules in tests/fixtures/pylib/sealedbid_rules): every seat
bids face down in turn, then all bids are revealed together. Nothing in toolkit/ or engine/
knows this game.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from conftest import FIXTURES, run_cli

sys.path.insert(0, str(FIXTURES / "pylib"))
from sealedbid_rules import SPEC  # noqa: E402

from engine.core.driver import bot_choice, make_bots, play_game  # noqa: E402

GAME = FIXTURES / "sealedbid"
PYLIB = [FIXTURES / "pylib"]
MODEL = (0, 1, 2, 3)


def _at_second_bid(first_bid: int):  # noqa: ANN202
    """A 2-player game at seat 2's bid, after seat 1 bid `first_bid` face down."""
    st = SPEC.new_state(MODEL, 2, {})
    st.apply(2)            # a prize of 3
    st.apply(first_bid)    # seat 1's secret bid
    return st


def test_the_game_validates_and_smoke_plays_with_search_and_its_own_bot(tmp_path: Path) -> None:
    assert run_cli("validate", str(GAME), extra_path=PYLIB).returncode == 0
    proc = run_cli("smoke", str(GAME), "--games", "16", "--bot", "search:20,bold", "-d", str(tmp_path),
                   extra_path=PYLIB)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "smoke-report.json").read_text())
    assert report["games_finished"] == 16 and not report["errors"]


def test_a_secret_bid_is_not_in_the_other_seats_observation_until_revealed() -> None:
    low, high = _at_second_bid(0), _at_second_bid(3)
    assert low.observation(1) == high.observation(1)
    assert low.observation(0) != high.observation(0)
    assert low.decision() == high.decision() and low.decision().secret
    low.apply(1)
    high.apply(1)
    assert low.observation(1) != high.observation(1), "after the reveal the outcome differs openly"
    assert low.reveals == [(3, (1, 2))]


def test_no_peeking_the_second_bidder_chooses_the_same_whatever_the_first_bid() -> None:
    for name in ("bold", "random", "search:40"):
        picks = []
        for first in (0, 3):
            st = _at_second_bid(first)
            bot = make_bots(SPEC, 2, 5, ["random", name])[1]
            picks.append(bot_choice(st, bot, st.decision(), hidden=True))
            assert st.pending == [first], "restore puts the real bid back"
        assert picks[0] == picks[1], name


def test_a_clone_keeps_the_secret_bid_but_a_redacted_clone_does_not() -> None:
    st = _at_second_bid(3)
    assert st.clone().pending == [3]
    token = st.redact(1)
    try:
        assert st.clone().pending == [0]
    finally:
        st.restore(token)
    twin = st.clone()
    twin.resample(1, random.Random(2))
    assert twin.pending[0] in (0, 1, 2, 3)


def test_replay_as_a_seat_hides_the_other_bid_until_the_reveal(tmp_path: Path) -> None:
    rec = play_game(SPEC, MODEL, 2, 3, ["bold"])
    assert rec.error is None
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"game": str(GAME), "players": 2, "actions": rec.actions}))
    proc = run_cli("replay", str(log), "--as", "2", extra_path=PYLIB)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("step 1:"))
    assert "player 1" in lines[first] and lines[first].endswith("(secret)")
    assert lines[first + 1].startswith("  you now see") or lines[first + 1].startswith("step 2")
    own = next(line for line in lines if line.startswith("step 2:"))
    assert own.startswith("step 2: you,") and "bid" in own
    reveal = next(line for line in lines if line.startswith("  revealed:"))
    assert "step 1: bid" in reveal and "step 2: bid" in reveal
    assert run_cli("replay", str(log), "--as", "3", extra_path=PYLIB).returncode == 2
