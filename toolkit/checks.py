"""Every check on a game's content, from the manifest down to cross-file rules.

Order matters only for usefulness: ids are collected before schema validation so that the
``x-ref`` keyword can check references during the same pass, and every problem is reported —
a broken file never stops the others from being checked.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

from toolkit.diagnostics import Diagnostic, did_you_mean, error, warning
from toolkit.games import UNREADABLE, Game, LoadedGame, Source, read_manifest, read_yaml
from toolkit.paths import data_dir, display
from toolkit.schemaval import IdIndex, SchemaChecker, SchemaStore
from toolkit.yamlload import LoadedYaml


def check_game(game_dir: Path) -> LoadedGame:
    game, manifest_doc, diags = read_manifest(game_dir)
    out = LoadedGame(game=game, diagnostics=diags)
    manifest_name = display(game_dir / "game.yaml")
    if manifest_doc.data is None:
        return out
    builtin = data_dir("schemas")
    roots = [builtin] + ([game.schemas_dir] if game is not None else [])
    store = SchemaStore(roots)
    out.diagnostics += SchemaChecker(store, builtin / "manifest.schema.json").check(manifest_doc, manifest_name)
    if game is None or not out.ok:
        return out
    out.diagnostics += _check_manifest_sense(game, manifest_name)
    for where, message in game.path_problems.items():
        pos = game.manifest.pos(where)
        if message.startswith(UNREADABLE):
            out.diagnostics.append(error("HK012", message.removeprefix(UNREADABLE), manifest_name, pos.line, pos.col,
                                         "check the folder's permissions"))
            continue
        out.diagnostics.append(error("HK017", message, manifest_name, pos.line, pos.col,
                                     "keep the game's files inside its folder (symbolic links included)"))
    schemas_named = game.manifest.data.get("schemas", "hordekit") if isinstance(game.manifest.data, dict) else None
    schemas_missing = bool(schemas_named) and schemas_named != "hordekit" and ("schemas",) not in game.path_problems \
        and not game.schemas_dir.is_dir()
    if schemas_missing:
        pos = game.manifest.pos(("schemas",))
        out.diagnostics.append(error(
            "HK013", f"schemas folder {schemas_named} not found: {display(game.schemas_dir)}", manifest_name,
            pos.line, pos.col, _with_guess("the folder of the kinds' schemas, relative to game.yaml; 'hordekit' "
                                           "for hordekit's own", game.schemas_dir)))
    named = game.manifest.data.get("templates") if isinstance(game.manifest.data, dict) else None
    if named and ("templates",) not in game.path_problems and not game.templates_dir.is_dir():
        pos = game.manifest.pos(("templates",))
        out.diagnostics.append(error(
            "HK014", f"templates folder {named} not found: {display(game.templates_dir)}", manifest_name,
            pos.line, pos.col, _with_guess("the folder of layouts.yaml and text.yaml, relative to game.yaml",
                                           game.templates_dir)))

    docs: dict[str, list[tuple[Path, LoadedYaml]]] = {}
    for kind in game.kinds.values():
        docs[kind.name] = []
        if ("components", kind.name, "file") in game.path_problems:
            continue
        if not kind.files or not all(f.is_file() for f in kind.files):
            pos = game.manifest.pos(("components", kind.name, "file"))
            out.diagnostics.append(error(
                "HK014", f"component file for '{kind.name}' not found: {display(kind.files[0]) if kind.files else '(empty folder)'}",
                manifest_name, pos.line, pos.col,
                _with_guess("the path is relative to game.yaml", kind.files[0] if kind.files else None)))
            continue
        for f in kind.files:
            doc, file_diags = read_yaml(f)
            out.diagnostics += file_diags
            out.docs[f] = doc
            docs[kind.name].append((f, doc))

    ids = _collect_ids(game, docs, out)
    # Ids of a kind whose file did not load are missing; references to them are not the fault of
    # the files that make them, so they are counted against the root cause instead of reported.
    unloaded = {k for k, files in docs.items() if not files or any(doc.data is None for _, doc in files)}
    checkers: list[SchemaChecker] = []
    for kind in game.kinds.values():
        if ("components", kind.name, "schema") in game.path_problems or ("schemas",) in game.path_problems \
                or schemas_missing:
            continue
        if not kind.schema.is_file():
            pos = game.manifest.pos(("components", kind.name, "schema"))
            out.diagnostics.append(error(
                "HK013", f"schema for '{kind.name}' not found: {display(kind.schema)}",
                manifest_name, pos.line, pos.col,
                _with_guess(f"schemas are looked up in {display(game.schemas_dir)}", kind.schema)))
            continue
        checker = SchemaChecker(store, kind.schema, ids, frozenset(unloaded))
        checkers.append(checker)
        if checker.problem is None:
            for f, doc in docs[kind.name]:
                if doc.data is not None:
                    out.diagnostics += _not_at_read_problems(checker.check(doc, display(f)), file_diags_of(out, f))
        if checker.problem is not None:
            p, pos = checker.problem, game.manifest.pos(("components", kind.name, "schema"))
            out.diagnostics.append(error(
                "HK018", f"{p.message} ({p.file}:{p.line}:{p.col})" if p.file else p.message,
                manifest_name, pos.line, pos.col,
                "fix the schema file; schemas are local JSON Schema 2020-12 files, never fetched from the network"))
    _note_skipped_refs(game, docs, checkers, out, manifest_name)

    # Counts and effects are only meaningful for files that read and validated cleanly;
    # otherwise they repeat the problem already reported.
    broken = {d.file for d in out.diagnostics if d.severity.value == "error"}
    clean = {k: [(f, doc) for f, doc in files if display(f) not in broken] for k, files in docs.items()}
    too_many = _check_copies(clean, out)
    _check_counts(game, out, manifest_name,
                  unloaded | too_many | {k for k, files in docs.items() if len(clean[k]) < len(files)})
    _check_effects(game, clean, out)
    if not any(d.severity.value == "error" for d in out.diagnostics):
        _check_game_rules(game, docs, out)
    out.diagnostics.sort(key=Diagnostic.sort_key)
    return out


def file_diags_of(out: LoadedGame, f: Path) -> set[tuple[int, int]]:
    """Positions in ``f`` that already carry a reading problem."""
    name = display(f)
    return {(d.line, d.col) for d in out.diagnostics if d.file == name and d.code < "HK100"}


def _not_at_read_problems(diags: list[Diagnostic], taken: set[tuple[int, int]]) -> list[Diagnostic]:
    """Drop schema errors at a place already reported while reading: one mistake, one error."""
    return [d for d in diags if (d.line, d.col) not in taken] if taken else diags


def _note_skipped_refs(game: Game, docs: dict[str, list[tuple[Path, LoadedYaml]]],
                       checkers: list[SchemaChecker], out: LoadedGame, manifest_name: str) -> None:
    """Tell, at the root cause, how many references it left unchecked."""
    skipped: dict[str, int] = {}
    for c in checkers:
        for kind, n in c.skipped_refs.items():
            skipped[kind] = skipped.get(kind, 0) + n
    for kind, n in skipped.items():
        names = {display(f) for f, _ in docs.get(kind, [])} | {manifest_name}
        causes = [i for i, d in enumerate(out.diagnostics) if d.severity.value == "error" and d.file in names and (
            d.file != manifest_name or d.code in ("HK013", "HK014", "HK017"))]
        causes.sort(key=lambda i: out.diagnostics[i].code != "HK001")  # a syntax error explains the rest
        for i in causes[:1]:
            d = out.diagnostics[i]
            out.diagnostics[i] = error(d.code, f"{d.message} ({n} reference{'s' * (n != 1)} to "
                                               f"'{kind}' ids elsewhere could not be checked)",
                                       d.file, d.line, d.col, d.hint)


def _with_guess(hint: str, missing: Path | None) -> str:
    """``hint``, and the file of a like name next to where a missing one was looked for."""
    if missing is None or missing.is_dir() or not missing.parent.is_dir():
        return hint
    try:
        near = [p.name for p in missing.parent.iterdir()]
    except OSError:
        return hint
    guess = did_you_mean(missing.name, near)
    return f"{hint}; {guess}" if guess else hint


def _check_manifest_sense(game: Game, manifest_name: str) -> list[Diagnostic]:
    diags = []
    lo, hi = game.players
    if lo > hi:
        pos = game.manifest.pos(("players", "min"))
        diags.append(error("HK206", f"players: min {lo} is more than max {hi}", manifest_name, pos.line, pos.col))
    folder = Path(os.path.abspath(game.dir)).name  # `.` when run inside the game's folder
    if game.id != folder:
        pos = game.manifest.pos(("id",))
        diags.append(warning("HK205", f"game id '{game.id}' differs from its folder name '{folder}'",
                             manifest_name, pos.line, pos.col, "rename one so that paths and ids agree"))
    return diags


def _collect_ids(game: Game, docs: dict[str, list[tuple[Path, LoadedYaml]]], out: LoadedGame) -> IdIndex:
    """Index ids by kind, report duplicates across the game, and gather the plain data."""
    ids: IdIndex = {}
    for kind_name, files in docs.items():
        ids[kind_name] = set()
        items_out: list[dict[str, Any]] = []
        for f, doc in files:
            data = doc.data
            if not isinstance(data, dict):
                continue
            name = display(f)
            items = data.get("items")
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if not isinstance(item, dict):
                    continue
                items_out.append(item)
                item_id = item.get("id")
                if not isinstance(item_id, str):
                    continue
                pos = doc.pos(("items", i, "id"))
                if item_id in out.sources:
                    first = out.sources[item_id]
                    out.diagnostics.append(error(
                        "HK201", f"duplicate id '{item_id}'", name, pos.line, pos.col,
                        f"first defined at {first}; ids are unique across the whole game"))
                    continue
                fields = {}
                for key in item:
                    at = doc.pos(("items", i, key))
                    fields[str(key)] = (at.line, at.col)
                out.sources[item_id] = Source(name, pos.line, pos.col, fields)
                ids[kind_name].add(item_id)
        out.data[kind_name] = items_out
    return ids


#: Copies of one item hordekit will count, print and deal. A game's schema may allow any
#: quantity; a mistyped 100000000 must still be refused, not printed for hours.
MAX_COPIES = 1000


def _check_copies(clean: dict[str, list[tuple[Path, LoadedYaml]]], out: LoadedGame) -> set[str]:
    """HK108 for an item with more than MAX_COPIES copies (in files the schema passed); the kinds
    that have one, whose count is then not checked against the manifest."""
    kinds: set[str] = set()
    for kind, files in clean.items():
        for f, doc in files:
            items = doc.data.get("items") if isinstance(doc.data, dict) else None
            for i, item in enumerate(items if isinstance(items, list) else []):
                q = item.get("quantity") if isinstance(item, dict) else None
                if isinstance(q, (int, float)) and not isinstance(q, bool) and q > MAX_COPIES:
                    pos = doc.pos(("items", i, "quantity"))
                    out.diagnostics.append(error(
                        "HK108", f"quantity {q:,} is more than the {MAX_COPIES:,} copies of one item hordekit "
                                 f"counts and prints (at items[{i}].quantity)", display(f), pos.line, pos.col,
                        "no game has that many of one piece: look for a typo"))
                    kinds.add(kind)
    return kinds


def _check_counts(game: Game, out: LoadedGame, manifest_name: str, skip: set[str]) -> None:
    counts = out.counts(physical_only=False)
    for name, kind in game.kinds.items():
        if name in skip or not all(f.is_file() for f in kind.files):
            continue
        have = counts.get(name, 0)
        if have != kind.expected:
            pos = game.manifest.pos(("components", name, "expected"))
            out.diagnostics.append(error(
                "HK204", f"'{name}' has {have} pieces (quantities included) but the manifest expects {kind.expected}",
                manifest_name, pos.line, pos.col,
                "add or remove items, fix a quantity, or correct 'expected' if the rulebook says otherwise"))


def effects_in(data: Any, path: tuple[Any, ...] = (), known: frozenset[str] = frozenset()
               ) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(path, kind) of every effect: a mapping with a 'kind' that is one of the `known` effect
    kinds (the rules' vocabulary and the kinds the game's schemas allow), wherever it sits, or
    any 'kind' under a field named '*effect*' (so a misspelt kind there is still found)."""
    if isinstance(data, dict):
        kind = data.get("kind")
        if path and isinstance(kind, str) and (kind in known or any(
            isinstance(p, str) and "effect" in p for p in path
        )):
            yield path, kind
        for k, v in data.items():
            if isinstance(v, (dict, list)):  # scalars hold no effect: skip the generator
                yield from effects_in(v, path + (k,), known)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if isinstance(v, (dict, list)):
                yield from effects_in(v, path + (i,), known)


def load_text_templates(game: Game) -> dict[str, str] | None:
    """The game's effect text templates (templates/<game>/text.yaml), or None when it has none
    or it cannot be read (see ``read_text_templates``)."""
    return read_text_templates(game)[0]


def read_text_templates(game: Game) -> tuple[dict[str, str] | None, list[Diagnostic]]:
    """The game's effect text templates and the problems reading them.

    A text.yaml that cannot be read (not UTF-8, no permission, empty, not a mapping) is one error
    at the file, and None: its effects are then not reported one by one as having no sentence.
    """
    path = game.templates_dir / "text.yaml"
    if not (path.exists() or path.is_symlink()):
        return None, []
    doc, diags = read_yaml(path)
    if diags:
        return None, diags
    if not isinstance(doc.data, dict):
        return None, [error("HK403", f"text.yaml must map each effect kind to its sentence, not hold "
                                     f"{'a list' if isinstance(doc.data, list) else 'a single value'}",
                            display(path), 1, 1, "write lines such as  draw: \"Draw {{ amount }} cards.\"")]
    return {str(k): v for k, v in doc.data.items()}, []


def rules_spec(game: Game) -> Any | None:
    """The game's rules declaration (GameSpec), or None when it has no engine yet."""
    return rules_spec_or_reason(game)[0]


def rules_spec_or_reason(game: Game) -> tuple[Any | None, str]:
    """The game's GameSpec, or None and why it could not be loaded ('' when it names no rules)."""
    if not game.rules:
        return None, ""
    from toolkit.rules import load_rules

    try:
        return load_rules(game.rules), ""
    except (ImportError, LookupError) as exc:
        return None, str(exc).replace(str(game.dir.resolve()) + os.sep, "")


def _rules_name(game: Game) -> str:
    """The rules as the designer reads them: a rules file by its path from here, else its name."""
    from toolkit.rules import rules_label

    return rules_label(str(game.rules))


def _rules_hint(game: Game, reason: str) -> str:
    """What to do about rules that do not load: the likeliest slip first."""
    from toolkit.rules import is_rules_file

    name = str(game.rules)
    if not is_rules_file(name) and (game.dir / f"{name}.py").is_file():
        return f"a rules file in the game's folder is named with its .py: did you mean `rules: {name}.py`?"
    if is_rules_file(name) and ("Error" in reason or "line " in reason):
        return f"fix {_rules_name(game)} where the message says; smoke games cannot run until it loads"
    return "smoke games cannot run until the rules engine exists"


def rules_effect_kinds(game: Game) -> frozenset[str] | None:
    """Effect kinds the game's rules engine implements, or None when it has no engine yet."""
    spec = rules_spec(game)
    return None if spec is None else frozenset(spec.effect_kinds)


def _report_missing_text_file(game: Game, docs: dict[str, list[tuple[Path, LoadedYaml]]], out: LoadedGame,
                              known: frozenset[str]) -> None:
    """A printed game with effects but no text.yaml: one error at the first effect, with a count
    (without it every card would print its effects as '[kind]')."""
    found = [(f, doc, path) for files in docs.values() for f, doc in files
             for path, _ in effects_in(doc.data, known=known)]
    if not found:
        return
    f, doc, path = found[0]
    pos = doc.pos(path + ("kind",))
    text_file = display(game.templates_dir / "text.yaml")
    out.diagnostics.append(error(
        "HK303", f"{text_file} not found: {len(found)} effect{'s' * (len(found) != 1)} would print "
                 "without their sentences", display(f), pos.line, pos.col,
        "the game has print layouts, so every effect kind needs a text template in text.yaml"))


def _check_effects(game: Game, docs: dict[str, list[tuple[Path, LoadedYaml]]], out: LoadedGame) -> None:
    """Every effect in content must be printable (a text template) and playable (a handler)."""
    templates, text_problems = read_text_templates(game)
    out.diagnostics += text_problems
    spec, rules_reason = rules_spec_or_reason(game)
    implemented = None if spec is None else frozenset(spec.effect_kinds)
    from toolkit.contract import check_declaration, schema_effect_kinds

    known = frozenset(k for _, k, _, _ in schema_effect_kinds(game)) | (implemented or frozenset())
    if spec is not None:
        out.diagnostics += check_declaration(game, spec, templates)
    manifest_name = display(game.manifest_file)
    if game.rules and implemented is None:
        pos = game.manifest.pos(("rules",))
        why = f" ({rules_reason})" if rules_reason else ""
        out.diagnostics.append(warning(
            "HK301", f"rules module {_rules_name(game)} is not available{why}: effects are not checked against it",
            manifest_name, pos.line, pos.col, _rules_hint(game, rules_reason)))
    printed = (game.templates_dir / "layouts.yaml").is_file()
    if templates is None and printed and not text_problems:
        _report_missing_text_file(game, docs, out, known)
    for files in docs.values():
        for f, doc in files:
            for path, kind in effects_in(doc.data, known=known):
                pos = doc.pos(path + ("kind",))
                if implemented is not None and kind not in implemented:
                    out.diagnostics.append(error(
                        "HK302", f"effect kind '{kind}' is not implemented by the rules {_rules_name(game)}", display(f),
                        pos.line, pos.col, did_you_mean(kind, sorted(implemented)) or
                        "add a handler to the game's effect registry, or use an implemented kind"))
                if templates is not None and kind not in templates:
                    out.diagnostics.append(error(
                        "HK303", f"effect kind '{kind}' has no text template in {display(game.templates_dir / 'text.yaml')}",
                        display(f), pos.line, pos.col, "every effect needs a printed sentence"))


def _rules_read_content(game: Game, spec: Any, out: LoadedGame) -> bool:
    """Whether the rules build their model from the content, as every smoke game and scenario
    will; if not (a field renamed in the content and not in the rules), error HK310 at the line of
    the rules that failed, so `validate` says what `smoke` would."""
    from toolkit.rules import rules_frames

    try:
        spec.build_model(out.data)
    except Exception as exc:  # noqa: BLE001 - the designer's own rules code
        frames = rules_frames(exc)
        if frames:
            named = [f.name for f in frames if not f.name.startswith("<")]  # not <dictcomp>, <lambda>
            file, line, col = frames[-1].file, frames[-1].line, frames[-1].col
            where = f" (in {named[-1]})" if named else ""
        else:
            pos = game.manifest.pos(("rules",))
            file, line, col, where = display(game.manifest_file), pos.line, pos.col, ""
        out.diagnostics.append(error(
            "HK310", f"the rules cannot read this content: {type(exc).__name__}: {exc}{where}", file, line, col,
            "the rules read the content by the names of its kinds and fields: a name changed in the content "
            "(or its schema) needs the same change in the rules, or the content lacks what they need"))
        return False
    return True


def _check_game_rules(game: Game, docs: dict[str, list[tuple[Path, LoadedYaml]]], out: LoadedGame) -> None:
    """The game's own content rules (GameSpec.check_content), each problem at its file:line:col; then,
    when they hold, whether the rules build their model from the content (HK310)."""
    spec = rules_spec(game)
    check = getattr(spec, "check_content", None) if spec is not None else None
    if check is None:
        if spec is not None:
            _rules_read_content(game, spec, out)
        return
    where: dict[tuple[str, int], tuple[Path, LoadedYaml, int]] = {}
    for kind, files in docs.items():
        n = 0
        for f, doc in files:
            items = doc.data.get("items") if isinstance(doc.data, dict) else None
            for i, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict):
                    where[(kind, n)] = (f, doc, i)
                    n += 1
    try:
        problems = check(spec.model_content(out.data))
    except Exception as exc:  # a rules module's own bug must not hide the content's problems
        pos = game.manifest.pos(("rules",))
        out.diagnostics.append(warning("HK309", f"the rules' content check failed: {type(exc).__name__}: {exc}",
                                       display(game.manifest_file), pos.line, pos.col,
                                       "a bug in the rules module; its own content rules were not checked"))
        return
    for p in problems:
        found = where.get((str(p.kind), int(p.index)))
        if found is None:
            name, line, col = display(game.manifest_file), 1, 1
        else:
            f, doc, i = found
            pos = doc.pos(("items", i) + tuple(p.path))
            name, line, col = display(f), pos.line, pos.col
        out.diagnostics.append(error("HK309", str(p.message), name, line, col, str(getattr(p, "hint", "") or "")))
    if not problems:  # the game's own checks, more precise, come first
        _rules_read_content(game, spec, out)
    out.diagnostics.sort(key=Diagnostic.sort_key)
