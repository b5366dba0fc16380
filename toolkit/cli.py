"""The `hordekit` command line.

Heavy libraries (jsonschema, ReportLab, the engines) are imported inside the commands that need
them, so that `hordekit --help` and shell completion stay instant.

Exit codes: 0 success, 1 content errors (or failed games), 2 usage errors.
"""

from __future__ import annotations

from toolkit.gcpause import pause_collector, resume_collector

# Start-up (Typer, the command modules, building the app) makes tens of thousands of objects
# and no garbage cycles; the cycle collector would walk them over and over (see toolkit.gcpause).
# It is switched back on at the end of this module.
pause_collector()

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from enum import Enum  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any, Optional  # noqa: E402

import typer  # noqa: E402

from toolkit.cliutil import games_limit, VERBOSITY, HordekitGroup, OldOutDir, renamed_out_dir, OutputFormat, load_checked, local_games, say, usage_error, verbosity  # noqa: E402
from toolkit.pnp_cli import Paper  # noqa: E402

app = typer.Typer(
    name="hordekit",
    cls=HordekitGroup,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from toolkit import __version__

        typer.echo(f"hordekit {__version__}")
        raise typer.Exit(0)


@app.callback()
def _global_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print hordekit's version and exit.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only problems and failures.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print more: timings and what each stage did.")] = False,
) -> None:
    """Validate, play-test and print board games whose components are kept as YAML.

    Commands without a game look in the current folder (a game.yaml) or its content/ folder;
    --shipped (or a game id such as kingdoms) names the games that come with hordekit. Start a
    game of your own with `hordekit new NAME` (docs/tutorial.md).
    """
    resume_collector()  # paused by main() while Typer built and parsed the command line
    if quiet and verbose:
        usage_error("-q and -v exclude each other")
    VERBOSITY.set(-1 if quiet else 1 if verbose else 0)


SHIPPED_HELP = "The games that come with hordekit instead of the ones here."


def _game_dirs(paths: list[Path] | None, shipped: bool = False) -> tuple[list[Path], list[Path]]:
    from toolkit.games import find_game_dirs

    places = local_games(paths, shipped)
    games, files = find_game_dirs(places)
    if not games:
        usage_error(f"no game found in {', '.join(map(str, places))} (a game is a folder with a game.yaml)")
    return games, files


PathsArg = Annotated[Optional[list[Path]], typer.Argument(
    metavar="PATH", help="Game folders, folders of games, single content files, or game ids (as pnp takes). "
                         "Default: the game here (./game.yaml) or the games under ./content.")]
ShippedOpt = Annotated[bool, typer.Option("--shipped", help=SHIPPED_HELP)]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f", help="How to print results: text for people, "
                                                  "json for scripts, github for CI annotations.")]


@app.command()
def validate(
    paths: PathsArg = None,
    shipped: ShippedOpt = False,
    format: FormatOpt = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
) -> None:
    """Check content against its schemas and cross-file rules; report every problem at once.

    Also warns (HK401) where printed text would not fit its box on the print-and-play sheets.

    Writes nothing in the game's folder (big content files are cached: docs/diagnostics.md).
    Exit code 0 when clean, 1 when there are content errors (or warnings with --strict), 2 for
    usage errors.
    """
    from toolkit.diagnostics import FORMATTERS, Severity, collapse_repeats, summary
    from toolkit.paths import display

    game_dirs, only_files = _game_dirs(paths, shipped)
    only = {display(f) for f in only_files}
    diags = []
    for gdir in game_dirs:
        start = time.perf_counter()
        loaded = load_checked(gdir)
        found = collapse_repeats([d for d in loaded.diagnostics if not only or d.file in only])
        diags.extend(found)
        if format is OutputFormat.text:
            if found:
                typer.echo(FORMATTERS["text"](found))
            if found or verbosity() >= 0:
                typer.echo(f"{_game_label(gdir, loaded)}: {'ok' if not found else summary(found)}")
            say(f"    {len(loaded.docs)} files, {sum(len(v) for v in loaded.data.values())} items, "
                f"fingerprint {loaded.fingerprint}, {time.perf_counter() - start:.2f} s", level=1)
    if format is not OutputFormat.text:
        typer.echo(FORMATTERS[format.value](diags) if diags else ("[]" if format is OutputFormat.json else ""))
    failed = any(d.severity is Severity.ERROR or strict for d in diags)
    raise typer.Exit(1 if failed else 0)


@app.command()
def games(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        metavar="PATH", help="Where to look. Default: the game here or the games under ./content.")] = None,
    shipped: ShippedOpt = False,
    format: FormatOpt = OutputFormat.text,
    as_json: Annotated[bool, typer.Option("--json", hidden=True, help="Same as --format json.")] = False,
) -> None:
    """List the games found, with their component counts (physical pieces, quantities included).

    --format json prints id, title, path, players, validity, fingerprint and counts per game;
    --format github adds an error annotation for each game whose content has errors.
    """
    from toolkit.diagnostics import github_annotation
    from toolkit.games import load_game
    from toolkit.paths import display

    if as_json:
        format = OutputFormat.json
    game_dirs, _ = _game_dirs(paths, shipped)
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
    if format is OutputFormat.json:
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
        if format is OutputFormat.github and not row["valid"]:
            typer.echo(github_annotation(f"{row['path']}/game.yaml", 1, 1, "hordekit", f"{row['id']} has content errors"))


@app.command()
def schema(
    for_game: Annotated[Optional[str], typer.Option("--for", metavar="GAME", help="Derive starting schemas from this game's YAML items instead (a game id or folder).")] = None,
    kind: Annotated[Optional[list[str]], typer.Option("--kind", metavar="KIND", help="With --for: only these component kinds (repeat the option).")] = None,
    force: Annotated[bool, typer.Option("--force", help="With --for: replace schemas that already exist.")] = False,
    out_dir: Annotated[Optional[Path], typer.Option("--out-dir", "-d", metavar="FOLDER", help="Folder to write the schemas into. Default: ./schemas, or with --for the game's own schemas folder.")] = None,
    old_output: Annotated[Optional[Path], OldOutDir] = None,
) -> None:
    """Write JSON Schemas for editors (VS Code's YAML extension): hordekit's own, or with --for,
    starting schemas derived from a game's existing items.

    Without --for, copies hordekit's schemas and prints a `yaml.schemas` editor setting. With
    --for GAME, writes one schema per component kind whose schema file is missing (or every kind
    with --force), inferred from its items (types, required fields, enums of few values), and
    adds a `# yaml-language-server: $schema=...` line to each component file that has none, so
    completion and hover help work at once. Edit the schemas afterwards: they are a start.
    """
    out_dir = renamed_out_dir(old_output, out_dir)
    if for_game is not None:
        from toolkit.cliutil import game_folder
        from toolkit.schemagen import SchemaGenError, write_game_schemas

        try:
            written = write_game_schemas(game_folder(for_game), kinds=kind or None, force=force, out_dir=out_dir)
        except SchemaGenError as exc:
            usage_error(str(exc))
        for line in written:
            say(line)
        return
    if kind or force:
        usage_error("--kind and --force go with --for GAME")
    _copy_builtin_schemas(out_dir or Path("schemas"))


def _copy_builtin_schemas(output: Path) -> None:
    import shutil

    from toolkit.paths import data_dir, display

    from toolkit.atomic import atomic_path
    from toolkit.outpaths import check_output_dir, default_label

    source = data_dir("schemas")
    if output.exists() and not output.is_dir():
        usage_error(f"--out-dir {output} is a file, not a folder")
    written = 0
    same = output.resolve() == source.resolve()
    if not same:
        check_output_dir(output, "--out-dir")
    for path in sorted(source.rglob("*.schema.json")):
        target = output / path.relative_to(source)
        if not same:
            with atomic_path(target) as tmp:
                shutil.copyfile(path, tmp)
        written += 1
    verb = "are already in" if same else "written to"
    say(f"{written} schemas {verb} {display(output)}", err=True)
    mapping = {f"{display(output)}/manifest.schema.json": "content/*/game.yaml"}
    typer.echo(json.dumps({"yaml.schemas": mapping}, indent=2))


class Stage(str, Enum):
    scenarios = "scenarios"
    smoke = "smoke"
    pnp = "pnp"


@app.command()
def build(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        metavar="PATH", help="Games to build. Default: the game here or the games under ./content.")] = None,
    shipped: ShippedOpt = False,
    games: Annotated[int, typer.Option("--games", "-n", min=0, callback=games_limit, help="Smoke games per game (0 skips them).")] = 100,
    seed: Annotated[int, typer.Option(help="Run seed for the smoke games.")] = 1,
    players: Annotated[Optional[str], typer.Option(metavar="N|A..B|A,B", help="Player counts for the smoke games. Default: all each game supports.")] = None,
    workers: Annotated[int, typer.Option(min=0, help="Worker processes for the smoke games (0: all cores).")] = 0,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors: validation warnings, and scenarios that leave a chance event to their seed.")] = False,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper for the PDFs (A4 or US letter).", case_sensitive=False)] = Paper.a4,
    bleed: Annotated[float, typer.Option("--bleed", min=0.0, max=10.0, metavar="MM", help="Bleed around every printed piece, in mm.")] = 3.0,
    skip: Annotated[Optional[list[Stage]], typer.Option("--skip", help="Leave out a stage on purpose (repeat the option); a skipped stage is not a failure.")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out-dir", "-d", metavar="FOLDER", help="Where results go, one folder per game. Default: out.")] = None,
    old_output: Annotated[Optional[Path], OldOutDir] = None,
    format: FormatOpt = OutputFormat.text,
) -> None:
    """Everything before a playtest, for every game: validate, run its scenarios, play smoke games,
    write the PDFs.

    Per game, into out/<game>/: smoke-report.html/.json/.csv and print-and-play.pdf. A game asks
    for scenarios by having a scenarios folder (a shipped game: hordekit's scenarios/<game>), for
    smoke games by naming a rules module, and for a PDF by having physical components. Exit code 1
    when content has errors, a scenario or a smoke game failed, or a stage a game asked for could
    not run (a rules module that does not load, missing print layouts); the output says which.
    """
    from toolkit.games import read_manifest
    from toolkit.play_cli import parse_players

    from toolkit.outpaths import check_output_dir, default_label

    given = renamed_out_dir(old_output, out_dir)
    out_dir = given or Path("out")
    if players is not None:
        parse_players(players, 1, 12)  # the syntax, before any work
    check_output_dir(out_dir, "--out-dir" if given else default_label(out_dir, "-d"))  # before any game is played
    game_dirs, _ = _game_dirs(paths, shipped)
    counts: dict[Path, tuple[int, ...] | None] = {}
    for gdir in game_dirs:
        game, _, _ = read_manifest(gdir)
        counts[gdir] = parse_players(players, *game.players) if players and game else None
    options = BuildOptions(games=games, seed=seed, workers=workers, strict=strict, paper=paper.value,
                           bleed=bleed, skip={s.value for s in skip or []}, out_dir=out_dir)
    results = [_build_game(gdir, counts[gdir], options, format) for gdir in game_dirs]
    failed = any(r["status"] == "failed" for game in results for r in game["stages"])
    if format is OutputFormat.json:
        typer.echo(json.dumps({"ok": not failed, "games": results}, indent=2))
    raise typer.Exit(1 if failed else 0)


@dataclass(frozen=True)
class BuildOptions:
    """What `build` was asked to do, the same for every game."""

    games: int
    seed: int
    workers: int
    strict: bool
    paper: str
    bleed: float
    skip: set[str]
    out_dir: Path


def _game_label(gdir: Path, loaded: Any) -> str:
    """How a summary line names a game: its folder, or its id when the folder is the one here."""
    from toolkit.paths import display

    shown = display(gdir)
    if shown != ".":
        return shown
    return f"{loaded.game.id} (this folder)" if loaded.game is not None else "this folder"


def _build_game(gdir: Path, counts: tuple[int, ...] | None, opts: BuildOptions, format: OutputFormat) -> dict[str, Any]:
    """Validate, smoke and print one game; each stage's outcome as ok, failed or skipped."""
    from toolkit.diagnostics import FORMATTERS, Severity, github_annotation, summary
    from toolkit.paths import display

    loaded = load_checked(gdir)
    name = loaded.game.id if loaded.game else gdir.name
    stages: list[dict[str, Any]] = []

    def report(stage: str, status: str, message: str, output: Path | None = None, annotate: bool = True,
               **extra: Any) -> None:
        stages.append({"stage": stage, "status": status, "message": message,
                       "output": display(output) if output else None, **extra})
        if format is not OutputFormat.json and (status == "failed" or verbosity() >= 0):
            typer.echo(f"[{name}] {stage}: {message}")
        if format is OutputFormat.github and status == "failed" and annotate:
            typer.echo(github_annotation(display(gdir / "game.yaml"), 1, 1, "hordekit build", f"{stage}: {message}"))

    bad = [d for d in loaded.diagnostics if d.severity is Severity.ERROR or opts.strict]
    if loaded.diagnostics and format is not OutputFormat.json:
        typer.echo(FORMATTERS[format.value](loaded.diagnostics if bad else
                                            [d for d in loaded.diagnostics if d.severity is Severity.WARNING]))
    report("validate", "failed" if bad else "ok", f"{'FAILED' if bad else 'ok'} ({summary(loaded.diagnostics)})")
    def detail(text: str) -> None:  # the lines under a stage: failed games, print problems
        if format is not OutputFormat.json:
            typer.echo(text)

    if not bad:
        out = opts.out_dir / name
        _scenario_stage(gdir, loaded, opts, format, report)
        _smoke_stage(loaded, counts, opts, out, report, detail)
        _pnp_stage(loaded, opts, out, report, detail)
    return {"id": name, "path": display(gdir), "stages": stages,
            "diagnostics": [d.as_dict() for d in loaded.diagnostics]}


def _scenario_stage(gdir: Path, loaded: Any, opts: BuildOptions, format: OutputFormat, report: Any) -> None:
    """The scenarios of `build`: every scenario file of a game that has a scenarios folder. Each
    failure (and warning) is printed at its file, line and column as `hordekit scenario` prints it."""
    from toolkit.paths import display
    from toolkit.play_cli import run_scenario_files, scenarios_folder

    if "scenarios" in opts.skip:
        report("scenarios", "skipped", "skipped (asked for on the command line)")
        return
    folder = scenarios_folder(gdir)
    paths = sorted(folder.glob("*.yaml")) if folder is not None else []
    if not paths:
        report("scenarios", "skipped", "skipped (the game has no scenarios folder)" if folder is None else
               f"skipped ({display(folder)} holds no scenario files)")
        return
    if not loaded.game.rules:
        report("scenarios", "failed", f"FAILED: {display(folder)} holds {len(paths)} scenarios, but the manifest "
                                      "names no rules module to play them; add one, or --skip scenarios")
        return
    from toolkit.rules import load_rules

    try:
        spec = load_rules(loaded.game.rules)
        known = {loaded.game.id: (loaded, spec, spec.build_model(loaded.data))}
    except Exception as exc:  # noqa: BLE001 - the smoke stage says the same in its own words
        report("scenarios", "failed", f"FAILED: the rules do not load ({type(exc).__name__}: {exc})")
        return
    start = time.perf_counter()
    echo = (lambda *a, **k: None) if format is OutputFormat.json else typer.echo
    records = run_scenario_files(paths, format, echo, strict=opts.strict, known=known, passes=False)
    took = time.perf_counter() - start
    failed = sum(1 for r in records if not r["passed"])
    warned = sum(1 for r in records if r["warnings"])
    counts = f"{len(records) - failed}/{len(records)} passed, {failed} failed" + \
        (f", {warned} with warnings" if warned else "")
    report("scenarios", "failed" if failed else "ok",
           f"{'FAILED: ' if failed else ''}{counts} ({display(folder)}, {took:.1f} s)", annotate=False,
           passed=len(records) - failed, failed=failed, warned=warned,
           problems=[r for r in records if r["failures"] or r["warnings"]])


def _smoke_stage(loaded: Any, counts: tuple[int, ...] | None, opts: BuildOptions, out_dir: Path,
                 report: Any, detail: Any) -> None:
    """The smoke games of `build`: a game that names a rules module asked for them."""
    from toolkit.paths import display

    if "smoke" in opts.skip or opts.games == 0:
        report("smoke", "skipped", "skipped (asked for on the command line)")
        return
    if not loaded.game.rules:
        report("smoke", "skipped", "skipped (the manifest names no rules module)")
        return
    from toolkit.play_cli import run_smoke
    from toolkit.rules import load_rules
    from toolkit.smoke.runner import default_workers

    try:
        spec = load_rules(loaded.game.rules)
    except (ImportError, LookupError) as exc:
        report("smoke", "failed", f"FAILED: the rules module named in the manifest does not load ({exc})")
        return
    counts = counts or tuple(range(spec.min_players, spec.max_players + 1))
    bot = "heuristic" if "heuristic" in spec.bots else "random"
    result = run_smoke(loaded, spec, games=opts.games, players=counts, seed=opts.seed, bots=[bot],
                       workers=opts.workers or default_workers(), check="sample", out_dir=out_dir,
                       progress=verbosity() >= 0)
    if result["interrupted"]:  # Ctrl-C: the build stops here (exit 130), no later stage runs
        report("smoke", "failed", f"interrupted after {result['games_finished']}/{opts.games} games")
        raise KeyboardInterrupt
    failed = bool(result["errors"])
    report("smoke", "failed" if failed else "ok",
           f"{result['games_finished']}/{opts.games} games finished, {result['games_failed']} failed, "
           f"{result['stalemates']} stalemates ({result['games_per_second']} games/s) -> "
           f"{display(out_dir / 'smoke-report.html')}", out_dir / "smoke-report.json")
    for err in result["errors"][:5]:
        detail(f"    failed game {err['index']}: {err['message']}\n    reproduce: {err['command']}")


def _pnp_stage(loaded: Any, opts: BuildOptions, out_dir: Path, report: Any, detail: Any) -> None:
    """The PDF of `build`: a game with physical components asked for it."""
    from toolkit.diagnostics import format_text
    from toolkit.paths import display

    game = loaded.game
    if "pnp" in opts.skip:
        report("print-and-play", "skipped", "skipped (asked for on the command line)")
        return
    if not any(k.physical for k in game.kinds.values()):
        report("print-and-play", "skipped", "skipped (the game has no physical components)")
        return
    if not (game.templates_dir / "layouts.yaml").is_file():
        report("print-and-play", "failed", f"FAILED: no print layouts ({display(game.templates_dir / 'layouts.yaml')} "
                                           "is missing); add one, or --skip pnp")
        return
    from toolkit.pnp import build_pdf

    start = time.perf_counter()
    pdf = build_pdf(loaded, out_dir / "print-and-play.pdf", paper=opts.paper, bleed=opts.bleed)
    took = time.perf_counter() - start
    if pdf.diagnostics:
        detail(format_text(pdf.diagnostics))
    if pdf.output is None or not pdf.ok:
        report("print-and-play", "failed", "FAILED (see the problems above)")
    else:
        report("print-and-play", "ok", f"{display(pdf.output)} ({pdf.pages} pages, {pdf.bytes / 1024:.0f} KiB, "
                                       f"{took:.1f} s)", pdf.output)


#: Modules that add their own commands to `app` through a `register(app)` function.
COMMAND_MODULES = ("toolkit.pnp_cli", "toolkit.play_cli", "toolkit.designer_cli", "toolkit.export_cli")


def _register_commands() -> None:
    import importlib.util

    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(app)


_register_commands()
resume_collector()


def _only_the_command_named(argv: list[str]) -> None:
    """Keep only the command (or command group) ``argv`` names, when it names one.

    Typer builds the Click object of every command, options and all, on each run (~30 ms);
    `hordekit pnp` needs only its own. With no command, an unknown one (the error suggests the
    known ones) or shell completion (it lists them all), every command stays.
    """
    from typer.main import get_command_name

    if any(key.startswith("_HORDEKIT_COMPLETE") for key in os.environ):
        return
    name = next((arg for arg in argv if not arg.startswith("-")), None)
    commands = [c for c in app.registered_commands if (c.name or get_command_name(c.callback.__name__)) == name]
    groups = [g for g in app.registered_groups if (g.name or g.typer_instance.info.name) == name]
    if commands or groups:
        app.registered_commands[:] = commands
        app.registered_groups[:] = groups


#: The options of hordekit itself, written before the command (`hordekit -q smoke`).
GLOBAL_OPTIONS = ("-q", "--quiet", "-v", "--verbose", "--version")


def _misplaced_global_option(argv: list[str]) -> str | None:
    """The message for a global option written after the command (`hordekit smoke -q`), which no
    command takes: Click would only say 'No such option: -q'."""
    command = next((i for i, arg in enumerate(argv) if not arg.startswith("-")), None)
    if command is None:
        return None
    for arg in argv[command + 1:]:
        if arg == "--":
            break
        if arg in GLOBAL_OPTIONS:
            name = argv[command]
            example = "hordekit --version" if arg == "--version" else f"hordekit {arg} {name} ..."
            return f"{arg} is an option of hordekit itself, not of '{name}': put it before the command, as in: {example}"
    return None


def main() -> None:
    """Entry point: never show a traceback for a broken pipe or Ctrl-C."""
    pause_collector()  # building the command line makes many objects and no garbage cycles
    try:
        misplaced = _misplaced_global_option(sys.argv[1:])
        if misplaced:
            typer.echo(f"error: {misplaced}", err=True)
            sys.exit(2)
        _only_the_command_named(sys.argv[1:])
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
    finally:
        resume_collector()
