"""Options a careless (or hostile) user types: absurd numbers, empty lists, NaN, a worker count
that would fork the machine to death, Ctrl-C in the middle of a build. Each is a one-line usage
error (exit 2) before any work, or a run that ends as asked; never an internal error."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, run_cli


@pytest.fixture
def new_game(tmp_path: Path) -> Path:
    proc = run_cli("new", str(tmp_path / "cards"))
    assert proc.returncode == 0, proc.stderr
    return tmp_path / "cards"


def refused(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    return line


@pytest.mark.parametrize("command", ["smoke", "build"])
def test_a_huge_player_range_is_refused_by_its_ends_not_built(new_game: Path, tmp_path: Path, command: str) -> None:
    start = time.monotonic()
    line = refused(run_cli(command, str(new_game), "-n", "2", "--players", "2..99999999999",
                           "-d", str(tmp_path / "out")))
    assert "players (got 2..99999999999)" in line
    assert time.monotonic() - start < 30
    assert not (tmp_path / "out").exists()


def test_a_reversed_player_range_is_refused(new_game: Path, tmp_path: Path) -> None:
    line = refused(run_cli("smoke", str(new_game), "-n", "2", "--players", "3..2", "-d", str(tmp_path / "out")))
    assert line == "error: this game is for 2 to 4 players (got 3..2)"


@pytest.mark.parametrize("bot", [",", " ", ", ,"])
def test_a_bot_list_with_no_name_is_refused(new_game: Path, tmp_path: Path, bot: str) -> None:
    line = refused(run_cli("smoke", str(new_game), "-n", "2", "--bot", bot, "-d", str(tmp_path / "out")))
    assert line.startswith("error: --bot names no bot") and "heuristic, random" in line


def test_spaces_around_bot_names_are_allowed(new_game: Path, tmp_path: Path) -> None:
    proc = run_cli("smoke", str(new_game), "-n", "2", "--bot", "random, heuristic", "-d", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "out" / "smoke-report.json").read_text())["bots"] == ["random", "heuristic"]


@pytest.mark.parametrize("offset", ["nan,0", "0,nan", "inf,0", "-inf,-inf"])
def test_a_back_offset_that_is_no_number_is_refused_and_the_pdf_kept(new_game: Path, tmp_path: Path,
                                                                      offset: str) -> None:
    out = tmp_path / "p.pdf"
    out.write_bytes(b"%PDF-1.4 earlier\n")
    line = refused(run_cli("pnp", str(new_game), "--back-offset", offset, "-o", str(out)))
    assert line.startswith("error: --back-offset takes two numbers")
    assert out.read_bytes() == b"%PDF-1.4 earlier\n"


@pytest.mark.parametrize("only", [",", "", " , "])
def test_only_with_no_id_is_refused_not_an_empty_pdf(new_game: Path, tmp_path: Path, only: str) -> None:
    out = tmp_path / "p.pdf"
    line = refused(run_cli("pnp", str(new_game), "--only", only, "-o", str(out)))
    assert line.startswith("error: --only names no component") and "leap, stride" in line
    assert not out.exists()


def test_more_workers_than_the_machine_can_use_are_lowered_with_a_note(new_game: Path, tmp_path: Path) -> None:
    """A mistyped --workers 100000 once forked that many processes; a run never starts more than
    4 per core (nor more than it has games). Asking for one more than that limit shows it."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    asked = 4 * cores + 1
    proc = run_cli("smoke", str(new_game), "-n", str(asked + 5), "--workers", str(asked), "--fast",
                   "-d", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert f"note: --workers {asked} is more than 4 per core on this machine's {cores}: playing with {4 * cores}" \
        in proc.stderr
    assert json.loads((tmp_path / "out" / "smoke-report.json").read_text())["workers"] == 4 * cores


def test_a_run_never_starts_more_workers_than_it_has_games(new_game: Path, tmp_path: Path) -> None:
    proc = run_cli("smoke", str(new_game), "-n", "1", "--workers", "2", "-d", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert "note:" not in proc.stderr
    assert json.loads((tmp_path / "out" / "smoke-report.json").read_text())["workers"] == 1


def test_ctrl_c_during_the_smoke_games_of_a_build_stops_the_build(new_game: Path, tmp_path: Path) -> None:
    """The smoke stage keeps the games it finished, but the build stops there: exit 130, no PDF
    written after it as if all were well."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "toolkit", "build", str(new_game), "-n", "5000000",
                             "-d", str(tmp_path / "out")], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    report = tmp_path / "out" / "cards" / "smoke-report.json"
    time.sleep(3.0)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=300)
    assert "Traceback" not in stderr
    assert proc.returncode == 130, stdout + stderr
    assert "[cards] smoke: interrupted after" in stdout
    assert "print-and-play" not in stdout
    assert not (tmp_path / "out" / "cards" / "print-and-play.pdf").exists()
    assert not report.exists() or json.loads(report.read_text())["interrupted"]


@pytest.mark.parametrize("args, option, example", [
    (["smoke", "{game}", "-q"], "-q", "hordekit -q smoke ..."),
    (["validate", "{game}", "--verbose"], "--verbose", "hordekit --verbose validate ..."),
    (["export", "png", "{game}", "-v"], "-v", "hordekit -v export ..."),
    (["pnp", "--version"], "--version", "hordekit --version"),
])
def test_a_global_option_after_the_command_says_where_it_goes(new_game: Path, args: list[str], option: str,
                                                              example: str) -> None:
    line = refused(run_cli(*[a.format(game=new_game) for a in args]))
    command = args[0]
    assert line == (f"error: {option} is an option of hordekit itself, not of '{command}': put it before the "
                    f"command, as in: {example}")


def test_a_global_option_before_the_command_still_works(new_game: Path) -> None:
    proc = run_cli("-q", "validate", str(new_game))
    assert proc.returncode == 0 and proc.stdout.strip() == ""
