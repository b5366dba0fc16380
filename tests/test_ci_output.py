"""What a CI pipeline reads from hordekit: GitHub annotations in workflow-command syntax, JSON on
standard output whatever the outcome, and nothing that waits for a terminal."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import edit_once, run_cli

#: A value a designer could type that breaks a naive annotation: a percent sign, a line break that
#: would start a workflow command of its own, ``::`` and ``,``, and control characters.
NASTY = "a%b,c:d\r\n::warning file=x::pwn\x07\x1b[31mred"
#: A workflow command: ``::level props::message`` on one line, with only escaped data in it.
ANNOTATION = re.compile(r"^::(error|warning|notice)( [^:]*)?::(.*)$")


def _repo_with_game(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    return tmp_path / "content" / "fungus-wars"


def _annotations(stdout: str) -> list[re.Match[str]]:
    """Every annotation line, each checked to be one well-formed workflow command."""
    found = []
    for line in stdout.splitlines():
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", line), f"raw control character in {line!r}"
        if line.startswith("::"):
            match = ANNOTATION.match(line)
            assert match, f"not a workflow command: {line!r}"
            found.append(match)
    return found


def _unescape(data: str) -> str:
    return data.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def test_a_quoted_value_with_percent_line_breaks_and_control_characters_stays_one_annotation(tmp_path: Path) -> None:
    game = _repo_with_game(tmp_path)
    key = json.dumps(NASTY)  # a YAML double-quoted key holding every awkward character
    edit_once(game / "cards.yaml", "    steps: 3\n", f"    steps: 3\n    {key}: 1\n")
    proc = run_cli("validate", "--format", "github", cwd=tmp_path)
    assert proc.returncode == 1
    found = _annotations(proc.stdout)
    assert len(found) == 1, proc.stdout
    line = found[0].group(0)
    assert line.startswith("::error file=content/fungus-wars/cards.yaml,line=17,col=5,title=HK104::")
    message = found[0].group(3)
    assert "a%25b,c:d%0D%0A::warning file=x::pwn" in message
    # the bell and the colour escape are shown, not passed to the log (nor silently dropped)
    assert "\\x07\\x1b[31mred" in _unescape(message)


def test_games_annotation_names_the_manifest_from_the_repository_root(tmp_path: Path) -> None:
    game = _repo_with_game(tmp_path)
    edit_once(game / "cards.yaml", "steps: 3", "stepz: 3")
    proc = run_cli("games", "--format", "github", "fungus-wars", cwd=tmp_path / "content")
    found = _annotations(proc.stdout)
    assert [m.group(0) for m in found] == [
        "::error file=content/fungus-wars/game.yaml,line=1,col=1,title=hordekit::fungus-wars has content errors"]


def test_a_failed_smoke_game_s_message_is_escaped_in_its_annotation(tmp_path: Path) -> None:
    game = _repo_with_game(tmp_path)
    edit_once(game / "rules.py", "    def _play(self, card_id: str) -> None:\n",
              "    def _play(self, card_id: str) -> None:\n"
              f"        raise RuntimeError({NASTY!r})\n")
    proc = run_cli("smoke", "-n", "3", "--workers", "1", "--format", "github", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    found = _annotations(proc.stdout)
    assert len(found) == 3, proc.stdout
    for match in found:
        assert match.group(2).startswith(" title=smoke game ")
        assert "%25b,c:d%0D%0A::warning" in match.group(3)
        assert "hordekit replay" in match.group(3)


def test_a_scenario_name_with_a_line_break_starts_no_workflow_command(tmp_path: Path) -> None:
    game = _repo_with_game(tmp_path)
    scenario = game / "scenarios" / "first-turn.yaml"
    edit_once(scenario, "name: A leap moves three steps", f"name: {json.dumps(NASTY)}")
    proc = run_cli("scenario", "--format", "github", str(scenario.relative_to(tmp_path)), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _annotations(proc.stdout) == []
    assert "PASS content/fungus-wars/scenarios/first-turn.yaml: a%b,c:d\\r\\n::warning" in proc.stdout


def _broken(tmp_path: Path) -> Path:
    game = _repo_with_game(tmp_path)
    edit_once(game / "cards.yaml", "steps: 3", "stepz: 3")
    return game


EXPECTED_ERROR = {"severity": "error", "code": "HK104", "file": "content/fungus-wars/cards.yaml", "line": 16, "col": 5}


@pytest.mark.parametrize("command", [["pnp"], ["smoke", "-n", "2"]])
def test_content_errors_come_as_json_on_standard_output_with_format_json(tmp_path: Path, command: list[str]) -> None:
    _broken(tmp_path)
    proc = run_cli(*command, "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1
    problems = json.loads(proc.stdout)  # the list `hordekit validate --format json` prints
    assert [{k: p[k] for k in EXPECTED_ERROR} for p in problems] == [EXPECTED_ERROR]
    assert list(problems[0]) == ["severity", "code", "message", "file", "line", "col", "hint"]


@pytest.mark.parametrize("command", [["pnp"], ["smoke", "-n", "2"]])
def test_content_errors_come_as_annotations_with_format_github(tmp_path: Path, command: list[str]) -> None:
    _broken(tmp_path)
    proc = run_cli(*command, "--format", "github", cwd=tmp_path)
    assert proc.returncode == 1
    found = _annotations(proc.stdout)
    assert [m.group(0).split("::")[1] for m in found] == [
        "error file=content/fungus-wars/cards.yaml,line=16,col=5,title=HK104"]


def test_pnp_format_json_prints_json_when_there_is_no_problem(tmp_path: Path) -> None:
    _repo_with_game(tmp_path)
    for extra in ([], ["--calibration"]):
        proc = run_cli("pnp", "--format", "json", *extra, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == [], extra
        assert "print-and-play.pdf" in proc.stderr or "calibration.pdf" in proc.stderr


#: Every command with --format, as a CI step would run it on a game that is fine.
JSON_COMMANDS = [["validate"], ["games"], ["build", "-n", "3"], ["smoke", "-n", "3"],
                 ["scenario", "content/fungus-wars/scenarios"], ["pnp"],
                 ["import", "csv", "new.csv", "--kind", "card", "-o", "imported.yaml"]]


@pytest.mark.parametrize("verbosity", ["-v", "-q"])
def test_every_result_command_prints_json_alone_on_standard_output(tmp_path: Path, verbosity: str) -> None:
    _repo_with_game(tmp_path)
    (tmp_path / "new.csv").write_text("id,name,quantity,steps\nhop,Hop,2,1\n")
    for command in JSON_COMMANDS:
        proc = run_cli(verbosity, *command, "--format", "json", cwd=tmp_path)
        assert proc.returncode == 0, f"{command}: {proc.stderr}"
        try:
            json.loads(proc.stdout)
        except ValueError:
            pytest.fail(f"{' '.join(command)} --format json: not JSON on standard output: {proc.stdout!r}")
        assert "\x1b" not in proc.stdout + proc.stderr
    assert (tmp_path / "imported.yaml").is_file()


def test_a_thousand_smoke_games_in_ci_print_a_bounded_log(tmp_path: Path) -> None:
    import os
    import sys

    from conftest import ROOT

    _repo_with_game(tmp_path)
    # as a CI runner starts it: CI set, a colour-capable TERM, no NO_COLOR, no terminal, no input
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(CI="true", GITHUB_ACTIONS="true", TERM="xterm-256color", PYTHONPATH=str(ROOT))
    for command in (["smoke", "-n", "1000"], ["build", "-n", "1000"]):
        proc = subprocess.run([sys.executable, "-m", "toolkit", *command, "--format", "github"], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr
        log = proc.stdout + proc.stderr
        assert len(log.splitlines()) < 40, log
        assert "\r" not in log and "\x1b" not in log
