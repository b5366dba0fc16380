"""Validation speed: `hordekit validate` against check-jsonschema, a 10,000-component game, and
`hordekit --help`. Prints figures; asserts nothing (speed is measured here, never in tests)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def best_of(cmd: list[str], runs: int = 5, cwd: Path = ROOT) -> float:
    """Best wall time of `runs` runs of a command, interpreter start included."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - t)
    return min(times)


def check_jsonschema_time() -> float | None:
    """check-jsonschema on the same files with the same schemas: one run per schema."""
    exe = BIN / "check-jsonschema"
    if not exe.exists():
        return None
    sys.path.insert(0, str(ROOT))
    from toolkit.games import find_game_dirs, read_manifest

    runs = []
    for gdir in find_game_dirs([ROOT / "content"])[0]:
        game, _, _ = read_manifest(gdir)
        runs.append([str(exe), "--schemafile", str(ROOT / "schemas/manifest.schema.json"), str(game.dir / "game.yaml")])
        for kind in game.kinds.values():
            runs.append([str(exe), "--schemafile", str(kind.schema), *map(str, kind.files)])
    total = 0.0
    for cmd in runs:
        total += best_of(cmd, runs=3)
    return total


#: Print layouts for the generated game, so that validate's text-fit check (HK401) runs too.
BENCH_LAYOUTS = """defaults: {font: regular, size: 7.5, min-size: 5, colour: "#2b2118"}
kinds:
  faction:
    size: [63, 88]
    boxes:
      - {type: rect, x: 0, y: 0, w: 63, h: 88, fill: "{{ colour }}", bleed: true}
      - {type: text, name: title, x: 6, y: 5, w: 51, h: 8, text: "{{ name }}", font: bold, size: 11}
  unit:
    size: [63, 88]
    boxes:
      - {type: rect, x: 0, y: 0, w: 63, h: 88, fill: "#ecd9c6", bleed: true}
      - {type: text, name: title, x: 6, y: 5, w: 40, h: 7, text: "{{ name }}", font: bold, size: 11, min-size: 7}
      - {type: text, name: cost, x: 46, y: 5, w: 12, h: 7, text: "{{ cost }}", align: right}
      - {type: text, name: stats, x: 6, y: 14, w: 51, h: 7, text: "{{ type }} · strength {{ strength }}"}
      - {type: text, name: ability, x: 8, y: 59.5, w: 47, h: 19, text: "{{ effect_text(effects) }}", align: center}
"""


def generated_game(folder: Path, n: int, errors: int = 0, name: str = "big") -> Path:
    """A copy of the fixture game with `n` unit components and print layouts; with `errors`,
    one unit in every n/errors has a strength that is text instead of a number."""
    game = folder / name
    shutil.copytree(ROOT / "tests/fixtures/mini", game)
    lines = ["kind: unit", "items:"]
    types = ["human", "beast", "undead"]
    every = n // errors if errors else 0
    for i in range(n):
        strength = "lots" if every and i % every == 0 else i % 12
        lines += [f"  - id: unit-{i}", f"    name: Unit number {i}", f"    faction: {'red-legion' if i % 2 else 'blue-host'}",
                  f"    type: {types[i % 3]}", f"    strength: {strength}", f"    cost: {'X' * (1 + i % 5)}",
                  "    effects:", "      - kind: shield", f"        amount: {1 + i % 3}"]
    (game / "units.yaml").write_text("\n".join(lines) + "\n")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("expected: 5", f"expected: {n}").replace("id: mini", f"id: {name}"))
    (game / "templates" / "layouts.yaml").write_text(BENCH_LAYOUTS)
    return game


def timed(cmd: list[str], runs: int = 3, env: dict[str, str] | None = None,
          ) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """Best wall time and best CPU time (user + system) of a command, and its last result.

    Each run is a fresh process, interpreter start and imports included. CPU time is printed
    too because on a busy machine wall time mostly measures the queue.
    """
    walls, cpus = [], []
    proc = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, env={**os.environ, **(env or {})})
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    assert proc is not None
    return min(walls), min(cpus), proc


def big_game_figures(folder: Path) -> list[str]:
    """10,000 components, clean and with 100 errors: hordekit against check-jsonschema.

    hordekit is timed twice: parsing every file on every run (cache off), and with the content
    cache filled by a first run (a designer validating again after editing another file).
    """
    hk = str(BIN / "hordekit")
    cj = BIN / "check-jsonschema"
    rows = []
    cache = folder / "cache"
    for errors in (0, 100):
        game = generated_game(folder, 10_000, errors, name=f"big-{errors}")
        label = "clean" if not errors else f"{errors} errors"
        cmd = [hk, "validate", str(game), "--format", "json"]
        for how, env in (("cold", {"HORDEKIT_NO_CACHE": "1"}), ("cached", {"HORDEKIT_CACHE_DIR": str(cache)})):
            if how == "cached":
                subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, env={**os.environ, **env})
            wall, cpu, proc = timed(cmd, env=env)
            diags = json.loads(proc.stdout or b"[]")
            found = [d for d in diags if d["severity"] == "error"]
            located = sum(1 for d in found if d["file"].endswith("units.yaml") and d["line"] > 1)
            rows.append(f"  10,000 components, {label:<10} hordekit validate, {how:<6} {wall * 1000:7.0f} ms wall "
                        f"{cpu * 1000:7.0f} ms cpu   target < 1500 ms   ({len(found)} errors, {located} located at file:line:col)")
        if cj.exists():
            schema = game / "schemas" / "units.schema.json"
            wall, cpu, proc = timed([str(cj), "--schemafile", str(schema), str(game / "units.yaml")])
            rows.append(f"  10,000 components, {label:<10} check-jsonschema        {wall * 1000:7.0f} ms wall "
                        f"{cpu * 1000:7.0f} ms cpu   (units.yaml only; errors by key path, no line)")
    return rows


def main() -> None:
    hk = [str(BIN / "hordekit")]
    all_content = best_of(hk + ["validate"])
    cj = check_jsonschema_time()
    help_time = best_of(hk + ["--help"])
    with tempfile.TemporaryDirectory() as tmp:
        big_rows = big_game_figures(Path(tmp))
    print("validation")
    print(f"  hordekit validate, all shipped content (process)   {all_content * 1000:8.0f} ms   target < 1000 ms")
    if cj is None:
        print("  check-jsonschema, same files and schemas            (not installed: make bench installs it)")
    else:
        print(f"  check-jsonschema, same files and schemas (process) {cj * 1000:8.0f} ms   ({cj / all_content:.1f}x hordekit's time)")
    print("  (each figure: best of 3 fresh processes, interpreter start included; wall and CPU time)")
    for row in big_rows:
        print(row)
    print(f"  hordekit --help (process)                          {help_time * 1000:8.0f} ms   target < 300 ms")


if __name__ == "__main__":
    main()
