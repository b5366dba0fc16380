"""`hordekit pnp` and `hordekit preview`: print-and-play PDFs and single-component PNGs.

Registered by toolkit.cli through ``register(app)``. ReportLab, pypdfium2 and the content
loader are imported inside the commands, so `hordekit --help` stays instant.
"""

from __future__ import annotations

import math
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from toolkit.cliutil import GAME_HELP, OutputFormat, game_folder, say, usage_error


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


class Backs(str, Enum):
    duplex_long = "duplex-long"
    duplex_short = "duplex-short"
    separate = "separate"
    none = "none"


def _load(game: str | None, format: OutputFormat = OutputFormat.text) -> Any:
    from toolkit.diagnostics import FORMATTERS
    from toolkit.games import load_game

    loaded = load_game(game_folder(game))
    if not loaded.ok or loaded.game is None:
        errors = [d for d in loaded.diagnostics if d.severity.value == "error"]
        typer.echo(FORMATTERS[format.value](errors), err=False)
        typer.echo(f"{len(errors)} content error(s): nothing printed (run hordekit validate)", err=True)
        raise typer.Exit(1)
    return loaded


def _check_ids(loaded: Any, ids: list[str], option: str = "--only") -> set[str]:
    from toolkit.diagnostics import did_you_mean
    from toolkit.pnp.layoutfile import read_layouts

    known = set(loaded.sources)
    layouts, _ = read_layouts(loaded.game.templates_dir)
    if layouts is not None:
        known |= set(layouts.extras) | set(layouts.boards) | ({"board"} if layouts.boards else set())
    wanted: set[str] = set()
    for raw in ids:
        for one in raw.split(","):
            one = one.strip()
            if not one:
                continue
            if one not in known:
                hint = did_you_mean(one, sorted(known))
                usage_error(f"no component with id '{one}' in {loaded.game.id}{'; ' + hint if hint else ''}")
            wanted.add(one)
    if not wanted:
        usage_error(f"{option} names no component (got {', '.join(map(repr, ids))}); give ids such as "
                    f"{', '.join(sorted(loaded.sources)[:2])}")
    return wanted


def _offset(text: str | None) -> tuple[float, float]:
    """``--back-offset 0.8,-1.2`` as millimetres; anything else is a usage error."""
    if not text:
        return (0.0, 0.0)
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        usage_error(f"--back-offset takes two numbers of millimetres, X,Y (e.g. 0.8,-1.2), not '{text}'")
    if not (math.isfinite(x) and math.isfinite(y)):
        usage_error(f"--back-offset takes two numbers of millimetres, X,Y (e.g. 0.8,-1.2), not '{text}'")
    if abs(x) > 20 or abs(y) > 20:
        usage_error("--back-offset is limited to 20 mm each way")
    return (x, y)


def pnp(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size (A4 or US letter).", case_sensitive=False)] = Paper.a4,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="PDF to write. Default: out/<game>/print-and-play.pdf")] = None,
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Print only these component ids (repeat, or separate with commas).")] = None,
    backs: Annotated[Backs, typer.Option("--backs", help="duplex-long / duplex-short: a back sheet after each front sheet, mirrored for that flip; separate: all back sheets at the end; none: no backs.")] = Backs.duplex_long,
    bleed: Annotated[float, typer.Option("--bleed", help="Bleed around every piece, in mm.", min=0.0, max=10.0)] = 3.0,
    crop_marks: Annotated[bool, typer.Option("--crop-marks/--no-crop-marks", help="Draw crop marks at the trim lines.")] = True,
    changed_since: Annotated[Optional[str], typer.Option("--changed-since", metavar="GIT_REF", help="Only the pieces whose printed appearance changed since this git commit: the reprint sheet after a tweak.")] = None,
    back_offset: Annotated[Optional[str], typer.Option("--back-offset", metavar="X,Y", help="Shift every back by X,Y mm (as read on the calibration page's back) to undo a printer's duplex misalignment.")] = None,
    calibration: Annotated[bool, typer.Option("--calibration", help="Write a two-page calibration sheet instead (default out/<game>/calibration.pdf): checks the printer's scale and measures its duplex offset.")] = False,
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="How to print problems (text, json, github).")] = OutputFormat.text,
) -> None:
    """Write a print-and-play PDF of a game: every piece with bleed, crop marks and duplex backs.

    Exit code 0 when written (warnings such as text overflows are printed), 1 for content
    errors (nothing is written and the previous PDF is kept), 2 for usage errors.
    """
    from toolkit.gcpause import collector_paused

    with collector_paused(freeze=True):  # one game, then the process ends: see toolkit.gcpause
        _pnp(game, paper, output, only, backs, bleed, crop_marks, changed_since, back_offset, calibration, format)


def _pnp(game: str | None, paper: Paper, output: Path | None, only: list[str] | None, backs: Backs, bleed: float,
         crop_marks: bool, changed_since: str | None, back_offset: str | None, calibration: bool,
         format: OutputFormat) -> None:
    from toolkit.diagnostics import FORMATTERS, collapse_repeats, summary
    from toolkit.paths import display
    from toolkit.outpaths import check_output_file, default_label
    from toolkit.pnp import build_pdf, default_output

    if output is not None:
        check_output_file(output)  # before any work
    offset = _offset(back_offset)
    loaded = _load(game, format)
    no_problems = "[]" if format is OutputFormat.json else None  # JSON on standard output, whatever happens
    if calibration:
        from toolkit.pnp.calibration import write_calibration

        target = output or default_output(loaded.game.id).with_name("calibration.pdf")
        if output is None:
            check_output_file(target, default_label(target, "-o"))
        write_calibration(target, paper=paper.value, backs=backs.value, title=loaded.game.title)
        say(f"{display(target)}: 2 pages (print both sides at 100%, then read the back's scales)", err=True)
        if no_problems:
            typer.echo(no_problems)
        return
    wanted = _check_ids(loaded, only) if only else None
    if changed_since:
        from toolkit.pnp.changes import ChangeError, changed_ids

        try:
            changed = changed_ids(loaded, changed_since)
        except ChangeError as exc:
            usage_error(str(exc))
        wanted = changed if wanted is None else wanted & changed
        if not wanted:
            typer.echo(f"nothing changed since {changed_since}: no PDF written", err=True)
            if no_problems:
                typer.echo(no_problems)
            raise typer.Exit(0)
        typer.echo(f"{len(wanted)} component(s) changed since {changed_since}: {', '.join(sorted(wanted))}", err=True)
    target = output or check_output_file(default_output(loaded.game.id), default_label(default_output(loaded.game.id), "-o"))
    total = sum(loaded.counts().values())
    show = sys.stderr.isatty()
    if show:
        with typer.progressbar(length=max(total, 1), label=f"printing {loaded.game.id}", file=sys.stderr) as bar:
            report = build_pdf(loaded, target, paper=paper.value, bleed=bleed, backs=backs.value,
                               crop_marks=crop_marks, only=wanted, progress=bar.update, back_offset=offset)
            bar.update(max(bar.length - bar.pos, 0))  # dice and other bought pieces are not drawn
    else:
        report = build_pdf(loaded, target, paper=paper.value, bleed=bleed, backs=backs.value,
                           crop_marks=crop_marks, only=wanted, back_offset=offset)
    if report.diagnostics:
        typer.echo(FORMATTERS[format.value](collapse_repeats(report.diagnostics)))
    elif no_problems:
        typer.echo(no_problems)
    for note in report.notes:
        say(f"note: {note}", err=True)
    if not report.ok:
        typer.echo(f"{loaded.game.id}: not printed ({summary(report.diagnostics)}); "
                   f"{display(target)} is unchanged", err=True)
        raise typer.Exit(1)
    pieces = sum(report.faces.values())
    say(f"{display(target)}: {report.pages} pages, {pieces} pieces, {report.bytes / 1024:.0f} KiB"
        f" ({summary(report.diagnostics)})", err=True)


def preview(
    game: Annotated[str, typer.Argument(help="A game id under ./content, or a game folder.")],
    component: Annotated[str, typer.Argument(metavar="ID", help="The id of the component (or extra) to show.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG file to write.")] = Path("preview.png"),
    dpi: Annotated[int, typer.Option("--dpi", help="Resolution.", min=30, max=1200)] = 300,
    back: Annotated[bool, typer.Option("--back", help="Show the back instead of the front.")] = False,
    bleed: Annotated[float, typer.Option("--bleed", help="Bleed shown around the piece, in mm.", min=0.0, max=10.0)] = 3.0,
    safe: Annotated[bool, typer.Option("--safe", help="Draw the trim line (red) and the safe zone (dashed blue) over it.")] = False,
) -> None:
    """Render one component (front or back, with its bleed) to a PNG, for a quick look."""
    from toolkit.diagnostics import format_text
    from toolkit.outpaths import check_output_file
    from toolkit.pnp.preview import render_preview

    if output.suffix.lower() != ".png":
        usage_error(f"{output}: preview writes a PNG image; name the file with .png")
    check_output_file(output)  # before any work
    loaded = _load(game)
    _check_ids(loaded, [component], "ID")
    result = render_preview(loaded, component, output, dpi=dpi, back=back, bleed=bleed, safe=safe)
    if result.diagnostics:
        typer.echo(format_text(result.diagnostics))
    if not result.ok:
        raise typer.Exit(1)
    typer.echo(f"{output}: {result.width} × {result.height} px", err=True)


def register(app: typer.Typer) -> None:
    app.command(name="pnp")(pnp)
    app.command(name="preview")(preview)
