"""Validation speed: `hordekit validate` against check-jsonschema, a 10,000-component game, and
`hordekit --help`. Prints figures; asserts nothing (speed is measured here, never in tests)."""

from __future__ import annotations

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


def generated_game(folder: Path, n: int) -> Path:
    """A copy of the fixture game with `n` unit components."""
    game = folder / "big"
    shutil.copytree(ROOT / "tests/fixtures/mini", game)
    lines = ["kind: unit", "items:"]
    types = ["human", "beast", "undead"]
    for i in range(n):
        lines += [f"  - id: unit-{i}", f"    name: Unit number {i}", f"    faction: {'red-legion' if i % 2 else 'blue-host'}",
                  f"    type: {types[i % 3]}", f"    strength: {i % 12}", f"    cost: {'X' * (1 + i % 5)}",
                  "    effects:", "      - kind: shield", f"        amount: {1 + i % 3}"]
    (game / "units.yaml").write_text("\n".join(lines) + "\n")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("expected: 5", f"expected: {n}"))
    return game


def main() -> None:
    hk = [str(BIN / "hordekit")]
    all_content = best_of(hk + ["validate"])
    cj = check_jsonschema_time()
    help_time = best_of(hk + ["--help"])
    with tempfile.TemporaryDirectory() as tmp:
        big = generated_game(Path(tmp), 10_000)
        big_cli = best_of(hk + ["validate", str(big)], runs=3)
        sys.path.insert(0, str(ROOT))
        from toolkit.games import load_game

        t = time.perf_counter()
        loaded = load_game(big)
        big_inproc = time.perf_counter() - t
        assert loaded.ok, loaded.diagnostics[:3]
    print("validation")
    print(f"  hordekit validate, all shipped content (process)   {all_content * 1000:8.0f} ms   target < 1000 ms")
    if cj is None:
        print("  check-jsonschema, same files and schemas            (not installed: make bench installs it)")
    else:
        print(f"  check-jsonschema, same files and schemas (process) {cj * 1000:8.0f} ms   ({cj / all_content:.1f}x hordekit's time)")
    print(f"  10,000-component game, hordekit validate (process) {big_cli * 1000:8.0f} ms   target < 1500 ms")
    print(f"  10,000-component game, load_game in-process        {big_inproc * 1000:8.0f} ms")
    print(f"  hordekit --help (process)                          {help_time * 1000:8.0f} ms   target < 300 ms")


if __name__ == "__main__":
    main()
