"""Careless and hostile input to every command: a located error and exit 1 or 2, never a crash,
nothing read from outside the game, no output damaged, output paths checked before any work."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CONTENT, FIXTURES, ROOT, run_cli

HERE = Path(__file__).resolve().parent
SCENARIO = ROOT / "scenarios" / "kingdoms" / "castle-takes-two-hits.yaml"


@pytest.fixture
def printed_game(mini_game: Path) -> Path:
    """The mini game with print layouts, so that validate checks text fit and pnp can print it."""
    shutil.copyfile(HERE / "fuzz" / "layouts.yaml", mini_game / "templates" / "layouts.yaml")
    return mini_game


def errors(proc: subprocess.CompletedProcess[str]) -> list[dict]:
    return [d for d in json.loads(proc.stdout) if d["severity"] == "error"]


# --- files outside the game ------------------------------------------------------------------

def test_a_symbolic_link_out_of_the_game_is_never_read(mini_game: Path) -> None:
    (mini_game / "factions.yaml").unlink()
    (mini_game / "factions.yaml").symlink_to("/etc/passwd")
    proc = run_cli("validate", str(mini_game), "--format", "json")
    assert proc.returncode == 1
    assert "root:" not in proc.stdout
    (d,) = [d for d in errors(proc) if d["code"] == "HK017"]
    assert (Path(d["file"]).name, d["line"], d["col"]) == ("game.yaml", 9, 11)


def test_a_symbolic_link_loop_is_a_located_error(mini_game: Path) -> None:
    (mini_game / "factions.yaml").unlink()
    (mini_game / "factions.yaml").symlink_to(mini_game / "loop.yaml")
    (mini_game / "loop.yaml").symlink_to(mini_game / "factions.yaml")
    proc = run_cli("validate", str(mini_game), "--format", "json")
    assert proc.returncode == 1
    d = errors(proc)[0]
    assert d["code"] in ("HK014", "HK017") and (Path(d["file"]).name, d["line"]) == ("game.yaml", 9)


def test_a_catastrophic_pattern_in_a_games_own_schema_is_matched_in_linear_time(mini_game: Path) -> None:
    schema = json.loads((mini_game / "schemas" / "factions.schema.json").read_text())
    schema["properties"]["items"]["items"]["properties"]["name"]["pattern"] = "^(a+)+$"
    (mini_game / "schemas" / "factions.schema.json").write_text(json.dumps(schema))
    factions = mini_game / "factions.yaml"
    factions.write_text(factions.read_text().replace("name: Red Legion", "name: " + "a" * 60 + "!"))
    proc = run_cli("validate", str(mini_game), "--format", "json")
    assert proc.returncode == 1
    found = [(d["code"], Path(d["file"]).name, d["line"]) for d in errors(proc)]
    assert ("HK107", "factions.yaml", 4) in found


# --- one mistake, one message ------------------------------------------------------------------

def test_one_template_typo_is_one_error_at_the_template_with_a_count(printed_game: Path) -> None:
    layouts = printed_game / "templates" / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace('text: "{{ name }}", font: bold, size: 11, min-size: 7',
                                                   'text: "{{ nmae }}", font: bold, size: 11, min-size: 7'))
    proc = run_cli("validate", str(printed_game), "--format", "json")
    assert proc.returncode == 1
    (d,) = [d for d in errors(proc) if d["code"] == "HK403"]
    assert (Path(d["file"]).name, d["line"], d["col"]) == ("layouts.yaml", 19, 66)
    assert "'nmae' is undefined" in d["message"] and "(and 2 more like it here)" in d["message"]


def test_a_printed_game_without_text_templates_says_so_once(printed_game: Path) -> None:
    (printed_game / "templates" / "text.yaml").unlink()
    proc = run_cli("validate", str(printed_game), "--format", "json")
    assert proc.returncode == 1
    (d,) = [d for d in errors(proc) if d["code"] == "HK303"]
    assert "text.yaml not found: 2 effects" in d["message"] and (d["line"], d["col"]) == (11, 15)


def test_text_output_keeps_every_problem_on_its_own_line(mini_game: Path) -> None:
    shutil.copyfile(HERE / "bad" / "54-escape-sequence-in-value.yaml", mini_game / "units.yaml")
    proc = run_cli("validate", str(mini_game))
    assert proc.returncode == 1
    assert "\x1b" not in proc.stdout
    for line in proc.stdout.splitlines():
        assert line.startswith((str(mini_game), "    hint:", "mini")) or ": ok" in line or line.startswith("/"), line
    assert "be\\x1b[2Jast\\nline two" in proc.stdout


def test_github_annotations_name_files_from_the_repository_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    game = repo / "games" / "mini"
    shutil.copytree(FIXTURES / "mini", game)
    shutil.copyfile(HERE / "bad" / "06-misspelled-key.yaml", game / "units.yaml")
    (repo / "tools").mkdir()
    proc = run_cli("validate", "../games/mini", "--format", "github", cwd=repo / "tools")
    assert proc.returncode == 1
    assert "::error file=games/mini/units.yaml,line=17,col=5,title=HK104::" in proc.stdout


# --- output paths, checked before any work ---------------------------------------------------

@pytest.mark.parametrize("output, message", [
    ("", "give a file name"), ("-", "standard output is not supported"), ("{tmp}", "is a folder"),
    ("{tmp}/a-file/print.pdf", "is a file, not a folder"), ("/sys/print.pdf", "cannot write in /sys")])
def test_a_bad_output_path_is_a_usage_error_before_anything_is_printed(printed_game: Path, tmp_path: Path,
                                                                        output: str, message: str) -> None:
    (tmp_path / "a-file").write_text("keep me")
    proc = run_cli("pnp", str(printed_game), "-o", output.format(tmp=tmp_path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr
    assert (tmp_path / "a-file").read_text() == "keep me"


def test_smoke_checks_its_output_folder_before_playing(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("keep me")
    start = time.perf_counter()
    proc = run_cli("smoke", "kingdoms", "-n", "5000", "-o", str(tmp_path / "a-file"))
    assert proc.returncode == 2 and "is a file; give a folder" in proc.stderr
    assert time.perf_counter() - start < 60  # 5000 games were not played first


def test_smoke_reads_compare_before_playing(tmp_path: Path) -> None:
    bad = tmp_path / "old.json"
    bad.write_text("{not json")
    proc = run_cli("smoke", "kingdoms", "-n", "5000", "--compare", str(bad), "-o", str(tmp_path / "out"))
    assert proc.returncode == 2 and "--compare" in proc.stderr
    assert not (tmp_path / "out" / "smoke-report.json").exists()


def test_a_clean_smoke_run_leaves_no_failure_logs_of_earlier_runs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "logs").mkdir(parents=True)
    stale = out / "logs" / "game-00007-seed-99.json"
    stale.write_text("{}")
    proc = run_cli("smoke", str(FIXTURES / "coinrace"), "-n", "4", "--workers", "1", "-o", str(out),
                   extra_path=[FIXTURES / "pylib"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not stale.exists()
    assert json.loads((out / "smoke-report.json").read_text())["errors"] == []


def test_ctrl_c_before_any_game_finishes_keeps_the_previous_report(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "smoke-report.json").write_text('{"previous": true}')
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "toolkit", "smoke", "kingdoms", "-n", "20000", "-o", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=300)
    assert "Traceback" not in stderr
    report = json.loads((out / "smoke-report.json").read_text())
    assert report == {"previous": True} or report["games_finished"] > 0


# --- the safe write ----------------------------------------------------------------------------

def test_a_new_output_gets_the_users_umask_not_0600(printed_game: Path, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        proc = run_cli("pnp", str(printed_game), "-o", str(tmp_path / "mini.pdf"))
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert stat.S_IMODE((tmp_path / "mini.pdf").stat().st_mode) == 0o644


def test_writing_through_a_symbolic_link_keeps_the_link(printed_game: Path, tmp_path: Path) -> None:
    real = tmp_path / "shared" / "mini.pdf"
    real.parent.mkdir()
    real.write_bytes(b"old")
    real.chmod(0o640)
    link = tmp_path / "mini.pdf"
    link.symlink_to(real)
    assert run_cli("pnp", str(printed_game), "-o", str(link)).returncode == 0
    assert link.is_symlink() and real.read_bytes().startswith(b"%PDF")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_writing_to_a_device_never_replaces_it(printed_game: Path) -> None:
    assert run_cli("pnp", str(printed_game), "-o", "/dev/null").returncode == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


# --- replay ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "a log is a JSON object"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"game": "kingdoms", "players": 0, "actions": []}', "players 0, but kingdoms is for"),
    ('{"game": "kingdoms", "players": 2, "seed": "abc", "actions": []}', "'seed' must be a whole number"),
    ('{"game": "kingdoms", "players": 2, "actions": ["x"]}', "'actions' must be a list of whole numbers"),
])
def test_replay_of_something_that_is_not_a_game_log_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    log = tmp_path / "log.json"
    log.write_text(text)
    proc = run_cli("replay", str(log))
    assert proc.returncode == 2 and message in proc.stderr


def test_a_golden_log_replays_when_the_game_is_named(tmp_path: Path) -> None:
    golden = HERE / "golden" / "hh-2p-heuristic.json"
    refused = run_cli("replay", str(golden))
    assert refused.returncode == 2 and "--game" in refused.stderr
    proc = run_cli("replay", str(golden), "--game", "hordes-and-heroes")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "game over" in proc.stdout


# --- scenario -----------------------------------------------------------------------------------

def test_scenario_problems_are_reported_at_their_own_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    text = SCENARIO.read_text()
    (tmp_path / "a-too-many-players.yaml").write_text(text.replace("players: 1\n", "players: 99\n"))
    (tmp_path / "b-bad-setup.yaml").write_text(text.replace("horde: storm-giant-lord", "horde: no-such-horde"))
    (tmp_path / "c-unknown-game.yaml").write_text(text.replace("game: kingdoms", "game: kingdomz"))
    shutil.copyfile(SCENARIO, tmp_path / "d-good.yaml")
    proc = run_cli("scenario", str(tmp_path))
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert any(line.startswith("FAIL") and "a-too-many-players.yaml:6:10: players: 99" in line for line in lines)
    assert any(line.startswith("FAIL") and "b-bad-setup.yaml:14:5:" in line and "starting situation" in line
               for line in lines)  # at the horde's space under setup's hordes, where the unknown horde is
    assert any(line.startswith("FAIL") and "c-unknown-game.yaml:2:7:" in line for line in lines)
    assert any(line.startswith("PASS") and "d-good.yaml" in line for line in lines)
    assert lines[-1] == "1 passed, 3 failed"


# --- no code from the current folder --------------------------------------------------------------

def test_a_rules_module_planted_in_the_current_folder_is_never_run(mini_game: Path, tmp_path: Path) -> None:
    manifest = mini_game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("title: Mini Skirmish", "title: Mini Skirmish\nrules: plantedrules"))
    marker = tmp_path / "ran"
    (tmp_path / "plantedrules.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    proc = run_cli("validate", str(mini_game), cwd=tmp_path)
    assert proc.returncode in (0, 1)
    assert not marker.exists()
