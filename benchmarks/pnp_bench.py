"""Print-and-play speed: every component of every shipped game with layouts, into PDFs.

Run: .venv/bin/python benchmarks/pnp_bench.py [--repeat N]
Prints, per game and in total, the pieces printed, seconds, pieces per second and PDF size;
then, once per game, the exports (one-piece-per-page PDF, 300 DPI PNGs, Tabletop Simulator) and
the --changed-since comparison (laying the game out twice and recording every piece's drawing).
Loading and validating content is timed separately: it is not part of printing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolkit.games import load_game  # noqa: E402
from toolkit.export import export_png, export_tts, pieces_pdf  # noqa: E402
from toolkit.pnp import build_pdf  # noqa: E402
from toolkit.pnp.changes import appearance  # noqa: E402

GAMES = ("hordes-and-heroes", "kingdoms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="runs per game; the best is reported")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    total_pieces, total_seconds, total_bytes = 0, 0.0, 0
    for game_id in GAMES:
        t = time.perf_counter()
        loaded = load_game(ROOT / "content" / game_id)
        load_s = time.perf_counter() - t
        best = None
        for _ in range(args.repeat):
            t = time.perf_counter()
            report = build_pdf(loaded, out / f"{game_id}.pdf")
            s = time.perf_counter() - t
            best = s if best is None else min(best, s)
        assert best is not None and report.ok, report.diagnostics
        pieces = sum(report.faces.values())
        total_pieces += pieces
        total_seconds += best
        total_bytes += report.bytes
        print(f"{game_id:<20} {pieces:>5} pieces  {report.pages:>3} pages  {best:6.3f} s  "
              f"{pieces / best:8.0f} pieces/s  {report.bytes / 1024:7.0f} KiB  (load {load_s:.3f} s)")
    print(f"{'all games':<20} {total_pieces:>5} pieces            {total_seconds:6.3f} s  "
          f"{total_pieces / total_seconds:8.0f} pieces/s  {total_bytes / 1024:7.0f} KiB")
    for game_id in GAMES:
        loaded = load_game(ROOT / "content" / game_id)
        timings = []
        for label, run in (("pieces.pdf", lambda: pieces_pdf(loaded, out / f"{game_id}-pieces.pdf")),
                           ("png 300 dpi", lambda: export_png(loaded, out / f"{game_id}-png")),
                           ("tts 150 dpi", lambda: export_tts(loaded, out / f"{game_id}-tts")),
                           ("appearance x2", lambda: (appearance(loaded), appearance(loaded)))):
            t = time.perf_counter()
            result = run()
            files = len(getattr(result, "files", [])) if not isinstance(result, tuple) else len(result[0] or {})
            timings.append(f"{label} {time.perf_counter() - t:.2f} s ({files})")
        print(f"{game_id:<20} " + " · ".join(timings))


if __name__ == "__main__":
    main()
