"""Fantasy Draft: moves the rules do not allow, given through a scenario or a replayed log, are
refused with the file and the line of the move at fault and exit code 1; and a seat's story of a
log never says more than that seat may know, not even when it stops at a bad move."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import run_cli
from engine.fantasy_draft import SPEC
from engine.fantasy_draft.state import T_REV
from test_fd_support import model

GOLDEN = Path(__file__).resolve().parent / "golden" / "fd-heuristic.json"

_SCENARIO = """name: a move the rules refuse
game: fantasy-draft
rule: only the options offered may be chosen
players: 2
setup:
  current: 0
  board:
    a1: {unit: flag, seat: 0}
    d3: {unit: horseman, seat: 0}
    d4: {unit: forkman, seat: 0}
    f3: {unit: bowman, seat: 0}
    h3: {unit: rat, seat: 0}
    d5: {unit: knight, seat: 1}
    k9: {unit: flag, seat: 1}
    k8: {unit: wolf, seat: 1}
steps:
"""


@pytest.mark.parametrize("steps,bad", [
    (["Move d3 to d4"], "Move d3 to d4"),                    # onto a hex an own unit holds
    (["Move d3 to d5"], "Move d3 to d5"),                    # two hexes at once, through an occupied one
    (["Attack d4 from d3"], "Attack d4 from d3"),            # attacking an own unit
    (["Move a1 to a0"], "Move a1 to a0"),                    # off the board (and the flag never moves)
    (["Move f3 to f4", "Move f4 to f5"], "Move f4 to f5"),   # the Bowman (1 action) acting twice
    (["Rat h3 Poison on h4"], "Rat h3 Poison on h4"),        # an ability with no enemy in its range
    (["Rat h3 Poison"], "Rat h3 Poison"),
    (["Move k8 to k7"], "Move k8 to k7"),                    # player 2's unit in player 1's turn
    (["Shoot d5 from d4 (Bowman)"], "Shoot d5 from d4 (Bowman)"),  # a unit that is not there
])
def test_an_illegal_move_in_a_scenario_fails_at_its_step(tmp_path: Path, steps: list[str], bad: str) -> None:
    text = _SCENARIO + "".join(f"  - choose: {s}\n" for s in steps) + "expect: {over: false}\n"
    path = tmp_path / "illegal.yaml"
    path.write_text(text)
    line = text.splitlines().index(f"  - choose: {bad}") + 1
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    fail = next(x for x in proc.stdout.splitlines() if x.startswith("FAIL "))
    assert f"illegal.yaml:{line}:5: a move the rules refuse: step {len(steps)}:" in fail
    assert f"has no option '{bad}'" in fail


def _where(text: str, at: int) -> tuple[int, int]:
    """The line and column (from 1) of entry `at` of the `actions` list in a log's text."""
    start = text.index('"actions"')
    for _ in range(at + 1):
        m = re.compile(r"-?\d+").search(text, start)
        start = m.end()
    return text.count("\n", 0, m.start()) + 1, m.start() - text.rfind("\n", 0, m.start())


def _bad_log(tmp_path: Path, at: int, value: int, indent: int | None) -> tuple[Path, int, int]:
    """The golden game with action `at` replaced by `value`, written with `indent`; the line and
    column where that action stands in the file."""
    log = json.loads(GOLDEN.read_text())
    log["actions"][at] = value
    text = json.dumps({"game": "fantasy-draft", **log}, indent=indent)
    path = tmp_path / "bad.json"
    path.write_text(text)
    return (path, *_where(text, at))


@pytest.mark.parametrize("indent", [None, 1])
@pytest.mark.parametrize("at,value", [(60, 999), (80, -1)])
def test_an_illegal_action_in_a_log_is_refused_at_its_line_and_column(tmp_path: Path, indent: int | None,
                                                                       at: int, value: int) -> None:
    path, line, col = _bad_log(tmp_path, at, value, indent)
    for extra in ((), ("--as", "1"), ("--as", "2")):
        proc = run_cli("replay", str(path), *extra)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        last = proc.stdout.splitlines()[-1]
        assert last.startswith(f"{path}:{line}:{col}: the log does not replay: action {at} ({value}) is not legal: "
                               f"illegal action {value} for "), (extra, last)


def test_a_log_that_goes_on_after_the_game_ended_is_refused(tmp_path: Path) -> None:
    log = json.loads(GOLDEN.read_text())
    n = len(log["actions"])
    log["actions"].append(0)
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"game": "fantasy-draft", **log}, indent=1))
    line, col = _where(path.read_text(), n)
    for extra in ((), ("--as", "2")):
        proc = run_cli("replay", str(path), *extra)
        assert proc.returncode == 1, (extra, proc.stdout[-300:])
        assert proc.stdout.splitlines()[-1].startswith(
            f"{path}:{line}:{col}: the log does not replay: action {n} (0) is not legal: the game is over"), extra


def test_a_seat_story_stopped_by_a_bad_action_does_not_count_the_other_seats_options(tmp_path: Path) -> None:
    """How many options player 1 had in a turn depends on the units under its face-down tokens (a
    hero's special actions are options of their own), so player 2's story names no count for a
    decision of player 1's, even when the log stops there; player 1's own story does."""
    at = 80
    actions = json.loads(GOLDEN.read_text())["actions"]
    st = SPEC.new_state(model(), 2, {})
    for a in actions[:at]:
        st.apply(a)
    d = st.decision()
    assert d.player == 0 and st.dkind == "play"
    assert any(not st.board[mv[1]][T_REV] for mv in st.moves)  # face-down tokens among those offered
    path, _, _ = _bad_log(tmp_path, at, 999, None)
    theirs = run_cli("replay", str(path), "--as", "2").stdout.splitlines()[-1]
    mine = run_cli("replay", str(path), "--as", "1").stdout.splitlines()[-1]
    assert mine.endswith(f"illegal action 999 for '{d.prompt}' ({d.n} options)")
    assert theirs.endswith(f"illegal action 999 for '{d.prompt}' (player 1's decision)")
    assert "options" not in theirs


def test_the_location_of_an_action_is_that_of_the_list_json_reads(tmp_path: Path) -> None:
    """An `actions` key inside another value, strings with brackets and commas, and a key given twice
    (JSON keeps the last) do not mislead the line and column of a log's action."""
    from toolkit.play_cli import action_location

    text = ('{"options": {"actions": [7, 7, 7]}, "note": "a [1, 2] \\\\\\"actions\\\\\\": [", "actions": [9],\n'
            ' "game": "fantasy-draft",\n "actions": [0,\n  1, 2]}')
    assert json.loads(text)["actions"] == [0, 1, 2]
    path = tmp_path / "log.json"
    path.write_text(text)
    assert action_location(path, 0) == f"{path}:3:14"
    assert action_location(path, 2) == f"{path}:4:6"
    assert action_location(path, 3) == str(path)  # no such entry: the file alone
    path.write_text("[1, 2]")
    assert action_location(path, 0) == str(path)
