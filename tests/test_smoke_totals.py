"""The smoke report from running totals: the same report as from every game's summary, in memory
that does not grow with the run; solo games, variants, shortages and the coverage figure."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli

PYLIB = FIXTURES / "pylib"
COINRACE = FIXTURES / "coinrace"


@pytest.fixture(scope="module")
def coinrace() -> tuple[dict, object]:
    from toolkit.games import load_game
    from toolkit.rules import load_rules

    sys.path.insert(0, str(PYLIB))
    loaded = load_game(COINRACE)
    assert loaded.ok, loaded.diagnostics
    return loaded.data, load_rules("coinrace_rules")


def _plan(**kw):  # noqa: ANN202
    from toolkit.smoke.runner import RunPlan

    base = dict(game="coinrace", rules="coinrace_rules", games=400, players=(2, 3, 4), seed=21,
                bots=("greedy", "random"), check="sample")
    base.update(kw)
    return RunPlan(**base)


def _report(tally) -> dict:  # noqa: ANN001
    from toolkit.smoke.stats import build_report

    return build_report(tally, game="coinrace", title="Coin Race", fingerprint="-",
                        plan={"players": (2, 3, 4), "seed": 21, "bots": ["greedy", "random"], "check": "sample",
                              "games": 400},
                        seconds=1.0, workers=1, backend="process", interrupted=False,
                        components={"step-one": "move", "step-two": "move"})


def _every_summary(plan, data, spec) -> list:  # noqa: ANN001
    from toolkit.smoke.runner import play_one

    model = spec.build_model(data)
    return [play_one(plan, spec, model, i) for i in range(plan.games)]


def _share(s, seat: int) -> float:  # noqa: ANN001
    return 1 / len(s.winners) if seat in s.winners else 0.0


def test_streamed_report_equals_the_report_built_from_every_games_summary(coinrace) -> None:  # noqa: ANN001
    from toolkit.smoke.runner import choice_events, run
    from toolkit.smoke.tally import Tally

    data, spec = coinrace
    plan = _plan()
    streamed = _report(run(plan, data, workers=2).tally)
    summaries = _every_summary(plan, data, spec)
    assert streamed == _report(Tally.of(summaries, choice_events(spec)))

    # and the figures are those a designer would compute by hand from the summaries
    done = [s for s in summaries if s.error is None]
    turns = sorted(s.turns for s in done)
    assert streamed["turns"]["median"] == turns[len(turns) // 2]
    assert streamed["turns"]["mean"] == round(sum(turns) / len(turns), 3)
    two = [s for s in done if s.players == 2]
    assert streamed["win_rate_by_seat"]["2"][1]["rate"] == round(sum(_share(s, 1) for s in two) / len(two), 4)
    used = sum(1 for s in done for n in s.usage["step-one"]["played"] if n)
    assert streamed["components"]["step-one"]["seat_games_used"] == used
    assert [e["index"] for e in streamed["errors"]] == [s.index for s in summaries if s.error]
    assert streamed["games_failed"] == len(summaries) - len(done) > 0


def test_a_run_keeps_the_action_logs_of_the_first_100_failed_games_and_counts_the_rest(coinrace) -> None:  # noqa: ANN001
    from toolkit.smoke.runner import run
    from toolkit.smoke.tally import MAX_LOGGED_ERRORS

    data, spec = coinrace
    plan = _plan(games=1500, bots=("random",), check="none")
    tally = run(plan, data, workers=2).tally
    failed = [s.index for s in _every_summary(plan, data, spec) if s.error]
    assert tally.failed == len(failed) > MAX_LOGGED_ERRORS
    kept = tally.sorted_errors()
    assert [e["index"] for e in kept] == failed[:MAX_LOGGED_ERRORS]
    assert all(e["actions"] for e in kept)


def test_a_histogram_past_its_limit_bins_values_the_same_whatever_the_merge_order() -> None:
    from toolkit.smoke.tally import MAX_DISTINCT, Histogram

    rng = random.Random(5)
    values = [rng.uniform(0, 1000) for _ in range(3 * MAX_DISTINCT)]
    whole = Histogram()
    for v in values:
        whole.add(v)
    parts = [Histogram() for _ in range(3)]
    for i, v in enumerate(values):
        parts[i % 3].add(v)
    merged = Histogram()
    for p in reversed(parts):
        merged.merge(p)
    assert len(whole.counts) <= MAX_DISTINCT
    assert merged.summary() == whole.summary()
    assert whole.summary()["count"] == len(values) and "binned" in whole.summary()


def test_exact_values_stay_exact_below_the_limit() -> None:
    from toolkit.smoke.tally import Histogram

    h = Histogram()
    for v in [3, 1, 4, 1, 5, 9, 2, 6]:
        h.add(v)
    s = h.summary()
    assert (s["min"], s["median"], s["max"], s["mean"]) == (1, 4, 9, 3.875)
    assert "binned" not in s


def run_coinrace(tmp_path: Path, *args: str) -> tuple[dict, str]:
    proc = run_cli("smoke", str(COINRACE), "-d", str(tmp_path), *args, extra_path=[PYLIB])
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads((tmp_path / "smoke-report.json").read_text()), proc.stdout


def test_variant_switches_a_game_variant_on_for_smoke_runs(tmp_path: Path) -> None:
    plain, _ = run_coinrace(tmp_path / "plain", "--games", "200", "--bot", "random")
    sprint, _ = run_coinrace(tmp_path / "sprint", "--games", "200", "--bot", "random", "--variant", "sprint")
    assert sprint["variants"] == ["sprint"] and plain["variants"] == []
    assert sprint["turns"]["mean"] < plain["turns"]["mean"]


def test_a_variant_the_game_does_not_know_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli("smoke", str(COINRACE), "--variant", "sprint,moonwalk", "-d", str(tmp_path), extra_path=[PYLIB])
    assert proc.returncode == 2
    assert "moonwalk" in proc.stderr
    assert not (tmp_path / "smoke-report.json").exists()


def test_shortages_the_game_reports_are_counted(tmp_path: Path) -> None:
    report, out = run_coinrace(tmp_path, "--games", "200", "--bot", "greedy", "--variant", "token-supply")
    short = report["shortages"]["shortage_tokens"]
    assert 0 < short["games"] <= report["games_finished"]
    assert short["total"] >= short["games"]
    assert f"shortage_tokens: short in {short['games']} of {report['games_finished']} games" in out
    plain, _ = run_coinrace(tmp_path / "plain", "--games", "50", "--bot", "greedy")
    assert plain["shortages"] == {}


def test_coverage_lists_the_choosable_components_below_one_percent_of_seats(tmp_path: Path) -> None:
    greedy, out = run_coinrace(tmp_path / "greedy", "--games", "150", "--bot", "greedy")
    cov = greedy["coverage"]
    assert (cov["choosable"], cov["covered"], cov["share"]) == (2, 1, 0.5)
    assert [b["id"] for b in cov["below"]] == ["step-one"]  # the greedy bot always moves two
    assert "coverage: 1 of 2 choosable components (50.0%)" in out and "step-one 0.00%" in out
    mixed, _ = run_coinrace(tmp_path / "mixed", "--games", "150", "--bot", "random")
    assert mixed["coverage"]["share"] == 1.0 and mixed["coverage"]["below"] == []


def test_a_solo_game_the_rules_only_score_is_reported_by_its_scores(tmp_path: Path) -> None:
    """Kingdoms' rulebook gives a solo game no way to win or lose: its report gives the scores."""
    proc = run_cli("smoke", "kingdoms", "--players", "1..2", "--games", "8", "--fast", "-d", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:]
    report = json.loads((tmp_path / "smoke-report.json").read_text())
    solo = report["solo"]
    assert solo["games"] == 4 and solo["scored_only"] is True and "won" not in solo
    assert solo["scores"]["count"] == 4 and solo["scores"]["min"] <= solo["scores"]["max"]
    assert list(report["win_rate_by_seat"]) == ["2"]  # no one-seat "win rate"
    assert (f"solo    4 games, scored only (the rules name no win or loss for one player): "
            f"score mean {solo['scores']['mean']}") in proc.stdout
    assert "against the game: won" not in proc.stdout
    assert "scored only" in (tmp_path / "smoke-report.html").read_text()


def test_a_solo_game_with_a_way_to_lose_is_reported_as_won_or_lost() -> None:
    from toolkit.smoke.runner import GameSummary
    from toolkit.smoke.stats import _solo
    from toolkit.smoke.tally import Tally

    games = [GameSummary(index=i, seed=i, players=1, bots=["random"], checked=False, steps=10, seconds=0.0,
                         end_reason="rounds", turns=5, scores=[score], winners=[0] if score >= 10 else [])
             for i, score in enumerate([12, 4, 10, 7])]
    solo = _solo(Tally.of(games))
    assert solo is not None and solo["scored_only"] is False
    assert (solo["games"], solo["won"], solo["lost"], solo["win_rate"]) == (4, 2, 2, 0.5)
    assert (solo["scores"]["min"], solo["scores"]["max"]) == (4.0, 12.0)
    assert _solo(Tally.of(games), scored=True) == {"games": 4, "scored_only": True, "scores": solo["scores"]}


def test_a_component_is_dead_only_beside_used_ones_of_its_kind(tmp_path: Path) -> None:
    """The greedy bot never takes one step: that move is dead, since the other move of its kind is
    used. Hordes & Heroes' die, doom tokens and rules item are a kind the rules never report on, so
    they are not dead (the report used to flag them as never used)."""
    greedy, _ = run_coinrace(tmp_path / "greedy", "--games", "60", "--bot", "greedy")
    assert greedy["flags"]["dead_components"] == ["step-one"]
    proc = run_cli("smoke", "hordes-and-heroes", "--games", "12", "--fast", "-d", str(tmp_path / "hh"))
    assert proc.returncode == 0, proc.stdout[-2000:]
    report = json.loads((tmp_path / "hh" / "smoke-report.json").read_text())
    comps = report["components"]
    for quiet in ("die", "doom-token", "hordes-and-heroes-rules", "last-player-token"):
        assert quiet in comps and not any(comps[quiet]["events"].values()), quiet
        assert quiet not in report["flags"]["dead_components"], quiet
