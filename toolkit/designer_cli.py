"""Commands for a designer's own game: `new`, `import csv` and `watch`.

Registered by toolkit.cli through ``register(app)``; the work lives in toolkit.scaffold,
toolkit.importcsv and toolkit.watch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from toolkit.cliutil import GAME_HELP, OutputFormat, game_folder, only_local_game, say, usage_error


def _shipped_ids() -> list[str]:
    from toolkit.scaffold import shipped_games

    return list(shipped_games())


def new(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The new game's id (it goes to ./content/GAME) or a folder path.")],
    source: Annotated[str, typer.Option("--from", metavar="SOURCE", help="What to start from: minimal (one kind, two cards, a small rules file) or the id of a game that comes with hordekit: " + ", ".join(_shipped_ids()) + ".")] = "minimal",
    title: Annotated[Optional[str], typer.Option("--title", metavar="TEXT", help="The game's title. Default: from its id.")] = None,
) -> None:
    """Create a game folder that validates, prints and plays at once.

    Writes the manifest, component files, their schemas, print layouts, card-text templates, a
    scenario and a README; with --from minimal also a small rules file (rules.py) the bots play.
    Nothing is written when the folder already exists and is not empty (exit 2).
    """
    from toolkit.paths import display
    from toolkit.scaffold import ID_PATTERN, ScaffoldError, create_game, id_from_title, target_folder

    if not game.strip():
        usage_error("the new game needs a name, such as `hordekit new fungus-wars`")
    folder = target_folder(game)
    if folder.parent == Path("content") and not ID_PATTERN.match(game) and id_from_title(game):
        title = title or game  # a title typed as the name: its id is made from it
        folder = target_folder(id_from_title(game))
    try:
        made = create_game(folder, source, title)
    except ScaffoldError as exc:
        usage_error(str(exc))
    say(f"created {display(made.folder)} from {made.source} ({len(made.files)} files), title '{made.title}'")
    name = made.folder.name if made.folder.parent == Path("content") else display(made.folder)
    say(f"next: hordekit validate {display(made.folder)}; hordekit pnp {name}; hordekit smoke {name}")


def import_csv(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The spreadsheet exported as CSV (first row: column names).")],
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="The component kind the rows are.")],
    game: Annotated[Optional[str], typer.Option("--game", metavar="GAME", help="The game the kind belongs to: its schema gives the types and its manifest the file to write. Default: the game here or the only game under ./content.")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help="Component file to write. Default: the kind's file in the game's manifest.")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="How to print problems.")] = OutputFormat.text,
) -> None:
    """Turn a spreadsheet export (CSV) into a component file.

    Each column becomes a field: names match the schema's fields (case, spaces, '-' and '_'
    do not matter), 'a.b' columns become nested fields, and cells of list or mapping fields are
    read as YAML ('[{kind: draw, amount: 1}]'). Types come from the kind's schema, or are
    inferred (integer, number, true/false, text). Empty cells are left out. Every row that does
    not fit is reported as file:line:col and nothing is written (exit 1).
    """
    from toolkit.diagnostics import FORMATTERS
    from toolkit.importcsv import import_csv as convert
    from toolkit.paths import display

    if not file.is_file():
        usage_error(f"no such file: {file}")
    game_dir = game_folder(game) if game else only_local_game()
    result = convert(file, kind, game_dir, output)
    if result.problem:
        usage_error(result.problem)
    if result.diagnostics:
        typer.echo(FORMATTERS[format.value](result.diagnostics))
        say(f"{display(file)}: {len(result.diagnostics)} problem(s); nothing written", err=True)
        raise typer.Exit(1)
    if format is OutputFormat.json:
        typer.echo("[]")  # standard output holds JSON alone: the problems, none here
    say(f"{display(result.output)}: {result.items} {kind} item(s) from {display(file)}"
        f" ({result.types_from})", err=format is OutputFormat.json)


def watch(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help="PDF to keep up to date. Default: out/<game>/print-and-play.pdf.")] = None,
    interval: Annotated[float, typer.Option("--interval", min=0.1, max=60.0, metavar="SECONDS", help="How often to look for changes.")] = 0.5,
    stop_after: Annotated[Optional[float], typer.Option("--stop-after", min=0.0, metavar="SECONDS", help="Stop by itself after this long (for scripts and tests).")] = None,
    previews: Annotated[bool, typer.Option("--previews/--no-previews", help="Also write a PNG of each changed piece into out/<game>/preview/.")] = True,
) -> None:
    """Re-validate and re-print a game whenever one of its files changes; Ctrl-C stops.

    Watches the manifest, component files, schemas, layouts, text templates and the rules file.
    After each change it prints only what changed: problems that appeared or were fixed, the
    pieces whose data changed (with a preview PNG of each), and the PDF it rewrote.
    """
    from toolkit.watch import Watcher

    if output is not None and output.is_dir():
        usage_error(f"--output {output} is a folder; give the PDF's file name")
    watcher = Watcher(game_folder(game), output=output, previews=previews)
    try:
        watcher.run(interval=interval, stop_after=stop_after)
    except KeyboardInterrupt:
        pass
    say("stopped watching")


def register(app: typer.Typer) -> None:
    app.command()(new)
    app.command()(watch)
    importer = typer.Typer(help="Turn other formats into component files.", no_args_is_help=True)
    importer.command(name="csv")(import_csv)
    app.add_typer(importer, name="import")
