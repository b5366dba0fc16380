"""`hordekit watch`: keep a game checked and printed while the designer edits it.

Polls the modification times of the game's own files (manifest, component files, schemas,
layouts, text templates, rules file) a few times a second: a game is a few dozen files, so
polling costs nothing measurable and needs no platform-specific watcher or extra dependency.
After each change it prints only the difference: problems that appeared or went away, the
pieces whose data changed (each with a fresh preview PNG), and the PDF it rewrote.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

import typer

from toolkit.cliutil import load_checked
from toolkit.diagnostics import Diagnostic, format_text
from toolkit.paths import display

#: At most this many preview PNGs after one change (a layout edit changes every piece).
MAX_PREVIEWS = 12
PREVIEW_DPI = 100

Snapshot = dict[Path, tuple[int, int]]


class Watcher:
    """One game being watched: what it looked like last time, to report only what changed."""

    def __init__(self, game_dir: Path, output: Path | None = None, previews: bool = True,
                 echo: Callable[[str], None] = typer.echo) -> None:
        self.game_dir = game_dir
        self.output = output
        self.previews = previews
        self.echo = echo
        self.problems: dict[tuple[str, str, str], Diagnostic] = {}
        self.items: dict[str, str] = {}  # item id -> its data as canonical JSON
        self.files: Snapshot = {}

    # -- what to watch ----------------------------------------------------------------------
    def watched_files(self) -> list[Path]:
        """The files a change to which changes the game (only those inside the game's folders)."""
        from toolkit.games import read_manifest

        found = {self.game_dir / "game.yaml"}
        game, _, _ = read_manifest(self.game_dir)
        if game is not None:
            for kind in game.kinds.values():
                found.update(kind.files)
                found.add(kind.schema)
                folder = kind.files[0].parent if kind.files else None
                if folder is not None and folder != self.game_dir and folder.is_dir():
                    found.update(folder.glob("*.yaml"))
            for folder in (game.templates_dir, game.schemas_dir):
                if folder.is_dir() and folder.resolve().is_relative_to(self.game_dir.resolve()):
                    found.update(p for p in folder.rglob("*") if p.is_file())
            if game.rules and game.rules.endswith(".py"):
                found.add(Path(game.rules))
            found.update(p for p in game.templates_dir.glob("*.yaml"))
        return sorted(found)

    def snapshot(self) -> Snapshot:
        snap: Snapshot = {}
        for path in self.watched_files():
            try:
                st = path.stat()
            except OSError:
                continue
            snap[path] = (st.st_mtime_ns, st.st_size)
        return snap

    # -- the loop ---------------------------------------------------------------------------
    def run(self, interval: float = 0.5, stop_after: float | None = None) -> None:
        """Check and print once, then again after every change, until Ctrl-C or ``stop_after``."""
        deadline = None if stop_after is None else time.monotonic() + stop_after
        self.files = self.snapshot()
        self.echo(f"watching {display(self.game_dir)} ({len(self.files)} files); Ctrl-C stops")
        self.rebuild(changed_files=[])
        while deadline is None or time.monotonic() < deadline:
            time.sleep(interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic())))
            now = self.snapshot()
            if now != self.files:
                changed = sorted(set(now) ^ set(self.files) | {p for p in now if self.files.get(p) != now[p]})
                self.files = now
                self.echo(f"changed: {', '.join(display(p) for p in changed)}")
                self.rebuild(changed)

    def rebuild(self, changed_files: list[Path]) -> None:
        """Validate; print new and fixed problems; reprint the PDF and preview changed pieces."""
        loaded = load_checked(self.game_dir)
        self._report_problems(loaded.diagnostics, first=not changed_files)
        if not loaded.ok or loaded.game is None:
            self.echo("not printed until the errors are fixed")
            return
        changed_ids = self._changed_items(loaded)
        game = loaded.game
        if any(p.resolve().is_relative_to(game.templates_dir.resolve()) for p in changed_files):
            changed_ids = sorted(loaded.sources)  # a layout or text template touches every piece
        if changed_ids and changed_files:
            self.echo(f"pieces changed: {', '.join(changed_ids[:20])}{' …' if len(changed_ids) > 20 else ''}")
        if not (game.templates_dir / "layouts.yaml").is_file():
            self.echo(f"no layouts at {display(game.templates_dir / 'layouts.yaml')}: nothing to print")
            return
        self._print(loaded, changed_ids if changed_files else [])

    def _report_problems(self, diags: list[Diagnostic], first: bool) -> None:
        now = {(d.file, d.code, d.message): d for d in diags}
        new = [d for k, d in now.items() if k not in self.problems]
        fixed = [d for k, d in self.problems.items() if k not in now]
        if new:
            self.echo(format_text(new))
        for d in fixed:
            self.echo(f"fixed: {d.file}: {d.code}: {d.message}")
        if first and not now:
            self.echo("valid")
        self.problems = now

    def _changed_items(self, loaded: Any) -> list[str]:
        items = {str(item["id"]): json.dumps(item, sort_keys=True, default=str)
                 for kind in loaded.data.values() for item in kind if isinstance(item, dict) and "id" in item}
        changed = sorted(i for i in items if self.items.get(i) != items[i]) if self.items else []
        removed = sorted(set(self.items) - set(items))
        if removed:
            self.echo(f"pieces removed: {', '.join(removed)}")
        self.items = items
        return changed

    def _print(self, loaded: Any, changed_ids: list[str]) -> None:
        from toolkit.pnp import build_pdf, default_output

        target = self.output or default_output(loaded.game.id)
        report = build_pdf(loaded, target)
        if report.diagnostics:
            self.echo(format_text(report.diagnostics))
        if not report.ok:
            self.echo(f"{display(target)} not rewritten")
            return
        self.echo(f"{display(target)}: {report.pages} pages")
        if self.previews and changed_ids:
            self._previews(loaded, changed_ids[:MAX_PREVIEWS], target.parent / "preview")

    def _previews(self, loaded: Any, ids: list[str], folder: Path) -> None:
        from toolkit.pnp.preview import render_preview

        written = []
        for item_id in ids:
            result = render_preview(loaded, item_id, folder / f"{item_id}.png", dpi=PREVIEW_DPI)
            if result.ok and result.output is not None:
                written.append(display(result.output))
        if written:
            self.echo(f"previews: {', '.join(written)}")
