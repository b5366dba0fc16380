"""`hordekit new`: write a self-contained game folder a designer can validate, print and play at once.

Two sources, both plain folders of data copied as they are:

- ``minimal``: the starter game in hordekit's ``starters/minimal`` (one component kind with two
  example cards, its schema, layouts, a card-text template, a rules file that plays, a scenario);
- any game shipped with hordekit (every folder with a ``game.yaml`` under hordekit's content):
  its content, schemas, templates and scenarios are copied in, and its manifest is pointed at
  the copies, so the new game no longer depends on hordekit's own files (its rules engine
  stays the shipped package it names).

The new game gets the id of its folder; only the manifest, scenario ``game:`` keys and the
editor's schema lines are rewritten, everything else is copied byte for byte.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from toolkit.paths import data_dir

MINIMAL = "minimal"
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MODELINE = re.compile(r"^# yaml-language-server: \$schema=.*$", re.MULTILINE)


class ScaffoldError(ValueError):
    """The game cannot be created where or as asked (a usage error)."""


@dataclass
class NewGame:
    folder: Path
    files: list[Path]
    source: str
    title: str


def shipped_games() -> dict[str, Path]:
    """Games that ship with hordekit, by id: whatever folders with a game.yaml the content holds."""
    content = data_dir("content")
    if not content.is_dir():
        return {}
    return {d.name: d for d in sorted(content.iterdir()) if (d / "game.yaml").is_file()}


def sources() -> list[str]:
    """What `hordekit new --from` accepts."""
    return [MINIMAL, *shipped_games()]


def id_from_title(name: str) -> str | None:
    """A game id made from a title typed as the name (``'My Game!'`` -> ``my-game``): ASCII
    letters and digits kept in lower case (accents dropped), everything else a single '-'; None
    when nothing is left."""
    plain = unicodedata.normalize("NFKD", name.lower()).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    return slug if ID_PATTERN.match(slug) else None


def target_folder(name: str) -> Path:
    """A bare name goes to ./content/NAME (where commands look by default); a path is used as given."""
    return Path(name) if ("/" in name or name.startswith(".")) else Path("content") / name


def check_target(folder: Path, source: str) -> str:
    """The new game's id, after checking the folder and the source; raises ScaffoldError."""
    gid = folder.resolve().name
    if not ID_PATTERN.match(gid):
        raise ScaffoldError(f"'{gid}' cannot be a game id: use lower-case letters, digits and '-' (e.g. fungus-wars)")
    if source not in sources():
        from toolkit.diagnostics import did_you_mean

        guess = did_you_mean(source, sources())
        raise ScaffoldError(f"unknown --from '{source}'{f' ({guess})' if guess else ''}; choose one of: {', '.join(sources())}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not empty; choose another name or remove it")
    blocked = next((p for p in folder.parents if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        raise ScaffoldError(f"cannot create {folder}: {blocked} is a file, not a folder")
    return gid


def create_game(folder: Path, source: str = MINIMAL, title: str | None = None) -> NewGame:
    """Write the new game into ``folder`` (built beside it, then moved in: never half a game)."""
    gid = check_target(folder, source)
    title = title or gid.replace("-", " ").title()
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScaffoldError(f"cannot create {folder.parent}: {exc.strerror}") from exc
    staging = folder.parent / f".{folder.name}.new"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        if source == MINIMAL:
            shutil.copytree(data_dir("starters") / MINIMAL, staging, ignore=shutil.ignore_patterns("__pycache__"))
            _retitle(staging / "game.yaml", gid, title, {}, {})
            rules = staging / "rules.py"
            rules.write_text(rules.read_text(encoding="utf-8").replace('id="starter"', f'id="{gid}"', 1), encoding="utf-8")
        else:
            _copy_shipped(shipped_games()[source], staging, gid, title)
        _copy_editor_schemas(staging / "schemas")
        _write_readme(staging, gid, title, source)
        _write_gitignore(staging)
        for scenario in sorted((staging / "scenarios").glob("*.yaml")):
            _set_scenario_game(scenario, gid)
        if folder.exists():
            folder.rmdir()
        staging.rename(folder)
    except OSError as exc:
        raise ScaffoldError(f"cannot write {folder}: {exc.strerror or exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return NewGame(folder, sorted(p for p in folder.rglob("*") if p.is_file()), source, title)


def _copy_shipped(game_dir: Path, staging: Path, gid: str, title: str) -> None:
    """A shipped game's content, schemas, templates and scenarios, made the new game's own.

    A shipped game that keeps its schemas or templates inside its own folder is copied with
    them as they are; one that uses hordekit's shared folders gets copies of its part of them.
    """
    from toolkit.games import read_manifest

    shipped_id = game_dir.name
    shutil.copytree(game_dir, staging, ignore=shutil.ignore_patterns("__pycache__"))
    game, _, _ = read_manifest(game_dir)
    updates: dict[str, str] = {}
    prefix: dict[str, str] = {}
    if game is not None and not _inside(game.schemas_dir, game_dir):
        own = game.schemas_dir / shipped_id
        if own.is_dir():  # hordekit's shared folder: this game's part, and the shared definitions
            shutil.copytree(own, staging / "schemas" / gid)
            (staging / "schemas").mkdir(exist_ok=True)
            for shared in game.schemas_dir.glob("*.schema.json"):
                shutil.copy2(shared, staging / "schemas" / shared.name)
            prefix = {f"{shipped_id}/": f"{gid}/"}
        else:  # a folder of the game's own elsewhere: all of it
            shutil.copytree(game.schemas_dir, staging / "schemas", dirs_exist_ok=True)
        updates["schemas"] = "schemas"
    if game is not None and not _inside(game.templates_dir, game_dir) and game.templates_dir.is_dir():
        shutil.copytree(game.templates_dir, staging / "templates", dirs_exist_ok=True)
        updates["templates"] = "templates"
    scenarios = data_dir("scenarios") / shipped_id
    if scenarios.is_dir() and not (staging / "scenarios").exists():
        shutil.copytree(scenarios, staging / "scenarios")
    _retitle(staging / "game.yaml", gid, title, updates, prefix)
    for path in staging.glob("*.yaml"):
        if path.name != "game.yaml":
            _point_modeline(path, staging, gid)


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _retitle(manifest: Path, gid: str, title: str, updates: dict[str, str], schema_prefix: dict[str, str]) -> None:
    """Give the copied manifest the new id and title, and point it at its own folders."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap the designer's lines
    data = yaml.load(manifest.read_text(encoding="utf-8"))
    data["id"] = gid
    data["title"] = title
    data.update(updates)
    for spec in (data.get("components") or {}).values():
        for old, new in schema_prefix.items():
            if str(spec.get("schema", "")).startswith(old):
                spec["schema"] = new + str(spec["schema"])[len(old):]
    with open(manifest, "w", encoding="utf-8") as fh:
        yaml.dump(data, fh)
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(MODELINE.sub("# yaml-language-server: $schema=schemas/manifest.schema.json", text, count=1),
                        encoding="utf-8")


def _point_modeline(path: Path, staging: Path, gid: str) -> None:
    """A copied content file's editor line names the copied schema, not hordekit's."""
    text = path.read_text(encoding="utf-8")
    match = MODELINE.search(text)
    if not match:
        return
    target = match.group(0).split("$schema=", 1)[1]
    name = Path(target).name
    own = staging / "schemas" / gid / name
    new = f"schemas/{gid}/{name}" if own.is_file() else target
    path.write_text(text.replace(match.group(0), f"# yaml-language-server: $schema={new}", 1), encoding="utf-8")


def _copy_editor_schemas(schemas: Path) -> None:
    """hordekit's manifest schema (and the shared definitions it uses) beside the game's own,
    so the editor completes game.yaml without reaching into hordekit's install."""
    schemas.mkdir(exist_ok=True)
    for name in ("manifest.schema.json", "common.schema.json"):
        if not (schemas / name).exists():
            shutil.copy2(data_dir("schemas") / name, schemas / name)


def _set_scenario_game(path: Path, gid: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^game:.*$", f"game: {gid}", text, count=1, flags=re.MULTILINE), encoding="utf-8")


def _write_gitignore(folder: Path) -> None:
    """Keep what hordekit writes (out/, run from inside the game folder) out of the game's repository."""
    (folder / ".gitignore").write_text(
        "# what hordekit writes when it runs in this folder: PDFs, smoke reports, PNGs\nout/\n", encoding="utf-8")


def _write_readme(folder: Path, gid: str, title: str, source: str) -> None:
    from jinja2 import Environment, StrictUndefined

    template = (data_dir("starters") / "README.md.j2").read_text(encoding="utf-8")
    text = Environment(undefined=StrictUndefined, keep_trailing_newline=True).from_string(template).render(
        id=gid, title=title, source=source, minimal=source == MINIMAL,
        has_rules_file=(folder / "rules.py").is_file(),
        has_scenarios=(folder / "scenarios").is_dir(),
        has_icons=(folder / "templates" / "icons.yaml").is_file())
    (folder / "README.md").write_text(text, encoding="utf-8")
