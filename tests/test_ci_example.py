"""The CI set-up in docs/ci.md works: the workflow's hordekit steps and the pre-commit hook."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from ruamel.yaml import YAML

from conftest import ROOT, run_cli


def _workflow() -> dict:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(name: game\n.*?)```", text, re.DOTALL)
    assert block, "docs/ci.md has no workflow"
    return YAML(typ="safe").load(block.group(1))


def test_the_workflow_validates_builds_and_uploads_pdfs_and_smoke_reports() -> None:
    steps = _workflow()["jobs"]["check"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    assert any(r.startswith("hordekit validate") for r in runs)
    build = next(r for r in runs if r.startswith("hordekit build"))
    assert "--skip" not in build   # build runs the scenarios, the smoke games and the PDFs
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    paths = upload["with"]["path"]
    assert "print-and-play.pdf" in paths and "smoke-report" in paths
    assert upload["if"] == "always()"


def test_the_workflow_s_hordekit_steps_pass_on_a_new_game(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    for step in _workflow()["jobs"]["check"]["steps"]:
        command = step.get("run", "")
        if not command.startswith("hordekit "):
            continue
        proc = run_cli(*shlex.split(command)[1:], cwd=tmp_path)
        assert proc.returncode == 0, f"{command}:\n{proc.stdout}\n{proc.stderr}"
        assert "::error" not in proc.stdout
        if command.startswith("hordekit build"):
            assert "[fungus-wars] scenarios: 1/1 passed, 0 failed" in proc.stdout
    assert (tmp_path / "out" / "fungus-wars" / "print-and-play.pdf").is_file()
    assert (tmp_path / "out" / "fungus-wars" / "smoke-report.json").is_file()


def test_the_workflow_annotates_a_content_error_on_its_line(tmp_path: Path) -> None:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    proc = run_cli("validate", "--format", "github", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.startswith("::error file=content/fungus-wars/cards.yaml,line=16,col=5,title=HK104::")


def test_the_pre_commit_hook_runs_hordekit_validate_on_the_repository(tmp_path: Path) -> None:
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "hordekit-validate")
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    argv = shlex.split(hook["entry"])
    assert argv[0] == "hordekit"
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    assert run_cli(*argv[1:], cwd=tmp_path).returncode == 0
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    assert run_cli(*argv[1:], cwd=tmp_path).returncode == 1


def _ci_doc() -> str:
    return (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def test_the_workflow_leaves_the_checkout_clean_with_the_gitignore_docs_ci_gives(tmp_path: Path) -> None:
    import subprocess

    block = re.search(r"```gitignore\n(.*?)```", _ci_doc(), re.DOTALL)
    assert block, "docs/ci.md gives no .gitignore for the game's repository"
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(block.group(1))
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    for step in _workflow()["jobs"]["check"]["steps"]:
        command = step.get("run", "")
        if command.startswith("hordekit "):
            assert run_cli(*shlex.split(command)[1:], cwd=tmp_path).returncode == 0, command
    assert (tmp_path / "out" / "fungus-wars" / "print-and-play.pdf").is_file()
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=tmp_path,
                            capture_output=True, text=True, check=True).stdout
    assert [line for line in status.splitlines() if not line.startswith("A ")] == []


def test_the_json_keys_docs_ci_names_are_the_keys_printed(tmp_path: Path) -> None:
    import json

    rows = dict(re.findall(r"^\| (`[^|]+`) \| (.+) \|$", _ci_doc(), re.MULTILINE))

    def keys(command: str) -> list[str]:
        cell = next(text for name, text in rows.items() if f"`{command}`" in name)
        return next(k.split(", ") for k in re.findall(r"`([a-z_]+(?:, [a-z_]+)+)`", cell))

    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    for command in ("validate", "pnp", "import csv"):
        assert keys(command) == ["severity", "code", "message", "file", "line", "col", "hint"]
    problems = json.loads(run_cli("validate", "--format", "json", cwd=tmp_path).stdout)
    assert list(problems[0]) == keys("validate")
    games = json.loads(run_cli("games", "--format", "json", cwd=tmp_path).stdout)
    assert list(games[0]) == keys("games")
    scenarios = json.loads(run_cli("scenario", "--format", "json", "fungus-wars", cwd=tmp_path).stdout)
    assert list(scenarios[0]) == keys("scenario")
    assert list(scenarios[0]["failures"][0]) == ["line", "col", "message"]
    built = json.loads(run_cli("build", "--format", "json", cwd=tmp_path).stdout)
    assert list(built) == ["ok", "games"] and list(built["games"][0]) == keys("build")


def test_the_pre_commit_hook_refuses_a_commit_that_only_deletes_a_component_file(tmp_path: Path) -> None:
    # pre-commit hands a hook only the files a commit adds or changes, never those it deletes: a hook
    # that waited for a matching file would let this commit through
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "hordekit-validate")
    assert hook.get("always_run") is True and "files" not in hook
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    (tmp_path / "content" / "fungus-wars" / "cards.yaml").unlink()
    proc = run_cli(*shlex.split(hook["entry"])[1:], cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.startswith("content/fungus-wars/game.yaml:14:11: error HK014: ")
