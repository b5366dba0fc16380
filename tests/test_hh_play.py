"""Whole games: bots finish without errors, games are deterministic, golden logs replay."""
from __future__ import annotations

import json

import pytest

from engine.core.driver import derive_seed, play_game, replay
from engine.hordes_and_heroes import SPEC
from engine.core.bench import bench
from test_hh_support import GOLDEN, model


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_200_checked_games_at_2_to_5_players(bot: str) -> None:
    failures = []
    for i in range(200):
        players = 2 + i % 4
        rec = play_game(SPEC, model(), players, derive_seed(7, i), [bot], check=(i % 2 == 0))
        if rec.error or rec.result is None:
            failures.append((players, rec.seed, rec.error))
    assert failures == []


def test_heuristic_bots_usually_end_the_game_by_defeating_bosses() -> None:
    ends = [play_game(SPEC, model(), p, derive_seed(11, i), ["heuristic"]).result.end_reason
            for p in (3, 4, 5) for i in range(10)]
    assert ends.count("bosses") >= 24


def test_same_seed_gives_the_same_game() -> None:
    a = play_game(SPEC, model(), 3, 12345, ["heuristic", "random", "heuristic"])
    b = play_game(SPEC, model(), 3, 12345, ["heuristic", "random", "heuristic"])
    assert a.actions == b.actions and a.result == b.result


def test_clone_has_the_same_future() -> None:
    rec = play_game(SPEC, model(), 2, 99, ["random"])
    st = replay(SPEC, model(), 2, rec.actions[:500])
    twin = st.clone()
    for a in rec.actions[500:]:
        st.apply(a)
        twin.apply(a)
    assert st.result() == twin.result() == rec.result


def test_an_illegal_action_is_refused() -> None:
    st = SPEC.new_state(model(), 2, {})
    with pytest.raises(ValueError):
        st.apply(len(st.decision().options))


def test_the_turn_cap_ends_the_game_as_a_stalemate() -> None:
    rec = play_game(SPEC, model(), 2, 5, ["random"], options={"max_turns": 6})
    assert rec.result.end_reason == "stalemate" and rec.result.turns == 6 and rec.stalemate


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("hh-*.json")), ids=lambda p: p.stem)
def test_golden_log_replays_identically(path) -> None:
    gold = json.loads(path.read_text())
    st = replay(SPEC, model(), gold["players"], gold["actions"])
    res = st.result()
    assert st.is_over()
    assert res.scores == gold["scores"] and res.winners == gold["winners"]
    assert res.end_reason == gold["end_reason"] and res.turns == gold["turns"]
    assert [[model().monsters[m].id for m in v] for v in st.victory] == gold["victory"]


def test_bench_reports_actions_per_second() -> None:
    report = bench(SPEC, model(), 2, 3)
    assert report["errors"] == [] and report["actions_per_second"] > 0
