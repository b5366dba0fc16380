"""Commands that play games: `smoke`, `replay` and `scenario`."""

from __future__ import annotations

import json
import re
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from toolkit.cliutil import GAME_HELP, games_limit, OldOutDir, OutputFormat, game_folder, renamed_out_dir, usage_error, verbosity



def load_playable(name: str | None, format: OutputFormat = OutputFormat.text) -> tuple[Any, Any]:
    """Load and check a game (with no name, the one here); exit 1 with its diagnostics when its
    content has errors (on standard error as text; with --format json or github, on standard
    output in that format, as `hordekit validate` prints them)."""
    from toolkit.diagnostics import FORMATTERS, format_text
    from toolkit.games import load_game
    from toolkit.paths import display

    folder = game_folder(name)
    name = name or display(folder)
    loaded = load_game(folder)
    if not loaded.ok:
        if format is OutputFormat.text:
            typer.echo(format_text(loaded.diagnostics), err=True)
        else:
            typer.echo(FORMATTERS[format.value](loaded.diagnostics))
        typer.echo(f"{name}: content has errors; fix them first (hordekit validate)", err=True)
        raise typer.Exit(1)
    if not loaded.game.rules:
        typer.echo(f"{name}: the manifest names no rules module, so the game cannot be played", err=True)
        raise typer.Exit(1)
    from toolkit.rules import load_rules, rules_label

    try:
        spec = load_rules(loaded.game.rules)
    except (ImportError, LookupError) as exc:
        typer.echo(f"{name}: rules module {rules_label(loaded.game.rules)} is not available ({exc})", err=True)
        raise typer.Exit(1)
    try:  # the rules may refuse content the schemas accept: say so here, not in a worker
        spec.build_model(loaded.data)
    except (ValueError, KeyError, TypeError, LookupError) as exc:
        typer.echo(f"{name}: the rules {rules_label(loaded.game.rules)} refuse this content: "
                   f"{type(exc).__name__}: {exc}", err=True)
        for line in _rules_frames(exc):
            typer.echo(line, err=True)
        typer.echo("run `hordekit validate` for the places to fix", err=True)
        raise typer.Exit(1)
    return loaded, spec


def scenarios_folder(game: Path) -> Path | None:
    """A game's scenarios folder: its own `scenarios/`, or for a game hordekit ships, the one
    hordekit keeps for it; None when it has none."""
    from toolkit.paths import data_dir

    own = game / "scenarios"
    if own.is_dir():
        return own
    if game.resolve().parent == data_dir("content").resolve() and (data_dir("scenarios") / game.name).is_dir():
        return data_dir("scenarios") / game.name
    return None


def _scenarios_of(game: Path) -> Path:
    """A game's scenarios folder (`scenarios_folder`); a usage error when it has none."""
    from toolkit.paths import display

    found = scenarios_folder(game)
    if found is not None:
        return found
    own = game / "scenarios"
    usage_error(f"{display(game) if str(game) != '.' else 'the game here'} has no scenarios folder "
                f"({display(own)}); docs/scenarios.md shows how to write one")


def _rules_frames(exc: BaseException) -> list[str]:
    """The lines of the game's own rules code an exception passed through, innermost last."""
    from toolkit.rules import rules_frames

    return [f"  {f.file}:{f.line}: in {f.name}" + (f": {f.code}" if f.code else "") for f in rules_frames(exc)]


def parse_players(text: str, lo: int, hi: int) -> tuple[int, ...]:
    """'3', '2..5' or '2,4' -> player counts, checked against what the game supports."""
    try:
        if ".." in text:
            a, b = (int(x) for x in text.split("..", 1))
            # the range is checked by its ends, never built first: 2..99999999999 is one error
            counts = tuple(range(a, b + 1)) if lo <= a <= b <= hi else (a, b)
        else:
            counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        usage_error(f"--players takes N, A..B or A,B,C (got '{text}')")
    bad = [n for n in counts if not lo <= n <= hi]
    if ".." in text and counts[0] > counts[-1]:
        bad.append(counts[0])
    if not counts or bad:
        usage_error(f"this game is for {lo} to {hi} players (got {text})")
    return counts


def check_bots(spec: Any, names: list[str]) -> None:
    """Every bot name known to the game, and its settings (``search:200``) accepted: a usage
    error now rather than every game failing later."""
    import random

    from toolkit.smoke.runner import known_bots

    for name in names:
        base, _, setting = name.partition(":")
        if base not in known_bots(spec):
            from toolkit.diagnostics import did_you_mean

            guess = did_you_mean(base, known_bots(spec))
            usage_error(f"unknown bot {base!r}{f' ({guess})' if guess else ''}; this game has: {', '.join(known_bots(spec))}")
        if setting:
            try:
                spec.bots[base](0, random.Random(0), budget=setting)
            except (TypeError, ValueError) as exc:
                usage_error(f"--bot {name}: {exc if isinstance(exc, ValueError) else 'this bot takes no settings'}")


def variant_options(variants: list[str] | None) -> dict[str, Any]:
    """The options a game's new_state receives for the variants switched on (``--variant``)."""
    return {"variants": list(variants)} if variants else {}


def check_variants(loaded: Any, spec: Any, players: tuple[int, ...], variants: list[str]) -> None:
    """Start one game with the variants on, so that a name the game refuses is a usage error
    (exit 2) before any game is played, not a thousand failed games."""
    options = variant_options(variants)
    try:
        model = spec.build_model(loaded.data)
        for n in players:
            spec.new_state(model, n, dict(options))
    except (ValueError, KeyError) as exc:
        usage_error(f"--variant {','.join(variants)}: {exc}")


class _Progress:
    """A one-line progress bar with games per second and time left, only on a terminal."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.start = time.perf_counter()

    def __call__(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        filled = int(30 * self.done / max(1, self.total))
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} games "
                         f"{rate:7.1f} games/s  {left:5.0f}s left ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def run_smoke(loaded: Any, spec: Any, *, games: int, players: tuple[int, ...], seed: int, bots: list[str],
              workers: int, check: str, backend: str = "process", scheduler: str | None = None,
              out_dir: Path, progress: bool = True, compare_with: Path | None = None,
              variants: list[str] | None = None) -> dict[str, Any]:
    """Play, write report/CSV/HTML/logs under ``out_dir``, return the report."""
    from toolkit.atomic import write_text
    from toolkit.paths import display
    from toolkit.smoke.files import clear_logs, save_log, write_csvs, write_json
    from toolkit.smoke.html import render_html
    from toolkit.smoke.runner import RunPlan, SchedulerError, run
    from toolkit.smoke.stats import build_report, compare

    plan = RunPlan(game=spec.id, rules=loaded.game.rules, games=games, players=players, seed=seed,
                   bots=tuple(bots), check=check, options=variant_options(variants))
    bar = _Progress(games, progress and sys.stderr.isatty())
    try:
        outcome = run(plan, loaded.data, workers, backend, scheduler, bar)
    except SchedulerError as exc:
        bar.close()
        if exc.usage:
            usage_error(str(exc))
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    bar.close()
    for note in outcome.notes:
        typer.echo(note, err=True)
    kinds = {item["id"]: kind for kind, items in loaded.data.items() for item in items if "id" in item}
    model = spec.build_model(loaded.data) if spec.unchoosable or spec.impossible else None
    unchoosable = frozenset(spec.unchoosable(model)) if spec.unchoosable else frozenset()
    impossible = ({event: (frozenset(ids), why) for event, (ids, why) in spec.impossible(model).items()}
                  if spec.impossible else {})
    report = build_report(outcome.tally, game=spec.id, title=loaded.game.title, fingerprint=loaded.fingerprint,
                          plan={"players": players, "seed": seed, "bots": bots, "check": check, "games": games,
                                "variants": variants},
                          seconds=outcome.seconds, workers=outcome.workers, backend=outcome.backend,
                          interrupted=outcome.interrupted, components=kinds, unchoosable=unchoosable,
                          impossible=impossible, unchosen_kinds=frozenset(spec.unchosen_kinds),
                          solo_scored=spec.solo_scored)
    report["peak_rss_kib_per_worker"] = outcome.peak_rss_kib
    if outcome.interrupted and not outcome.tally.played:
        return report  # stopped before any game finished: the previous report stays as it was
    clear_logs(out_dir / "logs")
    game_dir = display(loaded.game.dir)
    by_index = {e["index"]: e for e in outcome.tally.errors}
    for err in report["errors"]:
        log = save_log(out_dir / "logs", game_dir, spec.id, loaded.fingerprint, by_index[err["index"]], plan.options)
        err["log"] = display(log)
        err["command"] = f"hordekit replay {display(log)}"
    comparison = None
    if compare_with is not None:
        comparison = compare(report, json.loads(compare_with.read_text()))
        report["compared_with"] = {"file": str(compare_with), **comparison}
    write_json(report, out_dir / "smoke-report.json")
    write_csvs(report, out_dir)
    write_text(out_dir / "smoke-report.html", render_html(report, comparison))
    return report


def print_summary(report: dict[str, Any], out_dir: Path) -> None:
    from toolkit.diagnostics import one_line
    from toolkit.paths import display

    r = report
    echo = typer.echo
    echo(f"{r['title']}: {r['games_finished']}/{r['games_requested']} games finished"
         f"{' (interrupted)' if r['interrupted'] else ''}, {r['games_failed']} failed, {r['stalemates']} stalemates, "
         f"invariants checked in {r.get('games_invariants_checked', 0)}, clone and replay in {r['games_checked']}; "
         f"{r['games_per_second']} games/s on {r['workers']} worker(s)")
    turns = r["turns"]
    if turns.get("count"):
        echo(f"  turns   mean {turns['mean']}  min {turns['min']}  median {turns['median']}  max {turns['max']}")
        s = r["scores"]
        echo(f"  scores  mean {s['mean']}  min {s['min']}  median {s['median']}  max {s['max']}")
        echo(f"  endings {', '.join(f'{k} {v}' for k, v in r['end_reasons'].items())}")
    solo = r.get("solo")
    if solo and solo.get("scored_only"):
        s = solo["scores"]
        echo(f"  solo    {solo['games']} games, scored only (the rules name no win or loss for one player): "
             f"score mean {s['mean']}  min {s['min']}  median {s['median']}  max {s['max']}")
    elif solo:
        echo(f"  solo    {solo['games']} games against the game: won {solo['won']}, lost {solo['lost']} "
             f"({100 * solo['win_rate']:.1f}% [{100 * solo['ci_low']:.0f}-{100 * solo['ci_high']:.0f}])")
    if r["win_rate_by_seat"]:
        echo("  win rate by seat (95% interval):")
    for players, rows in r["win_rate_by_seat"].items():
        cells = "  ".join(f"seat {x['seat']} {100 * x['rate']:5.1f}% [{100 * x['ci_low']:.0f}-{100 * x['ci_high']:.0f}]"
                          for x in rows)
        echo(f"    {players}p ({rows[0]['games']} games): {cells}")
    _print_by_kind(r)
    _print_coverage(r)
    for key, row in r.get("shortages", {}).items():
        echo(f"  {key}: short in {row['games']} of {r['games_finished']} games ({row['total']:g} times in all)")
    for event, ids in r["never"].items():
        if ids:
            shown = ", ".join(ids[:12]) + (f" … (+{len(ids) - 12})" if len(ids) > 12 else "")
            echo(f"  never {event} ({len(ids)}): {shown}")
        apart = r.get("never_impossible", {}).get(event)
        if apart:
            echo(f"    impossible under the rules, left out of never {event} ({len(apart['ids'])}): {apart['why']}")
    flags = r["flags"]
    if flags["dominant_components"]:
        echo(f"  dominant: {', '.join(flags['dominant_components'])}")
    for players, f in flags["first_player_advantage"].items():
        echo(f"  first-seat advantage at {players}p: {100 * f['rate']:.1f}% (fair {100 * f['expected']:.1f}%)")
    if flags["stalemates_flagged"]:
        echo(f"  stalemates: {100 * flags['stalemate_rate']:.1f}% of games hit the turn cap")
    for e in r["errors"][:10]:
        echo(f"  FAILED game {e['index']} (seed {e['seed']}, {e['players']}p): {one_line(e['message'])}")
        echo(f"    reproduce: {e['command']}")
    if r["games_failed"] > 10:
        kept = f"; logs of the first {len(r['errors'])} are saved" if r["games_failed"] > len(r["errors"]) else ""
        echo(f"  … and {r['games_failed'] - 10} more failed games (see the report{kept})")
    if "compared_with" in r:
        moved = r["compared_with"]["significant"]
        echo(f"  since {r['compared_with']['file']}: " + (f"significant shifts: {', '.join(moved)}" if moved
                                                          else "no shift larger than chance"))
    echo(f"  report: {display(out_dir / 'smoke-report.html')} (and .json, smoke-*.csv)")


def _print_coverage(r: dict[str, Any]) -> None:
    """The coverage figure: how much of the choosable content the bots actually chose."""
    cov = r.get("coverage")
    if not cov or not cov["choosable"]:
        return
    kinds = ", ".join(f"{kind} {k['covered']}/{k['choosable']}" for kind, k in cov["by_kind"].items())
    typer.echo(f"  coverage: {cov['covered']} of {cov['choosable']} choosable components "
               f"({100 * cov['share']:.1f}%) chosen by at least {100 * cov['threshold']:g}% of seats ({kinds})")
    if cov["below"]:
        shown = ", ".join(f"{b['id']} {100 * b['pick_rate']:.2f}%" for b in cov["below"][:16])
        more = f" … (+{len(cov['below']) - 16})" if len(cov["below"]) > 16 else ""
        typer.echo(f"    below {100 * cov['threshold']:g}%: {shown}{more}")
    if cov.get("unchosen_kinds"):
        typer.echo(f"    kinds no seat chooses (the game brings them in), left out: {', '.join(cov['unchosen_kinds'])}")
    if cov.get("never_choosable"):
        typer.echo(f"    never choosable under the rules, left out ({len(cov['never_choosable'])}): "
                   f"{', '.join(cov['never_choosable'])}")


def _print_by_kind(r: dict[str, Any]) -> None:
    """Per kind of chosen component (heroes, kingdoms, abilities…): best and worst, ranked by the
    lift's z score, so a card played by three seats that happened to win, or by nearly every seat
    (nothing to compare it with), does not head the list on a lift that is only noise."""
    kinds: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for cid, c in r["components"].items():
        if c["lift"] is not None and c["kind"]:
            kinds.setdefault(c["kind"], []).append((cid, c))
    seats = max(1, r["seat_games"])
    for kind, rows in sorted(kinds.items()):
        rows.sort(key=lambda kv: (-kv[1]["z"], -kv[1]["lift"], kv[0]))
        shown = rows if len(rows) <= 8 else rows[:4] + rows[-4:]
        cells = ", ".join(f"{cid} {100 * c['win_rate_when_used']:.0f}% ({100 * c['lift']:+.0f}, "
                          f"by {100 * c['seat_games_used'] / seats:.0f}% of seats)" for cid, c in shown)
        echo = typer.echo
        echo(f"  {kind}: win rate when used (lift, how many seats used it)"
             f"{', best and worst by how sure the lift is' if len(rows) > 8 else ''}: {cells}")


class Backend(str, Enum):
    """Where smoke games run: worker processes on this machine, or a Dask cluster."""

    process = "process"
    dask = "dask"


def smoke(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, callback=games_limit, help="How many games to play.")] = 200,
    players: Annotated[Optional[str], typer.Option(help="Player counts: N, A..B or A,B. Default: all the game supports.")] = None,
    seed: Annotated[int, typer.Option(help="Run seed; each game's seed derives from it and the game's index.")] = 1,
    bot: Annotated[Optional[list[str]], typer.Option("--bot", help="Bot per seat, repeated or comma-separated; one name fills every seat. Default: heuristic.")] = None,
    variant: Annotated[Optional[list[str]], typer.Option("--variant", help="Play with one of the game's optional rule sets (variants) switched on: its id (repeat, or separate with commas).")] = None,
    workers: Annotated[int, typer.Option(min=0, help="Worker processes (0: all cores).")] = 0,
    check: Annotated[bool, typer.Option("--check", help="Check invariants, clone and replay on every game (default: 1 game in 20).")] = False,
    fast: Annotated[bool, typer.Option("--fast", help="No checks at all: statistics only.")] = False,
    backend: Annotated[Backend, typer.Option(metavar="process|dask", help="process (this machine) or dask (a cluster).")] = Backend.process,
    scheduler: Annotated[Optional[str], typer.Option(metavar="ADDRESS", help="Dask scheduler address, with --backend dask.")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="text: the summary; json: the report on standard output; github: the summary plus an annotation per failed game.")] = OutputFormat.text,
    as_json: Annotated[bool, typer.Option("--json", hidden=True, help="Same as --format json.")] = False,
    compare_with: Annotated[Optional[Path], typer.Option("--compare", help="An earlier smoke-report.json to compare with.")] = None,
    output: Annotated[Optional[Path], typer.Option("--out-dir", "-d", metavar="FOLDER", help="Folder for the report. Default: out/<game>/.")] = None,
    old_output: Annotated[Optional[Path], OldOutDir] = None,
) -> None:
    """Play many games with bots; report balance statistics and any failure as a replayable log.

    Exit code 1 when any game failed (crash, illegal state, broken invariant).
    """
    from toolkit.smoke.runner import default_bot, default_workers, known_bots

    output = renamed_out_dir(old_output, output)
    backend = Backend(backend).value
    if backend == "dask" and not scheduler:
        usage_error("--backend dask needs --scheduler ADDRESS, the address of a running Dask scheduler "
                    "(e.g. tcp://10.0.0.5:8786)")
    if scheduler and backend != "dask":
        usage_error("--scheduler is for --backend dask: add --backend dask, or leave --scheduler out")
    if backend == "dask":
        import importlib.util

        if importlib.util.find_spec("distributed") is None:
            usage_error("--backend dask needs Dask, which is not installed: pip install 'hordekit[dask]'")
    if check and fast:
        usage_error("--check and --fast exclude each other")
    from toolkit.outpaths import check_output_dir, default_label
    from toolkit.smoke.files import read_report

    if compare_with is not None:
        try:
            read_report(compare_with)  # checked before any game is played
        except ValueError as exc:
            usage_error(f"--compare {compare_with}: cannot be read as a smoke report ({exc})")
    if output is not None:
        check_output_dir(output, "--out-dir")
    loaded, spec = load_playable(game, OutputFormat.json if as_json else format)
    counts = parse_players(players, spec.min_players, spec.max_players) if players else tuple(
        range(spec.min_players, spec.max_players + 1))
    names = [n.strip() for b in (bot or [default_bot(spec)]) for n in b.split(",") if n.strip()]
    if not names:
        usage_error(f"--bot names no bot (got {', '.join(map(repr, bot or []))}); this game has: "
                    f"{', '.join(known_bots(spec))}")
    check_bots(spec, names)
    variants = [v for item in (variant or []) for v in item.split(",") if v]
    if variants:
        check_variants(loaded, spec, counts, variants)
    out_dir = output or check_output_dir(Path("out") / loaded.game.id, default_label(Path("out") / loaded.game.id, "-d"))
    report = run_smoke(loaded, spec, games=games, players=counts, seed=seed, bots=names,
                       workers=workers or default_workers(), check="all" if check else "none" if fast else "sample",
                       backend=backend, scheduler=scheduler, out_dir=out_dir, compare_with=compare_with,
                       variants=variants)
    if as_json or format is OutputFormat.json:
        typer.echo(json.dumps(report, indent=1))
    elif verbosity() >= 0 or report["errors"]:  # -q: only when a game failed
        print_summary(report, out_dir)
    if format is OutputFormat.github:
        from toolkit.diagnostics import github_message

        for err in report["errors"]:
            typer.echo(github_message(f"smoke game {err['index']} failed", f"{err['message']} (reproduce: {err['command']})"))
    if report["interrupted"]:
        raise typer.Exit(130)
    raise typer.Exit(1 if report["errors"] else 0)


def read_log(log: Path, game: str | None) -> dict[str, Any]:
    """A game log's fields, checked for shape; a usage error (exit 2) for anything else."""
    from toolkit.smoke.files import LOG_MAX_BYTES

    try:
        with open(log, "rb") as fh:
            raw = fh.read(LOG_MAX_BYTES + 1)
        if len(raw) > LOG_MAX_BYTES:
            raise ValueError(f"larger than {LOG_MAX_BYTES:,} bytes")
        data = json.loads(raw)
    except FileNotFoundError:
        usage_error(f"no such file: {log}")
    except (OSError, ValueError, RecursionError) as exc:
        usage_error(f"{log}: not a hordekit game log ({'nested too deeply' if isinstance(exc, RecursionError) else exc})")
    if not isinstance(data, dict):
        usage_error(f"{log}: not a hordekit game log (a log is a JSON object, not {type(data).__name__})")
    problems = []
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(type(a) is int for a in actions):
        problems.append("'actions' must be a list of whole numbers")
    if type(data.get("players")) is not int:
        problems.append("'players' must be a whole number")
    if data.get("seed") is not None and type(data["seed"]) is not int:
        problems.append("'seed' must be a whole number")
    bots = data.get("bots")
    if bots is not None and (not isinstance(bots, list) or not all(isinstance(b, str) for b in bots)):
        problems.append("'bots' must be a list of bot names")
    if not isinstance(data.get("options") or {}, dict):
        problems.append("'options' must be a mapping")
    name = game or data.get("content") or data.get("game")
    if not isinstance(name, str) or not name:
        problems.append("the log names no game: give it with --game (golden logs of one game need it)")
    if problems:
        usage_error(f"{log}: not a hordekit game log: {'; '.join(problems)}")
    data["_game"] = name
    return data


def action_location(log: Path, index: int) -> str:
    """`LOG:LINE:COL` of entry `index` of the log's `actions` list (the last `actions` key, as
    JSON reads it), or the file alone when the text cannot be walked (read_log has parsed it)."""
    import re

    from toolkit.smoke.files import LOG_MAX_BYTES

    space = re.compile(r"[ \t\n\r]*")
    try:
        text = log.read_bytes()[:LOG_MAX_BYTES].decode("utf-8-sig")
        decoder = json.JSONDecoder()
        at = None
        p = space.match(text, 0).end()
        if text[p] != "{":
            return str(log)
        p += 1
        while True:
            p = space.match(text, p).end()
            if text[p] == "}":
                break
            key, p = json.decoder.scanstring(text, p + 1)
            p = space.match(text, p).end() + 1  # past the colon
            p = space.match(text, p).end()
            if key == "actions" and text[p] == "[":
                at, n, p = None, 0, p + 1
                while True:
                    p = space.match(text, p).end()
                    if text[p] == "]":
                        p += 1
                        break
                    if n == index:
                        at = p
                    _, p = decoder.raw_decode(text, p)
                    p = space.match(text, p).end()
                    if text[p] == ",":
                        p += 1
                    n += 1
            else:
                _, p = decoder.raw_decode(text, p)
            p = space.match(text, p).end()
            if text[p] == ",":
                p += 1
        if at is None:
            return str(log)
        line = text.count("\n", 0, at) + 1
        return f"{log}:{line}:{at - text.rfind(chr(10), 0, at)}"
    except (ValueError, IndexError, OSError):
        return str(log)


def replay(
    log: Annotated[Path, typer.Argument(help="A game log written by `hordekit smoke`, or a golden log (with --game when it names no game).")],
    check: Annotated[bool, typer.Option("--check/--no-check", help="Check invariants after every step.")] = True,
    as_seat: Annotated[Optional[int], typer.Option("--as", min=1, metavar="SEAT",
                       help="Tell the game as seat SEAT (1 = first player) saw it, hiding what it could not see.")] = None,
    game: Annotated[Optional[str], typer.Option("--game", help="The game to replay in, for a log that does not name one.")] = None,
) -> None:
    """Replay a saved game log step by step and print where it ends; reproduces a failed game.

    Exit code 0 when the logged game replays and plays to its end cleanly, 1 when it fails,
    2 when the file is not a game log or its players, seed or bots do not fit the game.
    """
    from engine.core.driver import play_game

    data = read_log(log, game)
    actions, players, game_ref = data["actions"], data["players"], data["_game"]
    game_dir = Path(game_ref) if (Path(game_ref) / "game.yaml").is_file() else game_folder(str(data.get("game") or game_ref))
    loaded, spec = load_playable(str(game_dir))
    if not spec.min_players <= players <= spec.max_players:
        usage_error(f"{log}: players {players}, but {spec.id} is for {spec.min_players} to {spec.max_players} players")
    unknown = [b for b in data.get("bots") or [] if b.partition(":")[0] not in spec.bots]
    if unknown:
        usage_error(f"{log}: unknown bot {unknown[0]!r}; {spec.id} has: {', '.join(sorted(spec.bots))}")
    if data.get("fingerprint") and data["fingerprint"] != loaded.fingerprint:
        typer.echo(f"warning: the content changed since this log was written ({data['fingerprint']} -> "
                   f"{loaded.fingerprint}); the replay may diverge", err=True)
    model = spec.build_model(loaded.data)
    if as_seat is not None:
        if as_seat > players:
            usage_error(f"--as {as_seat}: the logged game has {players} players")
        from toolkit.seatview import print_story

        from toolkit.seatview import IllegalAction

        try:
            print_story(lambda: spec.new_state(model, players, dict(data.get("options") or {})), actions,
                        as_seat - 1, spec.information == "imperfect", typer.echo)
        except IllegalAction as exc:
            typer.echo(f"{action_location(log, exc.index)}: the log does not replay: action {exc.index} "
                       f"({actions[exc.index]}) is not legal: {exc}")
            raise typer.Exit(1)
        except (ValueError, IndexError) as exc:
            typer.echo(f"{log}: the log does not replay: {exc}")
            raise typer.Exit(1)
        return
    try:
        state = spec.new_state(model, players, dict(data.get("options") or {}))
    except Exception as exc:  # noqa: BLE001 - options from a file the user gave
        usage_error(f"{log}: the log's options do not fit {spec.id}: {type(exc).__name__}: {exc}")
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except ValueError as exc:
            typer.echo(f"{action_location(log, i)}: the log does not replay: action {i} ({action}) is not legal: {exc}")
            raise typer.Exit(1)
        except Exception as exc:  # the rules failed: exactly what a failure log is for
            typer.echo(f"the logged game fails again at action {i} of {len(actions)}: {type(exc).__name__}: {exc}")
            for line in _rules_frames(exc):
                typer.echo(line)
            raise typer.Exit(1)
    typer.echo(f"replayed {len(actions)} actions of {spec.id} ({players} players)")
    if check:
        problems = state.check_invariants()
        if problems:
            typer.echo(f"invariants broken at the end of the log: {'; '.join(problems)}")
            raise typer.Exit(1)
    if state.is_over():
        r = state.result()
        typer.echo(f"game over: {r.end_reason} after {r.turns} turns; scores {r.scores}; winners {r.winners}")
        return
    d = state.decision()
    typer.echo(f"the log stops with the game in progress: next, {'chance' if d.player < 0 else f'player {d.player}'}"
               f" must '{d.prompt}'")
    if data.get("seed") is not None and data.get("bots"):
        rec = play_game(spec, model, players, int(data["seed"]), list(data["bots"]), data.get("options") or {}, check=check)
        if rec.error:
            from toolkit.rules import failure_text

            typer.echo(f"playing on with the logged bots and seed reproduces the failure: {failure_text(rec)}")
            raise typer.Exit(1)
        typer.echo(f"playing on with the logged bots and seed, the game now ends cleanly "
                   f"({rec.result.end_reason}, scores {rec.result.scores})")


def scenario(
    files: Annotated[Optional[list[Path]], typer.Argument(
        metavar="[FILE-OR-GAME]...",
        help="Scenario files (YAML), folders of them, or games (a game id or folder: its scenarios). "
             "Default: the scenarios of the game here or the only game under ./content.")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="text: PASS/FAIL/WARN lines; json: one record per scenario; github: the lines plus an annotation per failure or warning.")] = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail a scenario that leaves a chance event to its seed (a warning otherwise).")] = False,
) -> None:
    """Run executable scenarios: a starting situation, scripted choices and dice, expected outcomes.

    Exit code 1 when any expectation fails. A step that chooses while a chance event the script
    left open is pending rolls it at random and warns (fails with --strict), unless the scenario
    says so with `auto: true`. The format is in docs/scenarios.md.
    """
    from toolkit.games import find_game

    from toolkit.cliutil import game_folder

    paths: list[Path] = []
    for f in files or [_scenarios_of(game_folder(None))]:
        if f.is_dir() and (f / "game.yaml").is_file():
            f = _scenarios_of(f)
        elif not f.exists() and find_game(str(f))[0] is not None:
            f = _scenarios_of(game_folder(str(f)))
        if f.is_dir():
            paths.extend(sorted(f.glob("*.yaml")))
        elif f.is_file():
            paths.append(f)
        else:
            usage_error(f"no such file or folder: {f}")
    if not paths:
        usage_error("no scenario files given")
    echo = (lambda *a, **k: None) if format is OutputFormat.json else typer.echo
    records = run_scenario_files(paths, format, echo, strict=strict)
    failed = sum(1 for r in records if not r["passed"])
    warned = sum(1 for r in records if r["warnings"])
    if format is OutputFormat.json:
        typer.echo(json.dumps(records, indent=2))
    echo(f"{len(paths) - failed} passed, {failed} failed" + (f", {warned} with warnings" if warned else ""))
    raise typer.Exit(1 if failed else 0)


def run_scenario_files(paths: list[Path], format: OutputFormat, echo: Any, strict: bool = False,
                       known: dict[str, tuple[Any, Any, Any]] | None = None,
                       passes: bool = True) -> list[dict[str, Any]]:
    """Run scenario files one by one; print a PASS, FAIL or WARN line each (through `echo`, with a
    GitHub annotation per failure or warning in the github format) and return one record per
    file: file, name, passed, failures and warnings (each {line, col, message}). `strict` makes a
    warning (a chance event a step left to the seed) fail its scenario. `known` maps a game id to
    its (loaded, spec, model) already at hand; `passes` False leaves out the PASS lines."""
    from engine.core.scenario import run_scenario
    from toolkit.diagnostics import github_annotation, one_line
    from toolkit.games import find_game, read_yaml
    from toolkit.paths import display

    cache: dict[str, tuple[Any, Any, Any] | None] = dict(known or {})
    reasons: dict[str, str] = {}  # game -> why it cannot be found
    records: list[dict[str, Any]] = []

    def fail(name: str, line: int, col: int, message: str, kind: str = "failures") -> None:
        """One failure (or warning) of the current scenario, in the format asked for."""
        records[-1][kind].append({"line": line, "col": col, "message": message})
        echo(f"{'FAIL' if kind == 'failures' else 'WARN'} {one_line(name)}:{line}:{col}: {one_line(message)}")
        if format is OutputFormat.github:
            echo(github_annotation(name, line, col, "scenario failed" if kind == "failures" else "scenario warning",
                                   message, "error" if kind == "failures" else "warning"))

    def record(name: str, title: Any) -> None:
        records.append({"file": name, "name": str(title), "passed": False, "failures": [], "warnings": []})

    for path in paths:
        doc, diags = read_yaml(path)
        name = display(path)
        if diags or not isinstance(doc.data, dict) or "game" not in doc.data:
            record(name, doc.data.get("name", path.stem) if isinstance(doc.data, dict) else path.stem)
            for d in diags:
                fail(name, d.line, d.col, d.message + (f" ({d.hint})" if d.hint else ""))
            if not diags:
                fail(name, 1, 1, "a scenario is a mapping that names its game (`game:`), with the steps and "
                                 "expectations of the example (docs/scenarios.md)")
            continue
        game_id = str(doc.data["game"])
        if game_id not in cache:
            raw = doc.data["game"]
            missing = None if isinstance(raw, str) else \
                f"game must be a game id or a game folder, not {'a list' if isinstance(raw, list) else repr(raw)}"
            if missing is None:
                missing = find_game(game_id)[1] or None
            if missing is not None:  # said on the FAIL line, not on a line of its own after the summary
                cache[game_id] = None
                reasons[game_id] = missing
            else:
                try:
                    loaded, spec = load_playable(game_id)
                    cache[game_id] = (loaded, spec, spec.build_model(loaded.data))
                except typer.Exit:  # the reason is printed; the other scenarios still run
                    cache[game_id] = None
        title = doc.data.get("name", path.stem)
        if cache[game_id] is None:
            pos = doc.pos(("game",))
            record(name, title)
            fail(name, pos.line, pos.col, reasons.get(game_id) or f"game '{game_id}' cannot be played")
            continue
        loaded, spec, model = cache[game_id]
        problems = _scenario_shape(doc.data, spec)
        warnings: list[str] = []
        if not problems:
            try:
                problems = run_scenario(doc.data, loaded.data, spec, model, warnings)
            except Exception as exc:  # noqa: BLE001 - one broken scenario never stops the batch
                problems = [f"{type(exc).__name__}: {exc}"]
        record(name, title)
        records[-1]["passed"] = not problems and not (strict and warnings)
        for kind, messages in (("failures" if strict else "warnings", warnings), ("failures", problems)):
            for p in messages:
                place = _scenario_place(p, doc.data)
                pos = doc.pos(place, key=(place[0] in ("setup", "options") and len(place) > 1
                                          and isinstance(place[-1], str)) or len(place) == 2 and place[0] == "expect")
                fail(name, pos.line, pos.col, p, kind)
        if records[-1]["passed"] and passes and verbosity() >= 0:
            echo(f"PASS {one_line(name)}: {one_line(str(title))}")
    return records


def _scenario_shape(data: dict[str, Any], spec: Any) -> list[str]:
    """What makes a scenario unplayable before it starts: a player count the game does not have."""
    players = data.get("players", spec.min_players)
    if type(players) is not int or not spec.min_players <= players <= spec.max_players:
        return [f"players: {players!r}, but {spec.id} is for {spec.min_players} to {spec.max_players} players"]
    return []


def _scenario_place(problem: str, data: dict[str, Any]) -> tuple[Any, ...]:
    """Where in the scenario file a failure message points: the setup (at the key a SetupError
    names), its step, players, the seed, or expect."""
    from engine.core.scenario import SETUP_FAULT, parse_setup_path

    if SETUP_FAULT in problem:  # first: a setup's message may itself speak of a step of the rules
        at = problem.find(f"{SETUP_FAULT} at ")
        path = parse_setup_path(problem[at + len(SETUP_FAULT) + 4:]) if at >= 0 else None
        return path if path is not None else ("setup",)
    m = re.search(r"step (\d+)(?:, entry (\d+))?", problem)
    if m:
        step = int(m.group(1)) - 1
        steps = data.get("steps")
        if m.group(2) and isinstance(steps, list) and step < len(steps) and isinstance(steps[step], dict) \
                and len(steps[step]) == 1:   # the entry of a choose or roll list that failed
            return ("steps", step, next(iter(steps[step])), int(m.group(2)) - 1)
        return ("steps", step)
    if (problem.startswith("players:") or ": players is " in problem) and "players" in data:
        return ("players",)
    if ": seed must be" in problem and "seed" in data:
        return ("seed",)
    if ": auto must be" in problem and "auto" in data:
        return ("auto",)
    return _expect_place(problem, data.get("expect"))


def _expect_place(problem: str, expect: Any) -> tuple[Any, ...]:
    """The key of the end `expect` a failure message is about (`positions is [3, 0], expected
    ...`, `result.winners is ...`, `nothing called 'x'`), else `expect` as a whole."""
    at = problem.find(": expect: ")
    if at < 0 or not isinstance(expect, dict):
        return ("expect",)
    rest = problem[at + len(": expect: "):]
    for key in expect:
        text = str(key)
        heads = {"decision": ("decision ", "options are ", "no decision ", "no option ", "option "),
                 "result": ("result",)}.get(text, (f"{text} is ", f"nothing called '{text}'"))
        if rest.startswith(heads) or text == "decision" and "options_include and options_exclude" in rest:
            return ("expect", key)
    return ("expect",)


def register(app: typer.Typer) -> None:
    app.command()(smoke)
    app.command()(replay)
    app.command()(scenario)
