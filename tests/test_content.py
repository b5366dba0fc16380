"""The games that ship with hordekit: their content validates clean and is editor-ready."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import CONTENT, ROOT, run_cli

GAMES = sorted(p.parent for p in CONTENT.glob("*/game.yaml"))


def test_the_shipped_games_are_there() -> None:
    assert {"hordes-and-heroes", "kingdoms"} <= {g.name for g in GAMES}


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_shipped_game_validates_clean(game: Path) -> None:
    proc = run_cli("validate", str(game), "--format", "json")
    diags = json.loads(proc.stdout)
    errors = [d for d in diags if d["severity"] == "error"]
    assert proc.returncode == 0 and not errors, errors


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_every_content_file_names_its_schema_for_editors(game: Path) -> None:
    for path in sorted(game.rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        target = (path.parent / first.split("$schema=", 1)[1].strip()).resolve()
        assert target.is_file(), f"{path}: modeline points at missing {target}"


def test_games_json_lists_ids_titles_and_counts() -> None:
    proc = run_cli("games", "--json")
    assert proc.returncode == 0
    rows = {row["id"]: row for row in json.loads(proc.stdout)}
    kingdoms = rows["kingdoms"]
    assert kingdoms["title"] == "Kingdoms"
    assert kingdoms["counts"]["horde-counter"] == 71
    hh = rows["hordes-and-heroes"]
    assert hh["title"] == "Hordes & Heroes"
    assert all(isinstance(n, int) and n > 0 for n in hh["counts"].values())


def test_games_table_is_readable() -> None:
    proc = run_cli("games")
    assert proc.returncode == 0
    assert "kingdoms  Kingdoms  1-6 players" in proc.stdout


def test_schema_command_writes_schemas_for_editors(tmp_path: Path) -> None:
    proc = run_cli("schema", "-d", str(tmp_path / "schemas"))
    assert proc.returncode == 0
    written = sorted(p.relative_to(tmp_path / "schemas") for p in (tmp_path / "schemas").rglob("*.schema.json"))
    shipped = sorted(p.relative_to(ROOT / "schemas") for p in (ROOT / "schemas").rglob("*.schema.json"))
    assert written == shipped
    assert "yaml.schemas" in json.loads(proc.stdout)


def test_a_game_validates_wherever_it_lies(tmp_path: Path) -> None:
    """A copy outside the repository, with its own schemas, run from an unrelated folder."""
    import shutil

    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", tmp_path / "elsewhere" / "mini")
    proc = run_cli("validate", "mini", cwd=tmp_path / "elsewhere")
    assert proc.returncode == 0, proc.stdout + proc.stderr
