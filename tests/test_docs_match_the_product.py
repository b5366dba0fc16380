"""The reference pages say what the product does: codes, options and examples read from the pages
themselves and checked against the code and the running CLI."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

DIAGNOSTICS = ROOT / "docs" / "diagnostics.md"
_RAISED = re.compile(r"""["'](HK\d{3})["']""")


def _raised_codes() -> dict[str, str]:
    """Every diagnostic code the toolkit and the engine can report -> one file that reports it."""
    found: dict[str, str] = {}
    for folder in ("toolkit", "engine"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for code in _RAISED.findall(path.read_text(encoding="utf-8")):
                found.setdefault(code, str(path.relative_to(ROOT)))
    return found


def _listed_codes() -> set[str]:
    return set(re.findall(r"^\| (HK\d{3}) \|", DIAGNOSTICS.read_text(encoding="utf-8"), re.MULTILINE))


def test_every_code_hordekit_reports_is_listed_in_diagnostics_md() -> None:
    raised = _raised_codes()
    assert len(raised) > 50, "the scan found too few codes to be looking in the right place"
    missing = {code: where for code, where in raised.items() if code not in _listed_codes()}
    assert not missing, f"codes reported but not listed in docs/diagnostics.md: {missing}"


def test_every_code_diagnostics_md_lists_is_one_hordekit_reports() -> None:
    stale = _listed_codes() - set(_raised_codes())
    assert not stale, f"docs/diagnostics.md lists codes nothing reports: {sorted(stale)}"


def test_annotations_name_files_from_the_repository_root_as_ci_md_says(tmp_path: Path, monkeypatch) -> None:
    """docs/ci.md: whichever folder a step runs in, annotations name files from the repository root."""
    import subprocess

    from conftest import run_cli

    assert "from the repository root" in (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    game = tmp_path / "content" / "fungus-wars"
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 3", "stepz: 3"))
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)  # not in a workflow: the folder holding .git is the root
    for args in (("validate", "--format", "github"), ("build", "--format", "github", "-n", "1")):
        proc = run_cli(*args, cwd=game)
        assert proc.returncode == 1
        files = {line.split("file=")[1].split(",")[0] for line in proc.stdout.splitlines() if line.startswith("::")}
        assert files and all(f.startswith("content/fungus-wars/") for f in files), (args, proc.stdout)


def test_the_tutorials_new_component_kind_validates_after_what_schema_for_says(tmp_path: Path) -> None:
    """docs/tutorial.md, "A new component kind": items by hand, the manifest entry the page shows,
    `schema --for`, which writes the kind's `schema:` line into game.yaml; the game validates."""
    from conftest import run_cli

    page = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    entry = re.search(r"```yaml\n(\s*spore:\n.*?)\s*```", page, re.DOTALL).group(1)
    indent = len(entry) - len(entry.lstrip(" "))
    entry = "\n".join(line[indent - 2:] for line in entry.splitlines()) + "\n"  # as pasted under components:
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    game = tmp_path / "content" / "fungus-wars"
    (game / "spores.yaml").write_text("kind: spore\nitems:\n"
                                      "  - {id: red-spore, name: Red Spore, quantity: 4, power: 2}\n"
                                      "  - {id: blue-spore, name: Blue Spore, quantity: 4, power: 3}\n")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + entry)
    proc = run_cli("schema", "--for", "fungus-wars", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "schemas/spores.schema.json: derived from 2 spore item(s)" in proc.stdout, proc.stdout
    assert "game.yaml: components.spore now names it (`schema: spores.schema.json`)" in proc.stdout, proc.stdout
    assert "  spore:\n    file: spores.yaml\n    schema: spores.schema.json\n" in manifest.read_text()
    assert (game / "spores.yaml").read_text().startswith("# yaml-language-server: $schema=schemas/spores.schema.json")
    proc = run_cli("validate", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert ": error " not in proc.stdout and "warning HK406" in proc.stdout


def _command_options() -> dict[str, set[str]]:
    """Every command line hordekit has (`pnp`, `import csv`) -> its visible long options."""
    import typer

    from toolkit.cli import app

    found: dict[str, set[str]] = {}

    def walk(cmd, path: tuple[str, ...]) -> None:
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                walk(sub, path + (name,))
            return
        found[" ".join(path)] = {o for p in cmd.params if getattr(p, "param_type_name", "") == "option"
                                 and not p.hidden for o in [*p.opts, *p.secondary_opts] if o.startswith("--")}
    walk(typer.main.get_command(app), ())
    return found


def _pages() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])


def test_every_option_of_every_command_is_in_the_docs() -> None:
    commands = _command_options()
    assert {"validate", "pnp", "import csv", "export tts", "smoke", "new"} <= set(commands)
    pages = _pages()
    missing = []
    for command, options in sorted(commands.items()):
        for option in sorted(options - {"--help"}):
            pair = {option, option.replace("--no-", "--", 1), "--no-" + option[2:]}
            if not any(re.search(re.escape(o) + r"(?![\w-])", pages) for o in pair if o in options):
                missing.append(f"hordekit {command} {option}")
    assert not missing, f"options in --help that no page mentions: {missing}"


def test_every_option_a_page_gives_a_command_is_one_it_has() -> None:
    commands = _command_options()
    names = sorted(commands, key=len, reverse=True)  # `import csv` before `import`
    pattern = re.compile(r"hordekit (" + "|".join(map(re.escape, names)) + r")\b([^`\n]*)")
    wrong = []
    for m in pattern.finditer(_pages()):
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", m.group(2)):
            if option not in commands[m.group(1)] | {"--help"}:
                wrong.append(m.group(0).strip())
    assert len(list(pattern.finditer(_pages()))) > 50
    assert not wrong, f"command lines in the docs with options the command does not have: {wrong}"


def test_the_csv_example_of_content_format_md_imports_as_the_page_says(tmp_path: Path) -> None:
    """docs/content-format.md: the heroes sheet, with the commands the page gives, imports cleanly
    and makes the nested `cost.dice` column a `cost: {dice: …}` field."""
    from conftest import run_cli
    from ruamel.yaml import YAML

    page = (ROOT / "docs" / "content-format.md").read_text(encoding="utf-8")
    sheet = re.search(r"```csv file=heroes\.csv\n(.*?)```", page, re.DOTALL).group(1)
    section = page[page.index("## From a spreadsheet"):]
    commands = [c for c in re.findall(r"`(hordekit (?:new|import csv) [^`]*)`", section) if "my-hordes" in c]
    assert [c.split()[1] for c in commands] == ["new", "import"], commands
    (tmp_path / "heroes.csv").write_text(sheet)
    for command in commands:
        proc = run_cli(*command.split()[1:], cwd=tmp_path)
        assert proc.returncode == 0, (command, proc.stdout, proc.stderr)
    items = YAML(typ="safe").load((tmp_path / "new-heroes.yaml").read_text())["items"]
    assert items[1]["cost"] == {"dice": "XX"} and items[0]["effects"] == [{"kind": "shield", "amount": 1}]


def test_the_board_examples_of_pnp_md_print_without_a_warning(tmp_path: Path) -> None:
    """docs/pnp.md's two board examples, pasted into a game that declares their icons, validate
    clean (inside the safe zone, every icon known) and print."""
    from conftest import run_cli

    page = (ROOT / "docs" / "pnp.md").read_text(encoding="utf-8")
    boards = [b for b in re.findall(r"```yaml\n(.*?)```", page, re.DOTALL) if b.startswith("boards:\n")]
    assert len(boards) == 2
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    templates = tmp_path / "content" / "fungus-wars" / "templates"
    layouts = templates / "layouts.yaml"
    layouts.write_text(layouts.read_text() + "\n" + boards[0] + boards[1].split("\n", 1)[1])
    (templates / "icons.yaml").write_text(
        "icons:\n"
        "  flag:\n"
        "    legend: the flag to take\n"
        "    shapes:\n"
        "      - {rect: [20, 10, 8, 80], fill: ink}\n"
        "      - {polygon: [[28, 10], [80, 25], [28, 40]], fill: \"#c0392b\"}\n"
        "dice:\n"
        "  yellow:\n"
        "    legend: a yellow die showing {face}\n"
        "    faces: [1, 2, 3, 4, 5, 6]\n"
        "    style: pips\n"
        "    fill: \"#f2c94c\"\n")
    proc = run_cli("validate", "--strict", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    proc = run_cli("pnp", "--only", "board", cwd=tmp_path)
    assert proc.returncode == 0 and "0 warnings" in proc.stderr + proc.stdout, proc.stdout + proc.stderr
