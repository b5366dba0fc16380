"""`hordekit export png|tts|pieces GAME`: files for print shops and Tabletop Simulator.

Registered by toolkit.cli through ``register(app)``; ReportLab, pypdfium2 and Pillow are imported
inside the commands so `hordekit --help` stays instant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from toolkit.cliutil import GAME_HELP, say
from toolkit.pnp_cli import _load

export_app = typer.Typer(help="Export pieces as images or files for print shops and Tabletop Simulator.",
                         no_args_is_help=True)


def _export(game: str | None, output: Optional[Path], default: str, what: str, run: Callable[[Any, Path], Any],
            option: str = "--out-dir") -> None:
    """Load the game, run one export into ``output`` (or out/<game>/<default>) and report it.

    ``option`` is the option naming the output: --out-dir (a folder) or --output (a file); either
    is checked before any work, like every command's outputs."""
    from toolkit.diagnostics import format_text, summary
    from toolkit.outpaths import check_output_dir, check_output_file, default_label
    from toolkit.paths import display

    check = check_output_file if option == "--output" else check_output_dir
    if output is not None:
        check(output, option)
    loaded = _load(game)
    target = output or Path("out") / loaded.game.id / default
    if output is None:
        check(target, default_label(target, "-o" if option == "--output" else "-d"))
    result = run(loaded, target)
    diags = result.diagnostics
    if diags:
        typer.echo(format_text(diags))
    if not result.ok:
        typer.echo(f"nothing exported ({summary(diags)})", err=True)
        raise typer.Exit(1)
    say(f"{display(target)}: {len(result.files)} {what} ({summary(diags)})", err=True)


@export_app.command("png")
def png(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    output: Annotated[Optional[Path], typer.Option("--out-dir", "-d", metavar="FOLDER", help="Folder. Default: out/<game>/png")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=72, max=1200, help="Resolution.")] = 300,
    bleed: Annotated[float, typer.Option("--bleed", min=0.0, max=10.0, help="Bleed in mm for the with-bleed images.")] = 3.0,
) -> None:
    """Every piece as its own PNG (front and back, with and without bleed), for print-shop uploads."""
    from toolkit.export import export_png

    _export(game, output, "png", "PNG files", lambda loaded, target: export_png(loaded, target, dpi=dpi, bleed=bleed))


@export_app.command("tts")
def tts(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    output: Annotated[Optional[Path], typer.Option("--out-dir", "-d", metavar="FOLDER", help="Folder. Default: out/<game>/tts")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=50, max=300, help="Resolution of the deck sheets.")] = 150,
) -> None:
    """Tabletop Simulator deck sheets (up to 10 x 7), back images and a saved-object JSON."""
    from toolkit.export import export_tts

    _export(game, output, "tts", "files (copy the .json into Tabletop Simulator's Saved Objects folder)",
            lambda loaded, target: export_tts(loaded, target, dpi=dpi))


@export_app.command("pieces")
def pieces(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help="PDF. Default: out/<game>/pieces.pdf")] = None,
    bleed: Annotated[float, typer.Option("--bleed", min=0.0, max=10.0, help="Bleed in mm.")] = 3.0,
    cmyk: Annotated[bool, typer.Option("--cmyk", help="Every colour and image in CMYK (black as black ink only), for shops that ask for CMYK files.")] = False,
) -> None:
    """One piece per page (front, then back) with TrimBox and BleedBox set, for print shops."""
    from toolkit.export import pieces_pdf

    _export(game, output, "pieces.pdf", "file",
            lambda loaded, target: pieces_pdf(loaded, target, bleed=bleed, cmyk=cmyk), option="--output")


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
