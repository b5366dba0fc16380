"""Start-up: each command imports what it needs when it needs it (issue "Performance at scale",
section Start-up), and the caches that make printing quick never change what is printed.

Every run is a real `python -m toolkit` process; which modules it imported is read from Python's
own ``-X importtime`` report, so nothing in hordekit has to cooperate with the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CONTENT, ROOT

pypdf = pytest.importorskip("pypdf")

#: Libraries `hordekit pnp GAME` has no use for on valid content: pydantic (Typer's option
#: conversion), jsonschema and referencing (only the detailed pass on invalid content), SVG art,
#: PDF rasterising (preview), schema inference (schema --for), process pools (smoke, Dask).
NOT_FOR_PNP = ("pydantic", "pydantic_core", "jsonschema", "referencing", "svglib", "pypdfium2", "genson",
               "dask", "distributed", "multiprocessing", "concurrent")
#: What `hordekit --help` must not pay for: everything heavy lives inside the commands.
NOT_FOR_HELP = NOT_FOR_PNP + ("reportlab", "jinja2", "ruamel", "jsonschema_rs", "engine", "PIL")
PRINTED_GAMES = sorted(p.parent.name for p in (ROOT / "templates").glob("*/layouts.yaml")
                       if (CONTENT / p.parent.name / "game.yaml").is_file())
_IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.M)


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the CLI in a fresh process; (the process, the top-level packages it imported)."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", **(env or {}))
    full_env.pop("HORDEKIT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "toolkit", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc, {name.split(".")[0] for name in _IMPORTED.findall(proc.stderr)}


def _problems(proc: subprocess.CompletedProcess[str]) -> str:
    return "\n".join(line for line in proc.stderr.splitlines() if not line.startswith("import time:"))


def _page_streams(pdf: Path) -> list[bytes]:
    """What each page draws, and what each placed form draws: the drawn content, byte for byte."""
    reader = pypdf.PdfReader(pdf)
    out = [page.get_contents().get_data() for page in reader.pages]
    forms = {}
    for page in reader.pages:
        for name, ref in (page["/Resources"].get("/XObject") or {}).items():
            forms[name] = ref.get_object().get_data()
    return out + [forms[k] for k in sorted(forms)]


def test_games_with_print_layouts_are_found() -> None:
    assert len(PRINTED_GAMES) >= 4, PRINTED_GAMES


@pytest.mark.parametrize("game", PRINTED_GAMES)
def test_pnp_of_a_game_imports_only_what_printing_needs(game: str, tmp_path: Path) -> None:
    pdf = tmp_path / f"{game}.pdf"
    proc, imported = _run("pnp", game, "-o", str(pdf))
    assert proc.returncode == 0, _problems(proc)
    assert pdf.is_file() and len(pypdf.PdfReader(pdf).pages) > 0
    assert {"reportlab", "jinja2", "toolkit"} <= imported  # the report is read correctly
    assert not imported & set(NOT_FOR_PNP), sorted(imported & set(NOT_FOR_PNP))


def test_help_imports_no_heavy_library() -> None:
    proc, imported = _run("--help")
    assert proc.returncode == 0 and "pnp" in proc.stdout
    assert "typer" in imported
    assert not imported & set(NOT_FOR_HELP), sorted(imported & set(NOT_FOR_HELP))


def test_every_kind_of_option_converts_without_pydantic(tmp_path: Path) -> None:
    """A choice, a number with a range, a list, a flag and a path, all given on one command line."""
    game = PRINTED_GAMES[0]
    pdf = tmp_path / "letter.pdf"
    first_id = _first_component(game)
    proc, imported = _run("pnp", game, "--paper", "letter", "--backs", "none", "--bleed", "2.5",
                          "--only", first_id, "--no-crop-marks", "-o", str(pdf))
    assert proc.returncode == 0, _problems(proc)
    page = pypdf.PdfReader(pdf).pages[0]
    assert round(float(page.mediabox.width)) == 612 and round(float(page.mediabox.height)) == 792  # letter
    assert "pydantic" not in imported


@pytest.mark.parametrize(("args", "message"), [
    (("--bleed", "20"), "Invalid value for '--bleed': 20 is greater than the maximum of 10"),
    (("--bleed", "-1"), "Invalid value for '--bleed': -1 is less than the minimum of 0"),
    (("--bleed", "wide"), "Invalid value for '--bleed': 'wide' is not a number"),
    (("--bleed", "nan"), "Invalid value for '--bleed': 'nan' is not a number"),
    (("--paper", "b5"), "Invalid value for '--paper': 'b5' is not one of 'a4', 'letter'."),
])
def test_a_bad_option_value_is_a_usage_error_naming_the_option(args: tuple[str, ...], message: str,
                                                               tmp_path: Path) -> None:
    proc, imported = _run("pnp", PRINTED_GAMES[0], *args, "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2
    assert message in _problems(proc)
    assert not (tmp_path / "x.pdf").exists()
    assert "pydantic" not in imported


def test_a_whole_number_option_refuses_a_word(tmp_path: Path) -> None:
    proc, _ = _run("build", "--shipped", "-n", "many", "-d", str(tmp_path))
    assert proc.returncode == 2
    assert "Invalid value for '--games' / '-n': 'many' is not a whole number" in _problems(proc)


def test_the_template_cache_never_changes_the_pdf(tmp_path: Path) -> None:
    """Compiled text templates are kept between runs; a run that compiles them (no cache, or a
    cold one) and a run that reads them back draw the same pages and pieces."""
    game = "dice-battles" if "dice-battles" in PRINTED_GAMES else PRINTED_GAMES[0]  # the most templates
    cache_home = tmp_path / "tmp"
    cache_home.mkdir()
    runs = {"uncached": {"HORDEKIT_NO_CACHE": "1"}, "cold": {"TMPDIR": str(cache_home)},
            "warm": {"TMPDIR": str(cache_home)}}
    streams = {}
    for name, env in runs.items():
        pdf = tmp_path / f"{name}.pdf"
        proc, _ = _run("pnp", game, "-o", str(pdf), env=env)
        assert proc.returncode == 0, _problems(proc)
        streams[name] = _page_streams(pdf)
        if name == "cold":
            assert list(cache_home.glob("_jinja2-cache-*/hordekit-*.cache")), "the cold run filled the cache"
    assert streams["uncached"] == streams["cold"] == streams["warm"]


def _first_component(game: str) -> str:
    from toolkit.games import load_game

    return sorted(load_game(CONTENT / game).sources)[0]


@pytest.mark.parametrize("source", [
    "{{ cost }} coins",
    "{{ item.cost }} {{ item['name'] }}",
    "{% for s in xs %}{{ s }}{% endfor %}/{{ s }}",  # the loop variable shadows a context name
    "{% macro m(v) %}{{ v }}{{ tail }}{% endmacro %}{{ m(1) }}",  # read inside a macro
    "{% if flag %}{{ a }}{% else %}{{ b }}{% endif %}",
])
def test_rendered_text_is_shared_only_between_pieces_that_read_the_same_values(source: str, tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces share a rendered text when every value the template reads is equal; a template
    read back from the bytecode cache (second Templates) keeps that rule."""
    import tempfile

    from toolkit.pnp import templating
    from toolkit.pnp.templating import Templates, Where

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    templating._bytecode_cache.cache_clear()
    contexts = [
        {"cost": 1, "item": {"cost": 1, "name": "a"}, "xs": [1], "s": "x", "tail": "!", "flag": True, "a": 1, "b": 2},
        {"cost": 2, "item": {"cost": 1, "name": "b"}, "xs": [1], "s": "y", "tail": "?", "flag": False, "a": 1, "b": 3},
        {"cost": "2", "item": {"cost": "1", "name": "a"}, "xs": [2], "s": "x", "tail": "!", "flag": True, "a": 4, "b": 2},
    ]
    where = Where("layouts.yaml", 1)
    try:
        for _ in range(2):  # compiled, then read back from the cache
            templates = Templates({}, {})
            cached = [templates.render(source, where, dict(ctx)) for ctx in contexts + contexts]
            fresh = [Templates({}, {}).env.from_string(source).render(ctx) for ctx in contexts + contexts]
            assert cached == fresh
        assert list(tmp_path.glob("_jinja2-cache-*/hordekit-*.cache"))
    finally:
        templating._bytecode_cache.cache_clear()


def test_a_run_naming_one_command_still_knows_every_other_one() -> None:
    """A run builds only the command it names; help, typos and groups still see all of them."""
    listing, _ = _run("--help")
    assert all(name in listing.stdout for name in ("validate", "smoke", "pnp", "preview", "export", "import"))
    typo, _ = _run("pnpp", "kingdoms")
    assert typo.returncode == 2 and "No such command 'pnpp'. Did you mean 'pnp'?" in _problems(typo)
    group, _ = _run("-q", "export", "png", "--help")
    assert group.returncode == 0 and "export png [OPTIONS] [GAME]" in group.stdout
    command, _ = _run("pnp", "--help")
    assert command.returncode == 0 and "pnp [OPTIONS] [GAME]" in command.stdout


def test_a_damaged_template_cache_is_compiled_again(tmp_path: Path) -> None:
    game = PRINTED_GAMES[0]
    cache_home = tmp_path / "tmp"
    cache_home.mkdir()
    first, _ = _run("pnp", game, "-o", str(tmp_path / "first.pdf"), env={"TMPDIR": str(cache_home)})
    assert first.returncode == 0, _problems(first)
    files = sorted(cache_home.glob("_jinja2-cache-*/hordekit-*.cache"))
    assert files
    from jinja2.bccache import bc_magic

    for i, f in enumerate(files):  # cut short, emptied, or garbage after a valid header
        data = f.read_bytes()
        f.write_bytes(data[: len(data) // 2] if i % 3 == 0 else b"" if i % 3 == 1 else bc_magic + b"zzz")
    again, _ = _run("pnp", game, "-o", str(tmp_path / "again.pdf"), env={"TMPDIR": str(cache_home)})
    assert again.returncode == 0, _problems(again)
    assert _page_streams(tmp_path / "first.pdf") == _page_streams(tmp_path / "again.pdf")


def test_an_unchanged_content_file_is_read_back_and_an_edited_one_parsed_again(tmp_path: Path) -> None:
    """Files go into the content cache once read; a run that reads them back prints the very PDF
    a run without the cache prints, without loading the YAML parser, and an edited file prints
    its new text."""
    game = tmp_path / "kingdoms"
    shutil.copytree(CONTENT / "kingdoms", game)
    shutil.copytree(ROOT / "templates" / "kingdoms", game / "templates")
    cache = {"HORDEKIT_CACHE_DIR": str(tmp_path / "cache")}
    pdfs = {}
    parser_loaded = {}
    for name, env in (("cold", cache), ("warm", cache), ("uncached", {"HORDEKIT_NO_CACHE": "1"})):
        pdfs[name] = tmp_path / f"{name}.pdf"
        proc, _ = _run("pnp", str(game), "-o", str(pdfs[name]), env=env)
        assert proc.returncode == 0, _problems(proc)
        parser_loaded[name] = "ruamel.yaml" in _IMPORTED.findall(proc.stderr)
    assert len(list((tmp_path / "cache" / "yaml").glob("*.bin"))) == len(list(game.rglob("*.yaml")))
    assert pdfs["warm"].read_bytes() == pdfs["cold"].read_bytes() == pdfs["uncached"].read_bytes()
    assert parser_loaded == {"cold": True, "warm": False, "uncached": True}

    abilities = game / "abilities.yaml"
    text = abilities.read_text(encoding="utf-8")
    first_name = re.search(r"^    name: (.+)$", text, re.M)
    assert first_name is not None
    abilities.write_text(text.replace(first_name.group(0), "    name: Renamed Overnight", 1), encoding="utf-8")
    proc, _ = _run("pnp", str(game), "-o", str(tmp_path / "edited.pdf"), env=cache)
    assert proc.returncode == 0, _problems(proc)
    printed = "".join(page.extract_text() for page in pypdf.PdfReader(tmp_path / "edited.pdf").pages)
    assert "Renamed Overnight" in printed


@pytest.mark.parametrize("game", PRINTED_GAMES)
def test_work_remembered_from_a_first_use_prints_the_same_bytes(game: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Icons, the ruler and crop marks are drawn once per PDF and their operators copied after
    that, and each text's glyph subsets are worked out once: the PDF is byte for byte the one
    that does all of it again at every use."""
    from reportlab.pdfbase.pdfmetrics import getFont
    from reportlab.pdfbase.ttfonts import TTFont

    from toolkit.games import load_game
    from toolkit.pnp import build_pdf
    from toolkit.pnp.drawnonce import DrawnOnce
    from toolkit.pnp.fonts import FONTS, register_fonts

    calls = {"uses": 0, "drawn": 0}
    original = DrawnOnce.draw

    def counting(self: DrawnOnce, c: object, key: object, drawing: object) -> None:
        def counted() -> None:
            calls["drawn"] += 1
            drawing()  # type: ignore[operator]
        calls["uses"] += 1
        original(self, c, key, counted)

    monkeypatch.setattr(DrawnOnce, "draw", counting)
    remembered = build_pdf(load_game(CONTENT / game), tmp_path / "remembered.pdf")
    register_fonts()
    monkeypatch.setattr(DrawnOnce, "draw", lambda self, c, key, drawing: drawing())
    monkeypatch.setattr(type(getFont(FONTS["regular"])), "splitString", TTFont.splitString)
    every = build_pdf(load_game(CONTENT / game), tmp_path / "every.pdf")

    assert remembered.ok and every.ok
    assert calls["drawn"] < calls["uses"] / 2  # most uses were copies
    assert type(getFont(FONTS["regular"])) is not TTFont  # the fonts printed with remember their splits
    assert (tmp_path / "remembered.pdf").read_bytes() == (tmp_path / "every.pdf").read_bytes()


def test_commands_other_than_pnp_run_with_the_cycle_collector_on() -> None:
    """The collector is paused only while the command line starts (and by pnp for its one game):
    a long smoke run must still free its cycles."""
    probe = ("import gc, sys\nimport toolkit.cli as cli\n"
             "@cli.app.command('probe')\ndef probe() -> None:\n    print('collector', gc.isenabled())\n"
             "sys.argv = ['hordekit', 'probe']\ncli.main()\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "collector True"
