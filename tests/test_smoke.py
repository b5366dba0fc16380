"""Smoke games at scale: same games whatever the workers or backend, reports, logs, replay."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, run_cli

PYLIB = FIXTURES / "pylib"
COINRACE = FIXTURES / "coinrace"


def run_with_pylib(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI with the Coin Race rules module importable."""
    return run_cli(*args, extra_path=[PYLIB])


@pytest.fixture(scope="module")
def coinrace_data() -> dict:
    from toolkit.games import load_game

    sys.path.insert(0, str(PYLIB))
    loaded = load_game(COINRACE)
    assert loaded.ok, loaded.diagnostics
    return loaded.data


def _plan(**kw):  # noqa: ANN202
    from toolkit.smoke.runner import RunPlan

    base = dict(game="coinrace", rules="coinrace_rules", games=120, players=(2, 3, 4), seed=11,
                bots=("random",), check="sample")
    base.update(kw)
    return RunPlan(**base)


def _report(tally) -> dict:  # noqa: ANN001
    """The report of a tally, with everything that says how the run went (time, workers) fixed."""
    from toolkit.smoke.stats import build_report

    return build_report(tally, game="coinrace", title="Coin Race", fingerprint="-",
                        plan={"players": (2, 3, 4), "seed": 11, "bots": ["random"], "check": "sample", "games": 120},
                        seconds=1.0, workers=1, backend="process", interrupted=False,
                        components={"step-one": "move", "step-two": "move"})


def _comparable(outcome) -> dict:  # noqa: ANN001
    return _report(outcome.tally)


def test_results_do_not_depend_on_worker_count(coinrace_data: dict) -> None:
    from toolkit.smoke.runner import run

    one = run(_plan(), coinrace_data, workers=1)
    two = run(_plan(), coinrace_data, workers=2)
    assert one.tally.played == 120
    assert _comparable(one) == _comparable(two)
    assert one.tally.failed and one.tally.finished


def test_dask_backend_returns_exactly_what_the_pool_returns(coinrace_data: dict) -> None:
    distributed = pytest.importorskip("distributed")
    from toolkit.smoke.runner import PROFILER_NOTE, default_workers, run

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        client = distributed.Client(cluster)
        client.run(lambda: sys.path.insert(0, str(PYLIB)))
        client.close()
        # more workers than this machine's cores allow a local run: a cluster's are its own
        asked = 4 * default_workers() + 8
        dask = run(_plan(), coinrace_data, workers=asked, backend="dask", scheduler=cluster.scheduler_address)
    finally:
        cluster.close()
    pool = run(_plan(), coinrace_data, workers=2)
    assert _comparable(dask) == _comparable(pool)
    assert dask.backend == "dask"
    # a default cluster profiles tasks: the designer is told; nothing about a cap on workers
    assert dask.notes == [PROFILER_NOTE]


def test_seats_can_mix_bots_and_the_search_bot_plays_alike_on_one_worker_two_and_dask(coinrace_data: dict) -> None:
    """--bot search:8,greedy: the line-up rotates across seats, and every backend plays the same."""
    distributed = pytest.importorskip("distributed")
    from toolkit.smoke.runner import game_setup, run

    plan = _plan(games=40, players=(2, 3), bots=("search:8", "greedy"))
    assert {tuple(game_setup(plan, i)[2]) for i in range(8)} == {
        ("search:8", "greedy"), ("greedy", "search:8"), ("search:8", "greedy", "search:8"),
        ("greedy", "search:8", "search:8"), ("search:8", "search:8", "greedy")}
    one = run(plan, coinrace_data, workers=1)
    two = run(plan, coinrace_data, workers=2)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        with distributed.Client(cluster) as client:
            client.run(lambda: sys.path.insert(0, str(PYLIB)))
        dask = run(plan, coinrace_data, workers=2, backend="dask", scheduler=cluster.scheduler_address)
    finally:
        cluster.close()
    assert one.tally.played == 40
    assert _comparable(one) == _comparable(two) == _comparable(dask)


def test_a_dask_worker_builds_the_model_once_and_keeps_nothing_of_a_run(coinrace_data: dict) -> None:
    """Workers set up as docs/smoke.md recommends (task profiler off, so no note): from run to run
    on one cluster nothing stays behind on a worker but the model, built once for the content."""
    distributed = pytest.importorskip("distributed")
    import dask

    from toolkit.smoke.runner import run

    def kept() -> tuple:
        import gc

        from toolkit.smoke import runner

        gc.collect()
        return id(runner._WORKER.get("model")), len(gc.get_objects())

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        with distributed.Client(cluster) as client:
            client.run(lambda: sys.path.insert(0, str(PYLIB)))
            seen = []
            for _ in range(4):
                outcome = run(_plan(games=300), coinrace_data, workers=1, backend="dask",
                              scheduler=cluster.scheduler_address)
                assert outcome.notes == []
                seen.append(next(iter(client.run(kept).values())))
    finally:
        cluster.close()
    assert len({model for model, _ in seen}) == 1  # built once, kept for the same content
    objects = [n for _, n in seen]
    assert objects[-1] - objects[1] < 2000, objects  # not a summary, a tally or a profile per game


def test_seats_rotate_for_mixed_lineups() -> None:
    from toolkit.smoke.runner import game_setup

    plan = _plan(players=(2,), bots=("greedy", "random"))
    lineups = [game_setup(plan, i)[2] for i in range(4)]
    assert lineups == [["greedy", "random"], ["random", "greedy"], ["greedy", "random"], ["random", "greedy"]]


def test_seeds_derive_from_run_seed_and_index() -> None:
    from toolkit.smoke.runner import game_setup

    a = [game_setup(_plan(seed=5), i)[1] for i in range(5)]
    b = [game_setup(_plan(seed=5, games=999), i)[1] for i in range(5)]
    c = [game_setup(_plan(seed=6), i)[1] for i in range(5)]
    assert a == b and a != c and len(set(a)) == 5


def test_checked_mode_runs_on_a_sample_or_on_every_game() -> None:
    from toolkit.smoke.runner import SAMPLE_EVERY, game_setup

    sample = [game_setup(_plan(), i)[3] for i in range(100)]
    assert sum(sample) == 100 // SAMPLE_EVERY
    assert all(game_setup(_plan(check="all"), i)[3] for i in range(10))
    assert not any(game_setup(_plan(check="none"), i)[3] for i in range(100))


def test_failed_games_are_logged_with_a_command_that_reproduces_them(tmp_path: Path) -> None:
    proc = run_with_pylib("smoke", str(COINRACE), "--games", "200", "--bot", "random", "--seed", "3",
                          "-d", str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    report = json.loads((tmp_path / "smoke-report.json").read_text())
    assert report["errors"], "coin race fails on some seeds by design"
    err = report["errors"][0]
    assert {"seed", "log", "command", "message", "index", "players"} <= set(err)
    assert "deliberate failure" in err["message"]
    assert err["command"] == f"hordekit replay {err['log']}"
    log = json.loads(Path(err["log"]).read_text())
    assert log["format"] == "hordekit-log/1" and log["seed"] == err["seed"] and log["actions"]
    again = run_with_pylib("replay", err["log"])
    assert again.returncode == 1
    assert "fails again" in again.stdout and "deliberate failure" in again.stdout


def test_report_json_csv_and_html(tmp_path: Path) -> None:
    proc = run_with_pylib("smoke", str(COINRACE), "--games", "150", "--bot", "greedy,random", "-d", str(tmp_path),
                          "--json")
    report = json.loads(proc.stdout)
    for key in ("game", "players", "seed", "games_requested", "games_finished", "stalemates", "errors",
                "win_rate_by_seat", "components", "end_reasons", "turns", "scores", "flags", "never"):
        assert key in report, key
    assert report["games_requested"] == 150
    assert report["games_finished"] + len(report["errors"]) == 150
    seat = report["win_rate_by_seat"]["2"][0]
    assert seat["ci_low"] <= seat["rate"] <= seat["ci_high"]
    assert report["components"]["step-two"]["events"]["played"] > 0
    for name in ("seats", "components", "end-reasons", "errors"):
        assert (tmp_path / f"smoke-{name}.csv").read_text().count("\n") >= 1
    html = (tmp_path / "smoke-report.html").read_text()
    assert "<svg" in html and "Win rate by seat" in html
    assert "<script" not in html and "src=" not in html and "href=" not in html  # offline, self-contained


def test_compare_marks_shifts_larger_than_chance(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    run_with_pylib("smoke", str(COINRACE), "--games", "400", "--players", "2", "--bot", "random", "-d", str(old))
    proc = run_with_pylib("smoke", str(COINRACE), "--games", "400", "--players", "2", "--bot", "greedy,random",
                          "-d", str(new), "--compare", str(old / "smoke-report.json"))
    report = json.loads((new / "smoke-report.json").read_text())
    moved = report["compared_with"]
    assert any(r["significant"] for r in moved["seats"]) or any(r["significant"] for r in moved["components"])
    assert "significant shifts" in proc.stdout
    same = run_with_pylib("smoke", str(COINRACE), "--games", "400", "--players", "2", "--bot", "random",
                          "-d", str(tmp_path / "again"), "--compare", str(old / "smoke-report.json"))
    assert "no shift larger than chance" in same.stdout


def test_ctrl_c_stops_cleanly_and_reports_what_finished(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(PYLIB)]))
    proc = subprocess.Popen([sys.executable, "-m", "toolkit", "smoke", str(COINRACE), "--games", "5000000",
                             "--fast", "-d", str(tmp_path)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    report = json.loads((tmp_path / "smoke-report.json").read_text())
    assert report["interrupted"] is True
    assert 0 < report["games_played"] < 5_000_000
    assert "(interrupted)" in out


def test_bad_arguments_are_usage_errors() -> None:
    assert run_cli("smoke", "no-such-game").returncode == 2
    assert run_cli("smoke", "hordes-and-heroes", "--players", "1..9").returncode == 2
    assert run_cli("smoke", "hordes-and-heroes", "--bot", "genius").returncode == 2
    bad_budget = run_cli("smoke", "hordes-and-heroes", "--bot", "search:lots,heuristic")
    assert bad_budget.returncode == 2 and "search:lots" in bad_budget.stderr


def test_hordes_and_heroes_smoke_run(tmp_path: Path) -> None:
    proc = run_cli("smoke", "hordes-and-heroes", "--games", "24", "--players", "2..5", "--seed", "4",
                   "-d", str(tmp_path), "--json")
    assert proc.returncode == 0, proc.stdout[-2000:]
    report = json.loads(proc.stdout)
    assert report["game"] == "hordes-and-heroes" and report["games_finished"] == 24
    assert set(report["win_rate_by_seat"]) == {"2", "3", "4", "5"}
    assert report["never"].get("recruited") is not None
    # by default every game checks its invariants after every step; 1 in 20 also clone and replay
    assert report["games_invariants_checked"] == 24 and report["games_checked"] == 2


def test_a_fast_run_checks_nothing(tmp_path: Path) -> None:
    proc = run_cli("smoke", "kingdoms", "--games", "3", "--fast", "-d", str(tmp_path), "--json")
    assert proc.returncode == 0, proc.stdout[-2000:]
    report = json.loads(proc.stdout)
    assert report["games_invariants_checked"] == 0 and report["games_checked"] == 0


def test_a_default_run_catches_a_broken_invariant_in_any_game(coinrace_data: dict) -> None:
    """Invariants are checked in every game, not only in the sampled ones: a rule that breaks one
    in game 1 (not a clone-and-replay game) fails that game."""
    from toolkit.smoke.runner import SAMPLE_EVERY, game_setup, play_one
    from toolkit.rules import load_rules

    spec = load_rules("coinrace_rules")
    model = spec.build_model(coinrace_data)
    assert not game_setup(_plan(), 1)[3] and 1 % SAMPLE_EVERY
    clean = play_one(_plan(), spec, model, 1)
    broken = play_one(_plan(options={"variants": ["negative-start"]}), spec, model, 1)
    assert clean.error is None and clean.invariants and broken.invariants
    assert broken.error is not None and "invariant broken" in broken.error, broken.error


def test_hordes_and_heroes_games_do_not_depend_on_worker_history() -> None:
    """Bots may cache, but never across games: worker 2 plays game 31 as worker 1 does."""
    from toolkit.games import load_game
    from toolkit.smoke.runner import RunPlan, run

    loaded = load_game(ROOT / "content" / "hordes-and-heroes")
    plan = RunPlan(game="hordes-and-heroes", rules="hordes_and_heroes", games=60, players=(2, 4), seed=5,
                   bots=("heuristic",), check="none")
    one = run(plan, loaded.data, workers=1)
    two = run(plan, loaded.data, workers=2)
    assert one.tally.finished == 60
    assert _comparable(one) == _comparable(two)


def test_the_best_and_worst_of_a_kind_are_ranked_by_how_sure_their_lift_is(tmp_path: Path) -> None:
    """The summary line per kind lists components by the z score of their lift: an ability one
    lucky seat took does not head the list, nor one nearly every seat took (nothing to compare)."""
    proc = run_cli("smoke", "kingdoms", "--games", "40", "--workers", "1", "-d", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    comps = json.loads((tmp_path / "smoke-report.json").read_text())["components"]
    line = next(l for l in proc.stdout.splitlines() if l.startswith("  ability: win rate when used"))
    assert "best and worst by how sure the lift is" in line
    shown = [cell.strip().split(" ")[0] for cell in line.split("lift is: ", 1)[1].split("),")]
    ranked = sorted((cid for cid, c in comps.items() if c["kind"] == "ability" and c["lift"] is not None),
                    key=lambda cid: (-comps[cid]["z"], -comps[cid]["lift"], cid))
    assert len(ranked) > 8 and shown == ranked[:4] + ranked[-4:]
    by_lift = sorted(ranked, key=lambda cid: -comps[cid]["lift"])
    assert shown != by_lift[:4] + by_lift[-4:], "this run must tell the two orders apart"


def test_kingdoms_advanced_tiles_are_reported_settled_and_used_with_their_lift(tmp_path: Path) -> None:
    """With the advanced-tiles variant each tile reports how often seats settled on it (their
    choice: pick rate and lift) and how often its own rule worked for them, like abilities."""
    proc = run_cli("smoke", "kingdoms", "--games", "24", "--workers", "1", "--variant", "advanced-tiles",
                   "-d", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    report = json.loads((tmp_path / "smoke-report.json").read_text())
    tiles = {cid: c for cid, c in report["components"].items() if c["kind"] == "advanced-tile"}
    assert len(tiles) == 10
    for cid, c in tiles.items():
        assert set(c["events"]) == {"settled", "used"}, cid
        assert c["seat_games_used"] <= report["seat_games"]
    assert tiles["chasm"]["events"] == {"settled": 0, "used": 0}          # nothing can stand there
    assert tiles["barrens"]["events"]["used"] == 0 < tiles["barrens"]["events"]["settled"]   # yields nothing
    for cid in ("friendly-village", "ancient-ruins", "trade-route", "heath"):
        assert tiles[cid]["events"]["settled"] > 0 and tiles[cid]["events"]["used"] > 0, cid
        assert tiles[cid]["pick_rate"] > 0 and tiles[cid]["lift"] is not None, cid
    assert any(line.startswith("  advanced-tile: win rate when used") for line in proc.stdout.splitlines())
    rows = (tmp_path / "smoke-components.csv").read_text().splitlines()
    assert any(row.startswith("friendly-village,advanced-tile,") for row in rows), rows[:3]


def _smoke_advanced_tiles(game: str, out: Path) -> tuple[dict, list[str]]:
    proc = run_cli("smoke", game, "--variant", "advanced-tiles", "--games", "24", "--seed", "1", "--workers", "1",
                   "-d", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    return json.loads((out / "smoke-report.json").read_text()), proc.stdout.splitlines()


def test_a_tile_the_rules_never_let_anyone_settle_is_left_out_of_coverage_and_flags(tmp_path: Path) -> None:
    """Chasm forbids building on its space, so no seat can ever settle on it (the only choice a
    tile offers): the report lists it apart as never choosable, not as a tile under 1% of seats,
    nor as dead, nor as never settled; the other nine tiles are the advanced tiles' coverage."""
    report, lines = _smoke_advanced_tiles("kingdoms", tmp_path)
    cov = report["coverage"]
    assert cov["never_choosable"] == ["chasm"]
    assert cov["by_kind"]["advanced-tile"] == {"choosable": 9, "covered": 9, "never_choosable": 1}
    assert "chasm" not in {b["id"] for b in cov["below"]}
    assert cov["choosable"] == sum(k["choosable"] for k in cov["by_kind"].values())
    assert "chasm" not in report["flags"]["dead_components"] and "chasm" not in report["flags"]["dominant_components"]
    assert "chasm" not in report["never"]["settled"] and "chasm" not in report["never"]["used"]
    assert "barrens" in report["never"]["used"]          # a tile that can be chosen still shows as never used
    assert report["components"]["chasm"]["never_choosable"] is True
    assert [cid for cid, c in report["components"].items() if c["never_choosable"]] == ["chasm"]
    assert "    never choosable under the rules, left out (1): chasm" in lines
    below = next(line for line in lines if line.startswith("    below 1%"))
    assert "chasm" not in below
    never_lines = [line for line in lines if line.startswith("  never ")]
    assert never_lines and not any("chasm" in line for line in never_lines)
    rows = (tmp_path / "smoke-components.csv").read_text().splitlines()
    assert rows[0].endswith(",never_choosable")
    assert next(row for row in rows if row.startswith("chasm,")).endswith(",True")
    html = (tmp_path / "smoke-report.html").read_text()
    assert "Never choosable under the rules</b> (left out): chasm" in html


def test_what_is_never_choosable_comes_from_the_content_rules(tmp_path: Path) -> None:
    """The same tile rule on another tile makes it unchoosable too: a copy of Kingdoms where
    Barrens also forbid building lists both apart."""
    import shutil

    game = tmp_path / "kingdoms"
    shutil.copytree(ROOT / "content" / "kingdoms", game)
    tiles = game / "advanced-tiles.yaml"
    text = tiles.read_text()
    old = "  - id: barrens\n    name: Barrens\n    quantity: 5\n    produces: {}\n    effects: []\n"
    assert old in text
    tiles.write_text(text.replace(old, old.replace(
        "effects: []", "effects:\n      - {kind: restrict, target: this-space, forbids: [build], who: everyone, "
                       "duration: permanent}")))
    report, lines = _smoke_advanced_tiles(str(game), tmp_path / "out")
    assert report["coverage"]["never_choosable"] == ["barrens", "chasm"]
    assert report["components"]["barrens"]["events"]["settled"] == 0
    assert "    never choosable under the rules, left out (2): barrens, chasm" in lines


def _smoke_hh(game: str, out: Path) -> tuple[dict, list[str]]:
    proc = run_cli("smoke", game, "--games", "40", "--seed", "1", "--workers", "1", "-d", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    return json.loads((out / "smoke-report.json").read_text()), proc.stdout.splitlines()


def _monster_strengths(game: Path) -> dict[str, int]:
    import yaml

    return {m["id"]: int(m["strength"]) for m in yaml.safe_load((game / "monsters.yaml").read_text())["items"]}


def test_monsters_no_capture_can_reach_are_left_out_of_never_captured(tmp_path: Path) -> None:
    """Every capture of Hordes & Heroes stops at strength 6 at most, so a stronger monster (each
    boss among them) can never be captured: listing it as never captured would read as a balance
    finding. The report leaves those out of the list and says how many and why."""
    report, lines = _smoke_hh("hordes-and-heroes", tmp_path)
    strength = _monster_strengths(ROOT / "content" / "hordes-and-heroes")
    out_of_reach = sorted(cid for cid, s in strength.items() if s > 6)
    assert {"ashen-dragon", "demon-warlord", "ice-giant"} <= set(out_of_reach)
    apart = report["never_impossible"]["captured"]
    assert apart["ids"] == out_of_reach
    assert "6" in apart["why"]
    assert not set(out_of_reach) & set(report["never"]["captured"])
    # the list still names capturable monsters nobody captured, and only those
    assert report["never"]["captured"] == sorted(
        cid for cid, s in strength.items() if s <= 6 and not report["components"][cid]["events"].get("captured"))
    assert (f"    impossible under the rules, left out of never captured ({len(out_of_reach)}): {apart['why']}"
            in lines)
    never_line = next((line for line in lines if line.startswith("  never captured")), "")
    assert not any(cid in never_line for cid in out_of_reach)
    html = (tmp_path / "smoke-report.html").read_text()
    assert f"Impossible under the rules, left out of never captured ({len(out_of_reach)}, {apart['why']})" in html


def test_what_no_capture_can_reach_comes_from_the_content(tmp_path: Path) -> None:
    """A copy where the Archmage captures up to strength 8 leaves out only the monsters stronger
    than 8: the reach is read from the capture effects, not from a list of monsters."""
    import shutil

    game = tmp_path / "hordes-and-heroes"
    shutil.copytree(ROOT / "content" / "hordes-and-heroes", game)
    heroes = game / "heroes.yaml"
    text = heroes.read_text()
    old = "effects: [{kind: capture, max_strength: 6}]"
    assert text.count(old) == 1
    heroes.write_text(text.replace(old, "effects: [{kind: capture, max_strength: 8}]"))
    report, lines = _smoke_hh(str(game), tmp_path / "out")
    strength = _monster_strengths(game)
    assert any(s in (7, 8) for s in strength.values())
    apart = report["never_impossible"]["captured"]
    assert apart["ids"] == sorted(cid for cid, s in strength.items() if s > 8)
    assert "8" in apart["why"]
    assert report["never"]["captured"] == sorted(
        cid for cid, s in strength.items() if s <= 8 and not report["components"][cid]["events"].get("captured"))


def test_kinds_no_seat_chooses_stay_out_of_coverage(tmp_path: Path) -> None:
    """Kingdoms' horde counters are spawned by the game; a seat fighting one reports "used", a
    choice event for abilities, but no seat ever chooses a horde counter into play: coverage is
    over abilities and kingdoms only, and says which kind it left out."""
    proc = run_cli("smoke", "kingdoms", "--games", "12", "--seed", "1", "--workers", "1", "-d", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    report = json.loads((tmp_path / "smoke-report.json").read_text())
    counters = [cid for cid, c in report["components"].items() if c["kind"] == "horde-counter"]
    assert counters and any(report["components"][cid]["events"].get("used") for cid in counters)
    cov = report["coverage"]
    assert "horde-counter" not in cov["by_kind"] and set(cov["by_kind"]) == {"ability", "kingdom"}
    assert cov["unchosen_kinds"] == ["horde-counter"]
    assert cov["choosable"] == sum(1 for c in report["components"].values() if c["kind"] in ("ability", "kingdom"))
    assert not {b["id"] for b in cov["below"]} & set(counters)
    lines = proc.stdout.splitlines()
    coverage = next(line for line in lines if line.startswith("  coverage:"))
    assert "horde-counter" not in coverage
    assert "    kinds no seat chooses (the game brings them in), left out: horde-counter" in lines
    html = (tmp_path / "smoke-report.html").read_text()
    assert "Kinds no seat chooses</b> (the game brings them in; left out): horde-counter" in html
