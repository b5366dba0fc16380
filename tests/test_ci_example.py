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
    assert re.search(hook["files"], "content/fungus-wars/cards.yaml")
    argv = shlex.split(hook["entry"])
    assert argv[0] == "hordekit"
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    assert run_cli(*argv[1:], cwd=tmp_path).returncode == 0
    cards = tmp_path / "content" / "fungus-wars" / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    assert run_cli(*argv[1:], cwd=tmp_path).returncode == 1
