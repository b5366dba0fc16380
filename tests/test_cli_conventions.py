"""The command line follows the conventions designers know from other tools (issue 14)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

COMMANDS = ["validate", "games", "schema", "build", "new", "watch", "smoke", "replay", "scenario", "pnp",
            "preview", "import csv"]
#: Commands that print results a script or CI may want to read.
RESULT_COMMANDS = ["validate", "games", "build", "smoke", "scenario", "pnp", "import csv"]


def _help(command: str) -> str:
    proc = run_cli(*command.split(), "--help")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_version_prints_the_package_version() -> None:
    from toolkit import __version__

    proc = run_cli("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"hordekit {__version__}"


def test_shell_completion_can_be_installed() -> None:
    assert "--install-completion" in _help("")


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_python_types(command: str) -> None:
    text = _help(command)
    for python_type in ("<list[", "<str>", "<int", "<float", "<path>", "<bool>"):
        assert python_type not in text, f"`hordekit {command} --help` shows {python_type!r}:\n{text}"
    assert not re.search(r"\{[a-z_]+\}", text), f"`hordekit {command} --help` shows a {{name}} argument:\n{text}"


@pytest.mark.parametrize("command", RESULT_COMMANDS)
def test_every_command_that_prints_results_takes_format_json_text_github(command: str) -> None:
    text = _help(command)
    assert re.search(r"--format\s+text\|json\|github", text), text


@pytest.mark.parametrize("command", COMMANDS)
def test_dash_o_is_always_a_file_and_folders_are_spelled_out_dir(command: str) -> None:
    text = _help(command)
    for line in text.splitlines():
        if re.search(r"(^|\s)-o, --output", line):
            assert "--output FILE" in line, f"{command}: {line}"
        if "--out-dir" in line:
            assert "-d, --out-dir FOLDER" in line, f"{command}: {line}"


def test_build_takes_the_options_of_its_stages() -> None:
    text = _help("build")
    for option in ("--strict", "--players", "--workers", "--paper", "--bleed", "--format", "--out-dir", "--skip"):
        assert option in text, option


def test_a_wrong_choice_is_refused_before_any_work(tmp_path: Path) -> None:
    for args in (["--paper", "a5"], ["--players", "two"], ["--bleed", "40"], ["--format", "xml"]):
        proc = run_cli("build", "--shipped", "-d", str(tmp_path / "out"), *args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert not (tmp_path / "out").exists(), args


def test_build_refuses_player_counts_a_game_does_not_support_before_playing(tmp_path: Path) -> None:
    proc = run_cli("build", "--shipped", "--players", "9", "-d", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "players" in proc.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["validate", "games", "build"])
def test_without_a_path_commands_look_only_here_and_say_when_there_is_no_game(command: str, tmp_path: Path) -> None:
    proc = run_cli(command, cwd=tmp_path)
    assert proc.returncode == 2
    assert "no game here" in proc.stderr and "--shipped" in proc.stderr
    assert "hordes-and-heroes" not in proc.stdout + proc.stderr


def test_without_a_path_the_game_in_the_current_folder_is_used(mini_game: Path) -> None:
    proc = run_cli("validate", cwd=mini_game)
    assert proc.stdout.strip().splitlines()[-1].startswith("mini (this folder):"), proc.stdout


def test_shipped_names_the_games_that_come_with_hordekit(tmp_path: Path) -> None:
    proc = run_cli("games", "--shipped", "--format", "json", cwd=tmp_path, check_json=True)
    ids = {row["id"] for row in __import__("json").loads(proc.stdout)}
    shipped = {d.name for d in (ROOT / "content").iterdir() if (d / "game.yaml").is_file()}
    assert ids == shipped


def test_a_shipped_game_can_still_be_named_by_its_id_from_anywhere(tmp_path: Path) -> None:
    proc = run_cli("games", "--format", "json", str(ROOT / "content" / "kingdoms"), cwd=tmp_path)
    assert proc.returncode == 0
    proc = run_cli("pnp", "kingdoms", "--only", "stone", "-o", str(tmp_path / "k.pdf"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_quiet_prints_nothing_when_all_is_well(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    for args in (["validate"], ["pnp", "fungus-wars"], ["build", "-n", "10"], ["smoke", "fungus-wars", "-n", "10"]):
        proc = run_cli("-q", *args, cwd=tmp_path)
        assert proc.returncode == 0, (args, proc.stderr)
        assert proc.stdout == "" and proc.stderr == "", (args, proc.stdout, proc.stderr)


def test_quiet_still_prints_problems(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    proc = run_cli("-q", "validate", cwd=tmp_path)
    assert proc.returncode == 1 and "HK104" in proc.stdout


def test_verbose_adds_detail_and_excludes_quiet(mini_game: Path) -> None:
    plain = run_cli("validate", str(mini_game))
    loud = run_cli("-v", "validate", str(mini_game))
    assert "fingerprint" in loud.stdout and "fingerprint" not in plain.stdout
    assert run_cli("-q", "-v", "validate", str(mini_game)).returncode == 2


def test_build_fails_and_says_which_stage_when_the_rules_module_does_not_load(mini_game: Path, tmp_path: Path) -> None:
    manifest = mini_game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("players:", "rules: nosuchrules\nplayers:"))
    proc = run_cli("build", str(mini_game), "-n", "5", "-d", str(tmp_path / "out"), "--skip", "pnp")
    assert proc.returncode == 1
    assert re.search(r"\[mini\] smoke: FAILED.*does not load", proc.stdout), proc.stdout


def test_build_fails_when_a_game_with_physical_pieces_has_no_layouts(mini_game: Path, tmp_path: Path) -> None:
    proc = run_cli("build", str(mini_game), "-n", "0", "-d", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "[mini] print-and-play: FAILED: no print layouts" in proc.stdout
    skipped = run_cli("build", str(mini_game), "-n", "0", "--skip", "pnp", "-d", str(tmp_path / "out"))
    assert skipped.returncode == 0, skipped.stdout


def test_build_format_json_reports_every_stage(mini_game: Path, tmp_path: Path) -> None:
    proc = run_cli("build", str(mini_game), "-n", "0", "--format", "json", "-d", str(tmp_path / "out"), check_json=True)
    report = __import__("json").loads(proc.stdout)
    stages = {s["stage"]: s["status"] for s in report["games"][0]["stages"]}
    assert stages == {"validate": "ok", "scenarios": "skipped", "smoke": "skipped", "print-and-play": "failed"}
    assert report["ok"] is False and proc.returncode == 1


def test_build_strict_fails_on_warnings(tmp_path: Path) -> None:
    game = tmp_path / "renamed"
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", game)  # id 'mini' in folder 'renamed': HK205 warning
    ok = run_cli("build", str(game), "-n", "0", "--skip", "pnp", "-d", str(tmp_path / "out"))
    strict = run_cli("build", str(game), "-n", "0", "--skip", "pnp", "--strict", "-d", str(tmp_path / "out"))
    assert "HK205" in ok.stdout and ok.returncode == 0
    assert strict.returncode == 1


def test_inside_a_game_s_folder_its_id_and_its_scenarios_are_found(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    inside = tmp_path / "content" / "fungus-wars"
    assert run_cli("validate", cwd=inside).returncode == 0
    proc = run_cli("scenario", "scenarios", cwd=inside)  # the scenario names its game by id
    assert proc.returncode == 0 and "1 passed" in proc.stdout


def test_the_old_dash_o_for_a_folder_still_works_with_a_warning(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    proc = run_cli("smoke", "fungus-wars", "-n", "5", "-o", "old-place", cwd=tmp_path)
    assert proc.returncode == 0
    assert "now -d/--out-dir" in proc.stderr
    assert (tmp_path / "old-place" / "smoke-report.json").is_file()
    both = run_cli("build", "-o", "a", "-d", "b", cwd=tmp_path)
    assert both.returncode == 2 and not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_game_id_beside_a_folder_of_that_name_without_a_game_still_names_the_game(tmp_path: Path) -> None:
    """`hordekit smoke kingdoms -d kingdoms` leaves a folder called kingdoms behind; `validate
    kingdoms` run there then means the game, as `pnp kingdoms` does, not that output folder."""
    (tmp_path / "kingdoms").mkdir()
    (tmp_path / "kingdoms" / "smoke-report.json").write_text("{}")
    (tmp_path / "empty").mkdir()
    proc = run_cli("validate", "kingdoms", cwd=tmp_path)
    assert proc.returncode == 0 and "content/kingdoms: ok" in proc.stdout, proc.stdout + proc.stderr
    proc = run_cli("validate", "empty", cwd=tmp_path)
    assert proc.returncode == 2 and "no game found in empty" in proc.stderr


@pytest.mark.parametrize("command", ["validate", "pnp"])
def test_inside_a_content_folder_the_error_names_the_games_below(command: str, mini_game: Path, tmp_path: Path) -> None:
    content = tmp_path / "elsewhere" / "content"
    content.mkdir(parents=True)
    shutil.copytree(mini_game, content / "my-game")
    proc = run_cli(command, cwd=content)
    assert proc.returncode == 2
    assert "no game here" in proc.stderr and "(my-game)" in proc.stderr, proc.stderr
    named = run_cli("validate", "my-game", cwd=content)
    assert named.returncode == 0, named.stdout + named.stderr
