"""``--changed-since REF``: the components whose data differ from a git commit.

The old version of each content file is read with ``git show REF:path`` (nothing in the working
tree is touched) and items are compared by id as plain data, so reformatting or comment edits
do not count as changes; new items do.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from toolkit.games import LoadedGame
from toolkit.yamlload import load_bytes


class ChangeError(Exception):
    """The ref or the repository cannot be read: a usage error."""


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60)


def changed_ids(loaded: LoadedGame, ref: str) -> set[str]:
    game = loaded.game
    assert game is not None
    top = _git(game.dir, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise ChangeError(f"{game.dir} is not inside a git repository")
    root = Path(top.stdout.decode().strip())
    if _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode != 0:
        raise ChangeError(f"'{ref}' is not a commit in {root}")
    old: dict[str, Any] = {}
    for kind in game.kinds.values():
        for f in kind.files:
            rel = f.resolve().relative_to(root.resolve()).as_posix()
            shown = _git(root, "show", f"{ref}:{rel}")
            if shown.returncode != 0:
                continue  # the file is new since ref: all its items count as changed
            doc = load_bytes(shown.stdout)
            items = doc.data.get("items") if isinstance(doc.data, dict) else None
            for item in items or []:
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    old[item["id"]] = item
    changed = set()
    for items in loaded.data.values():
        for item in items:
            item_id = item.get("id")
            if isinstance(item_id, str) and old.get(item_id) != item:
                changed.add(item_id)
    return changed
