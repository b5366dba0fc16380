"""A careless designer's files: a text.yaml or a templates folder that cannot be read, an empty
manifest. Each is one located error that names the real cause, never a crash or a wrong one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from conftest import ROOT, run_cli


@pytest.fixture
def new_game(tmp_path: Path) -> Path:
    """A game exactly as `hordekit new` writes it (cards with a 'draw' effect, layouts, text.yaml)."""
    proc = run_cli("new", str(tmp_path / "cards"))
    assert proc.returncode == 0, proc.stderr
    return tmp_path / "cards"


def problems(proc: subprocess.CompletedProcess[str]) -> list[tuple[str, str, int, int]]:
    return [(d["code"], Path(d["file"]).name, d["line"], d["col"]) for d in json.loads(proc.stdout)
            if d["severity"] == "error"]


@pytest.mark.parametrize("content, code, line, col", [
    ("draw: 'Draw {{ amount }}.'\n".encode("utf-16"), "HK002", 1, 1),
    (b"# caf\xe9\ndraw: 'Draw {{ amount }}.'\n", "HK002", 1, 6),
    (b"draw: 'Draw\x00 {{ amount }}.'\n", "HK002", 1, 1),
    (b"", "HK004", 1, 1),
    (b"- draw: 'Draw {{ amount }}.'\n", "HK403", 1, 1),
], ids=["utf-16", "latin-1", "nul", "empty", "a-list"])
def test_a_text_yaml_that_cannot_be_read_is_one_error_at_it(new_game: Path, content: bytes, code: str,
                                                             line: int, col: int) -> None:
    """Not 'effect kind draw has no text template' at every effect: the file itself is the cause."""
    (new_game / "templates" / "text.yaml").write_bytes(content)
    proc = run_cli("validate", str(new_game), "--format", "json")
    assert proc.returncode == 1
    assert problems(proc) == [(code, "text.yaml", line, col)]
    out = new_game / "print.pdf"
    out.write_bytes(b"%PDF-1.4 earlier\n")
    proc = run_cli("pnp", str(new_game), "-o", str(out))
    assert proc.returncode == 1 and f"text.yaml:{line}:{col}: error {code}" in proc.stdout
    assert out.read_bytes() == b"%PDF-1.4 earlier\n"


@pytest.mark.parametrize("name, words", [
    ("game.yaml", "a manifest holds 'id:'"),
    ("templates/layouts.yaml", "print layouts hold 'kinds:'"),
    ("cards.yaml", "a content file holds 'kind:' and 'items:'"),
])
def test_an_empty_file_says_what_that_file_holds(new_game: Path, name: str, words: str) -> None:
    (new_game / name).write_text("# to do\n")
    proc = run_cli("validate", str(new_game), "--format", "json")
    assert proc.returncode == 1
    (d,) = [d for d in json.loads(proc.stdout) if d["code"] == "HK004"]
    assert d["file"].endswith(name) and words in d["hint"]


@pytest.fixture
def shared_game() -> Iterator[Path]:
    """A game in a folder another user may enter (pytest's own folders are private to us)."""
    base = Path(tempfile.mkdtemp(prefix="hordekit-perm-"))
    try:
        os.chmod(base, 0o755)
        proc = run_cli("new", str(base / "cards"))
        assert proc.returncode == 0, proc.stderr
        yield base / "cards"
    finally:
        for p in [base, *base.rglob("*")]:
            if not p.is_symlink():
                os.chmod(p, 0o755)
        shutil.rmtree(base)


def run_unprivileged(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a user without root's right to read anything (as nobody when we are root)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: permissions cannot be tested")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), HORDEKIT_NO_CACHE="1", NO_COLOR="1", HOME=tempfile.gettempdir())
    proc = subprocess.run([*prefix, sys.executable, "-m", "toolkit", *args], cwd=tempfile.gettempdir(), env=env,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr and proc.returncode != 70, proc.stderr
    return proc


def test_a_templates_folder_that_cannot_be_read_is_one_error_at_the_manifest(shared_game: Path) -> None:
    for p in [shared_game, *shared_game.rglob("*")]:
        os.chmod(p, 0o755 if p.is_dir() else 0o644)
    os.chmod(shared_game, 0o777)  # the PDF may be written here
    os.chmod(shared_game / "templates", 0)
    proc = run_unprivileged("validate", str(shared_game), "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert problems(proc) == [("HK012", "game.yaml", 11, 12)]
    proc = run_unprivileged("pnp", str(shared_game), "-o", str(shared_game / "x.pdf"))
    assert proc.returncode == 1 and "game.yaml:11:12: error HK012: templates folder" in proc.stdout
    assert not (shared_game / "x.pdf").exists()


def test_a_text_yaml_without_read_permission_is_hk012_at_it(shared_game: Path) -> None:
    for p in [shared_game, *shared_game.rglob("*")]:
        os.chmod(p, 0o755 if p.is_dir() else 0o644)
    os.chmod(shared_game / "templates" / "text.yaml", 0)
    proc = run_unprivileged("validate", str(shared_game), "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert problems(proc) == [("HK012", "text.yaml", 1, 1)]


def test_a_quantity_written_as_a_decimal_counts_as_that_many(new_game: Path) -> None:
    """JSON Schema takes 10.0 as the integer 10, and so do print-and-play and the rules; the piece
    count against the manifest's 'expected' must too (it counted one copy: a false HK204)."""
    cards = new_game / "cards.yaml"
    cards.write_text(cards.read_text().replace("quantity: 10", "quantity: 10.0"))
    proc = run_cli("validate", str(new_game), "--format", "json")
    assert proc.returncode == 0, proc.stdout
    cards.write_text(cards.read_text().replace("quantity: 10.0", "quantity: 9.0"))
    proc = run_cli("validate", str(new_game), "--format", "json")
    assert problems(proc) == [("HK204", "game.yaml", 16, 15)]
    assert "'card' has 15 pieces" in proc.stdout


def test_an_absurd_quantity_is_refused_even_when_the_schema_allows_it(new_game: Path) -> None:
    """A game's own schema may set no maximum; 100,000,000 copies would print for hours."""
    schema = new_game / "schemas" / "cards.schema.json"
    data = json.loads(schema.read_text())
    quantity = data["$defs"]["card"]["properties"]["quantity"]
    del quantity["maximum"]
    schema.write_text(json.dumps(data))
    cards = new_game / "cards.yaml"
    cards.write_text(cards.read_text().replace("quantity: 10", "quantity: 100000000"))
    out = new_game / "p.pdf"
    out.write_bytes(b"%PDF-1.4 earlier\n")
    proc = run_cli("pnp", str(new_game), "-o", str(out))
    assert proc.returncode == 1
    assert "cards.yaml:7:15: error HK108: quantity 100,000,000 is more than the 1,000 copies" in proc.stdout
    assert "HK204" not in proc.stdout
    assert out.read_bytes() == b"%PDF-1.4 earlier\n"


def test_a_huge_text_value_is_refused_at_the_box_that_prints_it(new_game: Path) -> None:
    """A name of 300,000 characters (the game's schema sets no maxLength) met the 20,000-character
    limit of a template only when Jinja rendered it; printed as plain '{{ name }}' it was laid
    out at every font size, word by word (minutes for a few MB). Now it is HK403 at the box."""
    schema = new_game / "schemas" / "cards.schema.json"
    data = json.loads(schema.read_text())
    del data["$defs"]["card"]["properties"]["name"]["maxLength"]
    schema.write_text(json.dumps(data))
    cards = new_game / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Stride", "name: " + "x w" * 100_000))
    proc = run_cli("validate", str(new_game), "--format", "json")
    assert proc.returncode == 1
    (d,) = [d for d in json.loads(proc.stdout) if d["severity"] == "error"]
    assert (d["code"], Path(d["file"]).name) == ("HK403", "layouts.yaml")
    assert "template produced 300000 characters (more than 20000)" in d["message"]
    assert "card 'stride'" in d["message"]


@pytest.mark.parametrize("value, shown", [(".inf", "Infinity"), ("-.inf", "-Infinity"), ("1e400", "Infinity")])
def test_an_infinite_number_is_one_error_not_also_out_of_range(new_game: Path, value: str, shown: str) -> None:
    cards = new_game / "cards.yaml"
    cards.write_text(cards.read_text().replace("steps: 1", f"steps: {value}", 1))
    proc = run_cli("validate", str(new_game), "--format", "json")
    assert problems(proc) == [("HK102", "cards.yaml", 8, 12)]
    assert f"expected an integer, got number {shown}" in proc.stdout


def test_schema_for_keeps_a_byte_order_mark_first_when_it_adds_the_editors_schema_line(tmp_path: Path) -> None:
    """A file saved with a byte order mark stays readable after `schema --for` names its schema in it."""
    assert run_cli("new", "fungus-wars", cwd=tmp_path).returncode == 0
    game = tmp_path / "content" / "fungus-wars"
    spores = game / "spores.yaml"
    spores.write_bytes(b"\xef\xbb\xbfkind: spore\nitems:\n  - {id: red-spore, name: Red Spore, quantity: 4, power: 2}\n")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "  spore:\n    file: spores.yaml\n    expected: 4\n")
    proc = run_cli("schema", "--for", "fungus-wars", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    raw = spores.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf# yaml-language-server: $schema=schemas/spores.schema.json\nkind: spore\n"), raw[:80]
    assert raw.count(b"\xef\xbb\xbf") == 1
    assert manifest.read_text().count("schema: spores.schema.json") == 1  # written by schema --for
    proc = run_cli("validate", cwd=tmp_path)
    assert proc.returncode == 0 and ": error " not in proc.stdout, proc.stdout
