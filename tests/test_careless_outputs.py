"""Outputs a careless designer gets wrong: `out` that is a file, an --out-dir that is a file, a
folder where a file belongs. Every command checks where it will write before any work, and
names the option to change (or the default it used), never crashing half-way."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli


from test_careless_options import new_game, refused  # noqa: F401  (the fixture and the check they share)


@pytest.mark.parametrize("args, default, option", [
    (["export", "png"], "out/cards/png", "-d"),
    (["export", "tts"], "out/cards/tts", "-d"),
    (["export", "pieces"], "out/cards/pieces.pdf", "-o"),
    (["pnp", "--calibration"], "out/cards/calibration.pdf", "-o"),
    (["pnp"], "out/cards/print-and-play.pdf", "-o"),
    (["smoke", "-n", "2"], "out/cards", "-d"),
    (["build", "-n", "2"], "out", "-d"),
])
def test_out_that_is_a_file_is_refused_naming_the_default_and_its_option(new_game: Path, tmp_path: Path,
                                                                           args: list[str], default: str,
                                                                           option: str) -> None:
    here = tmp_path / "here"
    here.mkdir()
    (here / "out").write_text("not a folder")
    line = refused(run_cli(*args[:2 if args[0] == "export" else 1], str(new_game),
                           *args[2 if args[0] == "export" else 1:], cwd=here))
    assert line == f"error: {default} (the default; choose another with {option}): out is a file" + (
        "; give a folder" if args[0] == "build" else ", not a folder")
    assert (here / "out").read_text() == "not a folder"


@pytest.mark.parametrize("args", [
    ["export", "png", "-d", "{file}"],
    ["export", "tts", "-d", "{file}/sub"],
    ["export", "pieces", "-o", "{folder}"],
    ["smoke", "-n", "2", "-d", "{file}"],
])
def test_an_output_option_of_the_wrong_kind_is_refused_by_its_own_name(new_game: Path, tmp_path: Path,
                                                                        args: list[str]) -> None:
    (tmp_path / "a-file").write_text("x")
    cmd = [a.format(file=tmp_path / "a-file", folder=tmp_path) for a in args]
    split = 2 if cmd[0] == "export" else 1
    line = refused(run_cli(*cmd[:split], str(new_game), *cmd[split:]))
    option = "--output" if "-o" in cmd else "--out-dir"
    assert line.startswith(f"error: {option}: ")
    assert (tmp_path / "a-file").read_text() == "x"
