"""The bad-input corpus: every kind of mistake a designer makes gets a located, helpful error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import run_cli

HERE = Path(__file__).resolve().parent
CASES = YAML(typ="safe").load((HERE / "bad-expected.yaml").read_text())


def test_corpus_is_large_and_fully_described() -> None:
    files = sorted(p.name for p in (HERE / "bad").glob("*.yaml"))
    assert len(files) >= 30
    assert files == sorted(CASES), "every corpus file needs an expectation, and every expectation a file"


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_file_is_reported_at_its_place(name: str, mini_game: Path) -> None:
    case = CASES[name]
    shutil.copyfile(HERE / "bad" / name, mini_game / case["replaces"])
    before = {p: p.read_bytes() for p in mini_game.rglob("*") if p.is_file()}

    proc = run_cli("validate", str(mini_game), "--format", "json")

    assert proc.returncode == 1, proc.stdout + proc.stderr
    if "never_printed" in case:
        assert case["never_printed"] not in proc.stdout + proc.stderr
    diags = json.loads(proc.stdout)
    # one mistake, one error: follow-on problems it causes elsewhere are not reported
    assert not {d["code"] for d in diags} & set(case.get("absent", [])), diags
    matching = [d for d in diags if d["code"] == case["code"]]
    assert matching, f"expected {case['code']} among {[(d['code'], d['message']) for d in diags]}"
    d = matching[0]
    assert Path(d["file"]).name == case["file"]
    assert (d["line"], d["col"]) == (case["line"], case["col"])
    assert case["message"] in d["message"]
    if "hint" in case:
        assert case["hint"] in d["hint"]
    # validate writes nothing: the game folder is byte-for-byte what it was
    after = {p: p.read_bytes() for p in mini_game.rglob("*") if p.is_file()}
    assert after == before


def test_text_format_is_compiler_style(mini_game: Path) -> None:
    shutil.copyfile(HERE / "bad" / "06-misspelled-key.yaml", mini_game / "units.yaml")
    proc = run_cli("validate", str(mini_game))
    assert proc.returncode == 1
    first = proc.stdout.splitlines()[0]
    assert first.endswith("units.yaml:17:5: error HK104: unknown key 'strenght' (at items[1])")
    assert "hint: did you mean `strength`?" in proc.stdout


def test_github_format_gives_annotations(mini_game: Path) -> None:
    shutil.copyfile(HERE / "bad" / "12-dangling-reference.yaml", mini_game / "units.yaml")
    proc = run_cli("validate", str(mini_game), "--format", "github")
    assert proc.returncode == 1
    line = proc.stdout.strip().splitlines()[0]
    assert line.startswith("::error file=")
    assert ",line=15,col=14,title=HK202::unknown faction 'blue-hots'" in line


def test_warnings_fail_only_with_strict(mini_game: Path) -> None:
    manifest = mini_game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("id: mini", "id: mini-skirmish"))
    assert run_cli("validate", str(mini_game)).returncode == 0
    strict = run_cli("validate", str(mini_game), "--strict")
    assert strict.returncode == 1
    assert "HK205" in strict.stdout


def test_single_file_reports_only_that_file(mini_game: Path) -> None:
    shutil.copyfile(HERE / "bad" / "32-bad-colour.yaml", mini_game / "factions.yaml")
    proc = run_cli("validate", str(mini_game / "units.yaml"), "--format", "json")
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout) == []
    proc = run_cli("validate", str(mini_game / "factions.yaml"), "--format", "json")
    assert proc.returncode == 1
    assert {Path(d["file"]).name for d in json.loads(proc.stdout)} == {"factions.yaml"}


def test_oversized_file_is_refused(mini_game: Path) -> None:
    big = "kind: unit\nitems:\n" + "# padding line to make the file large\n" * 250_000
    (mini_game / "units.yaml").write_text(big)
    proc = run_cli("validate", str(mini_game), "--format", "json")
    assert proc.returncode == 1
    d = json.loads(proc.stdout)[0]
    assert d["code"] == "HK011" and (d["line"], d["col"]) == (1, 1)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run_cli("validate", str(tmp_path / "nowhere")).returncode == 2
    assert run_cli("validate", str(tmp_path)).returncode == 2  # a folder without games
    assert run_cli("validate", "--format", "xml").returncode == 2


def test_validate_takes_a_game_id_like_every_other_command(tmp_path: Path) -> None:
    """`hordekit pnp kingdoms` works, so `hordekit validate kingdoms` must too; a near miss is a
    usage error that suggests the id."""
    ok = run_cli("validate", "kingdoms")
    assert ok.returncode == 0 and "kingdoms: ok" in ok.stdout, ok.stdout + ok.stderr
    miss = run_cli("validate", "kingdom")
    assert miss.returncode == 2 and "did you mean `kingdoms`" in miss.stderr, miss.stderr


def _new_game_with(tmp_path: Path, old: str, new: str) -> tuple[Path, list[dict]]:
    """A game made by `hordekit new`, one line of its cards changed, validated as JSON."""
    assert run_cli("new", "trail", cwd=tmp_path).returncode == 0
    cards = tmp_path / "content" / "trail" / "cards.yaml"
    text = cards.read_text()
    assert old in text
    cards.write_text(text.replace(old, new, 1))
    proc = run_cli("validate", str(cards.parent), "--format", "json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return cards, json.loads(proc.stdout)


def test_an_overlong_value_is_measured_not_quoted_whole(tmp_path: Path) -> None:
    """A name pasted 5,000 characters long: the error gives its length and the limit, and quotes
    only its start, so the terminal and a CI log stay readable."""
    cards, diags = _new_game_with(tmp_path, "name: Stride", "name: " + "Stride" * 1000)
    (d,) = [d for d in diags if d["code"] == "HK108"]
    assert (Path(d["file"]).name, d["line"], d["col"]) == ("cards.yaml", 6, 11)
    assert "has 6,000 characters; at most" in d["message"]
    assert len(d["message"]) < 200
    proc = run_cli("validate", str(cards.parent))
    assert "Stride" * 20 not in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) < 250


def test_an_empty_name_is_called_empty(tmp_path: Path) -> None:
    _, diags = _new_game_with(tmp_path, "name: Stride", 'name: ""')
    (d,) = [d for d in diags if d["code"] == "HK108"]
    assert d["line"] == 6 and "the text is empty; at least 1 character" in d["message"]
