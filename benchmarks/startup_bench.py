"""Start-up: wall and CPU time of `hordekit pnp GAME` for every discovered game with print
layouts (target: under 0.4 s wall), how much of it is spent importing, and whether pydantic was
imported at all; next to the figures before the start-up work (issue "Performance at scale").

Each figure is the best of a few fresh processes, with Python's bytecode cache and hordekit's
template cache warm (as on a designer's machine; the first, warm-up run writes them). CPU time is
the process's user + system time: on a machine shared with other work, wall time also counts the
waits for a core, CPU time does not.

``--baseline CHECKOUT`` measures another checkout of hordekit (with its own ``.venv``, e.g. an
older commit) in the same run, game by game, instead of printing the figures recorded below.

Run: .venv/bin/python benchmarks/startup_bench.py [--runs 5] [--baseline /path/to/old/checkout]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from discover import ROOT, playable_games  # noqa: E402

TARGET_MS = 400
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "HORDEKIT_NO_CACHE")}
PYDANTIC = re.compile(r"\|\s+pydantic(\.|$)")
TOP_IMPORT = re.compile(r"^import time:\s+\d+ \|\s+(\d+) \| (\S+)$")  # one space: imported by the program itself
#: Best wall and CPU ms before the start-up work, at commit c1ace25. Wall: that commit's own bench
#: (--runs 3) at a quiet moment of the shared 2-core machine. CPU: this bench with --baseline on a
#: checkout of c1ace25 (--runs 5) at a load average of 8 (docs/pnp.md, "Start-up").
BEFORE: dict[str, tuple[float, float]] = {
    "--help": (138, 112), "dice-battles": (874, 886), "fantasy-draft": (698, 764),
    "hordes-and-heroes": (905, 956), "kingdoms": (1089, 1037),
}


def best_of(cmd: list[str], runs: int, cwd: Path = ROOT) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds) of ``runs`` fresh processes, after one warm-up run."""
    subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, check=True)  # warm-up: bytecode, template cache
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, check=True)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def imports(cmd: list[str], cwd: Path = ROOT) -> tuple[float, float, bool]:
    """(seconds importing, wall seconds, pydantic imported?) of one run under -X importtime."""
    t = time.perf_counter()
    proc = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], cwd=cwd, env=ENV, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - t
    total, pydantic = 0, False
    for line in proc.stderr.splitlines():
        m = TOP_IMPORT.match(line)
        if m:
            total += int(m.group(1))
        pydantic |= PYDANTIC.search(line) is not None
    return total / 1e6, wall, pydantic


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:>6.0f}" if seconds else f"{'-':>6}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="another hordekit checkout with its own .venv, measured in the same run")
    args = parser.parse_args()
    baseline = args.baseline.resolve() if args.baseline else None
    old_python = str(baseline / ".venv" / "bin" / "python") if baseline else None
    games, _ = playable_games()
    source = f"baseline {baseline}" if baseline else "recorded, commit c1ace25"
    print(f"  before: {source}; now: this checkout. Best of {args.runs}, ms; target: pnp under {TARGET_MS} ms wall")
    print(f"  {'command':<40}{'before wall':>12}{'cpu':>7}{'now wall':>10}{'cpu':>7}{'importing':>11}"
          f"  pydantic  target")
    with tempfile.TemporaryDirectory() as tmp:
        def row(label: str, key: str, argv: list[str], target: bool) -> None:
            now = best_of([sys.executable, "-m", "toolkit", *argv], args.runs)
            if old_python:
                old = best_of([old_python, "-m", "toolkit", *argv], args.runs, cwd=baseline)
            else:
                old = tuple(ms / 1000 for ms in BEFORE.get(key, (0, 0)))
            imp, imp_wall, pyd = imports([sys.executable, "-m", "toolkit", *argv])
            verdict = ("" if not target else
                       f"< {TARGET_MS} wall: {'yes' if now[0] * 1000 < TARGET_MS else 'no'}"
                       f" (cpu {'yes' if now[1] * 1000 < TARGET_MS else 'no'})")
            print(f"  {label:<40}{_ms(old[0]):>12}{_ms(old[1]):>7}{_ms(now[0]):>10}{_ms(now[1]):>7}"
                  f"{_ms(imp):>11}  {'yes' if pyd else 'no':<8}  {verdict}")

        row("hordekit --help", "--help", ["--help"], False)
        for game in games:
            if not (game.loaded.game.templates_dir / "layouts.yaml").is_file():
                continue
            row(f"hordekit pnp {game.id}", game.id, ["pnp", game.id, "-o", str(Path(tmp) / f"{game.id}.pdf")], True)
            first = sorted(game.loaded.sources)[0]
            row(f"  --only {first}", "", ["pnp", game.id, "--only", first, "-o", str(Path(tmp) / "one.pdf")], False)


if __name__ == "__main__":
    main()
