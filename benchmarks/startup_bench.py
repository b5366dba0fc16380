"""Start-up: wall time of `hordekit pnp GAME` for every discovered game with print layouts (target
under 0.4 s), how much of it is spent importing, and whether pydantic was imported at all.

Each figure is the best of a few fresh processes, with Python's bytecode cache on (as on a
designer's machine; the first, warm-up run writes it).

Run: .venv/bin/python benchmarks/startup_bench.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from discover import ROOT, playable_games  # noqa: E402

HORDEKIT = [sys.executable, "-m", "toolkit"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
PYDANTIC = re.compile(r"\|\s+pydantic(\.|$)")
TOP_IMPORT = re.compile(r"^import time:\s+\d+ \|\s+(\d+) \| (\S+)$")  # one space: imported by the program itself


def best_of(cmd: list[str], runs: int) -> float:
    subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, check=True)  # warm-up: writes bytecode
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    return min(times)


def imports(cmd: list[str]) -> tuple[float, float, bool]:
    """(seconds importing, wall seconds, pydantic imported?) of one run under -X importtime."""
    t = time.perf_counter()
    proc = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], cwd=ROOT, env=ENV, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - t
    total, pydantic = 0, False
    for line in proc.stderr.splitlines():
        m = TOP_IMPORT.match(line)
        if m:
            total += int(m.group(1))
        pydantic |= PYDANTIC.search(line) is not None
    return total / 1e6, wall, pydantic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games, _ = playable_games()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"  {'command':<46}{'wall (best)':>12}{'importing':>12}   pydantic")
        help_cmd = [*HORDEKIT, "--help"]
        print(f"  {'hordekit --help':<46}{best_of(help_cmd, args.runs) * 1000:>9.0f} ms"
              f"{imports(help_cmd)[0] * 1000:>9.0f} ms   {'yes' if imports(help_cmd)[2] else 'no'}")
        for game in games:
            if not (game.loaded.game.templates_dir / "layouts.yaml").is_file():
                continue
            cmd = [*HORDEKIT, "pnp", game.id, "-o", str(Path(tmp) / f"{game.id}.pdf")]
            wall = best_of(cmd, args.runs)
            imp, imp_wall, pyd = imports(cmd)
            first = sorted(game.loaded.sources)[0]
            one = best_of([*HORDEKIT, "pnp", game.id, "--only", first, "-o", str(Path(tmp) / "one.pdf")], args.runs)
            print(f"  {f'hordekit pnp {game.id}':<46}{wall * 1000:>9.0f} ms{imp * 1000:>9.0f} ms   "
                  f"{'yes' if pyd else 'no'}   ({100 * imp / imp_wall:.0f}% of a run importing; target < 400 ms)")
            print(f"  {f'hordekit pnp {game.id} --only {first}':<46}{one * 1000:>9.0f} ms")


if __name__ == "__main__":
    main()
