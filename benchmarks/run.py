"""`make bench`: every benchmark, one after another, printing figures (nothing is asserted)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = ["validate_bench.py", "engine_bench.py", "smoke_bench.py", "pnp_bench.py", "search_bench.py",
           "tutorial_bench.py", "startup_bench.py"]

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    for name in BENCHES:
        path = HERE / name
        if path.exists():
            print(f"== {name[:-3]}", flush=True)
            runpy.run_path(str(path), run_name="__main__")
            print(flush=True)
