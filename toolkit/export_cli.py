"""`hordekit export png|tts|pieces GAME`: files for print shops and Tabletop Simulator.

Registered by toolkit.cli through ``register(app)``; ReportLab, pypdfium2 and Pillow are imported
inside the commands so `hordekit --help` stays instant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from toolkit.pnp_cli import _load

export_app = typer.Typer(help="Export pieces as images or files for print shops and Tabletop Simulator.",
                         no_args_is_help=True)


def _finish(result: object, what: str, target: Path) -> None:
    from toolkit.diagnostics import format_text, summary
    from toolkit.paths import display

    diags = result.diagnostics  # type: ignore[attr-defined]
    if diags:
        typer.echo(format_text(diags))
    if not result.ok:  # type: ignore[attr-defined]
        typer.echo(f"nothing exported ({summary(diags)})", err=True)
        raise typer.Exit(1)
    files = result.files  # type: ignore[attr-defined]
    typer.echo(f"{display(target)}: {len(files)} {what} ({summary(diags)})", err=True)


@export_app.command("png")
def png(
    game: Annotated[str, typer.Argument(help="A game id under ./content, or a game folder.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Folder. Default: out/<game>/png")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=72, max=1200, help="Resolution.")] = 300,
    bleed: Annotated[float, typer.Option("--bleed", min=0.0, max=10.0, help="Bleed in mm for the with-bleed images.")] = 3.0,
) -> None:
    """Every piece as its own PNG (front and back, with and without bleed), for print-shop uploads."""
    from toolkit.export import export_png

    loaded = _load(game)
    target = output or Path("out") / loaded.game.id / "png"
    _finish(export_png(loaded, target, dpi=dpi, bleed=bleed), "PNG files", target)


@export_app.command("tts")
def tts(
    game: Annotated[str, typer.Argument(help="A game id under ./content, or a game folder.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Folder. Default: out/<game>/tts")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=50, max=300, help="Resolution of the deck sheets.")] = 150,
) -> None:
    """Tabletop Simulator deck sheets (up to 10 x 7), back images and a saved-object JSON."""
    from toolkit.export import export_tts

    loaded = _load(game)
    target = output or Path("out") / loaded.game.id / "tts"
    _finish(export_tts(loaded, target, dpi=dpi), "files (copy the .json into Tabletop Simulator's Saved Objects folder)",
            target)


@export_app.command("pieces")
def pieces(
    game: Annotated[str, typer.Argument(help="A game id under ./content, or a game folder.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="PDF. Default: out/<game>/pieces.pdf")] = None,
    bleed: Annotated[float, typer.Option("--bleed", min=0.0, max=10.0, help="Bleed in mm.")] = 3.0,
) -> None:
    """One piece per page (front, then back) with TrimBox and BleedBox set, for print shops."""
    from toolkit.export import pieces_pdf

    loaded = _load(game)
    target = output or Path("out") / loaded.game.id / "pieces.pdf"
    _finish(pieces_pdf(loaded, target, bleed=bleed), "file", target)


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
