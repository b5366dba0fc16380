"""`hordekit new`: a game of one's own that validates, prints and plays at once (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, run_cli

SHIPPED = sorted(d.name for d in (ROOT / "content").iterdir() if (d / "game.yaml").is_file())


def _new(tmp_path: Path, *args: str) -> Path:
    proc = run_cli("new", *args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return tmp_path / "content" / args[0]


def test_the_minimal_game_validates_prints_and_plays_at_once(tmp_path: Path) -> None:
    game = _new(tmp_path, "fungus-wars")
    assert run_cli("validate", cwd=tmp_path).returncode == 0
    pdf = tmp_path / "fw.pdf"
    assert run_cli("pnp", "fungus-wars", "-o", str(pdf), cwd=tmp_path).returncode == 0
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Stride" in text and "Leap" in text and "Draw 1 more card." in text
    smoke = run_cli("smoke", "fungus-wars", "-n", "40", "--format", "json", cwd=tmp_path, check_json=True)
    report = json.loads(smoke.stdout)
    assert smoke.returncode == 0 and report["games_finished"] == 40 and not report["errors"]
    assert (tmp_path / "out" / "fungus-wars" / "smoke-report.json").is_file()  # named after the game
    scenario = run_cli("scenario", str(game / "scenarios"), cwd=tmp_path)
    assert scenario.returncode == 0 and "1 passed" in scenario.stdout


def test_the_minimal_game_holds_every_part_a_designer_needs(tmp_path: Path) -> None:
    game = _new(tmp_path, "fungus-wars")
    for part in ("game.yaml", "cards.yaml", "schemas/cards.schema.json", "templates/layouts.yaml",
                 "templates/text.yaml", "rules.py", "scenarios/first-turn.yaml", "README.md",
                 "schemas/manifest.schema.json"):
        assert (game / part).is_file(), part
    manifest = (game / "game.yaml").read_text()
    assert "id: fungus-wars" in manifest and "title: Fungus Wars" in manifest and "rules: rules.py" in manifest
    items = (game / "cards.yaml").read_text().count("- id:")
    assert items == 2
    readme = (game / "README.md").read_text()
    assert "code" in readme and "trust" in readme  # the rules file is documented as trusted code


def test_a_new_game_is_self_contained_and_never_reads_hordekit_s_own_templates(tmp_path: Path) -> None:
    _new(tmp_path, "fungus-wars")
    from toolkit.games import read_manifest

    game, _, _ = read_manifest(tmp_path / "content" / "fungus-wars")
    root = (tmp_path / "content" / "fungus-wars").resolve()
    assert game.templates_dir.resolve().is_relative_to(root)
    assert game.schemas_dir.resolve().is_relative_to(root)
    assert Path(game.rules).resolve().is_relative_to(root)


def test_a_game_without_a_templates_entry_looks_in_its_own_folder_not_in_hordekit(tmp_path: Path) -> None:
    game = tmp_path / "hordes-and-heroes"  # the id of a shipped game, outside hordekit's content
    proc = run_cli("new", str(game), "--from", "minimal", cwd=tmp_path)
    assert proc.returncode == 0
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("templates: templates", "").replace("title: Hordes And Heroes", "title: Mine"))
    (game / "templates").rename(game / "my-layouts")
    proc = run_cli("build", str(game), "-n", "0", "-d", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 1
    assert "no print layouts" in proc.stdout and str(Path("hordes-and-heroes") / "templates") in proc.stdout


@pytest.mark.parametrize("shipped", SHIPPED)
def test_new_from_a_shipped_game_copies_its_content_schemas_and_templates(tmp_path: Path, shipped: str) -> None:
    game = _new(tmp_path, "my-copy", "--from", shipped)
    proc = run_cli("validate", "content/my-copy", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    from toolkit.games import read_manifest

    copy, _, _ = read_manifest(game)
    original, _, _ = read_manifest(ROOT / "content" / shipped)
    assert copy.id == "my-copy"
    assert set(copy.kinds) == set(original.kinds)
    for kind in copy.kinds.values():
        assert kind.schema.resolve().is_relative_to(game.resolve()), kind.schema
    if (original.templates_dir / "layouts.yaml").is_file():
        assert (copy.templates_dir / "layouts.yaml").read_text() == (original.templates_dir / "layouts.yaml").read_text()
        assert copy.templates_dir.resolve().is_relative_to(game.resolve())


def test_new_from_a_shipped_game_brings_its_scenarios_which_still_pass(tmp_path: Path) -> None:
    game = _new(tmp_path, "my-hordes", "--from", "hordes-and-heroes")
    proc = run_cli("scenario", str(game / "scenarios"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert "game: my-hordes" in next((game / "scenarios").glob("*.yaml")).read_text()


def test_an_unknown_source_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    proc = run_cli("new", "fungus-wars", "--from", "chess", cwd=tmp_path)
    assert proc.returncode == 2
    assert "minimal" in proc.stderr and "kingdoms" in proc.stderr
    assert not (tmp_path / "content").exists()


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    _new(tmp_path, "fungus-wars")
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text("kind: card\nitems: []\n")
    proc = run_cli("new", "fungus-wars", cwd=tmp_path)
    assert proc.returncode == 2 and "already exists" in proc.stderr
    assert cards.read_text() == "kind: card\nitems: []\n"


def test_a_title_typed_as_the_name_becomes_the_title_and_gives_the_id(tmp_path: Path) -> None:
    proc = run_cli("new", "Élan Vital: Fungus Wars!", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    game = tmp_path / "content" / "elan-vital-fungus-wars"
    from toolkit.games import read_manifest

    manifest, _, _ = read_manifest(game)
    assert manifest.id == "elan-vital-fungus-wars" and manifest.title == "Élan Vital: Fungus Wars!"
    assert run_cli("validate", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("name", ["!!!", "./Fungus Wars"])
def test_a_name_that_cannot_be_a_game_id_is_a_usage_error(tmp_path: Path, name: str) -> None:
    proc = run_cli("new", name, cwd=tmp_path)
    assert proc.returncode == 2 and "game id" in proc.stderr
    assert not any(tmp_path.iterdir())  # nothing written


def test_one_game_commands_work_on_the_game_here_without_its_name(tmp_path: Path) -> None:
    _new(tmp_path, "fungus-wars")
    pdf = tmp_path / "fw.pdf"
    assert run_cli("pnp", "-o", str(pdf), cwd=tmp_path).returncode == 0
    assert "Stride" in "".join(page.extract_text() for page in PdfReader(pdf).pages)
    smoke = run_cli("smoke", "-n", "5", "--format", "json", cwd=tmp_path, check_json=True)
    assert smoke.returncode == 0 and json.loads(smoke.stdout)["game"] == "fungus-wars"
    inside = run_cli("export", "pieces", "-o", str(tmp_path / "p.pdf"), cwd=tmp_path / "content" / "fungus-wars")
    assert inside.returncode == 0 and len(PdfReader(tmp_path / "p.pdf").pages) > 0


def test_one_game_commands_without_a_name_refuse_when_the_game_is_ambiguous_or_absent(tmp_path: Path) -> None:
    assert run_cli("pnp", cwd=tmp_path).returncode == 2
    _new(tmp_path, "fungus-wars")
    _new(tmp_path, "spore-kings")
    proc = run_cli("smoke", cwd=tmp_path)
    assert proc.returncode == 2 and "fungus-wars, spore-kings" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


def test_what_hordekit_writes_inside_a_new_game_stays_out_of_its_repository(tmp_path: Path) -> None:
    import shutil
    import subprocess

    game = _new(tmp_path, "fungus-wars")
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    subprocess.run([git, "init", "-q", str(game)], check=True)
    assert run_cli("pnp", cwd=game).returncode == 0  # run from inside the game folder: out/ lands there
    assert (game / "out").is_dir() and any((game / "out").rglob("*.pdf"))
    status = subprocess.run([git, "status", "--porcelain", "--untracked-files=all"], cwd=game,
                            capture_output=True, text=True, check=True).stdout
    assert "game.yaml" in status and ".gitignore" in status
    assert "out/" not in status and ".pdf" not in status, status
