"""Finding games, reading their manifests and loading their content into plain data.

A game is a folder with a ``game.yaml``. Everything later stages need — the items of each kind,
where each item stands in its file, the content fingerprint — comes out of ``load_game``, which
also runs every check (see ``toolkit.checks``) so that no stage ever works on invalid content.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from toolkit.diagnostics import Diagnostic, Severity, error
from toolkit.paths import data_dir, display
from toolkit.yamlcache import load_cached
from toolkit.yamlload import MAX_FILE_BYTES, LoadedYaml, Pos

MANIFEST = "game.yaml"


@dataclass
class Kind:
    """One component kind as the manifest declares it."""

    name: str
    files: list[Path]
    schema: Path
    expected: int
    physical: bool
    description: str


@dataclass
class Game:
    """A game's manifest, read and resolved to paths."""

    dir: Path
    manifest: LoadedYaml
    id: str
    title: str
    players: tuple[int, int]
    rules: str | None
    schemas_dir: Path
    templates_dir: Path
    kinds: dict[str, Kind]
    #: manifest paths (e.g. ("components", "unit", "file")) naming something that may not be read
    path_problems: dict[tuple[str, ...], str] = field(default_factory=dict)

    @property
    def manifest_file(self) -> Path:
        return self.dir / MANIFEST


@dataclass
class Source:
    """Where an item was written: file and position, for any later stage to point at."""

    file: str
    line: int
    col: int
    #: where each of the item's own fields is written (line, col of its value), by field name
    fields: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class LoadedGame:
    """A game's content as plain data plus every diagnostic found while loading it."""

    game: Game | None
    data: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)  # item id -> where it is written
    docs: dict[Path, LoadedYaml] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of the content: equal content, equal fingerprint, on any machine.

        Worked out once: content is not changed once loaded, and printing asks for it on every
        piece (hashing a whole game's content each time was a tenth of a PDF's drawing time)."""
        canonical = json.dumps(self.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]

    def counts(self, physical_only: bool = True) -> dict[str, int]:
        """Pieces per kind, quantities included."""
        if self.game is None:
            return {}
        return {
            name: sum(_quantity(item) for item in self.data.get(name, []))
            for name, kind in self.game.kinds.items()
            if kind.physical or not physical_only
        }


def _quantity(item: dict[str, Any]) -> int:
    """An item's copies; a quantity that is not a whole number (already reported) counts as one.
    A whole number written as a decimal (``10.0``, which JSON Schema accepts as an integer) counts
    as that number, as the rules engines and print-and-play read it."""
    q = item.get("quantity", 1)
    if type(q) is float and q.is_integer():
        return int(q)
    return q if type(q) is int else 1


def inside(path: Path, root: Path) -> bool:
    """Whether ``path``, symbolic links followed, lies within ``root``; False for a link loop."""
    try:
        return inside_resolved(path, root.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop
        return False


def _resolved(folder: Path) -> Path | None:
    """``folder`` with symbolic links followed; None for a link loop (nothing is inside it)."""
    try:
        return folder.resolve()
    except (OSError, RuntimeError):
        return None


def inside_resolved(path: Path, root: Path) -> bool:
    """``inside`` for a root already resolved: a game's files are checked against one folder."""
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop
        return False


def find_game_dirs(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Game folders named by ``paths`` (game folders, folders of games, or files in a game).

    Returns (game folders, files to report on; empty means report on everything).
    """
    games: list[Path] = []
    files: list[Path] = []
    for p in paths:
        p = p.resolve()
        if p.is_file():
            root = next((d for d in p.parents if (d / MANIFEST).is_file()), None)
            if root is not None:
                games.append(root)
                files.append(p)
        elif (p / MANIFEST).is_file():
            games.append(p)
        elif p.is_dir():
            games.extend(sorted(d for d in p.iterdir() if (d / MANIFEST).is_file()))
    unique = list(dict.fromkeys(games))
    return unique, files


def game_search_dirs() -> list[Path]:
    """Where a game id is looked up: the designer's ``./content``, then the games hordekit ships."""
    return [Path("content"), data_dir("content")]


def default_templates_dir(game_dir: Path, gid: str) -> Path:
    """Where layouts and text templates are when the manifest does not say: the game's own
    ``templates/`` folder; hordekit's built-in ``templates/<id>/`` only for a game it ships."""
    if game_dir.resolve().parent == data_dir("content").resolve():
        return data_dir("templates") / gid
    return game_dir / "templates"


def resolve_rules(game_dir: Path, rules: Any) -> str | None:
    """The manifest's ``rules``; a rules file (``rules.py``) becomes an absolute path inside the game."""
    from toolkit.rules import is_rules_file

    if not isinstance(rules, str):
        return None
    return str((game_dir / rules).resolve()) if is_rules_file(rules) else rules


def find_game(name: str) -> tuple[Path | None, str]:
    """A game folder from a folder path, or a game id under ./content or among the shipped games.

    Returns (folder, "") or (None, a message saying what was looked for, with a suggestion).
    """
    from toolkit.diagnostics import did_you_mean

    as_path = Path(name)
    if (as_path / MANIFEST).is_file():
        return as_path, ""
    if Path(MANIFEST).is_file() and Path.cwd().name == name:  # run from inside the game's folder
        return Path("."), ""
    known: list[str] = []
    for content in game_search_dirs():
        if (content / name / MANIFEST).is_file():
            return content / name, ""
        if content.is_dir():
            known += [d.name for d in content.iterdir() if (d / MANIFEST).is_file()]
    hint = did_you_mean(name, sorted(set(known)))
    return None, (f"no game '{name}' (neither a folder with a game.yaml nor a game id under ./content "
                  f"or among hordekit's own games)" + (f"; {hint}" if hint else ""))


def read_yaml(path: Path) -> tuple[LoadedYaml, list[Diagnostic]]:
    """Load one YAML file; its reading problems become diagnostics against the file."""
    name = display(path)
    try:
        raw = _read_bounded(path)
    except OSError as exc:
        return LoadedYaml(data=None), [error("HK012", f"cannot read file: {exc.strerror or exc}", name)]
    doc = load_cached(path, raw)  # a big file that has not changed is read back, not parsed
    diags = [error(p.code, p.message, name, p.pos.line, p.pos.col, p.hint) for p in doc.problems]
    if doc.data is None and not doc.problems:
        diags.append(error("HK004", "file is empty", name, 1, 1, EMPTY_HINTS.get(path.name, EMPTY_HINTS[""])))
    return doc, diags


#: What an empty file should hold, by its name (HK004's hint).
EMPTY_HINTS = {
    MANIFEST: "a manifest holds 'id:', 'title:', 'players:' and 'components:'; see docs/content-format.md",
    "layouts.yaml": "print layouts hold 'kinds:' (and 'backs:', 'defaults:'); see docs/pnp.md",
    "text.yaml": "text templates map each effect kind to its sentence; see docs/pnp.md",
    "icons.yaml": "icons map each token to its drawing; see docs/pnp.md",
    "": "a content file holds 'kind:' and 'items:'; see docs/content-format.md",
}


def _outside_message(path: Path, shown: str) -> str:
    try:
        path.resolve()
    except RuntimeError:
        return f"component file {shown} is a loop of symbolic links"
    return f"component file {shown} lies outside the game's folder; files outside a game are never read"


def _read_bounded(path: Path) -> bytes:
    """A regular file's bytes, never more than one byte past the size limit.

    Reading stops there, so a huge file (or a device such as /dev/zero) costs no memory; a FIFO
    or device is refused before it is opened, since opening one can block.
    """
    with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(0, "not a regular file")
        return fh.read(MAX_FILE_BYTES + 1)


#: How a path problem that is a permission (HK012), not a place (HK017), starts.
UNREADABLE = "unreadable: "


def _game_paths(game_dir: Path, data: dict[str, Any], gid: str) -> tuple[Path, Path, dict[tuple[str, ...], str]]:
    """The schemas and templates folders, and what in the manifest points outside the game."""
    problems: dict[tuple[str, ...], str] = {}
    schemas = data.get("schemas", "hordekit")
    schemas_dir = data_dir("schemas") if schemas == "hordekit" else (game_dir / str(schemas))
    if schemas != "hordekit" and not inside(schemas_dir, game_dir):
        problems[("schemas",)] = f"schemas folder {schemas} lies outside the game's folder"
    templates = data.get("templates")
    templates_dir = (game_dir / str(templates)) if templates else default_templates_dir(game_dir, gid)
    if templates and not inside(templates_dir, game_dir):
        problems[("templates",)] = f"templates folder {templates} lies outside the game's folder"
    elif not templates and not (inside(templates_dir, data_dir("templates")) or inside(templates_dir, game_dir)):
        templates_dir = data_dir("templates") / "-"  # an id such as '../x' names no built-in folder
    for key, folder in (("schemas", schemas_dir), ("templates", templates_dir)):
        if (key,) not in problems and folder.is_dir() and not os.access(folder, os.R_OK | os.X_OK):
            # Nothing in it can be looked at: say so once, at the manifest, rather than fail later.
            problems[(key,)] = f"{UNREADABLE}{key} folder {display(folder)} cannot be read (permission denied)"
            if key == "templates":
                templates_dir = data_dir("templates") / "-"
    return schemas_dir, templates_dir, problems


def read_manifest(game_dir: Path) -> tuple[Game | None, LoadedYaml, list[Diagnostic]]:
    """Read ``game.yaml`` and resolve its paths. The schema check happens in ``checks``."""
    path = game_dir / MANIFEST
    doc, diags = read_yaml(path)
    data = doc.data
    if not isinstance(data, dict):
        return None, doc, diags
    try:
        players = data.get("players", {})
        gid = str(data.get("id", game_dir.name))
        schemas_dir, templates_dir, problems = _game_paths(game_dir, data, gid)
        schema_root = game_dir if ("schemas",) not in problems and data.get("schemas", "hordekit") != "hordekit" \
            else data_dir("schemas")
        kinds: dict[str, Kind] = {}
        game_root, resolved_schema_root = _resolved(game_dir), _resolved(schema_root)
        for name, spec in (data.get("components") or {}).items():
            if not isinstance(spec, dict):
                continue
            target = game_dir / str(spec.get("file", ""))
            files = sorted(target.glob("*.yaml")) if target.is_dir() else [target]
            outside = [f for f in files if game_root is None or not inside_resolved(f, game_root)]
            if outside:
                shown = str(spec.get("file")) + (f"/{outside[0].name}" if target.is_dir() else "")
                problems[("components", str(name), "file")] = _outside_message(outside[0], shown)
                files = []
            schema = schemas_dir / str(spec.get("schema", ""))
            if (resolved_schema_root is None or not inside_resolved(schema, resolved_schema_root)) \
                    and ("schemas",) not in problems:
                problems[("components", str(name), "schema")] = (
                    f"schema {spec.get('schema')} lies outside the schemas folder")
            kinds[str(name)] = Kind(
                name=str(name),
                files=files,
                schema=schema,
                expected=int(spec.get("expected", 0)) if isinstance(spec.get("expected", 0), int) else 0,
                physical=bool(spec.get("physical", True)),
                description=str(spec.get("description", "")),
            )
        game = Game(
            dir=game_dir,
            manifest=doc,
            id=gid,
            title=str(data.get("title", gid)),
            players=(int(players.get("min", 1)), int(players.get("max", 1))),
            rules=resolve_rules(game_dir, data.get("rules")),
            schemas_dir=schemas_dir,
            templates_dir=templates_dir,
            kinds=kinds,
            path_problems=problems,
        )
    except (AttributeError, TypeError, ValueError):
        return None, doc, diags  # the manifest's shape is wrong; its schema check says where
    return game, doc, diags


def load_game(game_dir: Path) -> LoadedGame:
    """Read, check and load one game. Never raises for bad content."""
    from toolkit.checks import check_game

    return check_game(game_dir)


def manifest_pos(game: Game, *path: Any) -> Pos:
    return game.manifest.pos(("components",) + path)
