"""Where a game's rules module may come from: hordekit's engines, installed modules, or a file the
manifest names inside the game's folder — never a module planted in the current folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES, run_cli

PLANTED = """
from pathlib import Path
Path(__file__).with_name("PLANTED-CODE-RAN").write_text("ran")
"""


def _game_naming(rules: str, folder: Path) -> Path:
    """The Coin Race fixture game, copied, with its manifest's `rules:` replaced."""
    game = folder / "coinrace"
    shutil.copytree(FIXTURES / "coinrace", game)
    shutil.copytree(FIXTURES / "mini" / "schemas", folder / "mini" / "schemas")
    manifest = game / "game.yaml"
    text = manifest.read_text().replace("rules: coinrace_rules", f"rules: {rules}")
    manifest.write_text(text)
    return game


def test_validate_never_imports_a_module_planted_in_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "plantedrules.py").write_text(PLANTED)
    game = _game_naming("plantedrules", tmp_path)
    proc = run_cli("validate", str(game), cwd=tmp_path)
    assert not (tmp_path / "PLANTED-CODE-RAN").exists(), "a module from the current folder was imported"
    assert "HK301" in proc.stdout  # reported as a rules module that is not available
    assert proc.returncode == 0  # HK301 is a warning: the content itself is fine


def test_smoke_never_imports_a_module_planted_in_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "plantedrules.py").write_text(PLANTED)
    game = _game_naming("plantedrules", tmp_path)
    proc = run_cli("smoke", str(game), "-n", "5", cwd=tmp_path)
    assert not (tmp_path / "PLANTED-CODE-RAN").exists()
    assert proc.returncode == 1
    assert "not available" in proc.stderr


def test_a_planted_package_is_not_imported_either(tmp_path: Path) -> None:
    package = tmp_path / "studio"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text(PLANTED)
    game = _game_naming("studio.rules", tmp_path)
    run_cli("validate", str(game), cwd=tmp_path)
    assert not (package / "PLANTED-CODE-RAN").exists()


def test_a_rules_file_named_by_the_manifest_is_loaded_from_the_game_folder(tmp_path: Path) -> None:
    game = _game_naming("rules.py", tmp_path)
    shutil.copy(FIXTURES / "pylib" / "coinrace_rules" / "__init__.py", game / "rules.py")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run_cli("smoke", str(game), "-n", "10", "--bot", "greedy", "--seed", "2", "-d", str(tmp_path / "out"),
                   cwd=elsewhere)
    assert proc.returncode in (0, 1), proc.stderr  # Coin Race fails some seeds on purpose
    assert "10 games finished" in proc.stdout or "/10 games finished" in proc.stdout
    assert (tmp_path / "out" / "smoke-report.json").is_file()


def test_a_rules_file_outside_the_game_folder_is_refused(tmp_path: Path) -> None:
    game = _game_naming("../rules.py", tmp_path)
    (tmp_path / "rules.py").write_text(PLANTED)
    proc = run_cli("validate", str(game), cwd=tmp_path)
    assert proc.returncode == 1
    assert "game.yaml:" in proc.stdout and "rules" in proc.stdout
    assert not (tmp_path / "PLANTED-CODE-RAN").exists()


def test_a_broken_rules_file_is_reported_not_a_crash(tmp_path: Path) -> None:
    game = _game_naming("rules.py", tmp_path)
    (game / "rules.py").write_text("def broken(:\n")
    proc = run_cli("smoke", str(game), "-n", "3", cwd=tmp_path)
    assert proc.returncode == 1
    assert "rules.py" in proc.stderr and "SyntaxError" in proc.stderr


def test_an_installed_module_on_an_explicit_pythonpath_still_loads(tmp_path: Path) -> None:
    game = _game_naming("coinrace_rules", tmp_path)
    proc = run_cli("smoke", str(game), "-n", "10", "--bot", "greedy", "-d", str(tmp_path / "out"),
                   cwd=tmp_path, extra_path=[FIXTURES / "pylib"])
    assert "/10 games finished" in proc.stdout, proc.stderr
