"""The `hordekit` command line.

Heavy libraries (jsonschema, ReportLab, the engines) are imported inside the commands that need
them, so that `hordekit --help` and shell completion stay instant.

Exit codes: 0 success, 1 content errors (or failed games), 2 usage errors.
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from toolkit.cliutil import usage_error

app = typer.Typer(
    name="hordekit",
    help="Validate, play-test and print board games whose components are kept as YAML.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"


def _game_dirs(paths: list[Path] | None) -> tuple[list[Path], list[Path]]:
    from toolkit.games import default_content_dir, find_game_dirs

    if not paths:
        paths = [default_content_dir()]
    for p in paths:
        if not p.exists():
            usage_error(f"no such file or folder: {p}")
    games, files = find_game_dirs(paths)
    if not games:
        usage_error(f"no game found in {', '.join(map(str, paths))} (a game is a folder with a game.yaml)")
    return games, files


@app.command()
def validate(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Game folders, folders of games, or single content files. Default: every game under ./content.")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="How to print problems.")] = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
) -> None:
    """Check content against its schemas and cross-file rules; report every problem at once.

    Also warns (HK401) where printed text would not fit its box on the print-and-play sheets.

    Writes nothing. Exit code 0 when clean, 1 when there are content errors (or warnings with
    --strict), 2 for usage errors.
    """
    from toolkit.diagnostics import FORMATTERS, Severity, summary
    from toolkit.games import load_game
    from toolkit.paths import display

    game_dirs, only_files = _game_dirs(paths)
    only = {display(f) for f in only_files}
    diags = []
    for gdir in game_dirs:
        loaded = load_game(gdir)
        if loaded.ok and loaded.game is not None and (loaded.game.templates_dir / "layouts.yaml").is_file():
            from toolkit.pnp import check_text_fit

            loaded.diagnostics += check_text_fit(loaded)  # text too long for its printed box: HK401
        found = [d for d in loaded.diagnostics if not only or d.file in only]
        diags.extend(found)
        if format is OutputFormat.text:
            if found:
                typer.echo(FORMATTERS["text"](found))
            typer.echo(f"{display(gdir)}: {'ok' if not found else summary(found)}")
    if format is not OutputFormat.text:
        typer.echo(FORMATTERS[format.value](diags) if diags else ("[]" if format is OutputFormat.json else ""))
    failed = any(d.severity is Severity.ERROR or strict for d in diags)
    raise typer.Exit(1 if failed else 0)


@app.command()
def games(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Where to look. Default: ./content.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: id, title, players and counts per game.")] = False,
) -> None:
    """List the games found, with their component counts (physical pieces, quantities included)."""
    from toolkit.games import load_game
    from toolkit.paths import display

    game_dirs, _ = _game_dirs(paths)
    rows = []
    for gdir in game_dirs:
        loaded = load_game(gdir)
        g = loaded.game
        rows.append({
            "id": g.id if g else gdir.name,
            "title": g.title if g else "",
            "path": display(gdir),
            "players": {"min": g.players[0], "max": g.players[1]} if g else None,
            "valid": loaded.ok,
            "fingerprint": loaded.fingerprint if loaded.ok else None,
            "counts": loaded.counts(),
        })
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        pieces = sum(row["counts"].values())
        players = row["players"]
        state = "" if row["valid"] else "  (has errors: run hordekit validate)"
        typer.echo(f"{row['id']}  {row['title']}  {players['min']}-{players['max']} players  "
                   f"{pieces} pieces{state}" if players else f"{row['id']}{state}")
        for kind, n in row["counts"].items():
            typer.echo(f"    {kind:<28} {n:>5}")


@app.command()
def schema(
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder to write the schemas into.")] = Path("schemas"),
) -> None:
    """Write hordekit's JSON Schemas into a folder, for editors (VS Code's YAML extension).

    Content files point at them with a first line such as
    `# yaml-language-server: $schema=../../schemas/<game>/<file>.schema.json`; the command also
    prints a `yaml.schemas` setting for editors that prefer one.
    """
    import shutil

    from toolkit.paths import data_dir, display

    source = data_dir("schemas")
    written = 0
    same = output.resolve() == source.resolve()
    for path in sorted(source.rglob("*.schema.json")):
        target = output / path.relative_to(source)
        if not same:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".tmp")
            shutil.copyfile(path, tmp)
            tmp.replace(target)
        written += 1
    verb = "are already in" if same else "written to"
    typer.echo(f"{written} schemas {verb} {display(output)}", err=True)
    mapping = {f"{display(output)}/manifest.schema.json": "content/*/game.yaml"}
    typer.echo(json.dumps({"yaml.schemas": mapping}, indent=2))


@app.command()
def build(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Games to build. Default: every game under ./content.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=0, help="Smoke games per game (0 skips them).")] = 100,
    seed: Annotated[int, typer.Option(help="Run seed for the smoke games.")] = 1,
    paper: Annotated[str, typer.Option(help="Paper for the PDFs: a4 or letter.")] = "a4",
    output: Annotated[Path, typer.Option("--output", "-o", help="Where results go, one folder per game.")] = Path("out"),
) -> None:
    """Everything before a playtest, for every game: validate, play smoke games, write the PDFs.

    Per game, into out/<game>/: smoke-report.html/.json/.csv and print-and-play.pdf. A stage is
    skipped when the content has errors (the errors are printed). Exit code 1 if anything failed.
    """
    import time

    from toolkit.diagnostics import Severity, format_text, summary
    from toolkit.games import load_game
    from toolkit.paths import display

    game_dirs, _ = _game_dirs(paths)
    failed = False
    for gdir in game_dirs:
        loaded = load_game(gdir)
        name = loaded.game.id if loaded.game else gdir.name
        warnings = [d for d in loaded.diagnostics if d.severity is Severity.WARNING]
        typer.echo(f"[{name}] validate: {'ok' if loaded.ok else 'FAILED'} ({summary(loaded.diagnostics)})")
        if loaded.diagnostics:
            typer.echo(format_text(loaded.diagnostics if not loaded.ok else warnings))
        if not loaded.ok:
            failed = True
            continue
        out_dir = output / name
        failed |= not _build_smoke(loaded, games, seed, out_dir)
        if not (loaded.game.templates_dir / "layouts.yaml").is_file():
            typer.echo(f"[{name}] print-and-play: skipped (no print layouts in {display(loaded.game.templates_dir)})")
            continue
        start = time.perf_counter()
        from toolkit.pnp import build_pdf

        pdf = build_pdf(loaded, out_dir / "print-and-play.pdf", paper=paper)
        took = time.perf_counter() - start
        if pdf.diagnostics:
            typer.echo(format_text(pdf.diagnostics))
        if pdf.output is None or not pdf.ok:
            typer.echo(f"[{name}] print-and-play: FAILED")
            failed = True
        else:
            typer.echo(f"[{name}] print-and-play: {display(pdf.output)} ({pdf.pages} pages, "
                       f"{pdf.bytes / 1024:.0f} KiB, {took:.1f} s)")
    raise typer.Exit(1 if failed else 0)


def _build_smoke(loaded: Any, games: int, seed: int, out_dir: Path) -> bool:
    """The default smoke run of `build`; True when no game failed (or there is nothing to play)."""
    from toolkit.paths import display

    name = loaded.game.id
    if games == 0:
        return True
    if not loaded.game.rules:
        typer.echo(f"[{name}] smoke: skipped (the manifest names no rules engine)")
        return True
    from toolkit.play_cli import run_smoke
    from toolkit.rules import load_rules
    from toolkit.smoke.runner import default_workers

    try:
        spec = load_rules(loaded.game.rules)
    except (ImportError, LookupError):
        typer.echo(f"[{name}] smoke: skipped (rules module {loaded.game.rules} is not available yet)")
        return True
    counts = tuple(range(spec.min_players, spec.max_players + 1))
    bot = "heuristic" if "heuristic" in spec.bots else "random"
    report = run_smoke(loaded, spec, games=games, players=counts, seed=seed, bots=[bot],
                       workers=default_workers(), check="sample", out_dir=out_dir)
    typer.echo(f"[{name}] smoke: {report['games_finished']}/{games} games finished, {len(report['errors'])} failed, "
               f"{report['stalemates']} stalemates ({report['games_per_second']} games/s) -> "
               f"{display(out_dir / 'smoke-report.html')}")
    for err in report["errors"][:5]:
        typer.echo(f"    failed game {err['index']}: {err['message']}\n    reproduce: {err['command']}")
    return not report["errors"]


#: Modules that add their own commands to `app` through a `register(app)` function.
COMMAND_MODULES = ("toolkit.pnp_cli", "toolkit.play_cli")


def _register_commands() -> None:
    import importlib.util

    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(app)


_register_commands()


def main() -> None:
    """Entry point: never show a traceback for a broken pipe or Ctrl-C."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug in hordekit, never the designer's content
        if os.environ.get("HORDEKIT_DEBUG"):
            raise
        typer.echo(f"hordekit: internal error: {type(exc).__name__}: {exc}", err=True)
        typer.echo("this is a bug in hordekit, not in your content; rerun with HORDEKIT_DEBUG=1 "
                   "for the traceback and report it", err=True)
        sys.exit(70)
