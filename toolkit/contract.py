"""Check a game's manifest, schemas and text templates against its rules' declaration (GameSpec).

The declaration is the one place that says what a game's engine plays: its player range, the
content kinds its model reads, its effect vocabulary. Everything a designer writes must agree
with it, and each disagreement is reported where the designer would fix it.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from toolkit.diagnostics import Diagnostic, did_you_mean, error, warning
from toolkit.games import Game
from toolkit.paths import display
from toolkit.rules import rules_label


def check_declaration(game: Game, spec: Any, templates: dict[str, str] | None) -> list[Diagnostic]:
    """Every disagreement between the manifest (and the files it names) and `spec`."""
    out: list[Diagnostic] = []
    manifest = display(game.manifest_file)
    lo, hi = game.players
    if (lo, hi) != (spec.min_players, spec.max_players):
        bad = [n for n in (lo, hi) if not spec.min_players <= n <= spec.max_players]
        pos = game.manifest.pos(("players",), key=True)
        make = error if bad else warning
        out.append(make("HK304", f"players {lo}-{hi} in the manifest, but the rules {rules_label(str(game.rules))} play "
                        f"{spec.min_players}-{spec.max_players}", manifest, pos.line, pos.col,
                        "make the manifest's player range agree with the rules' declaration"))
    declared = dict(getattr(spec, "kinds", {}) or {})
    if declared:
        for kind, required in sorted(declared.items()):
            if required and kind not in game.kinds:
                pos = game.manifest.pos(("components",), key=True)
                out.append(error("HK305", f"the rules {rules_label(str(game.rules))} need component kind '{kind}', which the manifest "
                                 "does not list", manifest, pos.line, pos.col,
                                 did_you_mean(kind, sorted(game.kinds)) or f"add '{kind}' under components"))
        for name, kind in game.kinds.items():
            if name not in declared and not kind.physical:
                pos = game.manifest.pos(("components", name), key=True)
                out.append(warning("HK306", f"component kind '{name}' is neither read by the rules nor printed",
                                   manifest, pos.line, pos.col,
                                   did_you_mean(name, sorted(declared)) or "remove it, mark it physical, or declare it in the rules"))
    effects = frozenset(spec.effect_kinds)
    printed = getattr(spec, "printed_kinds", effects)
    if templates is not None:
        text_file = display(game.templates_dir / "text.yaml")
        for kind in sorted(printed - set(templates)):
            out.append(error("HK307", f"effect kind '{kind}' of the rules has no text template", text_file, 1, 1,
                             "every effect the engine plays needs its printed sentence"))
    for path, kind, line, col in schema_effect_kinds(game):
        if kind not in effects:
            out.append(error("HK308", f"the schema allows effect kind '{kind}', which the rules {rules_label(str(game.rules))} do not know",
                             display(path), line, col,
                             did_you_mean(kind, sorted(effects)) or "implement it in the rules or drop it from the schema"))
    return out


def schema_effect_kinds(game: Game) -> Iterator[tuple[Path, str, int, int]]:
    """(schema file, kind, line, column) of every effect kind a game's own schemas allow.

    An effect kind is the `const` (or an `enum` value) of a `kind` property below the top of a
    schema; a component file's own top-level `kind` is not an effect."""
    schemas = {k.schema for k in game.kinds.values() if k.schema.is_file()}
    files = sorted(schemas | {p for folder in {s.parent for s in schemas} for p in folder.glob("*.json")})
    for path in files:
        if game.schemas_dir not in path.parents and path.parent != game.schemas_dir:
            continue  # hordekit's shared schemas hold no game's effects
        try:
            st = path.stat()
        except OSError:
            continue  # reported by schema loading
        for kind, line, col in _effect_kinds_in(str(path), st.st_mtime_ns, st.st_size):
            yield path, kind, line, col


#: Where a schema's text gives a ``const`` or an ``enum``; its value runs to the next ']'.
_CONST_OR_ENUM = re.compile(r'"(?:const|enum)"\s*:\s*')


def _list_end(text: str, start: int) -> int:
    end = text.find("]", start)
    return len(text) if end < 0 else end


@lru_cache(maxsize=256)
def _effect_kinds_in(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, int, int], ...]:
    """(kind, line, column) of the effect kinds one schema file allows; remembered per version of
    the file, since validation asks twice (known kinds, then the rules' declaration)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        schema = json.loads(text)
    except (OSError, ValueError):
        return ()  # reported by schema loading
    found = []
    values = [(m.start(), text[m.end():_list_end(text, m.end())]) for m in _CONST_OR_ENUM.finditer(text)]
    for kind in dict.fromkeys(_kind_values(schema, top=True)):
        quoted = f'"{kind}"'
        at = next((pos for pos, value in values if quoted in value), None)  # the first const/enum naming it
        start = text.find(quoted, at) if at is not None else 0
        line = text.count("\n", 0, start) + 1
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        found.append((kind, line, col))
    return tuple(found)


def _kind_values(node: Any, top: bool = False) -> Iterator[str]:
    if isinstance(node, dict):
        props = node.get("properties")
        if not top and isinstance(props, dict) and isinstance(props.get("kind"), dict):
            k = props["kind"]
            if isinstance(k.get("const"), str):
                yield k["const"]
            for v in k.get("enum") or []:
                if isinstance(v, str):
                    yield v
        for key, v in node.items():
            if top and key == "properties" and isinstance(v, dict):
                yield from (x for name, sub in v.items() if name != "kind" for x in _kind_values(sub))
            else:
                yield from _kind_values(v)
    elif isinstance(node, list):
        for v in node:
            yield from _kind_values(v)
