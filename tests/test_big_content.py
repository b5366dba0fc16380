"""Big content: thousands of components validate, and every error is still reported at its own
file:line:col (the fast paths for big files must not lose or shift a single position).

The game is written line by line here, so each expected position comes from the writer, not
from the loader under test.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from conftest import FIXTURES, run_cli

UNITS = 3_000
#: One unit in every EVERY carries a mistake; the kind of mistake cycles through MISTAKES.
EVERY = 60
#: (field written wrong, the line as written, error code, column of what is reported)
MISTAKES = [
    ("strength", "    strength: lots", "HK102", 15),  # text where a number belongs: at the value
    ("strength", "    strenght: 3", "HK104", 5),  # misspelled key: at the key
    ("type", "    type: dragon", "HK105", 11),  # not one of the allowed values
    ("faction", "    faction: green-horde", "HK202", 14),  # refers to no faction
    ("amount", "        amount: 0", "HK108", 17),  # below the minimum, inside an effect
]


def _unit_lines(i: int, mistake: tuple[str, str, str, int] | None) -> list[str]:
    fields = {
        "faction": f"    faction: {'red-legion' if i % 2 else 'blue-host'}",
        "type": f"    type: {('human', 'beast', 'undead')[i % 3]}",
        "strength": f"    strength: {i % 12}",
        "amount": f"        amount: {1 + i % 3}",
    }
    if mistake is not None:
        fields[mistake[0]] = mistake[1]
    return [f"  - id: unit-{i}", f"    name: Unit number {i}", fields["faction"], fields["type"],
            fields["strength"], f"    cost: {'X' * (1 + i % 5)}", "    effects:", "      - kind: shield",
            fields["amount"]]


def write_big_game(folder: Path, with_mistakes: bool) -> tuple[Path, set[tuple[str, int, int]]]:
    """A copy of the fixture game with UNITS units; returns it and the (code, line, col) of each mistake."""
    game = folder / "mini"  # the folder is named after the game id
    shutil.copytree(FIXTURES / "mini", game)
    lines = ["kind: unit", "items:"]
    expected: set[tuple[str, int, int]] = set()
    for i in range(UNITS):
        mistake = MISTAKES[(i // EVERY) % len(MISTAKES)] if with_mistakes and i % EVERY == EVERY - 1 else None
        unit = _unit_lines(i, mistake)
        if mistake is not None:
            expected.add((mistake[2], len(lines) + unit.index(mistake[1]) + 1, mistake[3]))
        lines += unit
    (game / "units.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("expected: 5", f"expected: {UNITS}"),
                        encoding="utf-8")
    return game, expected


def test_every_error_in_big_content_is_reported_at_its_file_line_and_column(tmp_path: Path) -> None:
    game, expected = write_big_game(tmp_path, with_mistakes=True)
    assert len(expected) == UNITS // EVERY

    proc = run_cli("validate", str(game), "--format", "json")

    assert proc.returncode == 1, proc.stderr
    found = json.loads(proc.stdout)
    assert {Path(d["file"]).name for d in found} == {"units.yaml"}
    assert sorted((d["code"], d["line"], d["col"]) for d in found) == sorted(expected)


def test_text_output_of_big_content_names_each_error_compiler_style(tmp_path: Path) -> None:
    game, expected = write_big_game(tmp_path, with_mistakes=True)

    proc = run_cli("validate", str(game), cwd=tmp_path)

    assert proc.returncode == 1
    reported = {line.split(": error ")[0] + " " + line.split(": error ")[1][:5]
                for line in proc.stdout.splitlines() if ": error " in line}
    assert reported == {f"mini/units.yaml:{line}:{col} {code}" for code, line, col in expected}
    assert proc.stdout.rstrip().endswith(f"{len(expected)} errors, 0 warnings")


def test_big_content_without_mistakes_is_clean(tmp_path: Path) -> None:
    game, _ = write_big_game(tmp_path, with_mistakes=False)

    proc = run_cli("validate", str(game), "--format", "json")

    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout) == []


# -- the content cache (toolkit/yamlcache.py): big files that did not change are not parsed again --


def _validate_json(game: Path) -> tuple[int, list[dict[str, object]]]:
    proc = run_cli("validate", str(game), "--format", "json")
    return proc.returncode, json.loads(proc.stdout)


def test_unchanged_big_file_validates_the_same_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    game, expected = write_big_game(tmp_path, with_mistakes=True)
    monkeypatch.setenv("HORDEKIT_CACHE_DIR", str(tmp_path / "cache"))
    before = {p: p.read_bytes() for p in game.rglob("*") if p.is_file()}

    first = _validate_json(game)
    entries = list((tmp_path / "cache" / "yaml").glob("*.bin"))
    second = _validate_json(game)

    assert len(entries) == len(list(game.rglob("*.yaml")))  # one per file read: units.yaml among them
    assert second == first
    assert sorted((d["code"], d["line"], d["col"]) for d in second[1]) == sorted(expected)
    assert {p: p.read_bytes() for p in game.rglob("*") if p.is_file()} == before  # nothing in the game


def test_a_changed_big_file_is_parsed_again(tmp_path: Path, monkeypatch) -> None:
    game, expected = write_big_game(tmp_path, with_mistakes=True)
    monkeypatch.setenv("HORDEKIT_CACHE_DIR", str(tmp_path / "cache"))
    _validate_json(game)
    units = game / "units.yaml"
    text = units.read_text(encoding="utf-8")
    stat = units.stat()
    units.write_text("# two lines added at the top\n#\n" + text, encoding="utf-8")
    os.utime(units, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same modification time: only the bytes tell

    _, found = _validate_json(game)

    assert sorted((d["code"], d["line"], d["col"]) for d in found) == sorted(
        (code, line + 2, col) for code, line, col in expected)


def test_a_damaged_cache_entry_is_ignored_and_replaced(tmp_path: Path, monkeypatch) -> None:
    game, expected = write_big_game(tmp_path, with_mistakes=True)
    monkeypatch.setenv("HORDEKIT_CACHE_DIR", str(tmp_path / "cache"))
    _validate_json(game)
    entry = max((tmp_path / "cache" / "yaml").glob("*.bin"), key=lambda e: e.stat().st_size)  # units.yaml's
    good = entry.read_bytes()
    entry.write_bytes(good[:200] + b"\x00garbage" * 100)

    code, found = _validate_json(game)

    assert code == 1
    assert sorted((d["code"], d["line"], d["col"]) for d in found) == sorted(expected)
    assert entry.read_bytes() == good


def test_no_cache_is_written_when_turned_off_or_impossible(tmp_path: Path, monkeypatch) -> None:
    game, expected = write_big_game(tmp_path, with_mistakes=True)
    monkeypatch.setenv("HORDEKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HORDEKIT_NO_CACHE", "1")
    _, found = _validate_json(game)
    assert not (tmp_path / "cache").exists()
    assert sorted((d["code"], d["line"], d["col"]) for d in found) == sorted(expected)

    monkeypatch.delenv("HORDEKIT_NO_CACHE")
    (tmp_path / "cache").write_text("a file where the cache folder would go")
    _, found = _validate_json(game)
    assert sorted((d["code"], d["line"], d["col"]) for d in found) == sorted(expected)
